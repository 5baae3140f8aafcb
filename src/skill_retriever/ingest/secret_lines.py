"""Which lines of a text the ingest secret rules change, and by which rule (`secret_lines`).

The index keeps a Markdown file redacted (`prose_secrets.redact_prose`), but `install`
copies the file as its repository has it: a script must run byte for byte. So the
install plan says which lines of a copied file hold what the index took out, and of what
kind, never the secret itself. It runs `prose_secrets.PROSE_RULES`, the very rules
`redact_prose` applies, one at a time and in the same order, and notes the lines each
one changed: no second detector, so a file the index keeps as written is never flagged
and one it redacts always is.

A rule may change how many lines there are (a PEM private key block becomes one
``[redacted]``): each line after a rule is traced back to the line of the file it came
from (`difflib`), so a later rule's line is still the file's line number.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

__all__ = ["SecretLine", "secret_lines"]


@dataclass(frozen=True, order=True)
class SecretLine:
    """A line of a file (``line``, from 1) where a secret rule fired, and the rule's kind
    (``kind``: "a token of a well-known format", ...)."""

    line: int
    kind: str


def secret_lines(text: str) -> tuple[SecretLine, ...]:
    """The lines of ``text`` the ingest secret rules change, each with the kind of the
    first rule that changed it, in line order; none for a text the index keeps as it is."""
    # Imported here: the patterns take tens of ms to compile, and `uninstall`, which
    # imports the install plan's types (`SecretLine`), reads no file through them.
    from skill_retriever.ingest.prose_secrets import PROSE_RULES

    lines = text.split("\n")
    origin = list(range(1, len(lines) + 1))  # each current line's line in ``text``
    found: dict[int, str] = {}
    for kind, rule in PROSE_RULES:
        after = rule("\n".join(lines)).split("\n")
        if after == lines:
            continue
        traced: list[int] = []
        for op, i1, i2, j1, j2 in SequenceMatcher(None, lines, after, autojunk=False).get_opcodes():
            if op != "equal":
                for i in range(i1, i2):
                    found.setdefault(origin[i], kind)
            # a line the rule made stands for the first of the lines it replaced
            traced += origin[i1:i2] if op == "equal" else [origin[min(i1, len(origin) - 1)]] * (j2 - j1)
        lines, origin = after, traced
    return tuple(sorted(SecretLine(n, k) for n, k in found.items()))
