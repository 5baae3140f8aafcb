"""What a walkthrough over the whole skills catalogue found, fixed:

1. ``install`` of a prompt file that nothing uses (davila7's ``loops/``) said "install the
   component that uses it" with none to name: it now says that nothing uses it and where
   to read it, or names the components that refer to it (those the caller may see);
2. ``query`` printed an agent's description with its written-out ``\\n\\n<example>``: the
   snippet line reads as text (``--json`` and the index keep it as written);
3. a reason named its channels in rank order, "(graph, semantic)" beside
   "(semantic, graph)": one fixed order;
4. ``index`` folded 229 notes of four YAML errors into one line whose example was the third
   most common: one line per kind of error, most common first.

Each builds a small real index (``--embedder hashing-64``: no model) in ``tmp_path`` and
runs the real CLI, or calls the functions the CLI prints with.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.adapters.langchain import format_results
from skill_retriever.adapters.mcp_server import build_server
from skill_retriever.components.view import CallerView
from skill_retriever.config import CHANNELS
from skill_retriever.ingest.result import IngestResult, Problem, note_kind
from skill_retriever.model import Node, NodeKind
from skill_retriever.phases.cover_clauses import CLAUSES
from skill_retriever.render import CHANNEL_ORDER, Shown, explain, in_channel_order
from skill_retriever.responses import SearchResult
from skill_retriever.retriever import Retriever
from skill_retriever.snippet_display import readable_snippet
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")


# -- 1. install of a prompt file nothing installs ------------------------------------------
@pytest.fixture
def loops_repo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A catalogue with two loop prompt files (``other`` items): one no component refers
    to, one an agent names in its text."""
    repo = tmp_path / "cat"
    write_file(repo, "loops/evaluation/quality-streak-loop.md",
               "---\nname: quality-streak-loop\ndescription: Fix failures until the suite passes N times in a row.\n"
               "---\nRun the suite until it is green five times running.\n")
    write_file(repo, "loops/engineering/docs-sweep-loop.md",
               "---\nname: docs-sweep-loop\ndescription: Sweep the docs for stale pages.\n---\nRead every page.\n")
    write_file(repo, "agents/component-reviewer.md",
               "---\nname: component-reviewer\ndescription: Reviews components.\n---\n"
               "Review each component; for the docs, run docs-sweep-loop afterwards.\n")
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    return repo, ix


def test_a_prompt_file_nothing_uses_says_so_and_where_to_read_it(
    loops_repo: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, ix = loops_repo
    code, out, err = run(capsys, "install", "quality-streak-loop", "--target", tmp_path / "p", "--dry-run",
                         "--index-dir", ix)
    assert code == 2 and out == ""
    where = repo / "loops" / "evaluation" / "quality-streak-loop.md"
    assert err.rstrip().endswith(
        "which install has no place for; nothing in the index uses it; read it where it is, "
        f"{where}, or copy it into your project by hand"
    ), err
    assert "install the component that uses it" not in err  # the advice that led nowhere
    # By id, the plan skips it in the same words.
    code, out, _ = run(capsys, "install", "cat/loops/evaluation/quality-streak-loop.md", "--target",
                       tmp_path / "p", "--dry-run", "--index-dir", ix)
    assert code == 1 and f"nothing in the index uses it; read it where it is, {where}" in out


def test_a_prompt_file_a_component_refers_to_names_that_component(
    loops_repo: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, ix = loops_repo
    code, _, err = run(capsys, "install", "docs-sweep-loop", "--target", tmp_path / "p", "--dry-run",
                       "--index-dir", ix)
    assert code == 2
    assert ("the components that refer to it do not bring it with them: component-reviewer "
            "(agent cat/agents/component-reviewer.md); read it where it is, "
            f"{repo / 'loops' / 'engineering' / 'docs-sweep-loop.md'}") in err, err
    assert "nothing in the index uses it" not in err


def test_the_components_named_as_referring_are_those_the_caller_may_see(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graph = write_file(tmp_path, "g/graph.json", {
        "nodes": [
            {"id": "secret-agent", "kind": "agent", "name": "secret-agent", "text": "Runs the loop.",
             "access": ["team"]},
            {"id": "loop", "kind": "other", "name": "release-loop", "text": "A release loop."},
        ],
        "edges": [{"source": "secret-agent", "target": "loop", "kind": "MENTIONS"}],
    })
    ix = tmp_path / "ix"
    assert run(capsys, "index", graph, "--index-dir", ix, *HASHING)[0] == 0
    for principals, named in (("team", True), ("alice", False)):
        code, _, err = run(capsys, "install", "release-loop", "--target", tmp_path / "p", "--dry-run",
                           "--principals", principals, "--index-dir", ix)
        assert code == 2 and "which install has no place for" in err
        assert ("secret-agent" in err) is named, (principals, err)
        assert ("nothing in the index uses it" in err) is not named
        assert f"read it where it is, {graph}, or copy it into your project by hand" in err


def test_an_item_without_a_file_points_at_its_text_through_the_mcp_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:  # the API: no file
        index.add([Node(id="tpl-1", kind=NodeKind.OTHER, name="release-template", text="A release template.")])
    code, _, err = run(capsys, "install", "release-template", "--target", tmp_path / "p", "--dry-run",
                       "--index-dir", tmp_path / "ix")
    assert code == 2 and err.rstrip().endswith(
        "nothing in the index uses it; the MCP tool get_component gives its text (tpl-1); "
        "copy it into your project by hand"), err


# -- 2. a description's written-out escapes and example tags --------------------------------
ESCAPED = (
    "Use this agent when you need to troubleshoot Kubernetes clusters. Specifically:\\n\\n<example>\\n"
    "Context: Your team needs a production cluster.\\n<commentary>It fits.</commentary>\\n</example>"
)


def test_query_shows_a_description_with_written_out_newlines_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "agents-repo"
    # A YAML plain scalar keeps "\n" as two characters, as davila7's agents have it.
    write_file(repo, "agents/kubernetes-specialist.md",
               f"---\nname: kubernetes-specialist\ndescription: {ESCAPED}\n---\nDesign clusters.\n")
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    with Index.open(ix) as index:  # the index keeps what the file says
        (node,) = index.snapshot().nodes.values()
        assert "\\n\\n<example>" in node.description
    code, out, _ = run(capsys, "query", "troubleshoot kubernetes clusters", "--index-dir", ix)
    assert code == 0
    (line,) = [ln for ln in out.splitlines() if "Use this agent" in ln]
    assert line.strip() == (
        "Use this agent when you need to troubleshoot Kubernetes clusters. Specifically: "
        "Context: Your team needs a production cluster. It fits."
    )
    code, out, _ = run(capsys, "query", "troubleshoot kubernetes clusters", "--index-dir", ix, "--json")
    assert code == 0 and "\\n\\n<example>" in json.loads(out)["results"][0]["snippet"]


@pytest.mark.parametrize(("snippet", "shown"), [
    ("Examples:\\n\\n<example>\\nuser: hi\\n</example>", "Examples: user: hi"),
    ("a\\tb\\r\\nc", "a b c"),
    ("Wraps List<T> and `git clone <repo>`", "Wraps List<T> and `git clone <repo>`"),  # placeholders
    ("Render <b>bold</b> text", "Render bold text"),  # a pair is markup
    ("Keeps C:\\new\\tools and a\\\\n escaped", "Keeps C:\\new\\tools and a\\\\n escaped"),
])
def test_readable_snippet(snippet: str, shown: str) -> None:
    assert readable_snippet(snippet) == shown


def test_the_agent_tool_and_the_mcp_search_show_the_snippet_as_text(tmp_path: Path) -> None:
    """A model reads the tool's text and the MCP ``search`` answer: no ``\\n\\n<example>``
    noise there either (the artifact's results and ``detail="full"`` keep it as searched)."""
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        index.add([Node(id="agent-k8s", kind=NodeKind.AGENT, name="kubernetes-specialist",
                        description=ESCAPED, text="Design clusters.")])
        retriever = Retriever(index, reranker=None)
        response = retriever.search("troubleshoot kubernetes clusters")
        text = format_results(response, snapshot=index.snapshot(), snippet_chars=400)
        assert "Specifically: Context: Your team needs a production cluster." in text
        assert "<example>" not in text and "\\n" not in text
        assert "\\n\\n<example>" in response.results[0].snippet  # the response as searched
        server = build_server(index, retriever=retriever)
        brief = asyncio.run(server.call_tool("search", {"query": "troubleshoot kubernetes clusters"}))
        full = asyncio.run(server.call_tool("search", {"query": "troubleshoot kubernetes clusters",
                                                       "detail": "full"}))
    (brief_hit,) = brief.structured_content["results"]
    (full_hit,) = full.structured_content["results"]
    assert "<example>" not in brief_hit["snippet"] and brief_hit["snippet"].startswith("Use this agent")
    assert "\\n\\n<example>" in full_hit["snippet"]


# -- 3. one order of channels in a reason ---------------------------------------------------
def test_the_order_names_every_channel() -> None:
    assert set(CHANNELS) | {CLAUSES} <= set(CHANNEL_ORDER)
    assert in_channel_order(["graph", "zeta", "named", "semantic", "keyword"]) == [
        "semantic", "keyword", "graph", "named", "zeta"]


def test_a_reason_names_channels_in_one_order_whatever_their_ranks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "r"
    write_file(repo, "skills/alpha-tool/SKILL.md",
               "---\nname: alpha-tool\ndescription: alpha things\nrequires: [beta-tool]\n---\nRuns.\n")
    for name in ("beta-tool", "gamma-tool"):
        write_file(repo, f"skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: {name} things\n---\nHelps.\n")
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    with Index.open(ix) as index:
        view = CallerView.of(index, None)  # it holds an edge: "graph" is named
        lines = set()
        for channels in ({"graph": 1, "semantic": 2, "keyword": 3}, {"keyword": 1, "semantic": 2, "graph": 3},
                         {"semantic": 1, "graph": 2, "keyword": 4}):
            result = SearchResult(id="r/skills/gamma-tool/SKILL.md", kind="skill", name="gamma-tool", snippet="",
                                  fusion_score=1.0, rerank_score=None, token_count=5, channels=channels)
            lines.add(explain("zzz qqq", Shown(result, ()), view).line)  # no word of it matches
    assert lines == {"close in meaning (semantic, keyword, graph)"}, lines


# -- 4. notes grouped by their kind of error ------------------------------------------------
def test_index_groups_frontmatter_notes_by_their_yaml_error_most_common_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "cmds"
    # Met first, least common: "mapping values are not allowed".
    write_file(repo, "commands/a0.md", "---\nname: a0\ndescription: Use it: for a\n---\nBody.\n")
    for i in range(3):  # "did not find expected comment or line break"
        write_file(repo, f"commands/b{i}.md",
                   f"---\nname: b{i}\nargument-hint: [--fast] | [--full]\ndescription: Does b{i}.\n---\nBody.\n")
    for i in range(2):  # "did not find expected key"
        write_file(repo, f"commands/c{i}.md", f'---\nname: c{i}\ndescription: "quoted" then more\n---\nBody.\n')
    ix = tmp_path / "ix"
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix, *HASHING)
    assert code == 0 and "6 notes" in out
    notes = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("note:")]
    assert len(notes) == 3, notes
    reasons = [re.search(r"not valid YAML \((.*?) \(line", n).group(1) for n in notes]  # type: ignore[union-attr]
    assert reasons == ["did not find expected comment or line break", "did not find expected key",
                       "mapping values are not allowed in this context"]
    assert notes[0].startswith(f"note: {repo / 'commands' / 'b0.md'}: ")
    assert [re.search(r"\(and (\d+) more file\(s\) like it; see --json\)$", n) is not None for n in notes] == [
        True, True, False]
    assert "(and 2 more file(s) like it" in notes[0] and "(and 1 more file(s) like it" in notes[1]
    assert all("read as plain 'key: value' lines" in n for n in notes)  # the advice stays


def test_notes_differing_only_in_particulars_are_one_kind_and_kinds_are_capped() -> None:
    # Paths, line numbers and quoted names are particulars; the reason is not.
    assert note_kind("symbolic link to /a/b, which is read in its own place too") == note_kind(
        "symbolic link to /c/d/e, which is read in its own place too")
    assert note_kind("requires unknown component 'pdf'; no edge made") == note_kind(
        "requires unknown component 'docx'; no edge made")
    assert note_kind("frontmatter is not valid YAML (did not find expected key (line 2))") != note_kind(
        "frontmatter is not valid YAML (mapping values are not allowed in this context (line 2))")
    notes = [Problem(f"f{i}.md", f"note of kind {chr(97 + i)}", read_whole=True) for i in range(12)]
    lines = IngestResult(source="s", problems=notes).problem_lines(limit=10)
    assert len(lines) == 11 and lines[-1] == "... 2 more kinds of note, on 2 file(s) (see --json)"
