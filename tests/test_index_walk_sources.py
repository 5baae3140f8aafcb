"""``skill-retriever index`` on a path inside a source the index holds (user walkthroughs):
one file of a skills repository, a folder inside it, a document file emptied or deleted,
a link loop, and a folder that holds only JSON graphs. Each says what to index instead,
and none makes a second source holding the same items.

The index is created with the HashingEmbedder; the CLI opens it with the embedder its
manifest names, so no model is loaded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.exceptions import IngestError
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.fixture
def index_dir(tmp_path: Path) -> str:
    path = tmp_path / "index"
    Index.open(path, embedder=HashingEmbedder(), create=True).close()
    return str(path)


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n---\nHow to {name}.\n"


def _sources(index_dir: str) -> dict[str, set[str]]:
    """Source name -> the ids the index holds from it."""
    with Index.open(Path(index_dir)) as index:
        held: dict[str, set[str]] = {}
        for node_id, node in index.snapshot().nodes.items():
            held.setdefault(str(node.attrs.get("source_name")), set()).add(node_id)
        return held


@pytest.fixture
def repo(tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]) -> Path:
    """A small skills repository (two skills, an agent), indexed as source ``repo``."""
    root = tmp_path / "repo"
    write_file(root, "skills/brand-guidelines/SKILL.md", _skill("brand-guidelines"))
    write_file(root, "skills/pdf/SKILL.md", _skill("pdf"))
    write_file(root, "agents/reviewer.md", _skill("reviewer"))
    assert main(["index", str(root), "--index-dir", index_dir]) == 0
    capsys.readouterr()
    return root


def test_one_skill_file_of_an_indexed_repository_names_the_repository(
    repo: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The advice named the skill's own folder, which became a second source holding the
    skill again while the repository's copy went stale; and offered --kind docs."""
    before = _sources(index_dir)
    for rel in ("skills/brand-guidelines/SKILL.md", "agents/reviewer.md"):
        assert main(["index", str(repo / rel), "--index-dir", index_dir]) != 0
        err = capsys.readouterr().err
        assert "source 'repo'" in err and f"(`skill-retriever index {repo.resolve()} --index-dir {index_dir}`)" in err, err
        assert "--kind docs" not in err and "skills/brand-guidelines`" not in err
    assert _sources(index_dir) == before


def test_a_folder_inside_an_indexed_repository_is_refused_not_held_twice(
    repo: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _sources(index_dir)
    assert set(before) == {"repo"}
    inner = repo / "skills" / "brand-guidelines"
    assert main(["index", str(inner), "--index-dir", index_dir]) != 0
    err = capsys.readouterr().err
    assert "lies inside the source 'repo'" in err and "1 item(s) read from it" in err
    assert f"`skill-retriever index {repo.resolve()} --index-dir {index_dir}`" in err and "--source-name NAME" in err
    assert _sources(index_dir) == before  # nothing written
    # The repository indexed again, as the message says, reads the change in its one copy.
    (inner / "SKILL.md").write_text(_skill("brand-guidelines").replace("How to", "Always"), encoding="utf-8")
    assert main(["index", str(repo), "--index-dir", index_dir]) == 0
    assert "0 new, 1 changed, 2 unchanged" in capsys.readouterr().out
    # A name asks for the second copy on purpose: indexed, with the note that says so.
    assert main(["index", str(inner), "--source-name", "bg", "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert "lies inside the source 'repo'" in out and "held twice" in out and "remove-source bg" in out
    assert _sources(index_dir)["bg"] == {"bg/SKILL.md"}


def test_a_folder_holding_an_indexed_source_says_its_items_are_held_twice(
    tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The other way round: the inner folder indexed first, then the repository around it."""
    root = tmp_path / "repo"
    write_file(root, "skills/pdf/SKILL.md", _skill("pdf"))
    write_file(root, "skills/xlsx/SKILL.md", _skill("xlsx"))
    assert main(["index", str(root / "skills" / "pdf"), "--index-dir", index_dir]) == 0
    capsys.readouterr()
    assert main(["index", str(root), "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert "the source 'pdf'" in out and "read 1 of its item(s) again" in out and "remove-source pdf" in out
    # Indexed again, the note stays while both hold it; gone once the inner one is removed.
    assert main(["remove-source", "pdf", "--index-dir", index_dir]) == 0
    capsys.readouterr()
    assert main(["index", str(root), "--index-dir", index_dir]) == 0
    assert "held twice" not in capsys.readouterr().out


def test_a_folder_inside_a_source_that_does_not_read_it_is_a_source_of_its_own(
    repo: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder of documents inside a skills repository: the repository holds nothing of
    it, so nothing would be held twice."""
    write_file(repo, "notes/deploy.md", "# Deploy\n\nShip it.\n")
    assert main(["index", str(repo / "notes"), "--index-dir", index_dir]) == 0
    assert _sources(index_dir)["notes"] == {"notes/deploy.md"}


def test_the_api_refuses_a_nested_folder_too(repo: Path, index_dir: str) -> None:
    with Index.open(Path(index_dir)) as index, pytest.raises(IngestError, match="lies inside the source 'repo'"):
        index_sources(index, [repo / "skills"], calibrate=False)


@pytest.fixture
def runbooks(tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "runbooks"
    write_file(root, "restore.md", "# Restore\n\nRestore the database from last night's dump.\n")
    write_file(root, "deploy.md", "# Deploy\n\nShip the release.\n")
    assert main(["index", str(root), "--kind", "docs", "--index-dir", index_dir]) == 0
    capsys.readouterr()
    return root


def test_an_emptied_document_file_counts_as_gone(
    runbooks: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "no items read; to take out a source emptied on purpose, remove-source NAME",
    and that removed the whole folder's source."""
    (runbooks / "restore.md").write_text("", encoding="utf-8")
    assert main(["index", str(runbooks / "restore.md"), "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert "empty file" in out and "removed 1 item(s) the source no longer has: runbooks/restore.md" in out
    assert _sources(index_dir) == {"runbooks": {"runbooks/deploy.md"}}
    # Again: nothing of it is held now; an error, but never advice to remove the folder's source.
    assert main(["index", str(runbooks / "restore.md"), "--index-dir", index_dir]) == 1
    err = capsys.readouterr().err
    assert "no items read" in err and "remove-source" not in err
    assert _sources(index_dir) == {"runbooks": {"runbooks/deploy.md"}}


def test_an_unreadable_document_file_keeps_its_items(
    runbooks: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (runbooks / "restore.md").write_bytes(b"# Restore\n\nCaf\xe9 au lait.\n")
    assert main(["index", str(runbooks / "restore.md"), "--index-dir", index_dir]) == 1
    out = capsys.readouterr().out
    assert "not UTF-8 text" in out and "save it as UTF-8 and index again" in out
    assert _sources(index_dir) == {"runbooks": {"runbooks/deploy.md", "runbooks/restore.md"}}


def test_a_deleted_document_file_names_the_folder_to_index_again(
    runbooks: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (runbooks / "restore.md").unlink()
    assert main(["index", str(runbooks / "restore.md"), "--index-dir", index_dir]) != 0
    err = capsys.readouterr().err
    assert "does not exist" in err and "1 item(s) read from it in the source 'runbooks'" in err
    assert f"`skill-retriever index {runbooks.resolve()} --index-dir {index_dir}`" in err
    assert main(["index", str(runbooks.resolve()), "--index-dir", index_dir]) == 0  # as told
    assert _sources(index_dir) == {"runbooks": {"runbooks/deploy.md"}}
    # A file the index holds nothing of: only that it is not there.
    assert main(["index", str(runbooks / "never.md"), "--index-dir", index_dir]) != 0
    err = capsys.readouterr().err
    assert "never.md does not exist" in err and "item(s)" not in err


def test_a_link_loop_says_so(tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    loop = tmp_path / "loop.md"
    loop.symlink_to(loop)
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "nowhere.md")
    assert main(["index", str(loop), "--index-dir", index_dir]) != 0
    assert "is a symbolic link loop" in capsys.readouterr().err
    assert main(["index", str(dangling), "--index-dir", index_dir]) != 0
    assert f"is a symbolic link to {tmp_path / 'nowhere.md'}, which does not exist" in capsys.readouterr().err


def test_a_folder_of_json_graphs_says_how_to_index_them(
    tmp_path: Path, index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """It read the folder as skills: "ops: 0 nodes" and a generic error."""
    graph = write_file(tmp_path / "ops", "ops.json", '{"nodes": [{"id": "svc:a", "kind": "service", '
                       '"name": "a", "text": "Service a."}]}')
    assert main(["index", str(tmp_path / "ops"), "--index-dir", index_dir]) == 1
    out = capsys.readouterr().out
    assert "JSON file(s) ops.json" in out and f"`skill-retriever index {graph} --index-dir {index_dir}`" in out
    assert main(["index", str(graph), "--index-dir", index_dir]) == 0  # as told
    assert _sources(index_dir) == {"ops": {"svc:a"}}
