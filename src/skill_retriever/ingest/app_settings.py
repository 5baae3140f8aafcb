"""A .NET config's setting, ``<add key="ApiKey" value="X" />``: `redact_app_settings`.

An ``appSettings`` (or ``applicationSettings``) section of ``web.config`` or
``app.config`` names each setting by a ``key`` attribute and holds it in a ``value``
attribute of the same element, so neither the assignment rules (they read ``key="ApiKey"``
as the pair, and a command's took the name, not the value, out) nor an XML element's
rule (``<password>X</password>``) read the value. It goes when the key names a secret
(`secret_values.secret_word_name`: ``ApiKey``, ``Stripe:SecretKey``, ``DbPassword``; not
``PageSize``) and the value reads as one (`literal_secret`, or a phrase: ``"correct horse
battery staple"``); a placeholder (``your-api-key``, ``changeme``) or a reference stays.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import literal_phrase, literal_secret, secret_word_name

__all__ = ["APP_SETTING_RE", "redact_app_settings"]

#: ``<add key="NAME" value="X"`` (attributes on one element, quotes escaped or not, as in
#: a JSON string); name and value bounded, so no start rescans a long run.
APP_SETTING_RE = re.compile(
    r"""<add\s++key[ \t]*+=[ \t]*+(?P<kq>\\?["'])(?P<name>[^"'\\<>\n]{1,128}+)(?P=kq)"""
    r"""\s++value[ \t]*+=[ \t]*+(?P<q>\\?["'])(?P<val>[^"'\\<>\n]{1,512}+)(?P=q)""",
    re.IGNORECASE,
)


def redact_app_settings(text: str) -> str:
    """``text`` with the secret values of its ``<add key="NAME" value="X" />`` settings
    replaced by `REDACTED` (see the module docstring)."""
    if "<add" not in text and "<ADD" not in text:
        return text
    return APP_SETTING_RE.sub(_setting, text)


def _setting(m: re.Match[str]) -> str:
    """A setting with its value redacted when its key names a secret and its value reads as one."""
    value = m["val"]
    if not secret_word_name(m["name"]) or not (literal_secret(value) or literal_phrase(f'"{value}"')):
        return m[0]
    return replace_group(m, "val", REDACTED)
