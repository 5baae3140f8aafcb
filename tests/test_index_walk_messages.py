"""What a bad file or a bad entry of a JSON graph tells its author to do (user
walkthroughs): each problem says what is wrong and what to do about it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from files import deny_reading, write_file

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def index_dir(tmp_path: Path) -> str:
    path = tmp_path / "index"
    Index.open(path, embedder=HashingEmbedder(), create=True).close()
    return str(path)


def _messages(problems: list[Any]) -> dict[str, str]:
    return {Path(p.path).name: p.message for p in problems}


def test_a_file_not_utf8_or_unreadable_says_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_file(tmp_path / "repo", "skills/latin/SKILL.md", b"---\nname: latin\ndescription: Caf\xe9\n---\nx\n")
    locked = write_file(tmp_path / "repo", "skills/locked/SKILL.md", "---\nname: l\ndescription: L.\n---\nx\n")
    deny_reading(monkeypatch, locked)
    problems = ingest_skill_repo(tmp_path / "repo").problems
    by_dir = {Path(p.path).parent.name: p.message for p in problems}
    assert by_dir["latin"].startswith("not UTF-8 text") and by_dir["latin"].endswith("save it as UTF-8 and index again")
    assert by_dir["locked"] == "cannot read: Permission denied; make it readable and index again"


def test_a_file_over_the_size_limit_says_how_to_raise_it(tmp_path: Path, index_dir: str) -> None:
    write_file(tmp_path / "docs", "long.md", "# Long\n\n" + "word " * 100 + "\n")
    (message,) = _messages(ingest_documents(tmp_path / "docs", max_file_bytes=100).problems).values()
    assert "over the 100-byte limit" in message and "raise the limit (index --max-file-bytes N" in message
    with Index.open(Path(index_dir)) as index:  # the limit reaches the readers through index_sources
        run = index_sources(index, [tmp_path / "docs"], "docs", calibrate=False, max_file_bytes=100)
        assert not run.sources[0].nodes and "over the 100-byte limit" in run.sources[0].problems[0].message
        run = index_sources(index, [tmp_path / "docs"], "docs", calibrate=False)
        assert [n.id for n in run.sources[0].nodes] == ["docs/long.md"]


def test_the_cli_flag_sets_the_size_limit(tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    write_file(tmp_path / "docs", "long.md", "# Long\n\n" + "word " * 100 + "\n")
    docs = str(tmp_path / "docs")
    assert main(["index", docs, "--kind", "docs", "--index-dir", index_dir, "--max-file-bytes", "100"]) == 1
    assert "over the 100-byte limit" in capsys.readouterr().out
    assert main(["index", docs, "--kind", "docs", "--index-dir", index_dir, "--max-file-bytes", "0"]) == 2
    assert "--max-file-bytes must be > 0, got 0" in capsys.readouterr().err
    assert main(["index", docs, "--kind", "docs", "--index-dir", index_dir, "--max-file-bytes", "100000"]) == 0
    with Index.open(Path(index_dir)) as index:
        assert "docs/long.md" in index.snapshot().nodes


def test_a_bad_document_date_says_the_field_is_left_unset(tmp_path: Path) -> None:
    write_file(tmp_path / "docs", "a.md", "---\ntitle: A\nupdated: 2026-13-45\n---\n# A\n\nBody.\n")
    result = ingest_documents(tmp_path / "docs")
    (node,) = result.nodes
    assert node.updated is None
    (message,) = _messages(result.problems).values()
    assert "'2026-13-45' is not a valid date" in message and message.endswith("'updated' is left unset")


def _graph(path: Path, nodes: list[dict[str, Any]], edges: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"nodes": nodes, "edges": edges}), encoding="utf-8")
    return path


def _node(node_id: str, kind: str | None = "service") -> dict[str, Any]:
    return {"id": node_id, "name": node_id, "text": f"The {node_id} service."} | ({"kind": kind} if kind else {})


def test_json_graph_problems_say_what_to_do(tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    graph = _graph(
        tmp_path / "ops/ops.json",
        [_node("a"), _node("b", kind=None), _node("a"), _node("c")],
        [{"source": "a", "target": "ghost", "kind": "USES"}, {"source": "a", "target": "c"}],
    )
    assert main(["index", str(graph), "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert f"missing field 'kind'; use one of: {', '.join(k.value for k in NodeKind)}" in out
    assert "edge missing field 'kind'" in out and ", ".join(k.value for k in EdgeKind) in out
    assert "duplicate node id 'a'; the first one is kept: rename or remove one of them" in out
    assert "node 'ghost' does not exist in this file or the index; edge dropped: add that node, or fix the edge's target id" in out


def test_a_rejected_new_version_says_the_stored_one_stays(
    tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A node's new version rejected: its stored version and its edges stay, and the edge
    from it was said to be "dropped"."""
    graph = _graph(tmp_path / "ops/ops.json", [_node("a"), _node("c")], [{"source": "c", "target": "a", "kind": "USES"}])
    assert main(["index", str(graph), "--index-dir", index_dir]) == 0
    _graph(graph, [_node("a"), _node("c", kind="spaceship")], [{"source": "c", "target": "a", "kind": "USES"}])
    capsys.readouterr()
    assert main(["index", str(graph), "--index-dir", index_dir]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "problem:" in line]
    node_line, edge_line = lines
    assert "unknown node kind 'spaceship'" in node_line and node_line.endswith("(its version indexed before, if any, stays)")
    assert "node 'c' does not exist: it was rejected (see its problem); edge not read" in edge_line
    assert "dropped" not in edge_line and edge_line.endswith("(its version indexed before, if any, stays)")
    with Index.open(Path(index_dir)) as index:
        snapshot = index.snapshot()
        assert snapshot.nodes["c"].kind is NodeKind.SERVICE and len(snapshot.edges) == 1
