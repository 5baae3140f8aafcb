"""An install plan as a person reads it, through the real CLI on a small catalogue.

- "required by" names the component that requires it directly (a chain's last step; all
  of them when several do), not the one asked for at the top;
- ``--force`` says where the user's copy goes, and uninstall puts it back from there;
- a file an earlier install wrote and the user edited since is "changed since it was
  installed"; one no install wrote still "exists and differs";
- a hook is said in words, joining an existing group says so, and a new version of a hook
  is one ``update`` line;
- ``str()`` of a plan is its lines, its repr one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.components.install import install
from skill_retriever.stores.index import Index

ROLLOUT = "cat/plugins/ops/commands/rollout.md"
AGENT = ".claude/agents/release-captain.md"
BACKUP = f".claude/.skill-retriever/backups/{AGENT}"
HELM = ".claude/skills/helm-chart-scaffolding/SKILL.md"


def _md(name: str, requires: str = "") -> str:
    needs = f"requires: [{requires}]\n" if requires else ""
    return f"---\nname: {name}\ndescription: The {name} component.\n{needs}---\n\nBody of {name}.\n"


def _hook(command: str) -> str:
    return json.dumps({"name": "notify-on-stop", "description": "Notify when Claude stops.",
                       "event": "Stop", "command": command})


@pytest.fixture
def cat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """rollout -> deploy-helper -> helm-chart-scaffolding, rollout -> chart-lint -> helm;
    an agent; a Stop hook and a PreToolUse one. Returns (catalogue, index folder)."""
    root = tmp_path / "cat"
    write_file(root, "plugins/ops/.claude-plugin/plugin.json", json.dumps({"name": "ops"}))
    write_file(root, "plugins/ops/commands/rollout.md", _md("rollout", "deploy-helper, chart-lint"))
    write_file(root, "skills/deploy-helper/SKILL.md", _md("deploy-helper", "helm-chart-scaffolding"))
    write_file(root, "skills/chart-lint/SKILL.md", _md("chart-lint", "helm-chart-scaffolding"))
    write_file(root, "skills/helm-chart-scaffolding/SKILL.md", _md("helm-chart-scaffolding"))
    write_file(root, "agents/release-captain.md", _md("release-captain"))
    write_file(root, "hooks/notify-on-stop.json", _hook("notify-send done"))
    write_file(root, "hooks/guard-bash.json", json.dumps({
        "name": "guard-bash", "description": "Check shell commands.", "event": "PreToolUse",
        "matcher": "Bash", "command": "echo checked"}))
    ix = tmp_path / "ix"
    code, _, err = run(capsys, "index", root, "--index-dir", ix, "--embedder", "hashing-64")
    assert code == 0, err
    return root, ix


def _install(capsys: pytest.CaptureFixture[str], ix: Path, target: Path, *args: str) -> tuple[int, str]:
    code, out, err = run(capsys, "install", *args, "--target", target, "--index-dir", ix)
    return code, out + err


def test_a_dependency_is_required_by_its_direct_requirers(
    cat: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, ix = cat
    code, out = _install(capsys, ix, tmp_path / "p", ROLLOUT, "--dry-run")
    assert code == 0, out
    lines = out.splitlines()
    deploy = next(line for line in lines if line.startswith("[skill] deploy-helper "))
    helm = next(line for line in lines if line.startswith("[skill] helm-chart-scaffolding "))
    assert "(required by rollout)" in deploy
    assert "(required by deploy-helper, chart-lint)" in helm and "rollout" not in helm
    code, data, _ = run(capsys, "install", ROLLOUT, "--target", tmp_path / "p", "--index-dir", ix, "--dry-run", "--json")
    plan = json.loads(data)
    entry = next(c for c in plan["components"] if c["name"] == "helm-chart-scaffolding")
    assert entry["required_by"] == [ROLLOUT]  # what it is here for (uninstall goes by it)
    assert [i.rsplit("/", 2)[-2] for i in entry["required_directly_by"]] == ["deploy-helper", "chart-lint"]


def test_force_says_where_the_users_copy_goes_and_uninstall_puts_it_back(
    cat: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, ix = cat
    project = tmp_path / "p"
    write_file(project, AGENT, "my own release captain\n")
    code, out = _install(capsys, ix, project, "release-captain")
    assert code == 1 and f"  kept {AGENT}: exists and differs; force overwrites it" in out
    code, out = _install(capsys, ix, project, "release-captain", "--force")
    assert code == 0, out
    assert f"  overwrite {AGENT}: exists and differs; your copy goes to {BACKUP}; uninstall puts it back" in out
    assert (project / BACKUP).read_text() == "my own release captain\n"
    code, out, _ = run(capsys, "uninstall", "release-captain", "--target", project)
    assert code == 0 and (project / AGENT).read_text() == "my own release captain\n"


def test_a_file_edited_after_its_install_is_changed_since_it_was_installed(
    cat: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, ix = cat
    project = tmp_path / "p"
    assert _install(capsys, ix, project, "helm-chart-scaffolding")[0] == 0
    (project / HELM).write_text("edited by me\n", encoding="utf-8")
    code, out = _install(capsys, ix, project, "helm-chart-scaffolding")
    # its source is still the version installed: the edit is simply the user's (nothing to update)
    assert code == 0 and f"  unchanged {HELM}: yours, changed since it was installed" in out
    assert "exists and differs" not in out
    code, out = _install(capsys, ix, project, "helm-chart-scaffolding", "--force", "--dry-run")
    backup = f".claude/.skill-retriever/backups/{HELM}"
    assert f"  would overwrite {HELM}: changed since it was installed; your copy goes to {backup}" in out


def test_hooks_are_said_in_words_and_joining_a_group_says_so(
    cat: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, ix = cat
    fresh, code = tmp_path / "fresh", 0
    code, out = _install(capsys, ix, fresh, "notify-on-stop", "guard-bash", "--dry-run")
    assert code == 0, out
    assert "  would add hook Stop to .claude/settings.json" in out.splitlines()
    assert "  would add hook PreToolUse (tools matching Bash) to .claude/settings.json" in out.splitlines()
    assert "#hooks." not in out
    mine = tmp_path / "mine"
    users = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}}
    write_file(mine, ".claude/settings.json", json.dumps(users))
    code, out = _install(capsys, ix, mine, "notify-on-stop")
    assert code == 0, out
    assert "  add hook Stop to .claude/settings.json, in the existing Stop group" in out.splitlines()
    groups = json.loads((mine / ".claude/settings.json").read_text())["hooks"]["Stop"]
    assert [h["command"] for h in groups[0]["hooks"]] == ["echo mine", "notify-send done"]  # as said
    assert _install(capsys, ix, mine, "notify-on-stop")[1].splitlines()[-1] == (
        "  unchanged hook Stop in .claude/settings.json"
    )



def test_the_json_plan_says_a_hook_joins_a_group_as_the_lines_do(
    cat: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json`` (what an agent reads) said ``create`` for the hook and nothing of the
    group it joins, which the text plan says (``, in the existing Stop group``): Claude
    Code runs every hook of a group, the user's ``echo mine`` beside it."""
    _, ix = cat
    mine = tmp_path / "mine"
    users = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}}
    write_file(mine, ".claude/settings.json", json.dumps(users))
    code, out = _install(capsys, ix, mine, "notify-on-stop", "guard-bash", "--dry-run", "--json")
    assert code == 0, out
    files = {f["path"]: f for c in json.loads(out)["components"] for f in c["files"]}
    assert files[".claude/settings.json#hooks.Stop[]"] == {
        "path": ".claude/settings.json#hooks.Stop[]", "action": "create", "in_group": True}
    assert "in_group" not in files[".claude/settings.json#hooks.PreToolUse[Bash]"]  # a group of its own

def test_a_new_version_of_a_hook_is_one_update_line(
    cat: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, ix = cat
    project = tmp_path / "p"
    assert _install(capsys, ix, project, "guard-bash")[0] == 0
    hook = root / "hooks/guard-bash.json"
    hook.write_text(hook.read_text().replace("echo checked", "echo checked twice"))
    assert run(capsys, "index", root, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    code, out = _install(capsys, ix, project, "guard-bash", "--dry-run")
    assert code == 0, out
    said = [line for line in out.splitlines() if "PreToolUse" in line]
    update = "  would update hook PreToolUse (tools matching Bash) in .claude/settings.json: "
    assert said == [update + "the new version replaces the earlier one"]
    assert _install(capsys, ix, project, "guard-bash")[0] == 0
    commands = json.loads((project / ".claude/settings.json").read_text())["hooks"]["PreToolUse"][0]["hooks"]
    assert [h["command"] for h in commands] == ["echo checked twice"]


def test_str_of_a_plan_is_its_lines_and_its_repr_one_line(cat: tuple[Path, Path], tmp_path: Path) -> None:
    _, ix = cat
    index = Index.open(ix)
    try:
        plan = install(index, [ROLLOUT], tmp_path / "p", dry_run=True)
    finally:
        index.close()
    assert str(plan) == "\n".join(plan.lines())
    assert str(plan).splitlines()[0].endswith("(dry run: nothing written)")
    assert "  would create .claude/commands/ops/rollout.md" in str(plan).splitlines()
    shown = repr(plan)
    assert "\n" not in shown and len(shown) < 300
    assert shown.startswith("InstallPlan(target=") and "components: 4 install" in shown and "ok=True" in shown
