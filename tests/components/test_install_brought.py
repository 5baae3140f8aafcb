"""Uninstalling a component takes back what installing it added: the dependencies that
install newly added for it go with it, unless another component still recorded brought
them, needs them, or was asked for them by name; a record of an older version (which
says nothing of this) uninstalls as it did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from component_catalogue import files_under

from skill_retriever.cli import main
from skill_retriever.components.install import install, uninstall
from skill_retriever.stores.index import Index

S = "sample_catalogue"
RECORD = ".claude/.skill-retriever/installed.json"
SCAFFOLD_NEEDS = {"structured-logging", "rest-api-design", "pii-redaction"}


def sid(name: str) -> str:
    return f"{S}/skills/{name}/SKILL.md"


def skills(root: Path) -> set[str]:
    return (
        {p.name for p in (root / ".claude/skills").iterdir()}
        if (root / ".claude/skills").is_dir()
        else set()
    )


def recorded(root: Path) -> set[str]:
    path = root / RECORD
    return set(json.loads(path.read_text())["components"]) if path.is_file() else set()


def test_uninstall_takes_back_the_dependencies_install_added(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "project"
    target.mkdir()
    (target / "README.md").write_text("mine\n")
    before = files_under(target)
    plan = install(sample_index, ["fastapi-service-scaffold"], target)
    assert plan.ok and skills(target) == {"fastapi-service-scaffold", *SCAFFOLD_NEEDS}
    entry = json.loads((target / RECORD).read_text())["components"][sid("fastapi-service-scaffold")]
    assert entry["asked"] is True and set(entry["brought"]) == {sid(n) for n in SCAFFOLD_NEEDS}
    assert main(["uninstall", "fastapi-service-scaffold", "--target", str(target)]) == 0
    out = capsys.readouterr().out
    assert "taken back too, as the install brought them:" in out
    assert "removed .claude/skills/pii-redaction/SKILL.md" in out
    assert files_under(target) == before and not (target / ".claude").exists()
    # a user hook and the skill it requires, in the home folder
    home = tmp_path / "home"
    home.mkdir()
    assert install(sample_index, ["format-on-save"], user=True, home=home).ok
    assert (home / ".claude/skills/ruff-format/SKILL.md").is_file()
    report = uninstall(["format-on-save"], user=True, home=home)
    assert report.ok and report.along == ["ruff-format"]
    assert files_under(home) == {} and list(home.iterdir()) == []


def test_what_was_there_asked_for_or_still_needed_stays(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    # installed (by name) before: the scaffold's install did not add it, so it stays
    install(sample_index, ["structured-logging"], target)  # brings pii-redaction
    install(sample_index, ["fastapi-service-scaffold"], target)
    assert uninstall(["fastapi-service-scaffold"], target).along == ["rest-api-design"]
    assert skills(target) == {"structured-logging", "pii-redaction"}
    assert uninstall(["structured-logging"], target).along == ["pii-redaction"]
    assert skills(target) == set() and recorded(target) == set()
    # asked for by name after the install that brought it: it is the user's choice now
    install(sample_index, ["fastapi-service-scaffold"], target)
    install(sample_index, ["structured-logging"], target)
    report = uninstall(["fastapi-service-scaffold"], target)
    assert report.along == ["rest-api-design"]  # pii-redaction: structured-logging needs it
    assert skills(target) == {"structured-logging", "pii-redaction"}
    assert uninstall(["structured-logging"], target).along == ["pii-redaction"]  # handed over
    assert skills(target) == set()


def test_a_dependency_found_in_place_is_not_left_recorded(sample_index: Index, tmp_path: Path) -> None:
    """The user's own identical copy of a dependency is found "unchanged" and recorded with
    nothing written; it stayed recorded as installed after the component that needed it
    went, and the record folder stayed with it (found in a walkthrough)."""
    target = tmp_path / "project"
    mine = target / ".claude/skills/pii-redaction/SKILL.md"
    mine.parent.mkdir(parents=True)
    mine.write_bytes(Path(sample_index.get(sid("pii-redaction")).source).read_bytes())
    plan = install(sample_index, ["fastapi-service-scaffold"], target)
    assert {c.name: c.status for c in plan.components}["pii-redaction"] == "unchanged"
    assert sid("pii-redaction") in recorded(target)
    assert uninstall(["fastapi-service-scaffold"], target).ok
    assert recorded(target) == set() and not (target / ".claude/.skill-retriever").exists()
    assert files_under(target) == {".claude/skills/pii-redaction/SKILL.md": mine.read_bytes()}


def test_what_a_partial_uninstall_left_is_named_by_the_id_to_pass(
    sample_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dependency the user changed stays recorded after its component went: "run
    uninstall again" with the same id then failed ("no component ... installed"), since
    only the dependency is left. The line names the id that finishes it."""
    target = tmp_path / "project"
    install(sample_index, ["fastapi-service-scaffold"], target)
    (target / ".claude/skills/structured-logging/SKILL.md").write_text("mine now\n")
    assert main(["uninstall", "fastapi-service-scaffold", "--target", str(target)]) == 1
    said = f"run `skill-retriever uninstall {sid('structured-logging')} --target {target}` to finish, or add --force"
    assert said in capsys.readouterr().out
    assert main(["uninstall", sid("structured-logging"), "--target", str(target), "--force"]) == 0
    assert recorded(target) == set() and skills(target) == set()


def test_a_dependency_two_components_need_goes_with_the_last(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    api = ("rest-api-design", "contract-testing", "pytest-fixture-patterns")
    # one install, both asked for: each brought rest-api-design
    install(sample_index, ["fastapi-service-scaffold", "api-reviewer"], target)
    report = uninstall(["fastapi-service-scaffold"], target)
    assert set(report.along) == SCAFFOLD_NEEDS - {"rest-api-design"}
    assert skills(target) == set(api)
    assert set(uninstall(["api-reviewer"], target).along) == set(api)
    assert files_under(target) == {}
    # two installs: the second found rest-api-design there and only needs it; uninstalling
    # the first keeps it for the second, which then takes it back
    install(sample_index, ["fastapi-service-scaffold"], target)
    install(sample_index, ["api-reviewer"], target)
    report = uninstall(["fastapi-service-scaffold"], target)
    assert set(report.along) == SCAFFOLD_NEEDS - {"rest-api-design"}
    assert skills(target) == set(api)
    assert set(uninstall(["api-reviewer"], target).along) == set(api)
    assert files_under(target) == {} and recorded(target) == set()


def test_a_record_of_an_older_version_uninstalls_as_before(
    sample_index: Index, tmp_path: Path
) -> None:
    target = tmp_path / "project"
    target.mkdir()
    install(sample_index, ["fastapi-service-scaffold"], target)
    record = target / RECORD
    data = json.loads(record.read_text())
    for key in ("originals", "folders"):
        data.pop(key, None)
    for entry in data["components"].values():
        for key in ("asked", "requires", "brought"):
            entry.pop(key, None)
    record.write_text(json.dumps(data))
    report = uninstall(["fastapi-service-scaffold"], target)
    assert report.ok and report.along == []
    assert skills(target) == SCAFFOLD_NEEDS
    assert recorded(target) == {sid(n) for n in SCAFFOLD_NEEDS}
    assert uninstall(sorted(SCAFFOLD_NEEDS), target).ok
    assert files_under(target) == {}
