"""Which index folders a LangGraph server run may name: the deployment's, never any folder.

A run's JSON context comes from the server's clients. Were its ``index_dir`` opened as
given, any client could read any index on the server's disk (another team's, one built
with other principals in mind) by naming its folder, and make the server open as many as
it likes. So, as for the principals (`langgraph_server`), the deployment decides:
``$SKILL_RETRIEVER_INDEX`` is the index a run gets by default, and a run may name it, a
folder listed in ``$SKILL_RETRIEVER_INDEX_DIRS`` (separated as ``PATH`` is: ``:`` on
POSIX) or a folder inside one of those (a deployment keeping its indexes in one place
lists that place); any other is refused, without saying which are offered. Paths are
compared once resolved (``~`` expanded, ``..`` and links followed, relative ones against
the server's working folder), so no spelling of a folder outside them passes.
"""

from __future__ import annotations

import os
from pathlib import Path

from skill_retriever.advice import env_index_dir
from skill_retriever.exceptions import ConfigError

__all__ = ["INDEX_DIRS_ENV", "INDEX_ENV", "offered_index_dir"]

#: The index a server run searches unless it names another.
INDEX_ENV = "SKILL_RETRIEVER_INDEX"
#: Further index folders a run may name (``os.pathsep``-separated).
INDEX_DIRS_ENV = "SKILL_RETRIEVER_INDEX_DIRS"


def _resolved(path: str) -> Path:
    return Path(path).expanduser().resolve()


def offered_index_dir(named: str) -> Path:
    """The folder ``named`` (a run's ``index_dir``), when the deployment offers it.

    Raises:
        ConfigError: ``named`` is not ``$SKILL_RETRIEVER_INDEX`` nor in a folder of
            ``$SKILL_RETRIEVER_INDEX_DIRS``.
    """
    default = env_index_dir()
    folders = [p for p in os.environ.get(INDEX_DIRS_ENV, "").split(os.pathsep) if p.strip()]
    path = _resolved(named)
    if (default and path == _resolved(default)) or any(path.is_relative_to(_resolved(f)) for f in folders):
        return Path(named).expanduser()
    raise ConfigError(
        f"index_dir {named!r} is not an index this server offers: a run may name only "
        f"${INDEX_ENV} or a folder in ${INDEX_DIRS_ENV}, which the deployment sets (leave "
        f"index_dir out to search ${INDEX_ENV}, or add the folder to ${INDEX_DIRS_ENV} "
        "where the server is started)"
    )
