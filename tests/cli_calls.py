"""The CLI called in-process, as the tests call it: its exit status and what it printed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """main's exit status, stdout and stderr."""
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def run_lines(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, list[str]]:
    """main's exit status and stdout's lines."""
    code, out, _ = run(capsys, *argv)
    return code, out.splitlines()


def indexed_graph(root: Path, graph: dict[str, Any]) -> Path:
    """The index ``skill-retriever index`` makes under ``root`` of ``graph`` (a JSON graph,
    written there as ``ops.json``), with the small hashing embedder the maths tests use."""
    (root / "ops.json").write_text(json.dumps(graph), encoding="utf-8")
    assert main(["index", str(root / "ops.json"), "--index-dir", str(root / "ix"), "--embedder", "hashing-64"]) == 0
    return root / "ix"


def installed_fresh(capsys: pytest.CaptureFixture[str], target: Path, index_dir: Path,
                    *runs: str) -> tuple[Path, str]:
    """``target`` made (it must not exist yet) and each of ``runs`` (names split on spaces,
    one ``install`` call each) installed into it from ``index_dir``, each exiting 0; the
    target and the last call's stdout."""
    target.mkdir()
    out = ""
    for names in runs:
        code, out, err = run(capsys, "install", *names.split(), "--target", target, "--index-dir", index_dir)
        assert code == 0, out + err
    return target, out
