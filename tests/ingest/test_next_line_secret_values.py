"""Two shapes of a secret in prose that ``items.sqlite`` kept verbatim (seen: the
secrets18 brief's list of what stays): a YAML value on the line after its key, more
indented (``api_key:`` then ``  X``, a plain scalar; or ``  {X;Y}`` in braces), and a
bare passphrase in braces after a secret's name (``password: {correct horse
battery!}``), which prose read only up to its first blank. Both are judged by the
tests every prose value is (`braced_values.literal_or_braced`, `braced_secret` with
``phrase``): a nested mapping, a list, a reference, a placeholder and a template stay.
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
STAYS = [
    f"api_key:\n  value: {V}",
    f"secrets:\n  db: {V}\n  api: {V}",
    f"api_key:\n  - {V}",
    "api_key:\n  ${API_KEY}",
    "api_key:\n  {{ .Values.key }}",
    "api_key:\n  <your-key>",
    "api_key:\n  {password}",
    f"api_key:\n  {{db: {V}}}",
    f"api_key:\n\n  {V}",  # a blank line between: no longer the key's line
    f"api_key:\n  {V}\n  {V}",  # a value of more lines
    f"api_key:\n  {V} # a comment",
    "api_key:\n  *default_key",
    f"description:\n  {V}",
    f"api_key:\n{V}",  # no deeper than the key: no value of it
    "password: {your password}",
    "password: {{ db_password }}",
    "password: { user: admin, pass: x }",
    "token: {get_token() or fallback}",
    "theme: {correct horse battery!}",
]


@pytest.mark.parametrize(("text", "expected"), GOES)
def test_the_secret_goes(text: str, expected: str) -> None:
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
    ],
)
def test_crafted_texts_finish(text: str) -> None:
    assert isinstance(redact_prose(text), str)
