"""``skill-retriever index`` end to end: bad files are reported, good ones indexed, and a
second repository named like the first is refused until it gets its own --source-name.

The index is created with the HashingEmbedder first; the CLI then opens it with the
embedder its manifest names, so no model is loaded.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources
from skill_retriever.stores.index import Index

HUGE = "9" * 5000


def _skill(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n{extra}---\nHow to {name}.\n"


def _ids(index_dir: Path) -> set[str]:
    with Index.open(index_dir) as index:
        return set(index.snapshot().nodes)


def test_recovered_frontmatter_is_printed_as_a_note(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "badfm"
    write_file(repo, "commands/foo.md", "---\nname: foo-cmd\ndescription: [unclosed foo: : bar\n---\nBody.\n")
    rc = main(["index", str(repo), "--index-dir", str(index_dir)])
    out = capsys.readouterr().out
    assert rc == 0 and "1 nodes" in out and "0 problems, 1 notes" in out
    assert f"note: {repo / 'commands' / 'foo.md'}: frontmatter is not valid YAML" in out
    assert _ids(index_dir) == {"badfm/commands/foo.md"}


def test_notes_are_grouped_and_never_bury_a_problem(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Twelve files of one lenient frontmatter came first, one problem line each, and
    pushed the file that could not be read out of the ten lines shown (davila7: 229 such
    notes among 373 problems)."""
    repo = tmp_path / "many"
    for i in range(12):
        write_file(repo, f"commands/c{i:02}.md", f"---\nname: c{i}\ndescription: Use it: for {i}\n---\nBody.\n")
    (repo / "skills/broken").mkdir(parents=True)
    (repo / "skills/broken/SKILL.md").write_bytes(b"\xff\xfe not text \x00")
    rc = main(["index", str(repo), "--index-dir", str(index_dir)])
    out = capsys.readouterr().out
    assert rc == 0 and "12 nodes" in out and "1 problems, 12 notes" in out, out
    lines = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    assert lines[0].startswith(f"problem: {repo / 'skills/broken/SKILL.md'}"), lines
    (note,) = [line for line in lines if line.startswith("note:")]
    assert "frontmatter is not valid YAML" in note and "(and 11 more file(s) like it; see --json)" in note
    rc = main(["index", str(repo), "--index-dir", str(index_dir), "--json"])
    (source,) = json.loads(capsys.readouterr().out)["run"]["sources"]
    assert len(source["problems"]) == 1 and len(source["notes"]) == 12


def test_bad_files_are_reported_and_good_ones_indexed(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "catalogue"
    write_file(repo, "skills/good-one/SKILL.md", _skill("good-one"))
    write_file(repo, "agents/good-two.md", _skill("good-two"))
    write_file(repo, "skills/bad/SKILL.md", _skill("bad", f"created: 2026-02-30\nversion: {HUGE}\n"))
    write_file(repo, "hooks/bad.json", '{"description": "d", "command": "x", "timeout": ' + HUGE + "}")
    rc = main(["index", str(repo), "--index-dir", str(index_dir)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "problem:" in out and "2026-02-30" in out and "5,000-digit" in out
    assert "hooks/bad.json" in out
    assert {
        "catalogue/skills/good-one/SKILL.md",
        "catalogue/agents/good-two.md",
    } <= _ids(index_dir)
    assert "catalogue/hooks/bad.json" not in _ids(index_dir)


def test_a_second_repository_with_the_same_name_needs_a_source_name(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a" / "skills", tmp_path / "b" / "skills"
    write_file(first, "skills/lint/SKILL.md", _skill("lint"))
    write_file(second, "skills/format/SKILL.md", _skill("format"))
    # The first repository is written here, not by a CLI call: cmd_index leaves its Index
    # (and the directory's write lock) open until the process ends, so a second writing
    # call in this process would find the index locked.
    with Index.open(index_dir) as index:
        index_sources(index, [first])
    assert main(["index", str(second), "--index-dir", str(index_dir)]) == 2
    err = capsys.readouterr().err
    assert "--source-name" in err and len(err.strip().splitlines()) == 1
    assert _ids(index_dir) == {"skills/skills/lint/SKILL.md"}
    args = ["index", str(second), "--index-dir", str(index_dir), "--source-name", "b-skills"]
    assert main(args) == 0
    assert _ids(index_dir) == {"skills/skills/lint/SKILL.md", "b-skills/skills/format/SKILL.md"}


def test_json_problems_say_what_the_index_keeps_as_the_text_does(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CLI audit: the text said "binary file (NUL bytes); skipped (what was indexed from
    it before, if anything, stays)" and --json only "binary file (NUL bytes); skipped", so
    a program could not tell a file's items kept from a file's items gone."""
    repo = tmp_path / "kept"
    write_file(repo, "skills/a/SKILL.md", "---\nname: a\ndescription: the a skill\n---\nBody.\n")
    write_file(repo, "skills/b/SKILL.md", "---\nname: b\ndescription: the b skill\n---\nBody.\n")
    assert main(["index", str(repo), "--index-dir", str(index_dir), "--embedder", "hashing-64"]) == 0
    (repo / "skills/a/SKILL.md").write_bytes(b"\x00\x01binary")
    capsys.readouterr()
    assert main(["index", str(repo), "--index-dir", str(index_dir)]) == 0
    text = [line.strip()[len("problem: "):] for line in capsys.readouterr().out.splitlines() if "problem: " in line]
    assert main(["index", str(repo), "--index-dir", str(index_dir), "--json"]) == 0
    (source,) = json.loads(capsys.readouterr().out)["run"]["sources"]
    assert source["problems"] == text
    assert source["problems"][0].endswith("(what was indexed from it before, if anything, stays)")
    assert "kept/skills/a/SKILL.md" in _ids(index_dir)  # as it says
