"""A set with no query to measure is a skip note, not a table of dashes.

Found by a walkthrough: a toolret folder whose ``queries.jsonl`` was empty built its index,
published 20 rows of "-", noted "'nothing fits' flagged: answerable n/a (the default search
FAILED on all 0)" and exited 0 (`benchmark --only toolret`), as if it had measured a set.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.bench import datasets as D
from skill_retriever.cli import main


def toolret_set(data: Path, queries: list[dict[str, object]], name: str = "mini") -> Path:
    folder = data / "toolret" / name
    folder.mkdir(parents=True)
    (folder / "tools.jsonl").write_text(json.dumps({"id": "a", "name": "a", "description": "search flights"}),
                                        encoding="utf-8")
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8")
    return folder


def test_a_toolret_set_with_an_empty_queries_file_is_skipped_with_its_file_named(tmp_path: Path) -> None:
    folder = toolret_set(tmp_path, [])
    toolret_set(tmp_path, [{"id": "1", "query": "fly", "relevant": ["a"]}], name="other")
    sets, skipped = D.toolret_sets(tmp_path)
    assert [s.name for s in sets] == ["other"]
    assert skipped == [f"toolret/mini: {folder / 'queries.jsonl'} holds no queries; skipped"]


def test_a_toolret_set_whose_test_split_is_empty_is_skipped_and_says_which_split(tmp_path: Path) -> None:
    toolret_set(tmp_path, [{"id": "1", "query": "fly", "relevant": ["a"], "split": "train"}], name="ultratool")
    sets, skipped = D.toolret_sets(tmp_path)
    assert sets == []
    assert len(skipped) == 1 and skipped[0].startswith("toolret/ultratool: ")
    assert "no queries of split(s) test (1 in other splits)" in skipped[0] and skipped[0].endswith("; skipped")


def test_a_multihop_set_with_no_questions_is_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "multihop" / "tiny"
    folder.mkdir(parents=True)
    (folder / "corpus.json").write_text(json.dumps([{"title": "T", "text": "t", "idx": 0}]), encoding="utf-8")
    (folder / "queries.json").write_text("[]", encoding="utf-8")
    sets, skipped = D.multihop_sets(tmp_path)
    assert sets == [] and skipped == [f"multihop/tiny: {folder / 'queries.json'} holds no questions; skipped"]


def test_a_skills_queries_file_with_no_queries_is_skipped(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    for f in D.SKILL_FOLDERS:
        (root / f).mkdir(parents=True)
    (root / "queries").mkdir()
    (root / "queries" / "dev.jsonl").write_text("\n", encoding="utf-8")
    sets, skipped = D.skills_sets(tmp_path)
    assert sets == [] and skipped == [f"skills: {root / 'queries' / 'dev.jsonl'} holds no queries; skipped"]


@pytest.mark.slow
def test_only_toolret_over_a_set_without_queries_exits_2_and_builds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toolret_set(tmp_path / "data", [])
    out = tmp_path / "out"
    assert main(["benchmark", "--only", "toolret", "--data", str(tmp_path / "data"), "--out", str(out)]) == 2
    printed = capsys.readouterr().out
    assert "toolret/mini: " in printed and "holds no queries; skipped" in printed
    assert not (out / "results" / "toolret__mini.json").exists() and not (out / "cache" / "toolret__mini").exists()


# A set folder missing one of its files was passed over without a word: `--only toolret`
# over a data folder whose one set lacked queries.jsonl said "toolret: no set under
# <data>/toolret", with the set's folder right there.
def test_a_toolret_folder_missing_a_file_is_named_with_the_file_it_lacks(tmp_path: Path) -> None:
    folder = toolret_set(tmp_path, [{"id": "1", "query": "fly", "relevant": ["a"]}])
    (folder / "queries.jsonl").unlink()
    (tmp_path / "toolret" / ".cache").mkdir()  # a hidden folder is no set
    sets, skipped = D.toolret_sets(tmp_path)
    assert sets == [] and skipped == [f"toolret/mini: no queries.jsonl in {folder}; skipped"]
    toolret_set(tmp_path, [{"id": "1", "query": "fly", "relevant": ["a"]}], name="whole")
    sets, skipped = D.toolret_sets(tmp_path)
    assert [s.name for s in sets] == ["whole"] and skipped == [f"toolret/mini: no queries.jsonl in {folder}; skipped"]


def test_a_multihop_folder_missing_a_file_is_named_with_the_file_it_lacks(tmp_path: Path) -> None:
    folder = tmp_path / "multihop" / "tiny"
    folder.mkdir(parents=True)
    (folder / "queries.json").write_text("[]", encoding="utf-8")
    sets, skipped = D.multihop_sets(tmp_path)
    assert sets == [] and skipped == [f"multihop/tiny: no corpus.json in {folder}; skipped"]


# A corpus that reads to no item: `--only multihop` over a corpus.json cut short built an
# empty index, ran the methods, and ended in a ZeroDivisionError traceback from the peer
# BM25 (rank_bm25 over no document).
def test_a_set_whose_data_reads_to_no_item_is_an_error_naming_the_problem(tmp_path: Path) -> None:
    from skill_retriever.bench.index_cache import cached_index, entry_dir
    from skill_retriever.exceptions import IngestError
    from skill_retriever.ingest.result import IngestResult, Problem
    from skill_retriever.stores.embedder import HashingEmbedder

    def nothing(work: Path) -> IngestResult:
        return IngestResult(source="c", problems=[Problem("/d/multihop/t/corpus.json", "not valid JSON (line 1)")])

    with pytest.raises(IngestError) as err:
        cached_index(tmp_path, "multihop__t", {"v": 1}, nothing, HashingEmbedder(), log=lambda _: None)
    assert str(err.value) == ("multihop__t: its data read to no item to index (/d/multihop/t/corpus.json: not valid "
                              "JSON (line 1)); mend the data, or move the set out of the data folder")
    assert not entry_dir(tmp_path, "multihop__t", HashingEmbedder().name).exists()


def test_an_empty_cached_entry_of_an_earlier_version_is_rebuilt_not_measured(tmp_path: Path) -> None:
    from skill_retriever.bench.index_cache import CACHE_FORMAT, cached_index, entry_dir
    from skill_retriever.exceptions import IngestError
    from skill_retriever.ingest.result import IngestResult
    from skill_retriever.stores.embedder import HashingEmbedder
    from skill_retriever.stores.index import Index

    embedder = HashingEmbedder()
    home = entry_dir(tmp_path, "multihop__t", embedder.name)  # the hashing model's entry
    Index.open(home / "index", embedder=embedder, create=True).close()
    (home / "bench-cache.json").write_text(json.dumps({"fingerprint": {"format": CACHE_FORMAT, "embedder": embedder.name,
                                                                       "v": 1}, "complete": True, "build": {}}))
    lines: list[str] = []
    with pytest.raises(IngestError, match="read to no item"):
        cached_index(tmp_path, "multihop__t", {"v": 1}, lambda w: IngestResult(source="c"), embedder, log=lines.append)
    assert lines[0] == "  cached index multihop__t holds no item; rebuilding it"


def test_a_set_none_of_whose_queries_names_a_relevant_item_is_skipped_unbuilt() -> None:
    """Every query with "relevant": [] scored nothing: a table of dashes, published."""
    from types import SimpleNamespace

    from skill_retriever.bench.retrieval_sets import _run_sets

    def built(work: Path) -> None:
        raise AssertionError("no index is built for a set with nothing to score")

    ds = D.Dataset("toolret", "mini", [D.EvalQuery("1", "fly", {}), D.EvalQuery("2", "sail", {})], built,  # type: ignore[arg-type]
                   {}, ("R@5",))
    lines: list[str] = []
    run = SimpleNamespace(log=lines.append, skipped=[], publish=lambda result: None)
    _run_sets(run, [ds], [])  # type: ignore[arg-type]
    note = "toolret/mini: none of its 2 queries names a relevant item, so nothing can be scored; skipped"
    assert run.skipped == [note] and lines == [f"\n== {note}"]
