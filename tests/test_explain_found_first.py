"""A result a search found directly says so first; its graph path follows as "also
reached via"; only an item the walk alone found reads "reached via X".

Found by a walkthrough on 2wikimultihopqa: "When did Lothiar II's mohter die?" showed its
top result, Lothair II (semantic #1, keyword #3, graph #1), as "reached via Teutberga":
the path replaced the channels, so the line read as if the item were found only through
another (`render.explain`, `render.reached_words`). The CLI text, ``--json``, the LangChain
tool (text and artifact) and the LangChain retriever's metadata say it in the same words.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from leland_corpus import LELAND, LELAND_QUERY

from skill_retriever.adapters.langchain import SkillRetriever, make_search_skills_tool
from skill_retriever.cli import main
from skill_retriever.components.view import CallerView
from skill_retriever.config import RetrievalConfig
from skill_retriever.indexing import index_sources
from skill_retriever.render import Shown, explain, reached_words
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

CORPUS, QUERY = LELAND, LELAND_QUERY
FILM, KING = "passage:1", "passage:2"  # King: no word of the query, reached from the film


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("found-first")
    (folder / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    index = Index.open(folder / "ix", embedder=HashingEmbedder(), create=True)
    index_sources(index, [folder], "passages", calibrate=False)
    index.close()
    return folder / "ix"


def _reasons(out: str) -> dict[str, str]:
    """id -> the reason line printed under it (the line after the result's head)."""
    lines = out.splitlines()
    heads = [i for i, line in enumerate(lines) if "[passage]" in line]
    ids = {i: next(line.strip().removeprefix("id: ") for line in lines[i:] if line.strip().startswith("id: "))
           for i in heads}
    return {ids[i]: lines[i + 1].strip() for i in heads}


def test_a_direct_hit_the_walk_also_reached_says_its_channels_first(
    index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["query", QUERY, "--index-dir", str(index_dir), "--route", "ppr", "--json"]) == 0
    results = {r["id"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    film = results[FILM]
    # Both: a search found it directly, and the walk reached it from another item.
    assert {"semantic", "keyword", "graph"} <= set(film["channels"]) and len(film["path"]) > 2, film
    semantic, keyword = film["channels"]["semantic"], film["channels"]["keyword"]
    assert film["reason"].startswith(f"found by semantic #{semantic}, keyword #{keyword}; "), film["reason"]
    assert film["reason"].endswith("; also reached via Leland, North Carolina, which names it"), film["reason"]
    assert main(["query", QUERY, "--index-dir", str(index_dir), "--route", "ppr"]) == 0
    printed = _reasons(capsys.readouterr().out)
    assert printed[FILM] == film["reason"]  # the text and the JSON say one thing
    for item, line in printed.items():  # no direct hit is said to be reached only via another
        direct = set(results[item]["channels"]) - {"graph"}
        assert not (direct and "reached via" in line and "also reached via" not in line), (item, line)


def test_an_item_only_the_walk_found_keeps_reached_via(index_dir: Path) -> None:
    """Without the semantic channel the Stephen King passage (no word of the query) is
    found by the walk alone: "reached via", no "found by"; the film, a keyword hit in the
    same answer, says its keyword rank first."""
    config = RetrievalConfig().override(channels={"semantic": False})
    with Index.open(index_dir) as index:
        response = Retriever(index, config).search(QUERY, route="ppr", k=10)
        view = CallerView.of(index, None)
        by_id = {r.id: r for r in response.results}
        assert set(by_id[KING].channels) == {"graph"} and by_id[KING].path, by_id[KING]
        king = explain(QUERY, Shown(by_id[KING], ()), view).line
        assert king == "reached via Maximum Overdrive, which names it", king
        film = explain(QUERY, Shown(by_id[FILM], ()), view).line
        assert film.startswith(f"found by keyword #{by_id[FILM].channels['keyword']}; "), film
        assert film.endswith("; also reached via Leland, North Carolina, which names it"), film

        # The LangChain retriever's documents carry the same reason; the tool's text and
        # artifact say it in the same words (its "via" line keeps every channel's rank).
        docs = {d.metadata["id"]: d.metadata for d in
                SkillRetriever(index=index, config=config, route="ppr", k=10).invoke(QUERY)}
        assert docs[KING]["reason"] == king and docs[FILM]["reason"] == film
        tool = make_search_skills_tool(index, channels={"semantic": False}, route="ppr", k=10)
        msg = tool.invoke({"name": "search_skills", "args": {"query": QUERY}, "id": "1", "type": "tool_call"})
        artifact = {a["id"]: a for a in msg.artifact}
        assert artifact[KING]["reason"] == king and artifact[FILM]["reason"] == film
        lines = [line.strip() for line in msg.content.splitlines()]
        assert "reached via Maximum Overdrive, which names it" in lines, msg.content
        assert "also reached via Leland, North Carolina, which names it" in lines, msg.content
        assert not any(line.startswith("because:") for line in lines), msg.content


def test_a_private_step_leaves_the_path_out(tmp_path: Path) -> None:
    """A path through an item the caller may not see is left out of the line, not said
    with its id in the name's place (`render.path_steps`)."""
    (tmp_path / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    with Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [tmp_path], "passages", calibrate=False)
        film = next(r for r in Retriever(index).search(QUERY, route="ppr", k=10).results if r.id == FILM)
        first = film.path[0]
        assert "also reached via" in explain(QUERY, Shown(film, ()), CallerView.of(index, ["*"])).line
        index.upsert([replace(index.nodes[first], access=("secops",))])  # the path's first step made private
        line = explain(QUERY, Shown(film, ()), CallerView.of(index, None)).line
        assert "reached via" not in line and first not in line and line.startswith("found by "), line
        assert "also reached via" in explain(QUERY, Shown(film, ()), CallerView.of(index, ["secops"])).line


@pytest.mark.parametrize(("channels", "said"), [
    ({"graph": 2}, "reached via Teutberga"),
    ({"semantic": 1, "keyword": 3, "graph": 1}, "also reached via Teutberga"),
    ({"keyword": 13, "graph": 5}, "also reached via Teutberga"),
    ({"semantic": 1, "graph": 1}, ""),  # the path's only step is the item's own name: nothing added
])  # fmt: skip
def test_reached_words(channels: dict[str, int], said: str) -> None:
    steps = ["Teutberga"] if said else ["Lothair II"]
    assert reached_words(channels, steps, "Lothair II") == said
