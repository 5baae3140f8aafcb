"""An item text's injection flags and token count, kept by the text they were read from.

A write publishes a new snapshot, whose memo tables start empty; when they were keyed by
item id alone, the first query after any write, however small, scanned and counted each
item it returned again, the unchanged ones too, at a cost linear in their length (a
megabyte-long skill costs tenths of a second). Here they are kept by what they were
computed from, in a table that the :class:`~skill_retriever.stores.index.Index` hands to
each snapshot it publishes:

* flags by a digest of every string the scan reads (``safety.injection.scan_inputs``:
  the embedding text, the tags and the attrs, each with where it stands), and by the
  scanner that judged them (the function: the rules are the code this process loaded);
* token counts by the item's ``content_hash`` (the digest of the text counted) and the
  encoding.

An item whose text changed has another key and is read again; two items with different
text never share one. Nothing is stored on disk, so no verdict outlives the code that made
it. The table is bounded (least recently used dropped) and thread-safe (``Memo``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

from skill_retriever.model import Node
from skill_retriever.stores.snapshot_memo import Memo

__all__ = ["inputs_digest", "item_flags", "item_tokens"]

#: Room for each of a snapshot's items and as many earlier versions of them.
_PER_ITEM = 2
_SLACK = 64


def inputs_digest(text: str, texts: Mapping[str, str]) -> str:
    """SHA-256 of ``text`` and each ``(where, text)`` of ``texts`` in order, each part
    preceded by its length, so no two different inputs read as one."""
    digest = hashlib.sha256()
    for part in (text, *(s for pair in texts.items() for s in pair)):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def item_flags(
    table: Memo, node: Node, items: int, read: Callable[[Sequence[str], int], None] | None = None
) -> tuple[str, ...]:
    """``safety.injection.scan_node(node)``, scanned once per item text; ``items`` is how
    many items the snapshot holds (the table's bound). Where it scans, ``read`` is told the
    words the scan read and of how many characters (``injection.stuffing_words``), so a
    caller that needs them too does not tokenize the text again."""
    from skill_retriever.safety import injection

    text, texts = injection.scan_inputs(node)
    scanner = injection.scan_read  # looked up now: a replaced scanner's verdicts are its own

    def scan() -> tuple[str, ...]:
        words = injection.stuffing_words(text)
        found = scanner(text, texts, words)
        if read is not None:
            read(words, injection.STUFFING_WINDOW)
        return found

    return table.get("flags", (scanner, inputs_digest(text, texts)), scan, _PER_ITEM * items + _SLACK)


def item_tokens(table: Memo, node: Node, encoding: str, items: int) -> int:
    """The tiktoken count of ``node.embedding_text()`` in ``encoding``, counted once per
    item text and encoding."""
    from skill_retriever.algorithms.budget import token_counter

    return table.get(
        "tokens", (encoding, node.content_hash()), lambda: token_counter(encoding)(node.embedding_text()),
        4 * _PER_ITEM * items + _SLACK,
    )
