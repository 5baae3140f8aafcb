"""A SKILL.md, an agent, a command or any Markdown component carries no secret into the
index: its name, description, text, tags and frontmatter values are redacted at ingest
(`redact_fields`), as documents are; a component without secrets is stored exactly as
written (no re-embedding); ``repair`` takes such secrets out of an index built before,
item for item as ingest writes them now; and install still writes the file from disk,
secret and all, since that is what its author wrote."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file
from repair_checks import repaired

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.ingest import skill_records as rec
from skill_retriever.ingest.frontmatter import parse_frontmatter
from skill_retriever.ingest.redact_fields import redact_frontmatter, redacted_item
from skill_retriever.ingest.scrub import scrubbed
from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

TOKEN = "ghp_" + "a1" * 18  # a GitHub token's shape, as tests/ingest/test_documents.py uses
PASSWORD = "hunter2pw"
DB_URL = f"https://deploy:{PASSWORD}@db.internal/app"
SKILL = f"""---
name: deploy-helper
description: Deploy with {TOKEN} as the CI token.
tags: [deploy, {TOKEN}]
api_key: sk-live-0123456789abcdef
token_env: $DEPLOY_TOKEN
author: Jane Roe
keywords: "deploy, release"
hooks:
  PostToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: 'curl -s -H "Authorization: Bearer abc123secret" https://hooks.example.com/x'
metadata:
  mirror: {DB_URL}
  notes: [plain words, "see {TOKEN}"]
---
# Deploy helper

Run `gh auth login --with-token {TOKEN}` once, then push to {DB_URL}.
"""
AGENT = f"""---
name: db-agent
description: Reads {DB_URL} for you.
model: sonnet
---
The agent connects with {TOKEN}.
"""
COMMAND = f"""---
description: Release with token {TOKEN}
argument-hint: "[version]"
---
Tag the release and call {DB_URL}?api_token=plainsecret1 to announce it.
"""
CLEAN = """---
name: clean-skill
description: 'Format Python files: run ruff, then "black" if asked.'
tags: [python, format]
author: John Doe
allowed-tools: Bash(ruff:*)
metadata:
  links: ["https://docs.astral.sh/ruff/", "https://example.com/a?page=2"]
---
# Clean

Run `ruff format` over the tree; see https://docs.astral.sh/ruff/ and $RUFF_CONFIG.
"""
FILES = {
    "skills/deploy-helper/SKILL.md": SKILL,
    "agents/db-agent.md": AGENT,
    "commands/release.md": COMMAND,
    "skills/clean-skill/SKILL.md": CLEAN,
}
SECRETS = (TOKEN, PASSWORD, "sk-live-0123456789abcdef", "abc123secret", "plainsecret1")
DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "skills" / "davila7__claude-code-templates"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "kit"
    for rel, text in FILES.items():
        write_file(root, rel, text)
    return root


def _by_path(root: Path) -> dict[str, Node]:
    result = ingest_skill_repo(root)
    assert not result.problems, result.problems
    return {n.attrs["path"]: n for n in result.nodes}


def _unredacted(root: Path, node: Node) -> Node:
    """``node`` as ingest wrote it before redaction: the fields of its file's record."""
    rel = node.attrs["path"]
    default = Path(rel).parent.name if node.kind is NodeKind.SKILL else Path(rel).stem
    record = rec.markdown_record((root / rel).read_text(encoding="utf-8"), rel, node.kind, default)
    assert record is not None
    attrs = {**node.attrs, "frontmatter": record.attrs["frontmatter"]}
    return node.with_changes(
        name=record.name, description=record.description, text=record.text, tags=record.tags, attrs=attrs
    )


def test_a_skill_agent_and_command_carry_no_secret(repo: Path) -> None:
    nodes = _by_path(repo)
    for rel in ("skills/deploy-helper/SKILL.md", "agents/db-agent.md", "commands/release.md"):
        stored = json.dumps(nodes[rel].to_dict())
        assert not [s for s in SECRETS if s in stored], (rel, stored)
    skill = nodes["skills/deploy-helper/SKILL.md"]
    assert skill.kind is NodeKind.SKILL
    assert skill.description == f"Deploy with {REDACTED} as the CI token."
    assert skill.tags == ("deploy", REDACTED)
    assert f"--with-token {REDACTED}` once, then push to https://{REDACTED}@db.internal/app." in skill.text
    front = skill.attrs["frontmatter"]
    assert front["api_key"] == REDACTED
    assert front["token_env"] == "$DEPLOY_TOKEN"  # a reference names where the secret is
    assert front["author"] == "Jane Roe" and front["keywords"] == "deploy, release"  # no secret
    command = front["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    assert command == f'curl -s -H "Authorization: Bearer {REDACTED}" https://hooks.example.com/x'
    assert front["metadata"] == {"mirror": f"https://{REDACTED}@db.internal/app",
                                 "notes": ["plain words", f"see {REDACTED}"]}
    agent, cmd = nodes["agents/db-agent.md"], nodes["commands/release.md"]
    assert agent.kind is NodeKind.AGENT and cmd.kind is NodeKind.COMMAND
    assert agent.description == f"Reads https://{REDACTED}@db.internal/app for you."
    assert agent.text == f"The agent connects with {REDACTED}."
    assert cmd.description == f"Release with token {REDACTED}"
    assert f"?api_token={REDACTED} to announce" in cmd.text
    # what the installer and the graph read is kept exact
    assert cmd.attrs["command_stem"] == "release" and cmd.attrs["path"] == "commands/release.md"
    assert skill.attrs["files"] == [] and skill.attrs["source_root"] == str(repo.resolve())


def test_a_component_without_secrets_is_stored_as_written(repo: Path) -> None:
    node = _by_path(repo)["skills/clean-skill/SKILL.md"]
    fm = parse_frontmatter(CLEAN)
    assert node.text == fm.body.strip()
    assert node.description == fm.fields["description"] and node.name == "clean-skill"
    assert node.attrs["frontmatter"] == rec.jsonable({k: v for k, v in fm.fields.items()
                                                      if k not in ("name", "description")})
    assert node == _unredacted(repo, node)  # exactly what ingest wrote before redaction came
    assert redacted_item(node) is node and scrubbed(node) is None


def test_a_markdown_hook_and_other_file_carry_no_secret(tmp_path: Path) -> None:
    """The other kinds a Markdown file is read as: a hook's notes below ``hooks/`` and an
    OTHER file (frontmatter name and description anywhere else)."""
    root = tmp_path / "kit"
    write_file(root, "hooks/notify.md", f"---\nname: notify\ndescription: Posts with {TOKEN}\n---\nSee {DB_URL}\n")
    write_file(root, "guides/setup.md", f"---\nname: setup\ndescription: Set up\n---\nExport {TOKEN} first.\n")
    nodes = _by_path(root)
    hook, other = nodes["hooks/notify.md"], nodes["guides/setup.md"]
    assert (hook.kind, other.kind) == (NodeKind.HOOK, NodeKind.OTHER)
    assert hook.description == f"Posts with {REDACTED}" and hook.text == f"See https://{REDACTED}@db.internal/app"
    assert other.text == f"Export {REDACTED} first."
    assert scrubbed(hook) is None and scrubbed(_unredacted(root, hook)) == hook


def test_frontmatter_rules() -> None:
    front = {
        "api-key": "Bearer live-value-1", "password": "<your-password>", "secret": 42,
        "co-authors": ["A", "B"], "skill-author": "K-Dense Inc.",
        "mcpServers": {"db": {"command": "db-mcp --token abc", "args": ["--api-key", "xyz"],
                              "env": {"DB_PASSWORD": "pw1", "DB_HOST": "localhost"}}},
    }
    assert redact_frontmatter(front) == {
        "api-key": f"Bearer {REDACTED}", "password": "<your-password>", "secret": 42,
        "co-authors": ["A", "B"], "skill-author": "K-Dense Inc.",
        "mcpServers": {"db": {"command": f"db-mcp --token {REDACTED}", "args": ["--api-key", REDACTED],
                              "env": {"DB_PASSWORD": REDACTED, "DB_HOST": "localhost"}}},
    }


@pytest.mark.parametrize(("front", "kept"), [
    # a setting's number or path under a name a secret word only qualifies: as a command's
    ({"max_tokens": "4096", "token_limit": "100", "token_file": "/run/secrets/t"}, True),
    ({"max_tokens": 4096}, True),  # not text: as it was
    # under a secret's own name any value goes, a number too (a PIN)
    ({"api_key": "4096"}, False),
    ({"password": "/run/secrets/t"}, False),
    ({"DB_PASSWORD_PROD": "4096"}, False),  # a password's name: a number may be one
    ({"token_file": "Xk9mQ2pL7vR4zT"}, False),  # a setting's name, but no path: a literal secret
])
def test_a_settings_number_or_path_in_frontmatter_stays(front: dict[str, object], kept: bool) -> None:
    got = redact_frontmatter(front)
    assert (got == front) is kept, got
    if not kept:
        assert all(v == REDACTED for v in got.values()), got


def test_repair_takes_the_secrets_out_of_an_older_index(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    now = _by_path(repo)
    old = {rel: _unredacted(repo, node) for rel, node in now.items()}
    assert TOKEN in json.dumps(old["skills/deploy-helper/SKILL.md"].to_dict())
    index_dir = tmp_path / "index"
    with Index.open(index_dir, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(list(old.values()))
    held = repaired(index_dir, capsys, "redacted the secrets of 3 skill, agent or command item(s)", (TOKEN, PASSWORD))
    assert not [s for s in SECRETS if s in json.dumps([n.to_dict() for n in held.values()])]
    # scrubbed, an old item is what ingest writes now, so re-indexing embeds nothing again
    assert {n.attrs["path"]: n.to_dict() for n in held.values()} == {r: n.to_dict() for r, n in now.items()}


@pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data/skills")
def test_a_real_catalogue_as_indexed_now_holds_nothing_to_scrub() -> None:
    """Skills, agents and commands of a real catalogue, some quoting credentials in
    examples (``postgresql://user:pass@...``), as ingest writes them today: repair
    rewrites (and re-embeds) none of them."""
    from skill_retriever.ingest.skills import ingest_skill_repos

    components = DATA / "cli-tool" / "components"
    result = ingest_skill_repos([components / "skills", components / "agents", components / "commands"])
    assert len(result.nodes) > 500
    assert any(REDACTED in n.text for n in result.nodes)
    assert [n.id for n in result.nodes if scrubbed(n) is not None] == []


@pytest.fixture
def index(tmp_path: Path, repo: Path) -> Iterator[Index]:
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(idx, [repo], "skills", calibrate=False)
    assert not [p for s in run.sources for p in s.problems]
    yield idx
    idx.close()


def test_install_writes_the_files_from_disk_secrets_and_all(index: Index, repo: Path, tmp_path: Path) -> None:
    stored = json.dumps([n.to_dict() for n in index.snapshot().nodes.values()])
    assert TOKEN not in stored and PASSWORD not in stored
    project = tmp_path / "project"
    plan = install(index, sorted(index.snapshot().nodes), project)
    assert plan.ok, plan
    claude = project / ".claude"
    assert (claude / "skills/deploy-helper/SKILL.md").read_bytes() == SKILL.encode()
    assert (claude / "agents/db-agent.md").read_bytes() == AGENT.encode()
    assert (claude / "commands/release.md").read_bytes() == COMMAND.encode()


def test_a_skill_whose_file_is_gone_is_rebuilt_without_the_secret(
    index: Index, repo: Path, tmp_path: Path
) -> None:
    (repo / "skills/deploy-helper/SKILL.md").unlink()
    project = tmp_path / "project"
    plan = install(index, ["kit/skills/deploy-helper/SKILL.md"], project)
    (component,) = plan.components
    assert component.status == "install" and "rebuilt from the index" in component.reason
    assert f"it says {REDACTED} where the source file held a secret" in component.reason  # what to fill in
    written = (project / ".claude/skills/deploy-helper/SKILL.md").read_text(encoding="utf-8")
    assert REDACTED in written and TOKEN not in written and "abc123secret" not in written
