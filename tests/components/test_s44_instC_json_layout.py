"""A hand-formatted ``settings.json`` or ``.mcp.json`` stays as the user wrote it.

Installing a hook and an MCP server through the real CLI changes only the members it
adds (and the comma before them): every other line of the file, the user's inline arrays
and one-line objects included, is byte for byte as it was; uninstalling gives the
original bytes back, and an uninstall after the user edited the file takes out only what
the install added. CRLF line ends, tab indents, no final newline, a one-line file, an
empty object, a key written twice and a file with comments (not JSON: refused, kept).
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.components.install.json_layout import json_style
from skill_retriever.components.install.json_splice import splice
from skill_retriever.stores.index import Index

HOOK = "format-on-save"  # PostToolUse, matcher Edit|Write|MultiEdit: joins the user's group
STOP = "test-on-stop"  # Stop: a new event
SERVER = "browser-runner"
SETTINGS = ".claude/settings.json"

#: The walkthrough's settings.json: an inline allow list, a hook object on one line.
SETTINGS_TEXT = """{
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"]
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Edit|Write|MultiEdit",
        "hooks": [
          { "type": "command", "command": "prettier --write" }
        ]
      }
    ]
  }
}
"""
MCP_TEXT = """{
  "mcpServers": {
    "mydb": {"command": "node", "args": ["db.js"]}
  }
}
"""


def _styled(text: str, indent: str, newline: str, final: bool) -> str:
    out = text.replace("  ", indent).replace("\n", newline)
    return out if final else out.rstrip("\r\n")


def _project(tmp_path: Path, settings: str | None, mcp: str | None = None) -> Path:
    target = tmp_path / "project"
    (target / ".claude").mkdir(parents=True)
    if settings is not None:
        (target / SETTINGS).write_bytes(settings.encode())
    if mcp is not None:
        (target / ".mcp.json").write_bytes(mcp.encode())
    return target


def _cli(
    capsys: pytest.CaptureFixture[str], index: str, target: Path, verb: str, *ids: str
) -> tuple[int, str]:
    extra = ["--no-deps", "--index-dir", index] if verb == "install" else []
    code, out, err = run(capsys, verb, *ids, "--target", target, *extra)
    return code, out + err


def _only_added(before: str, after: str) -> None:
    """``after`` is ``before`` with lines added: each old line is there byte for byte,
    but for a comma put after the line a new member follows."""
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    for op, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op in ("equal", "insert"):
            continue
        assert op == "replace" and i2 - i1 == 1, (op, old[i1:i2], new[j1:j2])
        line = old[i1]
        body = line.rstrip("\r\n")
        assert new[j1] == body + "," + line[len(body) :], (line, new[j1])


@pytest.fixture
def index_dir(sample_index: Index) -> str:
    path = str(sample_index.path)
    sample_index.close()  # the CLI opens it itself
    return path


@pytest.mark.parametrize(
    ("indent", "newline", "final"),
    [("  ", "\n", True), ("\t", "\r\n", True), ("    ", "\n", False), ("\t", "\n", False)],
)
def test_install_adds_only_its_members_and_uninstall_restores_the_bytes(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], indent: str, newline: str, final: bool
) -> None:
    settings = _styled(SETTINGS_TEXT, indent, newline, final)
    mcp = _styled(MCP_TEXT, indent, newline, final)
    target = _project(tmp_path, settings, mcp)
    code, out = _cli(capsys, index_dir, target, "install", HOOK, STOP, SERVER)
    assert code == 0, out
    after = (target / SETTINGS).read_bytes().decode()
    after_mcp = (target / ".mcp.json").read_bytes().decode()
    _only_added(settings, after)
    _only_added(mcp, after_mcp)
    # the user's one-line array and objects, verbatim, and the new members laid out in the file's style
    allow = f'{indent * 2}"allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"]{newline}'
    assert allow in after
    assert f'{indent * 5}{{ "type": "command", "command": "prettier --write" }},{newline}' in after
    assert f'{indent * 2}"mydb": {{"command": "node", "args": ["db.js"]}},{newline}' in after_mcp
    assert f'{newline}{indent * 2}"{SERVER}": {{{newline}{indent * 3}"command": ' in after_mcp
    assert f'{newline}{indent * 2}"Stop": [{newline}{indent * 3}{{{newline}' in after
    assert after.count("\n") == after.count(newline) and after.endswith("}" + newline * final)
    data = json.loads(after)
    hooks = data["hooks"]["PostToolUse"][0]["hooks"]
    assert hooks[0] == {"type": "command", "command": "prettier --write"}
    assert "ruff format" in hooks[1]["command"] and data["hooks"]["Stop"]
    servers = json.loads(after_mcp)["mcpServers"]
    assert list(servers) == ["mydb", SERVER] and servers["mydb"] == {"command": "node", "args": ["db.js"]}

    code, out = _cli(capsys, index_dir, target, "uninstall", HOOK, STOP, SERVER)
    assert code == 0, out
    assert (target / SETTINGS).read_bytes() == settings.encode()
    assert (target / ".mcp.json").read_bytes() == mcp.encode()


def test_uninstall_after_an_edit_takes_out_only_what_install_added(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = _project(tmp_path, SETTINGS_TEXT, MCP_TEXT)
    assert _cli(capsys, index_dir, target, "install", HOOK, STOP, SERVER)[0] == 0
    for rel in (SETTINGS, ".mcp.json"):  # the user edits an inline array after the install
        path = target / rel
        path.write_text(path.read_text().replace('~/.zshrc"]', '~/.zshrc", "Read(~/.bashrc)"]')
                        .replace('["db.js"]', '["db.js", "--ro"]'))  # fmt: skip
    code, out = _cli(capsys, index_dir, target, "uninstall", HOOK, STOP, SERVER)
    assert code == 0, out
    assert (target / SETTINGS).read_text() == SETTINGS_TEXT.replace(
        '~/.zshrc"]', '~/.zshrc", "Read(~/.bashrc)"]'
    )
    assert (target / ".mcp.json").read_text() == MCP_TEXT.replace('["db.js"]', '["db.js", "--ro"]')


@pytest.mark.parametrize(
    "before",
    [
        '{"permissions":{"allow":["Bash(npm run test:*)"]},"hooks":{}}',
        '{"permissions": {"allow": ["Bash(npm run test:*)"]}, "hooks": {"Stop": []}}\n',
        "{}",
        "{}\n",
        "{ }\r\n",
    ],
)
def test_one_line_files_and_empty_objects(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], before: str
) -> None:
    target = _project(tmp_path, before)
    assert _cli(capsys, index_dir, target, "install", HOOK)[0] == 0
    after = (target / SETTINGS).read_bytes().decode()
    assert "ruff format" in json.loads(after)["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    assert after.endswith("\n") == before.endswith("\n")
    newline = "\r\n" if "\r\n" in before else "\n"
    assert after.count(newline) == after.count("\n")
    if before.startswith('{"'):  # one line: the user's text is the start of the new one
        assert after.startswith(before.rstrip("\n")[: before.index('"hooks"')])
        assert "\n" not in after.rstrip("\n")
    else:  # nothing to keep: written whole, as a new file is
        assert after.replace("\r\n", "\n").startswith('{\n  "hooks": {\n    "PostToolUse": [\n      {\n')
    assert _cli(capsys, index_dir, target, "uninstall", HOOK)[0] == 0
    assert (target / SETTINGS).read_bytes() == before.encode()


def test_a_key_written_twice(index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JSON reads a key written twice as its last value. In an object the install leaves
    alone both copies stay; in one it changes the key is written once, with the value that
    was read, so the shadowed copy cannot come back into force."""
    before = (
        '{\n  "permissions": {"allow": ["A"], "allow": ["B"]},\n'
        '  "hooks": {"Stop": [], "Stop": []}\n}\n'
    )
    target = _project(tmp_path, before)
    assert _cli(capsys, index_dir, target, "install", HOOK)[0] == 0
    after = (target / SETTINGS).read_text()
    assert after.startswith('{\n  "permissions": {"allow": ["A"], "allow": ["B"]},\n  "hooks": {\n')
    assert after.count('"Stop"') == 1
    data = json.loads(after)
    assert data["permissions"] == {"allow": ["B"]} and data["hooks"]["Stop"] == []
    assert _cli(capsys, index_dir, target, "uninstall", HOOK)[0] == 0
    assert (target / SETTINGS).read_text() == before


def test_a_file_with_comments_is_refused_and_kept(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = '{\n  // mine\n  "permissions": {"allow": ["A"]}\n}\n'
    target = _project(tmp_path, before)
    code, out = _cli(capsys, index_dir, target, "install", HOOK)
    assert code == 1 and ".claude/settings.json is not valid JSON" in out and "a comment, which JSON does not allow" in out
    assert (target / SETTINGS).read_text() == before


@pytest.mark.parametrize(
    "text",
    [
        "[1, 2]",  # not an object: Claude Code reads none of it
        '{"a": 1} {"b": 2}',  # two values
        '"a"',
        "",
    ],
)
def test_what_is_not_one_object_is_not_spliced(text: str) -> None:
    assert splice(text, {"a": 1}, json_style(text)) is None


def test_spliced_text_always_reads_back_as_the_data() -> None:
    """Many small changes at every depth of the walkthrough file: each result reads back
    as the data meant, in the same key order, and keeps the text of the members not changed."""
    base = json.loads(SETTINGS_TEXT)
    changes = [
        lambda d: d["permissions"]["allow"].append("Write(x)"),
        lambda d: d["permissions"]["allow"].pop(0),
        lambda d: d["permissions"]["allow"].clear(),
        lambda d: d["permissions"].pop("allow"),
        lambda d: d["hooks"]["PostToolUse"][0]["hooks"][0].update(timeout=5),
        lambda d: d["hooks"]["PostToolUse"][0]["hooks"][0].pop("type"),
        lambda d: d["hooks"]["PostToolUse"][0].pop("matcher"),
        lambda d: d["hooks"]["PostToolUse"].insert(0, {"hooks": []}),
        lambda d: d["hooks"].pop("PostToolUse"),
        lambda d: d.pop("hooks"),
        lambda d: d.update(model="opus", hooks=1),
        lambda d: d["permissions"].update(allow={"x": [True, 1, 1.0, None, "é"]}),
    ]
    for change in changes:
        data = json.loads(SETTINGS_TEXT)
        change(data)
        out = splice(SETTINGS_TEXT, data, json_style(SETTINGS_TEXT))
        assert out is not None
        assert json.dumps(json.loads(out)) == json.dumps(data)
        if data["permissions"] == base["permissions"]:
            assert '    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"]\n' in out
        if data.get("hooks") == base["hooks"]:
            assert SETTINGS_TEXT[SETTINGS_TEXT.index('  "hooks"') :] in out
