"""How the command rules read the value right after a secret's name: `NAMED_VALUE` (a
flag's, ``--password X``, ``--token=X``; a setter's, ``git config github.token X``) and
`NAMED_ASSIGNED_VALUE` (``PASSWORD=X``, ``-e "DB_PASSWORD=X"``).

Each is its shell word as `secret_values.SHELL_VALUE` (`SHELL_ASSIGNED_VALUE`) reads it,
but for a word in braces with a ``;`` or a ``&`` in it and no blank
(`NAMED_BRACED_RUN`: ``{Tr0ub&3;x9}``, ``{Xk9s2&mQz7Lp}``), which is read whole. A
`secret_values.BRACED_RUN` holds no ``&`` (an operator of the shell), so the rules read
``{Tr0ub`` of ``--password={Tr0ub&3;x9}``, judged it a template's slot cut short, and the
password stayed. In quotes (``"--password={Tr0ub&3;x9}"``, ``bash -c "tool --password
{Tr0ub&3;x9}"``) a ``&`` is a character of the word. Unquoted, the shell would run ``tool
--password={Tr0ub`` in the background; but braces with no blank in them are no brace
group (``{ cmd; }`` needs blanks), so the run is most likely a password written out, and
reading it whole can only redact more of what stands under a secret's name.

So do a client's password flags (`client_passwords`: ``mysql -p{Tr0ub&3;x9}``, ``curl -u
admin:{Tr0ub&3;x9}``), and the simple command such a password stands in is not cut at its
``&``. Only a value after a name reads so: a URL's query value (`secret_urls`) still reads a
`secret_values.BRACED_RUN`, so that a ``&`` after braces starts the next parameter
(``?state={a;b}&token=X``: the token still goes), and a name that is no secret's keeps its
value whatever it holds.
"""

from __future__ import annotations

from skill_retriever.ingest.secret_values import assigned_word, shell_word

__all__ = ["NAMED_ASSIGNED_VALUE", "NAMED_BRACED_RUN", "NAMED_VALUE"]

#: A word in braces with a ``;`` or ``&`` in it, and no blank, quote, backslash or shell
#: character but those two (``{Tr0ub&3;x9}``, ``{Xk9s2&mQz7Lp}``, ``{Xk9;2mQ}``). Bounded,
#: so no start rescans a long run.
NAMED_BRACED_RUN = r"""\{[^\s{}"'`;&|()<>\\]{0,128}+[;&][^\s{}"'`|()<>\\]{0,128}+\}"""
#: `secret_values.SHELL_VALUE` with `NAMED_BRACED_RUN` in it.
NAMED_VALUE = shell_word(NAMED_BRACED_RUN)
#: `secret_values.SHELL_ASSIGNED_VALUE` with `NAMED_BRACED_RUN` in it: a bare value ends
#: at a ``printf`` escape (``\n``).
NAMED_ASSIGNED_VALUE = assigned_word(NAMED_BRACED_RUN)
