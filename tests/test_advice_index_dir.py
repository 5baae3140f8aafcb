"""The ``skill-retriever ...`` commands that messages advise run as printed (user
walkthrough): an index other than the default one is named with ``--index-dir``, so that
a command pasted from the note acts on the index the note was about, not on
``.skill-retriever`` ("error: no index at .skill-retriever", exit 2).

Each test takes the command out of the message and runs it through the CLI in the same
working folder. The index is created with the HashingEmbedder; the CLI opens it with the
embedder its manifest names, so no model is loaded.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.advice import Placeholder, command, is_default_index
from skill_retriever.cli import main
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Work in ``tmp_path`` with the default index the CLI's own (``.skill-retriever`` there)."""
    monkeypatch.delenv("SKILL_RETRIEVER_INDEX", raising=False)
    monkeypatch.chdir(tmp_path)


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n---\nHow to {name}.\n"


def _repo(root: Path) -> Path:
    """A skills repository laid out like anthropics/skills: skills/<name>/SKILL.md."""
    for name in ("mcp-builder", "pdf"):
        write_file(root, f"skills/{name}/SKILL.md", _skill(name))
    return root


def _new_index(path: str) -> None:
    Index.open(Path(path), embedder=HashingEmbedder(), create=True).close()


def _advised(text: str, verb: str) -> list[str]:
    """The arguments of the first ``skill-retriever VERB ...`` command quoted in ``text``."""
    found = re.search(rf"`(skill-retriever {verb}[^`]*)`", text)
    assert found, text
    argv = shlex.split(found.group(1))
    assert argv[0] == "skill-retriever"
    return argv[1:]


def _sources(index_dir: str) -> set[str]:
    with Index.open(Path(index_dir)) as index:
        return {str(n.attrs.get("source_name")) for n in index.snapshot().nodes.values()}


def test_the_note_on_a_source_inside_another_names_the_index_and_runs_as_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The walkthrough: a skill folder indexed, then its repository into the same index."""
    repo = _repo(tmp_path / "anthropics__skills")
    _new_index(".n1")
    assert main(["index", str(repo / "skills" / "mcp-builder"), "--index-dir", ".n1"]) == 0
    capsys.readouterr()
    assert main(["index", str(repo), "--index-dir", ".n1"]) == 0
    out = capsys.readouterr().out
    assert "`skill-retriever remove-source mcp-builder --index-dir .n1` if this source is enough" in out, out
    assert _sources(".n1") == {"mcp-builder", "anthropics__skills"}
    assert main(_advised(out, "remove-source")) == 0  # it said "no index at .skill-retriever", exit 2
    assert _sources(".n1") == {"anthropics__skills"}
    assert not Path(".skill-retriever").exists()


def test_the_refusal_of_a_nested_folder_names_the_index_and_runs_as_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path / "anthropics__skills")
    _new_index(".n1")
    assert main(["index", str(repo), "--index-dir", ".n1"]) == 0
    capsys.readouterr()
    assert main(["index", str(repo / "skills" / "mcp-builder"), "--index-dir", ".n1"]) != 0
    err = capsys.readouterr().err
    assert f"(`skill-retriever index {repo.resolve()} --index-dir .n1`)" in err, err
    assert main(_advised(err, "index")) == 0
    assert _sources(".n1") == {"anthropics__skills"}
    assert not Path(".skill-retriever").exists()


def test_the_default_index_is_not_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The index a command finds by itself needs no option: the note stays as short as before,
    and runs as printed."""
    repo = _repo(tmp_path / "anthropics__skills")
    _new_index(".skill-retriever")
    assert main(["index", str(repo / "skills" / "mcp-builder")]) == 0
    capsys.readouterr()
    assert main(["index", str(repo), "--index-dir", str(tmp_path / ".skill-retriever")]) == 0
    out = capsys.readouterr().out
    assert "`skill-retriever remove-source mcp-builder` if this source is enough" in out, out
    assert main(_advised(out, "remove-source")) == 0
    assert _sources(".skill-retriever") == {"anthropics__skills"}


def test_stats_names_the_index_in_its_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A source gone from disk: stats's way out ran against the default index."""
    import shutil

    repo = _repo(tmp_path / "vendor")
    index_dir = str(tmp_path / "my index")  # a space: the path is quoted for the shell
    _new_index(index_dir)
    assert main(["index", str(repo), "--index-dir", index_dir]) == 0
    shutil.rmtree(repo)
    capsys.readouterr()
    assert main(["stats", "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert f"`skill-retriever remove-source vendor --index-dir '{index_dir}'` takes it out" in out, out
    assert main(_advised(out, "remove-source")) == 0
    assert _sources(index_dir) == set()


def test_install_of_an_unknown_name_advises_a_query_of_that_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(tmp_path / "ix")
    _new_index(index_dir)
    assert main(["index", str(_repo(tmp_path / "repo")), "--index-dir", index_dir]) == 0
    capsys.readouterr()
    assert main(["install", "no-such-skill", "--target", str(tmp_path / "proj"), "--index-dir", index_dir]) == 2
    err = capsys.readouterr().err
    assert f'`skill-retriever query "<the task>" --kinds skill,agent,command,hook,mcp_server,plugin --index-dir {index_dir}`' in err


def test_command_quotes_words_and_adds_the_index_only_when_not_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert command(["remove-source", "my source"], ".n1") == "skill-retriever remove-source 'my source' --index-dir .n1"
    assert command(["remove-source", Placeholder("NAME")], ".n1") == "skill-retriever remove-source NAME --index-dir .n1"
    assert command(["calibrate"], None) == "skill-retriever calibrate"  # the index unknown: nothing added
    for default in (".skill-retriever", "./.skill-retriever", tmp_path / ".skill-retriever"):
        assert is_default_index(default)
        assert command(["repair"], default) == "skill-retriever repair"
    # $SKILL_RETRIEVER_INDEX names the default a command finds: that one needs no option, .skill-retriever does
    monkeypatch.setenv("SKILL_RETRIEVER_INDEX", str(tmp_path / "elsewhere"))
    assert command(["repair"], tmp_path / "elsewhere") == "skill-retriever repair"
    assert command(["repair"], ".skill-retriever") == "skill-retriever repair --index-dir .skill-retriever"
