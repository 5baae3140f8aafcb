"""A batch of queries (`Retriever.search_many`, calibration's probes) is embedded by NumPy
in one pack (`NumpyEncoder.encode_many`) with sentence-transformers' vectors, and loads no
torch; a call large enough for loading sentence-transformers to pay, and every larger call
once it is loaded, still goes through sentence-transformers."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from skill_retriever.stores import embedder as embedder_module
from skill_retriever.stores import numpy_encoder as numpy_encoder_module
from skill_retriever.stores.embedder import (
    SMALL_CALL,
    SentenceTransformerEmbedder,
    bundled_model_path,
)
from skill_retriever.stores.numpy_encoder import numpy_encoder_for

pytestmark = pytest.mark.slow

QUERIES = [
    "add a postgres migration check to CI",
    "",
    "   padded with spaces and a line break\n",
    "Akinoshū café naïve ＦＵＬＬＷＩＤＴＨ İstanbul 東京 straße",
    "deploy the service " * 200,  # past the 256-token limit: cut as sentence-transformers cuts
    "tanimoto similarity search over SMILES library",
    "The lab manager wants our serial dilution automated on the OT-2: 8 samples, 1:2 dilutions.",
    "review a pull request",
    "x" * 3000,  # one word, thousands of word pieces
    "which skill writes release notes from the git log?",
]


def _torch_batch(real_embedder: SentenceTransformerEmbedder, texts: list[str]) -> np.ndarray:
    """``texts`` as sentence-transformers embeds a batch (padded, on torch)."""
    model = real_embedder._load()
    return np.asarray(
        model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True),  # type: ignore[attr-defined]
        dtype=np.float32,
    )


def test_a_batch_of_queries_gets_sentence_transformers_vectors(real_embedder: SentenceTransformerEmbedder) -> None:
    fresh = SentenceTransformerEmbedder()  # sentence-transformers not loaded in it: NumPy embeds
    ours = fresh.embed(QUERIES)
    assert len(QUERIES) > SMALL_CALL and ours.shape == (len(QUERIES), 384) and ours.dtype == np.float32
    assert np.abs(ours - _torch_batch(real_embedder, QUERIES)).max() < 1e-6
    alone = np.stack([fresh.embed([q])[0] for q in QUERIES])  # a text packed with others: its vector alone
    assert np.abs(ours - alone).max() < 1e-6
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-6)


def test_a_batch_past_one_pack_is_split_and_gets_the_same_vectors(
    real_embedder: SentenceTransformerEmbedder,
) -> None:
    texts = [f"text {i}: " + "deploy the service " * 100 for i in range(20)]  # 20 x 256 word pieces
    encoder = numpy_encoder_for(bundled_model_path(), None)
    assert encoder is not None and encoder.pieces(texts, stop=10**9) > numpy_encoder_module._PACK_TOKENS
    ours = encoder.encode_many(texts)
    assert np.abs(ours - _torch_batch(real_embedder, texts)).max() < 1e-6
    assert np.abs(ours[-1] - encoder.encode(texts[-1])).max() < 1e-6  # the last pack's row
    assert encoder.encode_many([]).shape == (0, 384)


def test_a_batch_of_queries_imports_no_torch() -> None:
    """The slow first `search_many`: 50 queries imported torch (seconds) to save nothing."""
    code = (
        "import json, sys\n"
        "from skill_retriever.stores.embedder import SentenceTransformerEmbedder\n"
        "e = SentenceTransformerEmbedder()\n"
        "v = e.embed([f'query number {i} about deploying a service' for i in range(50)])\n"
        "print(json.dumps([list(v.shape), [m for m in ('torch', 'sentence_transformers') if m in sys.modules]]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == [[50, 384], []]


def test_a_call_where_loading_pays_goes_through_sentence_transformers(
    real_embedder: SentenceTransformerEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedder_module, "LOAD_PAYS_PIECES", 40)
    fresh = SentenceTransformerEmbedder()
    small = [f"query {i}" for i in range(SMALL_CALL + 1)]  # 5 x 4 word pieces: under 40
    assert fresh.embed(small).shape == (len(small), 384) and fresh._model is None
    large = QUERIES[:SMALL_CALL + 2]  # past 40 word pieces: sentence-transformers loads
    assert np.array_equal(fresh.embed(large), _torch_batch(real_embedder, large))
    # Loaded: every larger call goes through it (the faster for a batch), a query's not.
    assert np.array_equal(fresh.embed(small), _torch_batch(real_embedder, small))
    encoder = numpy_encoder_for(bundled_model_path(), None)
    assert encoder is not None
    assert np.array_equal(fresh.embed(small[:1])[0], encoder.encode(small[0]))


def test_word_pieces_are_counted_until_past_the_stop() -> None:
    encoder = numpy_encoder_for(bundled_model_path(), None)
    assert encoder is not None
    texts = ["hello world"] * 200  # [CLS] hello world [SEP]: 4 word pieces each
    assert encoder.pieces(texts, stop=10**9) == 800
    assert 10 < encoder.pieces(texts, stop=10) < 800  # stopped after the first chunk
    assert encoder.pieces(["deploy the service " * 200], stop=10**9) == 256  # cut to what the model reads


def test_load_seconds_counts_each_load_once() -> None:
    fresh = SentenceTransformerEmbedder()
    assert fresh.load_seconds == 0.0
    fresh.embed(["one query"])
    loaded = fresh.load_seconds
    assert loaded > 0.0
    fresh.embed(QUERIES)
    assert fresh.load_seconds == loaded  # NumPy again: nothing more loaded


def test_many_small_batches_add_up_to_a_job_whose_load_pays(
    real_embedder: SentenceTransformerEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index written in batches each under the threshold (a tool set's short texts) is
    still a large job: past the threshold in all, sentence-transformers takes over."""
    monkeypatch.setattr(embedder_module, "LOAD_PAYS_PIECES", 40)
    fresh = SentenceTransformerEmbedder()
    batch = [f"query {i}" for i in range(SMALL_CALL + 1)]  # 5 x 4 word pieces each call
    fresh.embed(batch)
    fresh.embed(batch)
    assert fresh._model is None  # 40 word pieces so far: not past it
    assert np.array_equal(fresh.embed(batch), _torch_batch(real_embedder, batch))
    assert fresh._model is not None
