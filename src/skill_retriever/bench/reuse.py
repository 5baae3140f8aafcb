"""Reusing what an earlier run in the same ``--out`` measured, when nothing that decides
its figures changed.

A run stopped by Ctrl-C or an error, run again, measured every finished set again (a full
run is hours). Each result now carries its ``inputs``: the options that decide figures,
a stamp of the data files it read (names, sizes and modification times) and a hash of the
installed package's ``.py`` sources (an installed package has no git). A later run with the
same inputs reuses the result instead of measuring it; ``--fresh`` measures everything.
A result counts as written in full only once its file is there: a set writes its ranked
ids (``<key>.queries.json``) first and its result last.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["REUSABLE_SECTIONS", "code_hash", "files_stamp", "options_of", "reusable"]

#: Sections measured whole into one result file (``results/<name>.json``), reused whole.
#: ``speed`` is not: it rewrites its file after every size, and reads the data folder.
REUSABLE_SECTIONS = ("battery", "incidents", "startup", "scale")


@functools.cache
def code_hash() -> str:
    """sha256 of the installed skill_retriever package's ``.py`` sources (paths and bytes)."""
    import skill_retriever

    root = Path(skill_retriever.__file__).parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def files_stamp(paths: Iterable[Path]) -> str:
    """A hash of the names, sizes and modification times of the files at ``paths`` (a file,
    or every file under a folder), relative to each path's folder: the same files read from
    another place stamp alike; a missing path stamps as missing."""
    rows: list[list[Any]] = []
    for path in paths:
        if path.is_file():
            files = [path]
        elif path.is_dir():
            files = sorted(Path(d) / f for d, _, names in os.walk(path) for f in names)
        else:
            rows.append([path.name, "missing"])
            continue
        for f in files:
            st = f.stat()
            rows.append([f.relative_to(path.parent).as_posix(), st.st_size, st.st_mtime_ns])
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def options_of(quick: bool, max_queries: int, k: int, embedder: str, world_seed: int) -> dict[str, Any]:
    """The options that decide a result's figures (not ``--only``, ``--out`` or ``--cache``)."""
    return {"quick": quick, "max_queries": max_queries, "k": k, "embedder": embedder, "world_seed": world_seed}


def reusable(results: Path, key: str, wanted: dict[str, Any], companion: bool) -> dict[str, Any] | None:
    """The result ``results/<key>.json`` when it was written in full (with its
    ``<key>.queries.json`` when the section writes one) from ``wanted`` inputs; else None."""
    path = results / f"{key}.json"
    if not path.is_file() or (companion and not (results / f"{key}.queries.json").is_file()):
        return None
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(result, dict) or result.get("inputs") != json.loads(json.dumps(wanted)):
        return None
    return result
