"""Permission problems on an index's files, said as such and never as damage.

An index made by another user (a shared folder, files a container's root wrote) fails to
open with EACCES, and SQLite says only "unable to open database file". Nothing is damaged
then: the advice is to change the file's rights, never to delete the index, which would
lose what only the index holds (items written through the Python API).
"""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path

from skill_retriever.exceptions import IndexPermissionError  # re-exported: it was defined here

__all__ = ["IndexPermissionError", "check_access", "denied_message", "who_owns"]


def who_owns(path: Path) -> str:
    """``owner NAME, mode 0640`` of ``path`` ("" when it cannot be stat'ed either)."""
    try:
        st = path.stat()
    except OSError:
        return ""
    try:
        import pwd

        owner = pwd.getpwuid(st.st_uid).pw_name
    except (ImportError, KeyError):  # no passwd entry (a container's numeric uid)
        owner = f"uid {st.st_uid}"
    return f"owner {owner}, mode {stat.S_IMODE(st.st_mode):04o}"


def _this_user() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return f"uid {os.geteuid()}"


def denied_message(path: Path, *, write: bool) -> str:
    """What a process that may not read (``write``: and write) ``path`` is told: whose the
    file is, that nothing is damaged, and how to give the rights."""
    owned = who_owns(path)
    rights = "read and write" if write else "read"
    able = "readable and writable" if write else "readable"
    try:
        own = path.stat().st_uid == os.geteuid()
    except OSError:
        own = False
    # its owner made it so (`chmod -R a-w`): running "as its owner" is what it does already
    # the whole folder: `chmod -R a-w` took the rights of each of its files, one error each
    how = (f": `chmod -R u+{'rw' if write else 'r'} {shlex.quote(str(path.parent))}` (this user owns it; the "
           "index's other files in that folder need the same)" if own
           else " (chmod or chown, as its owner or root), or run as its owner")
    return (
        f"permission denied on {path}{f' ({owned})' if owned else ''}: this process (user {_this_user()}) "
        f"cannot {rights} it; nothing is damaged, do not delete the index: make it {able} for this user{how}"
    )


def check_access(path: Path, *, write: bool) -> None:
    """Refuse, with `denied_message`, a file that exists and that this process may not
    read (``write``: or write). A missing file passes: whoever opens it says so.

    Raises:
        IndexPermissionError: The file exists and the rights are missing.
    """
    mode = os.R_OK | (os.W_OK if write else 0)
    if path.exists() and not os.access(path, mode):
        raise IndexPermissionError(denied_message(path, write=write))
