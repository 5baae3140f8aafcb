"""Bad input gets a clear error (a SkillRetrieverError that says what to do), never a
crash or a hang: queries, settings, filters, items, frontmatter, JSON graphs, index dirs."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from files import write_file

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import (
    ConfigError,
    DuplicateItemError,
    IndexCorruptError,
    IndexLocationError,
    IndexNotFoundError,
    IndexOpenError,
    InvalidItemError,
    MissingNodeError,
    QueryError,
    SkillRetrieverError,
)
from skill_retriever.filters import Filters
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

# seconds: a guard against a hang or a quadratic pass, not a speed figure: every bad input
# below is refused (or handled) in well under a second; 5 s was near a busy machine's reach
FAST = 30.0


@pytest.fixture(scope="module")
def retriever(labelled_index: Index) -> Retriever:
    return Retriever(labelled_index, RetrievalConfig(rerank=False), reranker=None, cache_size=0)


# -- queries -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("", "empty"),
        ("   \t\n  ", "empty"),
        ("\x00\x01\x1f\x7f", "empty"),
        ("\ud800\udfff", "empty"),  # lone surrogates only
        ("x" * 1_000_000, "over the limit"),
        (" " * 999_990 + "deploy", None),  # a megabyte of padding around a short query is fine
        (b"deploy postgres", "bytes"),
        (None, "must be text, got None"),  # not the graph's 'needs "query"', whose dict search never takes
        (42, "must be text"),
        (["deploy"], "must be text"),
    ],
    ids=["empty", "blank", "control-only", "surrogates-only", "1MB", "padded", "bytes", "None", "int", "list"],
)
def test_bad_queries_get_a_query_error(retriever: Retriever, query: Any, says: str | None) -> None:
    start = time.perf_counter()
    if says is None:
        assert retriever.search(query).results
    else:
        with pytest.raises(QueryError, match=says):
            retriever.search(query)
    assert time.perf_counter() - start < FAST


def test_every_unicode_plane_and_control_character_is_searchable(retriever: Retriever) -> None:
    # One character from each of the 17 planes (plane 1-16 starts, private use, tags),
    # every C0/C1 control, bidi overrides, zero-width, and a lone surrogate among words.
    planes = "".join(chr(p * 0x10000 + 0x41) for p in range(17))
    controls = "".join(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)])
    odd = "\u202e\u200b\ufeff\U000e0041\ud800\udc00"
    for query in (planes, f"deploy {controls} postgres", f"canary {odd} rollback", planes + controls + odd + " kafka"):
        resp = retriever.search(query)
        assert isinstance(resp.results, list)
        assert resp.warnings == []


# -- settings and filters ------------------------------------------------------------------
@pytest.mark.parametrize(
    "overrides",
    [
        {"k": "10"},
        {"k": 0},
        {"k": True},
        {"k": -3},
        {"rrf_k": 1.5},
        {"channels": {"semantic": "yes"}},
        {"channels": ["semantic"]},
        {"channel_weights": {"graph": float("nan")}},
        {"channel_weights": {"nope": 1.0}},
        {"expand_thresholds": ["0.5"]},  # a list is JSON's tuple; its items must be numbers
        {"expand_thresholds": (float("inf"),)},
        {"recent_days": float("inf")},
        {"route": "fastest"},
        {"token_budget": -1},
        {"phase_timeout_s": 0},
        {"phase_timeouts": {"run_ppr": "1s"}},
        {"drop_flagged": "yes"},
        {"no_such_setting": 1},
        {"now": "yesterday"},
    ],
)
def test_wrong_settings_get_a_config_error(retriever: Retriever, overrides: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        retriever.search("deploy postgres", **overrides)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kinds": ["skill", "spaceship"]},
        {"kinds": [1, 2]},
        {"principals": [1]},
        {"principals": 7},
        {"filters": {"since": "last tuesday"}},
        {"filters": {"colour": "red"}},
        {"filters": ["red"]},
        {"filters": {"until": float("nan")}},
        {"filters": {"since": 1e300}},
        {"route": 3},
        {"budget": "lots"},
    ],
)
def test_wrong_filters_get_a_config_error(retriever: Retriever, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        retriever.search("deploy postgres", **kwargs)


def test_one_principal_string_is_one_principal_not_its_characters(retriever: Retriever) -> None:
    # "bdeglnru" holds the letters of red, blue and green: as characters it would see nothing
    # extra, but "red" must mean the label red, and "r"/"e"/"d" must never be principals.
    as_one = retriever.search("deploy postgres canary", principals="red", k=30)
    as_list = retriever.search("deploy postgres canary", principals=["red"], k=30)
    assert as_one.ids == as_list.ids


def test_filters_refuse_bad_values() -> None:
    with pytest.raises(ConfigError, match="kinds"):
        Filters(kinds=["spaceship"])
    with pytest.raises(ConfigError, match="principals"):
        Filters(principals=[1, 2])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="ISO-8601"):
        Filters(since="the day before")  # type: ignore[arg-type]


# -- items -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fields",
    [
        {"id": ""},
        {"id": "   "},
        {"id": "a\nb"},
        {"id": "a\ud800b"},
        {"id": "x" * 513},
        {"id": 5},
        {"kind": "spaceship"},
        {"name": ""},
        {"text": "  "},
        {"text": None},
        {"tags": [1]},
        {"access": [""]},
        {"access": ["team\udc00"]},
        {"created": "the day before"},
        {"created": 1e300},
        {"created": float("nan")},
        {"attrs": [1, 2]},
    ],
)
def test_bad_items_are_refused_with_the_item_named(fields: dict[str, Any]) -> None:
    base: dict[str, Any] = {"id": "ok", "kind": "skill", "name": "n", "text": "t"}
    with pytest.raises(InvalidItemError):
        Node(**{**base, **fields})


def test_surrogates_in_text_are_replaced_not_fatal() -> None:
    node = Node(id="s", kind=NodeKind.SKILL, name="a\ud800", text="b\udfffc", tags=["t\ud801"])
    assert "\ufffd" in node.name and "\ufffd" in node.text and node.tags == ("t\ufffd",)
    node.embedding_text().encode("utf-8")  # encodable now


def test_index_refuses_dangling_self_and_duplicate_items(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(32), create=True)
    try:
        a = Node(id="a", kind="skill", name="a", text="alpha")
        b = Node(id="b", kind="skill", name="b", text="beta")
        with pytest.raises(DuplicateItemError):
            index.upsert([a, a.with_changes(text="again")])
        with pytest.raises(MissingNodeError, match="does not exist"):
            index.upsert([a], [Edge("a", "ghost", EdgeKind.USES)])
        with pytest.raises(InvalidItemError, match="self edge"):
            index.upsert([a], [Edge("a", "a", EdgeKind.USES)])
        assert len(index) == 0  # nothing of a refused batch was written
        index.upsert([a, b], [Edge("a", "b", EdgeKind.USES)])
        with pytest.raises(DuplicateItemError, match="already exists"):
            index.add([a])
        with pytest.raises(MissingNodeError):
            index.delete(["ghost"])
        # ids that contain "|" still make edges that can be found and deleted
        p = Node(id="tool|v1", kind="tool", name="p", text="pipe tool")
        index.upsert([p], [Edge("tool|v1", "a", EdgeKind.DEPENDS_ON)])
        assert "tool|v1|DEPENDS_ON|a" in index.snapshot().edges
        index.delete(["tool|v1"])
        assert "tool|v1|DEPENDS_ON|a" not in index.snapshot().edges
        assert index.status()["vectors"]["nodes"] == len(index) == 2
    finally:
        index.close()


# -- hostile frontmatter and skills folders ------------------------------------------------
ALIAS_BOMB = "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" + "".join(
    f"{chr(99 + i)}: &{chr(99 + i)} [{', '.join(['*' + chr(98 + i)] * 9)}]\n" for i in range(8)
) + "name: bomb\n---\nbody\n"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (ALIAS_BOMB, "aliases"),
        ("---\nname: x\n" + "k: " + "[" * 5000 + "]" * 5000 + "\n---\nbody", "deep"),
        ("---\n" + "description: " + "y" * 70_000 + "\n---\nbody", "KB"),
        ("---\nname: x\nno end", "never closed"),
        ("---\n- a list\n- not a map\n---\nbody", "mapping"),
        ("---\nname: !!python/object/apply:os.system ['echo hi']\n---\nbody", None),
        ("---\n\x00\x01: [\n---\nbody", None),
    ],
    ids=["alias-bomb", "deep-nesting", "over-64KB", "unclosed", "list", "python-tag", "binary"],
)
def test_hostile_frontmatter_fails_fast_or_is_read_safely(text: str, says: str | None) -> None:
    start = time.perf_counter()
    try:
        result = parse_frontmatter(text)
    except FrontmatterError as exc:
        assert says is None or says in str(exc)
    else:
        assert says is None, f"expected a refusal mentioning {says!r}"
        assert all(isinstance(v, (str, int, float, bool, list, dict, type(None))) or hasattr(v, "isoformat") for v in result.fields.values())
    assert time.perf_counter() - start < FAST


def test_hostile_skills_folder_becomes_problems(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    files = {
        "skills/bomb/SKILL.md": ALIAS_BOMB,
        "skills/huge/SKILL.md": "---\nname: huge\ndescription: big\n---\n" + "z" * 10_500_000,
        "skills/types/SKILL.md": "---\nname: [1, 2]\ndescription: {a: b}\nrequires: 7\ntags: {x: 1}\ncreated: 99999-99-99\n---\nbody",
        "skills/binary/SKILL.md": b"\x00\xff\xfe binary",
        "skills/latin1/SKILL.md": "---\nname: caf\xe9\n---\n".encode("latin-1"),
        "skills/empty/SKILL.md": "",
        "skills/ok/SKILL.md": "---\nname: ok\ndescription: fine\nrequires: [ghost]\n---\nDo the ok thing.",
        "agents/python-tag.md": "---\nname: !!python/name:os.system\ndescription: x\n---\nbody",
        "hooks/bad.json": "{not json",
        ".mcp.json": json.dumps({"mcpServers": {"a": 5, "b": {"command": ["not", "a", "string"]}}}),
        "plugins/p/.claude-plugin/plugin.json": "[1, 2",
    }
    for rel, content in files.items():
        write_file(root, rel, content)
    start = time.perf_counter()
    result = ingest_skill_repo(root)
    assert time.perf_counter() - start < FAST
    names = {n.name for n in result.nodes}
    assert "ok" in names
    problems = " | ".join(str(p) for p in result.problems)
    for where in ("bomb", "huge", "binary", "latin1", "hooks/bad.json", "requires unknown component 'ghost'"):
        assert where in problems, where
    ids = [n.id for n in result.nodes]
    assert len(ids) == len(set(ids))


# -- JSON graphs ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "content",
    [
        "",
        "{",
        "[]",
        "null",
        '{"nodes": 5}',
        '{"nodes": [], "edges": {}}',
        "[" * 100_000 + "]" * 100_000,
        b"\xff\xfe\x00garbage",
        json.dumps({"nodes": [{"id": "a", "kind": "skill", "name": "a", "text": "x", "created": 1e308}]}),
        json.dumps({"nodes": [1, None, "x", [], {"id": {"nested": 1}}, {"id": "a"}, {"id": "a", "kind": "skill", "name": "a", "text": "x", "attrs": [1]}]}),
    ],
)
def test_broken_json_graphs_become_problems(tmp_path: Path, content: str | bytes) -> None:
    path = tmp_path / "graph.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    result = ingest_json_graph(path)
    assert result.problems and not result.edges


def test_json_graph_keeps_the_good_items(tmp_path: Path) -> None:
    node = {"kind": "document", "name": "n", "text": "t"}
    data = {
        "nodes": [{"id": "a", **node}, {"id": "b", **node}, {"id": "a", **node}, {"id": "c", **node, "kind": "nope"}],
        "edges": [
            {"source": "a", "target": "b", "kind": "USES"},
            {"source": "a", "target": "b", "kind": "USES"},  # repeated
            {"source": "a", "target": "a", "kind": "USES"},  # self
            {"source": "a", "target": "ghost", "kind": "USES"},  # dangling
            {"source": "a", "target": "c", "kind": "USES"},  # to a rejected node
            {"source": "a", "target": "b", "kind": "LOVES"},  # unknown kind
            {"source": "a", "target": "b", "type": "related_to", "weight": -1},  # bad weight
        ],
    }
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = ingest_json_graph(path)
    assert [n.id for n in result.nodes] == ["a", "b"]
    assert [e.id for e in result.edges] == ["a|USES|b"]
    assert len(result.problems) == 2 + 6


# -- corrupt or half-written index directories ---------------------------------------------
@pytest.fixture(scope="module")
def good_index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("good") / "ix"
    index = Index.open(path, embedder=HashingEmbedder(32), create=True)
    index.upsert([Node(id=f"n{i}", kind="skill", name=f"n{i}", text=f"text {i}") for i in range(5)])
    index.close()
    return path


def _sql(path: Path, statement: str) -> None:
    db = sqlite3.connect(path / "items.sqlite")
    db.execute(statement)
    db.commit()
    db.close()


CORRUPTIONS = {
    "manifest-garbage": lambda p: (p / "index.json").write_text("{", encoding="utf-8"),
    "manifest-foreign": lambda p: (p / "index.json").write_text('{"format": "other"}', encoding="utf-8"),
    "manifest-not-utf8": lambda p: (p / "index.json").write_bytes(b"\xff\xfe"),
    "items-garbage": lambda p: (p / "items.sqlite").write_bytes(b"x" * 5000),
    "items-truncated": lambda p: (p / "items.sqlite").write_bytes((p / "items.sqlite").read_bytes()[:1000]),
    "items-is-a-folder": lambda p: ((p / "items.sqlite").unlink(), (p / "items.sqlite").mkdir()),
    "schema-changed": lambda p: (_sql(p, "DROP TABLE nodes"), _sql(p, "CREATE TABLE nodes (x)")),
    "schema-version": lambda p: _sql(p, "UPDATE meta SET value = '99' WHERE key = 'schema_version'"),
    "items-empty": lambda p: (p / "items.sqlite").write_bytes(b""),
    "items-missing": lambda p: (p / "items.sqlite").unlink(),
    "path-is-a-file": lambda p: (shutil.rmtree(p), p.write_text("x", encoding="utf-8")),
}


@pytest.mark.parametrize("damage", sorted(CORRUPTIONS))
def test_corrupt_index_dir_gets_a_clear_error(good_index_dir: Path, tmp_path: Path, damage: str) -> None:
    path = tmp_path / "ix"
    shutil.copytree(good_index_dir, path)
    CORRUPTIONS[damage](path)
    before = _files(path)
    for writable in (False, True):
        with pytest.raises(IndexOpenError) as info:
            Index.open(path, embedder=HashingEmbedder(32), writable=writable).close()
        # a file where the index was is no index, not a damaged one ("repair" would not help)
        assert isinstance(info.value, IndexNotFoundError if damage == "path-is-a-file" else IndexCorruptError)
        message = str(info.value)
        assert "\n" not in message
        assert any(hint in message for hint in ("skill-retriever index", "skill-retriever repair", "re-index")), message
    assert _files(path) == before  # a damaged store is reported, never "repaired" by deleting


@pytest.mark.parametrize("data", ["{bad", '{"id": "x"}'])
def test_a_damaged_row_is_left_out_and_nothing_deleted(good_index_dir: Path, tmp_path: Path, data: str) -> None:
    """One row whose item cannot be read back (not JSON, or not an item) leaves that item
    out, with a warning (``tests/stores/test_damaged_rows.py``); the rest opens, and the
    row is kept: what one version cannot read, a newer one may."""
    path = tmp_path / "ix"
    shutil.copytree(good_index_dir, path)
    first = Index.open(path, embedder=HashingEmbedder(32))
    held = len(first.snapshot().nodes)
    first.close()
    _sql(path, f"UPDATE nodes SET data = '{data}' WHERE rowid = 1")
    before = _files(path)
    for writable in (False, True):
        index = Index.open(path, embedder=HashingEmbedder(32), writable=writable)
        assert len(index.snapshot().nodes) == held - 1
        index.close()
    with sqlite3.connect(path / "items.sqlite") as db:
        assert db.execute("SELECT data FROM nodes WHERE rowid = 1").fetchone() == (data,)
    assert _files(path)["index.json"] == before["index.json"]


def _files(path: Path) -> dict[str, bytes]:
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file() and not p.name.endswith(("-wal", "-shm"))}


@pytest.mark.parametrize(
    "damage",
    ["vectors-missing", "no-manifest-but-items", "stray-wal", "half-written-manifest-tmp"],
)
def test_recoverable_damage_opens_and_heals(good_index_dir: Path, tmp_path: Path, damage: str) -> None:
    path = tmp_path / "ix"
    shutil.copytree(good_index_dir, path)
    if damage == "vectors-missing":
        _sql(path, "UPDATE nodes SET vector = NULL WHERE rowid <= 2")  # a writer embeds them again
        reader = Index.open(path, embedder=HashingEmbedder(32))
        assert reader.status()["vectors"]["nodes"] == 3  # a reader reports, never writes
        assert Retriever(reader, reranker=None, cache_size=0).search("text 4").results
        reader.close()
    elif damage == "no-manifest-but-items":
        (path / "index.json").unlink()  # a create killed before its manifest: create again
    elif damage == "stray-wal":
        (path / "items.sqlite-wal").write_bytes(b"y" * 9000)
    else:
        (path / ".index.json.x1y2.tmp").write_text('{"form', encoding="utf-8")
    index = Index.open(path, embedder=HashingEmbedder(32), create=True, writable=True)
    try:
        assert len(index) == 5
        assert index.status()["vectors"]["nodes"] == 5
        assert Retriever(index, reranker=None, cache_size=0).search("text 3").results
    finally:
        index.close()


def test_missing_index_and_wrong_embedder_say_what_to_do(good_index_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(IndexNotFoundError, match="skill-retriever index"):
        Index.open(tmp_path / "nothing", embedder=HashingEmbedder(32), create=False)
    with pytest.raises(ConfigError, match="re-index"):
        Index.open(good_index_dir, embedder=HashingEmbedder(64))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(IndexLocationError, match="other files"):
        Index.open(tmp_path / "other", embedder=HashingEmbedder(32), create=True)


def test_every_error_is_a_skill_retriever_error() -> None:
    for exc in (ConfigError, QueryError, IndexCorruptError, InvalidItemError, DuplicateItemError, MissingNodeError):
        assert issubclass(exc, SkillRetrieverError)


# -- bounded memory on huge inputs --------------------------------------------------------
def test_huge_inputs_are_refused_before_they_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from skill_retriever.ingest import json_lines, toolret
    from skill_retriever.ingest.passages import ingest_passages

    monkeypatch.setattr(json_lines, "MAX_LINE_CHARS", 1000)
    (tmp_path / "tools.jsonl").write_text(
        json.dumps({"id": "a", "name": "a", "description": "fine"}) + "\n"
        + json.dumps({"id": "b", "description": "y" * 50_000}) + "\n"
        + json.dumps({"id": "c", "name": "c", "description": "fine"}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    result = toolret.ingest_toolret(tmp_path)
    assert [n.id for n in result.nodes] == ["a", "c"]
    assert any("longer than 1,000 characters" in str(p) for p in result.problems)
    (tmp_path / "corpus.json").write_text(json.dumps([{"idx": 1, "title": "T", "text": "x" * 5000}]), encoding="utf-8")
    refused = ingest_passages(tmp_path / "corpus.json", nlp=False, max_bytes=1000)
    assert not refused.nodes and "over the limit" in str(refused.problems[0])
    graph = tmp_path / "g.json"
    graph.write_text(json.dumps({"nodes": []}) + " " * 5000, encoding="utf-8")
    assert "over the limit" in str(ingest_json_graph(graph, max_bytes=1000).problems[0])
