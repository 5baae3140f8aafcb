"""JSON graphs, tool catalogues and passage corpora a user's editor or file system got
wrong: a byte order mark, a file that cannot be read, a folder where a file belongs, a
bad byte, an edge naming a list. Each is a problem of that file (never a traceback that
ends the run), and what the index already holds from it stays as it was.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.indexing import index_sources
from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

BOM = b"\xef\xbb\xbf"
GRAPH = {"nodes": [{"id": "doc:a", "kind": "document", "name": "a", "text": "About alpha."}]}
CORPUS = [{"title": "Alpha", "text": "Alpha is a star.", "idx": 1}]
TOOLS = [{"id": f"t{i}", "name": f"tool {i}", "description": f"does thing {i}"} for i in range(3)]


def _jsonl(path: Path, rows: list[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _unreadable(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """``target`` raises PermissionError when opened, as a chmod 000 file does for a
    user that is not root (the tests may run as root, which reads anything)."""
    real_open = Path.open

    def deny(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self.absolute() == target.absolute():
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", deny)


@pytest.fixture
def index(tmp_path: Path) -> Any:
    opened = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    yield opened
    opened.close()


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    graph = tmp_path / "g" / "graph.json"
    graph.parent.mkdir()
    graph.write_bytes(BOM + json.dumps(GRAPH).encode())
    assert [n.id for n in ingest_json_graph(graph).nodes] == ["doc:a"]
    corpus = tmp_path / "c" / "corpus.json"
    corpus.parent.mkdir()
    corpus.write_bytes(BOM + json.dumps(CORPUS).encode())
    assert "passage:1" in {n.id for n in ingest_passages(corpus, nlp=False).nodes}
    folder = tmp_path / "tools"
    folder.mkdir()
    (folder / "tools.jsonl").write_bytes(BOM + b"".join(json.dumps(t).encode() + b"\n" for t in TOOLS))
    (folder / "edges.jsonl").write_bytes(BOM + b'{"source": "t0", "target": "t1", "type": "tool_graph"}\n')
    result = ingest_toolret(folder)
    assert [n.id for n in result.nodes] == ["t0", "t1", "t2"]  # t0 was lost to the mark
    assert [(e.source, e.target) for e in result.edges] == [("t0", "t1")] and result.problems == []


def test_unreadable_files_are_problems_of_their_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    graph = tmp_path / "graph.json"
    graph.write_text(json.dumps(GRAPH), encoding="utf-8")
    corpus = tmp_path / "c" / "corpus.json"
    corpus.parent.mkdir()
    corpus.write_text(json.dumps(CORPUS), encoding="utf-8")
    tools = _jsonl(tmp_path / "tools" / "tools.jsonl", TOOLS)
    for path, read in ((graph, ingest_json_graph), (corpus, lambda p: ingest_passages(p, nlp=False)),
                       (tools, lambda p: ingest_toolret(p.parent))):
        with monkeypatch.context() as m:
            _unreadable(m, path)
            result = read(path)
        assert result.nodes == []
        assert [p.path for p in result.problems] == [str(path)]  # tmp_path is absolute
        assert "Permission denied" in result.problems[0].message


def test_a_folder_where_a_file_belongs_is_a_problem(tmp_path: Path) -> None:
    (tmp_path / "graph.json").mkdir()
    assert "is a folder" in ingest_json_graph(tmp_path / "graph.json").problems[0].message
    (tmp_path / "c" / "corpus.json").mkdir(parents=True)
    assert "is a folder" in ingest_passages(tmp_path / "c" / "corpus.json", nlp=False).problems[0].message
    (tmp_path / "t" / "tools.jsonl").mkdir(parents=True)
    result = ingest_toolret(tmp_path / "t")
    assert result.nodes == [] and "cannot be read" in result.problems[0].message


def test_a_bad_graph_path_does_not_end_the_run(tmp_path: Path, index: Index) -> None:
    (tmp_path / "a.json").mkdir()
    good = tmp_path / "b.json"
    good.write_text(json.dumps(GRAPH), encoding="utf-8")
    run = index_sources(index, [tmp_path / "a.json", good], "json", calibrate=False)
    assert [len(s.nodes) for s in run.sources] == [0, 1]
    assert "doc:a" in index.snapshot().nodes


def test_tool_lines_of_odd_shapes_and_bytes(tmp_path: Path) -> None:
    tools = _jsonl(tmp_path / "tools.jsonl", TOOLS)
    with tools.open("ab") as fh:
        fh.write(b'{"id": "t9", "name": "caf\xe9", "description": "latin-1"}\n')
        fh.write(b'{"id": {"a": 1}}\n')
    _jsonl(tmp_path / "edges.jsonl", [{"source": ["t0"], "target": "t1"}, {"source": "t0", "target": "t1"}])
    result = ingest_toolret(tmp_path)
    assert [n.id for n in result.nodes] == ["t0", "t1", "t2"]  # no U+FFFD stored in place of a byte
    assert [(e.source, e.target) for e in result.edges] == [("t0", "t1")]
    messages = [p.message for p in result.problems]
    assert messages == [
        "line 4: not UTF-8 text; save the file as UTF-8",
        "line 5: tool id must be text, got an object",
        'line 1: "source" and "target" must be tool ids (text), got a list and a string; edge dropped',
    ]


def test_unread_relations_are_kept_on_reindex(tmp_path: Path, index: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "tools"
    _jsonl(folder / "tools.jsonl", TOOLS)
    edges = _jsonl(folder / "edges.jsonl", [{"source": "t0", "target": "t1", "type": "tool_graph"},
                                            {"source": "t1", "target": "t2", "type": "tool_graph"}])
    index_sources(index, [folder], calibrate=False)
    before = set(index.snapshot().edges)
    assert len(before) == 2
    with monkeypatch.context() as m:
        _unreadable(m, edges)
        run = index_sources(index, [folder], calibrate=False)
    assert any("kept as indexed" in p.message for p in run.sources[0].problems)
    assert set(index.snapshot().edges) == before and not run.edges_removed
    with edges.open("a", encoding="utf-8") as fh:  # one garbled line: its relations stay too
        fh.write("{oops\n")
    index_sources(index, [folder], calibrate=False)
    assert set(index.snapshot().edges) == before
    _jsonl(folder / "edges.jsonl", [{"source": "t0", "target": "t1", "type": "tool_graph"}])
    run = index_sources(index, [folder], calibrate=False)  # read whole: a relation taken out goes
    assert len(index.snapshot().edges) == 1 and run.edges_removed
