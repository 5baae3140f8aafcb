"""A call's name after a secret-looking name's ``=`` (``auth=HTTPBasicAuth("user", "X")``
in a ``python -c '...'`` hook or a heredoc's script) is code, not the value: the
assignment rule read the word up to ``(`` as the value and redacted it, so the index
showed ``auth=[redacted]("user", "[redacted]")``, the code lost with the password. Only
the password goes; in shell ``NAME=word(`` is no assignment, so such a word is code, but
a word that reads as a literal secret before ``(`` still goes."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "s3cr3tPassw0rd"


@pytest.mark.parametrize(
    "code",
    [
        f'r = requests.get(url, auth=HTTPBasicAuth("user", "{PW}"))',
        f"r = requests.get(url, auth=HTTPDigestAuth('user', '{PW}'))",
        f'httpx.get(url, auth=httpx.BasicAuth("user", "{PW}"))',
        f'session = aiohttp.ClientSession(auth=aiohttp.BasicAuth("user", "{PW}"))',
    ],
)
def test_only_the_password_goes_from_a_basic_auth_call(code: str) -> None:
    inline = f"python -c '{code}'" if "'" not in code else f'python -c "{code}"'
    assert redact_command(inline) == inline.replace(PW, R)
    heredoc = f"python - <<'PY'\nimport requests\n{code}\nPY"
    assert redact_command(heredoc) == heredoc.replace(PW, R)


@pytest.mark.parametrize(
    "command",
    [
        "python -c 'import api; api.call(auth=get_auth())'",
        'python -c "client = Client(token=os.environ.get(\'API_TOKEN\'))"',
        "python - <<'PY'\nclient = Client(api_key=load_key(path), secret=vault.read('x'))\nPY",
    ],
)
def test_a_call_under_a_secret_name_stays(command: str) -> None:
    assert redact_command(command) == command


def test_a_literal_secret_before_a_parenthesis_still_goes() -> None:
    assert redact_command("cat > .env <<EOF\nPASSWORD=Tr0ub4dor3Xq(x)\nEOF") == f"cat > .env <<EOF\nPASSWORD={R}(x)\nEOF"
    assert redact_command(f"API_TOKEN={PW} ./run") == f"API_TOKEN={R} ./run"
