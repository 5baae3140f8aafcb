"""What ingest makes of some sources, one hash per item: the check that a change to ingest
(secret redaction, parsing) leaves every stored item as it was, or changes only the ones it
should.

Usage: python -m skill_retriever.bench.ingest_hashes [--kind KIND] [--no-ner] [--out FILE]
    [--compare OLD_FILE] FOLDER...

Each FOLDER (or JSON graph or ``corpus.json`` file) is read by ``indexing.ingest``, as
``skill-retriever index`` reads it into an empty index (its folder's name is its source
name; ``--kind`` as ``index --kind``: detected per path when left out); nothing is embedded
and no embedding model is loaded (a passage corpus is parsed by spaCy unless ``--no-ner``,
as ``index`` does). For every item it writes ``<id>\\t<sha256>``, sorted by id, to ``--out``
(default stdout): the hash of ``Node.to_dict()`` (id, kind, name, description, text, tags,
created, updated, source, access, attrs: what the index stores and returns; ``source``
from the FOLDER's own name on, so the digest does not depend on where the data lies) as
``json.dumps(sort_keys=True, default=str)``. To stderr: folders, nodes, edges,
problems, seconds, one digest of all the lines, and which ``skill_retriever`` read them.
``--compare OLD_FILE`` then says, on stderr, which ids were added, removed or changed (how
many, and up to 20 of each) and exits 1 if any, else 0.

Before and after a change, with the code of another checkout (this file needs only
``indexing.ingest`` and ``Node.to_dict``, there since the first commit); ``-P`` keeps this
file's folder off ``sys.path``::

    PYTHONPATH=OLD/src python -P src/skill_retriever/bench/ingest_hashes.py --out old.tsv ../shared/data/skills/*
    python -m skill_retriever.bench.ingest_hashes --compare old.tsv --out new.tsv ../shared/data/skills/*
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

if TYPE_CHECKING:
    from skill_retriever.indexing import SourceKind
    from skill_retriever.model import Node

#: ``skill-retriever index --kind``'s choices (not imported: older checkouts lack the constant).
KINDS = ("skills", "docs", "json", "toolret", "passages")
#: How many ids of each change are named.
SHOWN = 20


def node_hash(node: Node, folder: Path | None = None) -> str:
    """The sha256 of every field of ``node`` the index stores and returns, each path below
    ``folder`` in them (``source``, ``attrs.source_root``: absolute, as ingest writes them)
    from the folder's own name on: the same data gives the same digest wherever
    it lies and whatever folder the command runs in (``/work/main/../shared/data/x/SKILL.md``
    and ``/tmp/clone/../shared/data/x/SKILL.md`` are one file; before, every item's hash
    changed with them)."""
    fields = node.to_dict()
    if folder is not None:
        given = os.path.normpath(os.path.abspath(folder))
        fields = _below(fields, Folder(os.path.basename(given), (given, os.path.realpath(folder))))
    text = json.dumps(fields, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Folder(NamedTuple):
    """A folder read: its own name, and where it lies as given and with links followed
    (ingest writes some paths one way, some the other: ``../shared`` may be a link)."""

    name: str
    places: tuple[str, ...]


def _below(value: Any, folder: Folder) -> Any:
    """``value`` with each string that is a path at or below ``folder`` written from the
    folder's name on (`from_folder`), in dicts and lists too."""
    if isinstance(value, dict):
        return {k: _below(v, folder) for k, v in value.items()}
    if isinstance(value, list):
        return [_below(v, folder) for v in value]
    return from_folder(value, folder) if isinstance(value, str) else value


def from_folder(text: str, folder: Folder) -> str:
    """``text`` as a path from ``folder``'s name on (``x/skills/a/SKILL.md`` for a file
    below ``/data/x``); unchanged when it names nothing there (a URL, prose, an id)."""
    if not os.path.isabs(text) or "\n" in text or len(text) > 4096:  # ingest makes a file's path absolute
        return text
    path = os.path.normpath(text)
    for place in folder.places:
        if path == place or path.startswith(place + os.sep):
            return Path(folder.name, os.path.relpath(path, place)).as_posix()
    return text


def main(paths: list[Path], kind: str | None = None, *, ner: bool = True) -> tuple[dict[str, str], str]:
    """``{id: hash}`` of every item read from ``paths``, and a summary line.

    Raises:
        IngestError: A path cannot be read as a source of that kind.
    """
    import skill_retriever
    from skill_retriever.indexing import ingest

    start = time.perf_counter()
    hashes: dict[str, str] = {}
    edges = problems = 0
    for path in paths:
        result = ingest(path, cast("SourceKind | None", kind), ner=ner)
        hashes.update((node.id, node_hash(node, path)) for node in result.nodes)  # a repeated id: the last, as upsert keeps
        edges += len(result.edges)
        problems += len(result.problems)
    summary = (f"folders {len(paths)}, nodes {len(hashes)}, edges {edges}, problems {problems}, "
               f"digest {digest(hashes)}, {time.perf_counter() - start:.1f} s "
               f"(skill_retriever from {Path(skill_retriever.__file__).parent})")
    return hashes, summary


def lines(hashes: dict[str, str]) -> str:
    """The ``<id>\\t<hash>`` lines, sorted by id."""
    return "".join(f"{node_id}\t{hashes[node_id]}\n" for node_id in sorted(hashes))


def digest(hashes: dict[str, str]) -> str:
    """One sha256 of all the lines: equal digests, equal items."""
    return hashlib.sha256(lines(hashes).encode("utf-8", "surrogatepass")).hexdigest()


def read_hashes(path: Path) -> dict[str, str]:
    """The ``{id: hash}`` of a file this command wrote.

    Raises:
        ValueError: A line that is no ``<id>\\t<hash>``, naming it.
    """
    hashes = {}
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="surrogateescape").splitlines(), 1):
        node_id, tab, value = line.rpartition("\t")
        if not tab or not node_id or len(value) != 64:
            raise ValueError(f"{path}:{number} is no '<id>\\t<sha256>' line of this command: {line[:80]!r}")
        hashes[node_id] = value
    return hashes


def compare(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """The ids added, removed and changed from ``old`` to ``new``: a line of counts, then up
    to `SHOWN` ids of each; empty when they are the same."""
    changes = {
        "added": sorted(new.keys() - old.keys()),
        "removed": sorted(old.keys() - new.keys()),
        "changed": sorted(i for i in old.keys() & new.keys() if old[i] != new[i]),
    }
    if not any(changes.values()):
        return []
    out = [", ".join(f"{what} {len(ids)}" for what, ids in changes.items()) + f" (of {len(old)} items before)"]
    for what, ids in changes.items():
        out += [f"{what}: {node_id}" for node_id in ids[:SHOWN]]
        if len(ids) > SHOWN:
            out.append(f"{what}: ... and {len(ids) - SHOWN} more")
    return out


def _existing(text: str) -> Path:
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text} does not exist: give a source folder (or a JSON graph or corpus.json file)")
    return path


def cli(argv: list[str] | None = None) -> None:
    """The command line; a path that does not exist, or a source that cannot be read as its
    kind, is a one-line error (exit 2); a difference from ``--compare`` exits 1."""
    from skill_retriever.exceptions import IngestError

    parser = argparse.ArgumentParser(prog="python -m skill_retriever.bench.ingest_hashes",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("paths", nargs="+", type=_existing, metavar="FOLDER",
                        help="sources, read as `skill-retriever index` reads them")
    parser.add_argument("--kind", choices=KINDS, default=None, help="source kind (default: detect per path)")
    parser.add_argument("--no-ner", action="store_true", help="passages: titles only, skip spaCy entities")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE", help="write the lines here (default stdout)")
    parser.add_argument("--compare", type=_existing, default=None, metavar="OLD_FILE",
                        help="a file of an earlier run: say what differs, exit 1 if anything does")
    args = parser.parse_args(argv)
    try:
        old = read_hashes(args.compare) if args.compare is not None else None
        hashes, summary = main(args.paths, args.kind, ner=not args.no_ner)
    except (IngestError, ValueError) as exc:
        parser.error(str(exc))
    if args.out is None:
        sys.stdout.write(lines(hashes))
    else:
        args.out.write_text(lines(hashes), encoding="utf-8", errors="surrogateescape")
    print(summary, file=sys.stderr)
    if old is not None:
        differences = compare(old, hashes)
        print("\n".join(differences) or f"identical to {args.compare}", file=sys.stderr)
        if differences:
            raise SystemExit(1)


if __name__ == "__main__":
    cli(sys.argv[1:])
