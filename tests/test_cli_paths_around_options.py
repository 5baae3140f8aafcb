"""``index a --kind docs b``: paths on both sides of an option are all indexed. argparse
stops a positional list at the first option, so the second path was refused as an
"unrecognized argument" (found in a walkthrough); an unknown option still is."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.stores.index import Index


def _docs(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True)
    (folder / f"{name}.md").write_text(f"# {name}\n\nHow to handle {name}.\n", encoding="utf-8")
    return folder


def test_paths_after_an_option_are_indexed_too(tmp_path: Path) -> None:
    first, second = _docs(tmp_path / "runbooks", "rollback"), _docs(tmp_path / "adrs", "caching")
    ix = tmp_path / "ix"
    assert main(["index", str(first), "--kind", "docs", str(second), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    with Index.open(ix) as index:
        assert sorted(n.name for n in index.nodes.values()) == ["caching", "rollback"]


def test_an_unknown_option_is_still_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["index", str(tmp_path), "--kind", "docs", "--bogus", "--index-dir", str(tmp_path / "ix")])
    assert exit_.value.code == 2 and "unrecognized arguments: --bogus" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["stats", "extra", "--index-dir", str(tmp_path / "ix")])  # no paths to join: refused
    assert "unrecognized arguments: extra" in capsys.readouterr().err
