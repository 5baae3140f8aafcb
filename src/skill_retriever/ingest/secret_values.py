"""Whether a name is a secret's and a value one written out: `secret_word_name`,
`literal_word`, `literal_phrase`, `placeholder_part`; and the tests every redaction shares (`secrets`,
`secret_urls`): `secret_name` (from `secret_names`), `record_key`, `is_reference`, `single_quoted`, `quoted`,
`is_placeholder`.

Prose (`prose_secrets`) and Markdown tables (`table_secrets`) both redact a value only
when what names it is secret-looking and the value reads as a literal secret, not as a
reference, placeholder, path, URL, number or code; these are the tests they share.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from skill_retriever.ingest.generated_secrets import generated_secret
from skill_retriever.ingest.secret_names import NAME_WORD_RE, secret_name

__all__ = [
    "AUTHORIZATION_NAME",
    "AUTH_SCHEMES",
    "BRACED_RUN",
    "ESCAPE_BEFORE",
    "NAME_WORD_RE",
    "SCHEME_BEFORE_RE",
    "SCHEME_WORD",
    "SHELL_ASSIGNED_VALUE",
    "SHELL_VALUE",
    "assigned_word",
    "code_value",
    "is_placeholder",
    "is_reference",
    "literal_phrase",
    "literal_word",
    "placeholder_part",
    "quoted",
    "record_key",
    "scheme_name",
    "secret_name",
    "secret_word_name",
    "shell_word",
    "single_quoted",
]

#: The HTTP auth schemes a credential follows (``Authorization: Basic X``, ``'auth':
#: 'Token X'``), for ``(?i)`` patterns: every rule keeps the scheme and redacts only the
#: credential after it. One list for the command rules (`secrets`) and the prose rules
#: (`prose_secrets`): a scheme one of them did not know (``Negotiate``) read as the value,
#: and the credential after it stayed.
#: Schemes that hold digits are known too: OAuth 2's ``OAuth2``, SCRAM's ``SCRAM-SHA-256``
#: and the signing schemes of cloud APIs (``HMAC-SHA256``, AWS's ``AWS4-HMAC-SHA256``,
#: Tencent's ``TC3-HMAC-SHA256``, Akamai's ``EG1-HMAC-SHA256``).
AUTH_SCHEMES = (
    r"(?:bearer|basic|token|bot|digest|apikey|negotiate|ntlm|jwt|dpop|oauth2?+"
    r"|(?:[a-z][a-z0-9]{0,7}+-)?hmac-sha[0-9]{1,3}+|scram-sha-[0-9]{1,3}+)"
)
#: An auth scheme right before a value (``Authorization: Bearer X``, ``x-api-key: Token X``).
SCHEME_BEFORE_RE = re.compile(r"(?i)(?<![\w-])" + AUTH_SCHEMES + r"[ \t]+$")
#: The headers whose value always starts with its scheme (``Authorization: SSWS X``), for
#: ``(?i)`` patterns: under them any word is read as a scheme (`SCHEME_WORD`), not only
#: the `AUTH_SCHEMES` a credential follows anywhere. Okta's ``SSWS``, ``OAuth``, ``Key``,
#: ``GenieKey`` or ``AWS4-HMAC-SHA256`` read as the value: the credential after it stayed.
AUTHORIZATION_NAME = r"(?:proxy-)?authorization"
#: A scheme's word under `AUTHORIZATION_NAME`: parts joined by ``-``, each letters with
#: digits after them or digits alone (``AWS4-HMAC-SHA256``, ``SCRAM-SHA-256``), the first
#: one up to three digits before its letters (``2FA``, ``3scale``, ``1Password``); 24
#: characters at most. A credential (``q9W8e7R6...``, ``abc123def456``) is no such word,
#: so that ``Authorization: X (see docs)`` reads X as the value, not as a scheme.
SCHEME_WORD = (
    r"(?=[A-Za-z0-9-]{1,24}+(?![A-Za-z0-9-]))[0-9]{0,3}+[A-Za-z]++[0-9]*+(?:-(?:[A-Za-z]++[0-9]*+|[0-9]++))*+"
)
#: A word in braces that holds a ``;`` and no blank, quote, backslash or other shell
#: character (``{Xk9;2mQz7Lp}``, ODBC's ``{a;b}``): one value, which the readers that stop
#: at ``;`` cut (``{Xk9`` judged and ``;2mQz7Lp}`` kept as written); no shell group,
#: which needs blanks (``{ a; b; }``). Bounded, so no start rescans a long run. After a
#: secret's name the command rules read one with a ``&`` in it too (`named_values`).
BRACED_RUN = r"""\{[^\s{}"'`;&|()<>\\]{0,128}+;[^\s{}"'`&|()<>\\]{0,128}+\}"""
#: One shell word as a value: double-quoted, single-quoted, bare (a `BRACED_RUN` in it
#: read whole: ``admin:{Xk9;2mQ}``), or a quote left open (the command rules', `secrets`
#: and `client_passwords`).


def shell_word(braced: str) -> str:
    """One shell word as a value, a run that ``braced`` matches read whole in a bare one
    (`SHELL_VALUE`; after a secret's name `named_values.NAMED_VALUE`)."""
    return r"""(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|(?:""" + braced + r"""|[^\s"'`;&|()<>])+|["'][^\s"']*)"""


def assigned_word(braced: str) -> str:
    """`shell_word` for an assignment's value: a bare value ends at an escape (`_ESCAPE`)."""
    return r"""(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|(?:""" + braced + r"""|[^\s"'`;&|()<>\\]|\\(?![nrt]))+|["'][^\s"']*)"""


SHELL_VALUE = shell_word(BRACED_RUN)
#: A ``printf`` or ``echo -e`` escape (``\n``, ``\r``, ``\t``) in a bare value: where
#: the line the command writes ends (``printf 'API_KEY=X\nHOST=db\n' >> .env``), not
#: part of the value; an assignment's name may start right after one (`ESCAPE_BEFORE`).
_ESCAPE = r"\\[nrt]"
ESCAPE_BEFORE = r"(?<=" + _ESCAPE + ")"
#: `SHELL_VALUE` for an assignment's value (``NAME=value``): a bare value ends at an
#: escape (`_ESCAPE`), which took the lines after it with the value (prose's:
#: `prose_values`).
SHELL_ASSIGNED_VALUE = assigned_word(BRACED_RUN)
#: A value that only shows where a secret goes: documentation, kept as written (a hook's
#: help text says ``export VERCEL_TOKEN=your_token``; a skill calls ``?key=API_KEY``).
#: ``your_token``, ``yourpassword``, ``<api-key>``, ``xxx``, ``***``, ``...`` (and a run of
#: them, ``xxxx...``; runs joined by ``-`` or ``_``, a key's shape: ``xxxxxxxx-xxxx-xxxx``),
#: after up to three words of letters (``api-xxxxxxxx-xxxx-xxxx``, ``key_xxxx``; a word
#: with digits, ``hunter2_xxx``, may be a password's) or a known token's prefix
#: (`_TOKEN_PREFIX`: ``sk-ant-...``, ``sk-or-v1-your-key-here``, ``eyJ...``, ``ghp_xxx``); an upper-case
#: name of words joined by ``_`` (``API_KEY``, ``YOUR_TOKEN``, ``DB_PASSWORD_2``: each
#: word 12 letters at most, so ``AKIAIOSFODNN7EXAMPLE`` or upper-case hex is none), or one
#: word that names a secret (``TOKEN``, ``PASSWORD``, ``APIKEY``); a variable or template
#: (``${AUTH}``, ``$API_KEY``, ``%API_KEY%``, ``{token}``, ``{{ token }}``: a bare ``$``
#: only before an upper-case name, as a password may start with ``$``); and the marks tools
#: substitute (hydra's ``^PASS^``, with the failure text after the ``:`` that ends its
#: form's body in ``/login:user=^USER^&pass=^PASS^:Invalid``; Burp Intruder's
#: ``§password§``, ffuf's ``FUZZ``).
_MARK_RUN = r"(?:x{3,}+|\*{3,}+|\.{3,}+|\u2026)++"
_MARKS = (
    r"(?:[a-z]{1,12}+[-_]){0,3}+" + _MARK_RUN + r"(?:[-_]" + _MARK_RUN + r")*+|your[_-][\w.-]*|<[^<>]*>"
)
#: The prefix of a well-known token (`secret_formats.KNOWN_TOKEN_RE`): OpenAI's and
#: Anthropic's ``sk-`` with the words after it (``sk-ant-api03-``, ``sk-or-v1-``,
#: ``sk-proj-``), Stripe's ``sk_live_``, GitHub's ``ghp_``, a JWT's ``eyJ``, AWS's
#: ``AKIA``. Followed by a placeholder (`_MARKS`) it shows a token's shape, not a token.
_TOKEN_PREFIX = (
    r"(?-i:(?:sk|pk|rk)(?:[-_][a-z0-9]{1,8}+){0,3}[-_]|gh[pousr]_|github_pat_|xox[abposr]-|glpat-|hf_|npm_"
    r"|pypi-|whsec_|gsk_|r8_|pplx-|tvly-|ntn_|lin_api_|lsv2_[a-z]{2}_|do[opr]_v1_|shp(?:at|ss|ca|pa)_"
    r"|glsa_|xapp-|eyJ|AKIA|ASIA|AIza|dp\.[a-z]{2,5}+\.|PMAK-|NRAK-|pul-|sbp_|sb_secret_|tskey-[a-z]{3,8}+-|key-"
    r"|HRKU-|CCIPAT_|sntry[su]_|ATATT3|dckr_(?:pat|oat)_|fc-|xai-|pcsk_|napi_|pscale_[a-z]{2,5}+_|ATBB|sq0[a-z]{3}-"
    r"|figd_|bb_live_)"
)
_PLACEHOLDER_RE = re.compile(
    r"(?:" + _TOKEN_PREFIX + r")?(?:" + _MARKS + r")"
    r"|your[_-]?(?:[a-z]{1,12}[_-]?)?(?:key|token|secret|pass(?:word|phrase)?|passwd|pwd|credentials?)(?:[_-]?here)?"
    r"|(?-i:[A-Z]{1,12}(?:_(?:[A-Z]{1,12}|[0-9]{1,3}))+)"
    r"|(?-i:(?:API|ACCESS|AUTH|SECRET|PRIVATE|CLIENT|APP|BOT|DB|ADMIN|USER)?"
    r"(?:KEY|TOKEN|SECRET|PASS|PASSWORD|PASSWD|PWD|PASSPHRASE|AUTH|CREDENTIALS?))"
    r"|\$\{[A-Za-z_]\w*\}|\$\{\{[^{}]*\}\}|(?-i:\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%)"
    r"|\{[A-Za-z_]\w*\}|\{\{\s*[\w.]+\s*\}\}"
    r"|(?-i:\^[A-Z][A-Z0-9]*\^(?::[^\n]*)?|FUZ[0-9]*Z)|§[^§\s]*§",
    re.IGNORECASE,
)

#: A last word that names a secret, alone or run together with what it is for
#: (``pgpassword``, ``authtoken``).
_SECRET_WORD_RE = re.compile(
    r"(?:api|access|secret|auth|private|client|app|master|session|refresh|bot|pg|db|mysql"
    r"|admin|root|user|sql)?(?:token|secret|secrets|password|passwd|pwd|pass|passphrase"
    r"|credential|credentials)"
)
#: A key is a secret's only as a kind of key that is one (``api_key``, ``apiKey``,
#: ``aws_secret_access_key``, ``PRIVATE_KEY``) or in an environment variable's name
#: (``STRIPE_KEY``): a bare ``key``, ``citation_key``, ``fileKey`` or a header's
#: ``"key": "X-Frame-Options"`` names a record, a file or a setting.
_SECRET_KEY_RE = re.compile(
    r"(?:api|secret|private|access|auth|client|signing|encryption|master|license|app|service"
    r"|session|ssh|gpg|pgp|hmac|jwt|webhook|deploy|account|consumer|subscription|shared)key"
)
#: A value that names a record (``?ods_key=pappg``: an NSF document), not a credential:
#: a lower-case word. Only under a name `record_key` reads as a record's key.
_RECORD_KEY_VALUE_RE = re.compile(r"[a-z]{1,16}")
#: The words of `secret_name` but "key": a name with one of them names a secret.
_OTHER_SECRET_WORD_RE = re.compile(r"token|secret|passw|auth(?!ors?(?![a-z]))|credential", re.IGNORECASE)
#: An environment variable's name: upper case words joined by ``_``.
_ENV_NAME_RE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
#: Words that make a name no secret's: a public key's, or a record's.
_NOT_SECRET_WORDS = frozenset("public pub publishable primary foreign sort partition cache".split())

#: A value that only shows where a secret goes, beyond `is_placeholder`'s:
#: ``sk-xxxx1234``, ``ab...yz``, ``changeme``, ``REPLACE_WITH_KEY1``, ``****``, ``<token>``.
_PLACEHOLDER_PART_RE = re.compile(
    r"(?i)x{4,}|\.{3}|\u2026|\*{3,}|[<>]|(?:^|[-_.])(?:your|my)[-_]|change[-_]?me|replace"
    r"|placeholder|dummy"
)
#: The words of a phrase that only says what goes there (``"your API key"``, ``"paste
#: the token here"``, ``"Enter password:"``), not one that is the secret.
_PLACEHOLDER_PHRASE_RE = re.compile(
    r"(?i)\b(?:your|enter|paste|insert|fill|type|set|example|e\.g|todo|tbd)\b|:\s*$"
)
#: The words of a phrase that says what the value is (``"Bearer token or API key"``,
#: ``"GitHub personal access token"``) rather than being it; and a path of words
#: (``"Desktop/Paragraph/P Body Big"``).
_DESCRIPTION_RE = re.compile(
    r"(?i)\b(?:tokens?|keys?|passwords?|api|bearer|credentials?|oauth|jwt)\b|\w/\w"
)
#: Code rather than a value: a path (absolute, or of words: ``models/exp-42.pkl``,
#: ``Desktop/Title/H1``, not base64's mixed case), a URL, a file name, a template, a
#: subscript or a call (`prose_secrets` also looks at what follows the value), a dotted
#: attribute, a hex number, a PowerShell command (``ConvertTo-SecureString``, ``Get-Secret``:
#: a common verb, ``-`` and a noun; ``$pw = ConvertTo-SecureString "X"`` passes X to it).
_PATH_WORD = r"(?>[A-Z0-9]{1,3}(?=/|$)|[A-Za-z0-9]?[a-z0-9_.-]*+)"  # atomic: one way to read
_CODE_RE = re.compile(
    r"^(?:[~.]{0,2}/|[A-Za-z]:\\)|://|[{}\[\]()%]|\.(?:pem|key|json|txt|env|crt|cer|p12|pfx"
    r"|ya?ml|toml|ini|cfg|conf|gpg|asc|pub|pkl)$|^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$|^0[xX][0-9a-fA-F]+$"
    r"|^" + _PATH_WORD + r"(?:/" + _PATH_WORD + r")+$|^(?:Get|Set|New|Remove|Add|ConvertTo|ConvertFrom|Read|Write|Invoke"
    r"|Import|Export|Test|Start|Stop|Connect|Select|Out)-[A-Z][A-Za-z]*$"
)
#: A short value with letters and digits that names an encoding, an algorithm, a model
#: or a version (``base64``, ``sha256``, ``ed25519``, ``utf8mb4``, ``oauth2``, ``gpt4o``),
#: not a password (``hunter2``).
_TECHNICAL_RE = re.compile(
    r"(?i)(?:base|sha|md|utf|ed|rsa|aes|hs|rs|es|ps|crc|blake|argon|pbkdf|scrypt|ecdsa|secp"
    r"|gpt|llama|ipv|http|tls|ssl|oauth|int|uint|float|latin|iso|win|x|v|p)[-_]?[0-9][a-z0-9]*"
)
#: A value that is an auth scheme's word: it names how a credential is sent, not one.
_AUTH_SCHEME_RE = re.compile(AUTH_SCHEMES, re.IGNORECASE)
#: A value that is a word or an environment variable's name, not a credential, even
#: after an auth scheme (``Bearer authentication``, ``Bearer ACCESS_TOKEN``).
_WORD_VALUE_RE = re.compile(r"[A-Za-z][a-z]*|[A-Z]+(?:_[A-Z]+)+")


def secret_word_name(name: str) -> bool:
    """Whether an assignment's name reads as a secret's: its last word (digits aside)
    names one (`_SECRET_WORD_RE`; ``secret_key_base`` reads as ``secret_key``) and no
    word makes it a record's key or a public one."""
    words = [w.lower() for w in NAME_WORD_RE.findall(name) if not w.isdigit()]
    if not words or not _NOT_SECRET_WORDS.isdisjoint(words):
        return False
    if words[-3:] == ["secret", "key", "base"]:  # Rails' and Phoenix's signing secret
        words = words[:-1]
    if words[-2:] == ["secret", "id"]:  # Vault AppRole's ``secret_id`` is its password
        return True
    if words[-1] == "key" and len(words) > 1:
        return _SECRET_KEY_RE.fullmatch(words[-2] + "key") is not None or _ENV_NAME_RE.fullmatch(name) is not None
    return (_SECRET_WORD_RE.fullmatch(words[-1]) or _SECRET_KEY_RE.fullmatch(words[-1])) is not None


def literal_word(value: str, *, after_scheme: bool = False, quoted: bool = False) -> bool:
    """Whether ``value`` (one word, quotes and all) reads as a secret written out: 8 or
    more characters with letters and digits (6 or 7 that name no encoding or version:
    ``hunter2``, not ``sha256``; or 20 or more with upper and lower case), not a
    reference, placeholder, path, URL, number or code. After an auth scheme
    (``Bearer X``) a value is a credential unless it is a word (``Bearer
    authentication``), so letters alone do. A value ``quoted`` by single quotes around
    it (`single_quoted`: ``-d 'token=$abc123XYZ'``) is literal text, no reference.

    Any braces read as code here (``{password}``, and ``{Xk9;2mQ}`` too): the rules ask
    `braced_values.literal_or_braced`, which judges a value wholly in braces first and
    this for the rest; `braced_values` alone asks this, of the names braces hold."""
    word = value.strip("\"'")
    if len(word) < 6 or any(c.isspace() for c in word) or is_placeholder(value):
        return False
    if is_reference(value) and not quoted:
        return False
    if generated_secret(word):  # ``django-insecure-9x#k2$m@q!7z%w(3e)...``: no code has such a run
        return not _PLACEHOLDER_PART_RE.search(word)
    if _PLACEHOLDER_PART_RE.search(word) or _CODE_RE.search(word) or "[redacted]" in word:
        return False
    if _AUTH_SCHEME_RE.fullmatch(word):  # ``x-api-key: HMAC-SHA256 X``: the scheme, X the secret
        return False
    if after_scheme:
        return len(word) >= 8 and _WORD_VALUE_RE.fullmatch(word) is None
    letters, digits = any(c.isalpha() for c in word), any(c.isdigit() for c in word)
    if letters and digits:
        return len(word) >= 8 or _TECHNICAL_RE.fullmatch(word) is None
    if len(word) < 8:
        return False
    return len(word) >= 20 and any(c.islower() for c in word) and any(c.isupper() for c in word)


def code_value(value: str) -> bool:
    """Whether ``value`` (quotes aside) reads as code, not a value written out (`_CODE_RE`:
    a path, a URL, a file name, a template, a dotted attribute, a hex number); what
    `literal_word` never reads as a secret."""
    return _CODE_RE.search(value.strip("\"'")) is not None


def placeholder_part(value: str) -> bool:
    """Whether ``value`` holds a mark that only shows where a secret goes
    (`_PLACEHOLDER_PART_RE`: ``xxxx``, ``...``, ``<``, ``your-``, ``my-``, ``changeme``,
    ``replace``, ``dummy``), which `literal_word` never reads as a secret."""
    return _PLACEHOLDER_PART_RE.search(value) is not None


def literal_phrase(value: str) -> bool:
    """Whether ``value``, quoted and closed, with white space inside, reads as a secret
    written out (a passphrase: ``"correct horse battery staple"``): 8 or more characters
    that are no placeholder text (``"your API key"``, ``"<token>"``, ``"Enter
    password:"``), description of the value (``"Bearer token or API key"``), path,
    reference, template or code (`_CODE_RE`)."""
    if len(value) < 2 or value[0] not in "\"'" or value[-1] != value[0]:
        return False
    phrase = value[1:-1].strip()
    if len(phrase) < 8 or not any(c.isspace() for c in phrase) or "$" in phrase or "[redacted]" in phrase:
        return False
    if _PLACEHOLDER_PART_RE.search(phrase) or _PLACEHOLDER_PHRASE_RE.search(phrase):
        return False
    if _DESCRIPTION_RE.search(phrase):
        return False
    return _CODE_RE.search(phrase) is None


def record_key(name: str, value: str) -> bool:
    """Whether ``value`` (quotes and all) is a record's key, not a credential, though
    `secret_name` reads ``name`` as a secret's: a lower-case word of 16 letters at most
    under a name that says "key" only as a record's or document's key (``?ods_key=pappg``,
    ``sort_key=name``): no other secret word is in it, it is no bare ``key`` (Google's
    APIs take their key as ``?key=``) and no kind of key that is a secret
    (`secret_word_name`: ``api_key``, ``apiKey``, ``access_key``, ``STRIPE_KEY``). The
    URL rule (`secret_urls`) and the shell rules (`secrets`) both ask it."""
    folded = name.casefold()
    return (
        _RECORD_KEY_VALUE_RE.fullmatch(value.strip("\"'")) is not None
        and "key" in folded
        and folded != "key"
        and _OTHER_SECRET_WORD_RE.search(name) is None
        and not secret_word_name(name)
    )


#: An auth scheme's name and nothing else (`scheme_name`).
_SCHEME_NAME_RE = re.compile(AUTH_SCHEMES, re.IGNORECASE)


def scheme_name(value: str) -> bool:
    """Whether ``value`` (quotes aside) is an auth scheme's name alone (`AUTH_SCHEMES`:
    ``bearer``, ``Digest``, ``oauth2``), as a flag or setting that picks the scheme holds
    it (``http --auth-type=bearer``, ``"auth_type": "basic"``): no credential."""
    return _SCHEME_NAME_RE.fullmatch(value.strip("\"'")) is not None


def is_reference(value: str, text: str | None = None, start: int = 0) -> bool:
    """Whether a value is a shell variable or command substitution (``$X``, ``${X}``,
    ``"$X"``, ``$(cmd)``): it names where the secret is, not the secret. In single
    quotes the shell expands nothing: ``'$ecretP4ss'`` is literal text, a password as
    likely as any, and no reference; so is a value at ``start`` of ``text`` that sits
    inside single quotes there (`single_quoted`: ``'https://x/?password=$ecretP4ss'``).
    Whether it is a placeholder (``'${TOKEN}'``) is `is_placeholder`'s to say."""
    if value.startswith("'") or (text is not None and single_quoted(text, start)):
        return False
    return value.lstrip("\"\\").startswith("$")


#: Shell quoting, as far as a line shows it: a single-quoted span (up to its closing
#: quote or the line's end), a double-quoted one (in which ``'`` is a character), and a
#: backslash escape (``\'`` opens nothing).
_QUOTING_RE = re.compile(r"""'[^'\n]*+'?|"(?:[^"\\\n]|\\.)*+"?|\\.""")


def single_quoted(text: str, pos: int) -> bool:
    """Whether the character at ``pos`` of shell ``text`` is inside single quotes, its
    quotes included, by the quoting of its line. A script inside single quotes
    (``bash -c '... $tok'``) reads as quoted too: a pass over the text cannot tell it
    from a quoted argument (``curl -d '{"token": "$tok"}'``), and in doubt a secret goes."""
    span = _quoted_span(text, pos)
    return span >= 0 and _quoted_spans(text)[2][span]


def quoted(text: str, pos: int) -> bool:
    """Whether the character at ``pos`` of shell ``text`` is inside quotes of either kind,
    its quotes included, by the quoting of its line (`single_quoted` says which kind)."""
    return _quoted_span(text, pos) >= 0


def _quoted_span(text: str, pos: int) -> int:
    """The index of ``text``'s quoted span that holds ``pos`` (`_quoted_spans`), or -1."""
    starts, ends, _ = _quoted_spans(text)
    i = bisect.bisect_right(starts, pos) - 1
    return i if i >= 0 and pos < ends[i] else -1


_Spans = tuple[list[int], list[int], list[bool]]
#: The text `_quoted_spans` read last and its spans: a pass asks about many positions of
#: one text object, found here by identity. The cache behind it finds a text by equality,
#: which compares the whole text when another object holds it (a pass that changed
#: nothing may hand on a copy): once per position asked, that was quadratic time.
_last: tuple[str, _Spans] | None = None


def _quoted_spans(text: str) -> _Spans:
    """The starts and ends of ``text``'s quoted spans, in order, and whether each is
    single-quoted; read once per text (`_last`, `_read_quoted_spans`)."""
    global _last
    last = _last
    if last is not None and last[0] is text:
        return last[1]
    spans = _read_quoted_spans(text)
    _last = (text, spans)
    return spans


@lru_cache(maxsize=8)
def _read_quoted_spans(text: str) -> _Spans:
    """`_quoted_spans` read from ``text``."""
    starts, ends, single = [], [], []
    for m in _QUOTING_RE.finditer(text):
        if m[0][0] in "'\"":
            starts.append(m.start())
            ends.append(m.end())
            single.append(m[0][0] == "'")
    return starts, ends, single


def is_placeholder(value: str) -> bool:
    """Whether a value only shows where a secret goes (`_PLACEHOLDER_RE`)."""
    return _PLACEHOLDER_RE.fullmatch(value.strip("\"'")) is not None
