"""The plots say when a set was a quick subset, as the tables do.

Found by a walkthrough: after `benchmark --quick`, report.md's summary headed the toolret
column "ultratool (quick subset)" and gave no verdict against the goals, but
plots/toolret.png labelled the same bars "ultratool", as if the whole set were measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skill_retriever.bench import plots


def section(name: str, quick: bool, notes: list[str]) -> dict[str, Any]:
    return {"section": "toolret", "family": "toolret", "name": name, "quick": quick, "queries": 30, "notes": notes,
            "methods": {"BM25": {"family": "peer", "scores": {"nDCG@10": 0.5}, "failed": 0},
                        "full": {"family": "pipeline", "scores": {"nDCG@10": 0.6}, "failed": 0}}}


def test_a_quick_subset_is_labelled_so_in_its_plot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, list[str]] = {}
    save = plots._save

    def keep(fig: Any, path: Path, plt: Any) -> Path:
        ax = fig.axes[0]
        seen[path.name] = [ax.get_title(), *(t.get_text() for t in ax.get_legend().get_texts())]
        return save(fig, path, plt)

    monkeypatch.setattr(plots, "_save", keep)
    plots.write_plots(tmp_path, [section("ultratool", True, ["splits test only (500 queries)"]),
                                 section("metatool", False, ["all 30 queries"])])
    assert seen["toolret.png"] == ["toolret: nDCG@10 per method", "ultratool (quick subset)", "metatool"]
    assert (tmp_path / "plots" / "toolret.png").is_file()
