"""A config file's setting written with a spaced ``=`` (``password = X`` of a ``.pypirc``,
``client_secret = "X"`` of a Terraform file), as a hook's command writes the file (a
heredoc, ``echo``, ``printf``), loses its value in the command rule as it does in prose: the
assignment rule read only shell's ``NAME=X``, so the value stayed. Such a line is no
shell (``NAME = x`` would run ``NAME``): it is judged as prose judges an assignment, so
code (``api_key = os.environ["X"]``) and a placeholder stay."""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_command

R = REDACTED
PW = "Tr0ub4dor3Xq"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            "cat > ~/.pypirc <<EOF\n[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcCJDk0Y2Q\nEOF",
            f"cat > ~/.pypirc <<EOF\n[pypi]\nusername = __token__\npassword = {R}\nEOF",
        ),
        (
            f'cat > main.tf <<EOF\nprovider "azurerm" {{\n  client_secret = "{PW}"\n}}\nEOF',
            f'cat > main.tf <<EOF\nprovider "azurerm" {{\n  client_secret = "{R}"\n}}\nEOF',
        ),
        (f"  db.password   =   {PW}", f"  db.password   =   {R}"),
        (f"password = pa&{PW}", f"password = {R}"),  # a file's value: ``&`` is the password's
        ('password = "correct horse battery staple"', f'password = "{R}"'),
        # the line written by echo or printf, quoted or not, or after a printf's \n
        (f'echo "password = {PW}" >> ~/.pypirc', f'echo "password = {R}" >> ~/.pypirc'),
        (f"echo password = {PW} >> ~/.pypirc", f"echo password = {R} >> ~/.pypirc"),
        (
            f'printf "[pypi]\\nusername = __token__\\npassword = {PW}\\n" > ~/.pypirc',
            f'printf "[pypi]\\nusername = __token__\\npassword = {R}\\n" > ~/.pypirc',
        ),
    ],
)
def test_a_spaced_setting_loses_its_secret(command: str, expected: str) -> None:
    assert redact_command(command) == expected
    assert redact_command(expected) == expected


@pytest.mark.parametrize(
    "command",
    [
        "cat > ~/.pypirc <<EOF\n[pypi]\nusername = __token__\npassword = ${PYPI_TOKEN}\nEOF",
        'python - <<EOF\napi_key = os.environ["API_KEY"]\nEOF',
        "python - <<EOF\ntoken = get_token()\nEOF",
        'client_secret = "<your-client-secret>"',
        "max_tokens = 4096",
        "auth_type = bearer",
        'if [ "$AUTH" = "basic" ]; then echo ok; fi',
        'test "token" = "$kind"',
    ],
)
def test_a_spaced_line_without_a_secret_stays(command: str) -> None:
    assert redact_command(command) == command
