"""A skill's file that holds a real key: the index keeps it redacted, install copies it.

The CLI copies it byte for byte (a script must run as written) and names it in the plan,
text and ``--json``, with the line and the kind of rule that fired, never the key, and a
warning to check it before committing ``.claude/``. An agent (the MCP tool) does not
write it: the plan says which files were held back, why, and the CLI command that
installs them, which, run, writes the file as the repository has it.

The skill is a real one (anthropics/skills' webapp-testing) copied to the test's folder,
with a script holding a made-up key of Anthropic's form added.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from cli_calls import run, run_lines
from mcp_in_process import tool_answers

from skill_retriever.cli import main

REAL_SKILL = Path("/work/shared/data/skills/anthropics__skills/skills/webapp-testing")
KEY = "sk-ant-api03-" + "Q7vX2mLp9RtYbN4kWz8HcJ5dFg3SaE6uIo1PqZx0" + "-AbCdEf_gH12AA"
SCRIPT = f'import os\n\n# smoke test against the API\nAPI_KEY = "{KEY}"\nprint(len(API_KEY))\n'
HELD = ".claude/skills/webapp-testing/scripts/smoke.py"
KIND = "a token of a well-known format"
WARNING = "this file holds what looks like a credential; check it before you commit .claude/"

pytestmark = pytest.mark.skipif(not REAL_SKILL.is_dir(), reason="the shared skills data is not here")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    skill = tmp_path / "repo" / "skills" / "webapp-testing"
    shutil.copytree(REAL_SKILL, skill)
    (skill / "scripts").mkdir()
    (skill / "scripts" / "smoke.py").write_text(SCRIPT, encoding="utf-8")
    return skill


@pytest.fixture
def ix(tmp_path: Path, repo: Path) -> Path:
    out = tmp_path / "ix"
    assert main(["index", str(tmp_path / "repo"), "--index-dir", str(out), "--embedder", "hashing-64"]) == 0
    return out


def test_the_cli_copies_it_byte_for_byte_and_says_where(
    ix: Path, repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proj = tmp_path / "proj"
    where = ["--target", proj, "--index-dir", ix]
    code, lines = run_lines(capsys, "install", "webapp-testing", *where, "--dry-run")
    assert code == 0
    at = lines.index(f"  would create {HELD}")
    assert lines[at + 1] == (
        f"    warning: this file holds what looks like a credential (line 4: {KIND}); "
        "check it before you commit .claude/"
    )
    assert not any(KEY in line or "held back" in line for line in lines)
    code, out, _ = run(capsys, "install", "webapp-testing", *where, "--json")
    assert code == 0 and KEY not in out
    files = {f["path"]: f for f in json.loads(out)["components"][0]["files"]}
    assert files[HELD] == {
        "path": HELD, "action": "create", "credential_lines": [{"line": 4, "kind": KIND}], "warning": WARNING,
    }  # fmt: skip
    assert "credential_lines" not in files[".claude/skills/webapp-testing/SKILL.md"]
    assert (proj / HELD).read_bytes() == (repo / "scripts/smoke.py").read_bytes()


def test_an_agent_gets_it_held_back_with_the_command_that_installs_it(
    ix: Path, repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proj = tmp_path / "proj"
    args = {"ids": ["webapp-testing"], "target": str(proj)}
    got = tool_answers(ix, ["*"], {
        "plan": ("install_components", args),
        "real": ("install_components", args | {"dry_run": False}),
        "full": ("install_components", args | {"detail": "full"}),
    })  # fmt: skip
    assert KEY not in json.dumps(got)
    for answer in got.values():
        assert answer["ok"] is True
        assert answer["held_back"]["files"] == [HELD]
    how = got["real"]["held_back"]["command"]
    assert how == (
        f"skill-retriever install repo/skills/webapp-testing/SKILL.md --target {proj} --index-dir {ix}"
    )
    summary = got["real"]["summary"]
    assert "  create .claude/skills/webapp-testing/SKILL.md" in summary
    assert any(line.startswith(f"  held back {HELD}: it holds what looks like a credential (line 4: {KIND})")
               for line in summary)
    assert summary[-1].endswith(f"check them, then run {how}")
    held = next(f for f in got["full"]["components"][0]["files"] if f["path"] == HELD)
    assert held["action"] == "held" and held["credential_lines"] == [{"line": 4, "kind": KIND}]
    assert (proj / ".claude/skills/webapp-testing/SKILL.md").is_file()
    assert not (proj / HELD).exists()
    # the user runs the command the plan names: the file is written as the repository has it
    code, out, _ = run(capsys, *shlex.split(how)[1:])
    assert code == 0, out
    assert f"  create {HELD}" in out.splitlines()
    assert (proj / HELD).read_bytes() == (repo / "scripts/smoke.py").read_bytes()


def test_a_component_with_nothing_else_to_write_is_held_back_whole(ix: Path, repo: Path, tmp_path: Path) -> None:
    (repo / "SKILL.md").write_text(
        (repo / "SKILL.md").read_text() + f"\n\nexport ANTHROPIC_API_KEY={KEY}\n", encoding="utf-8"
    )
    for extra in ("LICENSE.txt", "scripts/smoke.py"):
        (repo / extra).unlink()
    assert main(["index", str(tmp_path / "repo"), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    proj = tmp_path / "proj"
    got = tool_answers(ix, ["alice"], {"real": ("install_components", {
        "ids": ["webapp-testing"], "target": str(proj), "dry_run": False, "detail": "full",
    })})["real"]  # fmt: skip
    (component,) = got["components"]
    assert component["status"] == "skipped" and "held back" in component["reason"]
    assert got["ok"] is False  # what was asked for is not installed
    assert got["held_back"]["command"].endswith(f"--target {proj} --principals alice --index-dir {ix}")
    assert not (proj / ".claude/skills").exists()


def test_a_hook_whose_script_is_held_back_is_held_back_whole(tmp_path: Path) -> None:
    # its entry alone would run a missing script on every Stop
    hooks = tmp_path / "acme" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "notify.json").write_text(json.dumps({
        "name": "notify", "description": "Post when done.", "event": "Stop", "command": "python3 notify.py",
    }))  # fmt: skip
    (hooks / "notify.py").write_text(SCRIPT, encoding="utf-8")
    ix = tmp_path / "ix"
    assert main(["index", str(tmp_path / "acme"), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    proj = tmp_path / "proj"
    got = tool_answers(ix, ["*"], {"real": ("install_components", {
        "ids": ["notify"], "target": str(proj), "dry_run": False, "detail": "full",
    })})["real"]  # fmt: skip
    (component,) = got["components"]
    assert component["status"] == "skipped" and "would fail on each run" in component["reason"]
    assert got["held_back"]["files"] == [".claude/hooks/notify.py"]
    assert not (proj / ".claude/settings.json").exists() and not (proj / ".claude/hooks").exists()
