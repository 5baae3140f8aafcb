"""A value that is code reading a secret from where it lives, not a secret:
`env_reference_at`.

A hook's ``python -c '...'`` or ``node -e '...'``, an MCP server's script argument and a
heredoc set a secret-named variable from the environment (``password=os.environ['PW']``,
``token=process.env.TOKEN``). The command rule read such a value as a shell word, which
ends at a quote, so the index showed ``password=[redacted]'PW']`` (or ``token=[redacted]``):
the code lost, and nothing hidden, for the value names where the secret lives, as
``$PW`` does (kept as a reference, `secret_values.is_reference`). So did a GitHub Actions
expression in single quotes (``echo 'TOKEN=${{ secrets.TOKEN }}'``: Actions fills it in
before the shell runs, so the quotes make it no literal), which lost its ``${{``. The
prose rules keep all of these already.

Only a value that is exactly such a read is kept: ``os.environ[KEY]``,
``os.environ.get(KEY)``, ``os.getenv(KEY)``, ``process.env.NAME`` and
``process.env[KEY]`` (``KEY`` a quoted name, its quotes escaped or not, as a
double-quoted command writes them), and an Actions expression of a dotted name alone
(``${{ secrets.X }}``, ``${{ github.token }}``). Anything after it that would go on with
the expression (``process.env.TOKEN.trim()``, ``os.environ['PW']x7Zq``) or a default
(``os.getenv('PW', 'X')``: the default may be a literal) leaves the value to the other
rules, as before.
"""

from __future__ import annotations

import re

__all__ = ["env_reference", "env_reference_at"]

#: A variable's name; 128 characters at most, so that a crafted word is read once.
_NAME = r"[A-Za-z_]\w{0,127}+"
#: A quoted name, its quotes escaped or not (``"PW"``, ``'PW'``, ``\\"PW\\"``).
_KEY = r'(?:\\?+"' + _NAME + r'\\?+"|' + r"\\?+'" + _NAME + r"\\?+')"
#: The reads, each ended where the expression does not go on (no ``.``, ``[``, ``(``
#: or name character after it).
_ENV_REFERENCE_RE = re.compile(
    r"(?:os\.environ\[" + _KEY + r"\]"
    r"|os\.environ\.get\(" + _KEY + r"\)"
    r"|os\.getenv\(" + _KEY + r"\)"
    r"|process\.env\.(?>" + _NAME + r")"
    r"|process\.env\[" + _KEY + r"\]"
    r"|\$\{\{[ \t]*+" + _NAME + r"(?:\." + _NAME + r"){1,8}+[ \t]*+\}\})"
    r"(?![\w.\[(])"
)


def env_reference_at(text: str, pos: int) -> re.Match[str] | None:
    """The environment read (`_ENV_REFERENCE_RE`) that starts at ``pos`` of ``text``
    and is the whole expression there; None otherwise."""
    return _ENV_REFERENCE_RE.match(text, pos)


def env_reference(value: str) -> bool:
    """Whether ``value`` is an environment read and nothing else (an MCP argument's
    ``--password=os.environ['PW']`` value)."""
    m = _ENV_REFERENCE_RE.match(value)
    return m is not None and m.end() == len(value)
