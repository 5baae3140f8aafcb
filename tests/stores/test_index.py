"""Index: persistence, incremental writes that embed only what changed, atomic batch
validation, damaged directories, and access filters (HashingEmbedder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tiny_graph import PRIVATE_ID, build_tiny_index, tiny_edges, tiny_nodes

from skill_retriever.exceptions import (
    ConfigError,
    DuplicateItemError,
    IndexCorruptError,
    IndexLocationError,
    IndexNotFoundError,
    MissingNodeError,
)
from skill_retriever.filters import Filters
from skill_retriever.model import Edge, Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

QUERIES = [
    "postgres migrations",
    "checkout-api deploy rollback",
    "pytest fixtures ruff",
    "INC-1043 latency",
]


def answers(index: Index) -> dict[str, object]:
    out: dict[str, object] = {"status": index.status()}
    for q in QUERIES:
        v = index.snapshot().embed_query(q)
        out[f"nodes:{q}"] = [
            (h.id, round(h.score, 6)) for h in index.snapshot().search_nodes(v, 20, Filters.everything())
        ]
        out[f"kw:{q}"] = [
            (h.id, round(h.score, 9)) for h in index.snapshot().search_keywords(q, 20, Filters.everything())
        ]
        out[f"edges:{q}"] = [
            (e.id, round(s, 6)) for e, s in index.snapshot().search_edges(v, 20, Filters.everything())
        ]
    return out


def reopen(index: Index, embedder: HashingEmbedder | None = None) -> Index:
    index.close()
    return Index.open(index.path, embedder=embedder or HashingEmbedder(), create=False)


def test_reopen_gives_identical_answers(tiny_index: Index) -> None:
    before = answers(tiny_index)
    assert before["status"]["nodes"] == len(tiny_nodes())  # type: ignore[index]
    assert before["status"]["vectors"] == {"nodes": 11, "edges": 7}  # type: ignore[index]  # MENTIONS not embedded
    embedder = HashingEmbedder()
    again = reopen(tiny_index, embedder)
    try:
        assert answers(again) == before
        assert embedder.texts_embedded == len(
            QUERIES
        )  # only the queries: nothing re-embedded at open
        assert again.nodes == {n.id: n for n in tiny_nodes()}
        assert {e.id for e in again.snapshot().edges.values()} == {e.id for e in tiny_edges()}
    finally:
        again.close()


def test_reupsert_same_items_embeds_nothing(tiny_index: Index) -> None:
    embedder = tiny_index.embedder
    assert isinstance(embedder, HashingEmbedder)
    seen = embedder.texts_embedded
    version = tiny_index.version
    report = tiny_index.upsert(tiny_nodes(), tiny_edges())
    assert report.embedded == 0
    assert report.nodes_unchanged == len(tiny_nodes())
    assert report.nodes_added == report.nodes_updated == report.edges_written == 0
    assert embedder.texts_embedded == seen
    assert tiny_index.version == version


def test_text_change_reembeds_exactly_that_node(tiny_index: Index) -> None:
    embedder = tiny_index.embedder
    assert isinstance(embedder, HashingEmbedder)
    seen = embedder.texts_embedded
    nodes = tiny_nodes()
    nodes[1] = nodes[1].with_changes(text="Alembic now also handles zebra-crossing migrations.")
    report = tiny_index.upsert(nodes, tiny_edges())
    assert (
        report.embedded == 1
        and report.nodes_updated == 1
        and report.nodes_unchanged == len(nodes) - 1
    )
    assert embedder.texts_embedded == seen + 1
    assert [h.id for h in tiny_index.snapshot().search_keywords("zebra-crossing", 5)] == ["skill:alembic"]
    hit = tiny_index.snapshot().search_nodes(embedder.embed([nodes[1].embedding_text()])[0], 1)[0]
    assert hit.id == "skill:alembic" and hit.score == pytest.approx(1.0, abs=1e-5)
    again = reopen(tiny_index)
    try:
        assert again.get("skill:alembic").text == nodes[1].text
        assert isinstance(again.embedder, HashingEmbedder) and again.embedder.texts_embedded == 0
    finally:
        again.close()


def test_metadata_only_change_embeds_nothing(tiny_index: Index) -> None:
    embedder = tiny_index.embedder
    assert isinstance(embedder, HashingEmbedder)
    seen = embedder.texts_embedded
    changed = tiny_index.get("skill:alembic").with_changes(tags=("db", "python", "migrations"))
    report = tiny_index.upsert([changed])
    assert report.embedded == 0 and report.nodes_updated == 1
    assert embedder.texts_embedded == seen
    assert tiny_index.get("skill:alembic").tags == ("db", "python", "migrations")
    assert tiny_index.snapshot().search_nodes(
        tiny_index.snapshot().embed_query("alembic"), 1, Filters(tags={"migrations"})
    )[0].id == ("skill:alembic")
    again = reopen(tiny_index)
    try:
        assert again.get("skill:alembic").tags == ("db", "python", "migrations")
        assert isinstance(again.embedder, HashingEmbedder) and again.embedder.texts_embedded == 0
    finally:
        again.close()


def test_deleting_an_unknown_edge_counts_it_apart(tiny_index: Index) -> None:
    known = next(iter(tiny_edges())).id
    report = tiny_index.delete(edge_ids=[known, "edge:never-there"])
    assert (report.edges_deleted, report.edges_not_found) == (1, 1)
    again = tiny_index.delete(edge_ids=known)  # gone already: nothing deleted, nothing lost
    assert (again.edges_deleted, again.edges_not_found) == (0, 1)
    assert known not in {e.id for e in tiny_index.snapshot().edges.values()}


def test_delete_removes_node_edges_vectors_keywords(tiny_index: Index) -> None:
    target = "service:checkout-api"
    touching = {e.id for e in tiny_edges() if target in (e.source, e.target)}
    assert len(touching) == 3
    report = tiny_index.delete([target])
    assert report.nodes_deleted == 1 and report.edges_deleted == len(touching)
    assert report.edges_not_found == 0

    def check(index: Index) -> None:
        assert target not in index
        with pytest.raises(MissingNodeError, match=target):
            index.get(target)
        snap = index.snapshot()
        assert not touching & set(snap.edges)
        assert target not in snap.graph.index
        assert snap.node_vector(target) is None
        assert index.status()["vectors"]["nodes"] == 10
        kw = index.snapshot().search_keywords("payments orders", 20, Filters.everything())
        assert target not in {h.id for h in kw}
        v = index.snapshot().embed_query("checkout-api service takes payments")
        assert target not in {h.id for h in index.snapshot().search_nodes(v, 20, Filters.everything())}
        assert all(
            target not in (e.source, e.target)
            for e, _ in index.snapshot().search_edges(v, 20, Filters.everything())
        )

    check(tiny_index)
    with pytest.raises(MissingNodeError, match="no such node"):
        tiny_index.delete(["never-existed"])
    again = reopen(tiny_index)
    try:
        check(again)
    finally:
        again.close()


def test_add_existing_id_raises_and_stores_nothing(tiny_index: Index) -> None:
    version = tiny_index.version
    fresh = Node(id="skill:fresh", kind="skill", name="fresh", text="a brand new skill")
    existing = tiny_nodes()[0]
    with pytest.raises(DuplicateItemError, match="skill:postgres-migrations"):
        tiny_index.add([fresh, existing])
    assert "skill:fresh" not in tiny_index
    assert tiny_index.version == version
    assert tiny_index.status()["vectors"]["nodes"] == len(tiny_nodes())
    assert tiny_index.snapshot().search_keywords("brand new", 5, Filters.everything()) == []


def test_edge_to_missing_node_stores_nothing_of_the_batch(tiny_index: Index) -> None:
    embedder = tiny_index.embedder
    assert isinstance(embedder, HashingEmbedder)
    seen = embedder.texts_embedded
    fresh = Node(id="skill:fresh", kind="skill", name="fresh", text="a brand new skill")
    with pytest.raises(MissingNodeError) as err:
        tiny_index.upsert([fresh], [Edge("skill:fresh", "skill:ghost", "DEPENDS_ON")])
    assert "'skill:ghost'" in str(err.value)
    assert "skill:fresh" not in tiny_index
    assert embedder.texts_embedded == seen
    assert tiny_index.status()["vectors"]["nodes"] == len(tiny_nodes())
    again = reopen(tiny_index)
    try:
        assert "skill:fresh" not in again and len(again) == len(tiny_nodes())
    finally:
        again.close()


class TestDamagedDirectories:
    def test_garbage_manifest(self, tmp_path: Path) -> None:
        d = tmp_path / "ix"
        d.mkdir()
        (d / "index.json").write_text("{not json", encoding="utf-8")
        with pytest.raises(
            IndexCorruptError, match=r"index.json is unreadable.*delete it and run .skill-retriever index <sources> --index-dir \S+. again"
        ):
            Index.open(d, embedder=HashingEmbedder())

    def test_foreign_manifest(self, tmp_path: Path) -> None:
        d = tmp_path / "ix"
        d.mkdir()
        (d / "index.json").write_text(json.dumps({"format": "something-else"}), encoding="utf-8")
        with pytest.raises(IndexCorruptError, match="not a skill-retriever index manifest"):
            Index.open(d, embedder=HashingEmbedder())

    def test_garbage_database(self, tmp_path: Path) -> None:
        index = build_tiny_index(tmp_path / "ix")
        index.close()
        for extra in ("items.sqlite-wal", "items.sqlite-shm"):
            (tmp_path / "ix" / extra).unlink(missing_ok=True)
        (tmp_path / "ix" / "items.sqlite").write_bytes(b"\x00garbage, not sqlite\xff" * 200)
        with pytest.raises(
            IndexCorruptError, match=r"items.sqlite is not a readable index database"
        ):
            Index.open(tmp_path / "ix", embedder=HashingEmbedder())

    def test_file_where_the_directory_should_be(self, tmp_path: Path) -> None:
        f = tmp_path / "ix"
        f.write_text("I am a file", encoding="utf-8")
        with pytest.raises(IndexLocationError, match="is a file, not an index directory") as err:
            Index.open(f, embedder=HashingEmbedder(), create=True)
        assert not isinstance(err.value, IndexCorruptError)  # nothing is damaged: no repair, no rebuild
        # Opening to read: not advice to build an index at a file's path.
        with pytest.raises(IndexNotFoundError, match="is a file, not an index directory; point at an index directory, or build"):
            Index.open(f, embedder=HashingEmbedder())
        assert f.read_text(encoding="utf-8") == "I am a file"

    def test_missing_directory_without_create(self, tmp_path: Path) -> None:
        with pytest.raises(
            IndexNotFoundError, match=r"no index at .*build one with `skill-retriever index"
        ):
            Index.open(tmp_path / "nope", embedder=HashingEmbedder(), create=False)
        assert not (tmp_path / "nope").exists()

    def test_directory_with_other_files(self, tmp_path: Path) -> None:
        d = tmp_path / "ix"
        d.mkdir()
        (d / "notes.txt").write_text("mine", encoding="utf-8")
        with pytest.raises(IndexLocationError, match="holds other files; choose an empty or new directory") as err:
            Index.open(d, embedder=HashingEmbedder(), create=True)
        assert not isinstance(err.value, IndexCorruptError)
        assert (d / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_other_embedder_is_a_config_error(tiny_index: Index) -> None:
    tiny_index.close()
    with pytest.raises(ConfigError, match=r"built with embedder 'hashing-64', not 'hashing-32'"):
        Index.open(tiny_index.path, embedder=HashingEmbedder(dim=32))


@pytest.mark.parametrize(
    ("filters", "visible"),
    [
        (None, False),
        (Filters(), False),
        (Filters(principals={"team-b"}), False),
        (Filters(principals={"team-a"}), True),
        (Filters(principals={"team-b", "team-a"}), True),
        (Filters(principals={"*"}), True),
        (Filters.everything(), True),
    ],
)
def test_access_filters(shared_tiny_index: Index, filters: Filters | None, visible: bool) -> None:
    index = shared_tiny_index
    query = "checkout-api runbook failover postgres replica promotion"
    v = index.snapshot().embed_query(query)
    node_ids = {h.id for h in index.snapshot().search_nodes(v, 50, filters)}
    kw_ids = {h.id for h in index.snapshot().search_keywords(query, 50, filters)}
    edge_ends = {end for e, _ in index.snapshot().search_edges(v, 50, filters) for end in (e.source, e.target)}
    assert (PRIVATE_ID in node_ids) is visible
    assert (PRIVATE_ID in kw_ids) is visible
    assert PRIVATE_ID not in edge_ends  # its edges are MENTIONS: not embedded at all
    # everything public is still there for everyone
    assert len(node_ids) == len(tiny_nodes()) - (0 if visible else 1)
    assert "service:checkout-api" in kw_ids


def test_metadata_only_access_change_reaches_the_vector_filter(tiny_index: Index) -> None:
    """A metadata-only upsert (access labels) changes what the vector search admits,
    without re-embedding."""
    embedder = tiny_index.embedder
    assert isinstance(embedder, HashingEmbedder)
    seen = embedder.texts_embedded
    v = tiny_index.snapshot().embed_query("alembic revision scripts")
    assert "skill:alembic" in {h.id for h in tiny_index.snapshot().search_nodes(v, 20, Filters())}
    tiny_index.upsert([tiny_index.get("skill:alembic").with_changes(access=("team-b",))])
    assert embedder.texts_embedded == seen + 1  # only the query above
    assert "skill:alembic" not in {h.id for h in tiny_index.snapshot().search_nodes(v, 20, Filters())}
    assert "skill:alembic" not in {
        h.id for h in tiny_index.snapshot().search_nodes(v, 20, Filters(kinds={"skill"}))
    }
    assert "skill:alembic" in {
        h.id for h in tiny_index.snapshot().search_nodes(v, 20, Filters(principals={"team-b"}))
    }
    # and back to public
    tiny_index.upsert([tiny_index.get("skill:alembic").with_changes(access=())])
    assert "skill:alembic" in {
        h.id for h in tiny_index.snapshot().search_nodes(v, 20, Filters(principals={"team-c"}))
    }
    assert PRIVATE_ID not in {
        h.id for h in tiny_index.snapshot().search_nodes(v, 20, Filters(principals={"team-c"}))
    }


def test_rename_reembeds_the_edges_that_name_the_node(tiny_index: Index) -> None:
    """Edges are embedded as "<source name> <verb> <target name>": renaming a node must
    refresh its edges' sentences (and only those), or seed retrieval matches old names."""
    embedder = tiny_index.embedder
    assert isinstance(embedder, HashingEmbedder)
    seen = embedder.texts_embedded
    touching = [
        e
        for e in tiny_index.snapshot().edges_of("skill:alembic")
        if e.kind in tiny_index.embedded_edge_kinds
    ]
    assert [e.id for e in touching] == ["skill:postgres-migrations|DEPENDS_ON|skill:alembic"]
    report = tiny_index.upsert(
        [tiny_index.get("skill:alembic").with_changes(name="zebra-migrator")]
    )
    assert report.embedded == 1 + len(touching)
    assert embedder.texts_embedded == seen + 1 + len(touching)
    edge = touching[0]
    sentence = edge.embedding_text("postgres-migrations", "zebra-migrator")
    hits = tiny_index.snapshot().search_edges(embedder.embed([sentence])[0], 1, Filters.everything())
    assert hits[0][0].id == edge.id and hits[0][1] == pytest.approx(1.0, abs=1e-5)
