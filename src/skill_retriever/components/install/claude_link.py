"""A project's (or the home folder's) ``.claude`` that is a symbolic link: what an
install may do with it.

Dotfiles setups keep ``~/.claude`` in a repository and link it into place, and projects
share one ``.claude`` folder through a link: Claude Code follows the link, and so does an
install (`claude_folder.linked_claude`, `paths.safe_destination`), its plan saying once
where ``.claude`` leads (`claude_folder.shown_root`). A link it cannot follow safely is
refused before anything is written, dry run alike (`target.check_writable`), in the
words of `claude_link_refusal`.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from skill_retriever.components.install.claude_folder import CLAUDE_DIR, claude_folder

__all__ = ["claude_link_refusal"]


def claude_link_refusal(root: Path) -> str:
    """Why ``root``'s ``.claude``, a symbolic link, cannot be written through, and what to
    do; '' when it is no link or a link to a folder of its own. A link to nothing (the
    shared folder not made yet, a dotfiles repository not cloned) would have the install
    make folders at the far end of a link the user may have forgotten; a link to a folder
    holding the root (``.claude -> ..``) would strew ``skills/``, ``settings.json``... into it."""
    claude = claude_folder(root)
    if claude == root or not claude.is_symlink():
        return ""
    shown = f"{CLAUDE_DIR} ({claude})"
    try:
        real = claude.resolve(strict=True)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop, to Python before 3.13
        if isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP:
            return f"{shown} is a symbolic link loop; make {CLAUDE_DIR} a folder, or a link to one,"
        return (
            f"{shown} is a symbolic link to {os.readlink(claude)}, which does not exist; make "
            f"that folder (Claude Code reads {CLAUDE_DIR} there), or remove the link (an install "
            f"then makes a {CLAUDE_DIR} folder of its own),"
        )
    if not real.is_dir():
        return f"{shown} is a symbolic link to {real}, a file; point it at a folder, or remove it,"
    if root.resolve().is_relative_to(real):
        return (
            f"{shown} is a symbolic link to {real}, which holds the target itself: an install "
            "would write skills/, agents/ and settings.json straight into it; point it at a "
            "folder of its own,"
        )
    return ""
