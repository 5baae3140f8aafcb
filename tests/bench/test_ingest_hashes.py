"""`python -m skill_retriever.bench.ingest_hashes`: the before/after check of what ingest
stores (it was a scratch script each time, lost with its figures). A real skills folder,
read by the real ingest; the test changes one skill and the command must name it."""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_skill

from skill_retriever.bench import ingest_hashes


def _catalogue(root: Path, deploy_body: str) -> Path:
    write_skill(root, "deploy", deploy_body, tags=["ops"])
    write_skill(root, "lint", "Run the linters before a commit.")
    return root


def test_same_folder_same_lines_and_one_changed_skill_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _catalogue(tmp_path / "team", "Ship the service with the blue-green script.")
    first, second = tmp_path / "first.tsv", tmp_path / "second.tsv"
    ingest_hashes.cli([str(source), "--kind", "skills", "--out", str(first)])
    ingest_hashes.cli([str(source), "--out", str(second), "--compare", str(first)])  # identical: no exit 1
    assert first.read_text() == second.read_text()
    ids = [line.split("\t")[0] for line in first.read_text().splitlines()]
    assert ids == ["team/skills/deploy/SKILL.md", "team/skills/lint/SKILL.md"]
    assert "identical to" in capsys.readouterr().err

    _catalogue(source, "Ship the service with the canary script.")
    with pytest.raises(SystemExit) as done:
        ingest_hashes.cli([str(source), "--out", str(tmp_path / "third.tsv"), "--compare", str(first)])
    assert done.value.code == 1
    err = capsys.readouterr().err
    assert "changed: team/skills/deploy/SKILL.md" in err and "added 0, removed 0, changed 1" in err
    assert "team/skills/lint" not in err


def test_the_same_files_elsewhere_give_the_same_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An item's stored ``source`` is its file's absolute path: the hash reads it from the
    folder's name on, so a copy of the data (another clone, another machine) or another
    working folder gives the digest a README quotes (before, every hash changed)."""
    here = _catalogue(tmp_path / "a" / "team", "Ship the service with the blue-green script.")
    there = _catalogue(tmp_path / "b" / "deeper" / "team", "Ship the service with the blue-green script.")
    monkeypatch.chdir(tmp_path / "a")
    near, _ = ingest_hashes.main([Path("team")])
    monkeypatch.chdir(tmp_path / "b")
    far, _ = ingest_hashes.main([Path("deeper/../deeper/team")])
    assert near == far and len(near) == 2
    assert ingest_hashes.digest(near) == ingest_hashes.digest(ingest_hashes.main([here])[0])
    assert ingest_hashes.digest(far) == ingest_hashes.digest(ingest_hashes.main([there])[0])


def test_the_same_files_through_a_symlinked_folder_give_the_same_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone whose ``../shared`` is a symlink (``/tmp/shared -> /work/shared``): ingest
    keeps ``source`` as given but resolves ``attrs.source_root``, which stayed absolute in
    the hash, so every item's hash differed from the README's (seen: the skills digest
    50bbd41e... from the repo root against cf67d0b1... from ``/tmp``)."""
    real = _catalogue(tmp_path / "work" / "shared" / "team", "Ship the service with the blue-green script.")
    (tmp_path / "clone").mkdir()
    (tmp_path / "shared").symlink_to(real.parent, target_is_directory=True)
    monkeypatch.chdir(tmp_path / "clone")
    linked, _ = ingest_hashes.main([Path("../shared/team")])
    assert linked == ingest_hashes.main([real])[0] and len(linked) == 2


def test_a_folder_that_does_not_exist_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        ingest_hashes.cli([str(tmp_path / "none"), "--kind", "skills"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert f"error: argument FOLDER: {tmp_path / 'none'} does not exist" in err and "Traceback" not in err
