"""A run into an ``--out`` holding results of earlier runs says so in one line: which of
them it may reuse, and that the report keeps the others.

Found by a walkthrough: such a run began with two lines that overlapped, "holds N section
result(s) of earlier runs (...); the report keeps those this run does not redo" and
"N result(s) in ... were measured with these options and this code (...): each this run
includes is reused", naming the same results twice and leaving a reader to work out
which line won (with ``--fresh``, a third line said nothing is reused).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_sections import battery_section, startup_section

from skill_retriever.bench import runner
from skill_retriever.bench.sections import Section
from skill_retriever.cli import main
from skill_retriever.stores.embedder import bundled_model_path


def _start(printed: str) -> list[str]:
    """The lines before the first section's, naming earlier results or reuse."""
    head = printed.split("\n==", 1)[0].split("\nbenchmark finished", 1)[0].splitlines()
    return [line for line in head if "earlier" in line or "reuse" in line or "--fresh" in line]


@pytest.mark.slow
def test_one_line_says_what_of_the_earlier_results_is_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runner, "SECTIONS", (Section("battery", battery_section()), Section("startup", startup_section())))
    out = tmp_path / "out"
    command = ["benchmark", "--out", str(out), "--data", str(tmp_path / "none")]
    assert main([*command, "--only", "battery"]) == 0
    other = ["--embedder", bundled_model_path()]  # another name for a model that loads: startup reads it
    assert main([*command, "--only", "startup", *other]) == 0
    capsys.readouterr()

    assert main([*command, "--only", "battery"]) == 0
    lines = _start(capsys.readouterr().out)
    assert lines == [
        (f"{out} holds 2 section result(s) of earlier runs (battery/seed battery, startup); 1 measured with these options, code, "
        "packages and models (battery/seed battery) is reused where this run includes it and its data files are unchanged "
        "(--fresh measures it again); the others this run includes are measured again; the report keeps those it "
        "does not redo, and says which")]

    assert main([*command, "--only", "battery", "--fresh"]) == 0
    lines = _start(capsys.readouterr().out)
    assert lines == [
        (f"{out} holds 2 section result(s) of earlier runs (battery/seed battery, startup); --fresh: none is reused, each this "
        "run includes is measured again; the report keeps those it does not redo, and says which")]

    assert main([*command, "--only", "battery", "--world-seed", "5"]) == 0
    lines = _start(capsys.readouterr().out)
    assert lines == [
        (f"{out} holds 2 section result(s) of earlier runs (battery/seed battery, startup); none was measured with these options, "
        "code, packages and models: each this run includes is measured again; the report keeps those it does not "
        "redo, and says which")]

    assert main([*command, "--only", "battery", *other]) == 0  # as startup was measured
    capsys.readouterr()
    assert main([*command, "--only", "battery", *other]) == 0
    lines = _start(capsys.readouterr().out)
    assert lines == [
        (f"{out} holds 2 section result(s) of earlier runs (battery/seed battery, startup), all measured with these "
        "options, code, packages and models: each this run includes is reused while its data files are unchanged "
        "(--fresh measures it again); the report keeps those it does not redo, and says which")]
