"""Two shapes of a secret in prose that ``items.sqlite`` kept verbatim (seen: the
secrets18 brief's list of what stays): a YAML value on the line after its key, more
indented (``api_key:`` then ``  X``, a plain scalar; or ``  {X;Y}`` in braces), and a
bare passphrase in braces after a secret's name (``password: {correct horse
battery!}``), which prose read only up to its first blank. Both are judged by the
tests every prose value is (`braced_values.literal_or_braced`, `braced_secret` with
``phrase``): a nested mapping, a list, a reference, a placeholder and a template stay.

Then (seen: the secrets20 brief's list, each kept by 34cf3d6a) the values YAML reads
there too: after blank lines, a passphrase in braces or quotes, one word on each of
more lines (a token wrapped to fit), and a quote the key's line opens and a later line
closes (``password: "X`` then ``  more"``, whose first line alone went before, the rest
kept). Prose after a secret's name, no deeper than it or a sentence, stays.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.scrub import scrubbed
from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.model import Node

R = REDACTED
V = "Zyx987Wvu654Tsr321Qpo"

GOES = [
    (f"api_key:\n  {V}\n", f"api_key:\n  {R}\n"),
    ("api_key:\n  {Xk9;2mQ}\nregion: eu", f"api_key:\n  {R}\nregion: eu"),
    (f"```yaml\nconfig:\n  api_key:\n    {V}\n  region: eu\n```", f"```yaml\nconfig:\n  api_key:\n    {R}\n  region: eu\n```"),
    (f"- password:\n    '{V}'\n- port: 80", f"- password:\n    '{R}'\n- port: 80"),
    (f"api_key:  # from the console\n  {V}", f"api_key:  # from the console\n  {R}"),
    (f"api_key:\r\n  {V}\r\nregion: eu\r\n", f"api_key:\r\n  {R}\r\nregion: eu\r\n"),
    ("db_password:\n  hunter2xyz", f"db_password:\n  {R}"),
    # a block scalar under a plain key is read as before
    (f"app:\n  token: |\n    {V}\n  password:\n    {V}\n", f"app:\n  token: |\n    {R}\n  password:\n    {R}\n"),
    ("password: {correct horse battery!}", f"password: {R}"),
    ("Log in with password: {correct horse battery!}.", f"Log in with password: {R}."),
    ("DB_PASSWORD = {correct horse battery staple} then restart", f"DB_PASSWORD = {R} then restart"),
]
#: What YAML reads as the key's value and 34cf3d6a kept, or kept in part.
GOES_TOO = [
    ("password:\n  {correct horse battery!}", f"password:\n  {R}"),
    ("```yaml\npassword:\n  {correct horse battery!}\nport: 80\n```", f"```yaml\npassword:\n  {R}\nport: 80\n```"),
    (f"api_key:\n\n  {V}\n", f"api_key:\n\n  {R}\n"),
    (f"```yaml\napi_key:\n\n\n    {V}\nregion: eu\n```", f"```yaml\napi_key:\n\n\n    {R}\nregion: eu\n```"),
    ("token:\n  abcd1234efgh\n  5678ijkl9012", f"token:\n  {R}"),
    (f"```yaml\ntoken:\n  {V[:10]}\n  {V[10:]}\nregion: eu\n```", f"```yaml\ntoken:\n  {R}\nregion: eu\n```"),
    (f"api_key:\r\n\r\n  {V[:10]}\r\n  {V[10:]}\r\nregion: eu\r\n", f"api_key:\r\n\r\n  {R}\r\nregion: eu\r\n"),
    ('password:\n  "correct horse battery staple"', f'password:\n  "{R}"'),
    ('password: "Xk9s2mQz7Lp\n  more"', f'password: "{R}"'),
    ('password: "correct horse\n  battery staple"\nport: 80', f'password: "{R}"\nport: 80'),
    (f"```yaml\n- password: '{V}\n    more'\n- port: 80\n```", f"```yaml\n- password: '{R}'\n- port: 80\n```"),
    ('password:\n  "Xk9s2mQz7Lp\n  more"', f'password:\n  "{R}"'),
]
STAYS = [
    f"api_key:\n  value: {V}",
    # (``secrets:`` then ``db: V``: a nested map is no value of its key; each of its values
    # is read on its own by the rule for maps named for secrets: test_secret_maps.py)
    f"api_key:\n  - {V}",
    "api_key:\n  ${API_KEY}",
    "api_key:\n  {{ .Values.key }}",
    "api_key:\n  <your-key>",
    "api_key:\n  {password}",
    f"api_key:\n  {{db: {V}}}",
    f"api_key:\n  {V} # a comment",
    "api_key:\n  *default_key",
    f"description:\n  {V}",
    f"api_key:\n{V}",  # no deeper than the key: no value of it
    "password: {your password}",
    "password: {{ db_password }}",
    "password: { user: admin, pass: x }",
    "token: {get_token() or fallback}",
    "theme: {correct horse battery!}",
    "password:\n  {your password}",
    "```yaml\npassword:\n  {{ .Values.pw }}\n```",
    "password:\n  { user: admin, pass: x }",
    f"description:\n\n  {V}",
    "description: >-\n  abcd1234efgh\n  5678ijkl9012\n",
    "Set your token:\n\nThe token is read from the env.",
    "Token:\n\n  Explained below.",
    "- token:\n\n  See the guide for how to get one.\n",
    "Password:\n\n    Ask your admin for it.\n",
    'token: "Use the token from\n  the dashboard"',
    f"api_key:\n  {V}\n  value: x",  # a scalar, then a mapping: no YAML
    f"api_key:\n  {V}\n  - x",
    f"api_key:\n  {V}\n  and a sentence after it",
    "api_key:\n" + "".join(f"  ab{i}cd\n" for i in range(17)),  # more lines than a value takes
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_the_secret_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize(("text", "expected"), GOES_TOO)
def test_the_value_yaml_reads_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_prose(expected) == expected


@pytest.mark.parametrize("text", STAYS)
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_prose(text) == text


def test_repair_redacts_them_in_an_item_an_older_index_holds() -> None:
    text = f"# Deploy\n\n```yaml\napi_key:\n  {V}\n```\n\nThen password: {{correct horse battery!}}.\n"
    old = Node(id="old/skills/deploy", kind="skill", name="deploy", text=text, attrs={"frontmatter": {}})
    clean = scrubbed(old)
    assert clean is not None and V not in clean.text and "horse" not in clean.text
    assert "api_key:" in clean.text and "password: " in clean.text
    assert scrubbed(clean) is None


@pytest.mark.parametrize(
    "text",
    [
        "api_key:\n" * 100_000,
        "".join(f"{' ' * i}k:\n" for i in range(2_000)),
        "password: {" + "a " * 100_000,
        "api_key:\n" + "  x\n" * 100_000,
        "api_key:\n  Zyx987Wvu654Tsr321Qpo\n" * 50_000,
        "k:\n  x\n" * 50_000,
        "k:\n" + "\n" * 200_000,
        "api_key:\n" + "\n" * 200_000 + "  x",
        'api_key: "x\n' + "  y\n" * 100_000,
        'password: "x\n' * 50_000,
        "".join(" " * i + 'password: "x\n' for i in range(2_000)),
        ("password:\n" + "\n" * 50 + "  x\n") * 5_000,
    ],
)
def test_crafted_texts_finish(text: str) -> None:
    assert isinstance(redact_prose(text), str)
