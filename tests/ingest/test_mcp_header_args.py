"""A header passed to an MCP server as arguments (``npx mcp-remote URL --header
'Authorization: Bearer X'``, the common form in ``.mcp.json``) loses its credential in
the index, as ``curl -H`` does in a hook's command: the header's name and auth scheme
stay, a reference or placeholder stays whole. It was kept as written, and so was in the
index, the server's text and an install plan rebuilt from the index."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.scrub import scrubbed
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command_line
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

CRED = "abc123def456ghi789"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--header", f"Authorization: Bearer {CRED}"], ["--header", f"Authorization: Bearer {REDACTED}"]),
        (["--header", f"x-api-key: Token {CRED}"], ["--header", f"x-api-key: Token {REDACTED}"]),
        (["--header", f"X-Api-Key: {CRED}"], ["--header", f"X-Api-Key: {REDACTED}"]),
        (["--header", f"Authorization:Bearer {CRED}"], ["--header", f"Authorization:Bearer {REDACTED}"]),
        (["--header", f"Authorization: SSWS {CRED}"], ["--header", f"Authorization: SSWS {REDACTED}"]),
        ([f"--header=Authorization: Bearer {CRED}"], [f"--header=Authorization: Bearer {REDACTED}"]),
        (["-H", f"Authorization: Bearer {CRED}"], ["-H", f"Authorization: Bearer {REDACTED}"]),
        ([f"-HAuthorization: Bearer {CRED}"], [f"-HAuthorization: Bearer {REDACTED}"]),
        (["--headers", f"Authorization: Bearer {CRED}"], ["--headers", f"Authorization: Bearer {REDACTED}"]),
        (["--header", f"Cookie: theme=dark; session={CRED}"], ["--header", f"Cookie: theme=dark; session={REDACTED}"]),
        # a header argument without a flag before it (a server that reads headers so)
        ([f"Authorization: Bearer {CRED}"], [f"Authorization: Bearer {REDACTED}"]),
    ],
)
def test_a_header_argument_loses_its_credential(args: list[str], expected: list[str]) -> None:
    assert redact_args(args) == expected


@pytest.mark.parametrize(
    "args",
    [
        ["--header", "Authorization: Bearer ${API_TOKEN}"],  # how mcp-remote's README passes it
        ["--header", "Authorization:${AUTH_HEADER}"],
        ["--header", "Authorization: Bearer <your-token>"],
        ["--header", "X-Api-Key: YOUR_API_KEY"],
        ["--header", "Accept: application/json"],  # no secret's header
        ["--header", "X-Request-Source: claude"],
        ["Note: authorization is read from the environment"],  # prose, not a header
    ],
)
def test_a_header_argument_without_a_secret_stays(args: list[str]) -> None:
    assert redact_args(args) == args


def test_a_header_in_a_whole_command_line_loses_its_credential() -> None:
    line = f'npx mcp-remote https://mcp.example/sse --header "Authorization: Bearer {CRED}"'
    assert redact_command_line(line) == line.replace(CRED, REDACTED)


def test_no_field_of_a_remote_server_keeps_the_credential(tmp_path: Path) -> None:
    server = {
        "description": "Remote tools.",
        "command": "npx",
        "args": ["-y", "mcp-remote", "https://mcp.example/sse", "--header", f"Authorization: Bearer {CRED}"],
        "env": {"AUTH_HEADER": f"Bearer {CRED}"},
    }
    remote = {"type": "http", "url": f"https://mcp.example/mcp?token={CRED}", "headers": {"Authorization": f"Bearer {CRED}"}}
    source = tmp_path / "repo" / "mcps" / "remote.json"
    source.parent.mkdir(parents=True)
    source.write_text(json.dumps({"mcpServers": {"bridge": server, "direct": remote}}), encoding="utf-8")
    result = ingest_skill_repo(tmp_path / "repo")
    assert result.problems == []
    bridge, direct = sorted(result.nodes, key=lambda n: n.name)
    assert bridge.attrs["args"][-1] == f"Authorization: Bearer {REDACTED}"
    assert direct.attrs["header_keys"] == ["Authorization"]
    for node in (bridge, direct):
        assert CRED not in json.dumps(node.to_dict())
        assert scrubbed(node) is None  # ``repair`` finds nothing more to take out

    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(32), create=True)
    try:
        run = index_sources(index, [tmp_path / "repo"], "skills", calibrate=False)
        assert [p for s in run.sources for p in s.problems] == []
        source.unlink()  # rebuilt from the index: what it kept is all there is
        plan = install(index, sorted(index.snapshot().nodes), tmp_path / "project")
    finally:
        index.close()
    written = (tmp_path / "project" / ".mcp.json").read_text(encoding="utf-8")
    assert CRED not in written and CRED not in json.dumps([c.reason for c in plan.components])
    entry = json.loads(written)["mcpServers"]["bridge"]
    assert entry["args"][-1] == f"Authorization: Bearer {REDACTED}"
    assert any("redacted in the index: set it in .mcp.json" in c.reason for c in plan.components)


def test_an_old_index_that_kept_the_header_is_repaired(tmp_path: Path) -> None:
    server = {"command": "npx", "args": ["mcp-remote", "https://mcp.example/sse", "--header", "Authorization: Bearer x"]}
    source = tmp_path / "mcps" / "remote.json"
    source.parent.mkdir(parents=True)
    source.write_text(json.dumps({"mcpServers": {"bridge": server}}), encoding="utf-8")
    (node,) = ingest_skill_repo(tmp_path).nodes
    old = node.attrs | {"args": [*node.attrs["args"][:-1], f"Authorization: Bearer {CRED}"]}
    fixed = scrubbed(replace(node, attrs=old))
    assert fixed is not None and fixed.attrs["args"][-1] == f"Authorization: Bearer {REDACTED}"


def test_an_exec_form_hook_loses_a_header_argument_credential(tmp_path: Path) -> None:
    (tmp_path / "hooks").mkdir()
    hook = {"type": "command", "command": "curl", "args": ["-H", f"Authorization: Bearer {CRED}", "https://x.example"]}
    doc = {"description": "notify", "hooks": {"Stop": [{"hooks": [hook]}]}}
    (tmp_path / "hooks/notify.json").write_text(json.dumps(doc), encoding="utf-8")
    (node,) = [n for n in ingest_skill_repo(tmp_path).nodes if n.kind is NodeKind.HOOK]
    assert CRED not in json.dumps(node.to_dict())
    assert node.attrs["hooks"]["Stop"][0]["hooks"][0]["args"][1] == f"Authorization: Bearer {REDACTED}"
