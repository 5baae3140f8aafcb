"""Hooks of one group that only their ``if`` rule tells apart have keys of their own.

Found in a walkthrough: a ``push-guard`` hook file with two PreToolUse hooks on ``Bash``,
one command, two ``if`` rules, and an ``rm-guard`` beside it in the same group. Every one
of them was ``.claude/settings.json#hooks.PreToolUse[Bash]`` in ``install --json`` and in
an uninstall's report (``removed`` listed one key twice; a dry run of ``uninstall
rm-guard`` said ``would remove hook PreToolUse (tools matching Bash)``, as it would have
said of either push hook). The key now names the rule, and a record written when the key
did not (a ``kept`` note under the group's key) still lets the component go.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import build_index

from skill_retriever.cli import main
from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.layout import RECORD_FILE
from skill_retriever.stores.index import Index

BLOCK = "echo blocked >&2; exit 2"
GROUP = ".claude/settings.json#hooks.PreToolUse[Bash]"
RULES = {"push-guard": ["Bash(git push *--force*)", "Bash(git push *-f*)"], "rm-guard": ["Bash(rm -rf *)"]}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    for name, rules in RULES.items():
        hooks = [{"type": "command", "command": BLOCK, "if": rule} for rule in rules]
        doc = {"description": f"the {name}", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}}
        (repo / "hooks" / f"{name}.json").write_text(json.dumps(doc))
    idx = build_index(tmp_path / "index", [repo])
    yield idx
    idx.close()


def _key(rule: str) -> str:
    return f"{GROUP} if {rule}"


def test_install_json_names_each_hook_by_its_rule(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target, index_dir = tmp_path / "project", str(index.path)
    index.close()  # the CLI opens it itself
    code = main(["install", "push-guard", "rm-guard", "--index-dir", index_dir, "--target", str(target), "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    paths = {c["name"]: [f["path"] for f in c["files"]] for c in data["components"]}
    assert paths == {name: [_key(r) for r in rules] for name, rules in RULES.items()}


def test_uninstall_says_which_hook_of_the_group_goes(index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    assert install(index, ["push-guard", "rm-guard"], target).ok
    dry = uninstall(["rm-guard"], target, dry_run=True)
    assert dry.removed == [_key("Bash(rm -rf *)")]
    assert f"would remove hook PreToolUse (tools matching Bash, if Bash(rm -rf *), runs {BLOCK}) from .claude/settings.json" \
        in [line.strip() for line in dry.lines()]
    report = uninstall(["push-guard"], target)
    assert report.ok and report.removed == [_key(r) for r in RULES["push-guard"]]
    words = [line.strip() for line in report.lines()]
    assert [w for w in words if w.startswith("removed")] == [
        f"removed hook PreToolUse (tools matching Bash, if {r}, runs {BLOCK}) from .claude/settings.json"
        for r in RULES["push-guard"]
    ]
    left = json.loads((target / ".claude/settings.json").read_text())["hooks"]["PreToolUse"][0]["hooks"]
    assert [h["if"] for h in left] == ["Bash(rm -rf *)"]


def test_a_changed_hook_is_kept_under_its_own_key(index: Index, tmp_path: Path) -> None:
    """The user narrows one push rule: that hook is kept by name, the other one goes."""
    target = tmp_path / "project"
    assert install(index, ["push-guard", "rm-guard"], target).ok
    path = target / ".claude/settings.json"
    data = json.loads(path.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][1]["if"] = "Bash(git push -f*)"
    path.write_text(json.dumps(data))
    report = uninstall(["push-guard"], target)
    assert report.removed == [_key("Bash(git push *--force*)")]
    assert list(report.kept) == [_key("Bash(git push *-f*)")]
    kept = f"kept hook PreToolUse (tools matching Bash, if Bash(git push *-f*), runs {BLOCK}) in .claude/settings.json"
    assert any(kept in line for line in report.lines()), report.lines()  # what it runs, as a removed one


def _record(target: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((target / RECORD_FILE).read_text())
    return loaded


def test_a_record_keyed_by_the_group_alone_still_lets_the_hook_go(index: Index, tmp_path: Path) -> None:
    """A record of before the rule was in the key: a kept note under the group's key is
    forgotten with the hook, not left to keep the component recorded forever."""
    target = tmp_path / "project"
    assert install(index, ["rm-guard"], target).ok
    record = _record(target)
    (entry,) = record["components"].values()
    entry["kept"] = {GROUP: "changed since it was installed"}
    (target / RECORD_FILE).write_text(json.dumps(record))
    report = uninstall(["rm-guard"], target)
    assert report.ok and report.removed == [_key("Bash(rm -rf *)")] and report.recorded == []
    assert not (target / RECORD_FILE).exists() or _record(target)["components"] == {}
