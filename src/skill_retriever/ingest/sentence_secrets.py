"""A secret a sentence gives in words rather than as a setting: ``The admin password is
Xk9s2mQz7Lp.``, ``Set the passphrase to `Xk9s2mQz7Lp```, ``the API key for staging was
"Xk9s2mQz7Lp"``, ``the default credentials are `admin:Xk9s2mQz7Lp``` (the user kept):
`redact_sentence_line`.

The prose rules (`prose_secrets`) read a secret after a name and ``=`` or ``:``; a
sentence joins them with a verb, and the value stayed. The value goes only when it reads
as a literal secret (`braced_values.literal_or_braced`: 8 or more characters with letters
and digits, no word, path, reference or placeholder; nor a standard's name, ``Token is
ERC721``), so a sentence about a secret keeps its words (``the token is valid for an
hour``, ``the password is required``, ``the key is stored in Vault``).
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.secret_formats import REDACTED, replace_group

__all__ = ["SENTENCE_LINE_RE", "SENTENCE_WORDS", "redact_sentence_line"]

#: What a line that gives such a secret holds, and the pattern of them (`word_lines.on_words`
#: finds them: the pattern is their alternation).
SENTENCE_WORDS = (
    "pass", "key", "token", "secret", "cred", "login", "log in", "log-in", "sign in", "sign-in", "signin", "basic auth",
)
SENTENCE_LINE_RE = re.compile("(?i)" + "|".join(SENTENCE_WORDS))
#: A secret's name, what or whom it is for (``the password for bob``, ``the key of the
#: staging bucket``: up to three words), a verb that gives it and the value, in quotes
#: or backticks or bare. Bounded, so a long line is read in linear time.
_SENTENCE_RE = re.compile(
    r"(?i)(?<![\w-])(?:password|passphrase|passwd|api[ _-]?key|access[ _-]?key|secret[ _-]?key|access[ _-]?token"
    r"|auth[ _-]?token|token|secret)s?+(?:[ \t]++(?:for|of|to)(?:[ \t]++[\w.@-]{1,64}+){1,3}?)?"
    r"[ \t]++(?:is|was|becomes|to|as)[ \t]++(?:now[ \t]++|set[ \t]++to[ \t]++)?+"
    r"""(?P<val>`[^`\s]{1,256}+`|"[^"\s]{1,256}+"|'[^'\s]{1,256}+'|[^\s`"']{1,256}+)"""
)
#: Credentials a sentence gives as a user and a password (``the default credentials are
#: `admin:X```, ``login is admin / X``, ``Basic auth: bob / X``, ``log in with admin / X``,
#: ``sign in as admin:X``, ``Default login: `admin` / `X```):
#: only the password (``val``) goes.
_CREDENTIALS_RE = re.compile(
    r"(?i)(?<![\w-])(?:(?:credentials?|creds|login|basic[ \t]++auth)(?:[ \t]++(?:for|of|to)(?:[ \t]++[\w.@-]{1,64}+){1,3}?)?"
    r"(?:[ \t]*+:|[ \t]++(?:is|are|was|were))|(?:log|sign)[ \t-]?+in[ \t]++(?:with|as|using))"
    r"""[ \t]++(?P<q>[`"']?+)[\w.@-]{1,64}+(?::|(?P=q)[ \t]*+/[ \t]*+(?P=q))(?P<val>[^\s`"']{1,256}+)(?P=q)"""
)
#: A password a sentence gives with no verb: after its user (``log in as admin with password
#: X``, ``user admin, password X``: after ``with``, ``and``, ``using`` or a comma), a word that
#: says whose or which it is (``default password X``), or at a line's or an item's start
#: (``Password X``, a tab between).
_PASSWORD_AFTER_RE = re.compile(
    r"""(?im)(?:(?<![\w-])(?:with|and|using|default|initial|temporary|new|admin|root)|,|^[ \t>*+-]*+)[ \t]*+"""
    r"""(?:the[ \t]++)?+(?:password|passphrase|passwd)[ \t]++"""
    r"""(?P<q>[`"']?+)(?P<val>[^\s`"']{1,256}+)(?P=q)"""
)
#: A standard's or a kind's name, which a sentence says a token or key is (``Token is
#: ERC721``, ``ERC20Votes``, ``the key is RSA4096``, ``BEP20``): capitals, digits, words.
_STANDARD_RE = re.compile(r"[A-Z]{2,8}+-?+[0-9]{1,6}+(?:[A-Z][a-z]++)*+")
#: Punctuation that ends the sentence, not the value (``... is Xk9s2mQz7Lp.``).
_TRAILING = ".,;:!?)"


def redact_sentence_line(line: str) -> str:
    """``line`` with each secret a sentence in it gives redacted (see the module)."""
    line = _CREDENTIALS_RE.sub(_credentials, _SENTENCE_RE.sub(_sentence, line))
    return _PASSWORD_AFTER_RE.sub(_credentials, line)


def _credentials(m: re.Match[str]) -> str:
    value = m["val"] if m["q"] else m["val"].rstrip(_TRAILING)
    if not literal_or_braced(value):
        return m[0]
    return replace_group(m, "val", REDACTED + m["val"][len(value) :])


def _sentence(m: re.Match[str]) -> str:
    value = m["val"]
    quoted = value[0] in "`\"'"
    inner = value[1:-1] if quoted else value.rstrip(_TRAILING)
    if not inner or _STANDARD_RE.fullmatch(inner) or not literal_or_braced(inner):
        return m[0]
    opened = value[0] if quoted else ""
    return replace_group(m, "val", opened + REDACTED + value[len(opened) + len(inner) :])
