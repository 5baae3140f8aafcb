"""End to end with the real bundled MiniLM and a real on-disk Chroma: the bundled sample
catalogue indexed through the CLI, realistic queries, a reopen from disk, and the CLI's
behaviour on good and bad input."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from skill_retriever.cli import main
from skill_retriever.indexing import ingest, sample_catalogue_path
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

pytestmark = pytest.mark.slow

#: query -> names of which at least one is obviously right (must be in the top 3).
QUERIES = {
    "write alembic migrations that are safe under live traffic": {"migrations-alembic"},
    "add distributed tracing spans to a python service": {"opentelemetry-tracing"},
    "someone committed an AWS key to the repo, what do I do": {"secret-scanning"},
}


@dataclass(frozen=True)
class Built:
    path: Path
    rc: int
    stdout: str


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The sample catalogue indexed once, through the CLI (bundled model)."""
    assert sample_catalogue_path().is_dir()
    path = tmp_path_factory.mktemp("sample") / "index"
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(["index", "--sample", "--index-dir", str(path)])
    return Built(path, rc, out.getvalue())


@pytest.fixture(scope="module")
def sample_index(built: Built, real_embedder: SentenceTransformerEmbedder) -> Iterator[Index]:
    index = Index.open(built.path, embedder=real_embedder, create=False)
    yield index
    index.close()


def top_names(retriever: Retriever, query: str, n: int = 3) -> list[str]:
    return [r.name for r in retriever.search(query).results[:n]]


def test_cli_indexes_the_sample(built: Built, sample_index: Index) -> None:
    assert built.rc == 0
    expected = ingest(sample_catalogue_path())
    status = sample_index.status()
    assert status["nodes"] == len(expected.nodes) >= 15
    assert status["edges"] == len({e.id for e in expected.edges})
    assert status["vectors"]["nodes"] == status["nodes"]
    assert status["embedder"] == "bundled:all-MiniLM-L6-v2"
    assert f"holds {status['nodes']} nodes" in built.stdout


@pytest.mark.parametrize("query", list(QUERIES))
def test_obvious_item_in_top_3(sample_index: Index, query: str) -> None:
    retriever = Retriever(sample_index, reranker=None, cache_size=0)
    names = top_names(retriever, query)
    assert QUERIES[query] & set(names), names


def test_reopened_index_answers_the_same(
    built: Built, sample_index: Index, real_embedder: SentenceTransformerEmbedder
) -> None:
    first = Retriever(sample_index, reranker=None, cache_size=0)
    fresh = Index.open(built.path, embedder=real_embedder, create=False)
    try:
        assert fresh is not sample_index
        assert fresh.status() == sample_index.status()
        second = Retriever(fresh, reranker=None, cache_size=0)
        for query in QUERIES:
            assert second.search(query).ids == first.search(query).ids, query
    finally:
        fresh.close()


def test_cli_query_json(built: Built, capsys: pytest.CaptureFixture[str]) -> None:
    query = "write alembic migrations that are safe under live traffic"
    rc = main(["query", query, "--index-dir", str(built.path), "--json", "-k", "5"])
    out, _ = capsys.readouterr()
    assert rc == 0
    data = json.loads(out)
    assert data["reranker"] == "none"  # no cross-encoder in the offline cache: no reranking
    assert data["fit"]["nothing_fits"] is False and data["fit"]["confidence"] > 0.5  # `index` calibrated it
    results = data["results"]
    assert 0 < len(results) <= 5
    for r in results:
        assert {
            "id",
            "kind",
            "name",
            "score",
            "fusion_score",
            "rerank_score",
            "token_count",
            "channels",
        } <= set(r)
        assert r["channels"] and r["token_count"] > 0
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)
    assert "migrations-alembic" in {r["name"] for r in results[:3]}
    assert data["warnings"] == []


def test_cli_query_covers_each_ask_unless_told_not_to(built: Built, capsys: pytest.CaptureFixture[str]) -> None:
    query = "Write alembic migrations that are safe under live traffic. Then add structured logging to the service."
    assert main(["query", query, "--index-dir", str(built.path), "--json", "-k", "5"]) == 0
    covered = json.loads(capsys.readouterr().out)
    assert covered["stats"]["cover_clauses"]["clauses"] == 2 and covered["stats"]["cover_clauses"]["lambda"] == 0.5
    assert main(["query", query, "--index-dir", str(built.path), "--json", "-k", "5", "--clause-coverage", "0"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["stats"]["cover_clauses"]["off"] is True
    with pytest.raises(SystemExit):  # refused by argparse, naming the flag
        main(["query", query, "--index-dir", str(built.path), "--clause-coverage", "2"])
    assert "--clause-coverage: must be a number from 0 (off) to 1" in capsys.readouterr().err


def one_error_line(err: str, prefix: str = "skill-retriever: error: ") -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith(prefix)
    return lines[0]


def test_cli_blank_query_fails_with_one_line(
    built: Built, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(["query", "   ", "--index-dir", str(built.path), "--json"])
    out, err = capsys.readouterr()
    assert rc != 0
    said = one_error_line(err, "skill-retriever query: error: ")  # the query is an argument, as -k is
    assert said == f"skill-retriever query: error: {json.loads(out)['error']} (see skill-retriever query --help)"
    assert "query is empty" in said


def test_cli_stats(built: Built, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["stats", "--index-dir", str(built.path), "--json"]) == 0
    out, _ = capsys.readouterr()
    status = json.loads(out)
    assert status["nodes"] == len(ingest(sample_catalogue_path()).nodes)
    # The sample is a component catalogue whose edges join items alike: the index suggests
    # score fusion and the smart route, and says why.
    assert status["defaults"]["corpus"] == "catalogue"
    assert status["defaults"]["settings"] == {"fusion": "scores", "clause_coverage": 0.5, "default_route": "smart"}
    assert main(["stats", "--index-dir", str(built.path)]) == 0
    out, _ = capsys.readouterr()
    assert "defaults: catalogue:" in out and "fusion by scores" in out
    assert "the smart route for every query" in out and "median cosine" in out
    missing = tmp_path / "no-index-here"
    assert main(["stats", "--index-dir", str(missing)]) != 0
    _, err = capsys.readouterr()
    assert "no index at" in one_error_line(err)
    assert not missing.exists()  # stats never creates an index


def test_cli_index_missing_source(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc = main(["index", "/nonexistent", "--index-dir", str(tmp_path / "ix")])
    _, err = capsys.readouterr()
    assert rc != 0
    assert "/nonexistent does not exist" in one_error_line(err)
    assert not (tmp_path / "ix").exists()  # nothing created for a source that is not there
    rc = main(["index", "/nonexistent"])  # exactly as a user would type it
    _, err = capsys.readouterr()
    assert rc != 0 and "does not exist" in one_error_line(err)
