"""A name that answers to byte-identical copies of one component (a skill folder indexed
twice: the repository, and the folder itself under ``--source-name``, as the nested-source
rules allow) installs the first by id, with a note naming the others; copies that would
write anything differently (a supporting file edited, a description reworded) still need
the id. On the fixture catalogue, indexed by the real code path and driven through the
CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from component_catalogue import files_under, sid

from skill_retriever.cli import main
from skill_retriever.components.install import (
    UnknownComponentError,
    install,
    plan_install,
    uninstall,
)
from skill_retriever.indexing import index_sources
from skill_retriever.stores.index import Index


def _add_source(index: Index, folder: Path, name: str) -> None:
    run = index_sources(index, [folder], "skills", source_name=name)
    # the one word is the nested-source note: "each is held twice"
    assert all("held twice" in p.message for s in run.sources for p in s.problems)


def test_byte_identical_copies_install_the_first_with_a_note(
    hashed_index: Index, catalogue: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    acme, _ = catalogue
    _add_source(hashed_index, acme / "skills/redact-pii", "pii")
    index_dir = str(hashed_index.path)
    hashed_index.close()
    target = tmp_path / "proj"
    assert main(["install", "redact-pii", "--target", str(target), "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == (
        f"note: 'redact-pii' names 2 byte-identical copies of one component: installing "
        f"{sid('redact-pii')} (the same files as pii/SKILL.md); give another's id to have that one recorded"
    )
    got = files_under(target)
    assert got[".claude/skills/redact-pii/SKILL.md"] == (acme / "skills/redact-pii/SKILL.md").read_bytes()
    record = json.loads(got[".claude/.skill-retriever/installed.json"])
    assert list(record["components"]) == [sid("redact-pii")]
    assert uninstall(["redact-pii"], target).ids == [sid("redact-pii")]
    assert ".claude/skills/redact-pii/SKILL.md" not in files_under(target)


def test_copies_that_differ_in_a_supporting_file_still_need_the_id(
    hashed_index: Index, catalogue: tuple[Path, Path], tmp_path: Path
) -> None:
    acme, _ = catalogue
    copy = tmp_path / "ws"
    shutil.copytree(acme / "skills/web-scaffold", copy)
    (copy / "templates/app.py").write_text("def create_app():\n    return 'edited'\n", encoding="utf-8")
    _add_source(hashed_index, copy, "ws")  # SKILL.md the same, byte for byte
    with pytest.raises(UnknownComponentError) as refused:
        plan_install(hashed_index, ["web-scaffold"], tmp_path / "proj")
    assert set(refused.value.candidates) == {sid("web-scaffold"), "ws/SKILL.md"}
    assert str(refused.value) == (
        f"2 components are named 'web-scaffold': the skill web-scaffold (id {sid('web-scaffold')}) "
        "and the skill web-scaffold (id ws/SKILL.md), which install would write differently; "
        "give the id of the one you want"
    )
    plan = install(hashed_index, ["ws/SKILL.md"], tmp_path / "proj")
    assert plan.ok and not plan.notes
    assert b"edited" in files_under(tmp_path / "proj")[".claude/skills/web-scaffold/templates/app.py"]


def test_a_reworded_rehost_is_no_copy(hashed_index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The mirror's api-style differs from acme's in its description only (`query` folds
    the two); install still asks which."""
    index_dir = str(hashed_index.path)
    hashed_index.close()
    assert main(["install", "api-style", "--target", str(tmp_path / "p"), "--index-dir", index_dir]) == 2
    err = capsys.readouterr().err
    assert "2 components are named 'api-style'" in err and "which install would write differently" in err
    assert not (tmp_path / "p").exists()
