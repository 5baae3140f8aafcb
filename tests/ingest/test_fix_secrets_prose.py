"""Markdown prose (documents, skills, agents, commands) keeps none of the secrets a
runbook quotes: PEM private keys, JWTs, Google API keys, ``Bearer`` credentials, an AWS
secret next to its key id, and the values of ``export DB_PASSWORD=...``,
``aws_secret_access_key = ...`` and ``"password": "..."``; what only shows where a secret
goes, and code that fetches one, stay as written. ``repair`` redacts an index built before
these rules (documents included) item for item as ingest writes them now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from files import write_file
from repair_checks import repaired, stored_bytes

from skill_retriever.cli import main
from skill_retriever.ingest import documents
from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.scrub import scrubbed
from skill_retriever.ingest.secrets import REDACTED, redact_command, redact_text
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

R = REDACTED
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
PEM_BODY = "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi6RTTB2s3E8kCz6lA8qNXmRkHC"
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n{PEM_BODY[::-1]}\n-----END RSA PRIVATE KEY-----"
GOOGLE = "AIzaSyD4x9Qk2Lm7Vn3Pq8Rs1Tu6Wx0Yz5Ab-Cd"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcHMifQ.dGhpc2lzYXNpZ25hdHVyZQ"
BEARER = "abcdef0123456789abcdef0123"
RUNBOOK = f"""# Restore credentials

Set the keys before the restore:

```bash
export AWS_SECRET_ACCESS_KEY={AWS_SECRET}
export DB_PASSWORD=hunter2hunter2
curl -H "Authorization: Bearer {BEARER}" https://api.example.com/v1/jobs
```

In `~/.aws/credentials`:

```ini
[default]
aws_access_key_id = AKIAIOSFODNN7EXAMPLE
aws_secret_access_key = {AWS_SECRET}
```

Fetch with key AKIAIOSFODNN7EXAMPLE and secret {AWS_SECRET}.

The deploy key:

```
{PEM}
```

Maps key {GOOGLE} and session {JWT} for the bot.

Keep `export API_KEY=$API_KEY`, `TOKEN=<your-token>`, `PASSWORD=changeme` and `password = getpass()`.
"""
SECRETS = (AWS_SECRET, "hunter2hunter2", BEARER, PEM_BODY, GOOGLE, JWT, "AKIAIOSFODNN7EXAMPLE")
KEPT = "Keep `export API_KEY=$API_KEY`, `TOKEN=<your-token>`, `PASSWORD=changeme` and `password = getpass()`."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}", f"export AWS_SECRET_ACCESS_KEY={R}"),
        (f"aws_secret_access_key = {AWS_SECRET}", f"aws_secret_access_key = {R}"),
        ("export DB_PASSWORD=hunter2hunter2", f"export DB_PASSWORD={R}"),
        ("set TOKEN=abc123def456.", f"set TOKEN={R}."),  # the full stop is the sentence's
        ('"password": "s3cretpassw0rd",', f'"password": "{R}",'),
        ("**Password**: Tr0ub4dor&3x", f"**Password**: {R}"),
        ("apiKey: 'k3y-0123456789'", f"apiKey: '{R}'"),
        ("PGPASSWORD=pa55word99 psql", f"PGPASSWORD={R} psql"),
        (f"Authorization: Bearer {BEARER}", f"Authorization: Bearer {R}"),
        ("Authorization: Basic dXNlcjpwYXNz", f"Authorization: Basic {R}"),
        (f"send `Bearer {BEARER}` along", f"send `Bearer {R}` along"),
        (f"a\n{PEM}\nb", f"a\n{R}\nb"),
        (f"key {GOOGLE}.", f"key {R}."),
        (f"session {JWT} here", f"session {R} here"),
        (f"using key AKIAIOSFODNN7EXAMPLE and secret {AWS_SECRET}.", f"using key {R} and secret {R}."),
        # an unclosed block (a fence ends it) loses its key lines, not the text after
        (f"```\n-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}\n```\nAfter.", f"```\n{R}\n```\nAfter."),
        (f"-----BEGIN EC PRIVATE KEY-----\n{PEM_BODY}\n\nNext paragraph.", f"{R}\n\nNext paragraph."),
    ],
)
def test_prose_secrets_go(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected  # a second pass finds nothing more


@pytest.mark.parametrize(
    "text",
    [
        "the password = the user's choice",
        "password = getpass()",
        "token = os.environ['API_TOKEN']",
        "api_key = settings.API_KEY_V2",
        "export DB_PASSWORD=$DB_PASSWORD and API_KEY=${API_KEY}",
        "API_KEY=<your-key> TOKEN=YOUR_TOKEN TOKEN=xxx PASSWORD=changeme TOKEN=...",
        "export OPENROUTER_API_KEY='sk-or-v1-your-key-here'",
        "max_tokens: 4096, TOKEN_URL=https://auth.example.com/t1",
        "Bearer authentication uses `Authorization: Bearer <token>` or Bearer ACCESS_TOKEN.",
        "Authorization: required for every call",
        '"key": "Access-Control-Allow-Origin", "citation_key": "Smith2023"',
        'fileKey="kL9xQn2VwM8pYrTb4ZcHjF", key: job1-cache, public_key: ssh-ed25519AAAAC3',
        'private_key: /etc/ssl/private/key1.pem, Figma Token: "Desktop/Title/H1"',
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN CERTIFICATE-----\n" + PEM_BODY + "\n-----END CERTIFICATE-----",
        "commit 3f9a8b2c1d0e4f5a6b7c8d9e0f1a2b3c4d5e6f7a is the secret fix",  # a git hash
    ],
)
def test_what_only_shows_where_a_secret_goes_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_known_formats_go_from_hook_prompts_and_commands_too() -> None:
    """PEM keys, JWTs and Google keys are secrets wherever they stand: a hook's URL
    (`redact_text`) and command (`redact_command`) lose them as prose does."""
    assert redact_text(f"Call with {JWT} or {GOOGLE}.") == f"Call with {R} or {R}."
    assert redact_command(f"curl -H 'X-Session: {JWT}' https://x.io") == f"curl -H 'X-Session: {R}' https://x.io"
    assert redact_command(f"echo '{PEM}' > k.pem") == f"echo '{R}' > k.pem"
    # redact_text is the format rules only; a hook's prompt and description get the prose
    # rules too (redact_prose: tests/ingest/test_s44_secrets_prose_fields.py)
    assert redact_text("export DB_PASSWORD=hunter2hunter2") == "export DB_PASSWORD=hunter2hunter2"


def test_a_runbook_folder_keeps_no_secret_in_the_index_or_in_query_snippets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, index_dir = tmp_path / "runbooks", tmp_path / "index"
    write_file(root, "restore.md", RUNBOOK)
    args = ["--index-dir", str(index_dir)]
    assert main(["index", str(root), "--kind", "docs", *args, "--embedder", "hashing-64"]) == 0
    assert main(["query", "restore credentials deploy key session", *args, "--json"]) == 0
    out = capsys.readouterr().out
    raw = stored_bytes(index_dir)
    assert [s for s in SECRETS if s.encode() in raw or s in out] == []
    with Index.open(index_dir) as index:
        (node,) = index.snapshot().nodes.values()
    assert f"export DB_PASSWORD={R}\n" in node.text and f"aws_secret_access_key = {R}\n" in node.text
    assert f"```\n{R}\n```" in node.text and f"Maps key {R} and session {R} for the bot." in node.text
    assert KEPT in node.text  # references, placeholders and code as written


def test_skills_agents_and_commands_redact_as_documents_do(tmp_path: Path) -> None:
    root = tmp_path / "kit"
    write_file(root, "skills/restore/SKILL.md", f"---\nname: restore\ndescription: Uses {JWT}.\n"
                                                "notes: export DB_PASSWORD=hunter2hunter2\n---\n" + RUNBOOK)
    write_file(root, "agents/ops.md", f"---\nname: ops\ndescription: Ops agent.\n---\nSend Bearer {BEARER}.\n")
    result = ingest_skill_repo(root)
    assert result.problems == []
    stored = json.dumps([n.to_dict() for n in result.nodes])
    assert [s for s in SECRETS if s in stored] == []
    skill = next(n for n in result.nodes if n.name == "restore")
    assert skill.description == f"Uses {R}." and KEPT in skill.text
    assert skill.attrs["frontmatter"]["notes"] == f"export DB_PASSWORD={R}"


def test_repair_redacts_documents_an_older_index_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "runbooks"
    write_file(root, "restore.md", RUNBOOK)
    write_file(root, "plain.md", "# Plain\n\nNothing secret; set TOKEN=$TOKEN first.\n")
    # long enough to be split: the key sits in a section of its own
    para = "Words here. " * 80 + "\n\n"
    write_file(root, "handbook.md", f"# Handbook\n\n## Intro\n\n{para * 30}## Keys\n\n{PEM}\n\n{para * 15}"
                                    f"## Outro\n\n{para * 30}")
    now = {n.id: n for n in ingest_documents(root).nodes}
    assert "runbooks/handbook.md#keys" in now
    with monkeypatch.context() as m:  # as an index built before these rules holds them
        m.setattr(documents, "redacted_item", lambda node: node)
        old = ingest_documents(root).nodes
    assert {n.id for n in old if scrubbed(n) is not None} == {"runbooks/restore.md", "runbooks/handbook.md#keys"}
    index_dir = tmp_path / "index"
    with Index.open(index_dir, embedder=HashingEmbedder(), create=True) as index:
        index.upsert(old)
    held = repaired(index_dir, capsys, "redacted the secrets of 2 document item(s)", SECRETS)
    # repaired, an old item is what ingest writes now: re-indexing rewrites nothing
    assert {i: n.to_dict() for i, n in held.items()} == {i: n.to_dict() for i, n in now.items()}


N = 200_000


@pytest.mark.parametrize(
    "text",
    [
        "-----BEGIN RSA PRIVATE KEY-----" * (N // 31),
        "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * N,
        "eyJ" * (N // 3),
        "eyJaaaaaaaaaaaa." * (N // 16),
        "AIza" * (N // 4),
        "api_key: " * (N // 9),
        "bearer" + " " * N,
        "secret " + "Ab1/" * (N // 4),
        "a." * (N // 2) + "=x",
        "api_key=" + "H1/" * (N // 3) + "X!",
        'password="' + "a" * N,
    ],
)
def test_crafted_long_lines_finish(text: str) -> None:
    """No prose pattern rescans a long run from each position (that would not finish)."""
    assert isinstance(redact_prose(text), str)
