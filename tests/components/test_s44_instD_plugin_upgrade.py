"""Installing a new version of a plugin takes out the members it no longer has.

A plugin's record lists the members installing it brought; when its source renames a
member (a skill's folder and ``name:``: another component) or deletes one, installing the
plugin again removes what that member's install wrote, each with a ``remove ... this
version no longer has it`` line, and updates the plugin's record. What the user changed
since stays, and so does a member also installed by its own name.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run_lines
from files import write_file

from skill_retriever.components.install import install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

RECORD = ".claude/.skill-retriever/installed.json"
GONE = "an earlier version of kube-ops installed this; this version no longer has it"
REAL = Path("/work/shared/data/skills/wshobson__agents")


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: {name} for clusters\n---\nDo {name}.\n"


@pytest.fixture
def mkt(tmp_path: Path) -> Path:
    root = tmp_path / "mkt"
    write_file(root, ".claude-plugin/marketplace.json", json.dumps(
        {"name": "m", "plugins": [{"name": "kube-ops", "source": "./plugins/kube-ops"}]}))
    plugin = "plugins/kube-ops"
    write_file(root, f"{plugin}/.claude-plugin/plugin.json", json.dumps({"name": "kube-ops"}))
    for name in ("gitops-workflow", "helm-charts", "k8s-policies"):
        write_file(root, f"{plugin}/skills/{name}/SKILL.md", _skill(name))
    write_file(root, f"{plugin}/agents/kube-architect.md", "---\nname: kube-architect\ndescription: designs\n---\nx\n")
    return root


@pytest.fixture
def index(tmp_path: Path, mkt: Path) -> Iterator[Index]:
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    _reindex(index, mkt)
    yield index
    index.close()


def _reindex(index: Index, root: Path) -> None:
    run = index_sources(index, [root], "skills")
    assert not [p for s in run.sources for p in s.problems]


def _rename(mkt: Path, old: str, new: str) -> None:
    skills = mkt / "plugins/kube-ops/skills"
    (skills / old).rename(skills / new)
    (skills / new / "SKILL.md").write_text(_skill(new))


def _plugin_members(project: Path) -> list[str]:
    record = json.loads((project / RECORD).read_text())
    (plugin,) = record["plugins"].values()
    return sorted(record["components"][i]["name"] for i in plugin["components"])


def test_a_renamed_and_a_deleted_member_are_taken_out(index: Index, mkt: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert install(index, ["kube-ops"], project).ok
    _rename(mkt, "gitops-workflow", "gitops-flow")
    shutil.rmtree(mkt / "plugins/kube-ops/skills/k8s-policies")
    _reindex(index, mkt)

    dry = install(index, ["kube-ops"], project, dry_run=True)
    said = dry.lines()
    assert f"  would remove .claude/skills/gitops-workflow/SKILL.md: {GONE}" in said
    assert f"  would remove .claude/skills/k8s-policies/SKILL.md: {GONE}" in said
    assert (project / ".claude/skills/gitops-workflow/SKILL.md").is_file()  # a dry run removes nothing

    plan = install(index, ["kube-ops"], project)
    assert plan.ok
    assert sorted(plan.removed()) == [".claude/skills/gitops-workflow/SKILL.md", ".claude/skills/k8s-policies/SKILL.md"]
    assert sorted(p.name for p in (project / ".claude/skills").iterdir()) == ["gitops-flow", "helm-charts"]
    assert _plugin_members(project) == ["gitops-flow", "helm-charts", "kube-architect"]
    again = install(index, ["kube-ops"], project)  # nothing left to do
    assert {c.status for c in again.components} == {"unchanged"} and not again.removed()
    report = uninstall(["kube-ops"], project)
    assert report.ok and not report.gone and not project.exists()


def test_a_member_file_the_user_changed_stays_recorded(index: Index, mkt: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert install(index, ["kube-ops"], project).ok
    mine = project / ".claude/skills/gitops-workflow/SKILL.md"
    mine.write_text("my own notes\n")
    _rename(mkt, "gitops-workflow", "gitops-flow")
    _reindex(index, mkt)

    plan = install(index, ["kube-ops"], project)
    assert plan.ok and not plan.removed() and mine.read_text() == "my own notes\n"
    (old,) = [c for c in plan.components if c.name == "gitops-workflow"]
    assert "kept .claude/skills/gitops-workflow/SKILL.md: not in this version, and changed since it was installed" in old.reason
    assert "gitops-workflow" in _plugin_members(project)  # uninstalling the plugin reports it
    report = uninstall(["kube-ops"], project)
    assert not report.ok and report.kept == {".claude/skills/gitops-workflow/SKILL.md": "changed since it was installed"}


def test_a_member_installed_by_its_own_name_stays(index: Index, mkt: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert install(index, ["kube-ops", "gitops-workflow"], project).ok
    _rename(mkt, "gitops-workflow", "gitops-flow")
    _reindex(index, mkt)
    plan = install(index, ["kube-ops"], project)
    assert plan.ok and not plan.removed()
    assert (project / ".claude/skills/gitops-workflow/SKILL.md").is_file()


def test_the_real_kubernetes_operations_plugin_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """README's case on a copy of wshobson/agents' plugin: rename gitops-workflow."""
    if not (REAL / "plugins/kubernetes-operations").is_dir():
        pytest.skip("shared skills data not present")
    root = tmp_path / "agents"
    shutil.copytree(REAL / "plugins/kubernetes-operations", root / "plugins/kubernetes-operations")
    market = json.loads((REAL / ".claude-plugin/marketplace.json").read_text())
    market["plugins"] = [p for p in market["plugins"] if p["name"] == "kubernetes-operations"]
    write_file(root, ".claude-plugin/marketplace.json", json.dumps(market))
    ix, project = tmp_path / "ix", tmp_path / "proj"
    index = ["--index-dir", ix]
    assert run_lines(capsys, "index", root, *index, "--embedder", "hashing-64")[0] == 0
    assert run_lines(capsys, "install", "kubernetes-operations", "--target", project, *index)[0] == 0
    skill = root / "plugins/kubernetes-operations/skills/gitops-workflow"
    text = (skill / "SKILL.md").read_text().replace("name: gitops-workflow", "name: gitops-flow", 1)
    skill.rename(skill.with_name("gitops-flow"))
    (skill.with_name("gitops-flow") / "SKILL.md").write_text(text)
    assert run_lines(capsys, "index", root, *index, "--embedder", "hashing-64")[0] == 0

    code, said = run_lines(capsys, "install", "kubernetes-operations", "--target", project, *index)
    assert code == 0
    assert (
        "  remove .claude/skills/gitops-workflow/SKILL.md: an earlier version of kubernetes-operations "
        "installed this; this version no longer has it"
    ) in said
    skills = sorted(p.name for p in (project / ".claude/skills").iterdir())
    assert "gitops-flow" in skills and "gitops-workflow" not in skills
    record = (project / RECORD).read_text()
    assert "gitops-workflow" not in record and "gitops-flow" in record
