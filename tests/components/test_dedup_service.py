"""Near-duplicates (name + embedding similarity) on the fixture catalogue with the real
model, the service that folds them, and a count on the real catalogues when present."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from component_catalogue import build_index, sid, write_catalogue

from skill_retriever.components.dedup import (
    collapse_ranked,
    duplicate_groups,
    duplicates_of,
    index_duplicate_groups,
    name_similarity,
)
from skill_retriever.components.rationale import matched_terms
from skill_retriever.components.service import ComponentService, component_kinds
from skill_retriever.components.view import CallerView
from skill_retriever.exceptions import ConfigError
from skill_retriever.model import Node
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

pytestmark = pytest.mark.slow
SHARED_SKILLS = Path(__file__).resolve().parents[3] / "shared" / "data" / "skills"


@pytest.fixture(scope="module")
def real_index(
    tmp_path_factory: pytest.TempPathFactory, real_embedder: SentenceTransformerEmbedder
) -> Iterator[Index]:
    root = tmp_path_factory.mktemp("dedup")
    index = build_index(root / "index", write_catalogue(root / "catalogue"), embedder=real_embedder)
    yield index
    index.close()


def test_name_similarity() -> None:
    assert name_similarity("API Style", "api_style") == 1.0
    assert name_similarity("pdf-processing", "pdf-processing-pro") >= 0.85
    assert name_similarity("ruff-lint", "black-style") < 0.5


def test_the_same_skill_in_two_repositories_is_one_group(real_index: Index) -> None:
    acme, mirror = sid("api-style"), sid("api-style", "mirror-skills")
    view = CallerView.of(real_index, ["*"])
    assert index_duplicate_groups(view) == [(acme, mirror)]
    assert duplicates_of(view, acme) == (mirror,)
    assert duplicates_of(view, mirror) == (acme,)
    assert duplicates_of(view, sid("ruff-lint")) == ()
    # the same name alone is not enough: a different text under that name stays apart
    other = real_index.get(mirror).with_changes(
        id="elsewhere/api-style",
        text="Bake sourdough bread: feed the starter, fold the dough, proof overnight.",
        description="Bread baking notes.",
    )
    real_index.upsert([other])
    assert "elsewhere/api-style" not in duplicates_of(CallerView.of(real_index, ["*"]), acme)
    real_index.delete(["elsewhere/api-style"])
    collapsed = collapse_ranked(
        CallerView.of(real_index, ["*"]), [mirror, sid("json-logging"), acme]
    )
    assert collapsed.ids == (mirror, sid("json-logging")) and collapsed.folded[mirror] == (acme,)


def test_groups_need_one_kind_and_identical_text_always_groups() -> None:
    body = "Ship the release: run the tests, tag the version, push the tag, watch the canary. " * 3
    a = Node(id="r1/x", kind="skill", name="deploy", text=body)
    b = Node(id="r2/x", kind="command", name="deploy", text=body)
    c = Node(id="r3/x", kind="skill", name="totally-different", text=body.replace(" ", "  "))
    d = Node(id="r4/x", kind="skill", name="short", text="ship it")
    e = Node(id="r5/x", kind="skill", name="brief", text="ship it")
    vecs = np.eye(5, 8, dtype=np.float32)  # orthogonal: only an identical long body joins them
    assert duplicate_groups([a, b, c, d, e], vecs) == [("r1/x", "r3/x")]
    same = np.ones((5, 8), dtype=np.float32) / np.sqrt(8)  # cosine 1, but the names differ
    assert duplicate_groups([a, b, c, d, e], same) == [("r1/x", "r3/x")]


def test_service_shows_a_duplicate_once_with_its_other_sources(real_index: Index) -> None:
    service = ComponentService(real_index, principals=["*"])
    response = service.search(
        "json http api rules for pagination and errors", ["skill"], k=3, rerank=False
    )
    ids = response.ids
    acme, mirror = sid("api-style"), sid("api-style", "mirror-skills")
    assert len({acme, mirror} & set(ids)) == 1  # shown once ...
    shown = next(r for r in response.results if r.id in (acme, mirror))
    assert shown.rank == 1 and shown.role == "match"
    assert set(shown.also_at) == {acme, mirror} - {shown.id}  # ... with its other source
    assert "Same component also hosted at" in shown.rationale.text
    assert "pagination" in shown.rationale.matched_terms
    assert len([r for r in response.results if r.role == "match"]) == 3  # the copy freed a slot
    assert all(r.kind == "skill" for r in response.results)


def test_service_rationale_and_budget(real_index: Index) -> None:
    service = ComponentService(real_index, principals=["*"])
    full = service.search("scaffold a python web service with json logging", k=1, rerank=False)
    assert [r.role for r in full.results] == ["match", "dependency", "dependency", "dependency"]
    top = full.results[0]
    assert top.rationale.channels and top.rationale.channels[0][1] >= 1
    assert {"scaffold", "python", "web", "service"} <= set(top.rationale.matched_terms)
    assert top.requires == (sid("api-style"), sid("json-logging"))
    dep = next(r for r in full.results if r.id == sid("redact-pii"))
    assert dep.required_by == (sid("web-scaffold"),)
    assert dep.rationale.chain == ("web-scaffold", "json-logging", "redact-pii")
    assert (
        "Required by web-scaffold (via web-scaffold -> json-logging -> redact-pii)"
        in dep.rationale.text
    )
    assert full.total_tokens == sum(r.token_count for r in full.results)
    # a budget that cannot hold the whole unit drops the component with its requirements
    tight = service.search("scaffold a python web service with json logging", k=1, budget=full.total_tokens - 1,
                           rerank=False)  # fmt: skip
    assert tight.results == [] and [d.why for d in tight.dropped] == ["budget"]
    cycle = service.search("release notes changelog", k=1, rerank=False)
    assert any("dependency cycle" in w for w in cycle.warnings) and cycle.cycles
    with pytest.raises(ConfigError):
        component_kinds(["passage"])
    assert matched_terms("the Ruff linter", real_index.get(sid("ruff-lint"))) == ("ruff",)


@pytest.mark.skipif(not SHARED_SKILLS.is_dir(), reason="shared skills data not present")
def test_duplicate_groups_on_the_real_catalogues(
    real_embedder: SentenceTransformerEmbedder,
) -> None:
    """anthropics/skills is re-hosted, renamed at times, by two of the big collections.
    Embedding all six folders takes minutes on two cores, so this embeds anthropics' skills
    and the components elsewhere whose name is like one of theirs. (On the full six-folder
    index: 543 groups, 1,175 components, 496 groups spanning repositories.)"""
    from skill_retriever.components.dedup import name_variants
    from skill_retriever.ingest.skills import ingest_skill_repos
    from skill_retriever.model import COMPONENT_KINDS

    roots = sorted(p for p in SHARED_SKILLS.iterdir() if p.is_dir() and p.name != "queries")
    nodes = [n for n in ingest_skill_repos(roots).nodes if n.kind in COMPONENT_KINDS]
    anchors = [n for n in nodes if n.attrs["corpus"] == "anthropics__skills"]
    names = {v for n in anchors for v in name_variants(n)}

    def like(n: Node) -> bool:  # the length test first: difflib's ratio cannot beat it
        return any(
            2 * min(len(v), len(a)) >= 0.85 * (len(v) + len(a)) and name_similarity(v, a) >= 0.85
            for v in name_variants(n)
            for a in names
        )

    chosen = anchors + [n for n in nodes if n.attrs["corpus"] != "anthropics__skills" and like(n)]
    groups = duplicate_groups(chosen, real_embedder.embed([n.embedding_text() for n in chosen]))
    by_id = {n.id: n for n in chosen}
    ours = [g for g in groups if any(i.startswith("anthropics__skills/") for i in g)]
    print(
        f"\n{len(anchors)} anthropics components, {len(chosen)} embedded, {len(ours)} groups "
        f"with one of them, {len([g for g in ours if len(g) > 2])} hosted three or more times"
    )
    assert len(ours) >= 10
    for g in groups:
        assert len({by_id[i].kind for i in g}) == 1
    assert all(sum(i.startswith("anthropics__skills/") for i in g) == 1 for g in ours)
    web = next(g for g in ours if "anthropics__skills/skills/web-artifacts-builder/SKILL.md" in g)
    renamed = "davila7__claude-code-templates/cli-tool/components/skills/development/artifacts-builder/SKILL.md"
    assert renamed in web  # renamed on the way, found by similar name + embedding


def test_two_items_of_one_file_are_its_parts_never_copies_of_each_other() -> None:
    """Two plugins of one marketplace.json, or the inline hooks of two of its entries, were
    'copies' by the file's own name ('marketplace', a name variant of each): a query showed
    one with the other under 'also at'. One file read by two overlapping sources is a copy."""
    src = "/r/.claude-plugin/marketplace.json"
    alpha = Node(id="r/m.json#alpha#hooks", kind="hook", name="alpha-entry-hooks", text="On Stop, runs: echo a",
                 source=src, attrs={"path": ".claude-plugin/marketplace.json#alpha#hooks"})
    beta = Node(id="r/m.json#beta#hooks", kind="hook", name="beta-entry-hooks", text="On Stop, runs: echo b",
                source=src, attrs={"path": ".claude-plugin/marketplace.json#beta#hooks"})
    again = Node(id="s/m.json#alpha#hooks", kind="hook", name="alpha-entry-hooks", text="On Stop, runs: echo a",
                 source=src, attrs={"path": "r/.claude-plugin/marketplace.json#alpha#hooks"})
    same = np.ones((3, 8), dtype=np.float32) / np.sqrt(8)
    assert duplicate_groups([alpha, beta, again], same) == [("r/m.json#alpha#hooks", "s/m.json#alpha#hooks")]
