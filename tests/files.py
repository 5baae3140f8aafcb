"""Writing a test's source files, and one it cannot read: helpers for the ingest and
bad-input tests."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest


def write_file(
    root: Path, rel: str, content: str | bytes | dict[str, Any] | list[Any], mode: int | None = None
) -> Path:
    """``content`` at ``root / rel`` (folders made): text as UTF-8 with its new lines as
    they are (a test's ``\\r\\n`` stays), bytes as they are, a dict or list as JSON; then
    ``chmod mode`` when given (an executable script)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        text = content if isinstance(content, str) else json.dumps(content)
        path.write_text(text, encoding="utf-8", newline="")
    if mode is not None:
        path.chmod(mode)
    return path


def deny_reading(monkeypatch: pytest.MonkeyPatch, locked: Path) -> None:
    """Opening ``locked`` fails as ``chmod 000`` makes it fail for a user who is not root
    (the tests run as root, which reads any file)."""
    real_open = os.open

    def deny(path: str | os.PathLike[str], *args: Any, **kwargs: Any) -> int:
        if Path(path).absolute() == locked:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)


def write_skill(root: Path, name: str, body: str, **front: object) -> Path:
    """``root/skills/<name>/SKILL.md`` with ``name``, a description and ``front`` (each
    value as JSON, which YAML reads) in its frontmatter, then ``body``."""
    lines = [f"name: {name}", f"description: {json.dumps(f'The {name} skill.')}"]
    lines += [f"{k}: {json.dumps(v)}" for k, v in front.items()]
    return write_file(root, f"skills/{name}/SKILL.md", "---\n" + "\n".join(lines) + f"\n---\n\n{body}\n")
