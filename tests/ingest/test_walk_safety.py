"""The walk of a skills repository and what re-indexing keeps of it.

- A folder that cannot be listed keeps every item read below it before, as an unreadable
  file keeps its own (it used to be filed under the folder's path alone, so its items
  were removed as "no longer in the source").
- A file that was read and parsed is authoritative for what it produces, whatever it
  warned about: a date kept as text or an MCP server entry skipped kept a relation or an
  item taken out of it in the index for good.
- A tree nested deeper than Python's recursion limit is walked (``os.walk`` recursed).
- A UTF-16 file is named as such, not as a binary one.
"""

from __future__ import annotations

import codecs
import errno
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.ingest.result import Problem, Unread
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.ingest.walk import walk_files
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _skill(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {name} for tests\n{extra}---\n\n{name} body\n"


@pytest.fixture()
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    yield opened
    opened.close()


def _deny_listing(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """``os.scandir`` of ``folder`` raises PermissionError, as for a folder mode 000 (the
    tests may run as root, who can list anything)."""
    real = os.scandir

    def scandir(path: str | os.PathLike[str] = ".") -> object:
        if Path(os.fsdecode(path)) == folder:
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_a_folder_that_cannot_be_listed_keeps_the_items_below_it(
    tmp_path: Path, index: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    for name in ("alpha", "beta", "gamma"):
        write_file(repo, f"skills/{name}/SKILL.md", _skill(name))
    index_sources(index, [repo], calibrate=False)
    assert len(index.nodes) == 3

    (repo / "skills/gamma/SKILL.md").unlink()  # really gone: still pruned in the same run
    _deny_listing(monkeypatch, repo / "skills/beta")
    run = index_sources(index, [repo], calibrate=False)

    assert sorted(n.name for n in index.nodes.values()) == ["alpha", "beta"]
    assert run.removed == {str(repo): ["repo/skills/gamma/SKILL.md"]}
    (source,) = run.sources
    (problem,) = source.problems
    assert problem.path == str(repo / "skills/beta") and problem.keeps is Unread.FOLDER
    assert "cannot list folder: Permission denied" in problem.message


def test_the_walk_files_a_folder_it_cannot_list_and_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_file(tmp_path, "a/SKILL.md", _skill("a"))
    write_file(tmp_path, "b/c/SKILL.md", _skill("c"))
    write_file(tmp_path, "d/SKILL.md", _skill("d"))
    _deny_listing(monkeypatch, tmp_path / "b")
    problems: list[Problem] = []
    assert walk_files(tmp_path, problems) == ["a/SKILL.md", "d/SKILL.md"]
    assert [(p.path, p.unread) for p in problems] == [(str(tmp_path / "b"), Unread.FOLDER)]


def _requires(index: Index) -> set[tuple[str, str]]:
    nodes = index.nodes
    return {
        (nodes[e.source].name, nodes[e.target].name)
        for e in index.snapshot().edges.values()
        if e.kind.value == "DEPENDS_ON"
    }


def test_a_warning_about_a_field_does_not_keep_a_dropped_relation(tmp_path: Path, index: Index) -> None:
    """The date kept as text is reported every run; the ``requires`` taken out still goes."""
    repo = tmp_path / "m1"
    write_file(repo, "a/SKILL.md", _skill("a", "created: 2026-02-30\nrequires: [b]\n"))
    write_file(repo, "b/SKILL.md", _skill("b"))
    index_sources(index, [repo], calibrate=False)
    assert _requires(index) == {("a", "b")}

    write_file(repo, "a/SKILL.md", _skill("a", "created: 2026-02-30\n"))
    run = index_sources(index, [repo], calibrate=False)

    assert _requires(index) == set()
    assert run.edges_removed == {str(repo): 1}
    (source,) = run.sources
    (warning,) = source.problems
    assert "2026-02-30" in warning.message and not warning.read_whole  # still told, as a problem
    assert warning.keeps is Unread.NOTHING


def test_an_mcp_file_with_a_bad_entry_is_authoritative_for_its_other_servers(tmp_path: Path, index: Index) -> None:
    repo = tmp_path / "m1"
    servers = '"one": {"command": "one-server"}, "two": {"command": "two-server"}'
    write_file(repo, ".mcp.json", f'{{"mcpServers": {{{servers}, "bad": 5}}}}')
    index_sources(index, [repo], calibrate=False)
    assert sorted(index.nodes) == ["m1/.mcp.json#one", "m1/.mcp.json#two"]

    write_file(repo, ".mcp.json", '{"mcpServers": {"one": {"command": "one-server"}, "bad": 5}}')
    run = index_sources(index, [repo], calibrate=False)

    assert sorted(index.nodes) == ["m1/.mcp.json#one"]
    assert run.removed == {str(repo): ["m1/.mcp.json#two"]}
    (source,) = run.sources
    assert [(p.message, p.keeps) for p in source.problems] == [
        ("mcpServers['bad'] skipped: must be an object", Unread.NOTHING)
    ]


def test_a_file_that_cannot_be_parsed_still_keeps_what_it_held(tmp_path: Path, index: Index) -> None:
    """The other side of the line: a whole .mcp.json unreadable today keeps its servers."""
    repo = tmp_path / "m1"
    write_file(repo, ".mcp.json", '{"mcpServers": {"one": {"command": "one-server"}}}')
    write_file(repo, "a/SKILL.md", _skill("a"))
    index_sources(index, [repo], calibrate=False)
    write_file(repo, ".mcp.json", '{"mcpServers": {"one": ')
    run = index_sources(index, [repo], calibrate=False)
    (source,) = run.sources
    assert [p.keeps for p in source.problems] == [Unread.FILE]
    assert sorted(index.nodes) == ["m1/.mcp.json#one", "m1/a/SKILL.md"] and not run.removed


def _nest(root: Path, depth: int) -> list[Path]:
    """``depth`` folders one in another below ``root``, made one at a time (``mkdir`` with
    parents, like ``os.makedirs``, recurses once a level)."""
    made, folder = [], root
    for _ in range(depth):
        folder = folder / "d"
        folder.mkdir()
        made.append(folder)
    return made


def test_a_tree_deeper_than_the_recursion_limit_is_walked(tmp_path: Path) -> None:
    write_file(tmp_path, "top/SKILL.md", _skill("top"))
    made = _nest(tmp_path / "top", 1500)
    deep = made[-1] / "notes.md"
    deep.write_text("deep notes\n", encoding="utf-8")
    try:
        result = ingest_skill_repo(tmp_path)
        assert [n.name for n in result.nodes] == ["top"]
        (top,) = result.nodes
        assert "d/" * 1500 + "notes.md" in top.attrs["files"]
    finally:  # shutil.rmtree (pytest's clean-up) recurses too
        deep.unlink()
        for folder in reversed(made):
            folder.rmdir()


@pytest.mark.parametrize("bom", [codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE])
def test_a_utf16_file_is_named_as_such(tmp_path: Path, bom: bytes) -> None:
    codec = "utf-16-le" if bom == codecs.BOM_UTF16_LE else "utf-16-be"
    write_file(tmp_path, "a/SKILL.md", bom + _skill("a").encode(codec))
    (problem,) = ingest_skill_repo(tmp_path).problems
    assert "UTF-16" in problem.message and "save it as UTF-8" in problem.message
    assert "binary" not in problem.message


def test_a_missing_description_note_reads_an_agent(tmp_path: Path) -> None:
    write_file(tmp_path, "agents/helper.md", "---\nname: helper\n---\n\nhelps\n")
    notes = [p.message for p in ingest_skill_repo(tmp_path).notes]
    assert any("chooses an agent by its description" in m for m in notes), notes


def test_a_moved_source_is_indexed_from_its_new_folder(tmp_path: Path) -> None:
    """The old folder is gone: the new one, under the same name, is the source moved
    (`source_moves`), not a second folder refused for sharing its name."""
    old = tmp_path / "old" / "skills"
    write_file(old, "a/SKILL.md", "---\nname: a\ndescription: does a\n---\nbody\n")
    index = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    index_sources(index, [old])
    new = tmp_path / "new" / "skills"
    new.parent.mkdir()
    old.rename(new)
    run = index_sources(index, [new])
    assert list(run.moved) == [str(new)] and run.embedded == 0
    assert [n.attrs["source_root"] for n in index.nodes.values()] == [str(new)]
    index.close()


def test_a_moved_and_renamed_source_keeps_its_ids_under_its_name(tmp_path: Path) -> None:
    """The folder renamed and indexed with --source-name its held name: the ids begin
    with that name as before (without it the items would take the new folder's name,
    and every id would change)."""
    old = tmp_path / "old" / "skills"
    write_file(old, "a/SKILL.md", "---\nname: a\ndescription: does a\n---\nbody\n")
    index = Index.open(tmp_path / "idx", embedder=HashingEmbedder(), create=True)
    index_sources(index, [old])
    new = tmp_path / "catalogue"
    old.rename(new)
    index_sources(index, [new], source_name="skills")
    assert list(index.nodes) == ["skills/a/SKILL.md"]
    assert index.nodes["skills/a/SKILL.md"].source == str(new / "a/SKILL.md")
    index.close()


def test_a_file_replaced_by_a_link_loop_does_not_abort_the_run(tmp_path: Path, index: Index) -> None:
    """Pruning resolved each stored item's file with ``Path.resolve``, which raises on a
    link loop: the run stopped after writing its items, before pruning and calibrating,
    and any later source of the same command was never read."""
    repo, other = tmp_path / "repo", tmp_path / "other"
    write_file(repo, "skills/a/SKILL.md", _skill("a"))
    write_file(repo, "skills/b/SKILL.md", _skill("b"))
    write_file(other, "skills/c/SKILL.md", _skill("c"))
    index_sources(index, [repo])
    looped = repo / "skills/b/SKILL.md"
    looped.unlink()
    looped.symlink_to("SKILL.md")  # a link to itself
    run = index_sources(index, [repo, other])
    assert list(run.removed.values()) == [["repo/skills/b/SKILL.md"]]
    assert {n.name for n in index.nodes.values()} == {"a", "c"}
    assert any("cannot be resolved" in p.message for s in run.sources for p in s.problems)


def test_a_plugin_whose_only_member_cannot_be_read_stays_with_its_relation(tmp_path: Path, index: Index) -> None:
    """A bare plugin folder is made of its members: with its only skill unreadable (bad
    UTF-8, unclosed frontmatter), the skill was kept, as the README says, but the plugin
    was removed as "no longer in the source", and the skill's PART_OF relation with it
    (found on trailofbits' dwarf-expert in a walkthrough)."""
    repo = tmp_path / "repo"
    write_file(repo, "plugins/dwarf/skills/dwarf/SKILL.md", _skill("dwarf"))
    write_file(repo, "skills/other/SKILL.md", _skill("other"))
    index_sources(index, [repo])
    before = ({n.id for n in index.nodes.values()}, set(index.snapshot().edges))
    assert "repo/plugins/dwarf" in before[0] and any("PART_OF" in e for e in before[1])
    skill = repo / "plugins/dwarf/skills/dwarf/SKILL.md"
    skill.write_bytes(skill.read_bytes() + b"\xff\xfe")
    run = index_sources(index, [repo])
    assert not run.removed
    assert ({n.id for n in index.nodes.values()}, set(index.snapshot().edges)) == before
    said = [p.message for s in run.sources for p in s.problems]
    assert any(m.startswith("no member of this plugin could be read") for m in said), said
    skill.write_text(_skill("dwarf"), encoding="utf-8")  # mended: as before, no problem
    run = index_sources(index, [repo])
    assert ({n.id for n in index.nodes.values()}, set(index.snapshot().edges)) == before
    assert not [p for s in run.sources for p in s.problems]
