"""Names that answer to nothing, through the CLI and a real MCP client, on a small
catalogue indexed by the real CLI.

- every unknown name of one ``install`` is said in one error, each with its close names
  (only the first was said, so a run fixed one typo at a time);
- a typo inside a hyphenated part (``code-reviewr``) is offered the prefixed names that
  end with the part it misspells, not shorter names that merely share a word;
- ``install_components`` and ``check_dependencies`` offer the close names the CLI offers
  (they said only "call search_components"), never one the caller may not see.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import pytest
from cli_calls import run
from files import write_file
from mcp_in_process import tool_errors

from skill_retriever.components.install.errors import UnknownComponentError, UnknownNamesError
from skill_retriever.components.install.resolve import resolve_all
from skill_retriever.components.install.suggest import near_spellings
from skill_retriever.components.view import as_view
from skill_retriever.stores.index import Index

AGENTS = ("tdd-workflows-code-reviewer", "comprehensive-review-code-reviewer", "team-reviewer", "design-review")
SECRET = "secret-code-reviewer"


def _md(name: str, *front: str) -> str:
    more = "".join(f"{line}\n" for line in front)
    return f"---\nname: {name}\ndescription: The {name} agent.\n{more}---\n\nBody of {name}.\n"


@pytest.fixture
def ix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "cat"
    for name in AGENTS:
        write_file(root, f"agents/{name}.md", _md(name))
    write_file(root, f"agents/{SECRET}.md", _md(SECRET, "access: [secops]"))
    write_file(root, "skills/postgresql-table-design/SKILL.md", _md("postgresql-table-design"))
    folder = tmp_path / "ix"
    code, _, err = run(capsys, "index", root, "--index-dir", folder, "--embedder", "hashing-64")
    assert code == 0, err
    return folder


def test_a_typo_inside_a_part_is_offered_the_names_ending_with_that_part(
    ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, "install", "code-reviewr", "--target", tmp_path / "p", "--index-dir", ix, "--dry-run",
        "--principals", "alice",
    )  # fmt: skip
    assert code == 2
    # the two prefixed agents (the nearer spelling) first; the names sharing a word after
    assert (
        "no component 'code-reviewr' in the index; close names: tdd-workflows-code-reviewer, "
        "comprehensive-review-code-reviewer, design-review, team-reviewer; or find ids" in err
    ), err
    assert SECRET not in err  # hidden from this caller: never offered


def test_near_spellings_rank_a_close_part_over_a_loosely_close_whole() -> None:
    names = ["team-reviewer", "design-review", "x-code-reviewer", "code-reviewer-lite-and-more"]
    got = near_spellings("code-reviewr", names)
    # a close part first (the shorter name first at one ratio); then the whole names difflib
    # finds close (both at ratio 0.72: alphabetical at one length)
    assert got[:2] == ["x-code-reviewer", "code-reviewer-lite-and-more"]
    whole = difflib.get_close_matches("code-reviewr", ["team-reviewer", "design-review"], n=5, cutoff=0.7)
    assert got[2:] == sorted(whole) == ["design-review", "team-reviewer"]
    assert near_spellings("kubernets", ["kubernetes-operations", "kube", "cubes"]) == ["kubernetes-operations"]
    assert near_spellings("zzz", names) == []


def test_every_unknown_name_is_said_in_one_error(ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "install", "x", "code-reviewr", "team-reviewer", "postgresq", "--target", tmp_path / "p",
        "--index-dir", ix, "--dry-run", "--principals", "alice",
    )  # fmt: skip
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()  # one line
    assert line.startswith(
        "skill-retriever: error: no component 'x', no component 'code-reviewr' (close names: "
        "tdd-workflows-code-reviewer, "
    ), line
    assert "no component 'postgresq' (close names: postgresql-table-design) in the index; give a close name, " in line
    assert "'team-reviewer'" not in line  # a name that answers is not said
    assert not (tmp_path / "p").exists()


def test_the_python_api_raises_one_error_listing_them(ix: Path) -> None:
    index = Index.open(ix)
    try:
        view = as_view(index, None)
        with pytest.raises(UnknownNamesError) as caught:
            resolve_all(view, ["nope-one", "team-reviewer", "postgresq", "nope-one"])
        assert [ref for ref, _ in caught.value.unknown] == ["nope-one", "postgresq"]  # a repeat said once
        assert caught.value.unknown[1][1] == ("postgresql-table-design",)
        assert [i for i, _ in resolve_all(view, ["team-reviewer"])] == ["cat/agents/team-reviewer.md"]
    finally:
        index.close()


@pytest.mark.parametrize("tool", ["install_components", "check_dependencies"])
def test_the_mcp_tools_offer_the_close_names_the_caller_may_see(ix: Path, tmp_path: Path, tool: str) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    args = {"target": str(project)}
    calls = [(tool, {**args, "ids": ["code-reviewer"]}), (tool, {**args, "ids": ["code-reviewr", "postgresq", "zzz"]})]
    public, secops = tool_errors(ix, ["public"], calls), tool_errors(ix, ["secops"], calls)
    assert (
        "no component 'code-reviewer'; call search_components with the task to find ids, then pass one of them "
        "as ids, or one of these close names: tdd-workflows-code-reviewer, comprehensive-review-code-reviewer, team-reviewer"
    ) in public[0], public[0]
    assert SECRET not in public[0] and SECRET not in public[1]  # hidden from this caller: never named
    assert SECRET in secops[0] and SECRET in secops[1]  # one who may see it is offered it
    assert "no component 'code-reviewr' (close names: tdd-workflows-code-reviewer, " in public[1], public[1]
    assert "no component 'postgresq' (close names: postgresql-table-design), no component 'zzz'; call " in public[1]
    assert public[1].endswith("or pass a close name as ids")
    assert list(project.iterdir()) == []


def test_get_component_offers_the_close_names_the_caller_may_see(ix: Path) -> None:
    """``get_component`` with a name that answers to nothing said only "call
    search_components"; it offers the close names install offers, from the caller's view."""
    calls: list[tuple[str, dict[str, Any]]] = [("get_component", {"id": "code-reviewer"}), ("get_component", {"id": "zzz"})]
    public, secops = tool_errors(ix, ["public"], calls), tool_errors(ix, ["secops"], calls)
    assert (
        "no component 'code-reviewer'; call search_components with the task to find ids, then pass one of them "
        "as id, or one of these close names: tdd-workflows-code-reviewer, comprehensive-review-code-reviewer, team-reviewer"
    ) in public[0], public[0]
    assert SECRET not in public[0]  # hidden from this caller: never named
    assert SECRET in secops[0]
    assert "close names" not in public[1] and "no component 'zzz'" in public[1]


@pytest.mark.parametrize(("given", "meant"), [
    ("postgresql table design", "postgresql-table-design"),
    ("Team_Reviewer", "team-reviewer"),
    (" design-review", "design-review"),
    ("team-reviewer\n", "team-reviewer"),
])  # fmt: skip
def test_a_name_written_with_spaces_or_underscores_is_offered_that_name_first(ix: Path, given: str, meant: str) -> None:
    """The name compared as close names compare names (case, spaces, underscores and the
    ends aside) was left out of the offer, as if the name itself had been tried: ``audit
    log`` or an id pasted with a space got "no component" and no close name at all, the
    one it meant being the closest (found in an MCP walkthrough)."""
    index = Index.open(ix)
    try:
        with pytest.raises(UnknownComponentError) as caught:
            resolve_all(as_view(index, ["public"]), [given])
        assert caught.value.suggestions[0] == meant
    finally:
        index.close()
    (said,) = tool_errors(ix, ["public"], [("get_component", {"id": given})])
    assert f"or one of these close names: {meant}" in said, said
