"""A URL's placeholder is kept, a real-looking secret in the same place still goes.

The kept lines are the ones real skills write (../shared/data/skills): trailofbits'
firebase-apk-scanner (``?key=API_KEY``), the pentest skills' hydra and Burp Intruder
examples (``pass=^PASS^:Invalid``, ``password=§password§``), bright-data-best-practices
(``wss://${AUTH}@brd.superproxy.io``), a deployment command's Slack webhook
(``YOUR/SLACK/WEBHOOK``) and venue-templates' NSF link (``?ods_key=pappg``).
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secret_formats import REDACTED as R
from skill_retriever.ingest.secret_urls import redact_urls
from skill_retriever.ingest.secret_values import is_placeholder
from skill_retriever.ingest.secrets import redact_command

PLACEHOLDERS = [
    "API_KEY", "YOUR_TOKEN", "DB_PASSWORD_2", "TOKEN", "PASSWORD", "APIKEY",
    "${AUTH}", "${api_key}", "${{ secrets.API_KEY }}", "$API_KEY", "%API_KEY%",
    "{token}", "{{ token }}", "<token>", "^PASS^", "^USER64^", "§password§", "FUZZ",
    "^PASS^:Invalid", "^PASS^:F=incorrect",
    "xxx", "***", "...", "'API_KEY'",
]
#: Values a secret may be: upper-case random (an AWS key id, upper-case hex), a password
#: that starts with ``$`` or ``%``, lower-case ``password`` (a real, weak one), a lone
#: upper-case word that names no secret.
REAL_LOOKING = [
    "AKIAIOSFODNN7EXAMPLE", "9F86D081884C7D659A2FEAA0C55AD015", "ABCDEF0123456789ABCDEF0123456789",
    "ABCDEFGHIJKLMNOPQRSTUVWX", "QWERTYUIOPASDFGHJKLZ_X", "$ecretP4ss", "$ecret", "%Pa55word%", "{Secr3t",
    "password", "token", "HUNTER", "K", "^pass^x", "9f86d081884c7d659a2feaa0c55ad015",
]


@pytest.mark.parametrize("value", PLACEHOLDERS)
def test_placeholders_read_as_placeholders(value: str) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize("value", REAL_LOOKING)
def test_real_looking_values_are_no_placeholder(value: str) -> None:
    assert not is_placeholder(value)


KEPT_URLS = [
    "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=API_KEY",
    "https://api.example.com/v1?token=YOUR_TOKEN&api_key=${API_KEY}",
    "https://api.example.com/v1?token=$TOKEN&key=%API_KEY%",
    "https://api.example.com/v1?token={token}&secret=<secret>",
    "https://target.example/?password=^PASS^&token=FUZZ",
    "wss://${AUTH}@brd.superproxy.io:9222",
    "wss://{AUTH}@brd.superproxy.io:9222",
    "https://$USER:$PASS@host.example/x",
    "https://hooks.slack.com/services/YOUR/SLACK/WEBHOOK",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "https://www.nsf.gov/publications/pub_summ.jsp?ods_key=pappg",
    "https://db.example/items?sort_key=name",
]


@pytest.mark.parametrize("url", KEPT_URLS)
def test_placeholders_in_urls_are_kept(url: str) -> None:
    assert redact_urls(url) == url
    assert redact_prose(f"Call `{url}` first.") == f"Call `{url}` first."
    assert redact_command(f"curl '{url}'") == f"curl '{url}'"


@pytest.mark.parametrize(
    "line",
    [
        'hydra -l admin -P passwords.txt 192.168.1.1 http-post-form "/login:user=^USER^&pass=^PASS^:Invalid"',
        '"/login:username=^USER^&password=^PASS^:Invalid credentials"',
        "username=§admin§&password=§password§",
    ],
)
def test_tool_marks_in_a_security_skill_are_kept(line: str) -> None:
    # The whole text holds a URL, so the query rule reads every ``&name=value`` in it.
    text = f"See https://github.com/vanhauser-thc/thc-hydra.\n\n{line}\n"
    assert redact_prose(text) == text
    # A hook's command reads ``&password=^PASS^:Invalid`` as an assignment: the same
    # placeholder test (`is_placeholder`) keeps it there.
    assert redact_command(line) == line


REDACTED_URLS = [
    ("https://x.example/?key=AKIAIOSFODNN7EXAMPLE", f"https://x.example/?key={R}"),
    ("https://x.example/?api_key=9F86D081884C7D659A2FEAA0C55AD015", f"https://x.example/?api_key={R}"),
    ("https://x.example/?token=9f86d081884c7d659a2feaa0c55ad015", f"https://x.example/?token={R}"),
    ("https://x.example/?token=ABCDEFGHIJKLMNOPQRSTUVWX", f"https://x.example/?token={R}"),
    ("https://x.example/?pwd=%Pa55word%", f"https://x.example/?pwd={R}"),
    ("https://AKIAIOSFODNN7EXAMPLE@x.example/", f"https://{R}@x.example/"),
    ("https://admin:ABCDEF0123456789ABCDEF0123456789@x.example/", f"https://{R}@x.example/"),
    # A record's key name, but a value with digits or mixed case could be a credential.
    ("https://x.example/?sort_key=a1B2c3D4e5F6g7H8", f"https://x.example/?sort_key={R}"),
    ("https://x.example/?user_key=0123456789abcdef0123456789abcdef", f"https://x.example/?user_key={R}"),
    # A bare ``key`` or a secret kind of key takes even a lower-case word.
    ("https://x.example/?key=pappg", f"https://x.example/?key={R}"),
    ("https://x.example/?api_key=abcdefgh&authkey=abcdefgh", f"https://x.example/?api_key={R}&authkey={R}"),
    ("https://x.example/?ods_token=pappg", f"https://x.example/?ods_token={R}"),
    (
        "https://hooks.slack.com/services/T024BE7LD/B01ABC23DEF/abcdEFGH1234ijklMNOP5678",
        f"https://hooks.slack.com/services/{R}",
    ),
    ("https://hooks.slack.com/services/YOUR/SLACK/abcdEFGH1234", f"https://hooks.slack.com/services/{R}"),
    ("https://hooks.slack.com/services/T0/B0/XYZ", f"https://hooks.slack.com/services/{R}"),
    ("https://hooks.slack.com/services/T00000000/B00000000/ABCDEFGHIJKL", f"https://hooks.slack.com/services/{R}"),
]


@pytest.mark.parametrize(("url", "expected"), REDACTED_URLS)
def test_real_looking_values_in_urls_still_go(url: str, expected: str) -> None:
    assert redact_urls(url) == expected
    assert redact_prose(f"Call {url} first.") == f"Call {expected} first."
    assert redact_command(f"curl '{url}'") == f"curl '{expected}'"


def test_a_password_that_starts_with_a_dollar_goes_in_prose() -> None:
    # In shell ``$ecretP4ss`` is a variable (`redact_command` keeps references); prose
    # keeps only ``${X}`` and an upper-case ``$NAME`` as one.
    url = "https://x.example/?password=$ecretP4ss"
    assert redact_urls(url) == f"https://x.example/?password={R}"
    assert redact_prose(f"Call {url} first.") == f"Call https://x.example/?password={R} first."


def test_a_real_password_after_a_hydra_mark_still_goes() -> None:
    text = "https://x.example/login?user=^USER^&pass=hunter2xyz9:Invalid"
    assert redact_urls(text) == f"https://x.example/login?user=^USER^&pass={R}"


#: The shell assignment rule reads ``&name=value`` in a command (``-d "a=1&token=X"``)
#: and takes the URL rule's word on a record's key (`secret_values.record_key`); so do
#: the flag rule (``--sort-key name``) and the JSON-pair rule (``"sort_key": "name"``).
COMMAND_RECORD_KEYS_KEPT = [
    "curl 'https://x/?a=1&ods_key=pappg'",
    "curl https://x.example/items?a=1&sort_key=name",
    'curl -d "a=1&sort_key=name" https://x.example',
    "SORT_KEY=name ./list.sh",
    "ods_key=pappg ./fetch.sh",
    # The flag rule and the JSON-pair rule take the same word on it.
    "mytool list --sort-key name",
    "mytool list --sort-key=name --partition-key 'region'",
    "aws dynamodb query --key-condition-expression expr",
    """echo '{"sort_key": "name"}' | jq .""",
    """curl -d '{"partition_key": "region", "cache_key": "user"}' https://x.example""",
]
COMMAND_RECORD_KEYS_REDACTED = [
    ("curl 'https://x/?a=1&ods_key=Pappg1'", f"curl 'https://x/?a=1&ods_key={R}'"),
    ("curl 'https://x/?a=1&key=pappg'", f"curl 'https://x/?a=1&key={R}'"),
    ('curl -d "a=1&api_key=abcdefgh" x', f'curl -d "a=1&api_key={R}" x'),
    ("STRIPE_KEY=abcdefgh ./pay.sh", f"STRIPE_KEY={R} ./pay.sh"),
    ("ods_token=pappg ./fetch.sh", f"ods_token={R} ./fetch.sh"),
    ("mytool --key pappg", f"mytool --key {R}"),
    ("mytool --api-key abcdefgh", f"mytool --api-key {R}"),
    ("mytool --sort-key Name1x", f"mytool --sort-key {R}"),
    ("""echo '{"api_key": "abcdefgh"}'""", f"""echo '{{"api_key": "{R}"}}'"""),
    ("""echo '{"key": "pappg"}'""", f"""echo '{{"key": "{R}"}}'"""),
    ("""echo '{"sort_token": "name"}'""", f"""echo '{{"sort_token": "{R}"}}'"""),
]


@pytest.mark.parametrize("command", COMMAND_RECORD_KEYS_KEPT)
def test_a_record_key_is_kept_by_the_shell_assignment_rule_as_by_the_url_rule(command: str) -> None:
    assert redact_command(command) == command
    assert redact_prose(command) == command


@pytest.mark.parametrize(("command", "expected"), COMMAND_RECORD_KEYS_REDACTED)
def test_a_secret_key_still_goes_from_a_command(command: str, expected: str) -> None:
    assert redact_command(command) == expected


def test_one_record_key_rule() -> None:
    from skill_retriever.ingest.secret_values import record_key

    assert record_key("ods_key", "pappg") and record_key("SORT_KEY", '"name"')
    assert not record_key("key", "pappg") and not record_key("api_key", "pappg")
    assert not record_key("ods_key", "pappg1") and not record_key("ods_token", "pappg")
