"""A query embedded by NumPy: the bundled MiniLM's forward pass without importing torch.

A new process that answers one query (``skill-retriever query``, a LangGraph or MCP
server's first call) spent about 7 s importing sentence-transformers (torch,
transformers: ``python -X importtime -c "import sentence_transformers"``) to embed a
dozen words. A query is one short text, and the model is small (MiniLM-L6: six layers
of 384), so `NumpyEncoder` runs the same computation with NumPy on the model folder's
own weights (``model.safetensors``) and tokenizer (``tokenizer.json``, the Rust
`tokenizers` that sentence-transformers uses too): the BERT encoder, mean pooling over
the tokens, unit length. Loading it takes about 0.3 s.

Its vectors are sentence-transformers' to float32 rounding: ``python -m
skill_retriever.bench.query_embedding`` on 1,000 metatool queries prints a largest
component difference of 2.16e-07, and a search ranks their top 10 as sentence-transformers'
vectors do (README, Cold start). tests/stores/test_numpy_encoder.py checks texts past the
token limit, accents, full-width letters and empty ones against the real model.

Only a folder of exactly this shape is taken (`numpy_encoder_for`): a BERT model
(absolute positions, GELU), a sentence-transformers pipeline of Transformer, mean
Pooling and Normalize, its weights in ``model.safetensors`` and a ``tokenizer.json``.
Anything else, and a batch large enough that loading sentence-transformers pays
(`embedder.LOAD_PAYS_PIECES`), is embedded by sentence-transformers.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from skill_retriever.stores.safetensors_read import read_safetensors

log = logging.getLogger("skill_retriever")

__all__ = ["NumpyEncoder", "numpy_encoder_for"]

#: Word pieces per pack (`NumpyEncoder.encode_many`): a pack's widest step holds
#: 4 x 384 floats per word piece, so 4,096 of them take 25 MB.
_PACK_TOKENS = 4096

_PIPELINE = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
]
_MEAN_ONLY = {
    "pooling_mode_cls_token": False,
    "pooling_mode_mean_tokens": True,
    "pooling_mode_max_tokens": False,
    "pooling_mode_mean_sqrt_len_tokens": False,
}


def numpy_encoder_for(folder: str, max_seq_length: int | None) -> NumpyEncoder | None:
    """A `NumpyEncoder` for the model in ``folder``, or None when the folder is not one it
    computes exactly as sentence-transformers does (see the module) or cannot be read:
    sentence-transformers embeds then. ``max_seq_length`` overrides the folder's own."""
    root = Path(folder)
    try:
        modules = json.loads((root / "modules.json").read_text(encoding="utf-8"))
        config = json.loads((root / "config.json").read_text(encoding="utf-8"))
        sbert = json.loads((root / "sentence_bert_config.json").read_text(encoding="utf-8"))
        pooling_dir = next(m["path"] for m in modules if m["type"].endswith(".Pooling"))
        pooling = json.loads((root / pooling_dir / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError, StopIteration):
        return None  # no such file, or not sentence-transformers' layout: not this model
    shaped = (
        [m.get("type") for m in modules] == _PIPELINE
        and modules[0].get("path") in ("", ".")
        and config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and not sbert.get("do_lower_case")
        and all(pooling.get(k, False) == v for k, v in _MEAN_ONLY.items())
        and (root / "model.safetensors").is_file()
        and (root / "tokenizer.json").is_file()
    )
    if not shaped:
        return None
    try:
        return NumpyEncoder(root, config, max_seq_length or int(sbert.get("max_seq_length") or 512))
    except (OSError, ValueError, KeyError) as exc:  # a damaged weights or tokenizer file
        log.debug("%s: no NumPy encoder (%s); sentence-transformers embeds", folder, exc)
        return None


class NumpyEncoder:
    """The BERT encoder, mean pooling and normalisation of a sentence-transformers model,
    in NumPy (float32, as the weights are stored), on one BLAS thread.

    Args:
        root: The model folder.
        config: Its ``config.json``.
        max_tokens: Word pieces kept of a text, ``[CLS]`` and ``[SEP]`` included (the
            model's ``max_seq_length``): the rest is cut, as sentence-transformers cuts it.
    """

    def __init__(self, root: Path, config: dict[str, Any], max_tokens: int) -> None:
        from scipy.special import erf  # GELU as BERT defines it (exact, not tanh)
        from tokenizers import Tokenizer

        self._erf = erf  # imported here, before `_BlasLimit` first lists the BLAS libraries

        # not safetensors' load_file: it holds the GIL for the whole read (`safetensors_read`)
        self._w: dict[str, NDArray[np.float32]] = read_safetensors(root / "model.safetensors")
        self._layers = int(config["num_hidden_layers"])
        self._heads = int(config["num_attention_heads"])
        self._eps = np.float32(config["layer_norm_eps"])
        self.dim = int(config["hidden_size"])
        self._tokenizer = Tokenizer.from_file(str(root / "tokenizer.json"))
        self._tokenizer.enable_truncation(min(max_tokens, int(config["max_position_embeddings"])))
        self._tokenizer.no_padding()

    def pieces(self, texts: Sequence[str], stop: int) -> int:
        """The word pieces the model reads of ``texts`` (each cut to its limit), counted
        until they pass ``stop``: a large batch of documents is not tokenized whole only
        to learn that it is large."""
        total = 0
        for start in range(0, len(texts), 64):
            chunk = self._tokenizer.encode_batch([t.strip() for t in texts[start : start + 64]])
            total += sum(len(t.ids) for t in chunk)
            if total > stop:
                break
        return total

    def encode(self, text: str) -> NDArray[np.float32]:
        """``text``'s unit vector (sentence-transformers strips a text before tokenizing it)."""
        with _one_blas_thread():
            return self._encode(text)

    def _encode(self, text: str) -> NDArray[np.float32]:
        tokens = self._tokenizer.encode(text.strip())
        vector: NDArray[np.float32] = self._encode_pack([(tokens.ids, tokens.type_ids)])[0]
        return vector

    def encode_many(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """The unit vectors of ``texts`` (rows), a few hundred word pieces at a time.

        The texts' word pieces are packed end to end, with no padding: every step but
        attention works on each word piece alone, so one matrix product serves the whole
        pack, and attention runs text by text. Each row is the vector the text gets alone,
        to float32 rounding (the product's summation order differs with its shape)."""
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        encoded = self._tokenizer.encode_batch([t.strip() for t in texts])
        out = np.empty((len(texts), self.dim), np.float32)
        with _one_blas_thread():
            start = 0
            while start < len(encoded):
                end, tokens = start, 0
                while end < len(encoded) and (end == start or tokens + len(encoded[end].ids) <= _PACK_TOKENS):
                    tokens += len(encoded[end].ids)
                    end += 1
                out[start:end] = self._encode_pack([(e.ids, e.type_ids) for e in encoded[start:end]])
                start = end
        return out

    def _encode_pack(self, texts: list[tuple[list[int], list[int]]]) -> NDArray[np.float32]:
        lengths = np.asarray([len(ids) for ids, _ in texts])
        bounds = np.concatenate(([0], np.cumsum(lengths)))
        ids = np.concatenate([ids for ids, _ in texts])
        types = np.concatenate([types for _, types in texts])
        positions = np.concatenate([np.arange(n) for n in lengths])
        w = self._w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][positions]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        spans = list(zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True))
        for i in range(self._layers):
            x = self._layer(x, f"encoder.layer.{i}.", spans)
        v = (np.add.reduceat(x, bounds[:-1], axis=0) / lengths[:, None]).astype(np.float32)
        unit: NDArray[np.float32] = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), np.float32(1e-12))
        return unit

    def _layer(self, x: NDArray[np.float32], p: str, spans: list[tuple[int, int]]) -> NDArray[np.float32]:
        """One transformer layer over a pack: self-attention within each text's span of
        rows (no padding to mask), then the feed-forward block, each with its residual
        and LayerNorm."""
        h = self._heads
        d = x.shape[1] // h
        q, k, v = (self._linear(x, f"{p}attention.self.{m}").reshape(len(x), h, d) for m in ("query", "key", "value"))
        attended = np.empty_like(x)
        scale = np.sqrt(np.float32(d))
        for a, b in spans:
            qs, ks, vs = (t[a:b].transpose(1, 0, 2) for t in (q, k, v))
            scores = qs @ ks.transpose(0, 2, 1) / scale
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            attended[a:b] = (scores @ vs).transpose(1, 0, 2).reshape(b - a, h * d)
        x = self._norm(self._linear(attended, f"{p}attention.output.dense") + x, f"{p}attention.output.LayerNorm")
        inner = self._linear(x, f"{p}intermediate.dense")
        inner = 0.5 * inner * (1.0 + self._erf(inner / np.float32(np.sqrt(2.0))).astype(np.float32))
        return self._norm(self._linear(inner, f"{p}output.dense") + x, f"{p}output.LayerNorm")

    def _linear(self, x: NDArray[np.float32], name: str) -> NDArray[np.float32]:
        return x @ self._w[f"{name}.weight"].T + self._w[f"{name}.bias"]

    def _norm(self, x: NDArray[np.float32], name: str) -> NDArray[np.float32]:
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        out: NDArray[np.float32] = (x - mean) / np.sqrt(var + self._eps)
        return out * self._w[f"{name}.weight"] + self._w[f"{name}.bias"]


class _BlasLimit:
    """BLAS on one thread while any query is being encoded, the process's own setting
    restored after the last: on 2 busy cores a query took 30.9 ms on one BLAS thread and
    114.5 ms on OpenBLAS's default pool (``python -m skill_retriever.bench.embed_threads``
    beside two busy loops; README, Threading), the threads spin-waiting on each other over
    matrices this small, as torch's did. Counted, so that concurrent queries restore the setting once, at the end."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._limiter: Any = None
        self._controller: Any = None  # the BLAS libraries loaded, found once (a few ms)

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        from threadpoolctl import ThreadpoolController

        with self._lock:
            if self._depth == 0:
                self._controller = self._controller or ThreadpoolController()
                self._limiter = self._controller.limit(limits=1, user_api="blas")
            self._depth += 1
        try:
            yield
        finally:
            with self._lock:
                self._depth -= 1
                if self._depth == 0:
                    self._limiter.restore_original_limits()


_one_blas_thread = _BlasLimit()
