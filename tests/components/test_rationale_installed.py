"""A component the target already holds says where, and is not counted as a conflict
(the brief answer an agent reads used to say "1 conflict(s), see conflicts" beside an
empty conflicts list)."""

from __future__ import annotations

from pathlib import Path

from skill_retriever.components.install import install
from skill_retriever.components.service import ComponentService
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def test_an_installed_component_says_where_and_no_conflict(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "proj"
    assert install(sample_index, ["query-plan-tuning"], target).ok
    service = ComponentService(sample_index, Retriever(sample_index))
    results = service.search("tune a slow postgres query plan", k=3, target=target).results
    hit = next(r for r in results if r.name == "query-plan-tuning")
    where = ".claude/skills/query-plan-tuning/SKILL.md"
    assert hit.rationale.installed == where and hit.rationale.conflicts == ()
    assert "conflict" not in hit.rationale.short() and f"installed at {where}" in hit.rationale.short()
    assert f"Already installed at {where}." in hit.rationale.text
    assert hit.to_dict()["rationale"]["installed"] == where
    others = [r for r in results if r.name != "query-plan-tuning"]
    assert others and all("installed" not in r.to_dict()["rationale"] for r in others)
