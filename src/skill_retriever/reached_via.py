"""How the graph route reached an item, told without the item's own name as the hop.

On a passage corpus every passage is joined to the entity of its own title, and each of
its facts is named after that title (``ingest.passages``, ``ingest.facts``). When such a
node is a seed (the query names the title, or a matching fact names it), the shortest
path to the passage is that one edge, and the answer read "Maximum Overdrive ... reached
via Maximum Overdrive". The hop a multi-hop reader wants starts at another seed: the
passage about Leland names Maximum Overdrive, whose passage is the answer.

`real_paths` swaps a path that starts at a node bearing its target's own name for a path
from the other seeds (the phase's search: to that own-name seed first, the fact or passage
that names the target, else to the target), or drops it when there is none; `hop_text` is what
"reached via" prints, never the item's own name; `own_title_entity` tells an item the
walk can reach from its own name (a passage about a title) from a catalogue item.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from skill_retriever.ingest.passages import normalise_entity
from skill_retriever.model import Node
from skill_retriever.state import PathInfo

__all__ = ["bears_own_name", "hop_text", "name_key", "own_title_entity", "real_paths"]

#: A trailing disambiguation, dropped from a title before it names an entity
#: (``ingest.passages``: "Lilu (mythology)" makes the entity "Lilu").
_DISAMBIGUATION = re.compile(r"\s*\([^()]*\)\s*$")


def name_key(name: str) -> str:
    """A name as passage ingestion merges entities: no trailing disambiguation, then
    `normalise_entity` ("The Beatles", "Beatles (band)" -> "beatles")."""
    return normalise_entity(_DISAMBIGUATION.sub("", name).strip() or name)


def bears_own_name(node: Node, item: Node) -> bool:
    """Whether ``node`` is ``item``'s own name rather than a step towards it: the entity
    of its title, one of its facts (named after it), or anything else that reads as it."""
    return node.id != item.id and name_key(node.name) == name_key(item.name)


def real_paths(
    paths: Mapping[str, PathInfo],
    nodes: Mapping[str, Node],
    seeds: Sequence[str],
    search: Callable[[str, list[str], str], PathInfo | None],
) -> dict[str, PathInfo]:
    """``paths`` with each one that starts at its target's own name replaced by a path
    from the other seeds, or left out when those reach no target.

    Args:
        paths: Target id -> the path that explains it (seed first, target last).
        nodes: The snapshot's nodes.
        seeds: The walk's seed ids.
        search: ``(target, starts, own) ->`` the best path from ``starts`` to ``target``
            (``own``: the seed of its own name the path started at), or None.
    """
    out: dict[str, PathInfo] = {}
    for target, info in paths.items():
        item = nodes[target]
        if not bears_own_name(nodes[info["nodes"][0]], item):
            out[target] = info
            continue
        starts = [s for s in seeds if s != target and not bears_own_name(nodes[s], item)]
        found = search(target, starts, info["nodes"][0]) if starts else None
        if found is not None and not bears_own_name(nodes[found["nodes"][0]], item):
            out[target] = found
    return out


def hop_text(names: Sequence[str], item_name: str) -> str:
    """The steps of a path before its item, as "reached via" prints them: a step that
    bears the item's own name is left out (the item is never reached via itself), one
    name repeated in a row is said once (a title entity beside its passage), and a path
    whose last step was the item's own title ends ", which names it". "" when no step
    other than the item's own name is left.

    Args:
        names: The names along the path, seed first, the item itself left out.
        item_name: The item's name.
    """
    own = name_key(item_name)
    steps: list[str] = []
    for name in names:
        if name_key(name) != own and (not steps or steps[-1] != name):
            steps.append(name)
    if not steps:
        return ""
    names_it = ", which names it" if names and name_key(names[-1]) == own else ""
    return " -> ".join(steps) + names_it


def own_title_entity(item: Node, mentioned: Iterable[Node]) -> bool:
    """Whether ``item`` mentions an entity of its own name (a passage and the entity of its
    title): the walk can reach such an item from its own name, which is no hop to show.

    Args:
        item: The item.
        mentioned: The nodes it mentions (the targets of its ``MENTIONS`` edges).
    """
    return any(bears_own_name(node, item) for node in mentioned)
