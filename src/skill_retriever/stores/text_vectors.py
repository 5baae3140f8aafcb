"""The vectors of one write, by the text they are embedded from: one index embeds a text once.

A vector depends only on the model and the exact text embedded, and every vector an index
holds was made by its one embedder (``stores.opening`` refuses to open it with another), so
a text the index holds a vector of under any id takes that vector: a renamed folder's items
and relations (new ids, the same texts and sentences), a skill copied into two plugins, a
file moved inside its folder. A text met twice in one write is embedded once. Each stored
vector's hash is its text's (`Node.content_hash`, `writer.text_hash`: both SHA-256 of the
text embedded), which is what it is looked up by.

Only the vectors the index holds now are looked in. Those of items an earlier write deleted
are gone with them (``items.sqlite`` overwrites deleted rows: a removed item must not stay
readable in the file), so a source taken out with ``remove-source`` and indexed again from
its new folder embeds its texts again; indexed from there under its held name, it is moved
(`source_moves`: its items keep their ids and vectors) and embeds none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import chain

from skill_retriever.stores.embedder import Embedder, SentenceTransformerEmbedder, Vectors
from skill_retriever.stores.live import LiveState
from skill_retriever.stores.rows import Vector

__all__ = ["TextVectors", "embed_texts"]


def embed_texts(embedder: Embedder, texts: list[str], progress: Callable[[int], None] | None) -> Vectors:
    """``embedder.embed(texts)``, ``progress`` told of each batch of them done where the
    embedder says (`SentenceTransformerEmbedder.embed`); another embedder's one call tells
    nothing (the write's end moves the bar)."""
    if progress is not None and isinstance(embedder, SentenceTransformerEmbedder):
        return embedder.embed(texts, progress)
    return embedder.embed(texts)


class TextVectors:
    """Text hash -> vector, for one write: those the index holds (read once, when a text
    needs one), and those the write embedded since."""

    def __init__(self, live: LiveState, embedder: Embedder) -> None:
        self._live = live
        self._embedder = embedder
        self._held: dict[str, Vector] | None = None

    def _by_hash(self) -> dict[str, Vector]:
        if self._held is None:
            stored = chain(self._live.node_vectors.values(), self._live.edge_vectors.values())
            self._held = {s.vhash: s.vector for s in stored if s.vhash}
        return self._held

    def vectors(self, texts: Mapping[str, str], progress: Callable[[int], None] | None = None) -> tuple[dict[str, Vector], int]:
        """Hash -> vector for each of ``texts`` (hash -> text): a held one taken, the others
        embedded in one call, each text once; and how many texts were embedded."""
        if not texts:
            return {}, 0
        held = self._by_hash()
        missing = [h for h in texts if h not in held]
        if missing:
            made = embed_texts(self._embedder, [texts[h] for h in missing], progress)
            held.update(zip(missing, made, strict=True))
        return {h: held[h] for h in texts}, len(missing)
