"""Text that is no command in an MCP server's arguments (a ``.netrc`` line, a header, a
YAML or JSON block, a script's basic auth), one argument holding it or its words split
into arguments, loses its secret: the argument rules read only flags, ``NAME=value``
words, a header argument and the programs' password flags, so ``machine h login u
password X``, ``Authorization: Basic X`` as three arguments, ``{"env": {"API_KEY":
"X"}}`` and ``password: X`` kept X in the index. The rest of the text stays."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_invocation

R = REDACTED
PW = "Tr0ub4dor3Xq"
B64 = "YWRtaW46VHIwdWI0ZG9yM1hx"
KEY = "BSAx7Jk2mQ9pLw4RtZ8v"
TEXTS = [
    (f"machine api.example.com login deploy password {PW}", PW),
    (f"Authorization: Basic {B64}", B64),
    (f'{{"env": {{"BRAVE_API_KEY": "{KEY}"}}}}', KEY),
    (f'{{"auths": {{"ghcr.io": {{"auth": "{B64}"}}}}}}', B64),
    (f"database:\n  host: db\n  password: {PW}", PW),
    (f"settings:\n  api_key: {KEY}", KEY),
    (f'requests.get(url, auth=("deploy", "{PW}"))', PW),
]


@pytest.mark.parametrize(("text", "secret"), TEXTS)
def test_text_in_one_argument_loses_its_secret(text: str, secret: str) -> None:
    _, args = redact_invocation("uvx", ["tool", "--config", text])
    assert args[:2] == ["tool", "--config"]
    assert args[2] == text.replace(secret, R)


@pytest.mark.parametrize(("text", "secret"), TEXTS[:-1])
def test_text_split_into_arguments_loses_its_secret(text: str, secret: str) -> None:
    words = text.replace('"', "").split()
    _, args = redact_invocation("tool", words)
    assert secret not in " ".join(args)
    assert sum(a != w for a, w in zip(args, words, strict=True)) == 1  # the secret's word only


@pytest.mark.parametrize(
    "args",
    [
        ["--config", '{"name": "github", "token_env": "GITHUB_TOKEN"}'],
        ["--header", "Authorization: Bearer ${API_TOKEN}"],
        ["machine", "api.example.com", "login", "deploy", "password", "${NETRC_PASSWORD}"],
        ["password:", "${DB_PASSWORD}"],
        ["--description", "Reads the api_key: from the environment"],
    ],
)
def test_text_without_a_secret_stays(args: list[str]) -> None:
    assert redact_invocation("tool", args) == ("tool", args)


def test_a_flag_value_with_blanks_still_goes_whole() -> None:
    args = ["--password=correct horse battery", "--token=abc def"]
    assert redact_invocation("tool", args) == ("tool", [f"--password={R}", f"--token={R}"])


@pytest.mark.parametrize(
    ("script", "secret"),
    [
        ("npx -y @acme/server --token Tr0ub4dor3Xq", "Tr0ub4dor3Xq"),
        ("npx -y @acme/server --api-key=Tr0ub4dor3Xq --port 8080", "Tr0ub4dor3Xq"),
        ("curl -s -H 'Cookie: session=Tr0ub4dor3Xq9' https://api.example.com | jq .", "Tr0ub4dor3Xq9"),
        ("git config --global github.token Tr0ub4dor3Xq && run", "Tr0ub4dor3Xq"),
    ],
)
def test_a_script_in_one_argument_is_read_as_a_command(script: str, secret: str) -> None:
    """``"command": "bash", "args": ["-c", "... --token X"]``: the flag rule read only a
    flag that is an argument of its own, so a script's flags kept their values."""
    _, args = redact_invocation("bash", ["-c", script])
    assert args == ["-c", script.replace(secret, R)]


@pytest.mark.parametrize(
    ("head", "script"),
    [
        (["bash", "-c"], "curl -u admin:Tr0ub4dor3Xq https://api.example.com/v1"),
        (["bash", "-lc"], "curl -s -u 'admin:Tr0ub4dor3Xq' https://api.example.com | jq ."),
        (["sh", "-c"], "cd /srv && mysql -pTr0ub4dor3Xq app < dump.sql"),
        (["sh", "-c"], "sshpass -p Tr0ub4dor3Xq ssh -p 2222 deploy@host uptime"),
    ],
)
def test_a_script_argument_keeps_what_follows_its_password(head: list[str], script: str) -> None:
    """The command rule read the script and redacted its password; the programs' rule,
    reading the arguments joined into one line, read the script's ``curl -u`` again
    with the rest of the argument as the password: the URL went too."""
    command, args = redact_invocation(head[0], [*head[1:], script])
    assert (command, args) == (head[0], [*head[1:], script.replace("Tr0ub4dor3Xq", R)])
