"""The Python ``install`` and ``uninstall`` take one string as one id, as the CLI does:
before, ``install(index, "fastapi-service-scaffold", target)`` looked up each letter
("no component 'f' in the index") and ``uninstall`` likewise ("no component 'f'
installed")."""

from __future__ import annotations

from pathlib import Path

from skill_retriever.components.install import install, uninstall
from skill_retriever.stores.index import Index


def test_one_string_is_one_id(sample_index: Index, tmp_path: Path) -> None:
    target = tmp_path / "project"
    dry = install(sample_index, "fastapi-service-scaffold", target, dry_run=True)
    assert dry.ok and not (target / ".claude").exists()
    plan = install(sample_index, "fastapi-service-scaffold", target)
    assert plan.ok and (target / ".claude/skills/fastapi-service-scaffold/SKILL.md").is_file()
    report = uninstall("fastapi-service-scaffold", target)
    assert report.ok and not (target / ".claude/skills/fastapi-service-scaffold").exists()
    # a list still works as before
    assert install(sample_index, ["ruff-format"], target).ok
    assert uninstall(["ruff-format"], target).ok


def test_plan_install_takes_one_string_as_one_id(sample_index: Index, tmp_path: Path) -> None:
    from skill_retriever.components.install.planner import plan_install

    plan = plan_install(sample_index, "fastapi-service-scaffold", tmp_path / "project")
    assert "fastapi-service-scaffold" in set(plan.names.values()) and len(plan.named) == 1
