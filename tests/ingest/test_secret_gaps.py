"""Secrets that plain ``--flag X`` / ``NAME=X`` rules miss, and what must stay as written.

- Clients that take a password in a short flag (``mysql -pX``, ``sshpass -p X``,
  ``redis-cli -a X``), only in the simple command the client runs: ``-p`` is a port,
  parents or a plugin to other programs.
- Webhook URLs whose path is the credential (Teams, Zapier, IFTTT), in shell text, MCP
  arguments and prose.
- ``prompt`` / ``agent`` hooks' prompts and ``http`` hooks' URLs and headers.
- Quoted values with spaces go whole.
- ``repair`` (`scrubbed`) redacts each field as ingest does: an old, unredacted item comes
  out as ingest writes it now, and an item ingest wrote is left alone.
- Every pattern stays linear on crafted input (a long line finishes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.ingest import hook_configs, skill_configs
from skill_retriever.ingest.redact_fields import redact_frontmatter
from skill_retriever.ingest.scrub import scrubbed
from skill_retriever.ingest.secrets import (
    REDACTED,
    redact_args,
    redact_command,
    redact_headers,
    redact_invocation,
    redact_text,
    redact_urls,
    secret_name,
)
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import Node

R = REDACTED
HOOKS = (
    Path(__file__).resolve().parents[3]
    / "shared/data/skills/davila7__claude-code-templates/cli-tool/components/hooks"
)

CLIENTS = [
    ("mysql -uroot -pS3cret db", f"mysql -uroot -p{R} db"),
    ("mysqldump -u admin -p'S3cret' db > x.sql", f"mysqldump -u admin -p'{R}' db > x.sql"),
    (
        "docker exec db mariadb -uroot -p\"S3 cret\" -e 'select 1'",
        f"docker exec db mariadb -uroot -p\"{R}\" -e 'select 1'",
    ),
    ("mysql --password=S3cret db", f"mysql --password={R} db"),
    ("sshpass -p S3cret ssh -p 2222 host", f"sshpass -p {R} ssh -p 2222 host"),
    ("sshpass -v -pS3cret scp a h:", f"sshpass -v -p{R} scp a h:"),
    ("PGPASSWORD=S3cret psql -h db", f"PGPASSWORD={R} psql -h db"),
    ("redis-cli -h r -p 6379 -a S3cret ping", f"redis-cli -h r -p 6379 -a {R} ping"),
    ("redis-cli --pass S3cret info", f"redis-cli --pass {R} info"),
    ("mongosh -u admin -p S3cret", f"mongosh -u admin -p {R}"),
    ("mysql -uroot -pS3cret db; mkdir -p out", f"mysql -uroot -p{R} db; mkdir -p out"),
]
WEBHOOKS = [
    (
        "https://acme.webhook.office.com/webhookb2/1a2b-3c@4d5e-6f/IncomingWebhook/0a1b2c/7d8e-9f",
        f"https://acme.webhook.office.com/webhookb2/{R}",
    ),
    (
        "https://outlook.office.com/webhook/1a@2b/IncomingWebhook/3c/4d",
        f"https://outlook.office.com/webhook/{R}",
    ),
    (
        "https://hooks.zapier.com/hooks/catch/123456/abc9def/",
        f"https://hooks.zapier.com/hooks/catch/{R}/",
    ),
    (
        "https://maker.ifttt.com/trigger/done/with/key/dK3yAbC-1",
        f"https://maker.ifttt.com/trigger/done/with/key/{R}",
    ),
    (
        "https://maker.ifttt.com/trigger/done/json/with/key/dK3y",
        f"https://maker.ifttt.com/trigger/done/json/with/key/{R}",
    ),
    ("https://maker.ifttt.com/use/dK3yAbC", f"https://maker.ifttt.com/use/{R}"),
]
QUOTED = [
    ('tool --password "correct horse battery" -v', f'tool --password "{R}" -v'),
    ("TOKEN='a b c' ./run.sh", f"TOKEN='{R}' ./run.sh"),
    ('curl -H "Authorization: Bearer abc def" x', f'curl -H "Authorization: Bearer {R}" x'),
    (
        "curl -H 'X-Api-Key: a b c' -H 'X-Trace: 1 2' x",
        f"curl -H 'X-Api-Key: {R}' -H 'X-Trace: 1 2' x",
    ),
    ('curl -d \'{"api_key": "a b"}\' x', f'curl -d \'{{"api_key": "{R}"}}\' x'),
]
#: No secret in any: each comes back byte for byte.
UNCHANGED = [
    "date -u +%H:%M",
    "git commit --author 'Jane <j@x.org>' -m wip",
    "grep -p pattern file",
    "python -m pytest -p no:cacheprovider -q",
    "mkdir -p dir/sub && cp -p a dir/",
    "ssh -p 2222 host uptime",
    "scp -P 2222 -p a host:",
    "docker run -d -p 3306:3306 mysql:8",
    "docker run --name mongo -p 27017:27017 mongo",
    "mysql -u root -p db",  # -p alone prompts; db is the database
    'mysql -p"$MYSQL_PWD" db && redis-cli -a "$REDIS_PASSWORD" ping',
    "sshpass -e ssh -p 2222 host",
    "sshpass -f ~/.pw ssh -p 22 host",
    "redis-cli -p 6380 ping",
    'TOKEN="" ./x',
    'curl -H "Authorization: Bearer $TOKEN" https://hooks.zapier.com/hooks/catch/$ZAP_ID/',
    "echo see https://maker.ifttt.com/ and https://hooks.zapier.com/apps",
]


@pytest.mark.parametrize(("command", "expected"), CLIENTS + QUOTED)
def test_client_passwords_and_quoted_values(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected


@pytest.mark.parametrize("command", UNCHANGED)
def test_commands_without_a_secret_stay_as_written(command: str) -> None:
    assert redact_command(command) == command


#: A client's password glued to its short flag (``-pVALUE``) is all that flag takes: the
#: word after it is the next argument (mysql's database, the command sshpass runs). Where
#: the value held a secret's word (``-psecret12``: "secret"; ``-pMyToken99``), the flag
#: rule read ``-psecret12`` as a flag named so and took that word for its value too, and
#: the database went (``-p[redacted] [redacted]``); ``-pXk9s2mQz7 db`` kept it (seen: the
#: secrets59 brief). ``-p`` alone prompts, and ``mysql -p db`` stays (`UNCHANGED`).
GLUED_PASSWORDS = [
    ("mysql -u root -psecret12 db", f"mysql -u root -p{R} db"),
    ("mysqldump -u root -psecret12 db > x.sql", f"mysqldump -u root -p{R} db > x.sql"),
    ("mysql -u root -pMyToken99 shop", f"mysql -u root -p{R} shop"),
    ("mariadb -u root -pSecret2024x app -e status", f"mariadb -u root -p{R} app -e status"),
    ("sshpass -psecret12 ssh deploy@host", f"sshpass -p{R} ssh deploy@host"),
    ("docker login -u me -pMyToken99 ghcr.io", f"docker login -u me -p{R} ghcr.io"),
]


@pytest.mark.parametrize(("command", "expected"), GLUED_PASSWORDS)
def test_a_glued_client_password_takes_no_next_word(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected


@pytest.mark.parametrize(("command", "expected"), GLUED_PASSWORDS)
def test_a_glued_client_password_argument_takes_no_next_argument(command: str, expected: str) -> None:
    program, *args = command.split(" ")
    assert redact_invocation(program, args) == (program, expected.split(" ")[1:])


@pytest.mark.parametrize(("url", "expected"), WEBHOOKS)
def test_webhook_secrets_go_wherever_the_url_stands(url: str, expected: str) -> None:
    assert redact_command(f"curl -X POST {url}") == f"curl -X POST {expected}"
    assert redact_urls(f"Posts to {url}.") == f"Posts to {expected}."
    assert redact_args(["--webhook", url]) == ["--webhook", expected]
    assert redact_text(expected) == expected


SIGNED_URLS = [
    (
        "https://acct.blob.core.windows.net/c/f.zip?sv=2022-11-02&se=2026-12-31&sig=AbC%2Bd",
        f"https://acct.blob.core.windows.net/c/f.zip?sv=2022-11-02&se=2026-12-31&sig={R}",
    ),
    (
        "https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIDEXAMPLE&X-Amz-Signature=9f8e",
        f"https://b.s3.amazonaws.com/k?X-Amz-Credential={R}&X-Amz-Signature={R}",
    ),
    (
        "https://db.example/connect?user=app&pwd=Hunter2",
        f"https://db.example/connect?user=app&pwd={R}",
    ),
]


@pytest.mark.parametrize(("url", "expected"), SIGNED_URLS)
def test_signed_url_signatures_go(url: str, expected: str) -> None:
    assert redact_urls(url) == expected
    assert redact_command(f"curl -o out '{url}'") == f"curl -o out '{expected}'"
    assert redact_args(["--from", url]) == ["--from", expected]
    kept = "https://example.com/search?q=signal&page=2&signup=1"
    assert redact_urls(kept) == kept


#: What documentation writes where a secret would go: kept, in prose and in shell.
EXAMPLE_URLS = [
    "postgresql://user:pass@localhost:5432/app",
    "mysql://username:password@127.0.0.1/db",
    "https://<token>@github.com/org/repo.git",
    "https://api.example.com/v1/search?q=x&api_key=YOUR_API_KEY",
    "https://api.example.com/v1?key=<your-key>&token=xxxx",
    "https://blog.example.com/posts?author=$i&authors=2&keywords=deploy",
    "https://api.example.com/v1?token=",
]


@pytest.mark.parametrize("url", EXAMPLE_URLS)
def test_documentation_examples_in_urls_are_kept(url: str) -> None:
    assert redact_urls(url) == url
    assert redact_text(f"Connect with {url} first.") == f"Connect with {url} first."
    assert redact_command(f"curl '{url}'") == f"curl '{url}'"


def test_one_rule_names_a_secret_in_shell_urls_and_frontmatter() -> None:
    assert [secret_name(n) for n in ("api_key", "X-Api-Key", "TOKEN", "Authorization", "db_passwd")] == [True] * 5
    assert [secret_name(n) for n in ("author", "AUTHOR_NAME", "skill-author", "keywords", "keyword")] == [False] * 5
    assert redact_command("tool --keywords deploy --author me --key K") == f"tool --keywords deploy --author me --key {R}"
    assert redact_frontmatter({"keywords": ["a"], "skill-author": "Ann", "api_key": "k1"}) == {
        "keywords": ["a"], "skill-author": "Ann", "api_key": R,
    }


def test_real_user_info_and_values_beside_examples_still_go() -> None:
    # Only the pair of example words reads as an example; a real name or password goes.
    assert redact_urls("postgresql://user:s3cr3t@db/app") == f"postgresql://{R}@db/app"
    assert redact_urls("postgresql://deploy:password@db/app") == f"postgresql://{R}@db/app"
    assert redact_urls("https://ghp0token@github.com/x") == f"https://{R}@github.com/x"
    assert redact_urls("https://x.io/?author=bob&auth=abc123") == f"https://x.io/?author=bob&auth={R}"
    assert redact_urls("https://x.io/?key=YOUR_KEY&secret=abc") == f"https://x.io/?key=YOUR_KEY&secret={R}"


def test_a_flag_at_the_end_of_the_command_hides_the_first_argument() -> None:
    assert redact_invocation("npx server --api-key", ["K3Y", "--port", "8080"]) == (
        "npx server --api-key",
        [R, "--port", "8080"],
    )
    assert redact_invocation("npx server --port", ["8080"]) == ("npx server --port", ["8080"])
    assert redact_invocation(None, ["--token", "T0K"]) == (None, ["--token", R])
    assert redact_invocation("", []) == ("", [])


def test_known_tokens_go_from_mcp_arguments_and_prose() -> None:
    token = "ghp_" + "a1" * 18
    assert redact_args(["server", token]) == ["server", R]
    assert redact_text(f"Use the key {token} when asked.") == f"Use the key {R} when asked."
    prose = "Pass --token when asked, set API_KEY=your key, see https://example.com/a?b=c."
    assert redact_text(prose) == prose


def test_http_hook_headers() -> None:
    headers = {"Authorization": "Bearer abc", "X-Api-Key": "k1", "X-Env": "prod", "N": 3}
    assert redact_headers(headers) == {
        "Authorization": f"Bearer {R}",
        "X-Api-Key": R,
        "X-Env": "prod",
        "N": 3,
    }
    kept = {"Authorization": "Bearer $MY_TOKEN", "X-Api-Key": "${KEY}", "X-Key": "<your-key>"}
    assert redact_headers(kept) == kept


SK = "sk-" + "Z9" * 15
HOOK: dict[str, Any] = {
    "description": "Guard edits; alerts go to https://hooks.zapier.com/hooks/catch/42/zk3y/",
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "prompt",
                        "prompt": f"Check the command. Use API key {SK} for lookups.",
                    },
                    {
                        "type": "agent",
                        "prompt": "Verify https://maker.ifttt.com/use/ifK3y works",
                        "timeout": 9,
                    },
                    {
                        "type": "http",
                        "url": "https://u:HTTPPW@hooks.example.com/h?token=QTOK",
                        "headers": {"Authorization": "Bearer HDRTOK", "X-Team": "core"},
                    },
                    {"type": "command", "command": "mysql -uroot -pDBPW db < seed.sql"},
                ],
            }
        ]
    },
}
HOOK_SECRETS = [SK, "zk3y", "ifK3y", "HTTPPW", "QTOK", "HDRTOK", "DBPW"]
SERVER: dict[str, Any] = {
    "description": "Alerts via https://maker.ifttt.com/trigger/x/with/key/mK3y",
    "command": "npx srv --password=CMDPW --api-key",
    "args": [
        "ARG0KEY",  # the value of the command's last flag
        "--password",
        "correct horse",
        "ghp_" + "b2" * 18,
        "postgresql://u:ARGPW@db/app",
        "https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=SASSIG",
    ],
    "url": "https://u:URLPW@remote.example/mcp?key=QPW#frag",
}
SERVER_SECRETS = ["mK3y", "CMDPW", "ARG0KEY", "horse", "b2b2b2", "ARGPW", "SASSIG", "URLPW", "QPW"]


def _write(root: Path) -> None:
    (root / "hooks").mkdir(parents=True)
    (root / "hooks" / "guard.json").write_text(json.dumps(HOOK), encoding="utf-8")
    (root / "mcps").mkdir()
    (root / "mcps" / "srv.json").write_text(
        json.dumps({"mcpServers": {"srv": SERVER}}), encoding="utf-8"
    )


def _nodes(root: Path) -> dict[str, Node]:
    result = ingest_skill_repo(root)
    assert result.problems == []
    return {n.name: n for n in result.nodes}


def _leaked(node: Node, secrets: list[str]) -> list[str]:
    dump = json.dumps(node.to_dict(), ensure_ascii=False)
    return [s for s in secrets if s in dump]


def test_prompt_agent_and_http_hooks_store_no_secret(tmp_path: Path) -> None:
    _write(tmp_path / "repo")
    node = _nodes(tmp_path / "repo")["guard"]
    assert _leaked(node, HOOK_SECRETS) == []
    prompt, agent, http, command = node.attrs["hooks"]["PreToolUse"][0]["hooks"]
    assert prompt["prompt"] == f"Check the command. Use API key {R} for lookups."
    assert agent == {
        "type": "agent",
        "prompt": f"Verify https://maker.ifttt.com/use/{R} works",
        "timeout": 9,
    }
    assert http["url"] == f"https://{R}@hooks.example.com/h?token={R}"
    assert http["headers"] == {"Authorization": f"Bearer {R}", "X-Team": "core"}
    assert command["command"] == f"mysql -uroot -p{R} db < seed.sql"
    assert f"asks a model: Check the command. Use API key {R} for lookups." in node.text
    assert (
        node.description == f"Guard edits; alerts go to https://hooks.zapier.com/hooks/catch/{R}/"
    )


def _old_nodes(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Node]:
    """The items as an index built before any redaction holds them."""
    with monkeypatch.context() as m:
        for module, names in (
            (hook_configs, ("redact_command", "redact_text", "redact_headers")),
            (skill_configs, ("redact_urls",)),
        ):
            for name in names:
                m.setattr(module, name, lambda value: value)
        m.setattr(skill_configs, "redact_invocation", lambda command, args: (command, args))
        return _nodes(root)


def test_repair_redacts_an_old_item_as_ingest_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path / "repo")
    new, old = _nodes(tmp_path / "repo"), _old_nodes(tmp_path / "repo", monkeypatch)
    for name, secrets in (("guard", HOOK_SECRETS), ("srv", SERVER_SECRETS)):
        assert _leaked(new[name], secrets) == []
        assert _leaked(old[name], secrets) != []  # the old form holds them
        assert scrubbed(new[name]) is None  # ingest's form: nothing more to take out
        fixed = scrubbed(old[name])
        assert fixed is not None
        assert (fixed.text, fixed.description, fixed.attrs) == (
            new[name].text,
            new[name].description,
            new[name].attrs,
        )


def test_repair_of_a_stored_mcp_url_keeps_it_as_stored() -> None:
    node = Node(
        id="x#s",
        kind="mcp_server",
        name="s",
        description="d",
        text="d\nURL: http://[::1]:8080/mcp",
        attrs={"command": None, "args": [], "url": "http://[::1]:8080/mcp"},
    )
    assert scrubbed(node) is None


def test_real_hook_prompts_and_descriptions_do_not_change() -> None:
    if not HOOKS.is_dir():
        pytest.skip("shared skills data not present")
    texts: list[str] = []
    for path in sorted(HOOKS.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("description"), str):
            texts.append(data["description"])
        for groups in (data.get("hooks") or {}).values() if isinstance(data, dict) else ():
            texts += [
                h["prompt"] for g in groups for h in g["hooks"] if isinstance(h.get("prompt"), str)
            ]
    assert len(texts) >= 50
    assert [t for t in texts if redact_text(t) != t] == []


N = 200_000


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mysql " + "-p" * (N // 2), "mysql " + "-p" * (N // 2)),  # "-p..." is the next flag
        ("mysql " + "-pX " * (N // 4), "mysql " + f"-p{R} " * (N // 4)),
        ("mysql " + "-p " * (N // 3), "mysql " + "-p " * (N // 3)),
        ("sshpass" + " -e" * (N // 3), "sshpass" + " -e" * (N // 3)),
        ("hooks.zapier.com/" * (N // 17), "hooks.zapier.com/" * (N // 17)),
        ("maker.ifttt.com/trigger/a/" * (N // 26), "maker.ifttt.com/trigger/a/" * (N // 26)),
        (
            "x.webhook.office.com/webhookb2/" * (N // 31),
            "x.webhook.office.com/webhookb2/"
            + f"{R}.webhook.office.com/webhookb2/" * (N // 31 - 1),
        ),
        ('"Authorization: a ' * (N // 18), f'"Authorization: {R} ' * (N // 18)),
        (
            "-H 'Authorization: Bearer " + "a " * (N // 2),
            f"-H 'Authorization: Bearer {R} " + "a " * (N // 2 - 1),
        ),
        ("redis-cli" + " -a" * (N // 3), "redis-cli" + " -a" * (N // 3)),
    ],
)
def test_crafted_long_lines_finish(text: str, expected: str) -> None:
    assert redact_command(text) == expected
    assert redact_text(text.replace("Authorization", "x")) is not None
