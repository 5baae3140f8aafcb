"""URLs with their credentials taken out: user info, secret query parameters, webhook keys."""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import literal_or_braced, placeholder_or_slot
from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import (
    AUTH_SCHEMES,
    BRACED_RUN,
    is_placeholder,
    is_reference,
    record_key,
    scheme_name,
    secret_name,
    single_quoted,
)

__all__ = ["redact_shell_urls", "redact_urls"]

#: A URL's ``://`` and authority (``user:pass@host:port``), after a scheme; the authority
#: ends where `urllib.parse.urlsplit` ends it, at ``/``, ``?`` or ``#`` (and at white
#: space). The scheme is only looked behind at, and a parameter's name holds no ``?``:
#: either way a pattern that could start anywhere in a long run of such characters would
#: rescan it from every position (quadratic time on a crafted file).
_URL_AUTHORITY_RE = re.compile(r"(?<=[A-Za-z0-9+.-])(://)([^/?#\s]*)")
#: Query parameters that carry a credential though `secret_name` misses their name: a
#: signed URL's signature (Azure SAS ``sig``, S3 ``X-Amz-Signature``, GCS
#: ``X-Goog-Signature``) and the short password names (``pass``, ``pwd``).
_URL_SECRET_PARAM_RE = re.compile(r"(?:x-(?:amz|goog)-)?sig(?:nature)?|pass|pwd", re.IGNORECASE)
#: An auth scheme and the blanks after it, before a parameter's value: a form body's
#: ``token=Bearer X`` (``curl -d``) is a scheme and a credential, not the value ``Bearer``.
_SCHEME = r"(?:(?i:" + AUTH_SCHEMES + r")[ \t]++(?=[^\s&;#]))?+"
#: A ``name=value`` query (or ``;`` matrix) parameter; a quote, backtick or ``<>`` (never
#: unencoded in a URL) ends it, as it ends a URL quoted in prose or code. A value in
#: braces with a ``;`` in it is read to its closing brace (`secret_values.BRACED_RUN`:
#: ``?api_key={Xk9;2mQ}``), or its tail after the ``;`` stayed.
_URL_PARAM_RE = re.compile(r"([?&;])([^=&;#?\s]+)=(" + _SCHEME + r")((?:" + BRACED_RUN + r"|[^&;#\s\"'`<>])*)")
#: The same in shell text, where a quote, a pipe or a parenthesis ends the URL (and a
#: ``;``, but in braces: ``https://user:{Xk9;2mQ}@host``).
_SHELL_URL_AUTHORITY_RE = re.compile(r"(?<=[A-Za-z0-9+.-])(://)((?:" + BRACED_RUN + r"|[^/?#\s\"'`<>|;&()\\])*)")
_SHELL_URL_PARAM_RE = re.compile(
    r"([?&;])([^=&;#?\s\"'`<>|()\\]+)=(" + _SCHEME + r")((?:" + BRACED_RUN + r"|[^&;#\s\"'`<>|()\\])*)"
)

#: The user names and passwords examples write in URLs (``postgresql://user:pass@host``):
#: only the pair together reads as an example, never a real password after a real name.
_EXAMPLE_USER_INFO = frozenset(
    (u, p) for u in ("user", "username", "usr", "name") for p in ("pass", "password", "passwd", "pwd", "secret")
)
#: A user name that may stand alone in a URL's user info (``postgres://app@db``,
#: ``ssh://deploy@host``) when it reads as no literal secret: a token there is longer.
_USER_NAME_RE = re.compile(r"[A-Za-z_][\w.-]{0,31}")
#: A Go MySQL driver's data source name, a URL's user info without its scheme
#: (``bob:X@tcp(db:3306)/shop``, ``@unix(/run/mysqld.sock)``): its user info (``info``),
#: which went unread with no ``://`` before it.
_DSN_RE = re.compile(r"""(?<![\w.:/@$-])(?P<info>[\w.-]{1,64}+:[^\s@"'`/()]{1,256}+)@(?=(?:tcp6?+|udp|unix)\()""")
#: A password in a URL's user info before a host with no scheme at all (``admin:X@db.example.com:5432``,
#: ``bob:X@10.0.0.5``, ``app:X@localhost``): a dotted name, an IPv4 address or
#: ``localhost``, so that an image's ``name:tag@sha256:...`` is none. With no scheme to say
#: it is a URL, the password must read as a literal secret (``Email:bob@example.com`` stays);
#: the user stays, as a client rule keeps it (``mysqlsh bob:[redacted]@host``).
_HOST_INFO_RE = re.compile(
    r"""(?<![\w.:/@$-])(?P<info>[A-Za-z_][\w.-]{0,63}+:(?P<pw>[^\s@"'`/():]{1,256}+))@"""
    r"""(?=(?:localhost|[0-9]{1,3}+(?:\.[0-9]{1,3}+){3}|[A-Za-z0-9-]{1,63}+(?:\.[A-Za-z0-9-]{1,63}+)++)(?:[:/\s"'`),;]|$))"""
)
#: Webhook URLs whose path is the credential: Slack, Discord, a Telegram bot's token,
#: Microsoft Teams (``<tenant>.webhook.office.com/webhookb2/...`` and the older
#: ``outlook.office.com/webhook/...``), Zapier (``hooks.zapier.com/hooks/catch/<id>/<key>``)
#: and IFTTT (``maker.ifttt.com/trigger/<event>/with/key/<key>``, ``.../use/<key>``). The
#: host and the path up to the secret are kept.
_WEBHOOK_RE = re.compile(
    r"(?:hooks\.slack\.com/(?:services|workflows|triggers)/(?P<slack>[\w/-]+)"
    r"|discord(?:app)?\.com/api/webhooks/\d+/(?P<discord>[\w-]+)"
    r"|api\.telegram\.org/(?:file/)?bot(?P<telegram>\d+:[\w-]+)"
    r"|(?:\.webhook\.office\.com/webhookb2|outlook\.office(?:365)?\.com/webhook)"
    r"/(?P<teams>[\w@/-]+)"
    r"|hooks\.zapier\.com/hooks/catch/(?P<zapier>\d+/\w+)"
    r"|maker\.ifttt\.com/(?:trigger/[\w.-]+/(?:json/)?with/key|use)/(?P<ifttt>[\w-]+))"
)
#: A part of a webhook's path that holds no key: an upper-case word or an id of zeros
#: (``YOUR/SLACK/WEBHOOK``; Slack's own ``T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX``).
#: Every real key holds digits or lower case (Slack's, Discord's, IFTTT's are mixed case,
#: 22 to 68 characters; Telegram's, Zapier's and Teams' hold digits).
_KEYLESS_PART_RE = re.compile(r"[A-Z]+|[A-Z]?0+")
_WEBHOOK_GROUPS = ("slack", "discord", "telegram", "teams", "zapier", "ifttt")
#: A part of every URL `_WEBHOOK_RE` reads: a text without one holds none, and is not
#: scanned (`re` tries each host at each position of a page).
_WEBHOOK_PARTS = ("hooks.", "api/webhooks/", "api.telegram.org/", "office", "maker.ifttt.com/")


def redact_urls(text: str) -> str:
    """``text`` with the user info of every URL in it (and of a Go MySQL data source name,
    ``bob:X@tcp(db:3306)/shop``: `_DSN_RE`; and before a host with no scheme, a literal
    password's, ``admin:X@db.example.com``: `_HOST_INFO_RE`), the values of its secret-looking query
    parameters, and the secret path of a webhook URL, replaced by `REDACTED`.

    The whole user info goes, not only a password: ``https://TOKEN@host`` carries a
    token as the user name (a short one that reads as a name alone stays,
    ``postgres://app@db``). ``postgresql://u:p@db:5432/app?password=p&sslmode=require``
    becomes ``postgresql://[redacted]@db:5432/app?password=[redacted]&sslmode=require``.
    What only shows where a secret goes is kept: a placeholder (``?key=YOUR_KEY``,
    ``?key=API_KEY``, ``https://<token>@host``, ``wss://${AUTH}@host``, hydra's
    ``pass=^PASS^``: `is_placeholder`) and the user info examples write
    (``user:pass@localhost``). A parameter's auth scheme stays: ``token=Bearer X`` (a form
    body) loses X, when it reads as a credential; ``?auth_type=basic`` names no secret.
    """
    return _redact_urls(text, _URL_AUTHORITY_RE, _URL_PARAM_RE, keep_references=False)


def _redact_urls(
    text: str, authority_re: re.Pattern[str], param_re: re.Pattern[str], *, keep_references: bool
) -> str:
    """`redact_urls` with the given URL patterns; with ``keep_references``, user info or a
    parameter whose secret is a shell reference (``https://$USER:$PASS@h``,
    ``?token=$TOKEN``) is left as written."""

    def authority(m: re.Match[str]) -> str:
        sep, netloc = m.groups()
        if "@" not in netloc:
            return m[0]
        info, _, host = netloc.rpartition("@")
        user, colon, password = info.partition(":")
        secret = password if colon else user
        at = m.start(2) + (len(user) + 1 if colon else 0)
        if (keep_references and is_reference(secret, m.string, at)) or _example_user_info(user, password if colon else None):
            return m[0]
        return f"{sep}{REDACTED}@{host}"

    def param(m: re.Match[str]) -> str:
        sep, name, scheme, value = m.groups()
        secret = secret_name(name) or _URL_SECRET_PARAM_RE.fullmatch(name)
        if not secret or not value or placeholder_or_slot(value) or (keep_references and is_reference(value, m.string, m.start(4))):
            return m[0]
        if record_key(name, value) or scheme_name(value):  # ``?ods_key=pappg``: a document's id; ``?auth=basic``
            return m[0]
        if scheme and not literal_or_braced(value, after_scheme=True, quoted=single_quoted(m.string, m.start(4))):
            return m[0]  # ``?auth=bearer or a cookie``: prose after a scheme's name
        return f"{sep}{name}={scheme}{REDACTED}"

    def dsn(m: re.Match[str]) -> str:
        user, _, password = m["info"].partition(":")
        if (keep_references and is_reference(password, m.string, m.start() + len(user) + 1)) or _example_user_info(user, password):
            return m[0]
        return f"{REDACTED}@"

    def host_info(m: re.Match[str]) -> str:
        # The user stays (``admin:[redacted]@db``), as client rules keep it (``mysqlsh bob:X@host``).
        user, password = m["info"].partition(":")[0], m["pw"]
        if not literal_or_braced(password) or _example_user_info(user, password):
            return m[0]
        if keep_references and is_reference(password, m.string, m.start("pw")):
            return m[0]
        return replace_group(m, "pw", REDACTED)

    if any(part in text for part in _WEBHOOK_PARTS):
        text = _WEBHOOK_RE.sub(_webhook, text)
    if "@tcp" in text or "@unix(" in text or "@udp(" in text:
        text = _DSN_RE.sub(dsn, text)
    if ":" in text and "@" in text:
        text = _HOST_INFO_RE.sub(host_info, text)
    if "://" not in text:
        return text
    return param_re.sub(param, authority_re.sub(authority, text))


def redact_shell_urls(text: str) -> str:
    """`redact_urls` for shell text: a quote, a pipe or a parenthesis ends a URL, and user
    info or a parameter whose secret is a shell reference (``?token=$TOKEN``) is kept;
    in single quotes a ``$`` is literal text (`is_reference`)."""
    return _redact_urls(text, _SHELL_URL_AUTHORITY_RE, _SHELL_URL_PARAM_RE, keep_references=True)


def _example_user_info(user: str, password: str | None) -> bool:
    """Whether a URL's user info only shows its shape: a placeholder secret
    (``https://<token>@host``, ``user:your_password@``) or the words documentation writes
    (``postgresql://user:pass@localhost``, ``username:password@``, ``ssh://git@host``:
    the login every git host uses), or a user name alone that reads as a name, not a
    token (``postgres://app@db``), which hold no secret."""
    secret = user if password is None else password
    if placeholder_or_slot(secret) or (password is None and user == "git"):
        return True
    if password is None and _USER_NAME_RE.fullmatch(user) and not literal_or_braced(user):
        return True  # ``postgres://app@db``: a login's name, no token

    return password is not None and (user.casefold(), password.casefold()) in _EXAMPLE_USER_INFO


def _webhook(m: re.Match[str]) -> str:
    group = next(g for g in _WEBHOOK_GROUPS if m[g] is not None)
    parts = m[group].split("/")
    # Kept when a part says it is a placeholder (``YOUR``, ``XXXX``) and none may be a key:
    # ``YOUR/SLACK/WEBHOOK``, not ``T0/B0/XYZ`` or ``YOUR/SLACK/abcdEFGH1234``.
    marked = any(part == "YOUR" or is_placeholder(part) for part in parts)
    if marked and all(is_placeholder(part) or _KEYLESS_PART_RE.fullmatch(part) for part in parts):
        return m[0]
    return replace_group(m, group, REDACTED)
