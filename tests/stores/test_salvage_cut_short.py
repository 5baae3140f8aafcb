"""``repair`` of an ``items.sqlite`` cut short (a disk that filled, a copy stopped halfway):
SQLite trusts the page count in the header, so before, every read failed and repair said
nothing could be salvaged; now it salvages the rows the file still holds, keeps the damaged
file unchanged, and says that how many relations were lost at its end is unknown.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.model import Edge, Node
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

COUNT = 600


@pytest.fixture
def cut(tmp_path: Path) -> Path:
    """A real index of 600 items and their relations, its database cut to 40% of its length:
    inside the items' id index, behind the items' BM25 term ids (``stores.term_ids``)."""
    root = tmp_path / "alpha"
    root.mkdir()
    attrs = {"source_root": str(root), "source_name": "alpha"}
    nodes = [Node(id=f"alpha/item-{i}.md", kind="skill", name=f"alpha-{i}", attrs=attrs,
                  text=f"item {i} explains topic{i % 37} " + "lorem ipsum " * 40) for i in range(COUNT)]
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.add(nodes, [Edge(nodes[i].id, nodes[i + 1].id, "RELATED_TO") for i in range(COUNT - 1)])
    index.close()
    database = tmp_path / "ix" / "items.sqlite"
    for side in ("-wal", "-shm"):  # checkpointed on close: the cut file is all there is
        (tmp_path / "ix" / f"items.sqlite{side}").unlink(missing_ok=True)
    with database.open("r+b") as fh:
        fh.truncate(database.stat().st_size * 4 // 10)
    return tmp_path / "ix"


def test_repair_salvages_a_file_cut_short_and_keeps_it(cut: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = hashlib.sha256((cut / "items.sqlite").read_bytes()).hexdigest()
    code, _, err = run(capsys, "stats", "--index-dir", cut)
    assert code == 2 and f"`skill-retriever repair --index-dir {cut}`" in err

    code, out, _ = run(capsys, "repair", "--index-dir", cut, "--json")
    assert code == 1  # rows were lost: something is left to do
    salvaged = json.loads(out)["salvaged"]
    assert salvaged["damage"].startswith("cut short: it holds ")
    nodes = salvaged["tables"]["nodes"]
    assert 0 < nodes["recovered"] < COUNT
    kept = Path(salvaged["kept"])
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == before  # the cut bytes, kept whole
    assert not list(cut.glob("*salvage-read*"))  # the readable copy is gone

    index = Index.open(cut)
    try:
        held = index.snapshot().nodes
        assert len(held) == nodes["recovered"] and all(i.startswith("alpha/") for i in held)
    finally:
        index.close()
    code, out, _ = run(capsys, "stats", "--index-dir", cut)
    assert code == 0 and "alpha" in out


def test_the_report_does_not_count_probes_past_the_end_as_lost_rows(
    cut: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "repair", "--index-dir", cut)
    assert code == 1
    assert "cut short: it holds " in out
    # the lookups past the last row known are probes, not rows: no count of them
    assert " item(s) (" in out and "lost and an unknown number lost at the file's end)" in out
    assert " relation(s) (an unknown number lost at the file's end)" in out
    assert "10000" not in out + err and " of " not in out.split("read back ", 1)[1].split(";", 1)[0]
    assert "so more items and relations may be lost, how many is unknown" in err
    assert "Traceback" not in out + err
