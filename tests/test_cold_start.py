"""Commands that never embed never import torch or sentence-transformers (nor LangGraph
where they need no graph): ``--help``, ``--version``, ``stats``, ``install``, and the
LangGraph server's import of its graph module; nor SciPy where they build no matrix of
the graph (``install``, ``uninstall``, ``stats``: the route it reports reads the edges'
median cosine from their ends' vectors with NumPy). A ``query`` on the bundled model embeds
with NumPy (``stores.numpy_encoder``): it imports neither either, nor networkx (the
tests' PageRank reference), nor what only indexing or PageRank needs
(`UNNEEDED_BY_QUERY`). Each runs in a fresh interpreter and reports what it imported.
(How fast they start is measured by ``skill-retriever benchmark --only startup``, not
here.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "sentence_transformers", "transformers")

PROBE = """
import json, sys
from skill_retriever.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
heavy = [m for m in {heavy!r} if m in sys.modules]
unneeded = [m for m in {unneeded!r} if m in sys.modules]
print("PROBE " + json.dumps({{"code": code, "heavy": heavy, "langgraph": "langgraph" in sys.modules,
                             "unneeded": unneeded, "scipy": "scipy" in sys.modules,
                             "record_only": [m for m in {record_only!r} if m in sys.modules]}}))
"""
#: What a query on a catalogue (the smart route) never uses: the source readers
#: (`indexing`), the section splitter and the YAML reader (`ingest.skill_records`), the
#: secret patterns that redact what is indexed (`ingest.secrets`), the Hugging Face
#: download code (no cross-encoder is cached) and SciPy's graph algorithms (the PageRank
#: walk's components).
UNNEEDED_BY_QUERY = ("skill_retriever.indexing", "skill_retriever.ingest.document_sections",
                     "skill_retriever.ingest.skill_records", "yaml", "skill_retriever.ingest.secrets",
                     "huggingface_hub.file_download", "scipy.sparse.csgraph")
#: ``--help`` needs none of those, nor the injection scanner (a query flags its results).
UNNEEDED = (*UNNEEDED_BY_QUERY, "skill_retriever.safety.injection")
#: What `uninstall`, which reads the install record and opens no index, never uses: NumPy
#: and the snapshot (planning an install from an index), the secret redaction and YAML
#: (reading sources).
NOT_BY_UNINSTALL = ("numpy", "skill_retriever.stores.snapshot", "skill_retriever.ingest.secrets", "yaml")


def run_cli(*args: str, env_extra: dict[str, str] | None = None) -> dict[str, object]:
    env = {**os.environ, "SKILL_RETRIEVER_WARM_UP": "0", **(env_extra or {})}
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY, unneeded=UNNEEDED, record_only=NOT_BY_UNINSTALL), *args],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    line = next((x for x in out.stdout.splitlines() if x.startswith("PROBE ")), None)
    assert line is not None, out.stderr[-2000:]
    result: dict[str, object] = json.loads(line[len("PROBE "):])
    return result


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cold") / "ix"
    build_tiny_index(path).close()
    return path


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["install", "--help"], ["benchmark", "--help"]])
def test_help_imports_no_model_and_no_graph(args: list[str]) -> None:
    got = run_cli(*args)
    assert got["code"] == 0 and got["heavy"] == [] and got["langgraph"] is False
    assert got["unneeded"] == [] and got["scipy"] is False


def test_a_query_imports_only_what_it_uses(index_dir: Path, tmp_path: Path) -> None:
    """The search needs LangGraph; it and printing its answer need none of
    `UNNEEDED_BY_QUERY` (an empty Hugging Face cache: no cross-encoder to look up)."""
    got = run_cli("query", "add tracing to a service", "--index-dir", str(index_dir), "-k", "3", "--json",
                  "--route", "smart", env_extra={"HF_HUB_CACHE": str(tmp_path / "hf")})
    assert got["code"] == 0 and got["langgraph"] is True
    unneeded = got["unneeded"]
    assert isinstance(unneeded, list) and sorted(set(unneeded) & set(UNNEEDED_BY_QUERY)) == []


def test_stats_imports_no_model_no_graph_and_no_scipy(index_dir: Path) -> None:
    """Nor SciPy: the defaults it reports (the route by the edges' median cosine) are read
    from the items and their vectors, with no matrix of the graph (tiny_graph has edges)."""
    got = run_cli("stats", "--index-dir", str(index_dir), "--json")
    assert got["code"] == 0 and got["heavy"] == [] and got["langgraph"] is False and got["scipy"] is False
    assert got["unneeded"] == []  # nor the readers, YAML or the secret patterns


def test_install_imports_no_model_and_no_scipy(index_dir: Path, tmp_path: Path) -> None:
    """Nor SciPy (its import was most of an install's start): neither `install` nor
    `uninstall` builds a matrix of the graph; `uninstall` imports none of
    `NOT_BY_UNINSTALL` either. A skill's install imports the secret patterns: it reads
    each file it copies through them, to name one that holds a credential
    (`components/install/credential_files.py`; about 30-60 ms of import here)."""
    got = run_cli("install", "skill:alembic", "--target", str(tmp_path / "project"), "--index-dir", str(index_dir))
    assert got["code"] == 0 and got["heavy"] == [] and got["langgraph"] is False and got["scipy"] is False
    assert "skill_retriever.ingest.secrets" in got["record_only"]  # each copied file is checked for credentials
    assert (tmp_path / "project" / ".claude").is_dir()
    got = run_cli("uninstall", "skill:alembic", "--target", str(tmp_path / "project"))
    assert got["code"] == 0 and got["heavy"] == [] and got["scipy"] is False and got["record_only"] == []
    assert not (tmp_path / "project" / ".claude" / "skills" / "alembic").exists()


def test_the_server_graph_module_imports_no_model() -> None:
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import graphs.retrieval; "
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    env = {**os.environ, "SKILL_RETRIEVER_WARM_UP": "0"}
    out = subprocess.run([sys.executable, "-c", code, str(REPO)], capture_output=True, text=True, env=env,
                         timeout=120, check=True)  # fmt: skip
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


@pytest.mark.slow
def test_a_query_on_the_bundled_model_imports_no_torch(tmp_path: Path) -> None:
    from tiny_graph import tiny_edges, tiny_nodes

    from skill_retriever.stores.embedder import SentenceTransformerEmbedder
    from skill_retriever.stores.index import Index

    with Index.open(tmp_path / "ix", embedder=SentenceTransformerEmbedder(), create=True) as index:
        index.add(tiny_nodes(), tiny_edges())
    got = run_cli("query", "add tracing to a service", "--index-dir", str(tmp_path / "ix"), "-k", "3")
    assert got["code"] == 0 and got["heavy"] == [] and got["langgraph"] is True
    code = (
        "import sys; from skill_retriever.stores.index import Index; "
        "from skill_retriever.retriever import Retriever; "
        "r = Retriever(Index.open(sys.argv[1])); r.search('add tracing to a service'); "
        "print('networkx' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "ix")], capture_output=True,
                         text=True, timeout=120, check=True)  # fmt: skip
    assert out.stdout.strip().splitlines()[-1] == "False"
