"""A .NET config's setting, ``<add key="ApiKey" value="X" />``: `redact_app_settings`.

An ``appSettings`` (or ``applicationSettings``) section of ``web.config`` or
``app.config`` names each setting by a ``key`` attribute and holds it in a ``value``
attribute of the same element (an ``applicationSettings`` section names it by a
``<setting name=...>`` and holds it in the ``<value>`` element inside), so neither the assignment rules (they read ``key="ApiKey"``
as the pair, and a command's took the name, not the value, out) nor an XML element's
rule (``<password>X</password>``) read the value. It goes when the key names a secret
(`secret_values.secret_word_name`: ``ApiKey``, ``Stripe:SecretKey``, ``DbPassword``; not
``PageSize``) and the value reads as one (`braced_values.literal_or_braced`: a literal
secret, or one in braces, ``{p@ss;w0rd}``, not a template's ``{ApiKey}``; or a phrase:
``"correct horse battery staple"``); a placeholder (``your-api-key``, ``changeme``) or a
reference stays.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import literal_phrase, secret_word_name

__all__ = ["APP_SETTING_RES", "redact_app_settings"]

_Q = r"""[ \t]*+=[ \t]*+(?P<{0}>\\?["'])(?P<{1}>[^"'\\<>\n]{{1,{2}}}+)(?P={0})"""
#: A setting's key (``name``) and value (``val``): ``<add key="NAME" value="X"``, the
#: attributes in either order, quotes escaped or not (as in a JSON string), and a
#: ``Settings.settings`` file's ``<setting name="NAME" ...><value>X</value>``; name and
#: value bounded, so no start rescans a long run.
APP_SETTING_RES = (
    re.compile(r"<add\s++key" + _Q.format("kq", "name", 128) + r"\s++value" + _Q.format("q", "val", 512), re.IGNORECASE),
    re.compile(r"<add\s++value" + _Q.format("q", "val", 512) + r"\s++key" + _Q.format("kq", "name", 128), re.IGNORECASE),
    re.compile(
        r"<setting\s++name" + _Q.format("kq", "name", 128) + r"[^<>]{0,256}+>\s*+<value>(?P<val>[^<>\n]{1,512}+)</value>",
        re.IGNORECASE,
    ),
    # Any other element named by a ``name`` or ``key`` and holding a ``value`` (Spring's
    # ``<property name="password" value="X"/>``, Ant's, a JNDI ``<Environment>``'s).
    re.compile(
        r"<(?!add\s)[A-Za-z][\w:.-]{0,64}+\s++(?:name|key)" + _Q.format("kq", "name", 128)
        + r"\s++value" + _Q.format("q", "val", 512),
        re.IGNORECASE,
    ),
    # An element whose text is the value, named for the secret (Maven's ``<password>X</password>``)
    # or by its ``key`` or ``name`` (a Java properties file's ``<entry key="db.password">X</entry>``).
    re.compile(
        r"""<(?P<tag>[A-Za-z_][\w.-]{0,128}+)(?:[ \t]++(?:key|name)=(?P<kq>["'])(?P<name>[\w.-]{1,128}+)(?P=kq))?+[ \t]*+>"""
        r"""(?P<val>[^<>\s]{1,256}+)</(?P=tag)>"""
    ),
)
#: What a text holds when each of `APP_SETTING_RES` may match in it (lowered).
_SETTING_WORDS = ("<add", "<add", "<setting", "value", "</")


def redact_app_settings(text: str) -> str:
    """``text`` with the secret values of its ``<add key="NAME" value="X" />`` settings
    replaced by `REDACTED` (see the module docstring)."""
    lower = text.lower()
    for pattern, tag in zip(APP_SETTING_RES, _SETTING_WORDS, strict=True):
        if tag in lower:
            text = pattern.sub(_setting, text)
    return text


def _setting(m: re.Match[str]) -> str:
    """A setting with its value redacted when its key (a dotted one's last part) or else its
    element names a secret and its value reads as one."""
    value, name = m["val"], m["name"] or m.groupdict()["tag"]
    if not secret_word_name(name.rpartition(".")[2]) or not (literal_or_braced(value) or literal_phrase(f'"{value}"')):
        return m[0]
    return replace_group(m, "val", REDACTED)
