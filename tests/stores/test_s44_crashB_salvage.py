"""``repair`` of an ``items.sqlite`` whose middle pages are overwritten (a disk error, a
partial overwrite): it salvages every row that can be read into a fresh file, keeps the
damaged one as ``items.sqlite.bad-<time>``, names the sources and the commands that write
back what was lost; ``stats`` and ``query`` on the damaged file point at it. A file whose
header cannot be read is left as it is, and the sources it records are still named.
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
from skill_retriever.stores.salvage import salvage_items

PAGE = 4096
COUNT = 2000


def _nodes(root: Path) -> list[Node]:
    """Half from a source named ``alpha`` (ids begin with its name, as a skills
    repository's do), half written through the API; interleaved, so damage hits both."""
    out = []
    for i in range(COUNT):
        text = f"item {i} explains topic{i % 37} with enough words to fill a page " + "lorem ipsum " * 20
        if i % 2:
            out.append(Node(id=f"api:item-{i}", kind="skill", name=f"api-{i}", text=text))
        else:
            attrs = {"source_root": str(root), "source_name": "alpha"}
            out.append(Node(id=f"alpha/item-{i}.md", kind="skill", name=f"alpha-{i}", text=text, attrs=attrs))
    return out


@pytest.fixture
def damaged(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A real index of 2,000 items with pages in the middle of its file overwritten, and
    every item's text before the damage."""
    root = tmp_path / "alpha"
    root.mkdir()
    nodes = _nodes(root)
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.add(nodes, [Edge(nodes[i].id, nodes[i + 1].id, "RELATED_TO") for i in range(0, COUNT - 1, 3)])
    index.close()
    database = tmp_path / "ix" / "items.sqlite"
    pages = database.stat().st_size // PAGE
    assert pages > 200  # enough rows that the damage lands on data pages, after the schema's
    with database.open("r+b") as fh:
        fh.seek(pages // 3 * PAGE)
        fh.write(b"\xde\xad\xbe\xef" * (PAGE // 4) * 20)  # 20 pages, as `dd ... seek= count=20`
    return tmp_path / "ix", {n.id: n.text for n in nodes}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_stats_and_query_on_the_damaged_file_point_at_repair(
    damaged: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    ix, _ = damaged
    for command in (["stats"], ["query", "topic3"]):
        code, _, err = run(capsys, *command, "--index-dir", ix)
        assert code == 2
        assert "malformed" in err and f"run `skill-retriever repair --index-dir {ix}`" in err
        assert len(err.strip().splitlines()) == 1


def test_repair_salvages_the_readable_rows_and_keeps_the_damaged_file(
    damaged: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    ix, texts = damaged
    before = _digest(ix / "items.sqlite")
    code, out, _ = run(capsys, "repair", "--index-dir", ix, "--json")
    assert code == 1  # rows were lost: the user has something left to do
    report = json.loads(out)
    salvaged = report["salvaged"]
    nodes = salvaged["tables"]["nodes"]
    assert nodes["lost"] > 0 and nodes["recovered"] > COUNT // 2
    assert nodes["recovered"] + nodes["lost"] == COUNT

    kept = Path(salvaged["kept"])
    assert kept.parent == ix and kept.name.startswith("items.sqlite.bad-")
    assert _digest(kept) == before  # the damaged bytes, kept whole

    index = Index.open(ix)
    try:
        held = index.snapshot().nodes
        assert len(held) == nodes["recovered"]
        assert all(texts[i] == n.text for i, n in held.items())  # same ids, same text
        assert index.status()["vectors"]["nodes"] == len(held)  # every salvaged item has its vector
    finally:
        index.close()

    alpha = next(s for s in salvaged["sources"] if s["name"] == "alpha")
    lost_alpha = sum(i.startswith("alpha/") for i in texts) - sum(i.startswith("alpha/") for i in held)
    assert alpha["lost"] == lost_alpha > 0
    assert alpha["command"] == f"skill-retriever index {ix.parent / 'alpha'} --index-dir {ix}"
    lost_api = sum(i.startswith("api:") for i in texts) - sum(i.startswith("api:") for i in held)
    assert salvaged["unattributed"] >= lost_api > 0  # lost relations of API items count here too
    assert any(alpha["command"] in line for line in report["left"])

    code, out, _ = run(capsys, "query", "topic3 explains", "--index-dir", ix, "--json")
    assert code == 0 and json.loads(out)["results"]
    code, out, _ = run(capsys, "stats", "--index-dir", ix)
    assert code == 0 and "alpha" in out


def test_the_text_report_names_the_sources_and_the_commands(
    damaged: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    ix, _ = damaged
    code, out, err = run(capsys, "repair", "--index-dir", ix)
    assert code == 1
    assert "salvaged the damaged items.sqlite" in out and "the damaged file is kept as items.sqlite.bad-" in out
    assert f"the index records these sources: alpha ({ix.parent / 'alpha'})" in out
    assert f"of source alpha could not be read back; index it again: `skill-retriever index {ix.parent / 'alpha'}" in err
    assert "name no source could not be read back (first: 'api:item-" in err
    assert "Traceback" not in out + err


def test_a_file_whose_header_cannot_be_read_is_left_as_it_is_and_its_sources_named(
    damaged: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    ix, _ = damaged
    with (ix / "items.sqlite").open("r+b") as fh:
        fh.write(b"\x00" * 100)  # the 100-byte header: SQLite reads nothing of the file
    before = {p.name: _digest(p) for p in ix.iterdir() if not p.name.endswith(("-wal", "-shm"))}
    code, _, err = run(capsys, "repair", "--index-dir", ix)
    assert code == 2
    assert "nothing in it can be salvaged and nothing was changed" in err
    assert f"alpha ({ix.parent / 'alpha'})" in err and f"`skill-retriever index {ix.parent / 'alpha'}" in err
    assert {p.name: _digest(p) for p in ix.iterdir() if not p.name.endswith(("-wal", "-shm"))} == before


def test_a_sound_file_is_not_salvaged(tmp_path: Path) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    index.add([Node(id="a", kind="skill", name="a", text="a sound item")])
    index.close()
    assert salvage_items(tmp_path / "ix") is None
    assert not list((tmp_path / "ix").glob("items.sqlite.bad-*"))
