"""Property: every ingestion source turns any input into an IngestResult (good items plus
per-file problems), never an exception, and what it returns is a valid graph that strict
JSON can carry. And a bad value (an impossible YAML date, a 5,000-digit integer, NaN or
1e999 in JSON) costs exactly its own file or item: one problem, the siblings indexed."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from datetime import time as dtime
from pathlib import Path
from typing import Any

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reliability_support import count, examples

from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.ingest.result import IngestResult
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.model import EdgeKind, NodeKind, validate_graph


@contextmanager
def scratch() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="sr-fuzz-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def check(result: IngestResult) -> None:
    """A valid graph: unique node ids, no self edge, every edge between returned nodes."""
    assert isinstance(result, IngestResult)
    validate_graph(result.nodes, result.edges)
    assert all(e.source != e.target for e in result.edges)
    assert len({e.id for e in result.edges}) == len(result.edges)
    for p in result.problems:
        assert str(p)
    # The index writes items as JSON: nothing may need NaN, Infinity or an unprintable int.
    json.dumps([n.to_dict() for n in result.nodes], allow_nan=False)
    json.dumps([e.to_dict() for e in result.edges], allow_nan=False)


# -- values of every JSON / YAML shape --------------------------------------------------
any_char = st.characters(codec=None, exclude_categories=())
texts = st.one_of(
    st.text(max_size=30),
    st.text(any_char, max_size=20),
    st.sampled_from(["", " ", "skill", "DEPENDS_ON", "uses", "2026-11-01", "2026-13-45T99:00", "null", "*", "&a", "a: b", "- x", "|"]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=12,
)
kinds = st.one_of(st.sampled_from([k.value for k in NodeKind] + ["Skill", "spaceship", ""]), scalars)
edge_kinds = st.one_of(st.sampled_from([k.value for k in EdgeKind] + ["depends_on", "connected_tools", "tool_graph", "loves"]), scalars)
ids = st.one_of(st.sampled_from(["a", "b", "c", "a|USES|b", "x" * 600, " ", "", "a\nb"]), st.text(any_char, min_size=0, max_size=8), st.integers(0, 3))
timestamps = st.one_of(st.none(), st.sampled_from(["2026-11-01", "2026-11-01T12:00:00Z", "yesterday", "9999-99-99"]), st.floats(allow_nan=True, allow_infinity=True), st.integers(-(10**20), 10**20))


def node_dicts() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "id": ids,
            "kind": kinds,
            "name": texts,
            "text": st.one_of(texts, st.text(min_size=1, max_size=200)),
            "description": st.one_of(texts, scalars),
            "tags": st.one_of(st.lists(texts, max_size=3), scalars),
            "access": st.one_of(st.lists(st.sampled_from(["red", "blue", "", " "]), max_size=2), scalars),
            "created": timestamps,
            "updated": timestamps,
            "source": st.one_of(texts, scalars),
            "attrs": st.one_of(st.dictionaries(texts, json_values, max_size=3), json_values),
            "extra": json_values,
        },
    )


def edge_dicts() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "source": ids,
            "target": ids,
            "kind": edge_kinds,
            "type": edge_kinds,
            "weight": st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-3, 3), texts),
            "description": st.one_of(texts, scalars),
        },
    )


# -- JSON graph ----------------------------------------------------------------------------
graph_documents = st.one_of(
    st.fixed_dictionaries(
        {"nodes": st.lists(st.one_of(node_dicts(), json_values), max_size=8)},
        optional={"edges": st.one_of(st.lists(st.one_of(edge_dicts(), json_values), max_size=10), json_values)},
    ).map(json.dumps),
    json_values.map(json.dumps),
    st.text(any_char, max_size=80),
    st.binary(max_size=80),
)


@settings(max_examples=examples(ci=60, full=2200))
@given(document=graph_documents)
def test_json_graph_never_raises(document: str | bytes) -> None:
    count("json_graph")
    with scratch() as root:
        path = root / "graph.json"
        path.write_bytes(document if isinstance(document, bytes) else document.encode("utf-8", "surrogatepass"))
        check(ingest_json_graph(path))


# -- toolret ---------------------------------------------------------------------------
def lines(objects: st.SearchStrategy[Any]) -> st.SearchStrategy[str]:
    line = st.one_of(objects.map(json.dumps), json_values.map(json.dumps), st.text(any_char, max_size=40), st.just(""))
    return st.lists(line, max_size=10).map(lambda ls: "\n".join(l.replace("\n", " ") for l in ls))


tool_dicts = st.fixed_dictionaries(
    {},
    optional={
        "id": ids,
        "name": st.one_of(texts, scalars),
        "description": st.one_of(texts, scalars),
        "parameters": json_values,
        "required": json_values,
        "responses": json_values,
        "required_parameters": json_values,
        "optional_parameters": json_values,
        "output_info": json_values,
        "tool_name": st.one_of(st.sampled_from(["G1", "G2"]), scalars),
        "parent_tool_name": scalars,
        "category": st.one_of(texts, scalars),
        "field": json_values,
    },
)
tool_edges = st.fixed_dictionaries({}, optional={"source": ids, "target": ids, "type": edge_kinds})


@settings(max_examples=examples(ci=50, full=2000))
@given(tools=lines(tool_dicts), edges=st.one_of(st.none(), lines(tool_edges)), raw=st.one_of(st.none(), st.binary(max_size=60)))
def test_toolret_never_raises(tools: str, edges: str | None, raw: bytes | None) -> None:
    count("toolret")
    with scratch() as root:
        data = tools.encode("utf-8", "surrogatepass") + (raw or b"")
        (root / "tools.jsonl").write_bytes(data)
        if edges is not None:
            (root / "edges.jsonl").write_text(edges, encoding="utf-8", errors="surrogatepass")
        check(ingest_toolret(root))


# -- passages ---------------------------------------------------------------------------
passage_dicts = st.fixed_dictionaries(
    {},
    optional={
        "idx": st.one_of(st.integers(-3, 5), st.sampled_from(["1", "x", ""]), scalars),
        "title": st.one_of(st.sampled_from(["Lilu (mythology)", "The Beatles", "Paris", "a", ""]), texts, scalars),
        "text": st.one_of(st.sampled_from(["The Beatles played in Paris. Lilu met Paris.", ""]), texts, scalars),
    },
)
corpora = st.one_of(
    st.lists(st.one_of(passage_dicts, json_values), max_size=10).map(json.dumps),
    json_values.map(json.dumps),
    st.binary(max_size=60),
)


@settings(max_examples=examples(ci=50, full=2000))
@given(corpus=corpora)
def test_passages_never_raise(corpus: str | bytes) -> None:
    count("passages")
    with scratch() as root:
        path = root / "corpus.json"
        path.write_bytes(corpus if isinstance(corpus, bytes) else corpus.encode("utf-8", "surrogatepass"))
        check(ingest_passages(path, nlp=False))


# -- skills folders with generated frontmatter and bodies ---------------------------------
yaml_values = st.recursive(
    st.one_of(scalars, st.dates(), st.datetimes()),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8,
)
field_names = st.sampled_from(
    ["name", "description", "requires", "dependencies", "depends_on", "conflicts", "tools", "allowed-tools",
     "mcp_servers", "tags", "created", "updated", "date_added", "last_updated", "argument-hint", "model"]
)
frontmatter_fields = st.dictionaries(field_names, yaml_values, max_size=7)
raw_blocks = st.one_of(
    st.sampled_from([
        "a: &x [1, 2]\nb: *x",
        "name: [unclosed",
        "description: a: b: c",
        "tools: *",
        "argument-hint: [name] [--flag]",
        "name: !!python/object/apply:os.system ['true']",
        "name: !!binary aGVsbG8=",
        "? [a, b]\n: c",
        "\t- tabbed",
        "{" * 300 + "}" * 300,
        "name: x\nname: y",
    ]),
    st.text(any_char, max_size=60),
)


def render(fields: dict[str, Any] | None, raw: str | None, body: str, style: int) -> str:
    if fields is None and raw is None:
        return body
    if raw is not None:
        block = raw
    else:
        try:
            block = yaml.safe_dump(fields, allow_unicode=True, sort_keys=False)
        except (yaml.YAMLError, ValueError, TypeError):
            block = json.dumps(fields, default=str)
    head = ["---\n", "\ufeff---\n", "---\r\n", "--- \n"][style % 4]
    close = ["---\n", "...\n", "", "---"][style // 4 % 4]
    return f"{head}{block}\n{close}{body}"


skill_files = st.lists(
    st.tuples(
        st.sampled_from(["skills/a/SKILL.md", "skills/b/SKILL.md", "skills/a/nested/SKILL.md", "skills/a/reference.md",
                         "agents/rev.md", "commands/ship.md", "hooks/pre.json", "hooks/pre.md", ".mcp.json", "mcp/x.json",
                         "plugins/p/skills/c/SKILL.md", "plugins/p/.claude-plugin/plugin.json", "notes/other.md", "skill.md"]),
        st.one_of(st.none(), frontmatter_fields),
        st.one_of(st.none(), raw_blocks),
        st.one_of(st.text(max_size=80), st.text(any_char, max_size=30), st.sampled_from(["", "Uses b and rev. Requires a."])),
        st.integers(0, 15),
        st.one_of(st.none(), json_values),
    ),
    max_size=6,
)


@settings(max_examples=examples(ci=50, full=2000))
@given(files=skill_files)
def test_skills_folder_never_raises(files: list[tuple[str, Any, Any, str, int, Any]]) -> None:
    count("skills_folder")
    with scratch() as root:
        repo = root / "repo"
        repo.mkdir()
        for rel, fields, raw, body, style, doc in files:
            path = repo / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if rel.endswith(".json"):
                content = json.dumps(doc, default=str) if doc is not None else render(fields, raw, body, style)
            else:
                content = render(fields, raw, body, style)
            path.write_bytes(content.encode("utf-8", "surrogatepass"))
        check(ingest_skill_repo(repo))


document_fields = st.dictionaries(
    st.sampled_from(["title", "name", "description", "summary", "tags", "access", "date", "created", "updated",
                     "last_updated"]),
    yaml_values,
    max_size=6,
)
document_bodies = st.one_of(
    st.text(max_size=80),
    st.text(any_char, max_size=30),
    st.lists(
        st.sampled_from(["# Title", "Title\n=====", "=====", "[b](b.md)", "[up](../x.md)", "](<", "**", "`a <b.rst>`_",
                         ":doc:`b`", "[r]: b.md", "```", "    code", "> quote", "- item", "| a |", "<div>", "\n\n"]),
        max_size=12,
    ).map(" ".join),
)
document_files = st.lists(
    st.tuples(
        st.sampled_from(["a.md", "b.md", "guide/b.rst", "notes.txt", "x.mdx", "deep/er/c.markdown", "LICENSE.txt"]),
        st.one_of(st.none(), document_fields),
        st.one_of(st.none(), raw_blocks),
        document_bodies,
        st.integers(0, 15),
    ),
    max_size=6,
)


@settings(max_examples=examples(ci=50, full=2000))
@given(files=document_files)
def test_documents_folder_never_raises(files: list[tuple[str, Any, Any, str, int]]) -> None:
    count("documents_folder")
    with scratch() as root:
        folder = root / "docs"
        folder.mkdir()
        for rel, fields, raw, body, style in files:
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(render(fields, raw, body, style).encode("utf-8", "surrogatepass"))
        check(ingest_documents(folder))


@settings(max_examples=examples(ci=80, full=2500))
@given(fields=st.one_of(st.none(), frontmatter_fields), raw=st.one_of(st.none(), raw_blocks), body=st.text(any_char, max_size=40), style=st.integers(0, 15))
@example(fields=None, raw="\ud800", body="", style=0)  # a lone surrogate once escaped as UnicodeEncodeError
def test_frontmatter_parses_or_says_why(fields: Any, raw: Any, body: str, style: int) -> None:
    count("frontmatter")
    try:
        result = parse_frontmatter(render(fields, raw, body, style))
    except FrontmatterError as exc:
        assert str(exc)
        return
    assert isinstance(result.fields, dict) and all(isinstance(k, str) for k in result.fields)
    for value in result.fields.values():
        assert isinstance(value, (str, int, float, bool, list, dict, type(None), date, datetime, bytes))


# -- bad values cost exactly their own file or item ---------------------------------------
def _possible(y: int, m: int, d: int, h: int = 0, mi: int = 0, sec: int = 0) -> bool:
    try:
        datetime.combine(date(y, m, d), dtime(h, mi, sec))
    except ValueError:
        return False
    return True


#: Text YAML reads as a timestamp that no datetime can hold.
impossible_dates = st.one_of(
    st.builds(lambda y, m, d: (y, m, d), st.integers(0, 9999), st.integers(1, 99), st.integers(1, 99))
    .filter(lambda t: not _possible(*t))
    .map(lambda t: f"{t[0]:04d}-{t[1]:02d}-{t[2]:02d}"),
    st.builds(lambda h, mi, sec: (h, mi, sec), st.integers(0, 99), st.integers(0, 99), st.integers(0, 99))
    .filter(lambda t: not _possible(2026, 1, 1, *t))
    .map(lambda t: f"2026-01-01 {t[0]:02d}:{t[1]:02d}:{t[2]:02d}"),
    st.integers(24, 99).map(lambda h: f"2026-01-01T10:00:00+{h:02d}:00"),
)
#: Integers past Python's int <-> str digit limit, in YAML or JSON.
huge_integers = st.builds(
    lambda n, digit, sign: f"{sign}{digit * n}",
    st.integers(4301, 6000),
    st.sampled_from("123456789"),
    st.sampled_from(["", "-"]),
)
#: Years no datetime holds: YAML keeps them as text, a date field cannot use them.
huge_years = st.integers(10_000, 10**12).map(lambda y: f"{y}-01-01")
yaml_hazards = st.one_of(
    impossible_dates.map(lambda v: ("any field", v)),
    huge_integers.map(lambda v: ("any field", v)),
    huge_years.map(lambda v: ("date fields", v)),
)
DATE_FIELDS = ("created", "updated", "date_added", "last_updated")
hazard_places = st.sampled_from([*DATE_FIELDS, "version", "in a list", "in a mapping"])


def _hazard_block(place: str, value: str) -> str:
    if place == "in a list":
        return f"history:\n  - ok\n  - {value}"
    if place == "in a mapping":
        return f"meta:\n  size: {value}"
    return f"{place}: {value}"


@settings(max_examples=examples(ci=40, full=1500))
@given(hazards=st.lists(st.tuples(hazard_places, yaml_hazards), min_size=1, max_size=3))
@example(hazards=[("created", ("any field", "2026-02-30"))])
@example(hazards=[("updated", ("any field", "2026-01-01 25:61:00"))])
@example(hazards=[("created", ("any field", "0000-01-01"))])
@example(hazards=[("version", ("any field", "1" * 5000))])
def test_bad_yaml_value_is_one_problem_of_its_file(hazards: list[tuple[str, tuple[str, str]]]) -> None:
    count("yaml_hazards")
    with scratch() as root:
        repo = root / "repo"
        good = {"skills/good-a/SKILL.md": "good-a", "agents/good-b.md": "good-b"}
        bad: set[str] = set()
        files = dict(good)
        for i, (place, (scope, value)) in enumerate(hazards):
            rel = f"skills/risky-{i}/SKILL.md"
            files[rel] = f"risky-{i}\n{_hazard_block(place, value)}"
            if scope == "any field" or place in DATE_FIELDS:
                bad.add(str(repo / rel))
        for rel, head in files.items():
            name, _, extra = head.partition("\n")
            path = repo / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            block = f"name: {name}\ndescription: Does {name}.\n{extra}".rstrip("\n")
            path.write_text(f"---\n{block}\n---\nBody of {name}.\n", encoding="utf-8")
        result = ingest_skill_repo(repo)
        check(result)
        names = {n.name for n in result.nodes}
        assert set(good.values()) <= names  # the siblings are indexed
        assert {f"risky-{i}" for i in range(len(hazards))} <= names  # only the value is lost
        assert Counter(p.path for p in result.problems) == dict.fromkeys(bad, 1)


json_hazards = st.one_of(
    huge_integers,
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1E400"]),
    st.integers(310, 3000).map(lambda n: "9" * n + ".5"),  # a float too large by digits
)
GOOD_GRAPH_NODES = [
    '{"id": "good-a", "kind": "document", "name": "A", "text": "alpha"}',
    '{"id": "good-b", "kind": "document", "name": "B", "text": "beta"}',
]
NODE_TEMPLATES = [
    '{{"id": "bad-{i}", "kind": "document", "name": "C", "text": "c", "attrs": {{"n": {v}}}}}',
    '{{"id": "bad-{i}", "kind": "document", "name": "C", "text": "c", "score": [1, {{"x": {v}}}]}}',
    '{{"id": "bad-{i}", "kind": "document", "name": "C", "text": "c", "created": {v}}}',
    '{{"id": {v}, "kind": "document", "name": "C", "text": "c"}}',
]


@settings(max_examples=examples(ci=40, full=1500))
@given(
    bad=st.lists(st.tuples(st.integers(0, len(NODE_TEMPLATES) - 1), json_hazards), max_size=3),
    weight=st.one_of(st.none(), json_hazards),
)
def test_bad_json_number_is_one_problem_of_its_item(
    bad: list[tuple[int, str]], weight: str | None
) -> None:
    count("json_hazards")
    items = [NODE_TEMPLATES[t].format(i=i, v=v) for i, (t, v) in enumerate(bad)]
    edges = ['{"source": "good-a", "target": "good-b", "kind": "USES"}']
    if weight is not None:
        edges.append(f'{{"source": "good-b", "target": "good-a", "kind": "USES", "weight": {weight}}}')
    with scratch() as root:
        path = root / "graph.json"
        path.write_text(f'{{"nodes": [{", ".join(GOOD_GRAPH_NODES + items)}], "edges": [{", ".join(edges)}]}}')
        result = ingest_json_graph(path)
        check(result)
        assert [n.id for n in result.nodes] == ["good-a", "good-b"]
        assert len(result.edges) == 1
        labels = Counter(p.message.split(" ", 1)[0] for p in result.problems)
        expected = Counter(f"nodes[{2 + i}]" for i in range(len(bad)))
        expected.update(["edges[1]"] if weight is not None else [])
        assert labels == expected


config_places = st.sampled_from(["hooks/x/h{i}.json", "mcps/x/m{i}.json", ".mcp.json", "plugins/p{i}/.claude-plugin/plugin.json"])


def _config(rel: str, value: str) -> str:
    if rel.startswith("hooks/"):
        return f'{{"description": "d", "hooks": {{"Stop": [{{"hooks": [{{"type": "command", "command": "x", "timeout": {value}}}]}}]}}}}'
    if rel.startswith("plugins/"):
        return f'{{"name": "p", "version": {value}}}'
    return f'{{"mcpServers": {{"s": {{"command": "x", "args": ["a", {value}]}}}}}}'


@settings(max_examples=examples(ci=30, full=1000))
@given(bad=st.lists(st.tuples(config_places, json_hazards), min_size=1, max_size=3))
def test_bad_json_number_in_a_config_is_one_problem_of_its_file(bad: list[tuple[str, str]]) -> None:
    count("config_hazards")
    with scratch() as root:
        repo = root / "repo"
        files = {"skills/good-a/SKILL.md": "---\nname: good-a\ndescription: A.\n---\nBody.\n",
                 "hooks/good.json": '{"description": "Fine.", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "ok"}]}]}}'}
        for i, (place, value) in enumerate(bad):
            files[place.format(i=i)] = _config(place, value)
        for rel, text in files.items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(text, encoding="utf-8")
        result = ingest_skill_repo(repo)
        check(result)
        assert {"good-a", "good"} <= {n.name for n in result.nodes}
        wanted = {str(repo / place.format(i=i)) for i, (place, _) in enumerate(bad)}
        assert Counter(p.path for p in result.problems) == dict.fromkeys(wanted, 1)
