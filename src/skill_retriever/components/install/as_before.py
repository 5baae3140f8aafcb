"""Leave a root as the installs found it: the bytes of the shared JSON files, and folders.

An install that first changes a ``.claude/settings.json`` or ``.mcp.json`` that was there
keeps its text in the record (`keep_original`); when an uninstall leaves the file's
content equal to that text's, the text is written back byte for byte instead of the
content re-serialised (`write_back`), so a compact or hand-formatted file comes back as it
was. The folders an install makes on its way (the root itself, ``.claude`` and its kind
folders) are recorded (`missing_folders`, `note_folders`); uninstalling removes those it
leaves empty (`remove_empty_folders`). A folder that was there before stays, and so does
any folder that still holds something.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from skill_retriever.components.install.claude_folder import layout_rel
from skill_retriever.components.install.inventory import InstallRecord
from skill_retriever.components.install.json_text import json_text
from skill_retriever.components.install.layout import KEPT_FOLDERS, RECORD_FILE
from skill_retriever.components.install.paths import safe_destination
from skill_retriever.components.install.plan import UnsafePathError
from skill_retriever.components.install.settings import write_json
from skill_retriever.fsutil import write_atomic

__all__ = [
    "keep_original",
    "missing_folders",
    "note_folders",
    "prune_empty",
    "remove_empty_folders",
    "write_back",
]

ROOT = "."
#: The folders whose making is recorded (the others are removed when emptied anyway).
TRACKED = (ROOT, *sorted(KEPT_FOLDERS))


def _folder(root: Path, rel: str) -> Path:
    return root if rel == ROOT else safe_destination(root, rel)


def missing_folders(root: Path) -> list[str]:
    """The tracked folders not there yet (call before an install writes anything)."""
    out = []
    for rel in TRACKED:
        try:
            if not _folder(root, rel).exists():
                out.append(rel)
        except UnsafePathError:  # a link out of the root: not ours to make or remove
            continue
    return out


def note_folders(record: InstallRecord, missing: Iterable[str], planned: Iterable[str] = ()) -> None:
    """Record which of ``missing`` the install made: those there now, and those holding
    the record file or a ``planned`` path (written next)."""
    held = [RECORD_FILE, *planned]
    record.folders |= {
        rel
        for rel in missing
        if any(p.startswith(f"{rel}/") for p in held) or _folder(record.root, rel).is_dir()
    }


def remove_empty_folders(root: Path, record: InstallRecord) -> None:
    """Remove the folders an install made that are empty now, deepest first; forget
    those removed or gone."""
    for rel in sorted(record.folders, key=lambda r: 0 if r == ROOT else -1 - r.count("/")):
        try:
            folder = _folder(root, rel)
        except UnsafePathError:
            record.folders.discard(rel)
            continue
        if folder.is_dir():
            try:
                folder.rmdir()
            except OSError:  # it holds something: it stays, and stays recorded
                continue
        record.folders.discard(rel)


def prune_empty(root: Path, folder: Path) -> None:
    """Remove ``folder`` and its parents while empty, up to the layout's kept folders."""
    real_root = root.resolve()
    while folder.resolve() != real_root and layout_rel(root, folder) not in KEPT_FOLDERS:
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to remove): stop here
            return
        folder = folder.parent


def keep_original(record: InstallRecord, rel: str, path: Path) -> None:
    """Before an install first changes the shared file ``rel`` that was there: keep its
    text (nothing is kept of a file an install created, or once one is kept)."""
    if rel in record.originals or rel in record.created or not path.is_file():
        return
    try:
        record.originals[rel] = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):  # it was read as JSON just before: no copy, then
        return


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _is_original(original: str, data: Mapping[str, Any]) -> bool:
    """``data`` holds what ``original`` held, but for an empty container an install added
    (``"hooks": {}`` where the file had no hooks)."""
    try:  # past a byte order mark; blank text is {} (`json_text`, as the install read it)
        before = json.loads(json_text(original).json())
    except ValueError:
        return False
    if not isinstance(before, dict):
        return False
    now = {k: v for k, v in data.items() if k in before or v != {}}
    return _canonical(before) == _canonical(now)


def write_back(root: Path, rel: str, data: Mapping[str, Any], record: InstallRecord) -> None:
    """Write the shared file ``rel``: its original text when ``data`` is what that text
    holds (the original is then forgotten), else ``data`` as `write_json` writes it."""
    original = record.originals.get(rel)
    if original is None or not _is_original(original, data):
        write_json(root, rel, data)
        return
    dest = safe_destination(root, rel)
    mode = dest.stat().st_mode & 0o777 if dest.is_file() else 0o644
    write_atomic(dest, original.encode("utf-8"), mode)
    del record.originals[rel]
