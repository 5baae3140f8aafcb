"""``stats --json`` prints the keys README lists, and README lists every key it prints:
``calibration_unreadable`` was printed always and named nowhere. The README sentence is
read here, so a key added on one side alone fails."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from tiny_graph import build_tiny_index, tiny_nodes

from skill_retriever.cli import main
from skill_retriever.stores.index import Index

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_keys() -> tuple[set[str], set[str]]:
    """The keys README says ``stats --json`` always holds, and those it holds when they apply."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    listed = text.partition("`stats --json` always holds ")[2].partition("); `skill-retriever remove-source")[0]
    assert listed, "README no longer lists the keys of stats --json"
    while (flat := re.sub(r"\([^()]*\)", "", listed)) != listed:  # what each key is, in brackets
        listed = flat
    always, _, applies = listed.partition("only when they apply")
    return set(re.findall(r"`(\w+)`", always)), set(re.findall(r"`(\w+)`", applies))


def stats(folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["stats", "--index-dir", str(folder), "--json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_stats_json_keys_are_readmes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    always, applies = readme_keys()
    assert "calibration_unreadable" in always and {"unusable_vectors", "chroma_url"} <= applies
    build_tiny_index(tmp_path / "ix").close()
    sound = stats(tmp_path / "ix", capsys)
    assert set(sound) == always and sound["calibration_unreadable"] is None
    # the keys that apply only sometimes: an unusable vector, and an unreadable calibration
    with Index.open(tmp_path / "ix", writable=True) as index:
        index.store_meta("calibration", "{not json")
    db = sqlite3.connect(tmp_path / "ix" / "items.sqlite")
    with db:
        db.execute("UPDATE nodes SET vector = ? WHERE id = ?", (np.ones(2, dtype="<f4").tobytes(), tiny_nodes()[0].id))
    db.close()
    hurt = stats(tmp_path / "ix", capsys)
    assert always <= set(hurt) <= always | applies and "unusable_vectors" in hurt
    said = hurt["calibration_unreadable"]
    assert hurt["calibration"] is None and isinstance(said, str)
    assert said.startswith("the index's calibration is unreadable") and "repair --index-dir" in said
