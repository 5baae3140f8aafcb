"""A secret-looking flag inside the quoted value of another flag: a script a shell runs
(``bash -c "tool --password X"``, ``docker exec web sh -c '... --token X'``). The flag
rule (`secret_flags.redact_flags`) read ``-c`` and its quoted script as one flag and its
value, kept them (``-c`` names no secret), and read on after the script, so no flag in
it was read and the password stayed; a flag in a quoted string no flag takes
(``echo "--token X"``) went (seen: the secrets2 brief). Now the rule reads on after a flag
that names no secret, into its value. Every value here is invented.
"""

from __future__ import annotations

import pytest

from skill_retriever.ingest.secrets import REDACTED, redact_args, redact_command

R = REDACTED

LEAKS = [
    ('bash -c "tool --password Xk9s2mQz7Lp"', f'bash -c "tool --password {R}"'),
    ("bash -c 'tool --token=Xk9s2mQz7Lp'", f"bash -c 'tool --token={R}'"),
    ('bash -c "tool --password {Tr0ub&3;x9}"', f'bash -c "tool --password {R}"'),
    ("bash -c 'tool --password={Tr0ub&3;x9}'", f"bash -c 'tool --password={R}'"),
    ('sh -c "cd app && ./run --api-key Xk9s2mQz7Lp"', f'sh -c "cd app && ./run --api-key {R}"'),
    ("docker exec -it web sh -c 'deploy --token Xk9s2mQz7Lp --region eu'", f"docker exec -it web sh -c 'deploy --token {R} --region eu'"),
    ('ssh -t host "vault login --password=Xk9s2mQz7Lp"', f'ssh -t host "vault login --password={R}"'),
]
#: A flag that names no secret keeps its value, and so does a script with no secret in it
#: or one that passes a reference or a template.
KEPT = [
    'bash -c "tool --format json --verbose"',
    "bash -c 'tool --token \"$TOKEN\"'",
    'sh -c "deploy --api-key ${API_KEY}"',
    "bash -c 'tool --password {password}'",
    'tool --name "a --b c"',
    "tool --format={json;yaml} --output=-",
]


@pytest.mark.parametrize(("text", "kept"), LEAKS)
def test_a_secret_flag_in_a_flags_quoted_script_loses_its_value(text: str, kept: str) -> None:
    assert redact_command(text) == kept
    assert redact_command(kept) == kept


@pytest.mark.parametrize("text", KEPT)
def test_a_script_without_a_secret_flag_value_stays(text: str) -> None:
    assert redact_command(text) == text


def test_an_mcp_command_line_with_a_script_loses_its_value() -> None:
    # An MCP server's ``args`` as one argv: the script is one argument, read as a command.
    assert redact_args(["-c", "tool --password Xk9s2mQz7Lp"]) == ["-c", f"tool --password {R}"]


def test_many_flags_in_a_long_value_read_in_linear_time() -> None:
    # Reading on after a kept flag into its value: a value made of flags is read once.
    text = "tool -a=" + "-a=" * 20000
    assert redact_command(text) == text


#: A sentence that names a secret's flag, in a quoted message: the word after the flag is
#: the sentence's, not a value (read on into quoted values, the rule took it: ``git commit
#: -m "--password is required"`` lost ``is``). A value after ``=``, or any other word, still goes.
SENTENCES = [
    ('git commit -m "--password is required"', 'git commit -m "--password is required"'),
    ('echo "use --token to pass it"', 'echo "use --token to pass it"'),
    ('printf "set --api-key or the call fails"', 'printf "set --api-key or the call fails"'),
    ('tool --password=to', f"tool --password={R}"),
    ('git commit -m "--password hunter2xyz is wrong"', f'git commit -m "--password {R} is wrong"'),
]


@pytest.mark.parametrize(("text", "kept"), SENTENCES)
def test_a_word_of_a_sentence_after_a_secrets_flag_stays(text: str, kept: str) -> None:
    assert redact_command(text) == kept
