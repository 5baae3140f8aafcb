"""Hooks of one event, matcher and ``if`` rule that run different commands have keys of
their own: ``install --json`` gave both ``.claude/settings.json#hooks.PreToolUse[Bash]``,
and so did ``uninstall``'s ``removed``, which could not say which one went. Such a key now
ends in `` @<tag>`` (8 hex digits of its command's SHA-256); a hook without a twin keeps
its key as it was, and a record's note under an untagged key still lets the hook go."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from component_catalogue import build_index

from skill_retriever.cli import main
from skill_retriever.components.install.layout import RECORD_FILE

GROUP = ".claude/settings.json#hooks.PreToolUse[Bash]"
COMMANDS = {"guards": ["echo first >&2; exit 2", "echo second >&2; exit 2"], "lone": ["echo lone"]}


def _tag(command: str) -> str:
    return hashlib.sha256(command.encode()).hexdigest()[:8]


@pytest.fixture
def index_dir(tmp_path: Path) -> str:
    repo = tmp_path / "repo"
    (repo / "hooks").mkdir(parents=True)
    for name, commands in COMMANDS.items():
        hooks = [{"type": "command", "command": c} for c in commands]
        event = "PreToolUse" if name == "guards" else "Stop"
        doc = {"description": f"the {name}", "hooks": {event: [{"matcher": "Bash", "hooks": hooks}]}}
        (repo / "hooks" / f"{name}.json").write_text(json.dumps(doc))
    build_index(tmp_path / "index", [repo]).close()
    return str(tmp_path / "index")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(list(args))
    return code, json.loads(capsys.readouterr().out)


def test_twins_are_keyed_by_their_command_through_install_and_uninstall(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = str(tmp_path / "project")
    code, plan = _run(capsys, "install", "guards", "lone", "--index-dir", index_dir, "--target", target, "--json")
    assert code == 0
    paths = {c["name"]: [f["path"] for f in c["files"]] for c in plan["components"]}
    twins = [f"{GROUP} @{_tag(c)}" for c in COMMANDS["guards"]]
    assert paths == {"guards": twins, "lone": [".claude/settings.json#hooks.Stop[Bash]"]}  # no twin: as before
    # one twin changed by the user: kept under its own key, the other removed under its own
    settings = Path(target, ".claude/settings.json")
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][1]["timeout"] = 5
    settings.write_text(json.dumps(data))
    main(["uninstall", "guards", "--target", target, "--dry-run"])
    words = [line.strip() for line in capsys.readouterr().out.splitlines()]
    first, second = (f"hook PreToolUse (tools matching Bash, command @{_tag(c)})" for c in COMMANDS["guards"])
    # the removed one says what it ran (its hash only told it from a twin that reads the same)
    assert "would remove hook PreToolUse (tools matching Bash, runs echo first >&2; exit 2) from .claude/settings.json" in words
    assert f"would remove {first} from .claude/settings.json" not in words
    assert f"would keep {second} in .claude/settings.json" not in " ".join(words)  # its hash alone told nothing
    kept = "would keep hook PreToolUse (tools matching Bash, runs echo second >&2; exit 2) in .claude/settings.json: changed"
    assert any(w.startswith(kept) for w in words), words
    code, report = _run(capsys, "uninstall", "guards", "--target", target, "--json")
    assert code == 1
    assert report["removed"] == [twins[0]] and list(report["kept"]) == [twins[1]]


def test_a_note_under_the_old_untagged_key_is_forgotten_with_the_hook(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "project"
    assert main(["install", "guards", "--index-dir", index_dir, "--target", str(target), "--json"]) == 0
    capsys.readouterr()
    record = json.loads((target / RECORD_FILE).read_text())
    (entry,) = record["components"].values()
    entry["kept"] = {GROUP: "changed since it was installed"}  # as a record of before the tag
    (target / RECORD_FILE).write_text(json.dumps(record))
    code, report = _run(capsys, "uninstall", "guards", "--target", str(target), "--json")
    assert code == 0 and report["ok"] and report["still_recorded"] == []
    assert sorted(report["removed"]) == sorted(f"{GROUP} @{_tag(c)}" for c in COMMANDS["guards"])
    assert not (target / ".claude/settings.json").exists()  # the install made it: it goes
