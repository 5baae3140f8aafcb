"""CrossEncoderReranker on a cross-encoder built locally from the bundled MiniLM weights
(its scores mean nothing; every invariant of the rerank phase must still hold), and the
default reranker's offline fallback."""

from __future__ import annotations

import logging
import math
from pathlib import Path

import pytest
from tiny_graph import NOW

from skill_retriever.config import RetrievalConfig
from skill_retriever.exceptions import ConfigError
from skill_retriever.rerank import (
    CrossEncoderReranker,
    cross_encoder_cached,
    default_reranker,
)
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import bundled_model_path
from skill_retriever.stores.index import Index

pytestmark = pytest.mark.slow

QUERY = "deploy checkout-api after INC-1043 postgres migrations"


@pytest.fixture(scope="module")
def cross_encoder_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from sentence_transformers import CrossEncoder

    folder = tmp_path_factory.mktemp("cross-encoder")
    CrossEncoder(bundled_model_path(), num_labels=1).save(str(folder))
    return folder


@pytest.fixture(scope="module")
def cross_encoder(cross_encoder_dir: Path) -> CrossEncoderReranker:
    return CrossEncoderReranker(str(cross_encoder_dir))


def test_scores_are_finite_one_per_text(
    cross_encoder: CrossEncoderReranker, cross_encoder_dir: Path
) -> None:
    texts = [
        "Write postgres schema migrations with alembic.",
        "Share test setup with pytest fixtures.",
        "x",
    ]
    scores = cross_encoder.score("postgres migrations", texts)
    assert len(scores) == len(texts)
    assert all(type(s) is float and math.isfinite(s) for s in scores)
    assert len(set(scores)) == len(scores)  # it reads the texts
    assert cross_encoder.score("postgres migrations", texts) == scores  # deterministic
    assert cross_encoder.score("postgres migrations", []) == []
    assert cross_encoder.name == f"cross-encoder:{cross_encoder_dir}"


def test_rerank_invariants_through_the_retriever(
    shared_tiny_index: Index, cross_encoder: CrossEncoderReranker
) -> None:
    config = RetrievalConfig(now=NOW)
    n = 6
    plain = Retriever(shared_tiny_index, config, reranker=None, cache_size=0).search(QUERY, k=n)
    reranked = Retriever(shared_tiny_index, config, reranker=cross_encoder, cache_size=0).search(
        QUERY, k=n, rerank_top_n=n
    )
    assert reranked.reranker == cross_encoder.name
    assert reranked.stats["rerank_cross_encoder"]["reranked"] == n
    assert set(reranked.ids) == set(plain.ids) and len(reranked.ids) == n
    assert all(
        isinstance(r.rerank_score, float) and math.isfinite(r.rerank_score)
        for r in reranked.results
    )
    scores = [r.rerank_score for r in reranked.results]
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    # the scores are the reranker's own for each item's text and the search text
    texts = [shared_tiny_index.get(i).embedding_text() for i in reranked.ids]
    assert cross_encoder.score(QUERY, texts) == pytest.approx(scores, abs=1e-5)
    fusion = {r.id: r.fusion_score for r in plain.results}
    assert {r.id: r.fusion_score for r in reranked.results} == fusion
    assert reranked.warnings == []


def test_default_reranker_loads_a_local_cross_encoder(cross_encoder_dir: Path) -> None:
    assert cross_encoder_cached(str(cross_encoder_dir))
    assert isinstance(default_reranker(model=str(cross_encoder_dir)), CrossEncoderReranker)


def test_without_a_cross_encoder_the_default_reranks_nothing(caplog: pytest.LogCaptureFixture) -> None:
    """No silent, slow fallback: the embedding reranker runs only when asked for."""
    missing = "cross-encoder/no-such-model-in-any-cache"
    assert not cross_encoder_cached(missing)
    with caplog.at_level(logging.INFO, logger="skill_retriever"):
        assert default_reranker(model=missing) is None
    ours = [r for r in caplog.records if r.name == "skill_retriever"]
    assert len(ours) == 1 and missing in ours[0].getMessage() and "no reranking" in ours[0].getMessage()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="skill_retriever"):
        assert default_reranker(model=None) is None
    assert not [r for r in caplog.records if r.name == "skill_retriever"]


def test_the_probe_imports_no_model_code() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from skill_retriever.rerank import cross_encoder_cached; "
        "cross_encoder_cached('cross-encoder/ms-marco-MiniLM-L6-v2'); "
        "print(sorted(m for m in ('torch', 'sentence_transformers') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("model", ["cross-encoder/no-such-model-in-any-cache", "/no/such/cross-encoder/folder"])
def test_a_cross_encoder_not_on_disk_is_refused_with_what_to_do(model: str) -> None:
    """Offline, a name in no cache or a missing folder gets one line that names the model
    and what to pass instead, as an embedding model does, not huggingface_hub's advice to
    check the internet connection."""
    with pytest.raises(ConfigError) as caught:
        CrossEncoderReranker(model)
    message = str(caught.value)
    assert f"cannot load cross-encoder {model!r} offline" in message
    assert "local folder" in message and "Hugging Face cache" in message and "reranker=None" in message
    assert "\n" not in message


def test_a_folder_that_holds_no_cross_encoder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a model")
    with pytest.raises(ConfigError, match="is a folder, but not a cross-encoder"):
        CrossEncoderReranker(str(tmp_path))
