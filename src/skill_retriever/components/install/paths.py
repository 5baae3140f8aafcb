"""Path safety for installs: where a component may be written, and what may be read.

Writing: every destination is resolved (symbolic links followed) and must stay inside the
root being installed into, or, when the root's ``.claude`` is itself a link to a folder (a
dotfiles setup; Claude Code follows it), inside the folder it leads to; a link further in
that leads out of both is refused, naming the link and where it leads. A destination that
is itself a symbolic link is never written through; absolute paths and ``..`` in names or
file lists are refused.

Reading: a component's source file, the files of a skill folder and a hook's scripts are
read only when they resolve (links followed) inside the source root that was indexed
(``attrs["source_root"]``): an index, or a JSON graph, cannot make an install copy a file
from elsewhere on the machine (``source: ~/.ssh/id_rsa``, ``files: ["../secret"]``, a link
in a catalogue). A node indexed before roots were recorded has no root: nothing of it is
read from disk, and it is rebuilt from the index text.
"""

from __future__ import annotations

import hashlib
import re
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from skill_retriever.components.install.claude_folder import CLAUDE_DIR, linked_claude, on_disk
from skill_retriever.components.install.plan import UnsafePathError
from skill_retriever.ingest.command_places import SLUG_RE, name_problem
from skill_retriever.ingest.provenance import recorded_file
from skill_retriever.model import Node

__all__ = [
    "NO_ROOT_NOTE",
    "SourceFile",
    "destination_name",
    "fold",
    "read_inside",
    "read_source",
    "relative_parts",
    "safe_destination",
    "server_key",
    "source_root_of",
]

_SLUG_RE = SLUG_RE
#: What the plan says of a node indexed before source roots were recorded.
NO_ROOT_NOTE = (
    "indexed without its source root, so no file of it is read: rebuilt from the index "
    "(re-index its source to install its own files)"
)


def fold(name: str) -> str:
    """What a name is to macOS and Windows: without case, and in one Unicode form (macOS
    keeps ``é`` decomposed, as ``e`` and an accent, and finds it by either form)."""
    return unicodedata.normalize("NFC", name).casefold()


def destination_name(name: str) -> str:
    """The file or folder name a component is installed under.

    Runs of characters other than letters, digits, ``.``, ``_`` and ``-`` become ``-``.
    File systems cap a name at 255 bytes (ext4, APFS, NTFS in UTF-16 units), so a slug
    longer than 100 UTF-8 bytes is cut there and ends in ``-`` and 8 hex digits of the
    SHA-256 of the whole name: at most 109 bytes, room left for ``.md``, and two long
    names that share their first 100 bytes still get different files.

    Raises:
        UnsafePathError: The name holds a path separator or ``..``, or nothing usable.
    """
    limit = 100
    why = name_problem(name)  # the rule ingest also checks a command's folders by
    if why is not None:
        raise UnsafePathError(f"component name {name!r:.120} {why}; refusing it")
    slug = _SLUG_RE.sub("-", name.strip()).strip("-.")
    encoded = slug.encode("utf-8")
    if len(encoded) <= limit:
        return slug
    # errors="ignore" drops a character the cut split in half.
    head = encoded[:limit].decode("utf-8", "ignore").rstrip("-.")
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{head}-{digest}"


_SERVER_RE = re.compile(r"[^A-Za-z0-9_-]+")


def server_key(name: str) -> str:
    """The ``mcpServers`` key a server is installed under: its name with runs of
    characters other than ASCII letters, digits, ``_`` and ``-`` turned into ``-``
    (``@scope/pkg`` -> ``scope-pkg``), since Claude Code names its tools
    ``mcp__<server>__<tool>``.

    Raises:
        UnsafePathError: Nothing usable is left of the name.
    """
    key = _SERVER_RE.sub("-", name.strip()).strip("-")
    if not key:
        raise UnsafePathError(f"MCP server name {name!r:.120} gives no usable key")
    return key


def name_key(name: str) -> str:
    """A name as installed names are compared: slugged and case-folded."""
    return _SLUG_RE.sub("-", name.strip()).strip("-.").casefold()


def relative_parts(rel: str, what: str) -> tuple[str, ...]:
    """Parts of a relative POSIX path; absolute, ``..``, ``.``, empty or ``\\`` refused.

    Raises:
        UnsafePathError: The path is not a plain relative path.
    """
    if not rel or "\\" in rel or "\x00" in rel:
        raise UnsafePathError(f"{what} {rel!r} is not a plain relative path")
    p = PurePosixPath(rel)
    if p.is_absolute() or re.match(r"^[A-Za-z]:", rel):
        raise UnsafePathError(
            f"{what} {rel!r} is absolute; only paths inside the target are allowed"
        )
    if any(part in ("..", ".", "") for part in rel.split("/")):
        raise UnsafePathError(f"{what} {rel!r} holds '..' or an empty part; refusing it")
    return p.parts


def safe_destination(root: Path, rel: str) -> Path:
    """``root / rel`` (``.claude/`` being ``root`` itself for a user install into
    ``$CLAUDE_CONFIG_DIR``: `on_disk`) after checking it stays, once links are resolved,
    inside ``root``, or inside the folder ``root``'s ``.claude`` links to (`linked_claude`)
    for a path below ``.claude``.

    Raises:
        UnsafePathError: ``rel`` is absolute or climbs out, a symbolic link on the way
            leads outside (or loops), or the file itself is a symbolic link.
    """
    parts = relative_parts(rel, "destination")
    dest = on_disk(root, "/".join(parts))
    real_root = root.resolve()
    inside = [real_root]
    if parts[0] == CLAUDE_DIR and (linked := linked_claude(root)) is not None:
        inside.append(linked)  # the user's own link: Claude Code reads through it
    try:
        resolved = dest.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: Path.resolve on a link loop
        raise UnsafePathError(
            f"{rel} passes through a symbolic link loop; replace the link with a folder"
        ) from exc
    if not any(resolved.is_relative_to(folder) for folder in inside):
        raise UnsafePathError(_leads_out(root, dest, rel, inside))
    if dest.is_symlink():
        raise UnsafePathError(f"{rel} is a symbolic link; refusing to write through it")
    return dest


def _leads_out(root: Path, dest: Path, rel: str, inside: list[Path]) -> str:
    """Why ``rel`` is refused, in the user's words: which link on its way leads where,
    and what to do; an install writes only inside ``inside`` (the target, and the folder
    its ``.claude`` links to)."""
    where = f"the target {inside[0]}" + (f" or {inside[1]} (where {CLAUDE_DIR} leads)" if len(inside) > 1 else "")
    path = root
    for part in dest.relative_to(root).parts:
        path = path / part
        if path.is_symlink() and not any((real := path.resolve()).is_relative_to(f) for f in inside):
            link = path.relative_to(root).as_posix()
            if path == dest:  # the file itself: no folder to make, and none is written through
                return (
                    f"{rel} is a symbolic link to {real}, outside {where}, and an install writes "
                    "no file through a link; replace the link by a copy of the file it points "
                    "to, or install into another target"
                )
            return (
                f"{rel} resolves to {dest.resolve()}, outside {where}, where alone an install "
                f"writes: {link} is a symbolic link to {real}; make {link} a folder (or a link "
                "into one of those) and install again"
            )
    return f"{rel} resolves to {dest.resolve()}, outside {where}"


@dataclass(frozen=True)
class SourceFile:
    """A file read from inside a component's source root."""

    path: Path  # as the index named it (its folder holds the skill's other files)
    data: bytes
    mode: int = 0o644


def source_root_of(node: Node) -> Path | None:
    """The resolved source root recorded for ``node``, or None (an older index)."""
    root = node.attrs.get("source_root")
    if not isinstance(root, str) or not root:
        return None
    return Path(root).resolve()


def read_inside(path: Path, root: Path, what: str) -> SourceFile | None:
    """Read ``path`` when it resolves inside ``root``; None when it is not on disk.

    Raises:
        UnsafePathError: It resolves outside ``root`` (links followed).
    """
    real = path.resolve()
    if not real.is_relative_to(root):
        raise UnsafePathError(f"{what} resolves to {real}, outside its source root {root}")
    try:
        if not real.is_file():
            return None
        mode = 0o755 if real.stat().st_mode & stat.S_IXUSR else 0o644
        return SourceFile(path, real.read_bytes(), mode)
    except OSError:
        return None


def read_source(node: Node, suffixes: tuple[str, ...]) -> SourceFile | None:
    """The component's own source file when it lies inside its source root, is on disk
    and has one of ``suffixes``; None otherwise (no root recorded, gone, another type).

    Raises:
        UnsafePathError: The source resolves outside the recorded source root.
    """
    root = source_root_of(node)
    path = recorded_file(node.source, root)
    if root is None or path is None or not path.exists():  # gone: nothing to read, nothing unsafe
        return None
    found = read_inside(path, root, f"source of {node.kind.value} {node.name!r}")
    if found is None or not found.path.resolve().name.lower().endswith(suffixes):
        return None
    return found
