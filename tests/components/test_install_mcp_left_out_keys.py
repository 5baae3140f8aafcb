"""An MCP server's source entry holding keys Claude Code does not read (Cline's
``autoApprove``, ``transportType``, a ``timeout`` in seconds) is installed without them,
and the install says so per server: a note line, ``left_out_of_mcp_json`` in its data
(CLI ``--json``, the MCP ``install_components`` plan). Keys Claude Code reads
(``headersHelper``, ``oauth``) are kept; catalogue metadata (``description``) goes unsaid.

Before, every key outside ``type/command/args/env/url/headers`` was dropped with nothing
said, ``headersHelper`` and ``oauth`` among them (seen: davila7's imagesorcery server,
../shared/data/skills/davila7__claude-code-templates, cli-tool/components/mcps/devtools).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from mcp_in_process import tool_answers

from skill_retriever.cli import main

#: As davila7's imagesorcery.json holds it (its tool list cut short).
IMAGESORCERY = {
    "description": "An MCP server providing tools for image processing operations",
    "command": "imagesorcery-mcp",
    "transportType": "stdio",
    "autoApprove": ["blur", "crop"],
    "timeout": 100,
}
REMOTE = {
    "type": "http",
    "url": "https://mcp.example.org/mcp",
    "headersHelper": "./bin/token-headers.sh",
    "oauth": {"clientId": "cli-123", "callbackPort": 8765},
    "disabled": False,
}
NOTE = "left out of .mcp.json: autoApprove, timeout, transportType (Claude Code's .mcp.json documents none of them)"


@pytest.fixture
def ix(tmp_path: Path) -> Path:
    for name, entry in (("imagesorcery-mcp", IMAGESORCERY), ("remote-api", REMOTE)):
        path = tmp_path / "repo" / "mcps" / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"mcpServers": {name: entry}}), encoding="utf-8")
    out = tmp_path / "ix"
    assert main(["index", str(tmp_path / "repo"), "--index-dir", str(out), "--embedder", "hashing-64"]) == 0
    return out


def test_the_cli_says_which_keys_it_left_out(ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proj = tmp_path / "proj"
    code, out, err = run(capsys, "install", "imagesorcery-mcp", "remote-api", "--target", proj, "--index-dir", ix)
    assert code == 0, out + err
    assert sum(NOTE in line for line in out.splitlines()) == 1, out
    assert "left out of .mcp.json: disabled (Claude Code's .mcp.json documents none of them)" in out, out
    assert "description" not in out, out
    servers = json.loads((proj / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]
    assert servers["imagesorcery-mcp"] == {"command": "imagesorcery-mcp"}
    assert servers["remote-api"] == {k: v for k, v in REMOTE.items() if k != "disabled"}


def test_json_and_the_mcp_plan_name_them(ix: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proj = tmp_path / "proj"
    code, out, _ = run(capsys, "install", "imagesorcery-mcp", "--target", proj, "--index-dir", ix, "--json", "--dry-run")
    assert code == 0, out
    (comp,) = json.loads(out)["components"]
    assert comp["left_out_of_mcp_json"] == ["autoApprove", "timeout", "transportType"]
    assert NOTE in comp["reason"] and comp["files"] == [{"path": ".mcp.json#imagesorcery-mcp", "action": "create"}]
    args = {"ids": ["imagesorcery-mcp"], "target": str(proj)}
    got = tool_answers(ix, ["*"], {"brief": ("install_components", args),
                                   "full": ("install_components", args | {"detail": "full"})})
    assert any(NOTE in line for line in got["brief"]["summary"]), got["brief"]
    assert got["full"]["components"][0]["left_out_of_mcp_json"] == ["autoApprove", "timeout", "transportType"]
