"""A keyword argument of a call in code that a command holds, whose value is a name:
`named_argument`.

A hook or an MCP server runs code written into its command (``python -c "...
OAuth2Session(client_id, token=token, auto_refresh_url=url)"``, a heredoc's script). A
call's ``token=token`` there passes a variable, as ``os.environ[...]`` or ``$TOKEN``
would: a reference, not a secret, which the prose rules keep already. Read as a shell
assignment, the value ran on through the comma and went (``token=[redacted]
auto_refresh_url=url``).

Shell has no such syntax: ``NAME=value`` in a command is an assignment or an argument,
and ``word(`` opens no argument list (``f()`` defines a function, ``$(`` substitutes a
command). So an assignment is read as a call's keyword argument only after ``(`` or
``,`` inside the parentheses of ``name(``, and its value as a name only when it is a bare
(dotted) identifier that ends at ``,`` or ``)``. A literal in a shell command
(``--password hunter2``, ``PASSWORD=password ./run``, helm's ``--set
auth.password=password,image.tag=v1``, ``mount -o password=password,uid=0``) is none of
these and still goes; so does a name that reads as a literal secret (``password=hunter2``,
`braced_values.literal_or_braced`), as prose redacts it, though only the name goes then and
the comma after it stays.
"""

from __future__ import annotations

import re

__all__ = ["named_argument"]

#: A bare (dotted) identifier, ``token``, ``self.secret``, or an item of one by a
#: quoted key or a name (``os.environ["API_TOKEN"]``, ``cfg['db']['password']``), that
#: ends at ``,`` or ``)`` (blanks and line breaks between: a formatter puts each argument
#: on its own line). A key is 128 characters at most: each assignment in a long open
#: quote would read on to its end.
_NAME_VALUE_RE = re.compile(
    r"""[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)*+(?:\[(?:"[^"\\\n]{0,128}+"|'[^'\\\n]{0,128}+'|\w++)\])*+(?=\s*+[,)])"""
)
#: How far back an argument's ``(`` is looked for: a call's argument list in a script
#: is seldom longer, and the bound keeps the rule linear in the text's length.
_WINDOW = 512
_CLOSING = {")": "(", "]": "[", "}": "{"}
_BRACKET_RE = re.compile(r"[()\[\]{}]")


def named_argument(text: str, name_start: int, value_start: int) -> re.Match[str] | None:
    """The bare name (`_NAME_VALUE_RE`) that is the value at ``value_start`` of the
    assignment whose name starts at ``name_start``, when that assignment is a keyword
    argument of a call (`_in_call`); None otherwise."""
    value = _NAME_VALUE_RE.match(text, value_start)
    if value is None or not _in_call(text, name_start):
        return None
    return value


def _in_call(text: str, start: int) -> bool:
    """Whether ``start`` of ``text`` begins an argument of a call: after ``(`` or ``,``
    (blanks between), with the nearest unclosed bracket before it a ``(`` right after a
    name (``OAuth2Session(``, ``session.post(``), within `_WINDOW` characters."""
    before = text[max(0, start - _WINDOW) : start]
    head = before.rstrip()
    if not head.endswith(("(", ",")):
        return False
    opened: list[str] = []
    for bracket in reversed(list(_BRACKET_RE.finditer(head))):
        char, at = bracket[0], bracket.start()
        if char in _CLOSING:
            opened.append(_CLOSING[char])
        elif char in "([{":
            if opened:
                if opened.pop() != char:
                    return False  # brackets that do not pair are no code this reads
                continue
            return char == "(" and at > 0 and (head[at - 1].isalnum() or head[at - 1] == "_")
    return False
