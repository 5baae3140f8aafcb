"""What a load of the stored vectors is checked for: the length the manifest names
(``dim``) against the vectors' own, and the rows and vectors that cannot be used.

- A reader refuses a manifest whose ``dim`` most stored vectors disagree with; a writer
  corrects it when the embedder agrees with the vectors (`settle_dim`).
- A few unusable rows or vectors are damage that is said, with what mends it
  (`warn_unusable`); the rest of the index is served.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from skill_retriever.advice import command
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.rows import Changes

log = logging.getLogger("skill_retriever")

__all__ = ["settle_dim", "warn_unusable"]


def settle_dim(path: Path, manifest: dict[str, Any], changes: Changes, embedder: Embedder, *, writer: bool) -> int:
    """0 when the manifest's ``dim`` fits the stored vectors of a full load (a few
    unusable ones are damage, repaired by embedding them again); else, for a writer, the
    length the manifest is to be corrected to.

    Raises:
        IndexCorruptError: Most stored vectors have another length than the manifest says
            (a reader), or than the embedder makes (a writer).
    """
    dim = manifest.get("dim")
    if not (isinstance(dim, int) and dim > 0) or not changes.unusable_lengths:
        return 0
    length, count = max(changes.unusable_lengths.items(), key=lambda kv: (kv[1], kv[0]))
    usable = len(changes.node_vectors) + len(changes.edge_vectors)
    if length == dim or count <= usable:
        return 0
    found = (
        f"{path / mf.MANIFEST} says vectors have {dim} numbers, but {count} of the "
        f"{count + usable} stored vectors have {length}"
    )
    if not writer:
        raise IndexCorruptError(
            f"{found}; run `{command(['repair'], path)}` to correct it, or rebuild the index "
            "into a new directory with `skill-retriever index <sources> --index-dir <new directory>`"
        )
    if embedder.dim != length:
        raise IndexCorruptError(
            f"{found}, and the embedder {embedder.name} makes {embedder.dim}; rebuild the index into a new "
            "directory with `skill-retriever index <sources> --index-dir <new directory>`"
        )
    log.warning("[skill_retriever][index] %s: corrected it to %d", found, length)
    return length


def warn_unusable(path: Path, live: LiveState, dim: int, *, vectors: bool = True) -> None:
    """Say how many rows could not be read at all and (``vectors``) how many stored vectors
    could not be used, and what to do."""
    damaged = {**live.damaged_nodes, **live.damaged_edges}
    if damaged:
        first, why = next(iter(damaged.items()))
        log.warning(
            "[skill_retriever][index] %d row(s) of %s/items.sqlite cannot be read back and are left out "
            "(first: %r, %s); the rest of the index is served. Index their source again to rewrite them "
            "(or rebuild the index into a new directory)",
            len(damaged), path, first, why,
        )
    nodes, edges = len(live.unusable_nodes), len(live.unusable_edges)
    if vectors and (nodes or edges):
        log.warning(
            "[skill_retriever][index] %d item vector(s) and %d relation vector(s) in %s are unusable (missing, all "
            "zeros, or not %d finite float32 numbers); those items are found by keywords and the graph only until you run "
            "`%s`, which embeds them again from their text",
            nodes, edges, path, dim, command(["repair"], path),
        )
