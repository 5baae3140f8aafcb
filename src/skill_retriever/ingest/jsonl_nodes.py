"""What to do with a ``.jsonl`` file of graph nodes (an incident export, ``jq -c '.nodes[]'``
output): a JSON graph is one ``.json`` file, and ``jq -s '{nodes: .}'`` makes one.

`toolret.jsonl_advice` said of every ``.jsonl`` file but ``tools.jsonl`` that a tool set is
a folder holding ``tools.jsonl``; for a file of incidents, followed, that indexed each one
as a tool, its kind and times lost to ``attrs``. Its first line tells which was meant.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from skill_retriever.model import NodeKind

#: How much of the file is read to find its first line: a node is far smaller.
_HEAD_BYTES = 1 << 20
_NODE_KINDS = frozenset(k.value for k in NodeKind) - {NodeKind.TOOL.value}


def nodes_jsonl_advice(path: Path) -> str | None:
    """The advice for ``path`` when its first line is a graph node of a kind other than a
    tool (``"kind": "incident"``, or ``type`` as a JSON graph reads it), else None."""
    try:
        with path.open("r", encoding="utf-8-sig", errors="replace") as fh:
            head = fh.read(_HEAD_BYTES)
    except OSError:
        return None  # the reader that indexes the file says why it cannot be read
    first = next((line for line in head.splitlines() if line.strip()), "")
    try:
        item = json.loads(first)
    except ValueError:
        return None
    if not isinstance(item, dict):
        return None
    kind = item.get("kind", item.get("type"))
    if not isinstance(kind, str) or kind.lower() not in _NODE_KINDS:
        return None
    graph = path.with_suffix(".json")
    make = f"jq -s '{{nodes: .}}' {shlex.quote(str(path))} > {shlex.quote(str(graph))}"
    return (f"{path} holds graph nodes one a line (the first: kind {kind.lower()!r}); a JSON graph is one .json file, "
            f'{{"nodes": [...], "edges": [...]}}: make it with {make} and index {graph}')
