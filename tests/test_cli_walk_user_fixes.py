"""What a walk through the CLI on real skill repositories found, fixed:

- ``index --embedder X`` on an index built with another model is refused (its vectors mean
  nothing to X) with both ways on: leave ``--embedder`` out, or a new ``--index-dir``; the
  help says it is refused, not that the flag is ignored;
- an uninstall that keeps a file changed since the install names the command that
  finishes it as one that runs as printed (``skill-retriever uninstall ID --target DIR``);
- a leftover word after a subcommand is refused in the subcommand's words
  (``skill-retriever query: error: ... (see skill-retriever query --help)``);
- install leaves a skill folder's environment files (``.env``, ``.env.local``) out, with a
  note, and copies a template (``.env.example``).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.cli import _parser


def _repo(root: Path) -> Path:
    """A skills repository of two skills."""
    for name, what in (("pdf-tools", "Split and merge PDF files"), ("csv-report", "Summarise a CSV file")):
        folder = root / "repo" / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {what}.\n---\n\n# {name}\n\n{what} step by step.\n", encoding="utf-8"
        )
    return root / "repo"


@pytest.fixture
def indexed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The index (hashing-64) of `_repo` under ``tmp_path``."""
    code, _, err = run(capsys, "index", _repo(tmp_path), "--embedder", "hashing-64", "--index-dir", tmp_path / "ix")
    assert code == 0, err
    return tmp_path / "ix"


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_another_embedder_is_refused_with_both_ways_on(
    indexed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(indexed)
    code, _, err = run(capsys, "index", tmp_path / "repo", "--embedder", "hashing-32", "--index-dir", indexed)
    assert code == 2
    assert "built with embedder 'hashing-64', not 'hashing-32'" in err
    assert "leave the embedder out" in err and "to use 'hashing-64'" in err
    assert "skill-retriever index <sources> --embedder hashing-32 --index-dir <new directory>" in err
    assert _files(indexed) == before  # refused before anything was written
    # the way it names works: without --embedder the index keeps its own model
    code, out, err = run(capsys, "index", tmp_path / "repo", "--index-dir", indexed)
    assert code == 0, err
    assert "0 new, 0 changed, 2 unchanged" in out


def test_embedder_help_says_another_model_is_refused() -> None:
    index_help = _parser()._subparsers._group_actions[0].choices["index"].format_help()  # type: ignore[union-attr]
    assert "refuses another" in " ".join(index_help.split())


def test_uninstall_names_a_command_that_finishes_it(
    indexed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    code, _, err = run(capsys, "install", "pdf-tools", "--target", project, "--index-dir", indexed)
    assert code == 0, err
    installed = project / ".claude" / "skills" / "pdf-tools" / "SKILL.md"
    installed.write_text(installed.read_text(encoding="utf-8") + "my note\n", encoding="utf-8")
    code, out, _ = run(capsys, "uninstall", "pdf-tools", "--target", project)
    assert code == 1 and installed.exists()  # kept: changed since the install
    advised = out.split("and run `", 1)[1].split("` to finish", 1)[0]
    words = shlex.split(advised)
    assert words[:2] == ["skill-retriever", "uninstall"]
    assert words[-2:] == ["--target", str(project)]
    installed.unlink()  # the change undone as the line says: the command it names finishes
    code, out, err = run(capsys, *words[1:])
    assert code == 0, err
    assert "gone already" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["query", "fuzz", "rust"], "skill-retriever query: error: unrecognized arguments: rust"),
        (["stats", "--bogus"], "skill-retriever stats: error: unrecognized arguments: --bogus"),
    ],
)
def test_a_leftover_word_is_refused_in_the_subcommands_words(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, *argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert said in err
    assert f"(see skill-retriever {argv[0]} --help)" in err


def test_install_leaves_a_skill_folders_environment_files_out(
    indexed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key put in a cloned skill's ``.env`` to try it must not land in a project's
    ``.claude/`` (where a commit takes it along); the template beside it is copied."""
    folder = tmp_path / "repo" / "skills" / "pdf-tools"
    (folder / ".env").write_text("OPENAI_API_KEY=sk-live-0123456789abcdef\n", encoding="utf-8")
    (folder / ".env.local").write_text("TOKEN=ghp_0123456789\n", encoding="utf-8")
    (folder / ".env.example").write_text("OPENAI_API_KEY=\n", encoding="utf-8")
    (folder / "scripts").mkdir()
    (folder / "scripts" / "merge.py").write_text("print('merge')\n", encoding="utf-8")
    code, _, err = run(capsys, "index", tmp_path / "repo", "--index-dir", indexed)
    assert code == 0, err
    project = tmp_path / "project"
    code, out, err = run(capsys, "install", "pdf-tools", "--target", project, "--index-dir", indexed)
    assert code == 0, err
    assert ".env not copied: an environment file" in out and ".env.local not copied" in out
    skill = project / ".claude" / "skills" / "pdf-tools"
    assert sorted(p.name for p in skill.rglob("*") if p.is_file()) == [".env.example", "SKILL.md", "merge.py"]
    assert all(b"sk-live" not in p.read_bytes() for p in project.rglob("*") if p.is_file())
    code, _, err = run(capsys, "uninstall", "pdf-tools", "--target", project)
    assert code == 0, err
    assert not (project / ".claude").exists()  # what install added went; nothing else was there


def test_ctrl_c_while_indexing_says_what_stats_shows_only_if_it_wrote(
    indexed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the sources are still read writes nothing: `stats` then names no
    unfinished run, so the message does not promise one."""
    from skill_retriever import indexing

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(indexing, "index_sources", interrupted)  # Ctrl-C before the first write
    code, _, err = run(capsys, "index", tmp_path / "repo", "--index-dir", indexed)
    assert code == 130
    assert "if the run got to writing" in err
    code, out, _ = run(capsys, "stats", "--index-dir", indexed)
    assert code == 0 and "unfinished" not in out
