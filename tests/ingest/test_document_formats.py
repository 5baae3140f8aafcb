"""Files of a documents folder in a format it does not read (HTML, AsciiDoc, PDF, ...).

Found in a walkthrough: a docs folder of ``a.md``, ``guide.html``, ``x.adoc`` and
``manual.pdf`` indexed ``1 nodes, 0 problems`` and no note: three documents left out
without a word, where a user expects each skipped file to be said with its reason. Images,
scripts and data beside the documents stay unsaid (they are no documents).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.ingest.documents import ingest_documents


def test_documents_in_formats_not_read_are_named_in_one_note(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write_file(root, "a.md", "# Alpha\n\nAlpha steps.\n")
    write_file(root, "guide.html", "<h1>Guide</h1><p>Steps.</p>")
    write_file(root, "ops/setup.HTML", "<h1>Setup</h1>")
    write_file(root, "x.adoc", "= Asciidoc\n\nText.\n")
    write_file(root, "manual.pdf", b"%PDF-1.4\n")
    write_file(root, "diagram.png", b"\x89PNG\r\n")
    write_file(root, "tool.py", "print('hi')\n")
    write_file(root, "notes.org", "* Notes\n")
    (root / "notes.md").symlink_to("notes.org")  # read through the link: not left out
    result = ingest_documents(root)
    assert [n.id for n in result.nodes] == ["docs/a.md", "docs/notes.md"]
    [note] = [p for p in result.problems if "not read as documents" in p.message]
    assert note.path == str(root.absolute()) and note.read_whole
    assert note.message.startswith("left out 4 file(s) in formats not read as documents (.html 2, .adoc 1, .pdf 1")
    assert "guide.html" in note.message and ".md" in note.message
    assert "png" not in note.message and "tool.py" not in note.message


def test_no_note_when_every_document_is_read(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write_file(root, "a.md", "# Alpha\n\nAlpha steps.\n")
    write_file(root, "diagram.png", b"\x89PNG\r\n")
    assert not ingest_documents(root).problems


@pytest.mark.parametrize("name", ["guide.html", "manual.PDF", "notes.adoc"])
def test_one_file_in_a_format_not_read_is_refused_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """``index docs/guide.html`` said "is not a .json file; point at a folder or a JSON
    graph file", as if a JSON graph were what the user meant."""
    path = write_file(tmp_path / "docs", name, "<h1>Guide</h1>")
    code, out, err = run(capsys, "index", path, "--index-dir", tmp_path / "ix", "--embedder", "hashing-64")
    assert code == 2 and not out
    assert f"{path}: {Path(name).suffix.lower()} is a format not read as a document" in err
    assert ".json" not in err and ".md" in err


@pytest.mark.parametrize("name", ["deploy.py", "config.yaml", "Makefile"])
def test_one_file_of_no_indexed_kind_is_told_every_kind_a_file_may_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """A CLI audit: ``index deploy.py`` said "is not a .json file; point at a folder or a
    JSON graph file", as if only a JSON graph could be indexed alone, not a document."""
    path = write_file(tmp_path / "repo", name, "x: 1\n")
    code, out, err = run(capsys, "index", path, "--index-dir", tmp_path / "ix", "--embedder", "hashing-64")
    assert code == 2 and not out
    what = f"a {Path(name).suffix} file" if Path(name).suffix else "a file without a suffix"
    assert f"{path}: {what} is not indexed alone; a file indexed alone is a JSON graph (.json)" in err, err
    assert "a document (.md, .markdown, .mdx, .rst, .txt); to index the skills or documents around it, give its folder" in err
