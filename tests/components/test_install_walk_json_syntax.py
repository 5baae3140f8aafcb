"""A project's ``settings.json`` or ``.mcp.json`` that is no strict JSON is refused saying
what is wrong: a comment or a comma before a closing bracket, as VS Code's JSONC allows,
or UTF-16 text (Windows PowerShell 5's ``>``). It was "the existing .claude/settings.json
is unreadable (Expecting property name enclosed in double quotes: line 2 column 3 (char
4))", which read as a permissions problem (seen walking install into a project whose
settings held a ``// my perms`` line). Nothing is written either way."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.components.install import InstallError, install, uninstall
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HOOK = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}}
SERVER = {"mcpServers": {"pg": {"command": "npx", "args": ["-y", "pg-mcp"]}}}


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    src = tmp_path / "src" / "cat"
    write_file(src, "hooks/done.json", {"description": "Say when Claude stops.", **HOOK})
    write_file(src, "mcps/pg.json", SERVER)
    built = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    yield built
    built.close()


@pytest.mark.parametrize(("text", "said"), [
    ('{\n  // my perms\n  "model": "opus"\n}\n',
     ("is not valid JSON (line 2 column 3: Expecting property name enclosed in double quotes: a comment, "
      "which JSON does not allow; remove it)")),
    ('{"permissions": {"allow": ["Bash(ls)",]}}',
     ("is not valid JSON (line 1 column 39: Expecting value: a comma before a closing bracket, "
      "which JSON does not allow; remove it)")),
    ('{"model": "opus" /* pinned */}',
     "is not valid JSON (line 1 column 18: Expecting ',' delimiter: a comment"),
    ('{"model": opus}', "is not valid JSON (line 1 column 11: Expecting value); fix or move it first"),
])
def test_settings_that_are_no_json_say_what_is_wrong(index: Index, tmp_path: Path, text: str, said: str) -> None:
    project = tmp_path / "proj"
    settings = write_file(project, ".claude/settings.json", text)
    plan = install(index, ["done"], project)
    assert not plan.ok
    why = " ".join(f.reason or "" for c in plan.components for f in c.files)
    assert f"the existing .claude/settings.json {said}" in why, why
    assert "unreadable" not in why
    assert settings.read_text(encoding="utf-8") == text  # untouched


def test_an_mcp_json_with_a_trailing_comma_says_so(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write_file(project, ".mcp.json", '{"mcpServers": {"x": {"command": "foo"},},}\n')
    plan = install(index, ["pg"], project)
    why = " ".join(f.reason or "" for c in plan.components for f in c.files)
    assert "the existing .mcp.json is not valid JSON (line 1 column 41" in why, why
    assert "a comma before a closing bracket" in why, why


def test_a_utf16_mcp_json_is_said_to_be_utf16(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write_file(project, ".mcp.json", '{"mcpServers": {}}'.encode("utf-16"))  # with its byte order mark
    plan = install(index, ["pg"], project)
    why = " ".join(f.reason or "" for c in plan.components for f in c.files)
    assert "the existing .mcp.json is saved as UTF-16, not UTF-8; save it as UTF-8 first" in why, why


def test_uninstall_says_it_too(index: Index, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    assert install(index, ["done"], project).ok
    settings = project / ".claude/settings.json"
    settings.write_text(settings.read_text(encoding="utf-8").replace("{", "{\n  // mine\n", 1), encoding="utf-8")
    with pytest.raises(InstallError, match="is not valid JSON .*a comment, which JSON does not allow") as caught:
        uninstall(["done"], project)
    assert "nothing removed" in str(caught.value)
