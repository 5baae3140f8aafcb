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

import ast
from pathlib import Path

import pytest

import skill_retriever.ingest
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
    if ";" in secret and " -b " in form:
        pytest.skip("a ; ends a cookie: no value holds one there")
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


#: A secret in braces where a rule asked `secret_values.literal_word` (then named
#: ``literal_secret``), which reads any braces as code, or a name in braces as a
#: placeholder (``is_placeholder``), or read the value only up to its ``;``: each stayed in
#: a command, whole or after its ``;`` (seen: the secrets19 brief). Now each rule asks
#: `braced_values.literal_or_braced` (or `placeholder_or_slot`, `code_or_slot`), and a
#: word in braces with a ``;`` and no blank in it is read whole. Both prose and a command.
BRACED_LEAKS = [
    ("psql postgres://admin:{Xk9;2mQz7Lp}@db:5432/app", f"psql postgres://{R}@db:5432/app"),
    ('TOKEN="${TOKEN:-{Xk9;2mQz7Lp}}" ./run', f'TOKEN="${{TOKEN:-{R}}}" ./run'),
    ("export API_KEY=${API_KEY:-{Xk9;2mQz7Lp}}", f"export API_KEY=${{API_KEY:-{R}}}"),
    ("curl -u admin:{Xk9;2mQz7Lp} https://api.example.com", f"curl -u admin:{R} https://api.example.com"),
    ("curl -u admin:{Xk9s2mQz7Lp} https://api.example.com", f"curl -u admin:{R} https://api.example.com"),
    ("curl https://api.example.com/v1?api_key={Xk9;2mQz7Lp}&q=1", f"curl https://api.example.com/v1?api_key={R}&q=1"),
    ("export GITHUB_TOKEN={ghp_Xk9;2mQz7Lp}", f"export GITHUB_TOKEN={R}"),
    ("password: {Xk9;2mQz7Lp}", f"password: {R}"),
    ("git clone https://{Xk9s2mQz7Lp}@github.com/acme/app", f"git clone https://{R}@github.com/acme/app"),
    ('os.getenv("PW", "{hunter2x}")', f'os.getenv("PW", "{R}")'),
    ("mysql -p{Xk9;2mQz7Lp} app", f"mysql -p{R} app"),
]
#: The same in a command only: prose read these already, or reads them another way.
BRACED_COMMAND_LEAKS = [
    ("curl https://user:{Xk9;2mQz7Lp}@db.example.com/x", f"curl https://{R}@db.example.com/x"),
    ("curl https://api.example.com/v1?api_key={Xk9s2mQz7Lp}", f"curl https://api.example.com/v1?api_key={R}"),
    ("deploy --token {Xk9;2mQz7Lp} --region eu", f"deploy --token {R} --region eu"),
    ('python -c "api_key = \'{Xk9;2mQz7Lp}\'"', f'python -c "api_key = \'{R}\'"'),
    ('xhr.setRequestHeader("X-Api-Key", "{Xk9;2mQz7Lp}")', f'xhr.setRequestHeader("X-Api-Key", "{R}")'),
]
#: Templates, braces of shell and a template's default in the same places: no secret.
BRACED_KEPT = [
    "curl https://{user}:{password}@db.example.com/x",
    "git clone https://{token}@github.com/acme/app",
    "export API_KEY=${API_KEY:-{default}}",
    "export API_KEY=${API_KEY:-{api_key}}",
    'TOKEN="${TOKEN:-{{ .Values.pw }}}" ./run',
    "curl https://api.example.com/v1?api_key={api_key}",
    "curl -u admin:{password} https://api.example.com",
    'curl -u "{user}:{pass}" https://api.example.com',
    "export TOKEN={{ secrets.X }}",
    "export PW={env:X}",
    "password: {password}",
    'os.getenv("API_KEY", "{api_key}")',
    "cp key{a,b}.pem /etc/ssl",
    "find . -name '*.tmp' -exec rm {} \\;",
    "for i in {1..3}; do echo $i; done",
    "PASSWORD=${PW};echo ok",
    "TOKEN={};curl https://api.example.com",
    "awk '{print $1;print $2}' users.txt",
]


@pytest.mark.parametrize(("text", "kept"), BRACED_LEAKS + BRACED_COMMAND_LEAKS)
def test_every_command_rule_reads_a_secret_in_braces_whole(text: str, kept: str) -> None:
    assert redact_command(text) == kept


@pytest.mark.parametrize(("text", "kept"), BRACED_LEAKS)
def test_prose_reads_a_secret_in_braces_whole(text: str, kept: str) -> None:
    assert redact_prose(text) == kept


@pytest.mark.parametrize("text", BRACED_KEPT)
def test_a_template_or_shell_braces_stay_in_every_rule(text: str) -> None:
    assert redact_command(text) == text
    assert redact_prose(text) == text


def test_only_braced_values_asks_the_braces_blind_test() -> None:
    # Every rule asks `literal_or_braced`; one that asked `literal_word` read ``{Xk9;2mQ}``
    # as code, as ten rules did (braced_values asks it of the names braces hold).
    folder = Path(skill_retriever.ingest.__file__).parent
    askers = sorted(
        path.stem
        for path in folder.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and any(alias.name == "literal_word" for alias in node.names)
    )
    assert askers == ["braced_values"]


#: A secret in braces with a ``;`` after a secret's flag, or a shell default's braces in
#: quotes: prose's flag and assignment readers stopped at the ``;`` (``{Xk9`` judged, code),
#: and a default's reader read ``"{`` as no default at all, so each stayed, the default in a
#: command too (seen: the secrets21 brief). Now `secret_values.BRACED_RUN` starts a prose
#: value read whole, as it does a shell word, and a default's braces may stand in quotes.
BRACED_FLAG_LEAKS = [
    ("tool --token {Xk9;2mQz7Lp}", f"tool --token {R}"),
    ("tool --token={Xk9;2mQz7Lp}", f"tool --token={R}"),
    ("deploy --api-key {Xk9;2mQz7Lp} --region eu", f"deploy --api-key {R} --region eu"),
    ("Run `tool --password {p@ss;w0rd}` once.", f"Run `tool --password {R}` once."),
    ("ENV API_KEY {Xk9;2mQz7Lp}", f"ENV API_KEY {R}"),
    ("gh secret set DEPLOY_KEY --body {Xk9;2mQz7Lp}", f"gh secret set DEPLOY_KEY --body {R}"),
    ('TOKEN=${PW:-"{a;b9Xk2mQz}"}', f'TOKEN=${{PW:-"{R}"}}'),
    ("export API_KEY=${API_KEY:-'{Xk9;2mQz7Lp}'}", f"export API_KEY=${{API_KEY:-'{R}'}}"),
]
#: A flag that names no secret keeps anything (``--format {json;yaml}``), and templates,
#: shell's own braces and a quoted default that is a slot stay.
BRACED_FLAG_KEPT = [
    "tool --format {json;yaml}",
    "tool --format={json;yaml}",
    "tool --token {token}",
    "tool --token={token}",
    "tool --token {{ secrets.T }}",
    "find . -type f -exec cmd {} \\;",
    "awk '{a;b}' users.txt",
    'TOKEN=${PW:-"{api_key}"}',
    "export API_KEY=${API_KEY:-'{{ .Values.key }}'}",
    "tool --token {Xk9;2mQz7Lp",  # no closing brace: no value in braces
]


@pytest.mark.parametrize(("text", "kept"), BRACED_FLAG_LEAKS)
def test_a_secret_flag_or_quoted_default_reads_braces_whole(text: str, kept: str) -> None:
    assert redact_prose(text) == kept
    assert redact_command(text) == kept


def test_prose_keeps_a_sentence_stop_after_a_flag_in_braces() -> None:
    assert redact_prose("Pass --token {Xk9;2mQz7Lp}.") == f"Pass --token {R}."


@pytest.mark.parametrize("text", BRACED_FLAG_KEPT)
def test_a_flag_that_names_no_secret_or_a_template_stays(text: str) -> None:
    assert redact_prose(text) == text
    assert redact_command(text) == text


#: A secret in braces with a ``&`` and a ``;`` in it after a secret's flag, a setter or a
#: block's ``value:``: prose read a value in braces whole only as a
#: `secret_values.BRACED_RUN`, which holds no ``&`` (a shell operator), so it read
#: ``{Tr0ub&3`` up to the ``;``, judged it code, and the password stayed; ``{Tr0ub3;x9}``
#: and ``DB_PASSWORD={Tr0ub&3;x9}`` went (seen: the secrets59 brief). In prose a ``&`` is
#: a password's (`named_values.NAMED_BRACED_RUN`), and braces that hold one go whole.
AMPERSAND_BRACED_LEAKS = [
    ("use --password={Tr0ub&3;x9} here", f"use --password={R} here"),
    ("use --password {Tr0ub&3;x9} here", f"use --password {R} here"),
    ('Run `"--password={Tr0ub&3;x9}"` once.', f'Run `"--password={R}"` once.'),
    ("Run `tool --password={Tr0ub&3;x9}`.", f"Run `tool --password={R}`."),
    ("Pass --token {Tr0ub&3;x9}.", f"Pass --token {R}."),
    ("ENV API_KEY {Tr0ub&3;x9}", f"ENV API_KEY {R}"),
    ("set -gx API_KEY {Tr0ub&3;x9}", f"set -gx API_KEY {R}"),
    ("gh secret set DEPLOY_KEY --body {Tr0ub&3;x9}", f"gh secret set DEPLOY_KEY --body {R}"),
    ("- name: API_KEY\n  value: {Tr0ub&3;x9}", f"- name: API_KEY\n  value: {R}"),
]


@pytest.mark.parametrize(("text", "kept"), AMPERSAND_BRACED_LEAKS)
def test_prose_reads_a_secret_in_braces_with_an_ampersand_whole(text: str, kept: str) -> None:
    assert redact_prose(text) == kept
    assert redact_prose(kept) == kept



#: The same secret in braces with a ``&`` in it in a command, after a secret's flag, an
#: assignment's name or a setter's: the command rules read a value in braces whole only as
#: a `secret_values.BRACED_RUN`, which holds no ``&``, so they read ``{Tr0ub`` (a slot's
#: start cut short) and the password stayed, in quotes too, where ``&`` is a character
#: (seen: the secrets2 brief). Unquoted the shell would cut the word at the ``&``, but a run
#: in braces with no blank is no brace group (``{ cmd; }``): under a secret's name it is
#: read whole (`named_values.NAMED_BRACED_RUN`).
AMPERSAND_COMMAND_LEAKS = [
    ('tool "--password={Tr0ub&3;x9}"', f'tool "--password={R}"'),
    ("tool '--password={Tr0ub&3;x9}'", f"tool '--password={R}'"),
    ("tool --password={Tr0ub&3;x9}", f"tool --password={R}"),
    ("tool --password {Tr0ub&3;x9} && echo ok", f"tool --password {R} && echo ok"),
    ("tool --api-key={Xk9s2&mQz7Lp}", f"tool --api-key={R}"),
    ('docker run -e "DB_PASSWORD={Tr0ub&3;x9}" app', f'docker run -e "DB_PASSWORD={R}" app'),
    ("API_TOKEN={Tr0ub&3;x9} ./deploy.sh", f"API_TOKEN={R} ./deploy.sh"),
    ("git config --global github.token {Tr0ub&3;x9}", f"git config --global github.token {R}"),
    ("npm config set //npm.example.com/:_authToken {Tr0ub&3;x9}", f"npm config set //npm.example.com/:_authToken {R}"),
]
#: A ``&`` still ends what is no secret's value, and a URL's parameters stay apart: a
#: braced state before ``&token=`` does not take the token in (its value still goes).
AMPERSAND_COMMAND_KEPT = [
    ("tool --state={a&b;c} --token=Xk9s2mQz7Lp", f"tool --state={{a&b;c}} --token={R}"),
    ("tool --password={pw}&&echo hi", "tool --password={pw}&&echo hi"),
    ('curl "https://x.example/cb?state={a;b}&token=Xk9s2mQz7Lp"', f'curl "https://x.example/cb?state={{a;b}}&token={R}"'),
    ("curl https://x.example/cb?state={a;b}&token=Xk9s2mQz7Lp", f"curl https://x.example/cb?state={{a;b}}&token={R}"),
]


@pytest.mark.parametrize(("text", "kept"), AMPERSAND_COMMAND_LEAKS + AMPERSAND_COMMAND_KEPT)
def test_a_command_reads_a_secret_in_braces_with_an_ampersand_whole(text: str, kept: str) -> None:
    assert redact_command(text) == kept
    assert redact_command(kept) == kept


#: An MCP argument is one argv word, read by no shell: a ``&`` in it is the value's, and
#: the whole value goes (it did before too: pinned); a script in one argument is a
#: command's text (``bash -c``), read as above.
@pytest.mark.parametrize(
    ("args", "kept"),
    [
        (["--password={Tr0ub&3;x9}"], [f"--password={R}"]),
        (["--password", "{Tr0ub&3;x9}"], ["--password", R]),
        (["-e", "DB_PASSWORD={Tr0ub&3;x9}"], ["-e", f"DB_PASSWORD={R}"]),
        (["bash", "-c", "tool --password {Tr0ub&3;x9}"], ["bash", "-c", f"tool --password {R}"]),
    ],
)
def test_an_mcp_argument_loses_a_secret_in_braces_with_an_ampersand(args: list[str], kept: list[str]) -> None:
    assert redact_args(args) == kept


#: A client's own password flag (`client_passwords`) with the same braces: its simple
#: command was cut at the ``&`` (`client_passwords.SIMPLE_COMMAND_RE` read a
#: `secret_values.BRACED_RUN`, which holds none), so ``{Tr0ub`` was read as the password,
#: a slot cut short, and kept; curl's ``-u`` lost ``{Tr0ub`` and kept ``&3;x9}``.
AMPERSAND_CLIENT_LEAKS = [
    ("mysql -u root -p{Tr0ub&3;x9} app", f"mysql -u root -p{R} app"),
    ("curl -u admin:{Tr0ub&3;x9} https://x.example", f"curl -u admin:{R} https://x.example"),
    ('curl -u "admin:{Tr0ub&3;x9}" https://x.example', f'curl -u "admin:{R}" https://x.example'),
    ("sshpass -p {Tr0ub&3;x9} ssh host", f"sshpass -p {R} ssh host"),
    ("redis-cli -a {Tr0ub&3;x9} ping", f"redis-cli -a {R} ping"),
    ("docker login -u me -p {Tr0ub&3;x9} reg.example", f"docker login -u me -p {R} reg.example"),
]
#: A ``&`` after braces still ends the client's simple command.
AMPERSAND_CLIENT_KEPT = [
    ("curl -u admin:{a;b}&& date -u +%H:%M", f"curl -u admin:{R}&& date -u +%H:%M"),
    ("mysql -u root -p{pw}&& echo done", "mysql -u root -p{pw}&& echo done"),
]


@pytest.mark.parametrize(("text", "kept"), AMPERSAND_CLIENT_LEAKS + AMPERSAND_CLIENT_KEPT)
def test_a_clients_password_in_braces_with_an_ampersand_goes_whole(text: str, kept: str) -> None:
    assert redact_command(text) == kept
    assert redact_command(kept) == kept


@pytest.mark.parametrize(("text", "kept"), AMPERSAND_CLIENT_LEAKS[:2])
def test_prose_reads_a_clients_password_in_braces_with_an_ampersand_whole(text: str, kept: str) -> None:
    # Prose reads the same simple command (`secret_commands.redact_clients`).
    assert redact_prose(text) == kept
