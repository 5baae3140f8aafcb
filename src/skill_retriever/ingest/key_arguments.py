"""A call's bare ``key=`` argument that holds a credential: `redact_key_arguments`.

``key`` alone names a dictionary's key, a sort key, a measurement's or an artifact's
name as often as a credential (``cirq.measure(q, key='result')``, ``max(xs,
key=len)``, ``ln.Artifact.get(key="datasets/train.parquet")``), so prose does not read
it as a secret's name (`secret_values.secret_word_name`). Some clients take their API key
under it (``wandb.login(key="...")``), and what such a call passes is told apart by
its value alone: a literal only a machine writes, 20 or more letters and digits (``_``
and ``-`` between them) that switch between letters and digits often (`strong_literal`),
as a hexadecimal or base62 token does and a name (``validation_status``, ``model_v2``)
does not. A quoted value is read only (a bare word is a variable), and only after a
call's ``(`` or ``,``: names such as ``fileKey`` or ``experiment_key`` are no ``key``.
"""

from __future__ import annotations

import re

from skill_retriever.ingest.braced_values import literal_or_braced
from skill_retriever.ingest.secret_formats import REDACTED, replace_group

__all__ = ["KEY_ARGUMENT_RE", "redact_key_arguments", "strong_literal"]

#: ``key="value"`` as a call's argument, its quotes escaped or not (a JSON string's
#: ``\\"``); the value bounded, so no start rescans a long run.
KEY_ARGUMENT_RE = re.compile(
    r"""(?<=[(,])\s*+key[ \t]*+=[ \t]*+(?P<q>\\?["'])(?P<val>[A-Za-z0-9_-]{20,256}+)(?P=q)"""
)
#: The fewest switches between a letter and a digit that make a value a machine's: a
#: 20-character base62 token has about five, a hexadecimal one of 32 about fifteen.
_MIN_SWITCHES = 4
_SWITCH_RE = re.compile(r"(?<=[A-Za-z])\d|(?<=\d)[A-Za-z]")


def strong_literal(value: str) -> bool:
    """Whether ``value`` reads as a credential a machine wrote (see the module docstring):
    a literal secret (`braced_values.literal_or_braced`: no placeholder,
    ``your_wandb_api_key_here``, nor code) with `_MIN_SWITCHES` or more switches between letters and digits."""
    return literal_or_braced(value) and len(_SWITCH_RE.findall(value)) >= _MIN_SWITCHES


def redact_key_arguments(text: str) -> str:
    """``text`` with the value of each call's ``key="..."`` argument that reads as a
    credential (`strong_literal`) replaced by `REDACTED`, its quotes kept."""
    if "key" not in text:
        return text
    return KEY_ARGUMENT_RE.sub(lambda m: replace_group(m, "val", REDACTED) if strong_literal(m["val"]) else m[0], text)
