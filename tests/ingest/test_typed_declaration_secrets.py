"""A secret a declaration gives with its type or in a language's own form, which the prose
assignment rule did not read: Go's ``var apiKey string = "X"``, Rust's ``const API_KEY:
&str = "X"``, C's ``#define API_KEY "X"`` and make's ``API_KEY ?= X``. Each kept its value
before (a probe of code shapes this session). Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED

R = REDACTED
KEY = "Zq8mTr2vLpxQ9wertyuiop"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f'var apiKey string = "{KEY}"', f'var apiKey string = "{R}"'),
        (f'const API_KEY: &str = "{KEY}";', f'const API_KEY: &str = "{R}";'),
        (f"static TOKEN: &'static str = \"{KEY}\";", f"static TOKEN: &'static str = \"{R}\";"),
        (f'#define API_KEY "{KEY}"', f'#define API_KEY "{R}"'),
        (f"API_KEY ?= {KEY}", f"API_KEY ?= {R}"),
    ],
)
def test_prose_takes_it(text: str, expected: str) -> None:
    assert redact_prose(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "#define MAX_TOKENS 4096",
        "#define API_KEY_LEN 32",
        "var token string",
        'var token string = os.Getenv("TOKEN")',
        "CFLAGS ?= -O2",
        "TOKEN ?= $(shell cat .token)",
        "fn key(&self) -> &str",
        'const KEY: &str = "your-key";',
    ],
)
def test_what_stays(text: str) -> None:
    assert redact_prose(text) == text
