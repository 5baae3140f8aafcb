"""Secrets in hook commands never reach the index: not in the body text (embedded,
keyword-indexed, returned by searches), not in ``attrs["hooks"]``, ``attrs["runs"]`` or
a flat hook's ``attrs["command"]``. A variable reference (``$TOKEN``) is how a user is
meant to pass a secret and is kept as written; a command without secrets is stored byte
for byte (script detection and install rewriting read it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.indexing import index_sources
from skill_retriever.ingest.secrets import REDACTED, redact_command
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

REAL_HOOKS = (
    Path(__file__).resolve().parents[3]
    / "shared/data/skills/davila7__claude-code-templates/cli-tool/components/hooks"
)

#: The commands of the settings-fragment hook, and every secret they hold.
FRAGMENT_COMMANDS = [
    (
        "curl -s -H 'Authorization: Bearer sk-live-abc123' -d @- "
        "https://user:S3CRETPW@hooks.example.com/notify?token=QUERYTOK1"
    ),
    "SLACK_TOKEN=xoxb-123 ./notify.sh",
    "notify --api-key APIKEY77 && echo done | tee -a log.txt",
    "API_KEY=ENVSECRET88 python x.py",
    'curl -H "X-Api-Key: HDRSECRET99" -u bob:CURLPW55 https://api.example.com/x',
    "notify --token=FLAGTOK44",
]
SECRETS = [
    "sk-live-abc123",
    "S3CRETPW",
    "QUERYTOK1",
    "xoxb-123",
    "APIKEY77",
    "ENVSECRET88",
    "HDRSECRET99",
    "CURLPW55",
    "FLAGTOK44",
    "FLATSECRET33",
    "DESCPW7",
]
#: References: where the secret is, not the secret; kept as written.
REFERENCES = [
    "SLACK_TOKEN=$SLACK_TOKEN ./notify.sh",
    'API_KEY="${API_KEY}" python x.py',
    'notify --token "$TOKEN"',
    'curl -H "Authorization: Bearer $TOKEN" "https://hooks.example.com/x?token=$TOKEN"',
    'curl -u "$USER:$PASS" https://$USER:$PASS@hooks.example.com/x',
    "TOKEN=$(cat ~/.token) ./notify.sh",
]


def write_hooks(root: Path) -> Path:
    """A settings-fragment hook, a flat hook and a hook of references only."""
    folder = root / "hooks"
    folder.mkdir(parents=True)
    group = {
        "matcher": "Edit",
        "hooks": [{"type": "command", "command": c, "timeout": 30} for c in FRAGMENT_COMMANDS],
    }
    description = "Notify a webhook after edits (https://bot:DESCPW7@hooks.example.com)."
    fragment = {"description": description, "hooks": {"PostToolUse": [group]}}
    (folder / "notify.json").write_text(json.dumps(fragment), encoding="utf-8")
    flat = {
        "name": "slack-ping",
        "description": "Ping Slack when a session stops.",
        "event": "Stop",
        "command": "PASSWORD=FLATSECRET33 ./ping.sh",
    }
    (folder / "slack-ping.json").write_text(json.dumps(flat), encoding="utf-8")
    refs = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": c} for c in REFERENCES]}]}}
    (folder / "refs.json").write_text(json.dumps(refs), encoding="utf-8")
    return folder


def by_name(root: Path) -> dict[str, Node]:
    result = ingest_skill_repo(root)
    assert result.problems == []
    return {n.name: n for n in result.nodes}


def leaked(value: Any) -> list[str]:
    dump = json.dumps(value, ensure_ascii=False)
    return [s for s in SECRETS if s in dump]


def test_a_settings_fragment_hook_stores_no_secret(tmp_path: Path) -> None:
    write_hooks(tmp_path / "repo")
    node = by_name(tmp_path / "repo")["notify"]
    assert leaked([node.to_dict(), node.text, node.attrs]) == []
    commands = [h["command"] for h in node.attrs["hooks"]["PostToolUse"][0]["hooks"]]
    assert commands == [
        (
            f"curl -s -H 'Authorization: Bearer {REDACTED}' -d @- "
            f"https://{REDACTED}@hooks.example.com/notify?token={REDACTED}"
        ),
        f"SLACK_TOKEN={REDACTED} ./notify.sh",
        f"notify --api-key {REDACTED} && echo done | tee -a log.txt",
        f"API_KEY={REDACTED} python x.py",
        f'curl -H "X-Api-Key: {REDACTED}" -u bob:{REDACTED} https://api.example.com/x',
        f"notify --token={REDACTED}",
    ]
    assert [r["command"] for r in node.attrs["runs"]] == commands
    for command in commands:  # the body says what it runs, redacted
        assert command in node.text
    # everything else of the hook is kept as written
    assert node.attrs["hooks"]["PostToolUse"][0]["matcher"] == "Edit"
    assert {h["timeout"] for h in node.attrs["hooks"]["PostToolUse"][0]["hooks"]} == {30}


def test_a_flat_hook_stores_no_secret(tmp_path: Path) -> None:
    write_hooks(tmp_path / "repo")
    node = by_name(tmp_path / "repo")["slack-ping"]
    assert leaked([node.to_dict(), node.text, node.attrs]) == []
    redacted = f"PASSWORD={REDACTED} ./ping.sh"
    assert node.attrs["command"] == redacted
    assert node.attrs["runs"] == [{"event": "Stop", "matcher": "", "command": redacted}]
    assert node.attrs["hooks"] == {"Stop": [{"hooks": [{"type": "command", "command": redacted}]}]}


def test_references_are_kept_as_written(tmp_path: Path) -> None:
    write_hooks(tmp_path / "repo")
    node = by_name(tmp_path / "repo")["refs"]
    assert [r["command"] for r in node.attrs["runs"]] == REFERENCES
    assert REDACTED not in node.text


def test_neither_the_index_nor_a_search_holds_the_secret(tmp_path: Path) -> None:
    write_hooks(tmp_path / "repo")
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        run = index_sources(index, [tmp_path / "repo"], "skills", calibrate=False)
        assert [p for s in run.sources for p in s.problems] == []
        snapshot = index.snapshot()
        assert leaked([n.to_dict() for n in snapshot.nodes.values()]) == []
        retriever = Retriever(index, reranker=None)
        for query in ("notify a webhook after edits curl", "sk-live-abc123 APIKEY77 xoxb-123"):
            response = retriever.search(query, k=5)
            assert response.results, query
            assert leaked([r.snippet for r in response.results]) == []
    finally:
        index.close()


R = REDACTED
#: Shell text -> what the index keeps of it; the last ones hold no secret and stay.
CASES = [
    ("export GITHUB_TOKEN=ghp_abc && gh pr list", f"export GITHUB_TOKEN={R} && gh pr list"),
    ("DB_PASSWORD='p w' ./migrate", f"DB_PASSWORD='{R}' ./migrate"),
    ("tool --password hunter2 --verbose", f"tool --password {R} --verbose"),
    ("PASSWORD=mypassword1 ./x", f"PASSWORD={R} ./x"),  # no placeholder: redacted
    ("curl -H 'Authorization: Basic dXNlcjpwdw==' x", f"curl -H 'Authorization: Basic {R}' x"),
    ("curl -d '{\"api_key\": \"K1\"}' x", f"curl -d '{{\"api_key\": \"{R}\"}}' x"),
    ('curl -d "client_secret=K2&grant=x" x', f'curl -d "client_secret={R}&grant=x" x'),
    ("bash -c 'API_KEY=K3 python x.py'", f"bash -c 'API_KEY={R} python x.py'"),
    ("curl https://hooks.slack.com/services/T0/B0/XYZ", f"curl https://hooks.slack.com/services/{R}"),
    ("tool --token --verbose", "tool --token --verbose"),  # no value: the next flag
    ("echo $(date -u +%H:%M); curl x", "echo $(date -u +%H:%M); curl x"),  # date's -u
    ("notify-send -u critical 'done'", "notify-send -u critical 'done'"),
    ("git commit --author 'Jane <j@x.org>' -m wip", "git commit --author 'Jane <j@x.org>' -m wip"),
    ("echo 'export VERCEL_TOKEN=your_token'", "echo 'export VERCEL_TOKEN=your_token'"),
    ("docker login --password-stdin registry.io", "docker login --password-stdin registry.io"),
]


@pytest.mark.parametrize(("command", "expected"), CASES)
def test_redact_command(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected  # what is redacted stays so


@pytest.mark.parametrize(
    "command",
    [
        'echo "unclosed',
        "echo 'unclosed",
        'TOKEN="unclosed',
        "a && b || c | d; e & f",
        "echo \"$(basename \"$(pwd)\")\"",
        "--token",
        "",
        "\\",
        "'",
        "TOKEN=",
    ],
)
def test_odd_shell_text_is_read_without_raising(command: str) -> None:
    out = redact_command(command)
    assert isinstance(out, str)
    if command.startswith("TOKEN=\""):
        assert "unclosed" not in out  # an open quote still hides what follows it


def test_real_hook_commands_do_not_change() -> None:
    """No command of claude-code-templates' hooks holds a secret: redaction must leave
    every one byte for byte as written (read at run time; skipped when absent)."""
    if not REAL_HOOKS.is_dir():
        pytest.skip("shared skills data not present")
    commands = []
    for path in sorted(REAL_HOOKS.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            continue
        if isinstance(data.get("command"), str):
            commands.append(data["command"])
        for groups in (data.get("hooks") or {}).values():
            for group in groups:
                hooks = group["hooks"]
                commands += [h["command"] for h in hooks if isinstance(h.get("command"), str)]
    assert len(commands) >= 50
    changed = [c for c in commands if redact_command(c) != c]
    assert changed == []


def test_the_marker_and_helpers_stay_importable_from_skill_configs() -> None:
    from skill_retriever.ingest import secrets, skill_configs

    assert skill_configs.REDACTED is secrets.REDACTED
    assert skill_configs.redact_urls is secrets.redact_urls
