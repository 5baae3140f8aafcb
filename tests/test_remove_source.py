"""`skill-retriever remove-source`: a source gone from disk can still leave the index.

Indexing a source again mirrors it, but a path that no longer exists cannot be indexed,
and a source that yields nothing keeps its items (a wrong folder must not wipe them): the
command takes one source's items out by the name `stats` lists, with every relation that
touches them, and leaves every other source as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_refusals import refused
from files import write_file

from skill_retriever.cli import main
from skill_retriever.model import EdgeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


def _skill(name: str, requires: str = "") -> str:
    extra = f"requires: [{requires}]\n" if requires else ""
    return f"---\nname: {name}\ndescription: The {name} skill.\n{extra}---\n\nBody of {name}.\n"


@pytest.fixture
def index_dir(tmp_path: Path) -> str:
    write_file(tmp_path / "team", "skills/base/SKILL.md", _skill("base"))
    write_file(tmp_path / "vendor", "skills/lint/SKILL.md", _skill("lint", requires="fmt"))
    write_file(tmp_path / "vendor", "skills/fmt/SKILL.md", _skill("fmt"))
    ix = str(tmp_path / "ix")
    argv = ["index", str(tmp_path / "team"), str(tmp_path / "vendor"), "--index-dir", ix, "--embedder", "hashing-64"]
    assert main(argv) == 0
    return ix


def _held(ix: str) -> tuple[set[str], set[tuple[str, str, EdgeKind]]]:
    with Index.open(ix, embedder=HashingEmbedder(64)) as index:
        snap = index.snapshot()
        return set(snap.nodes), {(e.source, e.target, e.kind) for e in snap.edges.values()}


def test_a_source_leaves_with_its_relations_and_the_others_stay(
    index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes, edges = _held(index_dir)
    assert ("vendor/skills/lint/SKILL.md", "vendor/skills/fmt/SKILL.md", EdgeKind.DEPENDS_ON) in edges
    capsys.readouterr()
    assert main(["stats", "--index-dir", index_dir]) == 0
    assert "sources: team (1 items, " in capsys.readouterr().out

    assert main(["remove-source", "vendor", "--index-dir", index_dir, "--dry-run"]) == 0
    assert "vendor: would remove 2 item(s) and the 1 relation(s) touching them" in capsys.readouterr().out
    assert _held(index_dir) == (nodes, edges)  # a dry run removes nothing

    assert main(["remove-source", "vendor", "--index-dir", index_dir, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["removed"] == ["vendor/skills/fmt/SKILL.md", "vendor/skills/lint/SKILL.md"]
    assert out["relations_removed"] == 1
    after, after_edges = _held(index_dir)
    assert after == {"team/skills/base/SKILL.md"}
    assert after_edges == set()  # the relation between the two went with them


def test_an_unknown_source_is_refused_with_the_names_there_are(
    index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _held(index_dir)
    capsys.readouterr()
    assert main(["remove-source", "vendr", "--index-dir", index_dir]) == 2
    err = capsys.readouterr().err
    assert "the index holds no source named 'vendr' (its sources: team, vendor)" in err
    assert _held(index_dir) == before


def test_a_folder_indexed_under_a_second_name_says_its_items_are_held_twice(tmp_path: Path) -> None:
    from skill_retriever.indexing import index_sources

    write_file(tmp_path / "repo", "skills/a/SKILL.md", "---\nname: a\ndescription: a skill\n---\nbody\n")
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    try:
        first = index_sources(index, [tmp_path / "repo"], calibrate=False)
        assert not first.sources[0].notes
        again = index_sources(index, [tmp_path / "repo"], source_name="alt", calibrate=False)
        (note,) = [p.message for p in again.sources[0].notes]
        assert note == ("this folder is indexed as source 'repo' too: each of its items is held twice; "
                        f"`skill-retriever remove-source repo --index-dir {tmp_path / 'ix'}` if one name is enough")
        assert len(index) == 2  # a note, not a refusal: two names may be meant
        # under a third name it is held three times, and two removals leave one name (a CLI
        # audit: it said "held twice", with one remove-source)
        third = index_sources(index, [tmp_path / "repo"], source_name="alt2", calibrate=False)
        (note,) = [p.message for p in third.sources[0].notes]
        assert note == ("this folder is indexed as source 'alt', 'repo' too: each of its items is held 3 times; "
                        f"`skill-retriever remove-source alt --index-dir {tmp_path / 'ix'}` and "
                        f"`skill-retriever remove-source repo --index-dir {tmp_path / 'ix'}` if one name is enough")
        assert len(index) == 3
    finally:
        index.close()


def test_stats_says_which_source_is_gone_from_disk(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A source gone from disk: stats says so, naming the way out, and, for one moved, the
    way in from its new folder (indexed there under its name, it keeps its vectors;
    removed first, every text embeds again)."""
    import shutil

    shutil.rmtree(tmp_path / "vendor")
    capsys.readouterr()
    assert main(["stats", "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    assert (f"vendor (2 items, {tmp_path / 'vendor'}, gone from disk: `skill-retriever remove-source vendor "
            f"--index-dir {index_dir}` takes it out, or, moved, `skill-retriever index NEWPATH --source-name vendor "
            f"--index-dir {index_dir}` takes it in from there)") in out
    assert f"team (1 items, {tmp_path / 'team'})" in out
    assert main(["stats", "--index-dir", index_dir, "--json"]) == 0
    named = {s["name"]: s["gone"] for s in json.loads(capsys.readouterr().out)["sources"]["named"]}
    assert named == {"team": False, "vendor": True}


def _with_api_item(ix: str) -> None:
    from skill_retriever.model import Node

    with Index.open(ix, embedder=HashingEmbedder(64)) as index:
        index.upsert(Node.from_dict({"id": "api:1", "kind": "skill", "name": "api-one", "text": "written through the API"}))


@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_source_name_is_refused_before_the_index_is_opened(
    index_dir: str, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `remove-source ""` (an unset variable) matched the items written through the API,
    # which record no source, and removed every one of them.
    _with_api_item(index_dir)
    before = _held(index_dir)
    err, _ = refused(["remove-source", name, "--index-dir", index_dir], capsys)
    assert err.startswith("skill-retriever remove-source: error: argument NAME: is empty; give the source's name"), err
    assert "`skill-retriever stats` lists them" in err
    assert _held(index_dir) == before


def test_the_items_written_through_the_api_are_no_source_of_the_empty_name(index_dir: str) -> None:
    from skill_retriever.exceptions import ConfigError
    from skill_retriever.sources import remove_source

    _with_api_item(index_dir)
    before = _held(index_dir)
    with Index.open(index_dir, embedder=HashingEmbedder(64)) as index:
        for name in ("", " "):
            with pytest.raises(ConfigError, match=r"the source name is empty; give one the index holds \(team, vendor\)"):
                remove_source(index, name, dry_run=True)
            with pytest.raises(ConfigError, match="the source name is empty"):
                remove_source(index, name)
    assert _held(index_dir) == before
