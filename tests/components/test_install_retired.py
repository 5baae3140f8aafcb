"""Installing a new version of a component takes out what it no longer has.

An earlier install recorded the files and hooks it wrote; a new version that drops a
script, drops a hook or renames the skill (so its folder moves) would otherwise leave the
old ones in place: a dropped hook goes on running, a renamed skill sits there twice.
Only what is still exactly as written goes; what the user changed, what another
component stands behind, and every file of a version that could not read all its files
stay.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import files_under
from files import write_file

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.retired import RETIRED
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SKILL = "---\nname: deploy\ndescription: ship the service\n---\nRun scripts/run.sh.\n"
SKILL_DIR = ".claude/skills/deploy"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_file(repo, "skills/deploy/SKILL.md", SKILL)
    write_file(repo, "skills/deploy/scripts/run.sh", "echo run\n")
    write_file(repo, "skills/deploy/scripts/old.sh", "echo old\n")
    return repo


@pytest.fixture
def index(tmp_path: Path, repo: Path) -> Iterator[Index]:
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        _reindex(index, repo)
        yield index
    finally:
        index.close()


def _reindex(index: Index, repo: Path) -> None:
    run = index_sources(index, [repo], "skills")
    assert not [p for s in run.sources for p in s.problems]


def _skill_id(index: Index, name: str) -> str:
    (node,) = [n for n in index.nodes.values() if n.name == name]
    return node.id


def test_a_file_the_new_version_no_longer_ships_is_removed(index: Index, repo: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert install(index, ["deploy"], project).ok
    assert (project / SKILL_DIR / "scripts/old.sh").is_file()
    (repo / "skills/deploy/scripts/old.sh").unlink()
    _reindex(index, repo)

    dry = install(index, ["deploy"], project, dry_run=True)
    assert [c.status for c in dry.components] == ["install"]
    assert f"  would remove {SKILL_DIR}/scripts/old.sh: {RETIRED}" in dry.lines()
    assert (project / SKILL_DIR / "scripts/old.sh").is_file()  # a dry run removes nothing

    plan = install(index, ["deploy"], project)
    assert plan.ok and plan.removed() == [f"{SKILL_DIR}/scripts/old.sh"]
    assert not (project / SKILL_DIR / "scripts/old.sh").exists()
    assert (project / SKILL_DIR / "scripts/run.sh").read_text() == "echo run\n"
    again = install(index, ["deploy"], project)  # nothing left to do
    assert [c.status for c in again.components] == ["unchanged"] and not again.removed()
    report = uninstall(["deploy"], project)
    assert report.ok and "gone already" not in "\n".join(report.lines())  # no longer recorded
    assert not project.exists()


def test_a_renamed_skill_leaves_no_copy_under_its_old_name(index: Index, repo: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert install(index, ["deploy"], project).ok
    skill_id = _skill_id(index, "deploy")
    md = repo / "skills/deploy/SKILL.md"
    md.write_text(md.read_text().replace("name: deploy", "name: release"))
    _reindex(index, repo)
    assert _skill_id(index, "release") == skill_id  # one component, renamed

    plan = install(index, [skill_id], project)
    assert plan.ok
    got = set(files_under(project))
    assert {f"{SKILL_DIR}/SKILL.md", f"{SKILL_DIR}/scripts/run.sh"}.isdisjoint(got)
    assert ".claude/skills/release/SKILL.md" in got and not (project / SKILL_DIR).exists()
    assert uninstall([skill_id], project).ok and not project.exists()


def test_what_the_user_changed_stays_and_stays_recorded(index: Index, repo: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert install(index, ["deploy"], project).ok
    mine = project / SKILL_DIR / "scripts/old.sh"
    mine.write_text("echo my own\n")
    (repo / "skills/deploy/scripts/old.sh").unlink()
    _reindex(index, repo)

    plan = install(index, ["deploy"], project)
    assert plan.ok and not plan.removed()
    assert f"kept {SKILL_DIR}/scripts/old.sh: not in this version, and changed since it was installed" in (
        plan.components[0].reason
    )
    assert mine.read_text() == "echo my own\n"
    report = uninstall(["deploy"], project)  # still recorded: uninstall says it kept it
    assert report.kept == {f"{SKILL_DIR}/scripts/old.sh": "changed since it was installed"}


def test_a_version_that_could_not_read_a_file_removes_nothing(index: Index, repo: Path, tmp_path: Path) -> None:
    """A file the index lists but install cannot read (deleted after indexing) is not
    told apart from one the version dropped: nothing of the earlier install goes."""
    project = tmp_path / "proj"
    assert install(index, ["deploy"], project).ok
    md = repo / "skills/deploy/SKILL.md"
    md.write_text(md.read_text() + "More.\n")  # a new version ...
    (repo / "skills/deploy/scripts/old.sh").rename(repo / "old.sh.bak")
    _reindex(index, repo)
    (repo / "skills/deploy/scripts/run.sh").unlink()  # ... and one file gone since indexing

    plan = install(index, ["deploy"], project)
    assert plan.ok and not plan.removed()
    reason = plan.components[0].reason
    assert "scripts/run.sh not copied: not on disk" in reason
    assert f"left {SKILL_DIR}/scripts/old.sh: not in this version, which could not read all its files" in reason
    assert (project / SKILL_DIR / "scripts/old.sh").is_file() and (project / SKILL_DIR / "scripts/run.sh").is_file()


def test_a_hook_the_new_version_dropped_stops_running(tmp_path: Path) -> None:
    """A new version that only drops one of its hooks (adding none) takes it out of
    settings.json; a hook another installed component also added stays."""
    hooks = {
        "Stop": [{"hooks": [{"type": "command", "command": "make check"}]}],
        "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff format ."}]}],
    }
    fmt_only = {"PostToolUse": hooks["PostToolUse"]}
    src = tmp_path / "src/g.json"

    def graph(first: dict[str, object], second: dict[str, object]) -> None:
        nodes = [
            {"id": "h1", "kind": "hook", "name": "checks", "description": "checks", "text": "t", "attrs": {"hooks": first}},
            {"id": "h2", "kind": "hook", "name": "fmt", "description": "fmt", "text": "t", "attrs": {"hooks": second}},
        ]
        write_file(src.parent, src.name, json.dumps({"nodes": nodes, "edges": []}))

    def events(project: Path) -> dict[str, list[str]]:
        data = json.loads((project / ".claude/settings.json").read_text())["hooks"]
        return {e: [h["command"] for g in groups for h in g["hooks"]] for e, groups in data.items()}

    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        graph(hooks, fmt_only)
        index_sources(index, [src])
        project = tmp_path / "proj"
        assert install(index, ["h1", "h2"], project).ok
        assert events(project) == {"Stop": ["make check"], "PostToolUse": ["ruff format ."]}

        graph({"PostToolUse": hooks["PostToolUse"]}, fmt_only)  # h1 drops its Stop hook
        index_sources(index, [src])
        plan = install(index, ["h1"], project)
        assert plan.ok and plan.removed() == [".claude/settings.json#hooks.Stop[]"]
        assert events(project) == {"PostToolUse": ["ruff format ."]}

        graph({"Stop": hooks["Stop"]}, fmt_only)  # h1 drops the hook h2 stands behind too
        index_sources(index, [src])
        assert install(index, ["h1"], project).ok
        assert events(project) == {"PostToolUse": ["ruff format ."], "Stop": ["make check"]}
        assert uninstall(["h1"], project).ok
        assert events(project) == {"PostToolUse": ["ruff format ."]}  # h2's, as it stays
        assert uninstall(["h2"], project).ok and not project.exists()
    finally:
        index.close()
