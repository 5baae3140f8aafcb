"""What spaCy read in each passage, kept beside the index, so re-indexing parses only new text.

spaCy is nearly all the cost of reading a passage corpus (about 100 passages/s on 2 cores,
see `ingest.passages`), and an unchanged corpus read again would parse every passage
again. This cache keeps, per passage text, exactly what `ingest.passages` takes from
spaCy: the sentences it split the text into and the NER spans (text, label) inside each.
Everything after that (titles found in the text, entities merged, facts) depends on the
whole corpus and is cheap, so it runs again on every passage: a run that parses nothing
makes the same nodes, edges and attributes as one that parses everything.

An entry's key is a hash of the passage text and of the extractor (`extractor_id`: the
versions of spaCy and of the model, the labels kept, whether sentences are split, and
`PARSE_VERSION`), so another model or other extraction rules parse again; a title
is not part of it, as spaCy never reads the title. Entries are kept per source (its
corpus file), and each run of a source keeps just the entries its passages used: the
entry of a passage deleted or edited goes with it. The cache lives in
``<index>/passage_parses.sqlite`` (`CACHE_FILE`); a cache that cannot be read is
rebuilt, after a run that parses every passage.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Collection
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

__all__ = ["CACHE_FILE", "PARSE_VERSION", "ParseCache", "Sentences", "extractor_id", "keep_only"]

CACHE_FILE = "passage_parses.sqlite"
#: Bumped when what spaCy's output becomes here changes (`facts.doc_sentences`, the
#: components `ingest.passage_ner` runs), so that every cached parse is made again.
#: 2: a text is read up to `facts.MAX_PARSE_CHARS`, no longer up to spaCy's max_length.
PARSE_VERSION = 2
#: Per passage: its sentences (the whole text when they are not split), each with its
#: (surface, NER label) mentions.
Sentences = list[tuple[str, list[tuple[str, str]]]]
_SCHEMA = "CREATE TABLE IF NOT EXISTS parses (source TEXT NOT NULL, key TEXT NOT NULL, sentences TEXT NOT NULL, PRIMARY KEY (source, key))"


def extractor_id(nlp: Any, model: str, labels: frozenset[str], split: bool) -> str | None:
    """What a cached parse was made by; None when the pipeline cannot be named (its package
    has no metadata), and then nothing is cached.

    Args:
        nlp: A spaCy ``Language``, or None for the model named ``model``, named by its
            installed version without loading it (importing spaCy alone takes seconds and
            hundreds of MB, which a run that parses nothing should not pay).
        model: The package of the default model.
        labels: The NER labels kept.
        split: Whether passages are split into sentences.
    """
    try:
        spacy_version = version("spacy")
        if nlp is None:
            # load_ner loads it as installed; spaCy's default max_length then applies.
            pipeline: list[Any] = [model, version(model)]
        else:  # a pipeline built in code: its config and meta, with what cuts long texts
            config = hashlib.sha256(nlp.config.to_str().encode()).hexdigest()
            meta = nlp.meta
            pipeline = [meta.get("lang"), meta.get("name"), meta.get("version"), nlp.pipe_names, nlp.max_length, config]
    except PackageNotFoundError:
        return None
    return json.dumps([PARSE_VERSION, spacy_version, pipeline, sorted(labels), split])


class ParseCache:
    """The parses one source's passages had at its last run, and those this run uses."""

    def __init__(self, folder: Path, source: str, extractor: str) -> None:
        """Read the entries of ``source`` from ``folder``/`CACHE_FILE` (none when absent)."""
        self.path = Path(folder) / CACHE_FILE
        self._source = source
        self._extractor = extractor
        self._held: dict[str, str] = {}
        self._used: dict[str, str] = {}
        self._damaged = False
        if self.path.exists():
            try:
                self._held = self._read()
            except sqlite3.DatabaseError:
                self._damaged = True  # parsed afresh; `save` makes the file anew

    def get(self, text: str) -> Sentences | None:
        """The parse of ``text`` from the last run, or None; a hit is kept at `save`."""
        key = self._key(text)
        raw = self._held.get(key)
        if raw is None:
            return None
        self._used[key] = raw
        return [(sentence, [(surface, label) for surface, label in found]) for sentence, found in json.loads(raw)]

    def put(self, text: str, sentences: Sentences) -> None:
        """Keep the parse of ``text`` made in this run."""
        self._used[self._key(text)] = json.dumps(sentences)

    def save(self) -> str | None:
        """Make the source's entries those this run used; nothing is written when they are
        the ones held. Returns why they could not be written (the next run parses those
        passages again), or None."""
        if not self._damaged and self._used.keys() == self._held.keys():
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self._damaged:
                self.path.unlink(missing_ok=True)
            with _connect(self.path) as db:
                db.execute("DELETE FROM parses WHERE source = ?", (self._source,))
                db.executemany("INSERT INTO parses VALUES (?, ?, ?)",
                               ((self._source, key, raw) for key, raw in self._used.items()))
        except (OSError, sqlite3.Error) as exc:
            return (f"could not keep what spaCy read in {self.path} ({exc}); the next run parses these "
                    "passages again (delete that file if this repeats)")
        self._held, self._damaged = dict(self._used), False
        return None

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self._extractor}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()

    def _read(self) -> dict[str, str]:
        with _connect(self.path) as db:
            rows = db.execute("SELECT key, sentences FROM parses WHERE source = ?", (self._source,)).fetchall()
        return {str(key): str(raw) for key, raw in rows}


class _Connection:
    """A connection that commits (or rolls back) and closes at the end of a ``with``:
    sqlite3's own context manager leaves it open."""

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, timeout=30)
        # The sentences are passage text: what a run drops (a passage edited or deleted, a
        # source removed) is overwritten, as `stores.items` does, not left in free pages.
        self._db.execute("PRAGMA secure_delete=ON")

    def __enter__(self) -> sqlite3.Connection:
        self._db.execute(_SCHEMA)
        return self._db

    def __exit__(self, kind: object, *_: object) -> None:
        try:
            if kind is None:
                self._db.commit()
            else:
                self._db.rollback()
        finally:
            self._db.close()


def _connect(path: Path) -> _Connection:
    return _Connection(path)


def keep_only(folder: Path, sources: Collection[str]) -> None:
    """Drop the entries of every corpus but ``sources`` (the ``source`` of the passages the
    index still holds) from ``folder``'s cache: `sources.remove_source` calls it, so a
    removed corpus's text does not stay beside the index.

    Raises:
        sqlite3.Error, OSError: The cache cannot be changed.
    """
    path = Path(folder) / CACHE_FILE
    if not path.exists():
        return
    with _connect(path) as db:
        held = [str(row[0]) for row in db.execute("SELECT DISTINCT source FROM parses")]
        db.executemany("DELETE FROM parses WHERE source = ?", [(s,) for s in held if s not in sources])
