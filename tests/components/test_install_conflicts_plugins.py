"""Issue 15: an install refuses a set holding a CONFLICTS_WITH pair (within the set, or
against what the target already has) unless conflicts are allowed, naming both sides and
the reason; a plugin installs its components and what they require. On the bundled
sample catalogue, through Python and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.components.install import InstallError, install, plan_install
from skill_retriever.stores.index import Index

S = "sample_catalogue"
CANARY = f"{S}/plugins/release-train/skills/canary-rollout/SKILL.md"
BLUE_GREEN = f"{S}/plugins/release-train/skills/blue-green-deploy/SKILL.md"
RUFF = f"{S}/skills/ruff-format/SKILL.md"
BLACK = f"{S}/skills/black-formatting/SKILL.md"


def files_under(root: Path) -> set[str]:
    return (
        {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
        if root.exists()
        else set()
    )


def test_a_conflict_inside_the_set_is_refused_and_nothing_written(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    for dry_run in (True, False):
        plan = install(
            sample_index, ["canary-rollout", "blue-green-deploy"], target, dry_run=dry_run
        )
        assert plan.refused_for_conflicts and not plan.ok and not plan.applied
        (c,) = plan.conflicts
        assert set(c.sides) == {CANARY, BLUE_GREEN} and "traffic split" in c.reason
        text = "\n".join(plan.lines())
        assert "conflict: canary-rollout" in text and "blue-green-deploy" in text
        assert "traffic split" in text and "--allow-conflicts" in text
        d = plan.to_dict()
        assert d["ok"] is False and d["conflicts"][0]["source_name"] == "canary-rollout"
        # the data says it was refused, and the way on, as the lines' header and last line do
        # ("refused" was null: an agent saw each component "install" and no refusal)
        assert d["refused"] == (
            "the set holds 1 conflict(s); drop one side of each, or allow conflicts "
            "(--allow-conflicts, allow_conflicts=true)"
        )
    assert not target.exists()  # refused: nothing written, not even the folder
    allowed = install(
        sample_index, ["canary-rollout", "blue-green-deploy"], target, allow_conflicts=True
    )
    assert allowed.applied and allowed.ok and len(allowed.conflicts) == 1
    assert {
        ".claude/skills/canary-rollout/SKILL.md",
        ".claude/skills/blue-green-deploy/SKILL.md",
    } <= files_under(target)
    assert "conflict: canary-rollout" in "\n".join(allowed.lines())  # reported all the same


def test_a_conflict_with_what_the_target_holds_is_refused(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    assert install(sample_index, ["black-formatting"], target).ok
    before = files_under(target)
    plan = install(sample_index, ["ruff-format"], target)
    assert plan.refused_for_conflicts and files_under(target) == before
    (c,) = plan.conflicts
    assert c.installed_id == BLACK and c.installed == ".claude/skills/black-formatting/SKILL.md"
    assert "installed at .claude/skills/black-formatting/SKILL.md" in "\n".join(plan.lines())


@pytest.mark.parametrize(("there", "asked"), [
    ("black-formatting", ["ruff-format"]),
    ("ruff-format", ["black-formatting"]),
    ("black-formatting", ["ruff-format", "black-formatting"]),  # both in the set, one installed
])
def test_the_conflict_line_says_which_side_is_installed_and_where(
    sample_index: Index, tmp_path: Path, there: str, asked: list[str]
) -> None:
    target = tmp_path / "project"
    assert install(sample_index, [there], target).ok
    plan = plan_install(sample_index, asked, target)
    (c,) = plan.conflicts
    node = RUFF if there == "ruff-format" else BLACK
    where = f".claude/skills/{there}/SKILL.md"
    assert (c.installed_id, c.installed) == (node, where)
    (line,) = plan.conflict_lines()
    assert f"{there} ({node}) (installed at {where})" in line and line.count("installed at") == 1


def test_a_plugin_installs_its_components_and_their_requirements(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    plan = install(sample_index, ["security-kit"], target)
    assert plan.ok and plan.applied and not plan.conflicts
    members = plan.plugins[f"{S}/plugins/security-kit"]
    assert len(members) == 4 and {c.id for c in plan.components} >= set(members)
    got = files_under(target)
    assert {".claude/agents/security-reviewer.md", ".claude/commands/security-kit/audit-deps.md",
            ".claude/skills/secret-scanning/SKILL.md", ".claude/skills/dependency-audit/SKILL.md"} <= got  # fmt: skip
    assert "plugin security-kit" in "\n".join(plan.lines())
    # release-train holds canary-rollout and blue-green-deploy, which conflict
    train = plan_install(sample_index, [f"{S}/plugins/release-train"], tmp_path / "other")
    assert train.refused_for_conflicts
    required = {c.name for c in train.components if c.required_by}
    assert "slo-alerting" in required  # canary-rollout requires it
    with pytest.raises(InstallError, match="2 components are named|no component"):
        plan_install(sample_index, ["no-such-plugin"], tmp_path / "x")


def test_install_command_exit_codes_for_conflicts(
    sample_index: Index,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    index_dir = str(sample_index.path)
    sample_index.close()  # the command opens it itself (the manifest names its embedder)
    target = tmp_path / "project"
    argv = [
        "install",
        "ruff-format",
        "black-formatting",
        "--target",
        str(target),
        "--index-dir",
        index_dir,
    ]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert (
        "conflict: ruff-format" in out
        and "black-formatting" in out
        and "Both rewrite Python files" in out
    )
    assert not target.exists()
    assert main([*argv, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["conflicts"][0]["reason"].startswith("Both rewrite")
    assert main([*argv, "--allow-conflicts"]) == 0
    assert (target / ".claude/skills/ruff-format/SKILL.md").is_file()
    with pytest.raises(SystemExit) as stopped:  # argparse: --target and --user exclude each other
        main(
            ["install", "ruff-format", "--target", str(target), "--user", "--index-dir", index_dir]
        )
    assert stopped.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
