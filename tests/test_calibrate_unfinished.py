"""``calibrate`` on an index that a killed index run left with part of a source: it
calibrates what is there, and says (stderr, and ``warnings`` in ``--json``) that the source
is half-written and which command completes it, as ``stats`` does; a complete index gets no
warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from test_unfinished_runs import killed_after_first_batch, skills


def test_calibrate_names_the_unfinished_run_and_its_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, ix = skills(tmp_path / "repo", 6), tmp_path / "ix"
    killed_after_first_batch(ix, source)
    code, out, err = run(capsys, "calibrate", "--index-dir", ix)
    assert code == 0 and out.startswith("calibrated ")
    assert err.startswith("warning: calibrated the index as it stands, part of a source included")
    assert f"`skill-retriever index {source} --source-name repo --index-dir {ix}`" in err

    code, out, _ = run(capsys, "calibrate", "--index-dir", ix, "--json")
    assert code == 0
    [warning] = json.loads(out)["warnings"]
    assert "unfinished index runs: repo" in warning and "--source-name repo" in warning

    assert run(capsys, "index", source, "--source-name", "repo", "--index-dir", ix)[0] == 0
    code, out, err = run(capsys, "calibrate", "--index-dir", ix, "--json")
    assert code == 0 and json.loads(out)["warnings"] == [] and "warning" not in err
