"""`cross_encoder_cached` answers as huggingface_hub's own lookup (`try_to_load_from_cache`)
does, on real cache folders: it only skips importing that lookup when the cache holds no
folder for the model (tests/test_cold_start.py checks the import is skipped)."""

from __future__ import annotations

from pathlib import Path

import pytest
from huggingface_hub import constants, try_to_load_from_cache
from huggingface_hub.errors import HFValidationError

from skill_retriever.rerank import cross_encoder_cached

MODEL = "cross-encoder/tiny-test-model"


def _snapshot(cache: Path, model: str, files: list[str]) -> None:
    """A cache folder as huggingface_hub writes one: refs/main names a snapshot."""
    repo = cache / ("models--" + model.replace("/", "--"))
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("0" * 40)
    snap = repo / "snapshots" / ("0" * 40)
    snap.mkdir(parents=True)
    for name in files:
        (snap / name).write_text("{}")


@pytest.mark.parametrize(
    ("cached", "expected"),
    [
        ({}, False),  # no folder for the model: the shortcut
        ({MODEL: ["config.json"]}, True),
        ({MODEL: ["tokenizer.json"]}, False),  # a folder, but no config.json in it
        ({"cross-encoder/another-model": ["config.json"]}, False),
    ],
)
def test_the_probe_agrees_with_huggingface_hub(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cached: dict[str, list[str]], expected: bool
) -> None:
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))  # both read it at each call
    for model, files in cached.items():
        _snapshot(tmp_path, model, files)
    assert cross_encoder_cached(MODEL) is expected
    assert isinstance(try_to_load_from_cache(MODEL, "config.json"), str) is expected


@pytest.mark.parametrize("name", ["a/b/c", "bad name/x y", "org/-name", "org/name.git", "org/a--b"])
def test_a_malformed_name_still_gets_huggingface_hubs_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The shortcut answers only names huggingface_hub accepts: any other is refused as before."""
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(HFValidationError):
        cross_encoder_cached(name)
