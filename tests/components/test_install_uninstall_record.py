"""What the install record keeps for uninstall.

- ``uninstall`` takes the names ``install`` took: a plugin's id or name brings back what
  installing it added (its members, and what they require that nothing else holds or needs).
- An entry kept because the user changed it stays recorded, marked, and the output says
  what to do; ``force`` (``uninstall --force``) removes it as it is, and the output says
  which removals were of changed items.
- What ``install --force`` replaced of the user's own (an ``.mcp.json`` entry, a file) is
  kept and put back on uninstall.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from component_catalogue import files_under

from skill_retriever.cli import main
from skill_retriever.components.install import install, uninstall
from skill_retriever.stores.index import Index

S = "sample_catalogue"
RECORD = ".claude/.skill-retriever/installed.json"




def read(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(path.read_text())


def test_uninstall_takes_a_plugin_by_the_name_install_took(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "project"
    target.mkdir()
    (target / "README.md").write_text("mine\n")
    before = files_under(target)
    install(sample_index, ["slo-alerting"], target)  # installed on its own first: stays
    alone = files_under(target)
    plan = install(sample_index, ["release-train"], target, allow_conflicts=True)
    assert plan.ok and plan.applied
    members = set(plan.plugins[f"{S}/plugins/release-train"])
    slo = f"{S}/skills/slo-alerting/SKILL.md"
    assert slo in {c.id for c in plan.components if c.required_by}
    # the plugin lists its members and what they require, what was there before too (shared):
    # that one, installed by its own name, stays when the plugin goes
    brought = {c.id for c in plan.components} - {slo}
    assert brought > members
    plugins = read(target / RECORD)["plugins"]
    assert set(plugins[f"{S}/plugins/release-train"]["components"]) == brought | {slo}
    assert slo in plugins[f"{S}/plugins/release-train"]["required"]
    assert main(["uninstall", "release-train", "--target", str(target)]) == 0
    out = capsys.readouterr().out
    assert "removed .claude/skills/canary-rollout/SKILL.md" in out
    assert "kept slo-alerting: an install asked for it by its own name, not only as a dependency of plugin" in out
    assert files_under(target) == alone  # everything the plugin brought is gone, nothing else
    assert "plugins" not in read(target / RECORD)
    # by the plugin's id too, and a second time it is simply not installed any more
    install(sample_index, ["release-train"], target, allow_conflicts=True)
    report = uninstall([f"{S}/plugins/release-train", "slo-alerting"], target)
    assert report.ok and set(report.ids) == brought | {slo}
    assert files_under(target) == before
    assert main(["uninstall", "release-train", "--target", str(target)]) == 2
    assert "no component 'release-train' installed" in capsys.readouterr().err


def test_what_the_user_changed_stays_recorded_until_dealt_with(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "project"
    target.mkdir()
    install(sample_index, ["deploy-control", "api-reviewer"], target, with_dependencies=False)
    mcp = read(target / ".mcp.json")
    mcp["mcpServers"]["deploy-control"]["env"]["DEPLOYCTL_TOKEN"] = "my-own-token"
    (target / ".mcp.json").write_text(json.dumps(mcp))
    agent = target / ".claude/agents/api-reviewer.md"
    agent.write_text("my own agent\n")
    for _ in range(2):  # kept, and still known the second time
        assert main(["uninstall", "deploy-control", "api-reviewer", "--target", str(target)]) == 1
        out = capsys.readouterr().out
        assert "kept .mcp.json#deploy-control: changed since it was installed" in out
        assert "kept .claude/agents/api-reviewer.md: changed since it was installed" in out
        assert "still recorded" in out and "add --force to remove it as it is" in out
        assert re.search(
            r"and run `skill-retriever uninstall sample_catalogue/\S+ sample_catalogue/\S+ --target \S+` to finish", out
        )
    record = read(target / RECORD)["components"]
    assert {p for e in record.values() for p in e.get("kept", {})} == {
        ".mcp.json#deploy-control",
        ".claude/agents/api-reviewer.md",
    }
    # the user undoes one change: a plain uninstall finishes that one
    agent.unlink()
    report = uninstall(["api-reviewer"], target)
    assert not report.kept and report.gone == [".claude/agents/api-reviewer.md"] and report.ok
    assert not report.recorded
    # force removes the other as it is
    report = uninstall(["deploy-control"], target, force=True)
    assert report.ok and report.removed == [".mcp.json#deploy-control"]
    assert not (target / ".mcp.json").exists() and files_under(target) == {}


def test_what_force_replaced_is_put_back_on_uninstall(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    (target / ".claude/agents").mkdir(parents=True)
    mine = {"command": "my-deployctl", "args": ["--mine"]}
    (target / ".mcp.json").write_text(json.dumps({"mcpServers": {"deploy-control": mine}}))
    agent = target / ".claude/agents/api-reviewer.md"
    agent.write_text("my own reviewer\n")
    agent.chmod(0o600)
    before = files_under(target)
    ids = ["deploy-control", "api-reviewer"]
    assert not install(sample_index, ids, target, with_dependencies=False).ok  # blocked
    plan = install(sample_index, ids, target, with_dependencies=False, force=True)
    assert plan.ok and agent.read_text() != "my own reviewer\n"
    assert read(target / ".mcp.json")["mcpServers"]["deploy-control"] != mine
    # forcing again keeps the first copy: the user's, not the install's
    install(sample_index, ids, target, with_dependencies=False, force=True)
    report = uninstall(ids, target)
    assert report.ok
    assert set(report.restored) == {".mcp.json#deploy-control", ".claude/agents/api-reviewer.md"}
    after = files_under(target)
    assert json.loads(after.pop(".mcp.json")) == json.loads(before.pop(".mcp.json"))
    assert after == before and agent.stat().st_mode & 0o777 == 0o600
    assert "restored .mcp.json#deploy-control" in "\n".join(report.lines())


def test_uninstall_force_on_the_command_line_says_what_it_removed_as_changed(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "project"
    target.mkdir()
    ids = ["deploy-control", "api-reviewer", "adr-writing"]
    assert install(sample_index, ids, target, with_dependencies=False).ok
    mcp = read(target / ".mcp.json")
    mcp["mcpServers"]["deploy-control"]["env"]["DEPLOYCTL_TOKEN"] = "my-own-token"
    (target / ".mcp.json").write_text(json.dumps(mcp))
    (target / ".claude/agents/api-reviewer.md").write_text("my own agent\n")
    unchanged = [p for p in files_under(target) if "adr-writing" in p]
    assert unchanged
    argv = ["uninstall", *ids, "--target", str(target)]
    assert main([*argv, "--force", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["ok"] and got["still_recorded"] == []
    assert sorted(got["removed_changed"]) == [
        ".claude/agents/api-reviewer.md",
        ".mcp.json#deploy-control",
    ]
    assert files_under(target) == {} and not (target / RECORD).exists()
    # the plain text says which removals were of changed items, and only those
    install(sample_index, ids, target, with_dependencies=False)
    (target / ".claude/agents/api-reviewer.md").write_text("my own agent\n")
    assert main([*argv, "--force"]) == 0
    out = capsys.readouterr().out.splitlines()
    changed = "changed since it was installed, removed as it was (force)"
    assert f"  removed .claude/agents/api-reviewer.md: {changed}" in out
    assert [line for line in out if changed in line] == [
        f"  removed .claude/agents/api-reviewer.md: {changed}"
    ]
    assert {f"  removed {p}" for p in unchanged} <= set(out)
    assert files_under(target) == {}


def test_uninstall_where_there_is_no_record_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not "its record lists nothing": there is none, and where it was looked for is named."""
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    for extra in ([], ["--dry-run"]):
        assert main(["uninstall", "nope", "--target", str(project), *extra]) == 2
        err = capsys.readouterr().err
        assert "lists nothing" not in err
        assert f"no install record there ({project / RECORD} does not exist)" in err
        assert "skill-retriever has installed nothing in it; give the folder an install wrote into" in err
    assert files_under(project) == {}
