"""A file this user owns but may not write (``chmod -R a-w`` on an index) is named with
the chmod that gives the index folder its rights back (one file at a time took a run each); "or run as its owner" is for files of another user.
Seen in a walkthrough: ``calibrate`` on an index its owner had made read-only said "this
process (user nobody) cannot read and write it ... (chmod or chown, as its owner or root),
or run as its owner" to that owner."""

from __future__ import annotations

import os
from pathlib import Path

from skill_retriever.stores.permissions import denied_message


def test_an_owner_is_told_the_chmod_not_to_run_as_the_owner(tmp_path: Path) -> None:
    mine = tmp_path / "write.lock"
    mine.write_text("")
    assert mine.stat().st_uid == os.geteuid()
    said = denied_message(mine, write=True)
    assert "run as its owner" not in said, said
    assert f"chmod -R u+rw {tmp_path}" in said and "nothing is damaged" in said, said
    assert f"chmod -R u+r {tmp_path}" in denied_message(mine, write=False)


def test_another_users_file_still_names_the_ways(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    theirs = tmp_path / "items.sqlite"
    theirs.write_text("")
    monkeypatch.setattr(os, "geteuid", lambda: theirs.stat().st_uid + 1)
    said = denied_message(theirs, write=True)
    assert "(chmod or chown, as its owner or root), or run as its owner" in said, said
