"""A result's reuse inputs hold the options its section reads, not every option of the run:
``--max-queries`` samples the toolret sets only and ``--world-seed`` seeds the battery's and
incidents' world, so neither re-measures another section.

Found by a walkthrough: every result's inputs held all of --quick, --max-queries,
--embedder and --world-seed, so ``--only toolret,multihop --max-queries 20`` after a full
run measured every multihop set again (hours on their full corpora) though none reads the
option, and ``--world-seed 3`` measured startup again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_sections import startup_section

from skill_retriever.bench import reuse, runner
from skill_retriever.bench.sections import Section
from skill_retriever.cli import main


def test_each_section_keeps_only_the_options_it_reads() -> None:
    def of(section: str | None, quick: bool = False) -> dict[str, object]:
        return reuse.options_of(quick, 20, 10, "m", 3, section)

    assert of("toolret") == {"quick": False, "max_queries": 20, "k": 10, "embedder": "m"}
    assert of("toolret", quick=True)["max_queries"] is None  # --quick samples its own number
    assert of("multihop") == of("skills") == {"quick": False, "k": 10, "embedder": "m"}
    assert of("battery") == of("incidents") == {"quick": False, "k": 10, "embedder": "m", "world_seed": 3}
    assert of("startup") == of("scale") == {"embedder": "m"}
    assert of(None) == {"quick": False, "max_queries": 20, "k": 10, "embedder": "m", "world_seed": 3}


@pytest.mark.slow
def test_an_option_a_section_does_not_read_leaves_its_result_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(runner, "SECTIONS", (Section("startup", startup_section(calls)),))
    out = tmp_path / "out"
    command = ["benchmark", "--only", "startup", "--out", str(out), "--data", str(tmp_path / "none")]
    assert main(command) == 0
    assert main([*command, "--world-seed", "3"]) == 0
    assert main([*command, "--max-queries", "20"]) == 0
    assert calls == ["startup"]
    assert json.loads((out / "results" / "startup.json").read_text())["inputs"]["options"] == {
        "embedder": "bundled:all-MiniLM-L6-v2"}
