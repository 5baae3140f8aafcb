"""How prose reads one value after its name: `PROSE_VALUE`, and `PROSE_ASSIGNED_VALUE`
for an assignment's (``NAME=value``); `prose_secrets` and the rules it asks
(`secret_commands`, `secret_setters`, `secret_blocks`) read with these, and judge what
they read as a secret or not.

A value in prose is one word as `secret_values.SHELL_VALUE` reads a shell word: quoted,
bare, or a quote left open; on one line. Prose is no shell, so a ``&`` is part of a
password (``Tr0ub4dor&3``), not an operator, and it is one in braces too
(``--password={Tr0ub&3;x9}``): a value in braces that holds a ``;`` or a ``&`` is read
whole, as the command rules read one after a secret's name (`named_values.NAMED_BRACED_RUN`,
the one pattern of both), and judged whole (`braced_values.literal_or_braced`). Read as
a shell word, ``{Tr0ub&3`` was judged up to its ``;`` (code, by its brace) and the
password stayed.
"""

from __future__ import annotations

from skill_retriever.ingest.named_values import NAMED_BRACED_RUN

__all__ = ["PROSE_ASSIGNED_VALUE", "PROSE_VALUE"]

#: A value in prose (see the module docstring): a `NAMED_BRACED_RUN` that starts it read
#: whole (``--token {Xk9;2mQ}``). At most 256 characters after the braces (a longer word
#: is none: `prose_secrets` looks again inside a value, and the bound keeps that linear).
PROSE_VALUE = (
    r"""(?:"(?:[^"\\\n]|\\.){0,256}+"|'[^'\n]{0,256}+'|(?=[^\s"'`;|()<>])(?:""" + NAMED_BRACED_RUN + r""")?+"""
    r"""[^\s"'`;|()<>]{0,256}+(?![^\s"'`;|()<>])|["'][^\s"']{0,256}+)"""
)
#: `PROSE_VALUE` for an assignment's value (``NAME=value``): a bare value ends at a
#: ``printf`` escape (``\n``, ``\r``, ``\t``: `secret_values.ESCAPE_BEFORE`), which took
#: the lines after it with the value (``printf 'API_KEY=X\nHOST=db\n' >> .env``).
PROSE_ASSIGNED_VALUE = (
    r"""(?:"(?:[^"\\\n]|\\.){0,256}+"|'[^'\n]{0,256}+'|(?=[^\s"'`;|()<>\\]|\\(?![nrt]))(?:""" + NAMED_BRACED_RUN + r""")?+"""
    r"""(?:[^\s"'`;|()<>\\]|\\(?![nrt])){0,256}+(?![^\s"'`;|()<>\\]|\\(?![nrt]))|["'][^\s"']{0,256}+)"""
)
