"""``scale`` embeds its 100k texts with the bundled MiniLM whatever ``--embedder`` says (the
README's scale figures, and the dense floor they are compared with, are the bundled
model's); its result and its reuse inputs now say that model.

Found by a walkthrough: its inputs named ``--embedder``'s model, so a run with another
``--embedder`` measured the scale section again (an hour of the same work), and its result
said ``"embedder": <that model>`` though the bundled one had embedded every text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.bench import million_edges
from skill_retriever.cli import main
from skill_retriever.stores.embedder import DEFAULT_MODEL, bundled_model_path


@pytest.mark.slow
def test_scale_is_reused_under_another_embedder_and_says_the_bundled_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[str] = []
    real = million_edges.run

    def small(n_nodes: int, n_edges: int, n_queries: int, embedder: str, keep: Path | None, **kw: Any) -> Any:
        calls.append(embedder)
        return real(300, 900, 3, "hashing", keep, **kw)  # the section's path, at a size a test affords

    monkeypatch.setattr(million_edges, "run", small)
    out = tmp_path / "out"
    command = ["benchmark", "--only", "scale", "--out", str(out), "--data", str(tmp_path / "none")]
    assert main(command) == 0
    assert calls == ["bundled"]
    other = bundled_model_path()  # another name (a folder) for a model that loads
    capsys.readouterr()
    assert main([*command, "--embedder", other]) == 0
    printed = capsys.readouterr().out
    assert calls == ["bundled"]  # reused: the model it embeds with is the same
    assert "reusing speed/scale" in printed
    result = json.loads((out / "results" / "scale.json").read_text())
    assert result["embedder"] == DEFAULT_MODEL and result["inputs"]["model"]["name"] == DEFAULT_MODEL

    assert main([*command, "--embedder", other, "--fresh"]) == 0
    printed = capsys.readouterr().out
    assert calls == ["bundled"] * 2
    assert f"the bundled {DEFAULT_MODEL}, not --embedder {other}" in printed
    result = json.loads((out / "results" / "scale.json").read_text())
    assert result["embedder"] == DEFAULT_MODEL and result["inputs"]["model"]["name"] == DEFAULT_MODEL
    assert result["inputs"]["options"]["embedder"] == DEFAULT_MODEL
