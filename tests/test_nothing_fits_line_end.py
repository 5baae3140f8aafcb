"""The "nothing fits" line of ``skill-retriever query`` ends in one full stop, also when
the last closest name ends in one: on 2wikimultihopqa it printed "... Barthold A.
Butenschøn Sr.." for a query nothing there answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from skill_retriever.calibration import calibrate_index
from skill_retriever.cli import main
from skill_retriever.model import Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

PASSAGES = {
    "Holm Jolsen Sr.": "Holm Jolsen was a Norwegian politician for the Conservative Party, born in Bergen.",
    "Barthold A. Butenschon Sr.": "Barthold Butenschon was a Norwegian businessperson, born in Christiania.",
    "Suhaagan Jr.": "Suhaagan is a 1964 Hindi film directed by Shakti Samanta in Bombay.",
    "Enkeyo Ketta Kural Inc.": "Enkeyo Ketta Kural is a 1985 Tamil film directed by S. P. Muthuraman.",
}
OFF_TOPIC = "qwzx vbnmk plokj trewq"


def test_the_line_ends_in_one_full_stop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    try:
        index.upsert([Node(id=f"p:{i}", kind="passage", name=name, text=text)
                      for i, (name, text) in enumerate(PASSAGES.items())])
        calibrate_index(index)
    finally:
        index.close()
    code = main(["query", OFF_TOPIC, "--no-rerank", "-k", "2", "--index-dir", str(tmp_path / "ix")])
    line = next(x for x in capsys.readouterr().out.splitlines() if "fits this well" in x)
    assert code == 0 and "fits this well; the closest: " in line
    assert line.endswith(".") and not line.endswith("..")
    assert line.removesuffix(".").split(", ")[-1] in {n.removesuffix(".") for n in PASSAGES}
