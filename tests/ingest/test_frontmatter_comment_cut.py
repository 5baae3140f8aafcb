"""A plain frontmatter value with `` #`` in it ends there: YAML reads the rest of the line
as a comment, and so does Claude Code. On trailofbits/skills the description of
``repr-c-padding-finder`` (``Detects #[repr(C)] structs whose padding ...``) became
"Detects", and ``packed-field-ref-finder``'s ended "references to fields of", without a word
to the author. The value stays as YAML reads it; a note says where it was cut and how to
keep the rest."""

from __future__ import annotations

from pathlib import Path

from files import write_file

from skill_retriever.ingest.skills import ingest_skill_repo


def _ingest(tmp_path: Path, block: str) -> tuple[str, list[str]]:
    root = tmp_path / "repo"
    write_file(root, "skills/x/SKILL.md", f"---\n{block}---\n\nBody.\n")
    result = ingest_skill_repo(root)
    (node,) = result.nodes
    return node.description, [p.message for p in result.problems]


def test_a_description_cut_by_a_comment_is_noted(tmp_path: Path) -> None:
    description, notes = _ingest(
        tmp_path, "name: repr-c-padding-finder\ndescription: Detects #[repr(C)] structs whose padding leaks\n"
    )
    assert description == "Detects"  # as YAML and Claude Code read it
    (note,) = notes
    assert "'description'" in note and "#[repr(C)] structs whose padding leaks" in note
    assert "quote" in note


def test_a_name_cut_by_a_comment_is_noted(tmp_path: Path) -> None:
    _, notes = _ingest(tmp_path, "name: pdf-tools  # the PDF one\ndescription: Reads PDFs.\n")
    assert len(notes) == 1 and "'name'" in notes[0] and "the PDF one" in notes[0]


def test_no_note_for_a_hash_inside_a_word_or_a_quoted_value(tmp_path: Path) -> None:
    block = 'name: csharp\ndescription: "Writes C# and F# code #fast"\n'
    assert _ingest(tmp_path, block) == ("Writes C# and F# code #fast", [])
    assert _ingest(tmp_path, "name: csharp\ndescription: Writes C# code\n") == ("Writes C# code", [])


def test_no_note_for_a_comment_on_a_key_line_without_a_value(tmp_path: Path) -> None:
    block = "name: x\ndescription: >-  # folded\n  Reads many PDFs.\n"
    assert _ingest(tmp_path, block) == ("Reads many PDFs.", [])
