"""What a walkthrough of multi-hop QA and indexing through the CLI found misleading, fixed:

1. ``stats`` on a passage index whose run was stopped (Ctrl-C) blamed an index "built
   before facts existed" and advised ``calibrate``, while its own warning said to index
   again: both lines now name the unfinished run and advise ``index`` again;
2. ``stats`` printed "route the router's choice" (calibration) over "ppr route"
   (defaults): the calibration line says it learned no route, and a line of its own says
   which route a search that names none takes, and what set it;
3. ``query --budget N -v`` logged the search's budget phase at ``budget=None`` beside an
   answer the budget had cut: the cut the query command makes after folding copies is
   logged too;
4. ``index`` printed no total time: its last line says how long the run took and how
   much of it was reading the sources and embedding.

Each builds a small real index (``--embedder hashing-64``, or the Index API with the
HashingEmbedder) in ``tmp_path`` and runs the real CLI.
"""

from __future__ import annotations

import json
import logging
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_calls import run

from skill_retriever.model import Node
from skill_retriever.stores import run_marks
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

HASHING = ("--embedder", "hashing-64")


def line(out: str, start: str) -> str:
    """The one line of ``out`` that starts with ``start``."""
    found = [x for x in out.splitlines() if x.startswith(start)]
    assert len(found) == 1, out
    return found[0]


def passages(n: int = 5) -> list[Node]:
    return [Node(id=f"passage:{i}", kind="passage", name=f"Title {i}", text=f"Passage {i} says something about {i}.")
            for i in range(n)]


def stopped_mark(source: str) -> str:
    """An unfinished-run mark whose process has ended (a run stopped with Ctrl-C)."""
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           check=True, capture_output=True, text=True)
    return json.dumps({source: {"started": "2026-12-05T06:00:00+00:00", "pid": int(ended.stdout),
                                "host": platform.node(), "path": "/data/hotpotqa/corpus.json"}})


# -- 1. stats on a stopped passage run -----------------------------------------------------
def test_stats_of_a_stopped_passage_run_blames_the_run_and_advises_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = tmp_path / "ix"
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        run_marks.begin(index, "hotpotqa", tmp_path / "corpus.json")
        index.add(passages(), [])  # the passages are written first; the run stopped before the facts
        index.store_meta("unfinished_runs", stopped_mark("hotpotqa"))
    code, out, _ = run(capsys, "stats", "--index-dir", ix)
    assert code == 0
    defaults = line(out, "defaults: ")
    assert "because an index run did not finish" in defaults and "`index` command again" in defaults
    assert "before facts existed" not in defaults
    calibration = line(out, "calibration: ")
    assert "because an index run did not finish" in calibration and "`index` command again" in calibration
    assert "calibrate" not in calibration.replace("calibrates", "")
    assert "warning: unfinished index runs: hotpotqa" in out  # the line both point at


def test_stats_during_a_passage_run_says_facts_come_when_it_ends(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = tmp_path / "ix"
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        run_marks.begin(index, "hotpotqa", tmp_path / "corpus.json")  # this process: the run under way
        index.add(passages(), [])
        code, out, _ = run(capsys, "stats", "--index-dir", ix)
    assert code == 0
    assert "passages without facts yet: the index run under way" in line(out, "defaults: ")
    assert line(out, "calibration: ") == "calibration: none yet (the index run under way calibrates it when it ends)"


def test_stats_of_passages_built_before_facts_keeps_its_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ix = tmp_path / "ix"
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        index.add(passages(), [])  # no run mark: a complete index, from before facts existed
    code, out, _ = run(capsys, "stats", "--index-dir", ix)
    assert code == 0
    assert "before facts existed" in line(out, "defaults: ")
    assert "run `skill-retriever calibrate --index-dir" in line(out, "calibration: ")


# -- 2. which route a default search takes -------------------------------------------------------
def test_stats_says_which_route_a_default_search_takes_and_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ix = tmp_path / "ix"
    fact = Node(id="fact:0:0", kind="fact", name="Passage 0 fact", text="Passage 0 says something about 0.")
    with Index.open(ix, embedder=HashingEmbedder(), create=True) as index:
        index.add([*passages(), fact], [])
    assert run(capsys, "calibrate", "--index-dir", ix)[0] == 0
    code, out, _ = run(capsys, "stats", "--index-dir", ix)
    assert code == 0
    calibration = line(out, "calibration: ")
    assert "no route learned" in calibration and "router's choice" not in calibration
    assert "ppr route" in line(out, "defaults: passage corpus")
    assert line(out, "route: ").startswith("route: ppr for every query, set by the index's defaults above")

    sample = tmp_path / "sample"
    assert run(capsys, "index", "--sample", "--index-dir", sample, *HASHING)[0] == 0
    _, out, _ = run(capsys, "stats", "--index-dir", sample)
    assert line(out, "route: ").startswith("route: smart for every query")  # a catalogue: the defaults' smart route


# -- 3. the budget the query command applies, in -v's log ----------------------------------------
def test_query_budget_is_logged_where_it_is_applied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    ix = tmp_path / "ix"
    assert run(capsys, "index", "--sample", "--index-dir", ix, *HASHING)[0] == 0
    with caplog.at_level(logging.INFO, logger="skill_retriever"):
        code, out, _ = run(capsys, "query", "review a pull request", "--index-dir", ix, "-k", "3", "--budget", "1",
                           "--no-rerank", "-v")
    assert code == 0 and "the token budget of 1 dropped 3 of 3 results" in out
    budget_lines = [r.getMessage() for r in caplog.records if "[apply_token_budget]" in r.getMessage()]
    assert budget_lines[0].startswith("[skill_retriever][apply_token_budget] budget=None")  # the search's own phase
    assert budget_lines[-1].startswith("[skill_retriever][apply_token_budget] budget=1 ")
    assert "kept=0 dropped=3" in budget_lines[-1] and "after folding copies" in budget_lines[-1]


# -- 4. index's total time --------------------------------------------------------------------
def test_index_ends_with_its_total_and_embedding_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "index", "--sample", "--index-dir", tmp_path / "ix", *HASHING)
    last = out.splitlines()[-1]
    assert code == 0 and last.startswith("took ") and "reading the sources" in last
    assert re.search(r"embedding [\d,]+ texts and writing [^,]+ \(loading the model included\)", last), last
    code, out, _ = run(capsys, "index", "--sample", "--index-dir", tmp_path / "ix", *HASHING, "--json")
    timing = json.loads(out)["run"]["timing"]
    assert set(timing) == {"total_s", "reading_s", "embedding_and_writing_s"}
    assert timing["total_s"] >= timing["reading_s"] + timing["embedding_and_writing_s"]
