"""Writing a test's source files: one helper for the ingest and bad-input tests."""

from __future__ import annotations

from pathlib import Path


def write_file(root: Path, rel: str, content: str | bytes) -> Path:
    """``content`` at ``root / rel`` (folders made), text as UTF-8, bytes as they are."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path
