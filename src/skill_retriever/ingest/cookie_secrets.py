"""The values of cookies a text quotes, redacted: `redact_cookies`.

A cookie is a credential (a session id signs its holder in), and a security skill or a
runbook quotes requests with them: ``Cookie: session=...``, ``Set-Cookie: sid=...;
Path=/``, curl's ``--cookie 'PHPSESSID=...'``, ``document.cookie = "session=..."``.
Neither the header nor a cookie's own name (``session``, ``sid``) is a secret word, so
the assignment rules of `prose_secrets` do not read them. Here each cookie's value is
redacted when it reads as a literal secret (the caller decides: `prose_secrets` uses
`braced_values.literal_or_braced`), so ``theme=dark``, ``session=attacker_session``,
``$SESSION`` and ``<session-id>`` stay, and so do the attributes of a ``Set-Cookie``
(``Path=/``, ``Max-Age=3600``).

The cookies are those after the header's colon (or ``--cookie``, or ``cookie =``) up to
the quote, backtick or line end that closes it; after curl's short ``-b`` too, when
``curl`` starts the same simple command (``git checkout -b x`` is a branch). Patterns are possessive and bounded, so
a crafted line is read in linear time.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

__all__ = ["COOKIE_LINE_RE", "COOKIE_WORDS", "redact_cookies"]

#: Where a line may hold cookies (`word_lines.on_words` reads no other), and the pattern's word.
COOKIE_WORDS = ("cookie", "curl")
COOKIE_LINE_RE = re.compile("(?i)" + "|".join(COOKIE_WORDS))
#: The start of a cookie list: a ``Cookie`` / ``Set-Cookie`` header (quoted as a JSON
#: key too), curl's ``--cookie`` and an assignment to ``document.cookie``; the list is
#: what follows, up to a quote, a backtick or the line's end.
_COOKIES_RE = re.compile(
    r"""(?i)(?<![\w-])(?:(?:set-)?cookie(?:["'][ \t]*+:|[ \t]*+:(?!:)|[ \t]*+=(?!=))|--cookie[ \t=])"""
    r"""[ \t]*+["']?(?P<list>[^"'`\n]{1,4096}+)"""
)
#: curl's short ``-b`` and its cookie list (`_CURL_RE` must start its simple command).
_SHORT_COOKIES_RE = re.compile(r"""(?<![\w-])-b(?:[ \t]++|(?=["']))["']?(?P<list>[^"'`\n]{1,4096}+)""")
_CURL_RE = re.compile(r"(?<![\w-])curl(?![\w-])")
#: What ends a simple command (the search for its ``curl`` starts after the last one).
_COMMAND_END_RE = re.compile(r"[;|&\n]")
#: One cookie of a list: its name and value, at the list's start or after ``;``.
_COOKIE_RE = re.compile(r"(?:^|;)[ \t]*+(?P<name>[\w.$!#%&*+^|~-]{1,128}+)=(?P<val>[^;\s]{1,1024}+)")
#: A ``Set-Cookie`` attribute, no cookie.
_ATTRIBUTES = frozenset(("path", "domain", "expires", "max-age", "samesite", "priority", "partitioned"))


def redact_cookies(line: str, masked: Callable[[re.Match[str]], str]) -> str:
    """``line`` with each cookie of its cookie lists passed through ``masked`` (a match
    whose ``val`` group is the cookie's value), attributes aside."""

    def cookie(m: re.Match[str]) -> str:
        return m[0] if m["name"].lower() in _ATTRIBUTES else masked(m)

    def cookies(m: re.Match[str]) -> str:
        start = m.start("list") - m.start()
        return m[0][:start] + _COOKIE_RE.sub(cookie, m["list"])

    line = _COOKIES_RE.sub(cookies, line)
    if "-b" not in line:
        return line
    # Each ``-b`` looks back for a ``curl`` after the last command end before it, by
    # bisection over both found once (a line of many ``-b`` is read in n log n).
    ends = [e.end() for e in _COMMAND_END_RE.finditer(line)]
    curls = [c.start() for c in _CURL_RE.finditer(line)]

    def short(m: re.Match[str]) -> str:
        i = bisect.bisect_right(ends, m.start())
        start = ends[i - 1] if i else 0
        j = bisect.bisect_left(curls, start)
        return cookies(m) if j < len(curls) and curls[j] < m.start() else m[0]

    return _SHORT_COOKIES_RE.sub(short, line)
