"""A password passed in code as basic auth's second value (requests' ``auth=("user",
"X")``, ``HTTPBasicAuth("user", "X")``, aiohttp's and httpx's ``BasicAuth("user", "X")``)
is redacted in prose and in a hook's command: no rule read it (no name says the second
value is a password), so it stayed in a runbook's snippet and a ``python -c`` hook. The
user name stays; code (``os.environ["X"]``), a reference and a placeholder stay."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Tr0ub4dor3Xq"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f'requests.get(url, auth=("deploy", "{PW}"))', f'requests.get(url, auth=("deploy", "{R}"))'),
        (f"r = requests.post(url, auth = ('deploy','{PW}'))", f"r = requests.post(url, auth = ('deploy','{R}'))"),
        (f'session.auth = ("deploy", "{PW}")', f'session.auth = ("deploy", "{R}")'),
        (f'basic = HTTPBasicAuth("deploy", "{PW}")', f'basic = HTTPBasicAuth("deploy", "{R}")'),
        (f'digest = requests.auth.HTTPDigestAuth("deploy", "{PW}")', f'digest = requests.auth.HTTPDigestAuth("deploy", "{R}")'),
        (f'aiohttp.BasicAuth("deploy", "{PW}")', f'aiohttp.BasicAuth("deploy", "{R}")'),
        (f'httpx.BasicAuth("deploy", "{PW}")', f'httpx.BasicAuth("deploy", "{R}")'),
    ],
)
def test_a_basic_auth_password_in_code_goes(text: str, expected: str) -> None:
    assert redact_prose(text) == expected
    assert redact_command(text) == expected
    script = f"python - <<'EOF'\nimport requests\n{text}\nEOF"  # a hook's script
    assert redact_command(script) == script.replace(PW, R)


@pytest.mark.parametrize(
    "text",
    [
        'requests.get(url, auth=("deploy", os.environ["API_PASSWORD"]))',
        "requests.get(url, auth=(user, password))",
        'requests.get(url, auth=("deploy", "<your-password>"))',
        'requests.get(url, auth=("deploy", ""))',
        'HTTPBasicAuth("deploy", "${API_PASSWORD}")',
        'requests.get(url, auth=("user", "pass"))',
    ],
)
def test_basic_auth_without_a_literal_password_stays(text: str) -> None:
    assert redact_prose(text) == text
    if "pass\"" not in text:  # the command rule takes any literal: ``"pass"`` goes there
        assert redact_command(text) == text
