"""Long documents cut into parts: a part that begins at a heading is named by it, a cut
never falls between a heading and its first paragraph, and the file's own item keeps
only the text before its first section (`document_sections`, `section_cuts`).

The walkthrough's files, rebuilt in tmp_path: ``big/code.md`` (a title, an 87 KB code
block, then ``## After``: the section was ``Code › part 2`` and the file's item held the
whole block) and ``big/small.md`` (3,000 short sections: a part began with ``short text
1507.`` and the one before ended with ``## S1507``). Read by the real ingest and the CLI.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from files import write_file

from skill_retriever.cli import main
from skill_retriever.ingest.document_sections import SPLIT_CHARS, split_sections
from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.model import Node
from skill_retriever.stores.index import Index

FILLER = "Operators read this paragraph during an incident and follow it step by step. "  # 78 chars
CODE = "```python\n" + "x = 1  # filler line of code\n" * 3_000 + "```\n"  # 87,013 characters, one block


def _para(words: str, times: int = 8) -> str:
    return words + " " + FILLER * times + "\n"


def _read(root: Path) -> dict[str, Node]:
    return {n.id: n for n in ingest_documents(root).nodes}


def _line_of(path: Path, line: int) -> str:
    return path.read_text(encoding="utf-8").split("\n")[line - 1]


def _is_heading(line: str) -> bool:
    return bool(re.match(r" {0,3}#{1,6}(?:[ \t]|$)", line))


def test_a_section_after_a_code_block_keeps_its_heading_and_the_file_keeps_its_lead(tmp_path: Path) -> None:
    root = tmp_path / "big"
    after = "after text. " * 50
    path = write_file(root, "code.md", "# Code\n\nintro text paragraph here.\n\n" + CODE + "\n## After\n\n" + after + "\n")
    nodes = _read(root)
    assert set(nodes) == {"big/code.md", "big/code.md#part-2", "big/code.md#after"}
    section = nodes["big/code.md#after"]
    assert section.name == "Code \u203a After" and section.attrs["section"] == "After"
    assert section.text == "## After\n\n" + after.strip()
    assert _line_of(path, section.attrs["line"]) == "## After"
    # The file's item: the text before the first section (the title and the intro), and
    # the list of the sections; the code block is a part of its own, whole.
    doc = nodes["big/code.md"]
    assert doc.text == "# Code\n\nintro text paragraph here.\n\nSections:\n- part 2\n- After"
    assert doc.description == "intro text paragraph here."
    code = nodes["big/code.md#part-2"]
    assert code.text == CODE.strip() and code.attrs["line"] == 5 and code.name == "Code \u203a part 2"


def test_merged_short_sections_are_cut_before_a_heading_never_under_it(tmp_path: Path) -> None:
    root = tmp_path / "big"
    body = "# Small\n\n" + "".join(f"## S{n}\n\nshort text {n}.\n\n" for n in range(3_000))
    path = write_file(root, "small.md", body)
    nodes = _read(root)
    parts = sorted((n for i, n in nodes.items() if "#" in i), key=lambda n: n.attrs["line"])
    assert len(parts) >= 2
    lead = nodes["big/small.md"].text.split("\n\nSections:\n")[0]
    for text in [lead, *(p.text for p in parts)]:
        lines = text.split("\n")
        assert not _is_heading(lines[-1]), lines[-3:]  # no part ends on a heading over nothing
    for part in parts:
        heading = part.text.split("\n")[0]
        number = heading.removeprefix("## S")
        assert part.text.startswith(f"## S{number}\n\nshort text {number}.")
        assert part.attrs["section"] == f"S{number}" and part.id == f"big/small.md#s{number}"
        assert part.name == f"Small \u203a S{number}" and part.description == f"short text {number}."
        assert _line_of(path, part.attrs["line"]) == heading
        assert len(part.text) <= SPLIT_CHARS
    joined = "\n\n".join([lead, *(p.text for p in parts)])
    assert all(joined.count(f"short text {n}.\n") + joined.endswith(f"short text {n}.") == 1 for n in range(3_000))


def test_a_heading_right_under_a_paragraph_begins_the_next_part(tmp_path: Path) -> None:
    # No blank line between a paragraph and the next heading: the cut was at the blank line
    # under the heading, leaving it at the end of a part; now the heading begins the part.
    root = tmp_path / "docs"
    path = write_file(root, "deep.md", "# Deep\n\n" + "".join(
        f"#### Step {n}\n\n" + _para(f"Step {n}.", SPLIT_CHARS // len(FILLER) // 3) for n in range(1, 9)))
    nodes = _read(root)
    parts = [n for i, n in nodes.items() if "#" in i]
    assert len(parts) >= 2
    for part in parts:
        first = part.text.split("\n")[0]
        assert first.startswith("#### Step ") and _line_of(path, part.attrs["line"]) == first
        assert part.attrs["section"].startswith("part ")  # a level-4 heading names no section
        assert not _is_heading(part.text.split("\n")[-1])
    assert not _is_heading(nodes["docs/deep.md"].text.split("\n\nSections:")[0].split("\n")[-1])


def test_a_part_that_begins_at_a_merged_sections_heading_is_named_by_it() -> None:
    # The short "N..." sections join "Install", which then runs past the split size: its
    # cut falls at one of their headings, which names the part ("Install (part 2)" before).
    body = ("# Guide\n\nLead.\n\n## Install\n\n" + _para("Install it.", 490) + "\n" +
            "".join(f"## N{n}\n\nA short note {n}.\n\n" for n in range(200)) + "## Configure\n\n" + _para("Configure.", 20))
    split = split_sections(body, ".md")
    assert split is not None
    install, cut, configure = split.sections
    assert (install.heading, configure.heading) == ("Install", "Configure")
    first = cut.text.split("\n")[0]
    assert re.fullmatch(r"## N\d+", first) and cut.heading == first[3:] and cut.slug == first[3:].lower()
    assert cut.text.startswith(f"{first}\n\nA short note {first[4:]}.")
    assert body.split("\n")[cut.line - 1] == first


def test_a_lead_over_the_split_size_is_cut_into_parts(tmp_path: Path) -> None:
    # Short sections before the first long one stay in the lead; together they ran past
    # the split size, and the file's own item held them all.
    root = tmp_path / "docs"
    intro = "".join(f"## Term {n}\n\nTerm {n} means what it says.\n\n" for n in range(1_500))
    write_file(root, "glossary.md", "# Glossary\n\nThe words we use.\n\n" + intro +
               "## Usage\n\n" + _para("Usage.", 60) + "\n## Style\n\n" + _para("Style.", 60))
    nodes = _read(root)
    doc = nodes["docs/glossary.md"]
    lead = doc.text.split("\n\nSections:\n")[0]
    assert lead.startswith("# Glossary\n\nThe words we use.") and len(lead) <= SPLIT_CHARS
    sections = [n.attrs["section"] for i, n in nodes.items() if "#" in i]
    assert sections[-2:] == ["Usage", "Style"] and re.fullmatch(r"Term \d+", sections[0])
    assert all(len(n.text) <= SPLIT_CHARS for i, n in nodes.items() if "#" in i)


def test_splits_that_worked_before_keep_their_ids_and_texts(tmp_path: Path) -> None:
    # Sections of a file split well before the fix: ids, names and texts as they were.
    root = tmp_path / "runbooks"
    write_file(root, "payments.md", "# Payments\n\nThe lead.\n\n" + "".join(
        f"## Part {n}\n\n" + _para(f"Part {n}.", 80) + "\n" for n in range(1, 9)))
    nodes = _read(root)
    assert sorted(nodes) == ["runbooks/payments.md", *sorted(f"runbooks/payments.md#part-{n}" for n in range(1, 9))]
    assert nodes["runbooks/payments.md#part-3"].text == "## Part 3\n\n" + _para("Part 3.", 80).strip()
    assert nodes["runbooks/payments.md"].text.startswith("# Payments\n\nThe lead.\n\nSections:\n- Part 1\n")


def _index(root: Path, index_dir: Path, capsys: Any) -> dict[str, Any]:
    assert main(["index", str(root), "--kind", "docs", "--index-dir", str(index_dir), "--json"]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_reindexing_unchanged_files_keeps_every_id(tmp_path: Path, index_dir: Path, capsys: Any) -> None:
    root = tmp_path / "big"
    write_file(root, "code.md", "# Code\n\nintro text paragraph here.\n\n" + CODE + "\n## After\n\n" +
               "after text. " * 50 + "\n")
    write_file(root, "small.md", "# Small\n\n" + "".join(f"## S{n}\n\nshort text {n}.\n\n" for n in range(3_000)))
    write_file(root, "notes.mdx", "import Note from './Note'\n\n# Notes\n\n<Note>Read me.</Note>\n")
    write_file(root, "pm.rst", "=====\nPM\n=====\n\nSummary\n-------\n\nIt broke.\n")
    _index(root, index_dir, capsys)
    with Index.open(index_dir) as index:
        first = {i: (n.name, n.text) for i, n in index.snapshot().nodes.items()}
    assert {"big/code.md#after", "big/code.md#part-2"} <= set(first)
    _index(root, index_dir, capsys)
    with Index.open(index_dir) as index:
        again = {i: (n.name, n.text) for i, n in index.snapshot().nodes.items()}
    assert again == first
    assert set(first) == {n.id for n in ingest_documents(root).nodes}  # the index holds what a read gives
