"""On a passage corpus the graph route's explanation shows the hop, never the item itself.

Found by a walkthrough on hotpotqa: "Who directed the film that was shot in or around
Leland, North Carolina in 1986" answered "Maximum Overdrive ... reached via Maximum
Overdrive", with the path ``['entity:maximum overdrive', 'passage:30']``: the entity of the
passage's own title was a seed (a fact of the Leland passage names the film), so the
shortest path was that one edge. The hop is the Leland passage (or its sentence) -> the
entity both mention -> the Maximum Overdrive passage (`reached_via.real_paths`); an item
with no such hop says which channels found it (`render.reason`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from leland_corpus import LELAND, LELAND_QUERY, WILMINGTON

from skill_retriever.cli import main
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.passages import normalise_entity
from skill_retriever.model import Node, NodeKind
from skill_retriever.reached_via import hop_text, real_paths
from skill_retriever.state import PathInfo
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

CORPUS, QUERY = [*LELAND, WILMINGTON], LELAND_QUERY
TITLES = {f"passage:{r['idx']}": str(r["title"]) for r in CORPUS}


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("leland")
    (folder / "corpus.json").write_text(json.dumps(CORPUS), encoding="utf-8")
    index = Index.open(folder / "ix", embedder=HashingEmbedder(), create=True)
    index_sources(index, [folder], "passages", calibrate=False)
    assert any(n.kind.value == "fact" for n in index.nodes.values())  # facts seed the walk
    index.close()
    return folder / "ix"


def _query(index_dir: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    assert main(["query", QUERY, "--index-dir", str(index_dir), "--route", "ppr", *flags]) == 0
    return capsys.readouterr().out


def _own(node_id: str, item_id: str) -> bool:
    """Whether ``node_id`` is the item's own title entity or one of its own sentences."""
    idx = item_id.removeprefix("passage:")
    return node_id == f"entity:{normalise_entity(TITLES[item_id])}" or node_id.startswith(f"fact:{idx}:")


def test_the_json_path_is_the_hop_from_the_leland_passage(
    index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = {r["id"]: r for r in json.loads(_query(index_dir, capsys, "--json"))["results"]}
    film = results["passage:1"]
    assert film["path"], film  # the walk reached it: the hop is shown
    nodes = film["path"]
    # Leland (the passage, or the sentence of it that matched) -> the entity both mention -> the film.
    assert nodes[-2:] == ["entity:maximum overdrive", "passage:1"], nodes
    assert nodes[0] == "passage:0" or nodes[0].startswith("fact:0:"), nodes
    for r in results.values():  # no item is reached from its own name
        if r.get("path"):
            assert not _own(r["path"][0], r["id"]), (r["id"], r["path"])


def test_the_printed_reason_names_the_hop_and_never_the_item(
    index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _query(index_dir, capsys)
    lines = out.splitlines()
    reasons = {}
    for i, line in enumerate(lines):
        if line.strip().startswith("id: "):
            title_line = next(lines[j] for j in range(i, -1, -1) if "[passage]" in lines[j])
            reasons[line.strip().removeprefix("id: ")] = (title_line, lines[lines.index(title_line) + 1])
    assert "passage:1" in reasons, out
    assert "reached via Leland, North Carolina, which names it" in reasons["passage:1"][1], out
    for item, (_, reason) in reasons.items():
        via = reason.partition("reached via ")[2]
        assert TITLES[item].casefold() not in via.casefold(), (item, reason)
    # The Leland passage is where the walk starts, no hop: what found it directly is said.
    leland = reasons["passage:0"][1]
    assert "reached via" not in leland and leland.strip().count("found by ") == 1 and "keyword #" in leland, leland


@pytest.mark.parametrize(("names", "item", "said"), [
    (["Maximum Overdrive"], "Maximum Overdrive", ""),  # the title entity alone: no hop
    (["Leland, North Carolina", "Maximum Overdrive"], "Maximum Overdrive",
     "Leland, North Carolina, which names it"),
    (["Pizza Hut", "Pizza Hut", "Italian"], "Pizza in China", "Pizza Hut -> Italian"),  # entity beside its passage
    (["Lilu"], "Lilu (mythology)", ""),  # a title's disambiguation is no other name
    (["North Carolina"], "Chuck Rowland", "North Carolina"),
])  # fmt: skip
def test_hop_text(names: list[str], item: str, said: str) -> None:
    assert hop_text(names, item) == said


def test_a_path_from_the_items_own_name_is_swapped_or_dropped() -> None:
    """`real_paths`: a path that starts at the target's own title entity (or its own fact)
    takes the search's path from the other seeds, is left out when there is none, and
    the search is never asked to start from the target's own name."""
    film = Node("passage:1", NodeKind.PASSAGE, "Maximum Overdrive", "a film")
    leland = Node("passage:0", NodeKind.PASSAGE, "Leland, North Carolina", "a town")
    nodes = {n.id: n for n in [
        film, leland, Node("passage:2", NodeKind.PASSAGE, "Stephen King", "an author"),
        Node("entity:maximum overdrive", NodeKind.ENTITY, "Maximum Overdrive", "Maximum Overdrive"),
        Node("entity:stephen king", NodeKind.ENTITY, "Stephen King", "Stephen King"),
        Node("fact:2:0", NodeKind.FACT, "Stephen King", "Stephen King is an author."),
    ]}  # fmt: skip
    seeds = ["entity:maximum overdrive", "passage:0", "fact:2:0"]
    paths: dict[str, PathInfo] = {
        "passage:1": {"nodes": ["entity:maximum overdrive", "passage:1"], "reliability": 0.3},
        "entity:stephen king": {"nodes": ["entity:maximum overdrive", "passage:1", "entity:stephen king"],
                                "reliability": 0.2},
        "passage:2": {"nodes": ["fact:2:0", "passage:2"], "reliability": 0.2},
    }
    asked: list[tuple[str, list[str], str]] = []

    def search(target: str, starts: list[str], own: str) -> PathInfo | None:
        asked.append((target, starts, own))
        if target == "passage:1":
            return {"nodes": ["passage:0", "entity:maximum overdrive", "passage:1"], "reliability": 0.25}
        return None

    out = real_paths(paths, nodes, seeds, search)
    assert out["passage:1"]["nodes"] == ["passage:0", "entity:maximum overdrive", "passage:1"]
    assert out["entity:stephen king"] == paths["entity:stephen king"]  # not its own name: kept
    assert "passage:2" not in out  # reached only from its own sentence: no hop to show
    assert asked == [("passage:1", ["passage:0", "fact:2:0"], "entity:maximum overdrive"),
                     ("passage:2", ["entity:maximum overdrive", "passage:0"], "fact:2:0")]
