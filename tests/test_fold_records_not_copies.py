"""Two incidents (deploys, services, tools, passages) are never folded as copies.

Found in a walkthrough: on an operations graph, ``query "what broke checkout in the last
24h"`` showed one incident "also at" another (two outages of one file, with different
texts and dates), and ``--kinds deploy`` folded ``deploy:payments-v3.1.0`` into
``deploy:payments-v4.3.1``: the copy test of `components.dedup` (alike names, near
vectors, one body) ran on every kind, so an on-call user never saw one of the incidents.
Only the kinds that catalogues re-host (components, the plugins that bundle them, the
other Markdown files they ship, and documents) have copies.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.components.dedup import COPYABLE_KINDS, is_same_component
from skill_retriever.model import COMPONENT_KINDS, Node, NodeKind

BODY = (
    "Checkout returned HTTP 500 for card payments after the payments deploy; the pool of "
    "database connections ran dry under the retry storm and the circuit breaker stayed open "
    "until the deploy was rolled back by the on-call engineer."
)


def _graph(path: Path) -> None:
    nodes = [
        {"id": "inc:4815", "kind": "incident", "name": "checkout 500s", "text": BODY,
         "created": "2026-12-02T10:00:00Z"},
        {"id": "inc:4817", "kind": "incident", "name": "checkout 500s", "text": BODY,
         "created": "2026-12-04T22:00:00Z"},
        {"id": "deploy:payments-v3.1.0", "kind": "deploy", "name": "payments v3.1.0",
         "text": "Deploy of payments v3.1.0 to production."},
        {"id": "deploy:payments-v3.1.1", "kind": "deploy", "name": "payments v3.1.1",
         "text": "Deploy of payments v3.1.1 to production."},
    ]
    path.write_text(json.dumps({"nodes": nodes, "edges": []}), encoding="utf-8")


def test_records_of_one_name_and_text_are_each_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _graph(tmp_path / "ops.json")
    ix = str(tmp_path / "ix")
    assert run(capsys, "index", tmp_path / "ops.json", "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    code, out, _ = run(capsys, "query", "checkout 500s payments deploy", "--index-dir", ix, "-k", "10", "--json")
    assert code == 0
    data = json.loads(out)
    ids = [r["id"] for r in data["results"]]
    assert {"inc:4815", "inc:4817", "deploy:payments-v3.1.0", "deploy:payments-v3.1.1"} <= set(ids)
    assert all(not r.get("also_at") for r in data["results"])
    assert data["stats"]["fold"]["copies_folded"] == 0
    code, out, _ = run(capsys, "query", "checkout 500s", "--index-dir", ix, "-k", "5")
    assert "also at" not in out


def test_the_copy_test_holds_for_rehosted_kinds_only() -> None:
    assert COMPONENT_KINDS | {NodeKind.PLUGIN, NodeKind.OTHER, NodeKind.DOCUMENT} == COPYABLE_KINDS
    for kind in NodeKind:
        a = Node(id="a/x", kind=kind, name="checkout 500s", text=BODY)
        b = Node(id="b/x", kind=kind, name="checkout 500s", text=BODY)
        assert is_same_component(a, b, cosine=1.0) is (kind in COPYABLE_KINDS), kind


def test_one_plugin_indexed_twice_is_listed_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A walkthrough indexed one marketplace folder under a second source name: the skill
    was folded ("also at") but its plugin came twice, as results 1 and 2."""
    plugin = tmp_path / "market" / "plugins" / "property-kit"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps(
        {"name": "property-kit", "description": "Property based testing with Hypothesis: strategies, "
                                                "shrinking and stateful tests for Python code."}))
    (plugin / "skills" / "property-tests").mkdir(parents=True)
    (plugin / "skills" / "property-tests" / "SKILL.md").write_text(
        "---\nname: property-tests\ndescription: Write property based tests with Hypothesis strategies "
        "and shrinking for Python functions.\n---\nUse given() and strategies.\n")
    ix = str(tmp_path / "ix")
    for name in ("first", "second"):
        assert run(capsys, "index", tmp_path / "market", "--source-name", name, "--index-dir", ix,
                   "--embedder", "hashing-64")[0] == 0
    code, out, _ = run(capsys, "query", "property based testing", "--index-dir", ix, "-k", "5", "--json")
    assert code == 0
    results = json.loads(out)["results"]
    kinds = [r["kind"] for r in results]
    assert kinds.count("plugin") == 1 and kinds.count("skill") == 1, kinds
    assert all(len(r["also_at"]) == 1 for r in results)
