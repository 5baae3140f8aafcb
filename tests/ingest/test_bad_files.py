"""One bad file never aborts a run: every exception a file can cause is a per-file problem.

Each case puts one bad file beside two good ones; the good ones must be indexed, and
every problem must name the bad file (never a good one).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.ingest.json_graph import ingest_json_graph
from skill_retriever.ingest.passages import ingest_passages
from skill_retriever.ingest.result import IngestResult
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.ingest.toolret import ingest_toolret
from skill_retriever.model import validate_graph

HUGE = "1" * 5000  # over Python's 4,300-digit int <-> str conversion limit


def _good_pair(root: Path) -> None:
    write_file(
        root, "skills/alpha/SKILL.md", "---\nname: alpha\ndescription: First.\n---\nAlpha body.\n"
    )
    write_file(root, "agents/beta.md", "---\nname: beta\ndescription: Second.\n---\nBeta body.\n")


def _json_ok(result: IngestResult) -> None:
    """What the index later writes must stay strict JSON (no NaN, no unprintable int)."""
    validate_graph(result.nodes, result.edges)
    json.dumps([n.to_dict() for n in result.nodes], allow_nan=False)
    json.dumps([e.to_dict() for e in result.edges], allow_nan=False)


FRONTMATTER_HAZARDS = {
    "impossible date": "created: 2026-02-30",
    "impossible time": "updated: 2026-01-01 25:61:00",
    "year zero": "created: 0000-01-01",
    "offset over a day": "updated: 2026-01-01T10:00:00+99:00",
    "huge integer": f"version: {HUGE}",
    "huge integer in a list": f"tags: [ok, {HUGE}]",
    "huge integer in a mapping": f"meta:\n  size: {HUGE}",
    "huge created": f"created: {HUGE}",
    "huge sexagesimal": "n: " + ":".join(["59"] * 2600),
    "tagged int": "n: !!int abc",
    "tagged float": "n: !!float abc",
    "tagged bool": "n: !!bool maybe",
    "tagged timestamp": "n: !!timestamp tomorrow",
    "date in a nested list": "history:\n  - 2026-02-30\n  - 2026-03-01",
    "block nesting 100 deep": "\n".join(f"{' ' * i}k{i}:" for i in range(100)) + " x",
}


@pytest.mark.parametrize("block", FRONTMATTER_HAZARDS.values(), ids=FRONTMATTER_HAZARDS.keys())
def test_frontmatter_hazard_is_a_problem_of_its_file_only(tmp_path: Path, block: str) -> None:
    root = tmp_path / "repo"
    _good_pair(root)
    bad = write_file(
        root, "skills/gamma/SKILL.md", f"---\nname: gamma\ndescription: Bad.\n{block}\n---\nG.\n"
    )
    result = ingest_skill_repo(root)
    names = {n.name for n in result.nodes}
    assert {"alpha", "beta"} <= names
    assert result.problems, "a bad value must be reported, not silently changed"
    assert {p.path for p in result.problems} == {str(bad)}
    _json_ok(result)


def test_an_unforeseen_parser_failure_costs_its_file_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault injection: no known input raises past the readers any more, so a parser bug
    is simulated to hold the per-file boundary to its promise."""
    from skill_retriever.ingest import skill_records

    real = skill_records.markdown_record

    def flaky(text: str, rel: str, *args: object, **kwargs: object) -> object:
        if rel.endswith("gamma/SKILL.md"):
            raise ZeroDivisionError("simulated parser bug")
        return real(text, rel, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(skill_records, "markdown_record", flaky)
    root = tmp_path / "repo"
    _good_pair(root)
    bad = write_file(root, "skills/gamma/SKILL.md", "---\nname: gamma\ndescription: d\n---\nG\n")
    result = ingest_skill_repo(root)
    assert {n.name for n in result.nodes} == {"alpha", "beta"}
    (problem,) = result.problems
    assert problem.path == str(bad)
    assert "ZeroDivisionError" in problem.message and "simulated parser bug" in problem.message


def test_deep_block_nesting_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    block = "\n".join(f"{' ' * i}k{i}:" for i in range(100)) + " x"
    write_file(root, "skills/g/SKILL.md", f"---\nname: g\ndescription: d\n{block}\n---\nb\n")
    (problem,) = ingest_skill_repo(root).problems
    assert problem.message.startswith("frontmatter nested over 64 levels")


def test_impossible_date_keeps_the_component_and_drops_the_date(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_file(root, "skills/g/SKILL.md", "---\nname: g\ndescription: d\ncreated: 2026-02-30\n---\nb\n")
    result = ingest_skill_repo(root)
    (node,) = result.nodes
    assert node.created is None
    ((problem),) = result.problems
    assert "2026-02-30" in problem.message and "'created' is left unset" in problem.message


def test_huge_integer_is_kept_as_text_and_reported(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_file(root, "skills/g/SKILL.md", f"---\nname: g\ndescription: d\nversion: {HUGE}\n---\nb\n")
    result = ingest_skill_repo(root)
    (node,) = result.nodes
    assert node.attrs["frontmatter"]["version"] == HUGE
    (problem,) = result.problems
    assert "5,000-digit" in problem.message and "line 3" in problem.message


@pytest.mark.parametrize(
    ("rel", "document"),
    [
        ("hooks/h.json", '{"description": "d", "command": "x", "timeout": ' + HUGE + "}"),
        ("hooks/h.json", '{"description": "d", "command": "x", "timeout": NaN}'),
        (".mcp.json", '{"mcpServers": {"s": {"command": "x", "timeout": 1e999}}}'),
        ("mcp/s.json", '{"command": "x", "args": [' + HUGE + "]}"),
        ("plugins/p/.claude-plugin/plugin.json", '{"name": "p", "version": -Infinity}'),
    ],
)
def test_json_config_with_unrepresentable_number_is_a_problem(
    tmp_path: Path, rel: str, document: str
) -> None:
    root = tmp_path / "repo"
    _good_pair(root)
    bad = write_file(root, rel, document)
    result = ingest_skill_repo(root)
    assert {"alpha", "beta"} <= {n.name for n in result.nodes}
    assert {p.path for p in result.problems} == {str(bad)}
    assert any("JSON" in p.message for p in result.problems)
    _json_ok(result)


DEEP = "[" * 980 + "]" * 980  # as deep as json parses; deeper than any real config


@pytest.mark.parametrize(
    "rel",
    [
        "plugins/p/.claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        "hooks/h.json",
        "mcp/s.json",
    ],
)
def test_json_config_nested_too_deeply_is_a_problem(tmp_path: Path, rel: str) -> None:
    root = tmp_path / "repo"
    _good_pair(root)
    bad = write_file(
        root, rel, '{"name": "p", "description": "d", "command": "x", "deep": ' + DEEP + "}"
    )
    result = ingest_skill_repo(root)
    # a marketplace that cannot be read holds its plugins' access: nothing below its root is
    # indexed that run (`tests/ingest/test_unreadable_marketplace.py`)
    market = rel.endswith("marketplace.json")
    assert {n.name for n in result.nodes} == set() if market else {"alpha", "beta"} <= {n.name for n in result.nodes}
    assert [p.path for p in result.problems] == ([str(bad), str(root)] if market else [str(bad)])
    assert "nested" in result.problems[0].message
    _json_ok(result)


# -- JSON graphs -------------------------------------------------------------------------------


def _graph(tmp_path: Path, nodes: list[str], edges: list[str] = ()) -> Path:  # type: ignore[assignment]
    path = tmp_path / "g" / "graph.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"nodes": [' + ", ".join(nodes) + '], "edges": [' + ", ".join(edges) + "]}")
    return path


GOOD_NODES = [
    '{"id": "a", "kind": "document", "name": "A", "text": "alpha"}',
    '{"id": "b", "kind": "document", "name": "B", "text": "beta"}',
]


@pytest.mark.parametrize(
    "value", [HUGE, "-" + HUGE, "NaN", "Infinity", "-Infinity", "1e999", HUGE + ".5"]
)
def test_json_graph_node_with_unrepresentable_number_is_a_node_problem(
    tmp_path: Path, value: str
) -> None:
    bad = (
        f'{{"id": "c", "kind": "document", "name": "C", "text": "c", "attrs": {{"n": [{value}]}}}}'
    )
    path = _graph(tmp_path, [*GOOD_NODES, bad], ['{"source": "a", "target": "b", "kind": "USES"}'])
    result = ingest_json_graph(path)
    assert [n.id for n in result.nodes] == ["a", "b"]
    assert len(result.edges) == 1
    (problem,) = result.problems
    assert "nodes[2]" in problem.message and "'c'" in problem.message
    assert "attrs.n[0]" in problem.message
    _json_ok(result)


def test_json_graph_edge_with_huge_weight_is_an_edge_problem(tmp_path: Path) -> None:
    edge = f'{{"source": "a", "target": "b", "kind": "USES", "weight": {HUGE}}}'
    result = ingest_json_graph(_graph(tmp_path, GOOD_NODES, [edge]))
    assert [n.id for n in result.nodes] == ["a", "b"] and result.edges == []
    (problem,) = result.problems
    assert "edges[0]" in problem.message and "weight" in problem.message


def test_json_graph_node_nested_too_deeply_is_a_node_problem(tmp_path: Path) -> None:
    deep = DEEP[780:-780]  # 200 levels: inside what json parses, far over MAX_DEPTH
    bad = f'{{"id": "c", "kind": "document", "name": "C", "text": "c", "attrs": {{"n": {deep}}}}}'
    result = ingest_json_graph(_graph(tmp_path, [*GOOD_NODES, bad]))
    assert [n.id for n in result.nodes] == ["a", "b"]
    (problem,) = result.problems
    assert "nodes[2]" in problem.message and "nested" in problem.message
    _json_ok(result)


def test_json_graph_huge_id_is_a_node_problem(tmp_path: Path) -> None:
    bad = f'{{"id": {HUGE}, "kind": "document", "name": "C", "text": "c"}}'
    result = ingest_json_graph(_graph(tmp_path, [*GOOD_NODES, bad]))
    assert [n.id for n in result.nodes] == ["a", "b"]
    assert len(result.problems) == 1 and "nodes[2]" in result.problems[0].message


# -- tool catalogues and passage corpora --------------------------------------------------------


def test_toolret_line_with_unrepresentable_number_is_a_line_problem(tmp_path: Path) -> None:
    lines = [
        '{"id": "t1", "name": "one", "description": "first"}',
        '{"id": "t2", "name": "two", "description": "second", "score": ' + HUGE + "}",
        '{"id": "t3", "name": "three", "description": "third", "score": NaN}',
        '{"id": "t4", "name": "four", "description": "fourth"}',
        '{"id": "t5", "name": "five", "description": "fifth", "deep": ' + DEEP[400:-400] + "}",
    ]
    (tmp_path / "tools.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = ingest_toolret(tmp_path)
    assert [n.id for n in result.nodes] == ["t1", "t4"]
    assert sorted(p.message.split(":")[0] for p in result.problems) == [
        "line 2",
        "line 3",
        "line 5",
    ]
    _json_ok(result)


def test_passage_corpus_with_unrepresentable_number_is_a_record_problem(tmp_path: Path) -> None:
    records = [
        '{"idx": 1, "title": "Paris", "text": "Paris is a city."}',
        '{"idx": ' + HUGE + ', "title": "Big", "text": "big"}',
        '{"idx": 3, "title": "Lyon", "text": "Lyon is a city.", "score": NaN}',
        '{"idx": 4, "title": "Nice", "text": "Nice is a city."}',
    ]
    path = tmp_path / "corpus.json"
    path.write_text("[" + ",\n".join(records) + "]", encoding="utf-8")
    result = ingest_passages(path, nlp=False)
    assert {n.id for n in result.nodes if n.id.startswith("passage:")} == {
        "passage:1",
        "passage:3",
        "passage:4",
    }
    (problem,) = result.problems
    assert "record 1" in problem.message
    _json_ok(result)
    assert not any(
        isinstance(v, float) and not math.isfinite(v)
        for n in result.nodes
        for v in n.attrs.values()
    )
