"""An uninstall of what the install found in place says so. A project that already held
an agent, a hook and a server as the catalogue has them gets ``unchanged`` from install,
which writes none of them; ``uninstall`` of them then printed its ``target:`` line alone,
exit 0, the files still there, as if it had skipped what it was asked (seen walking
install and uninstall over a project holding wshobson's python-pro.md already)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

AGENT = "---\nname: pyhelp\ndescription: Help with Python.\n---\n\nHelp with Python code.\n"
HOOK = {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "echo done"}]}]}
SERVER = {"command": "npx", "args": ["-y", "pg-mcp"]}


def test_an_uninstall_of_what_was_there_already_says_it_takes_nothing_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src" / "cat"
    write_file(src, "agents/pyhelp.md", AGENT)
    write_file(src, "hooks/done.json", {"description": "Say when Claude stops.", "hooks": HOOK})
    write_file(src, "mcps/pg.json", {"mcpServers": {"pg": SERVER}})
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [src], "skills")
    index.close()
    project = tmp_path / "proj"
    agent = write_file(project, ".claude/agents/pyhelp.md", AGENT)
    settings = write_file(project, ".claude/settings.json", json.dumps({"hooks": HOOK}, indent=2))
    servers = write_file(project, ".mcp.json", json.dumps({"mcpServers": {"pg": SERVER}}, indent=2))
    before = {p: p.read_text(encoding="utf-8") for p in (agent, settings, servers)}
    code, out, err = run(capsys, "install", "pyhelp", "done", "pg", "--target", project,
                         "--index-dir", tmp_path / "index")
    assert code == 0 and out.count(": unchanged") == 3, out + err
    code, out, err = run(capsys, "uninstall", "pyhelp", "done", "pg", "--target", project)
    assert code == 0, out + err
    for what in ("agent pyhelp", "hook done", "mcp server pg"):
        assert (f"note: {what}: the install wrote nothing of it (it was there already), so there is "
                "nothing to take back; it stays as it is") in out, out
    assert {p: p.read_text(encoding="utf-8") for p in before} == before
