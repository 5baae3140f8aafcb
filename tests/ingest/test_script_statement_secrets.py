"""A secret a script's statement sets (``python -c "import os; api_key = 'X'"``, ``node -e
'const JWT_SECRET = "X"'``, ``os.environ["HF_TOKEN"] = "X"``) goes from a hook's command
and an MCP server's arguments as it goes from prose. The command rule read a spaced
``name = value`` only at a line's or a string's start, so a statement after ``;`` or a
declaration's word kept its value, and a subscript's key was no name at all. These are
the forms the skills of ``../shared/data/skills`` write in their prose
(``os.environ["HF_TOKEN"] = "your_token"``, ``const JWT_SECRET = '...'``), there with a
placeholder or a weak example, which stays; the tests write an invented value.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from code_reads_repo import ingest_code_repo

from skill_retriever.ingest.prose_secrets import redact_prose
from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED
#: An invented secret, shaped as a literal one (letters and digits, 24 characters).
V = "Qm7vT2xKp9LwZ4rN8sYb3HcJ"
#: Statements that set a secret, each as the index keeps it now.
LEAKS = [
    (f'import os; os.environ["HF_TOKEN"] = "{V}"; go()', f'import os; os.environ["HF_TOKEN"] = "{R}"; go()'),
    (f"import os; os.environ['OPENAI_API_KEY'] = '{V}'", f"import os; os.environ['OPENAI_API_KEY'] = '{R}'"),
    (f'const JWT_SECRET = "{V}"; go()', f'const JWT_SECRET = "{R}"; go()'),
    (f'let token = "{V}";', f'let token = "{R}";'),
    (f'x = 1; api_key = "{V}"', f'x = 1; api_key = "{R}"'),
]
#: Statements without a secret: kept as written.
KEPT = [
    'import os; os.environ["HF_TOKEN"] = "your_token"',
    "const JWT_SECRET = process.env.JWT_SECRET; go()",
    'import os; token = os.environ["TOKEN"]',
    'x = 1; password = "password"',
    "const max_tokens = 4096; go()",
    'import os; os.environ["LOG_LEVEL"] = "Qm7vT2xKp9"',
]


def _hook(script: str) -> str:
    """A hook command running ``script``: Node's in single quotes, Python's in double
    quotes, its own double quotes escaped (``\\"X\\"``)."""
    if script.startswith(("const ", "let ")):
        return f"node -e '{script}'"
    return 'python -c "' + script.replace('"', '\\"') + '"'


@pytest.mark.parametrize(("script", "expected"), LEAKS)
def test_a_scripts_secret_goes_from_a_command(script: str, expected: str) -> None:
    assert redact_command(_hook(script)) == _hook(expected)
    assert redact_command(_hook(expected)) == _hook(expected)  # applied twice, nothing more goes
    assert redact_args(["-e", script]) == ["-e", expected]
    assert redact_prose(script) == expected  # as prose already had it


@pytest.mark.parametrize("script", KEPT)
def test_a_script_without_a_secret_stays(script: str) -> None:
    assert redact_command(_hook(script)) == _hook(script)
    assert redact_args(["-e", script]) == ["-e", script]


def test_a_scripts_secret_goes_through_an_ingest(tmp_path: Path) -> None:
    scripts = [script for script, _ in LEAKS] + KEPT
    kept = [script for _, script in LEAKS] + KEPT
    hooks = {f"h{i}": _hook(script) for i, script in enumerate(scripts)}
    args = {f"m{i}": ["-e", script] for i, script in enumerate(scripts)}
    nodes = ingest_code_repo(tmp_path, "Run it.\n", "", hooks, args)
    for i, script in enumerate(kept):
        assert nodes[f"h{i}"].attrs["command"] == _hook(script), scripts[i]
        assert nodes[f"m{i}"].attrs["args"] == ["-e", script], scripts[i]
    stored = " ".join(str(n.to_dict()) for n in nodes.values())
    assert V not in stored
