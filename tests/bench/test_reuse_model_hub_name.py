"""A model named as the Hub names it without its organisation (``--embedder
all-MiniLM-L6-v2``) is stamped from the files sentence-transformers loads for it:
``sentence-transformers/all-MiniLM-L6-v2`` in the Hugging Face cache. `reuse.model_stamp`
looked for a folder named ``all-MiniLM-L6-v2`` only, found none and stamped the name
alone, so a run after that model's weights changed in the cache reused figures measured
with the old ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from huggingface_hub import constants

from skill_retriever.bench import reuse


@pytest.fixture(autouse=True)
def _fresh_stamps() -> Any:
    reuse.model_stamp.cache_clear()
    yield
    reuse.model_stamp.cache_clear()


def _snapshot(cache: Path, model: str) -> Path:
    """A model's folder in the cache as huggingface_hub writes one (refs/main names it)."""
    repo = cache / ("models--" + model.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("0" * 40)
    snap = repo / "snapshots" / ("0" * 40)
    (snap / "1_Pooling").mkdir(parents=True)
    (snap / "config.json").write_text("{}")
    (snap / "model.safetensors").write_bytes(b"x" * 10)
    (snap / "1_Pooling" / "config.json").write_text("{}")
    return snap


@pytest.mark.parametrize("cached_as", ["sentence-transformers/tiny-test-model", "tiny-test-model"])
def test_a_name_without_organisation_is_stamped_from_the_folder_sentence_transformers_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cached_as: str
) -> None:
    """sentence-transformers prefixes its organisation to a name without one (a few, such
    as ``bert-base-uncased``, it loads as they are)."""
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    snap = _snapshot(tmp_path, cached_as)
    stamp = reuse.model_stamp("tiny-test-model")
    assert stamp["name"] == "tiny-test-model"
    assert stamp["files"] is not None and stamp["files"] == reuse.model_stamp(str(snap))["files"]
    (snap / "model.safetensors").write_bytes(b"x" * 11)  # other weights in the cache
    reuse.model_stamp.cache_clear()
    assert reuse.model_stamp("tiny-test-model")["files"] != stamp["files"]


def test_the_organisations_copy_is_the_one_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    theirs = _snapshot(tmp_path, "sentence-transformers/tiny-test-model")
    (_snapshot(tmp_path, "tiny-test-model") / "model.safetensors").write_bytes(b"y" * 99)
    assert reuse.model_stamp("tiny-test-model")["files"] == reuse.model_stamp(str(theirs))["files"]


def test_a_name_cached_nowhere_is_still_stamped_by_name_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    assert reuse.model_stamp("tiny-test-model") == {"name": "tiny-test-model", "files": None}
