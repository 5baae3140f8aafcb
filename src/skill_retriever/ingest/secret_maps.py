"""A map whose own name says its values are secrets, keyed by whose they are:
`redact_secret_maps`.

Basic auth's users, a service's accounts and an app's API keys are often written as a
map from a name to its secret: YAML's ``passwords:`` then ``admin: X``, ``credentials:``
then ``bob: X``, JSON's ``"api_keys": {"billing": "X"}``. Each key is a user's or a
service's name (``admin``, ``bob``), which names no secret (`secret_values.secret_word_name`),
so the value stayed. Under such a map (`_MAP_NAME`: passwords, secrets, tokens,
credentials, API keys, auth tokens; plural, a map of many) each value directly in it goes
when it reads as a literal secret (`braced_values.literal_or_braced`: no word, path,
reference or placeholder); a nested map or a list is not read. Prose reads it
(`prose_secrets`); a YAML map is read by its indentation, a JSON one (or a JavaScript
object, a Python dict) in its braces, a TOML or INI table (``[passwords]``) to the next
table's header. And a Terraform variable named for a secret or marked ``sensitive`` loses
its literal ``default`` (`_TF_VARIABLE_RE`).
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.secret_formats import REDACTED, replace_group
from skill_retriever.ingest.secret_values import literal_phrase, secret_word_name

__all__ = ["MAP_WORDS", "redact_secret_maps"]

#: What a text that may hold such a map holds (a cheap test before any scan).
MAP_WORDS = ("passw", "secrets", "tokens", "credentials", "keys")
#: A map's name that says its values are secrets: plural, with a word before it or not
#: (``passwords``, ``user_passwords``, ``basic_auth_credentials``, ``api_keys``).
_MAP_NAME = (
    r"(?i:(?:[\w-]{0,32}?[_-])?(?:passwords|passwds|secrets|tokens|credentials"
    r"|(?:api|access|auth|secret)[_-]?keys|(?:api|access|auth)[_-]?tokens))"
)
#: A YAML map's name on a line of its own (``ind``: its indentation).
_YAML_MAP_RE = re.compile(r"(?m)^(?P<ind>[ \t]*+)(?:-[ \t]++)?+" + _MAP_NAME + r"[ \t]*+:[ \t]*+(?:#[^\n]*+)?+$")
#: A line of the map: a key and a scalar value (``val``), quoted or bare, an end comment after it.
_YAML_ENTRY_RE = re.compile(
    r"""(?P<ind>[ \t]++)(?P<key>["']?+[\w.@-]{1,64}+["']?+)[ \t]*+:[ \t]++"""
    r"""(?P<val>"[^"\n]{1,256}+"|'[^'\n]{1,256}+'|[^\s#"'][^\s#]{0,255}+)[ \t]*+(?:#[^\n]*+)?+"""
)
#: A JSON map, on one line or over several, its name quoted or, in code, bare (a
#: JavaScript object's key, a Python dict assigned to it: ``API_KEYS = {``), and its
#: flat body (no nested braces).
_JSON_MAP_RE = re.compile(
    r"""(?:["']""" + _MAP_NAME + r"""["']|(?<![\w$.-])""" + _MAP_NAME + r""")[ \t]*+[:=][ \t]*+\{(?P<body>[^{}]{1,4096}+)\}"""
)
#: The end of such a map's name and its opening brace: a text without one holds no such map.
_JSON_MAP_HINT_RE = re.compile(r"""(?i)(?:words|wds|secrets|tokens|credentials|keys)["']?+[ \t]*+[:=][ \t]*+\{""")
#: A pair of a JSON map's body: ``"bob": "X"``, a JavaScript object's ``bob: "X"`` (``val``
#: without its quotes).
_JSON_PAIR_RE = re.compile(
    r"""(?P<q>["']?+)(?P<key>[\w.@-]{1,64}+)(?P=q)[ \t]*+:[ \t]*+(?P<vq>["'])(?P<val>[^"'\n]{1,256}+)(?P=vq)"""
)
#: A TOML or INI table named for secrets (``[passwords]``, ``[app.api_keys]``) and its body,
#: up to the next table's header.
_TOML_TABLE_RE = re.compile(
    r"(?m)^[ \t]*+\[(?:[\w-]{1,64}+\.){0,4}+" + _MAP_NAME + r"\][ \t]*+(?:#[^\n]*+)?+$(?P<body>(?:\n(?![ \t]*+\[)[^\n]*+){1,256}+)"
)
#: An entry of such a table: ``admin = "X"`` (INI's bare ``admin = X`` too).
_TOML_ENTRY_RE = re.compile(
    r"""(?m)^[ \t]*+(?P<key>["']?+[\w.@-]{1,64}+["']?+)[ \t]*+=[ \t]*+(?:(?P<q>["'])(?P<qval>[^"'\n]{1,256}+)(?P=q)"""
    r"""|(?P<val>[^\s#;"'][^\s#;]{0,255}+))[ \t]*+(?:[#;][^\n]*+)?+$"""
)
#: A Terraform variable's block (flat: a ``validation`` block in it is not read) and its
#: literal ``default``, which goes when the variable's name is a secret's or the block
#: says ``sensitive = true`` (``variable "db_password" { default = "X" }``).
_TF_VARIABLE_RE = re.compile(r"""(?m)^[ \t]*+variable[ \t]++"(?P<name>[\w-]{1,128}+)"[ \t]*+\{(?P<body>[^{}]{0,2048}+)\}""")
_TF_DEFAULT_RE = re.compile(r'(?m)^[ \t]*+default[ \t]*+=[ \t]*+"(?P<val>[^"\n]{1,256}+)"')
_TF_SENSITIVE_RE = re.compile(r"(?m)^[ \t]*+sensitive[ \t]*+=[ \t]*+true\b")
#: A key that says what its value is rather than whose it is (``"Key"``, ``value``,
#: ``header``): a section of settings, read by the rules for those (`section_keys`).
_SETTING_KEY_RE = re.compile(r"(?i)key|value|name|header|type|id|kind|scheme|in")
#: A value of capitalised words joined by ``-``: a header's name (``Ocp-Apim-Subscription-Key``,
#: ``X-Api-Key``), which a key is sent under.
_HEADER_NAME_RE = re.compile(r"(?:X-)?+[A-Z][a-z]++(?:-[A-Z][a-z]*+)++")


def redact_secret_maps(text: str) -> str:
    """``text`` with the literal secrets of its secret maps redacted (see the module)."""
    if "variable" in text:
        text = _TF_VARIABLE_RE.sub(_tf_variable, text)
    low = text.lower()
    if not any(word in low for word in MAP_WORDS):
        return text
    if _JSON_MAP_HINT_RE.search(text):  # the map's pattern tries a bare name at every word: only where one opens
        text = _JSON_MAP_RE.sub(lambda m: m[0][: m.start("body") - m.start()] + _JSON_PAIR_RE.sub(_json_pair, m["body"]) + "}", text)
    if "[" in text:
        text = _TOML_TABLE_RE.sub(lambda m: m[0][: m.start("body") - m.start()] + _TOML_ENTRY_RE.sub(_toml_entry, m["body"]), text)
    return _yaml_maps(text)


def _toml_entry(m: re.Match[str]) -> str:
    group = "qval" if m["qval"] is not None else "val"
    return replace_group(m, group, REDACTED) if _secret(m["key"].strip("\"'"), m[group]) else m[0]


def _tf_variable(m: re.Match[str]) -> str:
    body = m["body"]
    if not (secret_word_name(m["name"]) or _TF_SENSITIVE_RE.search(body)):
        return m[0]
    default = _TF_DEFAULT_RE.search(body)
    if default is None or not (literal_or_braced(default["val"]) or literal_phrase(default["val"])):
        return m[0]
    at = m.start("body") - m.start() + default.start("val")
    return m[0][:at] + REDACTED + m[0][at + len(default["val"]) :]


def _json_pair(m: re.Match[str]) -> str:
    return replace_group(m, "val", REDACTED) if _secret(m["key"], m["val"]) else m[0]


def _yaml_maps(text: str) -> str:
    """Each YAML secret map's direct entries with their literal secrets redacted: the
    lines after its name indented deeper, at the first such line's indentation."""
    out, pos = [], 0
    for head in _YAML_MAP_RE.finditer(text):
        if head.start() < pos:
            continue
        base, at, level = len(head["ind"].expandtabs()), head.end() + 1, None
        while at < len(text):
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            line = text[at:end]
            indent = len(line) - len(line.lstrip(" \t"))
            if line.strip() and len(line[:indent].expandtabs()) <= base:
                break  # the map ends where a line is no deeper than its name
            entry = _YAML_ENTRY_RE.fullmatch(line)
            if entry is not None and (level is None or len(entry["ind"].expandtabs()) == level):
                level = len(entry["ind"].expandtabs())
                value = entry["val"]
                inner = value[1:-1] if value[0] in "\"'" else value
                if _secret(entry["key"].strip("\"'"), inner):
                    start = entry.start("val") + (1 if value[0] in "\"'" else 0)
                    out.append(text[pos : at + start] + REDACTED)
                    pos = at + start + len(inner)
            at = end + 1
    return "".join(out) + text[pos:] if out else text


def _secret(key: str, value: str) -> bool:
    """Whether the map's entry ``key``: ``value`` holds a secret: a key of whose it is, not
    of a setting (`_SETTING_KEY_RE`), and a value that reads as a literal secret, not a
    header's name (`_HEADER_NAME_RE`)."""
    if _SETTING_KEY_RE.fullmatch(key) or _HEADER_NAME_RE.fullmatch(value):
        return False
    return literal_or_braced(value)
