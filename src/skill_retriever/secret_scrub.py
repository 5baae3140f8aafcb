"""Redact, in place, secrets an index took in before ingestion redacted them (``repair``)."""

from __future__ import annotations

from skill_retriever.stores.index import Index


def scrub_secrets(index: Index) -> list[str]:
    """Write back, redacted, the items that hold secrets indexed before ingest redacted
    them (`ingest.scrub`); the ids written. Their text changes, so they embed again."""
    from skill_retriever.ingest.scrub import scrubbed

    fixed = [clean for node in index.snapshot().nodes.values() if (clean := scrubbed(node)) is not None]
    if fixed:
        index.upsert(fixed)
    return sorted(n.id for n in fixed)
