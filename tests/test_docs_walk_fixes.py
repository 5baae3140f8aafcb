"""Defects a runbook and incident assistant, built on the Python API, met:

- ``index_sources(index, [folder], kind="doc")`` (any kind not in `SOURCE_KINDS`) fell
  through to the last kind, a passage corpus, and said ``corpus.json: no such file; pass a
  corpus.json``; ``max_file_bytes=0`` (or below, or ``"10"``) skipped every file without an
  error. Each is now a `ConfigError` naming what to pass, raised before anything is read.
- A runbook dated in its frontmatter by ``created_at``, ``updated_at``, ``lastmod`` or
  ``last_modified_at`` (what incident exports and site generators write) was undated, so
  every ``since``/``until`` filter left it out without a word.
- An incident export's epoch milliseconds were refused as "not a valid time in epoch
  seconds", without saying that the value is milliseconds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.exceptions import ConfigError
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.skill_records import first_time, unset_note
from skill_retriever.ingest.yaml_loader import KeptText
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

RESTORE = "# Restore Postgres\n\nRestore the orders database from the nightly backup.\n"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    opened = Index.open(tmp_path / "idx", embedder=HashingEmbedder(64), create=True)
    yield opened
    opened.close()


@pytest.fixture
def runbooks(tmp_path: Path) -> Path:
    root = tmp_path / "runbooks"
    write_file(root, "restore.md", RESTORE)
    write_file(root, "failover.md", "# Failover\n\nPromote the replica, then see [restore](restore.md).\n")
    return root


@pytest.mark.parametrize(("kind", "guess"), [("doc", "docs"), ("Docs", "docs"), ("skill", "skills"), ("pdf", None)])
def test_an_unknown_source_kind_is_refused_naming_the_kinds(
    index: Index, runbooks: Path, kind: str, guess: str | None
) -> None:
    index_sources(index, [runbooks], kind="docs")
    held = dict(index.snapshot().nodes)
    with pytest.raises(ConfigError) as info:
        index_sources(index, [runbooks], kind=kind)  # type: ignore[arg-type]
    message = str(info.value)
    assert "kind must be one of skills, docs, json, toolret, passages" in message
    assert "corpus.json" not in message
    assert (f"did you mean {guess!r}" in message) == (guess is not None)
    assert dict(index.snapshot().nodes) == held  # nothing read, nothing lost


@pytest.mark.parametrize("limit", [0, -1, "10", True, 2.5])
def test_a_file_size_limit_that_admits_nothing_is_refused(index: Index, runbooks: Path, limit: object) -> None:
    index_sources(index, runbooks)
    held = dict(index.snapshot().nodes)
    with pytest.raises(ConfigError, match=r"max_file_bytes must be a whole number of bytes above 0.*leave it out"):
        index_sources(index, runbooks, max_file_bytes=limit)  # type: ignore[arg-type]
    assert dict(index.snapshot().nodes) == held


def test_a_small_file_size_limit_still_skips_the_larger_files(index: Index, runbooks: Path) -> None:
    sizes = {p.name: p.stat().st_size for p in runbooks.iterdir()}
    small, large = sorted(sizes, key=sizes.__getitem__)
    run = index_sources(index, runbooks, max_file_bytes=sizes[small])
    assert sorted(index.snapshot().nodes) == [f"runbooks/{small}"]
    assert [Path(p.path).name for p in run.sources[0].problems if "max-file-bytes" in p.message] == [large]


@pytest.mark.parametrize(
    ("front", "created", "updated"),
    [
        ("created_at: 2026-11-03\nupdated_at: 2026-11-20T09:00:00Z", "2026-11-03", "2026-11-20"),
        ("date: 2026-10-01\nlastmod: 2026-11-20", "2026-10-01", "2026-11-20"),
        ("createdAt: 2026-10-01\nlast_modified_at: 2026-11-20", "2026-10-01", "2026-11-20"),
        ("created: 2026-10-01\ncreated_at: 2025-01-01\nmodified: 2026-11-20", "2026-10-01", "2026-11-20"),
        # keys in any case, as some editors write them: `Date:` was undated without a word
        ("Date: 2026-10-01\nUpdated: 2026-11-20", "2026-10-01", "2026-11-20"),
        ("CreatedAt: 2026-10-01\nLastMod: 2026-11-20", "2026-10-01", "2026-11-20"),
        ("date: 2026-10-01\nDATE: 2025-01-01\nupdated: 2026-11-20", "2026-10-01", "2026-11-20"),  # as written wins
        # a postmortem dated by its incident's start and end, as incident tools write them
        ("started_at: 2026-10-01T08:00:00Z\nresolved_at: 2026-11-20T09:00:00Z", "2026-10-01", "2026-11-20"),
        ("startedAt: 2026-10-01\nendTime: 2026-11-20", "2026-10-01", "2026-11-20"),
    ],
)
def test_a_runbook_dated_as_exports_and_site_generators_write_it_is_dated(
    index: Index, tmp_path: Path, front: str, created: str, updated: str
) -> None:
    root = tmp_path / "dated"
    write_file(root, "restore.md", f"---\n{front}\n---\n{RESTORE}")
    write_file(root, "undated.md", "# Undated\n\nRestore a database without a date.\n")
    index_sources(index, root, kind="docs")
    node = index.snapshot().nodes["dated/restore.md"]
    assert node.created is not None and node.created.date().isoformat() == created
    assert node.updated is not None and node.updated.date().isoformat() == updated
    # What the dates are for: a window admits the runbook, and only the dated one.
    found = Retriever(index).search("restore the database", filters={"since": "2026-11-15"}, principals=["*"])
    assert [r.id for r in found.results] == ["dated/restore.md"]


def test_a_bad_date_under_a_capitalised_key_names_the_key_as_written() -> None:
    warnings: list[str] = []
    assert first_time({"Date": "November 3", "Created": "2026-10-01"}, ("created", "date"), warnings) == datetime(
        2026, 10, 1, tzinfo=UTC)
    assert first_time({"Date": "November 3"}, ("created", "date"), warnings) is None
    assert warnings == ["'Date' 'November 3' is not an ISO date; ignored (write it as 2026-11-26 or 2026-11-26T09:15:00Z)"]
    assert unset_note("kept 'Nov' as text", {"Updated": KeptText("Nov")}) == "; 'Updated' is left unset"


def test_an_incident_dated_in_epoch_milliseconds_is_told_so(index: Index, tmp_path: Path) -> None:
    millis = int(datetime(2026, 12, 1, tzinfo=UTC).timestamp() * 1000)
    graph = {"nodes": [
        {"id": "inc:1", "kind": "incident", "name": "webhook retries", "text": "Retries exploded.", "created": millis},
        {"id": "inc:2", "kind": "incident", "name": "slow search", "text": "Search was slow.", "created": millis // 1000},
    ]}
    path = write_file(tmp_path / "ops", "incidents.json", json.dumps(graph))
    run = index_sources(index, path)
    messages = [p.message for p in run.sources[0].problems]
    assert len(messages) == 1 and "inc:1" in messages[0]
    assert "it looks like milliseconds: divide by 1000, or write ISO-8601" in messages[0]
    assert index.snapshot().nodes["inc:2"].created == datetime(2026, 12, 1, tzinfo=UTC)


def test_a_page_with_hugo_toml_frontmatter_is_named_and_dated_by_it(index: Index, tmp_path: Path) -> None:
    """Hugo writes frontmatter as TOML between ``+++`` lines: such a runbook was named after
    its file, undated without a word, and its TOML block was read as its text."""
    root = tmp_path / "hugo"
    write_file(root, "restore.md", '+++\ntitle = "Restore Postgres"\ndate = 2026-10-01\n'
                                   'lastmod = 2026-11-20T09:00:00Z\ntags = ["db"]\n+++\n' + RESTORE)
    write_file(root, "broken.md", '+++\ntitle = "Broken\n+++\nA page whose TOML does not parse.\n')
    run = index_sources(index, root, kind="docs")
    node = index.snapshot().nodes["hugo/restore.md"]
    assert node.name == "Restore Postgres" and node.tags == ("db",)
    assert node.created == datetime(2026, 10, 1, tzinfo=UTC) and node.updated == datetime(2026, 11, 20, 9, tzinfo=UTC)
    assert "+++" not in node.text and "lastmod" not in node.text
    assert [p.message for p in run.sources[0].problems if p.path.endswith("broken.md")] == [
        "frontmatter is not valid TOML: Illegal character '\\n' (at line 1, column 16)"]
