"""A result is reused only while everything that decides its figures is the same: besides
the options, data and code, the versions of the packages that compute them, the embedding
model's files and the cross-encoder the "+rerank" rows rerank with.

Found by a walkthrough: the inputs held the options, a data stamp and a hash of the
package's own sources, so a run after ``pip install -U sentence-transformers`` (or torch,
chromadb, rank-bm25...), after the model folder named by ``--embedder`` got other weights,
or after a cross-encoder was put in the Hugging Face cache (the "+rerank" rows then rerank
with it), reused figures measured with the old ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_sections import battery_section

from skill_retriever.bench import reuse, runner
from skill_retriever.bench.sections import Section
from skill_retriever.cli import main
from skill_retriever.stores.embedder import DEFAULT_MODEL


@pytest.fixture(autouse=True)
def _fresh_stamps() -> Any:
    reuse.package_versions.cache_clear()
    reuse.model_stamp.cache_clear()
    yield
    reuse.package_versions.cache_clear()
    reuse.model_stamp.cache_clear()


def test_the_packages_that_compute_figures_are_named_with_their_versions() -> None:
    from importlib.metadata import version

    found = reuse.package_versions()
    for name in ("sentence-transformers", "torch", "transformers", "chromadb", "tiktoken", "numpy", "scipy",
                 "rank-bm25", "snowballstemmer", "networkx", "langchain-community", "spacy", "PyYAML"):
        assert found[name] == version(name)


def test_a_missing_package_is_said_as_missing() -> None:
    assert reuse.package_versions(("no-such-distribution-x",)) == {"no-such-distribution-x": None}


def test_the_model_stamp_follows_its_weight_and_config_files(tmp_path: Path) -> None:
    model = tmp_path / "model"
    (model / "1_Pooling").mkdir(parents=True)
    (model / "config.json").write_text("{}")
    (model / "model.safetensors").write_bytes(b"x" * 10)
    (model / "1_Pooling" / "config.json").write_text("{}")
    (model / "README.md").write_text("words")
    one = reuse.model_stamp(str(model))
    assert one["name"] == str(model) and one["files"]
    (model / "README.md").write_text("other words")  # not a weight or config file
    reuse.model_stamp.cache_clear()
    assert reuse.model_stamp(str(model)) == one
    (model / "model.safetensors").write_bytes(b"x" * 11)  # other weights
    reuse.model_stamp.cache_clear()
    assert reuse.model_stamp(str(model)) != one
    (model / "model.safetensors").write_bytes(b"x" * 10)
    (model / "1_Pooling" / "config.json").write_text('{"a": 1}')  # another pooling
    reuse.model_stamp.cache_clear()
    assert reuse.model_stamp(str(model)) != one


def test_the_bundled_model_is_stamped_from_its_folder() -> None:
    stamp = reuse.model_stamp(DEFAULT_MODEL)
    assert stamp["name"] == DEFAULT_MODEL and stamp["files"]


def test_a_model_found_nowhere_is_stamped_by_name_only() -> None:
    assert reuse.model_stamp("nobody/no-such-model-xyz") == {"name": "nobody/no-such-model-xyz", "files": None}


@pytest.mark.slow
def test_a_result_is_measured_again_when_a_package_the_model_or_the_cross_encoder_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(runner, "SECTIONS", (Section("battery", battery_section(calls)),))
    out = tmp_path / "out"
    command = ["benchmark", "--only", "battery", "--out", str(out), "--data", str(tmp_path / "none")]
    assert main(command) == 0 and main(command) == 0
    assert calls == ["battery"]  # the second run reused it
    inputs = json.loads((out / "results" / "battery.json").read_text())["inputs"]
    assert inputs["packages"]["torch"] and inputs["model"]["name"] == DEFAULT_MODEL and "cross_encoder" in inputs

    real = reuse.package_versions()
    monkeypatch.setattr(reuse, "package_versions", lambda: {**real, "torch": "0.0.1"})
    assert main(command) == 0
    assert calls == ["battery"] * 2  # another torch
    assert main(command) == 0
    assert calls == ["battery"] * 2  # the same again: reused

    bundled = reuse.model_stamp(DEFAULT_MODEL)
    monkeypatch.setattr(reuse, "model_stamp", lambda ref: {**bundled, "files": "other weights"})
    assert main(command) == 0
    assert calls == ["battery"] * 3  # other weights

    monkeypatch.setattr(reuse, "cross_encoder_stamp", lambda: {"name": "ce", "files": "x"})
    assert main(command) == 0
    assert calls == ["battery"] * 4  # a cross-encoder now loads: the +rerank rows change
