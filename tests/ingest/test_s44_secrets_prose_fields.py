"""The prose rules (`redact_prose`) apply wherever the index keeps prose: a hook's
description, a ``prompt`` / ``agent`` hook's prompt and an MCP server's description lose
``export DB_PASSWORD=...`` values, ``Bearer`` credentials, AWS secret lines and PEM blocks
as a skill's text does; Markdown table cells and quoted values with spaces lose theirs
too. A prompt or description without secrets is stored byte for byte, references and
placeholders stay, and ``repair`` brings an index built before these rules to what
ingest writes now."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from files import write_file
from repair_checks import repaired, stored_bytes

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources
from skill_retriever.ingest import hook_configs, skill_configs
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.scrub import scrubbed
from skill_retriever.ingest.secrets import REDACTED, redact_text
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.ingest.table_secrets import redact_tables
from skill_retriever.model import Node
from skill_retriever.stores.index import Index

R = REDACTED
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
PEM_BODY = "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi6RTTB2s3E8kCz6lA8qNXmRkHC"
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n{PEM_BODY[::-1]}\n-----END RSA PRIVATE KEY-----"
BEARER = "abcdef0123456789abcdef0123"
#: A hook's or server's prose quoting every kind of secret the prose rules take out.
SECRET_PROSE = (
    "Before the run: export DB_PASSWORD=hunter2\n"
    f"Send `Authorization: Bearer {BEARER}` and aws_secret_access_key = {AWS_SECRET}\n"
    f'Unlock with PASSPHRASE="correct horse battery staple".\n{PEM}\nThen report.'
)
SECRETS = ("hunter2", BEARER, AWS_SECRET, "correct horse battery staple", PEM_BODY)
#: What only shows where a secret goes: kept as written.
KEPT = "Keep ${API_KEY}, $DB_PASSWORD, TOKEN=<your-key> and password = getpass()."
CLEAN_PROMPT = "Check the diff: does any line set password: str or call token = get_token()?"


def leaked(value: Any) -> list[str]:
    dump = json.dumps(value, ensure_ascii=False)
    return [s for s in SECRETS if s in dump]


def write_components(root: Path) -> None:
    """A settings-fragment hook (a prompt hook and an agent hook), a flat hook and an
    MCP config, their prose holding `SECRET_PROSE` and `KEPT`."""
    prompt_hooks = [
        {"type": "prompt", "prompt": f"{SECRET_PROSE}\n{KEPT}"},
        {"type": "agent", "prompt": f"Use Bearer {BEARER} to call the API."},
        {"type": "prompt", "prompt": CLEAN_PROMPT},
    ]
    fragment = {"description": f"Review gate.\n{SECRET_PROSE}", "hooks": {"Stop": [{"hooks": prompt_hooks}]}}
    write_file(root, "hooks/review.json", json.dumps(fragment))
    flat = {"description": f"{KEPT} {SECRET_PROSE}", "event": "Stop", "command": "./ping.sh"}
    write_file(root, "hooks/ping.json", json.dumps(flat))
    server = {"description": f"Query the shop database.\n{SECRET_PROSE}\n{KEPT}", "command": "db-mcp"}
    write_file(root, "mcps/db.json", json.dumps({"mcpServers": {"db": server}}))


def nodes_by_name(root: Path) -> dict[str, Node]:
    result = ingest_skill_repo(root)
    assert result.problems == []
    return {n.name: n for n in result.nodes}


def test_hook_descriptions_and_prompts_lose_prose_secrets(tmp_path: Path) -> None:
    write_components(tmp_path / "kit")
    nodes = nodes_by_name(tmp_path / "kit")
    review, ping = nodes["review"], nodes["ping"]
    assert leaked([review.to_dict(), ping.to_dict()]) == []
    prompt, agent, clean = review.attrs["hooks"]["Stop"][0]["hooks"]
    assert prompt["prompt"] == (
        f"Before the run: export DB_PASSWORD={R}\nSend `Authorization: Bearer {R}` and "
        f'aws_secret_access_key = {R}\nUnlock with PASSPHRASE="{R}".\n{R}\nThen report.\n{KEPT}'
    )
    assert agent["prompt"] == f"Use Bearer {R} to call the API."
    assert clean["prompt"] == CLEAN_PROMPT  # no secret: byte for byte
    assert review.description.startswith(f"Review gate.\nBefore the run: export DB_PASSWORD={R}\n")
    assert f"asks a model: {CLEAN_PROMPT}" in review.text
    assert ping.description.startswith(KEPT)


def test_an_mcp_server_description_loses_prose_secrets(tmp_path: Path) -> None:
    write_components(tmp_path / "kit")
    db = nodes_by_name(tmp_path / "kit")["db"]
    assert leaked(db.to_dict()) == []
    assert db.description == (
        f"Query the shop database.\nBefore the run: export DB_PASSWORD={R}\nSend `Authorization: "
        f'Bearer {R}` and aws_secret_access_key = {R}\nUnlock with PASSPHRASE="{R}".\n{R}\n'
        f"Then report.\n{KEPT}"
    )
    assert db.text.startswith(db.description) and db.text.endswith("Command: db-mcp")


def test_an_index_and_its_searches_hold_none_of_them(tmp_path: Path, index_dir: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    write_components(tmp_path / "kit")
    with Index.open(index_dir) as index:
        run = index_sources(index, [tmp_path / "kit"], "skills", calibrate=False)
        assert [p for s in run.sources for p in s.problems] == []
    args = ["--index-dir", str(index_dir), "--json"]
    assert main(["query", "review gate database run report passphrase", *args]) == 0
    out = capsys.readouterr().out
    raw = stored_bytes(index_dir)
    assert [s for s in SECRETS if s.encode() in raw or s in out] == []
    assert "Review gate" in out


def test_repair_applies_the_prose_rules_to_hooks_and_mcp_servers(
    tmp_path: Path, index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "kit"
    write_components(root)
    now = {n.id: n for n in ingest_skill_repo(root).nodes}
    with monkeypatch.context() as m:  # as an index built when these fields had redact_text only
        m.setattr(hook_configs, "redact_prose", redact_text)
        m.setattr(skill_configs, "redact_prose", redact_text)
        old = ingest_skill_repo(root).nodes
    assert leaked([n.to_dict() for n in old]) != []  # the old rules kept them
    assert {n.name for n in old if scrubbed(n) is not None} == {"review", "ping", "db"}
    assert [n.id for n in now.values() if scrubbed(n) is not None] == []  # ingest now: nothing to do
    with Index.open(index_dir) as index:
        index.upsert(old)
    held = repaired(index_dir, capsys, "redacted the secrets of 3 hook or MCP server item(s)", SECRETS)
    # repaired is what ingest writes now
    assert {i: n.to_dict() for i, n in held.items()} == {i: n.to_dict() for i, n in now.items()}


def test_repair_takes_a_pem_block_out_of_an_mcp_text_of_another_shape() -> None:
    """An MCP server's text that starts with its description loses a key spanning lines
    there, even when the rest does not read as ingest writes it."""
    description = f"Signs requests.\n{PEM}"
    node = Node(id="old/.mcp.json#s", kind="mcp_server", name="s", description=description,
                text=f"{description}\nCommand: signer --verbose\nNote: DB_PASSWORD=hunter2xyz9",
                attrs={"command": "signer", "args": ["--quiet"], "url": None})
    clean = scrubbed(node)
    assert clean is not None
    assert clean.description == f"Signs requests.\n{R}"
    assert clean.text == f"Signs requests.\n{R}\nCommand: signer --verbose\nNote: DB_PASSWORD={R}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("| DB_PASSWORD | hunter2xyz9 |", f"| DB_PASSWORD | {R} |"),
        ("| `DB_PASSWORD` | `hunter2xyz9` | the database's |", f"| `DB_PASSWORD` | `{R}` | the database's |"),
        ("| API key | sk-abcdefghijklmnopqrstuvwx |", f"| API key | {R} |"),
        ("| token | ghp_abcdefghijklmnopqrstuvwxyz0123 |", f"| token | {R} |"),
        ("| Session token | s3ss10nT0k3n |", f"| Session token | {R} |"),
        ("|PGPASSWORD|Tr0ub4dor&3x|", f"|PGPASSWORD|{R}|"),
        ("> | api_secret | 9f8e7d6c5b4a |", f"> | api_secret | {R} |"),
        # a header's value column: the row's name cell says what the value is
        ("| name | value |\n|---|---|\n| DB_PASSWORD | hunter2xyz9 |\n| timeout | 30s |",
         f"| name | value |\n|---|---|\n| DB_PASSWORD | {R} |\n| timeout | 30s |"),
        ("| Variable | Description | Example |\n| :-- | :-- | :-- |\n| STRIPE_SECRET | the API secret | rk9Xq2mP7vL4 |",
         f"| Variable | Description | Example |\n| :-- | :-- | :-- |\n| STRIPE_SECRET | the API secret | {R} |"),
        ('| PASSPHRASE | "correct horse battery staple" |', f'| PASSPHRASE | "{R}" |'),
    ],
)
def test_table_cells_lose_their_secrets(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected  # a second pass finds nothing more


@pytest.mark.parametrize(
    "text",
    [
        "| option | default |\n|---|---|\n| timeout | 30 |\n| retries | 3 |",
        "| api_key | string | required |\n| password | `str` | min 8 chars |",
        "| GITHUB_TOKEN | ${{ secrets.GITHUB_TOKEN }} |\n| API_KEY | <your-key> |\n| TOKEN | sk-xxxx |",
        "| max_tokens | 4096abc1 |\n| public_key | ssh-ed25519AAAA |\n| sort_key | created2024 |",
        "| Token | Value | Usage |\n|---|---|---|\n| primary-500 | #3B82F6 | Primary actions |",
        "| secret | sha256 |\n| token | base64 |",
        "| `PHOENIX_SECRET` | JWT signing secret |\n| Password | Standard auth |",
        "| Never share your password with anyone | hunter2xyz9 |",  # a sentence names no value
        "a | b\n--|--\nDB_PASSWORD | hunter2xyz9",  # no outer pipes: left to the prose rules
    ],
)
def test_ordinary_tables_stay(text: str) -> None:
    assert redact_tables(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('PASSWORD="correct horse battery staple"', f'PASSWORD="{R}"'),
        ("api_key: 'my secret words here'", f"api_key: '{R}'"),
        ('export DB_PASSWORD="two words" && run', f'export DB_PASSWORD="{R}" && run'),
        ("export DB_PASSWORD=hunter2", f"export DB_PASSWORD={R}"),
        # an assignment inside another's value is read too
        ("Note: DB_PASSWORD=hunter2xyz9", f"Note: DB_PASSWORD={R}"),
        ("Env: API_KEY: abc123def456", f"Env: API_KEY: {R}"),
        ('description: "Set API_KEY=abc123def456 first"', f'description: "Set API_KEY={R} first"'),
    ],
)
def test_quoted_values_with_spaces_go_whole(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize(
    "text",
    [
        'api_key: "your API key"',
        '"API_TOKEN": "Bearer token or API key",',
        'token: "Paste the token here"',
        'PASSWORD="Enter password:"',
        "the password: 'the user's choice'",
        'Figma Token: "Desktop/Paragraph/P Body Big"',
        'password = input("Password: ")',
        "password: str",
        "token = get_token()",
        "secret: sha256, token: base64, key: ed25519",
        "CC_LANGSMITH_API_KEY=lsv2_pt_..., CC_LANGSMITH_PROJECT=project-name",
        "git clone ssh://git@github.com/OWNER/REPO.git",
    ],
)
def test_descriptions_placeholders_and_code_stay(text: str) -> None:
    assert redact_prose(text) == text


SKILLS = Path(__file__).resolve().parents[3] / "shared" / "data" / "skills"


@pytest.mark.skipif(not SKILLS.is_dir(), reason="needs ../shared/data/skills")
def test_no_table_of_the_real_catalogues_changes() -> None:
    """The real catalogues' tables (design tokens, option defaults, environment variables
    with their descriptions) hold no literal secret: the table rule leaves every one of
    their 3,000-odd Markdown files byte for byte."""
    files = sorted(SKILLS.rglob("*.md"))
    assert len(files) > 1000
    changed = [str(p) for p in files if redact_tables(t := p.read_text(errors="replace")) != t]
    assert changed == []
