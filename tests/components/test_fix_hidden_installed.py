"""A project can hold a component that a caller may not see: ``secops`` installed a private
skill there. For ``alice``, who may not see it, the install plan said nothing of a
conflict with it (her install went ahead, leaving a conflicting pair), and a requirement
it fills read as one "no source of the index has", which was false advice. The plan now
judges both from what she can read anyway (her component's own frontmatter, the files in
the project), never from the hidden item's index entry, and names the hidden item
nowhere; `check_dependencies` says the same."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_file, write_skill

from skill_retriever.components import ComponentService
from skill_retriever.components.install import install, plan_install
from skill_retriever.components.install.inventory import InstallRecord, RecordEntry
from skill_retriever.components.install.missing import IN_TARGET, NOT_INDEXED, NOT_SHOWN
from skill_retriever.components.install.plan import InstallPlan
from skill_retriever.components.install.unseen import UNSEEN, UNSEEN_NAME
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SECRET = "ZEBRAFISH-MARKER"
HIDDEN = ("private-linter", "private-fmt", "vault-rotation")


def _id(name: str) -> str:
    return f"src/skills/{name}/SKILL.md"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    src = tmp_path / "src"
    # the hidden side declares the conflict
    write_skill(src, "private-linter", f"{SECRET} lint.", access=["secops"], conflicts=["public-linter"])
    write_skill(src, "public-linter", "Semgrep rules.")
    # the public side declares it
    write_skill(src, "private-fmt", f"{SECRET} format.", access=["secops"])
    write_skill(src, "public-fmt", "Format.", conflicts=[{"name": "private-fmt", "reason": "same files"}])
    write_skill(src, "vault-rotation", f"{SECRET} rotation.", access=["secops"])
    write_skill(src, "secret-scan", "Scan for leaks.", requires=["vault-rotation"])
    write_skill(src, "ghost-user", "Needs a thing nobody has.", requires=["no-such-thing"])
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(idx, [src], "skills", calibrate=False)
    yield idx
    idx.close()


@pytest.fixture
def project(index: Index, tmp_path: Path) -> Path:
    """Where secops installed the three private skills."""
    root = tmp_path / "proj"
    root.mkdir()
    done = install(index, list(HIDDEN), root, principals=["secops"])
    assert done.ok and done.applied
    return root


def _said(plan: InstallPlan) -> str:
    return "\n".join(plan.lines()) + json.dumps(plan.to_dict()) + json.dumps(plan.brief())


def _hides_everything(text: str) -> None:
    for name in HIDDEN:
        assert name not in text
    assert SECRET not in text


def test_a_conflict_the_hidden_component_declares_refuses_the_install(index: Index, project: Path) -> None:
    plan = install(index, ["public-linter"], project, principals=["alice"])
    assert not plan.ok and not plan.applied and plan.refused_for_conflicts
    (c,) = plan.conflicts
    assert (c.source, c.target) == (UNSEEN, _id("public-linter"))  # the hidden side declared it
    assert "the installed one's files name public-linter in their conflicts" in c.reason
    assert "install into another project" in c.reason
    assert plan.names[UNSEEN] == UNSEEN_NAME
    assert f"conflict: {UNSEEN_NAME} (not shown) vs public-linter ({_id('public-linter')})" in plan.lines()[-2]
    assert not (project / ".claude/skills/public-linter").exists()
    _hides_everything(_said(plan))
    # allowed, it goes in, the conflict still said
    allowed = install(index, ["public-linter"], project, principals=["alice"], allow_conflicts=True)
    assert allowed.ok and allowed.applied and len(allowed.conflicts) == 1
    assert (project / ".claude/skills/public-linter/SKILL.md").is_file()


def test_a_conflict_the_public_component_declares_refuses_it_too(index: Index, project: Path) -> None:
    plan = plan_install(index, ["public-fmt"], project, principals=["alice"])
    assert not plan.ok
    (c,) = plan.conflicts
    assert (c.source, c.target) == (_id("public-fmt"), UNSEEN)
    assert c.reason.startswith("public-fmt's own conflicts names the installed one;")
    assert c.installed is None  # its path would name it
    _hides_everything(_said(plan))


def test_a_caller_who_sees_it_gets_the_named_conflict_once(index: Index, project: Path) -> None:
    plan = plan_install(index, ["public-linter", "public-fmt"], project, principals=["secops"])
    assert {c.sides for c in plan.conflicts} == {
        (_id("private-linter"), _id("public-linter")),
        (_id("public-fmt"), _id("private-fmt")),
    }


def test_it_is_judged_from_the_project_not_the_hidden_index_entry(index: Index, tmp_path: Path) -> None:
    """A project is the caller's to write: a record naming a guessed hidden id must tell
    nothing, and a component installed by hand, in no source, reads as a hidden one."""
    forged = tmp_path / "forged"
    forged.mkdir()
    record = InstallRecord(forged, {_id("private-linter"): RecordEntry("skill", "renamed")})
    record.save()
    plan = plan_install(index, ["public-linter"], forged, principals=["alice"])
    assert plan.ok and not plan.conflicts  # the hidden edge was never read
    by_hand = tmp_path / "by-hand"
    write_file(by_hand, ".claude/skills/private-fmt/SKILL.md", "---\nname: private-fmt\n---\nmine\n")
    plan = plan_install(index, ["public-fmt"], by_hand, principals=["alice"])
    (c,) = plan.conflicts
    assert (c.source, c.target) == (_id("public-fmt"), UNSEEN)


def _missing(plan: InstallPlan, name: str) -> list[dict[str, object]]:
    (comp,) = [c for c in plan.to_dict()["components"] if c["name"] == name]
    return list(comp.get("missing_requirements") or [])


def test_a_hidden_requirement_installed_in_the_project_is_said_to_be_there(
    index: Index, project: Path
) -> None:
    plan = plan_install(index, ["secret-scan"], project, principals=["alice"])
    assert plan.ok
    (note,) = _missing(plan, "secret-scan")
    assert note["status"] == IN_TARGET and note["id"] == "" and note["name"] == "vault-rotation"
    assert note["note"] == (
        "requires 'vault-rotation', which the index does not show you, but this project has "
        "a component of that name installed: it works as long as that one stays"
    )
    text = _said(plan)
    assert "no source of the index has" not in text and SECRET not in text


def test_elsewhere_it_reads_as_one_not_shown_never_as_one_no_source_has(index: Index, tmp_path: Path) -> None:
    plan = plan_install(index, ["secret-scan", "ghost-user"], tmp_path / "fresh", principals=["alice"])
    (hidden,) = _missing(plan, "secret-scan")
    (ghost,) = _missing(plan, "ghost-user")
    for note in (hidden, ghost):  # alike: telling them apart would tell the hidden one exists
        assert note["status"] == NOT_SHOWN
    assert hidden["note"] == str(ghost["note"]).replace("no-such-thing", "vault-rotation")
    assert hidden["note"] == (
        "requires 'vault-rotation', which the index does not show you (no source has it, or "
        "only others may see it): it may not work until vault-rotation is there; install it "
        "by hand, ask someone who may see it to install it here, or index a source that has it"
    )
    # one who sees everything is told plainly what the index lacks
    plain = plan_install(index, ["ghost-user"], tmp_path / "fresh", principals=["*"])
    (note,) = _missing(plain, "ghost-user")
    assert note["status"] == NOT_INDEXED and "which no source of the index has" in str(note["note"])


@pytest.mark.parametrize("where", ["project", "fresh"])
def test_check_dependencies_agrees_with_the_plan(index: Index, project: Path, tmp_path: Path, where: str) -> None:
    target = project if where == "project" else tmp_path / "fresh"
    target.mkdir(exist_ok=True)
    service = ComponentService(index, principals=["alice"])
    report = service.check_dependencies([_id("secret-scan"), _id("public-linter")], target=target)
    plan = plan_install(index, ["secret-scan"], target, principals=["alice"])
    assert report["missing_requirements"] == {_id("secret-scan"): _missing(plan, "secret-scan")}
    assert report["requires"][_id("secret-scan")] == []  # no id: none the caller may see
    conflicts = report["conflicts"]
    if where == "project":
        (c,) = conflicts
        assert (c["source"], c["target"], c["not_shown"]) == (UNSEEN, _id("public-linter"), UNSEEN_NAME)
        assert c["reason"] == plan_install(index, ["public-linter"], target, principals=["alice"]).conflicts[0].reason
    else:
        assert conflicts == []
    text = json.dumps(report)  # 'vault-rotation' is secret-scan's own text
    assert "private-linter" not in text and SECRET not in text
