"""Secrets of a well-known format, taken out wherever they stand: `redact_formats`.

A token of a known shape (an OpenAI or GitHub token, an AWS access key id, a Google API
key, a JWT) or a PEM private key block is a secret in prose, a shell command or an
argument alike, whatever names it or stands around it; `secrets` applies these before
its rules for names and flags, and every redaction writes `REDACTED`.

An AWS secret access key has no prefix of its own: 40 characters of base64 are taken
only on a line that says what they are (an access key id, already redacted or not, the
word ``secret`` or ``aws``), since a bare 40-character run is as likely an ordinary hash.

Every pattern runs in linear time on any input (a crafted file is no reason to stall an
index run): none can start inside a run it would then rescan from each position.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from skill_retriever.ingest.item_attrs import REDACTED
from skill_retriever.ingest.secret_values import is_placeholder
from skill_retriever.ingest.word_lines import on_lines, on_words

# `on_lines` and `REDACTED` are re-exported: they lived here.
__all__ = ["FORMAT_RULES", "REDACTED", "on_lines", "redact_formats"]

#: Token formats that are secrets wherever they appear (OpenAI / Anthropic, Stripe,
#: GitHub, Slack, GitLab, AWS access key ids; Hugging Face, npm, PyPI, SendGrid,
#: DigitalOcean, Databricks, Shopify, Grafana, Slack app, Stripe webhook, Google OAuth,
#: age, Linear, Groq, Replicate, Perplexity, Tavily, Notion, Telegram bot; and the
#: issuers listed in the pattern). Each body is
#: as long as its issuer writes it and of its characters, so a name sharing a prefix
#: (``hf_token``, ``npm_output``, ``whsec_your_webhook_secret``) is no token; runs are
#: possessive, so a long run that ends badly is scanned once.
KNOWN_TOKEN_RE = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{20,}|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}"
    r"|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{8,}"
    r"|glpat-[A-Za-z0-9_-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}"
    r"|hf_[A-Za-z0-9]{30,}+|npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{40,}+"
    r"|SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}|do[opr]_v1_[a-f0-9]{64}|dapi[a-f0-9]{32}"
    r"|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
    r"|xapp-[0-9]-[A-Z0-9]++-[0-9]++-[a-z0-9]{20,}+|whsec_[A-Za-z0-9+/]{24,}+"
    r"|ya29\.[A-Za-z0-9_-]{20,}+|AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}|lin_api_[A-Za-z0-9]{40}"
    r"|gsk_[A-Za-z0-9]{48,}+|r8_[A-Za-z0-9]{37}|pplx-[A-Za-z0-9]{40,}+"
    r"|tvly-(?:dev-)?[A-Za-z0-9]{32}|ntn_[0-9]{11}[A-Za-z0-9]{35}|[0-9]{8,10}:AA[A-Za-z0-9_-]{33}"
    # Doppler, Postman, New Relic, Pulumi, Supabase, Tailscale, Mailgun, Heroku, Fly.io, CircleCI,
    # Sentry, Atlassian, Docker Hub, LangSmith, Firecrawl, Twilio, Cloudflare origin CA, xAI,
    # ElevenLabs, Pinecone, Neon, PlanetScale, Terraform Cloud, Bitbucket, Square, Mailchimp,
    # Dropbox, Facebook, Figma, Browserbase: each issuer's published shape.
    r"|dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{2,35}+\.)?+[A-Za-z0-9]{40,44}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}"
    r"|NRAK-[A-Z0-9]{27}|pul-[a-f0-9]{40}|sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,}+"
    r"|tskey-[a-z]{3,8}+-[A-Za-z0-9]{6,}+-[A-Za-z0-9]{16,}+|key-[a-f0-9]{32}|HRKU-[A-Za-z0-9_-]{58,}+"
    r"|fm[12][ar]?+_[A-Za-z0-9+/]{80,}+|CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}|sntry[su]_[A-Za-z0-9_+/-]{60,}+"
    r"|ATATT3[A-Za-z0-9_=-]{100,}+|dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}+|lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"
    r"|fc-[a-f0-9]{32}|SK[a-f0-9]{32}|v1\.0-[a-f0-9]{24}-[a-f0-9]{146}|xai-[A-Za-z0-9]{70,}+|sk_[a-f0-9]{48}"
    r"|pcsk_[A-Za-z0-9_]{40,}+|napi_[a-z0-9]{64}|pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_-]{32,}+"
    r"|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}+|ATBB[A-Za-z0-9]{28,}+|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}+"
    r"|[a-f0-9]{32}-us[0-9]{1,2}|sl\.(?:u\.)?+[A-Za-z0-9_-]{130,}+|EAA[A-Za-z0-9]{100,}+|figd_[A-Za-z0-9_-]{40,}+"
    r"|bb_live_[A-Za-z0-9_-]{20,}+)\b"
)
#: A part of every token `KNOWN_TOKEN_RE` takes, in the order of its formats: a line
#: without one holds none, and is not scanned (`re` tries each format at each position).
_TOKEN_PARTS = (
    "sk-", "k_live_", "k_test_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "glpat-",
    "AKIA", "ASIA", "hf_", "npm_", "pypi-AgE", "SG.", "_v1_", "dapi", "shp", "glsa_", "xapp-", "whsec_",
    "ya29.", "AGE-SECRET-KEY-1", "lin_api_", "gsk_", "r8_", "pplx-", "tvly-", "ntn_", ":AA",
    "dp.", "PMAK-", "NRAK-", "pul-", "sbp_", "sb_secret_", "tskey-", "key-", "HRKU-", "fm1", "fm2", "CCIPAT_", "sntry", "ATATT3",
    "dckr_", "lsv2_", "fc-", "SK", "v1.0-", "xai-", "sk_", "pcsk_", "napi_", "pscale_", ".atlasv1.", "ATBB",
    "sq0", "-us", "sl.", "EAA", "figd_", "bb_live_",
)
#: A Google API key (``AIza`` and 35 more) and a JWT (header and payload are base64url of
#: a JSON object, ``eyJ``; the signature may be empty). A ``-`` may end either, so the
#: ends are looked around at rather than ``\b``.
_BASE64URL_TOKEN_RE = re.compile(
    r"(?<![A-Za-z0-9_-])(?:AIza[A-Za-z0-9_-]{35}"
    r"|eyJ[A-Za-z0-9_-]{10,}+\.eyJ[A-Za-z0-9_-]{10,}+(?:\.[A-Za-z0-9_-]*+)?)(?![A-Za-z0-9_-])"
)
#: A PEM private key (RSA, EC, DSA, OPENSSH, PKCS#8 ``PRIVATE KEY``, ``ENCRYPTED PRIVATE
#: KEY``, a PGP ``PRIVATE KEY BLOCK``): its BEGIN line, its body up to the next ``-----``
#: or backtick (a Markdown fence closes an example whose END line is missing), and its
#: END line when that comes next.
_PEM_LABEL = r"[A-Z0-9]+(?: [A-Z0-9]+)*+"
_PEM_RE = re.compile(
    r"-----BEGIN (?P<label>" + _PEM_LABEL + r")-----(?P<body>(?:[^-`]|-(?!----))*+)"
    r"(?P<end>-----END " + _PEM_LABEL + r"-----)?"
)
#: OpenVPN's static key (``tls-auth``, ``tls-crypt``, ``secret``): a PEM-like block of hex
#: lines, its label in mixed case.
_OPENVPN_KEY_RE = re.compile(
    r"-----BEGIN OpenVPN Static key V1-----(?P<body>(?:[^-`]|-(?!----))*+)-----END OpenVPN Static key V1-----"
)
_HEX_LINE_RE = re.compile(r"[0-9a-fA-F]{32}")
#: A PEM private key block written in base64 (a kubeconfig's ``client-key-data``, a
#: Kubernetes Secret's ``tls.key``, a CI variable): ``-----BEGIN`` is ``LS0tLS1CRUdJTi``.
_BASE64_PEM_RE = re.compile(r"(?<![A-Za-z0-9+/=])LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}+={0,2}+(?![A-Za-z0-9+/=])")
#: A PuTTY private key file's (``.ppk``) private part: the base64 lines after its
#: ``Private-Lines: N`` header (its public lines and MAC stay).
_PPK_RE = re.compile(
    r"(?m)^[ \t>]*+Private-Lines:[ \t]*+\d{1,4}+[ \t]*+\r?\n(?P<body>(?:[ \t>]*+[A-Za-z0-9+/=]{8,}+[ \t]*+\r?(?:\n|\Z))++)"
)
#: A body holds a key when it holds a base64 run as long as a PEM line; an example that
#: shows only the shape (``MIIE...``, ``<your key>``) holds none and is kept.
_KEY_BODY_RE = re.compile(r"[A-Za-z0-9+/=]{40}")
#: The lines of an unclosed block's body that are its key: base64 (``\n`` escapes of a
#: JSON string included) and RFC 1421 headers (``Proc-Type: 4,ENCRYPTED``).
_KEY_LINE_RE = re.compile(
    r"[ \t>]*+(?:(?:Proc-Type|DEK-Info|Comment|Version): [^\n]*+|[A-Za-z0-9+/=]++|\\n)*+[ \t\r]*+"
)

#: An AWS secret access key: a run of exactly 40 base64 characters (`_aws_secret` asks
#: for upper and lower case letters and a digit: a git hash, hex in lower case, is none).
_AWS_SECRET_RE = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
#: A HashiCorp Vault token: ``hvs.`` (service), ``hvb.`` (batch) or ``hvr.`` (recovery)
#: and 24 or more characters, or a legacy service token, ``s.`` and exactly 24 letters
#: and digits. Not a name's attribute (``this.s.X``, ``$s.X``) nor one called or read on
#: (``s.X()``, ``s.X.y``); `_vault_token` asks for both cases and a digit, as a random
#: body has (``s.getElementsByClassName``, ``hvs.xxxx...`` are none).
_VAULT_TOKEN_RE = re.compile(
    r"(?<![\w.$/-])(?:hv[sbr]\.(?P<body>[A-Za-z0-9_-]{24,}+)|s\.(?P<old>[A-Za-z0-9]{24}+))(?![\w(-]|\.[\w(])"
)
#: A part of every Vault token (``s.`` of ``hvs.`` too), as they are written.
_VAULT_PARTS = ("s.", "hvb.", "hvr.")
#: A password's crypt hash (``/etc/shadow``'s ``$6$salt$...``, htpasswd's ``$apr1$``, bcrypt's
#: ``$2b$12$...``, yescrypt's ``$y$``, ``$argon2id$v=19$m=...$salt$hash``): a wordlist cracks a
#: weak password out of it, as out of ``useradd -p HASH`` (`client_passwords`). Its last
#: field must hold 20 characters of the hash alphabet, so a shape shown with ``...`` stays.
_CRYPT_HASH_RE = re.compile(
    r"(?<![\w$])\$(?:1|2[abxy]|5|6|7|y|gy|apr1|argon2(?:id|i|d)|scrypt|pbkdf2(?:-sha(?:1|256|512))?)"
    r"\$(?:[\w.,=/+-]{0,64}+\$){0,3}+[./A-Za-z0-9+]{20,}+={0,2}+(?![\w$./+])"
)
#: What on a line says that such a run is an AWS secret.
_AWS_CONTEXT_RE = re.compile(
    r"(?i:secret|aws)|(?:AKIA|ASIA)[0-9A-Z]{16}|" + re.escape(REDACTED)
)
#: What a line `_AWS_CONTEXT_RE` matches in holds, lowered (`word_lines.on_words`).
_AWS_CONTEXT_WORDS = ("secret", "aws", "akia", "asia", REDACTED)


def redact_formats(text: str) -> str:
    """``text`` with every secret of a well-known format replaced by `REDACTED`: PEM
    private key blocks (the whole block; in base64 too), OpenVPN static keys, a PuTTY
    key's private lines, tokens of known prefixes (not one of
    placeholder marks, ``ghp_xxxx...``), Vault tokens, Google API keys,
    JWTs, AWS secret access keys on a line that names them, and passwords' crypt hashes
    (`FORMAT_RULES`, in that order). Text without any comes back identical."""
    for _, rule in FORMAT_RULES:
        text = rule(text)
    return text


def _pems(text: str) -> str:
    return _PEM_RE.sub(_pem, text) if "-----BEGIN " in text else text


def _base64_pems(text: str) -> str:
    return _BASE64_PEM_RE.sub(_base64_pem, text) if "LS0tLS1CRUdJTi" in text else text


def _openvpn_keys(text: str) -> str:
    if "-----BEGIN OpenVPN" not in text:
        return text
    return _OPENVPN_KEY_RE.sub(lambda m: REDACTED if _HEX_LINE_RE.search(m["body"]) else m[0], text)


def _putty_keys(text: str) -> str:
    if "Private-Lines:" not in text:
        return text
    return _PPK_RE.sub(lambda m: replace_group(m, "body", REDACTED + ("\n" if m["body"].endswith("\n") else "")), text)


def _base64_pem(m: re.Match[str]) -> str:
    """A base64 PEM block replaced when it is a private key's (its BEGIN line says so)."""
    head = m[0][:80]
    head = head[: len(head) - len(head) % 4]
    try:
        begin = base64.b64decode(head).decode("ascii", "replace")
    except binascii.Error:  # not base64 after all: a word that starts so
        return m[0]
    return REDACTED if "PRIVATE KEY" in begin.split("\n", 1)[0] else m[0]


def _aws_secrets(text: str) -> str:
    return on_words(
        text, _AWS_CONTEXT_RE, _AWS_CONTEXT_WORDS, lambda line: _AWS_SECRET_RE.sub(_aws_secret, line), confirm=True
    )


def _crypt_hashes(text: str) -> str:
    return _CRYPT_HASH_RE.sub(REDACTED, text) if "$" in text else text


def _known_tokens(text: str) -> str:
    # No token spans lines, and ``\b`` reads a line's ends as the text's: line by line is the same.
    return on_words(text, KNOWN_TOKEN_RE, _TOKEN_PARTS, lambda line: KNOWN_TOKEN_RE.sub(_known_token, line), fold=False)


def _vault_tokens(text: str) -> str:
    return on_words(text, _VAULT_TOKEN_RE, _VAULT_PARTS, lambda line: _VAULT_TOKEN_RE.sub(_vault_token, line), fold=False)


def _base64url_tokens(text: str) -> str:
    if "AIza" in text or "eyJ" in text:  # the pattern has no prefix a scan could skip to
        return _BASE64URL_TOKEN_RE.sub(REDACTED, text)
    return text


#: The rules of `redact_formats`, in the order it applies them, each with the kind of
#: secret it takes out, as a person reads it (`secret_lines` names the rule that fired on
#: a line of a file install copies as written).
FORMAT_RULES: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("a private key (PEM block)", _pems),
    ("a private key (PEM block in base64)", _base64_pems),
    ("an OpenVPN static key", _openvpn_keys),
    ("a PuTTY private key", _putty_keys),
    ("an AWS secret access key", _aws_secrets),
    ("a token of a well-known format", _known_tokens),
    ("a HashiCorp Vault token", _vault_tokens),
    ("a Google API key or a JWT", _base64url_tokens),
    ("a password's crypt hash ($6$..., $2b$...)", _crypt_hashes),
)


def _pem(m: re.Match[str]) -> str:
    """A PEM block replaced whole when it is a private key's and holds one; an unclosed
    one loses its BEGIN line and the key lines after it, not the text that follows."""
    if not m["label"].endswith(("PRIVATE KEY", "PRIVATE KEY BLOCK")):
        return m[0]
    body = m["body"]
    if m["end"] is not None:
        return REDACTED if _KEY_BODY_RE.search(body) else m[0]
    lines = body.split("\n")
    taken = 0  # the rest of the BEGIN line, then the key's lines up to a blank or other one
    while taken < len(lines) and (taken == 0 or lines[taken].strip()):
        if _KEY_LINE_RE.fullmatch(lines[taken]) is None:
            break
        taken += 1
    if not _KEY_BODY_RE.search("\n".join(lines[:taken])):
        return m[0]
    return "\n".join([REDACTED, *lines[taken:]])


def _aws_secret(m: re.Match[str]) -> str:
    token = m[0]
    mixed = any(c.islower() for c in token) and any(c.isupper() for c in token)
    return REDACTED if mixed and any(c.isdigit() for c in token) else token


def _known_token(m: re.Match[str]) -> str:
    """A token of a known format, kept when only placeholder marks follow its prefix
    (``ghp_xxxx...``: `secret_values.is_placeholder`), a template's, not a token."""
    return m[0] if is_placeholder(m[0]) else REDACTED


def _vault_token(m: re.Match[str]) -> str:
    body = m["body"] or m["old"]
    mixed = any(c.islower() for c in body) and any(c.isupper() for c in body)
    return REDACTED if mixed and any(c.isdigit() for c in body) else m[0]


def replace_group(m: re.Match[str], group: str, new: str) -> str:
    """The text of ``m`` with its ``group`` replaced by ``new``."""
    start, end = m.span(group)
    return m[0][: start - m.start()] + new + m[0][end - m.start() :]
