"""Tokens of well-known formats beyond GitHub, OpenAI, Stripe, Slack bot, GitLab, AWS and
Google are secrets wherever they stand, with nothing naming them: Hugging Face, npm,
PyPI, SendGrid, DigitalOcean, Databricks, Shopify, Grafana, Slack app, Stripe webhook,
Google OAuth, age, Linear, Groq, Replicate, Perplexity, Tavily, Notion and Telegram bot
tokens. Each had reached ``items.sqlite`` verbatim from a SKILL.md line such as ``use
hf_... to download`` (seen indexing a skills repo quoting them; only a name such as
``HF_TOKEN=`` before one took it out). Words sharing a prefix (``hf_token``,
``npm_output``, ``whsec_your_webhook_secret``) stay as written: none of those in
../shared/data/skills is a token.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command
from skill_retriever.ingest.skills import ingest_skill_repo

TOKENS = [
    "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567",
    "npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
    "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmFiY2RlZmFiY2RlZmFiY2RlZmFiY2RlZg",
    "SG.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefg",
    "dop_v1_" + "0123456789abcdef" * 4,
    "dapi0123456789abcdef0123456789abcdef",
    "shpat_0123456789abcdef0123456789abcdef",
    "glsa_AbCdEfGhIjKlMnOpQrStUvWxYz012345_abcdef12",
    "xapp-1-A0123456789-1234567890123-" + "abcdef0123456789" * 4,
    "whsec_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "ya29.a0AfH6SMBxAbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "AGE-SECRET-KEY-1" + "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" + "QPZRY9X8GF2TVDW0S3JN54KHCE",
    "lin_api_" + "AbCdEfGhIj" * 4,
    "gsk_" + "AbCdEfGhIjKl" * 4 + "AbCd",
    "r8_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789a",
    "pplx-" + "0123456789abcdef" * 3,
    "tvly-" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "ntn_" + "12345678901" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345678",
    "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1",
]
#: Words that start as a token does but are names in real skills (../shared/data/skills).
KEPT = [
    "hf_token",
    "hf_assets_path",
    "npm_output.stdout",
    "npm_translate_lock",
    "whsec_your_webhook_secret",
    "pypi-simple",
    "SG.get_data",
    "dapi-client",
    "10:30:00",
    "1234567890:notatoken",
]


@pytest.mark.parametrize("token", TOKENS)
def test_a_token_is_redacted_in_prose_commands_and_arguments(token: str) -> None:
    assert redact_prose(f"use {token} to download") == f"use {REDACTED} to download"
    assert redact_prose(f"`{token}`.") == f"`{REDACTED}`."
    assert redact_command(f"tool upload {token}") == f"tool upload {REDACTED}"
    assert redact_args(["serve", token]) == ["serve", REDACTED]


@pytest.mark.parametrize("word", KEPT)
def test_a_word_that_only_shares_a_prefix_is_kept(word: str) -> None:
    text = f"read {word} first"
    assert redact_prose(text) == text
    assert redact_command(text) == text


def test_a_skill_quoting_tokens_is_indexed_without_them(tmp_path: Path) -> None:
    body = "\n".join(f"- {t} (example)" for t in TOKENS)
    write_file(tmp_path, "skills/tokens/SKILL.md", f"---\nname: tokens\ndescription: uses {TOKENS[0]}\n---\n{body}\n")
    (node,) = ingest_skill_repo(tmp_path).nodes
    stored = f"{node.description}\n{node.text}\n{node.attrs}"
    assert [t for t in TOKENS if t in stored] == []
    assert node.text.count(REDACTED) == len(TOKENS)


def test_a_long_run_after_a_prefix_finishes() -> None:
    text = "hf_" + "a" * 200_000 + "_ npm_" + "b" * 200_000 + "- SG." + "c" * 200_000
    assert redact_prose(text) == text
