"""``settings.json`` and ``.mcp.json`` as install rewrites them.

- A file holding what could not be written back as valid JSON (a number too large for a
  double, ``NaN``, half of a UTF-16 pair) is refused when planning, named with what is
  wrong and what to do, and left byte for byte as it was; a component that does not
  touch it still installs, recorded.
- Writing never leaves invalid JSON, and never fails half-way with an error that is
  not an `OSError`: the install records what it wrote.
- A rewritten file keeps its own style: one line or indented (spaces or a tab), escaped
  non-ASCII or not, CRLF line ends, a final newline or none; a new file is indented by
  two spaces.
- Messages: a failed write names the file, not the temporary one beside it; a linked
  ``settings.json`` says what to do.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, install, settings, uninstall
from skill_retriever.components.install.settings import write_json
from skill_retriever.stores.index import Index

S = "sample_catalogue"
HOOK = f"{S}/hooks/format-on-save.json"
RECORD = ".claude/.skill-retriever/installed.json"


def _project(tmp_path: Path, settings: bytes) -> tuple[Path, Path]:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    path = target / ".claude/settings.json"
    path.write_bytes(settings)
    return target, path


def _refusal(plan: object, path: str) -> str:
    reasons = [f.reason for c in plan.components for f in c.files if f.path.startswith(path)]  # type: ignore[attr-defined]
    assert reasons, path
    return reasons[0]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (b'{"x": 1e400, "model": "opus"}', "1e400"),
        (b'{"x": -1E999}', "-1E999"),
        (b'{"x": NaN}', "NaN"),
        (b'{"x": [Infinity]}', "Infinity"),
    ],
)
def test_a_number_json_cannot_hold_is_refused_and_the_file_kept(
    sample_index: Index, tmp_path: Path, text: bytes, named: str
) -> None:
    target, path = _project(tmp_path, text)
    plan = install(sample_index, [HOOK, "api-reviewer"], target, with_dependencies=False)
    assert not plan.ok and path.read_bytes() == text
    why = _refusal(plan, ".claude/settings.json")
    assert ".claude/settings.json" in why and named in why and "nothing is written to it" in why
    # what does not touch the file installs, and is recorded
    assert (target / ".claude/agents/api-reviewer.md").is_file()
    assert "api-reviewer" in json.dumps(json.loads((target / RECORD).read_text()))


def test_a_lone_surrogate_is_refused_before_anything_is_written(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = b'{"note": "\\ud83d", "hooks": {}}'
    target, path = _project(tmp_path, text)
    index_dir = str(sample_index.path)
    sample_index.close()  # the CLI opens it itself
    code = main(
        ["install", HOOK, "api-reviewer", "--no-deps", "--target", str(target), "--index-dir", index_dir]
    )
    out = capsys.readouterr()
    assert code == 1 and "Traceback" not in out.err and "UnicodeEncodeError" not in out.err
    assert "half of a character at note" in out.out and ".claude/settings.json" in out.out
    assert path.read_bytes() == text
    # the agent was written and recorded: uninstall takes it back
    assert main(["uninstall", "api-reviewer", "--target", str(target)]) == 0
    assert not (target / ".claude/agents/api-reviewer.md").exists()


def test_a_whole_character_written_as_two_escapes_is_fine(
    sample_index: Index, tmp_path: Path
) -> None:
    target, path = _project(tmp_path, b'{"note": "\\ud83d\\ude00"}\n')
    assert install(sample_index, [HOOK], target, with_dependencies=False).ok
    written = path.read_text()
    assert '"\\ud83d\\ude00"' in written  # escaped as it was: the file has no raw non-ASCII
    assert json.loads(written)["note"] == "\U0001f600"


def test_an_mcp_json_with_such_a_number_is_refused_too(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    target.mkdir()
    text = b'{"mcpServers": {"mine": {"command": "x", "timeout": 1e400}}}'
    (target / ".mcp.json").write_bytes(text)
    plan = install(sample_index, ["deploy-control"], target, with_dependencies=False)
    assert not plan.ok and (target / ".mcp.json").read_bytes() == text
    assert "1e400" in _refusal(plan, ".mcp.json")


def test_writing_what_json_cannot_hold_raises_an_install_error_and_writes_nothing(
    tmp_path: Path,
) -> None:
    (tmp_path / ".claude").mkdir()
    path = tmp_path / ".claude/settings.json"
    path.write_text("{}\n")
    for data in ({"x": float("inf")}, {"x": float("nan")}, {"x": ["\ud83d"]}):
        with pytest.raises(settings.JSONWriteError) as raised:
            write_json(tmp_path, ".claude/settings.json", data)
        assert isinstance(raised.value, InstallError) and isinstance(raised.value, OSError)
        assert str(path) in str(raised.value) and "nothing is written" in str(raised.value)
        assert path.read_text() == "{}\n"
    assert [p.name for p in (tmp_path / ".claude").iterdir()] == ["settings.json"]


def test_a_failed_write_names_the_file_not_the_temporary_one(tmp_path: Path) -> None:
    (tmp_path / ".claude/settings.json").mkdir(parents=True)  # os.replace onto a folder fails
    with pytest.raises(OSError) as raised:
        write_json(tmp_path, ".claude/settings.json", {"hooks": {}})
    assert raised.value.filename == str(tmp_path / ".claude/settings.json")
    assert raised.value.filename2 is None and ".tmp" not in str(raised.value)
    assert [p.name for p in (tmp_path / ".claude").iterdir()] == ["settings.json"]


@pytest.mark.parametrize(
    ("before", "one_line", "indent"),
    [
        ('{"model":"opus","env":{"X":"\\u00e9"}}', True, None),
        ('{"model": "opus", "env": {"X": "\\u00e9"}}\n', True, None),
        ('{\n    "model": "opus",\n    "env": {\n        "X": "\\u00e9"\n    }\n}\n', False, "    "),
        ('{\n\t"model": "opus",\n\t"env": {\n\t\t"X": "\\u00e9"\n\t}\n}', False, "\t"),
    ],
)
def test_a_rewritten_settings_json_keeps_its_style(
    sample_index: Index, tmp_path: Path, before: str, one_line: bool, indent: str | None
) -> None:
    target, path = _project(tmp_path, before.encode())
    assert install(sample_index, [HOOK], target, with_dependencies=False).ok
    after = path.read_text()
    data = json.loads(after)
    assert data["env"] == {"X": "é"} and data["hooks"]["PostToolUse"]
    assert "é" not in after and "\\u00e9" in after  # escaped as the file escaped it
    assert after.endswith("\n") == before.endswith("\n")
    if one_line:
        assert "\n" not in after.rstrip("\n")
        assert ('"model":"opus"' in after) == ('"model":"opus"' in before)
    else:
        assert after.splitlines()[1].startswith(f'{indent}"')
        assert not after.splitlines()[1].startswith(f"{indent}{indent}")
    assert uninstall([HOOK], target).ok and path.read_text() == before


def test_raw_non_ascii_and_crlf_stay_and_a_new_file_is_indented(
    sample_index: Index, tmp_path: Path
) -> None:
    before = '{\r\n  "env": {\r\n    "X": "é"\r\n  }\r\n}\r\n'
    target, path = _project(tmp_path, before.encode())
    path.write_bytes(before.encode())
    assert install(sample_index, [HOOK], target, with_dependencies=False).ok
    after = path.read_bytes().decode()
    assert '"X": "é"' in after and "\\u00e9" not in after
    assert after.count("\r\n") == after.count("\n") and after.endswith("}\r\n")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert install(sample_index, [HOOK], fresh, with_dependencies=False).ok
    text = (fresh / ".claude/settings.json").read_text()
    assert text.startswith('{\n  "hooks": {\n    "') and text.endswith("}\n")


def test_a_linked_settings_json_is_refused_saying_what_to_do(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    (target / "dotfiles").mkdir()
    (target / "dotfiles/settings.json").write_text("{}\n")
    (target / ".claude/settings.json").symlink_to("../dotfiles/settings.json")
    plan = install(sample_index, [HOOK], target, with_dependencies=False)
    why = _refusal(plan, ".claude/settings.json")
    assert "symbolic link" in why and "replace the link by a copy of the file it points to" in why
    assert (target / "dotfiles/settings.json").read_text() == "{}\n"
