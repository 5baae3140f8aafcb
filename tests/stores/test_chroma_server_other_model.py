"""A collection under an index's names that another program made, against a real `chroma
run` server: with another model's vectors (another length), and with chromadb's legacy
``hnsw:space`` metadata.

- Another model's vectors: queries failed with chromadb's "Collection expecting embedding
  with dimension of 32, got 64", naming no server, and ``repair`` (which ``stats``
  advised) ended in that traceback. Now a query searches in memory and says why, ``stats``
  names the collection and the length of its vectors, ``repair`` refuses in one line and
  leaves the collection as it was, and ``move-to-server`` (what they all advise) mends it.
- Legacy metadata on an unmarked collection holding nothing foreign: ``repair`` claimed it
  with chromadb's "Changing the distance function ... is not supported" traceback; now it
  claims it and copies the vectors.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from chroma_support import collection_names
from cli_calls import run
from files import write_file

from skill_retriever.stores.vectors import chroma_client

SKILLS = {"pg": "postgres migrations checked before each deploy", "dk": "docker image builds with layer caching"}


def _built(root: Path, url: str, capsys: pytest.CaptureFixture[str]) -> Path:
    for name, text in SKILLS.items():
        write_file(root / "repo", f"skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: {text}\n---\n{text}\n")
    where = root / "ix"
    code, _, err = run(capsys, "index", root / "repo", "--index-dir", where, "--embedder", "hashing-64", "--chroma-url", url)
    assert code == 0, err
    return where


def _replace_nodes(url: str, where: Path, *, dim: int | None) -> tuple[str, list[str]]:
    """Put an unmarked collection with legacy metadata in place of the index's node
    collection: holding its ids with vectors of ``dim`` numbers, or empty (``dim`` None)."""
    client, name = chroma_client(url), collection_names(where)[0]
    ids = sorted(client.get_collection(name).get()["ids"])
    client.delete_collection(name)
    made = client.create_collection(name, metadata={"hnsw:space": "cosine"}, embedding_function=None)
    if dim is not None:
        made.add(ids=ids, embeddings=np.random.default_rng(0).random((len(ids), dim)).astype(np.float32))
    return name, ids


def _one_line(text: str) -> str:
    line = text.strip()
    assert "\n" not in line and "Traceback" not in line and len(line) < 600, text
    return line


def test_another_models_collection_is_searched_around_and_named(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = _built(tmp_path, url, capsys)
    name, ids = _replace_nodes(url, where, dim=32)
    said = f"the collection {name} on {url} holds vectors of 32 numbers, where {where}'s have 64"

    code, out, err = run(capsys, "query", "postgres migration before deploy", "--index-dir", where, "--json")
    assert code == 0 and "InvalidArgumentError" not in err, err
    answer = json.loads(out)
    assert answer["results"][0]["id"].endswith("pg/SKILL.md")
    assert any(said in w and "held in memory" in w and "move-to-server" in w for w in answer["warnings"]), answer

    code, out, _ = run(capsys, "stats", "--index-dir", where, "--json")
    assert code == 0 and said in json.loads(out)["server"]["other_model"]
    code, out, _ = run(capsys, "stats", "--index-dir", where)
    held = next(x for x in out.splitlines() if x.startswith("server:"))
    assert said in held and "move-to-server" in held and "copies the index's there" not in held, held

    code, _, err = run(capsys, "repair", "--index-dir", where)
    line = _one_line(err)
    assert code == 2 and said in line and f"move-to-server --index-dir {where} --chroma-url {url}" in line, line
    kept = chroma_client(url).get_collection(name)
    assert kept.get_model().dimension == 32 and sorted(kept.get()["ids"]) == ids and "hnsw:space" in kept.metadata

    code, _, err = run(capsys, "move-to-server", "--index-dir", where, "--chroma-url", url)
    assert code == 0, err
    code, out, err = run(capsys, "query", "docker layer caching", "--index-dir", where, "--json")
    assert code == 0 and json.loads(out)["warnings"] == [] and "held in memory" not in err, (out, err)
    assert run(capsys, "repair", "--index-dir", where)[0] == 0


def test_an_unmarked_collection_with_legacy_metadata_is_claimed(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = _built(tmp_path, url, capsys)
    name, ids = _replace_nodes(url, where, dim=None)
    code, out, err = run(capsys, "repair", "--index-dir", where, "--json")
    assert code == 0 and "Traceback" not in err, err
    assert json.loads(out)["nodes"] == len(ids)
    claimed = chroma_client(url).get_collection(name)
    assert sorted(claimed.get()["ids"]) == ids and claimed.metadata.get("skill_retriever_index_dir") == str(where.resolve())
    code, out, err = run(capsys, "query", "postgres migration before deploy", "--index-dir", where, "--json")
    assert code == 0 and json.loads(out)["warnings"] == [], (out, err)
