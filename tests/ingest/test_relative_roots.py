"""A source indexed by a relative path stores what the same source indexed by its absolute
path stores: node sources (and problem paths) that name the real file from any working
directory, so that an install copies the real files instead of rebuilding them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SKILL = "---\nname: algorithmic-art\ndescription: Make generative art with p5.js.\n---\nDraw.\n"
LICENSE = "Apache License 2.0 (a folder file the skill ships)\n"


def _repo(base: Path) -> Path:
    folder = base / "broken" / "skills" / "algorithmic-art"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (folder / "LICENSE.txt").write_text(LICENSE, encoding="utf-8")
    (base / "broken" / "agents").mkdir()
    (base / "broken" / "agents" / "bad.md").write_text("---\nname: bad\n---\n", encoding="utf-8")
    return base / "broken"


def test_a_relative_root_stores_what_an_absolute_root_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    relative = ingest_skill_repo(Path("broken"))
    absolute = ingest_skill_repo(repo)
    assert [n.to_dict() for n in relative.nodes] == [n.to_dict() for n in absolute.nodes]
    assert relative.problems == absolute.problems
    assert [p.path for p in relative.problems] == [str(repo / "agents" / "bad.md")]
    (node,) = relative.nodes
    monkeypatch.chdir(tmp_path / "broken" / "skills")  # another working directory
    stored = Path(node.attrs["source_root"]) / node.source  # how an installer reads it
    assert stored.is_file() and stored.samefile(repo / "skills" / "algorithmic-art" / "SKILL.md")


def test_an_index_built_from_a_relative_path_installs_the_real_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    index = Index.open(Path("idxB"), embedder=HashingEmbedder(), create=True)
    try:
        index_sources(index, [Path("broken")], "skills", calibrate=False)
        plan = install(index, ["broken/skills/algorithmic-art/SKILL.md"], Path("p5"))
    finally:
        index.close()
    (component,) = plan.components
    assert "rebuilt" not in component.reason and "not copied" not in component.reason
    installed = tmp_path / "p5" / ".claude" / "skills" / "algorithmic-art"
    assert (installed / "SKILL.md").read_text(encoding="utf-8") == SKILL
    assert (installed / "LICENSE.txt").read_text(encoding="utf-8") == LICENSE


def test_tool_and_passage_sources_are_absolute_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "tools.jsonl").write_text(
        json.dumps({"id": "getWeather", "name": "getWeather", "description": "Weather"}) + "\n",
        encoding="utf-8",
    )
    (tmp_path / "corpus.json").write_text(
        json.dumps([{"idx": 1, "title": "Paris", "text": "Paris is a city."}]), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    (tool,) = ingest_toolret(Path("tools")).nodes
    (passage,) = ingest_passages(Path("corpus.json"), nlp=False).nodes[:1]
    assert tool.source == str(tmp_path / "tools" / "tools.jsonl")
    assert passage.source == str(tmp_path / "corpus.json")
