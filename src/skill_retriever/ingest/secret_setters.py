"""Commands that say themselves that a value is a secret, so that it goes whatever its
name (``DEPLOY_SSH``, ``DATABASE_URL``): ``gh secret set NAME --body X`` (``-b X``, its
other flags before or after the name), ``fly secrets set NAME=X`` (``flyctl``) and
``kubectl create secret generic n --from-literal=KEY=X``: `redact_secret_commands`.
Prose (`prose_secrets`) and hook commands (`secrets.redact_command`) both read them;
the caller decides whether a value is a literal secret (a reference or a placeholder
stays). Patterns are possessive and bounded: a crafted line is read in linear time.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from skill_retriever.ingest.secret_values import PROSE_VALUE

__all__ = ["GH_SECRET_RE", "redact_secret_commands"]

#: One of ``gh secret set``'s flags but ``-b`` / ``--body``, with its value (``--repo
#: o/r``, ``-e prod``, ``--env-file=.env``); ``--no-store`` takes none.
_GH_FLAG = r"""[ \t]++-(?!b(?![\w-])|-body(?![\w-]))(?:-no-[\w-]{1,64}+|[\w-]{1,64}+(?:=[^\s;|&`]*+|[ \t]++(?!-)[^\s;|&`]{1,256}+)?+)"""
#: ``gh secret set NAME --body VALUE``: the secret's ``name`` and ``val`` (the value of
#: ``-b`` / ``--body``, after a space or ``=``), other flags around the name.
GH_SECRET_RE = re.compile(
    r"(?<![\w-])gh[ \t]++secret[ \t]++set(?:" + _GH_FLAG + r"){0,8}+[ \t]++(?P<name>(?!-)[^\s;|&`=\"']{1,256}+)"
    r"(?:" + _GH_FLAG + r"){0,8}+[ \t]++(?:--body|-b)(?:[ \t]++|=)(?P<val>(?!-)" + PROSE_VALUE + ")"
)
#: ``fly secrets set`` (``flyctl``) and ``kubectl create secret generic``, up to the
#: end of their simple command, past a backslash that continues it on the next line
#: (runbooks write one ``--from-literal`` to a line); each names and sets secrets only.
_SECRET_COMMAND_RE = re.compile(
    r"(?<![\w-])(?P<cmd>fly(?:ctl)?+[ \t]++secrets[ \t]++set|kubectl[ \t]++create[ \t]++secret[ \t]++generic)"
    r"(?![\w-])(?:[^;|&\n\\]|\\\r?+\n|\\.){0,4096}+"
)
#: ``NAME=VALUE`` of ``fly secrets set`` (a flag's ``--app=x`` is none: a ``-`` precedes it).
_FLY_PAIR_RE = re.compile(r"(?<![\w$.-])(?P<name>[A-Za-z_]\w{0,128}+)=(?P<val>(?!-)" + PROSE_VALUE + ")")
#: ``--from-literal=KEY=VALUE`` of ``kubectl create secret generic``.
_KUBECTL_PAIR_RE = re.compile(
    r"(?<![\w-])--from-literal[= ](?P<name>[^\s=\"']{1,253}+)=(?P<val>(?!-)" + PROSE_VALUE + ")"
)


def redact_secret_commands(line: str, masked: Callable[[re.Match[str]], str]) -> str:
    """``line`` with each value ``gh secret set``, ``fly secrets set`` or ``kubectl
    create secret generic`` sets passed through ``masked`` (a match whose ``name`` and
    ``val`` groups are the secret's), whatever its name."""

    def command(m: re.Match[str]) -> str:
        pairs = _KUBECTL_PAIR_RE if m["cmd"].startswith("kubectl") else _FLY_PAIR_RE
        return pairs.sub(masked, m[0])

    return GH_SECRET_RE.sub(masked, _SECRET_COMMAND_RE.sub(command, line))
