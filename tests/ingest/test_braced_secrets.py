"""A secret in braces under a secret's name (``"Password": "{p@ss;w0rd}"``, ``--password
"{Xk9;2mQ}"``, ``"api_key": "{sk-live-...}"``): the slot check read any braces without a
blank or quote in them as a template's slot, and a placeholder's ``{NAME}`` took in any
word (``{hunter2}``), so a hook command and an MCP argument kept the value; prose took any
braces for code, and read a bare value only up to its ``;`` (seen: the secrets17 brief).
It goes now; a template's slot (``{password}``, ``{self.db_password}``, ``{{ db_password
}}``, ``{0}``, ``{}``, ``{env:DB_PASS}``, ``{config["password"]}``) and a placeholder in
braces stay. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.braced_values import braced_secret, slot_inside
from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED

#: Secrets in braces, each kept before in every form below.
SECRETS = [
    "{p@ss;w0rd}",
    "{Xk9;2mQ}",
    "{hunter2!x}",
    "{sk-live-4f9a8b7c6d5e}",
    "{Xk9mQ2pL7vR4}",
    "{hunter2}",
    "{{Hx5N@q2Wd8}}",
]
#: Templates' slots and placeholders in braces: no secret, kept.
TEMPLATES = [
    "{password}",
    "{self.db_password}",
    "{{ db_password }}",
    "{{db_password}}",
    "{0}",
    "{}",
    "{DB_PASSWORD}",
    "{api_key_v2}",
    "{{.Values.password}}",
    "{env:DB_PASS}",
    "{{secrets.X}}",
    "{{ secrets.DB_PASSWORD }}",
    "{token!r}",
    "{0:>10}",
    "{{ db_password | b64encode }}",
    "{get_password()}",
    "{process.env.DB_PASSWORD!}",
    "{your-password}",
    "{<password>}",
    "{YOUR_TOKEN}",
]
#: Where a command sets a secret's value: a quoted pair (JSON, a dict), a flag with its
#: value quoted or after ``=``, an assignment quoted.
COMMAND_FORMS = [
    ('echo \'{"Password": "VALUE"}\' > cfg.json', 'echo \'{"Password": "[redacted]"}\' > cfg.json'),
    ("python -c \"print({'api_key': 'VALUE'})\"", "python -c \"print({'api_key': '[redacted]'})\""),
    ('curl --password "VALUE" https://api.example.com', 'curl --password "[redacted]" https://api.example.com'),
    ("curl --password 'VALUE' https://api.example.com", "curl --password '[redacted]' https://api.example.com"),
    ("deploy --api-key=VALUE --region eu", "deploy --api-key=[redacted] --region eu"),
    ('export DB_PASSWORD="VALUE"', 'export DB_PASSWORD="[redacted]"'),
    ("curl -H 'X-Api-Key: VALUE' https://api.example.com", "curl -H 'X-Api-Key: [redacted]' https://api.example.com"),
    ("curl -H 'Authorization: Bearer VALUE' https://api.example.com",
     "curl -H 'Authorization: Bearer [redacted]' https://api.example.com"),
    # whatever the name: a command that sets a secret, a cookie
    ('gh secret set DEPLOY_KEY --body "VALUE"', 'gh secret set DEPLOY_KEY --body "[redacted]"'),
    ("curl -b 'sid=VALUE' https://api.example.com", "curl -b 'sid=[redacted]' https://api.example.com"),
]


@pytest.mark.parametrize("secret", SECRETS)
@pytest.mark.parametrize(("form", "kept"), COMMAND_FORMS)
def test_command_redacts_a_secret_in_braces(form: str, kept: str, secret: str) -> None:
    if ";" in secret and ("=VALUE " in form or " -b " in form):
        pytest.skip("a bare ; ends a shell command, and a ; a cookie: no value holds one there")
    assert redact_command(form.replace("VALUE", secret)) == kept


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("form", "kept"), COMMAND_FORMS)
def test_command_keeps_a_template_in_braces(form: str, kept: str, template: str) -> None:
    text = form.replace("VALUE", template)
    assert redact_command(text) == text


@pytest.mark.parametrize("secret", SECRETS)
def test_mcp_argument_with_a_secret_in_braces_is_redacted(secret: str) -> None:
    args = ["--password", secret, f"--api-key={secret}", f"API_TOKEN={secret}"]
    assert redact_args(args) == ["--password", R, f"--api-key={R}", f"API_TOKEN={R}"]


@pytest.mark.parametrize("template", TEMPLATES)
def test_mcp_argument_with_a_template_in_braces_stays(template: str) -> None:
    args = ["--password", template, f"--api-key={template}", f"API_TOKEN={template}"]
    assert redact_args(args) == args


#: Where prose quotes a secret's value: a quoted pair, an assignment (quoted, bare, a
#: sentence's full stop after it), a flag and a client's, a table's value cell.
PROSE_FORMS = [
    ('Set `"Password": "VALUE"` in appsettings.json.', 'Set `"Password": "[redacted]"` in appsettings.json.'),
    ("api_key = 'VALUE'", "api_key = '[redacted]'"),
    ('export DB_PASSWORD="VALUE"', 'export DB_PASSWORD="[redacted]"'),
    ("Put API_KEY=VALUE in .env", "Put API_KEY=[redacted] in .env"),
    ("The staging api_key: VALUE.", "The staging api_key: [redacted]."),
    ('Run `tool --password "VALUE"` once.', 'Run `tool --password "[redacted]"` once.'),
    ('mysql -u root --password "VALUE" app', 'mysql -u root --password "[redacted]" app'),
    ("| DB_PASSWORD | VALUE |", "| DB_PASSWORD | [redacted] |"),
]


@pytest.mark.parametrize("secret", SECRETS)
@pytest.mark.parametrize(("form", "kept"), PROSE_FORMS)
def test_prose_redacts_a_secret_in_braces(form: str, kept: str, secret: str) -> None:
    assert redact_prose(form.replace("VALUE", secret)) == kept


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize(("form", "kept"), PROSE_FORMS)
def test_prose_keeps_a_template_in_braces(form: str, kept: str, template: str) -> None:
    text = form.replace("VALUE", template)
    assert redact_prose(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "python -c 'print(f\"password={config[\"password\"]}\")'",
        "python -c \"connect(password=f'{os.environ['PW']}')\"",
        'curl --password "{cfg.db.password}" https://api.example.com',
    ],
)
def test_an_f_string_expression_stays(text: str) -> None:
    assert redact_command(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "cp --key-file={a,b}.pem /etc/ssl",  # shell's brace expansion
        "ssh-keygen -f key{1..3}",
        "tool --api-key {0}{1}",  # two slots, not one pair of braces
        "run --password {user}:{pw}",
        "curl --token {token}abc https://api.example.com",
    ],
)
def test_braces_that_hold_no_one_value_stay(text: str) -> None:
    assert redact_command(text) == text


@pytest.mark.parametrize(("inside", "slot"), [
    ("password", True), ("self.db_password", True), (" db_password ", True), ("0", True), ("", True),
    ('config["password"]', True), ("os.environ['PW']", True), ("env:DB_PASS", True), (".Values.password", True),
    ("token:>10", True), ("value:.2f", True), ("process.env.KEY!", True), ("api_key_v2", True),
    ("a,b", True), ("1..3", True), ("Xk9mQ2pL7vR4,x", False),
    ("hunter2", False), ("p@ss;w0rd", False), ("hunter2!x", False), ("sk-live-4f9a8b7c6d5e", False),
    ("Xk9mQ2pL7vR4", False), ("user:Xk9mQ2pL7", False), ("hunter2:x", False),
])  # fmt: skip
def test_slot_inside_reads_a_name_or_expression_only(inside: str, slot: bool) -> None:
    assert slot_inside(inside) is slot


def test_words_in_braces_go_in_a_command_and_only_a_passphrase_where_asked() -> None:
    # The command rule lets no value stay but a slot or placeholder; a connection string
    # read in prose keeps words that are no passphrase (``Password={your password}``).
    assert braced_secret("a b@c") and not braced_secret("a b@c", phrase=True)
    assert braced_secret("correct horse!", phrase=True) and not braced_secret("your password", phrase=True)
    assert redact_command('TOKEN="{a b@c}" ./run') == f'TOKEN="{R}" ./run'
