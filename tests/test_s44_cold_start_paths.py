"""Time to first answer, as a walkthrough measured it (each in a fresh interpreter where
imports are the point; no timings asserted):

- ``query ""`` and ``query x --index-dir /nonexistent`` took 3-4 s to refuse: the query
  command imported the search (LangGraph) before checking either. Now neither imports it.
- ``skill-retriever mcp`` on a missing index: one line, exit 2.
- ``-v`` set the root logger to INFO, so torch's "FakeTensor cache stats" lines came through;
  it now sets only ``skill_retriever``'s.
- ``Retriever.warm_up`` loaded tiktoken's table inside its "search" step without naming it;
  it is now the ``tokenizer`` step, and a later token count loads nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.algorithms import budget
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}

#: Runs the CLI's ``main`` with the arguments after ``-c``; prints the exit code and
#: whether it imported LangGraph.
PROBE = """
import json, sys
from skill_retriever.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print("PROBE " + json.dumps({"code": code, "langgraph": "langgraph" in sys.modules}))
"""


def probe(*args: str, stdin: int | None = subprocess.DEVNULL) -> tuple[dict[str, object], str]:
    out = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=ENV,
                         stdin=stdin, timeout=180, check=False)  # fmt: skip
    line = next((x for x in out.stdout.splitlines() if x.startswith("PROBE ")), None)
    assert line is not None, out.stderr[-2000:]
    result: dict[str, object] = json.loads(line[len("PROBE "):])
    return result, out.stderr


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("s44-cold") / "ix"
    build_tiny_index(path).close()
    return path


# -- query refusals import no search ---------------------------------------------------
@pytest.mark.parametrize("query", ["", "   ", "\x1b[31m\x1b[0m"])
def test_an_empty_query_is_refused_without_importing_the_search(tiny_dir: Path, query: str) -> None:
    got, err = probe("query", query, "--index-dir", str(tiny_dir))
    assert got["code"] == 2 and got["langgraph"] is False
    assert err.strip() == ("skill-retriever query: error: the query is empty; ask for something, e.g. 'deploy a postgres "
                           "migration' (see skill-retriever query --help)")


def test_a_missing_index_is_refused_without_importing_the_search(tmp_path: Path) -> None:
    got, err = probe("query", "deploy a service", "--index-dir", str(tmp_path / "nothing-here"))
    assert got["code"] == 2 and got["langgraph"] is False
    assert err.startswith(f"skill-retriever: error: no index at {tmp_path / 'nothing-here'}")


def test_a_query_too_long_is_refused_as_the_search_words_it(tiny_dir: Path) -> None:
    got, err = probe("query", "x" * 40, "--index-dir", str(tiny_dir), "--max-query-chars", "20")
    assert got["code"] == 2 and got["langgraph"] is False
    assert "40 characters" in err and "--max-query-chars" in err, err


def test_an_empty_query_from_stdin_is_refused_too(tiny_dir: Path) -> None:
    got, err = probe("query", "-", "--index-dir", str(tiny_dir))  # stdin: /dev/null, empty
    assert got["code"] == 2 and got["langgraph"] is False and "the query is empty" in err


def test_a_good_query_still_answers(tiny_dir: Path) -> None:
    got, _ = probe("query", "add tracing to a service", "--index-dir", str(tiny_dir), "-k", "2")
    assert got["code"] == 0 and got["langgraph"] is True


# -- the MCP server ---------------------------------------------------------------------
def test_an_mcp_server_on_no_index_says_so_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "none"
    got, err = probe("mcp", "--index-dir", str(missing))
    assert got["code"] == 2
    assert err.startswith(f"skill-retriever: error: no index at {missing}") and len(err.strip().splitlines()) == 1


# -- -v shows our lines, not every library's ---------------------------------------------
def test_verbose_shows_our_info_lines_and_no_library_ones(tiny_dir: Path) -> None:
    code = (
        "import logging, sys\n"
        "from skill_retriever.cli import main\n"
        "rc = main(['-v', 'stats', '--index-dir', sys.argv[1]])\n"
        "logging.getLogger('torch._subclasses.fake_tensor').info('FakeTensor cache stats: probe')\n"
        "logging.getLogger('skill_retriever.phases').info('ours: probe')\n"
        "logging.getLogger('torch').warning('a library warning: probe')\n"
        "print('ROOT', logging.getLevelName(logging.getLogger().level), rc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tiny_dir)], capture_output=True, text=True, env=ENV,
                         timeout=120, check=True)  # fmt: skip
    assert "ROOT WARNING 0" in out.stdout
    assert "ours: probe" in out.stderr and "a library warning: probe" in out.stderr
    assert "FakeTensor" not in out.stderr


def test_without_verbose_our_info_lines_stay_quiet(tiny_dir: Path) -> None:
    code = (
        "import logging, sys\n"
        "from skill_retriever.cli import main\n"
        "main(['stats', '--index-dir', sys.argv[1]])\n"
        "logging.getLogger('skill_retriever.phases').info('ours: probe')\n"
        "logging.getLogger('skill_retriever.phases').warning('our warning: probe')\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tiny_dir)], capture_output=True, text=True, env=ENV,
                         timeout=120, check=True)  # fmt: skip
    assert "ours: probe" not in out.stderr and "our warning: probe" in out.stderr


# -- warm_up loads and names the tokenizer -------------------------------------------------
def test_warm_up_names_the_tokenizer_and_a_later_count_loads_nothing(shared_tiny_index: Index) -> None:
    budget._load_encoding.cache_clear()
    retriever = Retriever(shared_tiny_index, reranker=None)
    spent = retriever.warm_up()
    assert list(spent) == ["model", "views", "tokenizer", "search"]
    loaded = budget._load_encoding.cache_info()
    assert loaded.misses == 1 and loaded.currsize == 1  # loaded by the tokenizer step, once
    retriever.search("add tracing to a service", k=3)
    assert budget.token_counter(retriever.config.encoding)("hello world") == 2
    assert budget._load_encoding.cache_info().misses == 1  # nothing loaded again
