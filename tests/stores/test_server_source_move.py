"""A source whose folder was moved, indexed from there under its held name, on a real
`chroma run` server: a move (`source_moves`), as on the embedded store. Nothing is
embedded, the server keeps each item's vector under its id, and the item the new folder
no longer holds leaves the server too."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index
from skill_retriever.stores.server_moves import move_index_to_server
from skill_retriever.stores.vectors import chroma_client


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: {name} for tests\n---\n\n{name} body\n"


def test_a_moved_folder_on_a_server_embeds_nothing_and_keeps_its_vectors(url: str, tmp_path: Path) -> None:
    old = tmp_path / "w"
    for name in ("alpha", "beta", "gamma"):
        write_file(old, f"skills/{name}/SKILL.md", _skill(name))
    path = tmp_path / "ix"
    with Index.open(path, embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, old, calibrate=False)
    move_index_to_server(path, url, embedder=HashingEmbedder())
    collection = chroma_client(url).get_collection(f"{mf.read_manifest(path)['collection_prefix']}-nodes")
    before = collection.get(include=["embeddings"])
    held = dict(zip(before["ids"], before["embeddings"], strict=True))
    new = old.rename(tmp_path / "w4")
    (new / "skills/gamma/SKILL.md").unlink()
    embedder = HashingEmbedder()
    with Index.open(path, embedder=embedder, writable=True) as index:
        run = index_sources(index, new, source_name="w", calibrate=False)
        assert embedder.texts_embedded == 0 and run.embedded == 0
        assert run.moved == {str(new): {"from": [str(old)], "to": str(new), "items": 3}}
        assert {n.attrs["source_root"] for n in index.snapshot().nodes.values()} == {str(new)}
    after = collection.get(include=["embeddings"])
    assert sorted(after["ids"]) == ["w/skills/alpha/SKILL.md", "w/skills/beta/SKILL.md"]
    for item_id, vector in zip(after["ids"], after["embeddings"], strict=True):
        np.testing.assert_allclose(vector, held[item_id])
