"""A password that code passes as basic auth's second value: `AUTH_TUPLE_RE`.

requests takes basic credentials as a pair, ``auth=("user", "X")`` (or ``session.auth =
("user", "X")``), and it, aiohttp and HTTPX as a class's two arguments
(``HTTPBasicAuth("user", "X")``, ``HTTPDigestAuth``, ``BasicAuth("user", "X")``): no
name says the second value is a password, so neither the assignment rule nor the quoted
pair rule reads it. Only a quoted string is read as the password (``auth=(user,
os.environ["X"])`` is code); prose (`prose_secrets`) redacts it when it reads as a
literal secret, the command rule (`secrets.redact_command`) unless it is a reference or
a placeholder. The user name stays. The pair may be split over lines, one value a
line, as formatters write a long call; prose reads it over the whole text, not line by
line. Bounded and possessive: linear on any text.
"""

from __future__ import annotations

import re

__all__ = ["AUTH_TUPLE_RE", "CALL_GAP", "CODE_STRING"]

#: A quoted string of code, on one line (`code_passwords` reads its calls' strings so too).
CODE_STRING = r"""(?:"(?:[^"\\\n]|\\.){0,256}+"|'[^'\n]{0,256}+')"""
#: The space between a call's parentheses and its arguments: blanks, and line breaks
#: where code puts each argument on a line of its own (``auth=(\n    "user",\n
#: "X")``); bounded, so that a match never scans a long run of blanks from each start.
CALL_GAP = r"\s{0,64}+"
#: ``auth=(user, "X")`` / ``auth = ["user", "X"]`` or ``HTTPBasicAuth("user", "X")``: the
#: user a string or a name, ``val`` the password's string.
AUTH_TUPLE_RE = re.compile(
    r"(?:(?<![\w-])auth[ \t]*+=[ \t]*+[(\[]|(?<![\w-])(?:HTTP)?+(?:Basic|Digest|Proxy)Auth[ \t]*+\()"
    + CALL_GAP + r"(?:" + CODE_STRING + r"|[A-Za-z_][\w.]{0,128}+)" + CALL_GAP + "," + CALL_GAP + r"(?P<val>" + CODE_STRING + r")(?=" + CALL_GAP + r"[)\],])"
)
