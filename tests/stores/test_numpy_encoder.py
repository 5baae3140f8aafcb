"""A query is embedded by NumPy (`stores.numpy_encoder`) with sentence-transformers'
vectors, without importing torch; documents, and models of another shape, still go
through sentence-transformers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from skill_retriever.stores.embedder import (
    SMALL_CALL,
    SentenceTransformerEmbedder,
    bundled_model_path,
)
from skill_retriever.stores.numpy_encoder import numpy_encoder_for

pytestmark = pytest.mark.slow

TEXTS = [
    "add a postgres migration check to CI",
    "",
    "   padded with spaces and a line break\n",
    "Akinoshū café naïve ＦＵＬＬＷＩＤＴＨ İstanbul 東京 straße",
    "x" * 3000,  # one word, thousands of word pieces
    "deploy the service " * 200,  # past the 256-token limit: cut as sentence-transformers cuts
    "The lab manager wants our serial dilution automated on the OT-2: 8 samples, 1:2 dilutions.",
]


def _torch_vectors(embedder: SentenceTransformerEmbedder, texts: list[str]) -> np.ndarray:
    """Each text alone through sentence-transformers, as a query went before."""
    model = embedder._load()
    return np.stack(
        [model.encode([t], normalize_embeddings=True, convert_to_numpy=True)[0] for t in texts]  # type: ignore[attr-defined]
    )


def test_a_query_gets_sentence_transformers_vector(real_embedder: SentenceTransformerEmbedder) -> None:
    ours = np.stack([real_embedder.embed([t])[0] for t in TEXTS])
    assert ours.dtype == np.float32 and ours.shape == (len(TEXTS), 384)
    theirs = _torch_vectors(real_embedder, TEXTS)
    assert np.abs(ours - theirs).max() < 1e-6
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-6)
    assert real_embedder.embed([]).shape == (0, 384)


def test_a_batch_of_documents_goes_through_sentence_transformers(
    real_embedder: SentenceTransformerEmbedder,
) -> None:
    batch = [f"document {i}: {TEXTS[i % len(TEXTS)]}" for i in range(SMALL_CALL + 3)]
    model = real_embedder._load()
    expected = model.encode(batch, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)  # type: ignore[attr-defined]
    assert np.array_equal(real_embedder.embed(batch), expected)


def test_a_query_imports_no_torch() -> None:
    """The cold start this is for: a new process embeds a query without torch."""
    code = (
        "import sys\n"
        "from skill_retriever.stores.embedder import SentenceTransformerEmbedder\n"
        "e = SentenceTransformerEmbedder()\n"
        "v = e.embed(['add a postgres migration check to CI'])\n"
        "print(v.shape, e.dim, 'torch' in sys.modules, 'sentence_transformers' in sys.modules,\n"
        "      'safetensors' in sys.modules)\n"  # its load_file held the GIL (stores.safetensors_read)
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["(1,", "384)", "384", "False", "False", "False"]


def _model_copy(tmp_path: Path) -> Path:
    """The bundled model's folder, copied (its weights linked), to edit its configs."""
    source, copy = Path(bundled_model_path()), tmp_path / "model"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("model.safetensors", "*.md"))
    (copy / "model.safetensors").symlink_to(source / "model.safetensors")
    return copy


def _edit(path: Path, **changes: object) -> None:
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}), encoding="utf-8")


@pytest.mark.parametrize(
    ("file", "changes"),
    [
        ("1_Pooling/config.json", {"pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True}),
        ("config.json", {"hidden_act": "gelu_new"}),
        ("config.json", {"model_type": "roberta"}),
        ("config.json", {"position_embedding_type": "relative_key"}),
        ("sentence_bert_config.json", {"do_lower_case": True}),
    ],
)
def test_a_model_of_another_shape_is_left_to_sentence_transformers(
    tmp_path: Path, file: str, changes: dict[str, object]
) -> None:
    folder = _model_copy(tmp_path)
    assert numpy_encoder_for(str(folder), None) is not None  # the copy as it is: taken
    _edit(folder / file, **changes)
    assert numpy_encoder_for(str(folder), None) is None


def test_a_folder_without_the_files_is_left_to_sentence_transformers(tmp_path: Path) -> None:
    folder = _model_copy(tmp_path)
    (folder / "tokenizer.json").unlink()
    assert numpy_encoder_for(str(folder), None) is None
    assert numpy_encoder_for(str(tmp_path / "nowhere"), None) is None
    modules = folder / "modules.json"
    modules.write_text("not json", encoding="utf-8")
    assert numpy_encoder_for(str(folder), None) is None


def test_max_seq_length_cuts_the_query_where_sentence_transformers_does(tmp_path: Path) -> None:
    short = SentenceTransformerEmbedder(max_seq_length=16)
    text = "deploy the service to production and check every health endpoint twice " * 3
    ours = short.embed([text])[0]
    assert np.abs(ours - _torch_vectors(short, [text])[0]).max() < 1e-6
    full = SentenceTransformerEmbedder().embed([text])[0]
    assert np.abs(ours - full).max() > 1e-3  # the cut changed the vector: it was applied


def test_a_query_runs_blas_on_one_thread_and_gives_the_setting_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On 2 busy cores BLAS's pool made a query 2-4x slower (`numpy_encoder._BlasLimit`)."""
    from threadpoolctl import threadpool_info, threadpool_limits

    encoder = numpy_encoder_for(bundled_model_path(), None)
    assert encoder is not None
    encoder.encode("every library it uses loaded")
    seen: list[set[int]] = []
    inner = encoder._encode

    def spying(text: str) -> np.ndarray:
        seen.append({lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"})
        return inner(text)

    monkeypatch.setattr(encoder, "_encode", spying)
    with threadpool_limits(limits=2, user_api="blas"):
        encoder.encode("add a postgres migration check to CI")
        after = {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}
    assert seen == [{1}] and after == {2}


def test_the_bench_commands_compare_both_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commands the README's figures come from: the same top 10 either way here too."""
    from tiny_graph import tiny_edges, tiny_nodes

    from skill_retriever.bench import embed_threads, query_embedding
    from skill_retriever.stores.index import Index

    with Index.open(tmp_path / "ix", embedder=SentenceTransformerEmbedder(), create=True) as index:
        index.add(tiny_nodes(), tiny_edges())
    queries = tmp_path / "q.jsonl"
    queries.write_text("\n".join(json.dumps({"query": t}) for t in TEXTS), encoding="utf-8")
    assert query_embedding.main([str(queries), "--index", str(tmp_path / "ix")]) == 0
    out = capsys.readouterr().out
    n = sum(1 for t in TEXTS if t.strip())  # the empty one is left out: a search refuses it
    assert f"{n} queries: largest component difference" in out
    assert f"the same top 10 and 'nothing fits' on {n} of {n} queries" in out
    assert embed_threads.main(["--queries", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == [
        "numpy, BLAS on one thread (the default)",
        "numpy, BLAS's default pool",
        "sentence-transformers, torch threads 1",
    ]
