"""Rerankers: reorder the top candidates by a finer relevance score.

``CrossEncoderReranker`` wraps ``sentence_transformers.CrossEncoder`` for any model name or
path; :func:`default_reranker` uses one when it loads offline and otherwise reranks
nothing. No PyPI package ships cross-encoder weights. :class:`EmbeddingReranker` rescores
each candidate's full text (in windows, best window wins) with the bundled embedding
model: an explicit choice, not a default. The output of a search names the reranker that
ran.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.embedder import Embedder
from skill_retriever.stores.hub_offline import hub_offline
from skill_retriever.stores.quiet_loading import quiet_model_loading

log = logging.getLogger("skill_retriever")

DEFAULT_CROSS_ENCODER = "cross-encoder/ms-marco-MiniLM-L6-v2"
#: A ``namespace/name`` that huggingface_hub certainly accepts (each part at most 96 of
#: these characters, a letter, digit or ``_`` at both ends; `cross_encoder_cached` also
#: refuses ``--``, ``..`` and ``.git``): only such a name is answered without its lookup,
#: so a malformed one still gets huggingface_hub's own error.
_PLAIN_REPO_ID = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?/[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?")


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, text) pairs; higher is more relevant. Never adds or drops items."""

    @property
    def name(self) -> str: ...

    def score(self, query: str, texts: Sequence[str]) -> list[float]: ...


class CrossEncoderReranker:
    """A sentence-transformers CrossEncoder (any name in the local cache, or a path)."""

    def __init__(self, model: str = DEFAULT_CROSS_ENCODER, *, device: str = "cpu", max_length: int = 512) -> None:
        # huggingface_hub reads HF_HUB_OFFLINE once, at its import; when something imported
        # it earlier the variable alone does nothing, so say it per call too.
        offline = hub_offline()
        try:
            with quiet_model_loading():
                from sentence_transformers import CrossEncoder

                model_object = CrossEncoder(model, device=device, max_length=max_length, local_files_only=offline)
        except (OSError, ValueError) as exc:  # ValueError: a folder that holds no model
            raise _load_error(model, exc) from exc
        self._name = model
        self._model = model_object

    @property
    def name(self) -> str:
        return f"cross-encoder:{self._name}"

    def score(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        scores = self._model.predict([(query, t) for t in texts], show_progress_bar=False)
        return [float(s) for s in np.asarray(scores).reshape(len(texts), -1)[:, 0]]


def _load_error(model: str, exc: Exception) -> ConfigError:
    """Why the cross-encoder ``model`` did not load, in one line, and what to pass instead
    (huggingface_hub's own message, offline, says to check the internet connection)."""
    use = ("Use a local folder path or a model already in the Hugging Face cache, "
           "or reranker=None (or leave reranker out) for no cross-encoder.")
    why = " ".join(str(exc).split()).rstrip(".")  # the library's message spans lines
    if Path(model).expanduser().is_dir():
        return ConfigError(f"cross-encoder {model!r} is a folder, but not a cross-encoder "
                           f"sentence-transformers can load ({why}). {use}")
    return ConfigError(f"cannot load cross-encoder {model!r} offline: {why}. {use}")


_WORD = re.compile(r"\S+")


def text_windows(text: str, words: int = 180, max_windows: int = 4) -> list[str]:
    """Split a long text into word windows a small encoder can read (256 word pieces)."""
    tokens = _WORD.findall(text)
    if len(tokens) <= words:
        return [text]
    step = words
    return [" ".join(tokens[i : i + words]) for i in range(0, len(tokens), step)][:max_windows]


class EmbeddingReranker:
    """Rescores candidates by cosine between the query and the best window of their full
    text, with the given (bundled) embedding model: the fallback when no cross-encoder
    can be loaded offline. It sees past the 256 word pieces that the index embedding of a
    long item was cut at."""

    def __init__(self, embedder: Embedder, *, window_words: int = 180, max_windows: int = 4) -> None:
        self._embedder = embedder
        self._words = window_words
        self._max = max_windows

    @property
    def name(self) -> str:
        return f"embedding:{self._embedder.name}"

    def score(
        self,
        query: str,
        texts: Sequence[str],
        *,
        stored: Sequence[Any] | None = None,
        query_vector: Sequence[float] | np.ndarray[Any, Any] | None = None,
    ) -> list[float]:
        """Best-window cosine per text. ``stored[i]``, the index's vector of a text that
        fits one window, and ``query_vector`` (the query's one embedding) are reused, so
        only long texts cost model calls."""
        if not texts:
            return []
        windows: list[str] = []
        owner: list[int] = []
        best = np.full(len(texts), -1.0)
        q = None if query_vector is None else np.asarray(query_vector, dtype=np.float32)
        for i, t in enumerate(texts):
            parts = text_windows(t, self._words, self._max)
            if len(parts) == 1 and stored is not None and stored[i] is not None and q is not None:
                best[i] = float(np.asarray(stored[i], dtype=np.float32) @ q)
                continue
            windows.extend(parts)
            owner.extend([i] * len(parts))
        if windows:
            vecs = self._embedder.embed(windows if q is not None else [query, *windows])
            if q is None:
                q, vecs = vecs[0], vecs[1:]
            np.maximum.at(best, np.asarray(owner), vecs @ q)
        return [float(s) for s in best]


def cross_encoder_cached(model: str) -> bool:
    """Whether ``model`` can load offline: a local folder, or a name whose files are in the
    Hugging Face cache. Cheap: it imports neither torch nor sentence-transformers."""
    if Path(model).expanduser().is_dir():
        return True
    if "/" not in model or model.startswith(("/", ".", "~")):
        return False
    from huggingface_hub import constants

    # No folder for the model in the cache: not cached, as the lookup below would answer,
    # without importing the lookup's module (`file_download`: 60-150 ms of a cold query
    # on 2 cores, where no cross-encoder is cached; `python -X importtime`).
    folder = constants.REPO_ID_SEPARATOR.join(["models", *model.split("/")])  # as file_download names it
    plain = _PLAIN_REPO_ID.fullmatch(model) and not ("--" in model or ".." in model or model.endswith(".git"))
    if plain and not os.path.isdir(os.path.join(constants.HF_HUB_CACHE, folder)):
        return False
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(model, "config.json")
    return isinstance(found, str)


def default_reranker(*, model: str | None = DEFAULT_CROSS_ENCODER) -> Reranker | None:
    """The cross-encoder ``model`` when it loads offline, else no reranker (one log line).

    There is no silent fallback: the embedding reranker (:class:`EmbeddingReranker`) costs
    up to a second a query (712 ms p50 on the skills set against 9 ms without it: the
    benchmark's "full+rerank" row at commit 1fe7ce1) and moves nDCG@10 on the eight skill
    and tool sets by -5.8 to +0.4, lower on six (README, "Models, offline"), so it runs
    only when asked for. A search's ``reranker`` field says what ran.
    """
    if not model:
        return None
    if not cross_encoder_cached(model):
        log.info("[skill_retriever][rerank] cross-encoder %r is not available offline; no reranking", model)
        return None
    try:
        return CrossEncoderReranker(model)
    except (OSError, ValueError) as exc:
        log.info(
            "[skill_retriever][rerank] cross-encoder %r did not load (%s: %s); no reranking",
            model,
            type(exc).__name__,
            exc,
        )
        return None
