"""Files of a skill's folder that install leaves out: environment files (``.env``,
``.env.local``, ``.env.production``), which hold the secrets of whoever cloned and indexed
the repository (a key put there to try the skill), not the skill's own. Copied into a
project's ``.claude/`` they would sit where a commit takes them along. A template of one
(``.env.example``, ``.env.sample``, ``.env.template``, ``.env.dist``) holds no value and
is copied like any other file.
"""

from __future__ import annotations

import posixpath

__all__ = ["is_private_file", "private_file_note"]

#: What follows ``.env.`` in the name of a template that install copies.
_TEMPLATES = frozenset({"example", "sample", "template", "dist", "defaults"})


def is_private_file(rel: str) -> bool:
    """Whether the skill-folder file ``rel`` (a POSIX path) is an environment file that
    install leaves out."""
    name = posixpath.basename(rel).lower()
    return name == ".env" or (name.startswith(".env.") and name[len(".env.") :] not in _TEMPLATES)


def private_file_note(rel: str) -> str:
    """The plan's note for ``rel`` left out: why, and what to do if the skill needs it."""
    return (
        f"{rel} not copied: an environment file holds the secrets of whoever indexed the skill, "
        "not the skill's own; write your own there if the skill needs one"
    )
