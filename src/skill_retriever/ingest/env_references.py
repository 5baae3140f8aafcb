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
``os.environ.get(KEY)``, ``os.getenv(KEY)``, ``process.env.NAME``,
``process.env[KEY]`` and Ruby's ``ENV[KEY]`` and ``ENV.fetch(KEY)`` (``KEY`` a quoted
name, its quotes escaped or not, as a double-quoted command writes them), and an Actions
expression of a dotted name alone (``${{ secrets.X }}``, ``${{ github.token }}``).
Anything after it that would go on with the expression (``process.env.TOKEN.trim()``,
``os.environ['PW']x7Zq``) leaves the value to the other rules, as before; a read with a
default (``os.getenv('PW', 'X')``: the default may be a literal) is `env_defaults`'.
"""

from __future__ import annotations

import re

__all__ = ["ENV_NAME", "ENV_READ", "QUOTED_ENV_NAME", "env_reference", "env_reference_at"]

#: A variable's name; 128 characters at most, so that a crafted word is read once.
ENV_NAME = r"[A-Za-z_]\w{0,127}+"
#: A quoted name, its quotes escaped or not (``"PW"``, ``'PW'``, ``\\"PW\\"``).
QUOTED_ENV_NAME = r'(?:\\?+"' + ENV_NAME + r'\\?+"|' + r"\\?+'" + ENV_NAME + r"\\?+')"
#: Code that reads a variable: Python's, Node's and Ruby's (`env_defaults` reads a
#: default after one).
ENV_READ = (
    r"(?:os\.environ\[" + QUOTED_ENV_NAME + r"\]"
    r"|os\.environ\.get\(" + QUOTED_ENV_NAME + r"\)"
    r"|os\.getenv\(" + QUOTED_ENV_NAME + r"\)"
    r"|process\.env\.(?>" + ENV_NAME + r")"
    r"|process\.env\[" + QUOTED_ENV_NAME + r"\]"
    r"|ENV\[" + QUOTED_ENV_NAME + r"\]"
    r"|ENV\.fetch\(" + QUOTED_ENV_NAME + r"\))"
)
#: The reads and Actions expressions, each ended where the expression does not go on
#: (no ``.``, ``[``, ``(`` or name character after it).
_ENV_REFERENCE_RE = re.compile(
    r"(?:" + ENV_READ
    + r"|\$\{\{[ \t]*+" + ENV_NAME + r"(?:\." + ENV_NAME + r"){1,8}+[ \t]*+\}\})"
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
