"""A catalogue holding the plugin ``guard`` (a PreToolUse hook on Bash running the plugin's
``scripts/check.sh``), indexed with the hashing embedder: the uninstall walk's tests
(`tests/components/test_uninstall_walk_finish.py`, `test_uninstall_walk_server_names.py`)."""

from __future__ import annotations

from pathlib import Path

from files import write_file

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

#: The id of the guard plugin's hooks file.
HOOK_ID = "cat/plugins/guard/hooks/hooks.json"


def write_guard_plugin(src: Path) -> None:
    """Write the ``guard`` plugin into the catalogue folder ``src``."""
    write_file(src, "plugins/guard/.claude-plugin/plugin.json", {"name": "guard", "description": "Guard bash."})
    write_file(src, "plugins/guard/hooks/hooks.json", {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"}]}]}})
    write_file(src, "plugins/guard/scripts/check.sh", "#!/bin/sh\nexit 0\n", mode=0o755)


def indexed(src: Path, index_dir: Path) -> Path:
    """``index_dir``, an index of the catalogue folder ``src`` made there."""
    built = Index.open(index_dir, embedder=HashingEmbedder(), create=True)
    index_sources(built, [src], "skills")
    built.close()
    return index_dir
