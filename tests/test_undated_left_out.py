"""A since/until window over a mixed index says how many undated items it left out.

Only a created or updated time is inside a window, so on an index of skills beside dated
runbooks, "create a pdf" with ``--since 2026-01-01`` answered with the runbooks alone and
no word of the skills it never looked at (found in a walkthrough). The warning counts the
items the caller may see that the other filters admit, by kind, on every surface: the
Python response, ``query`` and ``--json``, and the MCP ``search`` tool."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import indexed_graph, run
from files import write_file, write_skill
from mcp_in_process import tool_answers

from skill_retriever.indexing import index_sources
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

GRAPH = {"nodes": [
    {"id": "skill:pdf", "kind": "skill", "name": "pdf", "text": "Create, merge and fill PDF files."},
    {"id": "skill:xlsx", "kind": "skill", "name": "xlsx", "text": "Read and write Excel spreadsheets."},
    {"id": "skill:vault-pdf", "kind": "skill", "name": "vault-pdf", "text": "Sign PDF files with keys from Vault.",
     "access": ["security"]},
    {"id": "doc:pdf-export", "kind": "document", "name": "PDF export runbook", "created": "2026-03-01",
     "text": "When the PDF export job fails, restart the renderer."},
    {"id": "doc:pdf-old", "kind": "document", "name": "PDF notes", "text": "How the old report system made a PDF."},
]}  # fmt: skip


@pytest.fixture(scope="module")
def ix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return indexed_graph(tmp_path_factory.mktemp("mixed"), GRAPH)


def _left_out(warnings: list[str]) -> list[str]:
    return [w for w in warnings if w.startswith("since/until left out ")]


def test_python_answer_counts_the_undated_items_the_caller_may_see(ix: Path) -> None:
    index = Index.open(ix)
    try:
        retriever = Retriever(index, reranker=None, cache_size=0)
        public = retriever.search("create a pdf", filters={"since": "2026-01-01"})
        assert public.ids == ["doc:pdf-export"]
        # the private skill is not counted for a caller who cannot see it
        assert _left_out(public.warnings) == [(
            "since/until left out 3 item(s) with no created or updated time (2 skill, 1 document): an undated item is "
            "in no time window; leave since/until out to include them (a skill or document takes its date from its "
            '"created" or "updated" field (ISO 8601), as its JSON file, or Node(created=...) in the Python API, gives it)')]
        security = retriever.search("create a pdf", filters={"since": "2026-01-01", "kinds": ["skill"]},
                                    principals=["security"])
        assert _left_out(security.warnings)[0].startswith("since/until left out 3 item(s) with no created or updated "
                                                          "time (3 skill): ")
        assert not _left_out(retriever.search("create a pdf").warnings)  # no window, nothing left out
        assert not _left_out(retriever.search("create a pdf", filters={"kinds": ["document"], "until": "2027-01-01",
                                                                       "tags": ["none-such"]}).warnings)
    finally:
        index.close()


def test_query_and_its_json_say_it(ix: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the command line sees every item unless --principals says otherwise
    code, out, _ = run(capsys, "query", "create a pdf", "--since", "2026-01-01", "--index-dir", ix)
    assert code == 0 and "note: since/until left out 4 item(s) with no created or updated time (3 skill, 1 document)" in out
    code, out, _ = run(capsys, "query", "create a pdf", "--since", "2026-01-01", "--index-dir", ix, "--json")
    assert code == 0 and len(_left_out(json.loads(out)["warnings"])) == 1


def test_mcp_search_says_it(ix: Path) -> None:
    answers = tool_answers(ix, [], {"window": ("search", {"query": "create a pdf", "since": "2026-01-01"})})
    assert len(_left_out(answers["window"]["warnings"])) == 1


def test_the_advice_says_how_to_date_each_kind_left_out(tmp_path: Path) -> None:
    """Skills read from SKILL.md beside dated runbooks: the advice told only how to date a
    document, so a window that left out 14 skills of anthropics__skills said nothing of
    the ``created:`` / ``updated:`` frontmatter that dates a skill (found in a walkthrough)."""
    write_skill(tmp_path / "repo", "pdf", "Create, merge and fill PDF files.")
    write_file(tmp_path / "repo", "agents/pdf-checker.md",
               "---\nname: pdf-checker\ndescription: Checks PDF files.\n---\nCheck a PDF for broken fonts.\n")
    write_file(tmp_path / "docs", "pdf.md", "---\ndate: 2026-03-01\n---\n# PDF export\n\nRestart the renderer.\n")
    write_file(tmp_path / "docs", "old.md", "# PDF notes\n\nHow the old report system made a PDF.\n")
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    try:
        index_sources(index, [tmp_path / "repo", tmp_path / "docs"], calibrate=False)
        retriever = Retriever(index, reranker=None, cache_size=0)
        (said,) = _left_out(retriever.search("create a pdf", filters={"since": "2026-01-01"}).warnings)
        assert said.endswith(
            "(a document takes its date from its frontmatter, date: 2026-11-01 or updated: 2026-11-01, when it is "
            "indexed; a skill or agent takes its date from its frontmatter, created: 2026-11-01 or updated: "
            "2026-11-01, when it is indexed)"), said
        # only the kinds left out are named
        (skills,) = _left_out(retriever.search("create a pdf", filters={"since": "2026-01-01",
                                                                          "kinds": ["skill", "document"]}).warnings)
        assert "(1 document, 1 skill)" in skills and "agent" not in skills and "a skill takes its date" in skills
    finally:
        index.close()


def test_the_count_is_made_once_per_snapshot_and_a_write_refreshes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count walks every item of the index: made per query, a window cost O(items) on
    each search. It is kept with the snapshot, so a write (a new snapshot) refreshes it."""
    import skill_retriever.undated_left_out as module
    from skill_retriever.model import Node, NodeKind

    scans: list[int] = []
    scan = module._undated

    def counted(*args: object) -> object:
        scans.append(1)
        return scan(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "_undated", counted)
    index = Index.open(indexed_graph(tmp_path, GRAPH), writable=True)
    try:
        retriever = Retriever(index, reranker=None, cache_size=0)  # no answer cache: each search runs
        first = retriever.search("create a pdf", filters={"since": "2026-01-01"})
        second = retriever.search("merge files", filters={"until": "2027-01-01"})
        assert len(scans) == 1
        assert _left_out(first.warnings)[0].startswith("since/until left out 3 item(s) ")
        assert _left_out(second.warnings)[0].startswith("since/until left out 3 item(s) ")
        index.add(Node(id="skill:docx", kind=NodeKind.SKILL, name="docx", text="Write Word documents."))
        third = retriever.search("create a pdf", filters={"since": "2026-01-01"})
        assert len(scans) == 2
        assert _left_out(third.warnings)[0].startswith("since/until left out 4 item(s) with no created or updated "
                                                       "time (3 skill, 1 document)")
    finally:
        index.close()
