"""A folder of plain documents (runbooks, ADRs, a project's docs/) indexed as DOCUMENT items.

Real files in tmp_path, read by the real ingest (`ingest.documents`), the real
`index_sources` and the real CLI: names and descriptions, frontmatter fields, links as
edges, secrets redacted, bad files reported while the rest is read, a folder detected as
documents (with a note) or named so (``--kind docs``), and re-indexing that mirrors the
folder. One test searches with the bundled model through the CLI.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from files import deny_reading, write_file

from skill_retriever.cli import main
from skill_retriever.components.install.not_installable import no_place_message
from skill_retriever.indexing import index_sources, ingest
from skill_retriever.ingest.document_notes import READ_AS_DOCUMENTS
from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.result import Unread
from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.model import EdgeKind, NodeKind
from skill_retriever.stores.index import Index

TOKEN = "ghp_" + "a1" * 18  # a GitHub token's shape, as tests/ingest/test_secret_gaps.py uses


def _nodes(index_dir: Path) -> dict[str, Any]:
    with Index.open(index_dir) as index:
        return dict(index.snapshot().nodes)


def test_name_and_description_come_from_frontmatter_heading_or_stem(tmp_path: Path) -> None:
    root = tmp_path / "handbook"
    write_file(root, "fm.md", "---\ntitle: Rotate keys\ndescription: How we rotate keys.\n---\n# Other\n\nBody.\n")
    write_file(root, "named.md", "---\nname: Named one\nsummary: From summary.\n---\nBody text here.\n")
    write_file(root, "h1.md", "Lead before.\n\n# Restart the **Queue**\n\n## Why\n\n"
                          "When the `queue` stalls,\nsee [the runbook](other.md).\n\nSecond paragraph.\n")
    write_file(root, "setext.markdown", "Deploy Steps\n============\n\n- a list item\n\n> The prose after it.\n")
    write_file(root, "guide.rst", "=====\nGuide\n=====\n\n.. note:: skip me\n\nIntro with ``code`` and "
                              "`a link <https://x.org>`_.\n")
    write_file(root, "fenced.mdx", "import X from './x'\n\n```\n# not a title\n```\n# Real title\n\nProse.\n")
    write_file(root, "plain.txt", "no heading here\nsecond line\n\nmore\n")
    write_file(root, "long.md", "# Long\n\n" + "word " * 200 + "\n")
    result = ingest_documents(root)
    got = {n.attrs["path"]: (n.name, n.description) for n in result.nodes}
    assert got["fm.md"] == ("Rotate keys", "How we rotate keys.")
    assert got["named.md"] == ("Named one", "From summary.")
    assert got["h1.md"] == ("Restart the Queue", "When the queue stalls, see the runbook.")
    assert got["setext.markdown"] == ("Deploy Steps", "The prose after it.")
    assert got["guide.rst"] == ("Guide", "Intro with code and a link.")
    assert got["fenced.mdx"] == ("Real title", "Prose.")
    assert got["plain.txt"] == ("plain", "no heading here second line")
    name, description = got["long.md"]
    assert name == "Long" and description.endswith("word...") and len(description) <= 300
    assert all(n.kind is NodeKind.DOCUMENT for n in result.nodes) and result.problems == []


def test_frontmatter_fields_ids_and_provenance(tmp_path: Path) -> None:
    root = tmp_path / "runbooks"
    path = write_file(root, "ops/db.md", "---\ntitle: DB\ntags: db, oncall\naccess: [sre]\ndate: 2025-03-04\n"
                                     "last_updated: 2026-01-02T10:00:00Z\nowner: ana\n---\n\nFail over.\n")
    write_file(root, "ops/bad-date.md", "---\ncreated: next tuesday\ntags: [x]\n---\nStill here.\n")
    write_file(root, "ops/open.md", "---\naccess: {team: sre}\n---\nSecret plan.\n")
    result = ingest_documents(root, source_name="ops-docs")
    nodes = {n.id: n for n in result.nodes}
    assert set(nodes) == {"ops-docs/ops/db.md", "ops-docs/ops/bad-date.md"}
    db = nodes["ops-docs/ops/db.md"]
    assert db.text == "Fail over." and db.tags == ("db", "oncall") and db.access == ("sre",)
    assert db.created == datetime(2025, 3, 4, tzinfo=UTC)
    assert db.updated == datetime(2026, 1, 2, 10, tzinfo=UTC)
    assert db.source == str(path) and Path(db.source).is_absolute()
    assert db.attrs["source_name"] == "ops-docs" and db.attrs["source_root"] == str(root.resolve())
    # A bad date is a warning on a file that is still indexed; an unreadable 'access' keeps
    # the file out rather than making it public.
    (warning,) = [p for p in result.problems if p.path.endswith("bad-date.md")]
    assert "'created'" in warning.message and warning.unread is Unread.NOTHING
    assert nodes["ops-docs/ops/bad-date.md"].created is None
    (refused,) = [p for p in result.problems if p.path.endswith("open.md")]
    assert "'access'" in refused.message and refused.keeps is Unread.FILE


def test_links_between_documents_are_edges_and_nothing_else(tmp_path: Path) -> None:
    root = tmp_path / "site"
    write_file(tmp_path, "outside.md", "# Outside\n\nNot ours.\n")
    write_file(root, "a.md", "# A\n\nSee [b](b.md), [b again](./b.md#part), [c](sub/c.md \"C\"), [out](../outside.md),"
                         " [web](https://example.com/b.md), [gone](missing.md), [me](a.md#top), [folder](sub/).\n"
                         "```\n[in code](d.rst)\n```\n")
    write_file(root, "b.md", "# B\n\n[ref]: sub/c.md\n")
    write_file(root, "sub/c.md", "# C\n\nBack to [a](../a.md?x=1) and [d](<../d.rst>).\n")
    write_file(root, "d.rst", "D\n===\n\nSee `A page <a.md>`_ and :doc:`sub/c`.\n")
    result = ingest_documents(root)
    edges = {(e.source, e.target) for e in result.edges}
    assert edges == {
        ("site/a.md", "site/b.md"), ("site/a.md", "site/sub/c.md"), ("site/b.md", "site/sub/c.md"),
        ("site/sub/c.md", "site/a.md"), ("site/sub/c.md", "site/d.rst"),
        ("site/d.rst", "site/a.md"), ("site/d.rst", "site/sub/c.md"),
    }
    assert len(result.edges) == len(edges) and {e.kind for e in result.edges} == {EdgeKind.MENTIONS}
    assert result.problems == []  # a link out, to the web or to nothing says nothing


def test_a_document_carries_no_secret_into_the_index(tmp_path: Path) -> None:
    root = tmp_path / "postmortems"
    write_file(root, "leak.md", f"---\ndescription: We leaked {TOKEN} in CI.\ntags: [{TOKEN}]\n---\n"
                            f"# Token {TOKEN} leaked\n\nThe log printed {TOKEN} and "
                            "https://deploy:hunter2@db.internal/app on every run.\n")
    (node,) = ingest_documents(root).nodes
    stored = json.dumps(node.to_dict())
    assert TOKEN not in stored and "hunter2" not in stored
    assert f"The log printed {REDACTED}" in node.text and f"https://{REDACTED}@db.internal/app" in node.text
    assert node.description == f"We leaked {REDACTED} in CI." and node.name == f"Token {REDACTED} leaked"


def test_bad_files_are_problems_and_the_run_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "notes"
    write_file(root, "good.md", "# Good\n\nReadable.\n")
    latin = write_file(root, "latin.md", b"# Caf\xe9\n")
    write_file(root, "empty.md", "")
    write_file(root, "blank.txt", "  \n\t\n")
    write_file(root, "unclosed.md", "---\ntitle: x\nBody without a closing line.\n")
    locked = write_file(root, "locked.rst", "Locked\n")
    write_file(root, "image.png", b"\x89PNG\r\n\x1a\n\x00")
    deny_reading(monkeypatch, locked)
    result = ingest_documents(root)
    assert [n.id for n in result.nodes] == ["notes/good.md"]
    by_file = {Path(p.path).name: p for p in result.problems}
    assert set(by_file) == {"latin.md", "empty.md", "blank.txt", "unclosed.md", "locked.rst"}
    assert "not UTF-8" in by_file["latin.md"].message and by_file["latin.md"].keeps is Unread.FILE
    assert by_file["latin.md"].path == str(latin)
    assert "Permission denied" in by_file["locked.rst"].message and by_file["locked.rst"].keeps is Unread.FILE
    assert "never closed" in by_file["unclosed.md"].message
    assert by_file["empty.md"].read_whole and by_file["blank.txt"].read_whole  # notes, not errors


def test_a_folder_without_components_is_read_as_documents_with_a_note(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write_file(docs, "intro.md", "# Intro\n\nWelcome.\n")
    result = ingest(docs)
    assert [(n.id, n.kind) for n in result.nodes] == [("docs/intro.md", NodeKind.DOCUMENT)]
    assert [p.message for p in result.notes] == [READ_AS_DOCUMENTS]
    skills = tmp_path / "skills"  # a component anywhere: a skills repository, as before
    write_file(skills, "fmt/SKILL.md", "---\nname: fmt\ndescription: Formats code.\n---\nRun the formatter.\n")
    write_file(skills, "README.md", "# Readme\n\nAbout.\n")
    assert [n.kind for n in ingest(skills).nodes] == [NodeKind.SKILL]
    broken = tmp_path / "broken"  # a SKILL.md that cannot be read is that repository's problem
    write_file(broken, "fmt/SKILL.md", "---\nname: fmt\n")
    write_file(broken, "README.md", "# Readme\n\nAbout.\n")
    read = ingest(broken)
    assert read.nodes == [] and any("SKILL.md" in p.path for p in read.skips)
    assert ingest(broken, "docs").nodes != []  # unless told it is documents


def test_a_folder_of_empty_skills_says_what_it_found_and_skipped(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # five SKILL.md files of frontmatter alone: the note said "no SKILL.md ... file found"
    root = tmp_path / "cats"
    for name in ("a", "b", "c", "d", "e"):
        write_file(root, f"skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: \n---\n\n")
    write_file(root, "README.md", "# Readme\n\nAbout these skills.\n")
    result = ingest(root)
    assert [n.id for n in result.nodes] == ["cats/README.md"]
    (note,) = [p.message for p in result.problems if p.path == str(root)]
    assert "no SKILL.md" not in note and note.startswith("read as documents: the 5 SKILL.md")
    assert "skills/a/SKILL.md and 4 more" in note and "no body and no description" in note
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 0
    out = capsys.readouterr().out
    assert "were all skipped as skills" in out and "no SKILL.md" not in out
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 0  # read again: documents still
    assert _nodes(index_dir).keys() == {"cats/README.md"}


def test_kind_docs_reads_component_folders_as_documents(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "wiki"
    write_file(root, "commands/deploy.md", "---\nname: deploy\ndescription: Deploys.\n---\nHow we deploy.\n")
    assert main(["index", str(root), "--kind", "docs", "--index-dir", str(index_dir)]) == 0
    out = capsys.readouterr().out
    assert "read as documents" not in out  # said explicitly: no note
    (node,) = _nodes(index_dir).values()
    assert node.id == "wiki/commands/deploy.md" and node.kind is NodeKind.DOCUMENT
    message = no_place_message(None, "deploy", [node])
    assert f"a document is read where it is, not installed: open {root / 'commands/deploy.md'}" in message


def test_reindexing_mirrors_the_folder_and_keeps_unreadable_files(tmp_path: Path, index_dir: Path) -> None:
    root = tmp_path / "runbooks"
    write_file(root, "a.md", "# A\n\nAlpha, see [b](b.md).\n")
    write_file(root, "b.md", "# B\n\nBeta.\n")
    write_file(root, "c.md", "# C\n\nGamma.\n")
    write_file(root, "d.md", "# D\n\nDelta.\n")
    with Index.open(index_dir) as index:
        index_sources(index, [root], calibrate=False)
        assert set(index.snapshot().nodes) == {f"runbooks/{x}.md" for x in "abcd"}
        (root / "b.md").unlink()  # deleted: its document and the link to it go
        (root / "c.md").write_bytes(b"# C\n\nGamm\xe0.\n")  # unreadable today: kept
        (root / "d.md").write_text("", encoding="utf-8")  # emptied: goes, as if deleted
        run = index_sources(index, [root], calibrate=False)
        assert run.removed == {str(root): ["runbooks/b.md", "runbooks/d.md"]}
        snap = index.snapshot()
        assert set(snap.nodes) == {"runbooks/a.md", "runbooks/c.md"} and not snap.edges


def test_a_folder_with_neither_components_nor_documents_is_an_error(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "pictures"
    write_file(root, "a.png", b"\x89PNG\r\n")
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 1
    err = capsys.readouterr().err
    assert f"no items read from {root}" in err and "a folder of documents" in err and "--kind docs" in err


def test_stats_and_remove_source_know_a_documents_source(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "adrs"
    write_file(root, "0001.md", "# Use Postgres\n\nWe use Postgres.\n")
    assert main(["index", str(root), "--index-dir", str(index_dir)]) == 0
    assert f"note: {root}: {READ_AS_DOCUMENTS}" in capsys.readouterr().out
    assert main(["stats", "--index-dir", str(index_dir)]) == 0
    assert f"adrs (1 items, {root})" in capsys.readouterr().out
    assert main(["remove-source", "adrs", "--index-dir", str(index_dir)]) == 0
    assert _nodes(index_dir) == {}


@pytest.mark.slow
def test_query_finds_the_right_runbook_with_the_bundled_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "runbooks"
    write_file(root, "queue.md", "# Restart the payment queue\n\nWhen the RabbitMQ payment queue stops draining, "
                             "restart the consumer deployment and purge dead letters.\n")
    write_file(root, "failover.md", "# Database failover\n\nPromote the Postgres replica when the primary is "
                                "down for five minutes.\n")
    write_file(root, "tls.txt", "Renewing TLS certificates\n\nCertbot renews the Let's Encrypt certificates "
                            "from cron every 60 days.\n")
    index_dir = str(tmp_path / "index")
    assert main(["index", str(root), "--index-dir", index_dir]) == 0  # a new index: the bundled model
    capsys.readouterr()
    assert main(["query", "the primary postgres database is down", "--json", "--index-dir", index_dir]) == 0
    first = json.loads(capsys.readouterr().out)["results"][0]
    assert (first["id"], first["kind"]) == ("runbooks/failover.md", "document")
    assert first["source"] == str((root / "failover.md").absolute())  # where to read it
    assert main(["query", "certificate expired on the website", "-k", "1", "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert "id: runbooks/tls.txt" in out and f"file: {(root / 'tls.txt').absolute()}" in out


def test_one_component_file_is_refused_with_its_folder_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A SKILL.md or an agent is read with its repository (its id is its path there); one
    # document file is a source of its own (tests/ingest/test_document_files.py).
    for rel in ("fmt/SKILL.md", "agents/reviewer.md"):
        one = write_file(tmp_path / "repo", rel, "---\nname: x\ndescription: X.\n---\nDo x.\n")
        assert main(["index", str(one), "--index-dir", str(tmp_path / "index")]) != 0
        err = capsys.readouterr().err
        assert "is one file of a skills repository" in err and f"skill-retriever index {one.parent}" in err
        assert "--kind docs" in err


def test_a_crafted_first_paragraph_is_read_only_as_far_as_a_description_needs(tmp_path: Path) -> None:
    # Thousands of unclosed ``**`` on one line made the inline-markup patterns read the
    # line again from each one (time growing with the square of the line): a file must never
    # stall a run. Only the first 2,000 characters of a paragraph or a title are read.
    root = tmp_path / "docs"
    # And a line of thousands of ``](<`` (a link's start with no end) made the link
    # pattern run to the line's end from each: now one pass.
    write_file(root, "crafted.md", "# " + "**t " * 20_000 + "\n\n" + "**a " * 20_000 + "\n\n" + "](<" * 20_000
               + " [ok](other.md)\n")
    write_file(root, "other.md", "# Other\n\nThe page linked to.\n")
    read = ingest_documents(root)
    links = [(e.source, e.target) for e in read.edges if e.kind is EdgeKind.MENTIONS]
    assert links == [("docs/crafted.md", "docs/other.md")]
    node = next(n for n in read.nodes if n.id == "docs/crafted.md")
    assert len(node.description) <= 300 and node.description.startswith("**a")
    # The text is kept whole: its paragraphs, each past document_sections.SPLIT_CHARS, are
    # the file's parts (PART_OF it), none cut.
    parts = [n for n in read.nodes if n.id.startswith("docs/crafted.md#")]
    assert len(node.name) <= 2_000 and sum(n.text.count("**a") for n in [node, *parts]) == 20_000
    assert {(e.source, e.target) for e in read.edges if e.kind is EdgeKind.PART_OF} == {
        (n.id, "docs/crafted.md") for n in parts}


def test_frontmatter_read_leniently_is_noted_as_for_a_skill(tmp_path: Path) -> None:
    """``title: [unclosed`` made a document named "[unclosed" with no word (found in a
    walkthrough); a skill's frontmatter read so gets a note, and a document's now too."""
    write_file(tmp_path, "bad.md", "---\ntitle: [unclosed\n---\n\n# Bad yaml doc\n\nBody about redis failover.\n")
    result = ingest_documents(tmp_path)
    (problem,) = result.problems
    assert problem.read_whole and problem.message.startswith("frontmatter is not valid YAML (")
    assert "quote values holding ': ' or starting with '[', '{' or '*'" in problem.message
    assert [n.name for n in result.nodes] == ["[unclosed"]  # read as written, as Claude Code would


@pytest.mark.parametrize("name", ["restore.txt", "restore.rst"])
def test_a_text_file_whose_block_gives_access_and_cannot_be_read_is_not_indexed(tmp_path: Path, name: str) -> None:
    """A ``.txt`` or ``.rst`` file whose ``---`` block does not parse is read as its text:
    one whose block gives ``access`` was indexed public, the block and the runbook with it
    (seen: ``access: [ops]`` above a line without a colon). It is a problem now, not
    indexed, and its earlier version stays."""
    block = "---\ntitle: Restore\naccess: [ops]\nthis line breaks it\n---\nThe root password is in the safe.\n"
    path = write_file(tmp_path / "docs", name, block)
    write_file(tmp_path / "docs", "plain.txt", "---\ntitle: Plain\nno colon here\n---\nRead as its text.\n")
    result = ingest_documents(tmp_path / "docs")
    assert [n.name for n in result.nodes] == ["plain"]
    (problem,) = result.problems
    assert problem.path == str(path) and problem.keeps is Unread.FILE and "it gives 'access'" in problem.message
