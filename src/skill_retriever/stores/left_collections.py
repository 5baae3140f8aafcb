"""Collections a reader is pointed at (``--chroma-url``) that the index left behind: since
``move-to-embedded`` its ``items.sqlite`` records no server (``stores.server_link``), so
no write since then reached the collections under its name there. Counting them does not
tell: an item's text edited and indexed again keeps the number of vectors, and a reader
took its semantic candidates from the old vectors without a word. It searches the
vectors it holds in memory instead, and is told how to put them on the server again.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from skill_retriever.advice import command
from skill_retriever.exceptions import IndexOpenError
from skill_retriever.stores import manifest as mf
from skill_retriever.stores.sqlite_connect import connect

__all__ = ["left_behind", "recorded_embedded"]

log = logging.getLogger("skill_retriever")


def recorded_embedded(path: Path) -> bool:
    """Whether the items of the index at ``path`` record it as embedded (an empty server
    link); False when they record a server, nothing (an older version) or cannot be read
    (then the collections are judged by themselves, as before)."""
    try:
        con = connect(path / mf.DATABASE, writable=False)
    except (IndexOpenError, OSError, sqlite3.Error) as exc:
        log.debug("cannot read the server link of %s (%s)", path, exc)
        return False
    try:
        row = con.execute("SELECT value FROM meta WHERE key = ?", (mf.SERVER_KEY,)).fetchone()
    except sqlite3.Error as exc:  # a database that cannot be read here fails the open, in its own words
        log.debug("cannot read the server link of %s (%s)", path, exc)
        return False
    finally:
        con.close()
    return row is not None and row[0] == ""


def left_behind(path: Path, collections: Sequence[str], url: str) -> str:
    """Why a reader of the index at ``path`` may not search its ``collections`` on ``url``
    ("" when it may): its items record it as embedded, so they are what
    ``move-to-embedded`` left there, with none of its writes since."""
    if not recorded_embedded(path):
        return ""
    names = " and ".join(collections)
    move = command(["move-to-server", "--index-dir", path, "--chroma-url", url])
    return (
        f"{path} searches in memory ({mf.DATABASE} records no Chroma server for it: `move-to-embedded` took it off "
        f"the server), so its writes since then did not reach the collections {names} on {url}; searching the "
        f"vectors of {path} held in memory instead: to search through that server again, run `{move}`"
    )
