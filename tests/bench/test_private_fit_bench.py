"""``python -m skill_retriever.bench.private_fit`` on a tiny data folder laid out as the
benchmark's (three judged skill folders, their queries, one more folder made private, two
multi-hop question files): it builds both indexes and prints the table whose public-caller
row is the one of the public items alone (the README's figures come from it on the real
data). The real bundled model: the rows say what the default search flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from files import write_skill

from skill_retriever.bench.datasets import SKILL_FOLDERS
from skill_retriever.bench.private_fit import cli, main

TOPICS = {
    SKILL_FOLDERS[0]: ("python-testing", "Write pytest fixtures and parametrised tests for a Python package."),
    SKILL_FOLDERS[1]: ("protein-folding", "Predict a protein structure from its sequence with AlphaFold."),
    SKILL_FOLDERS[2]: ("pdf-forms", "Fill in and merge PDF forms with a Python script."),
    "team-skills": ("sourdough", "Bake sourdough bread at home: starter, folding, proofing and baking."),
}


def _data(root: Path) -> Path:
    data = root / "data"
    for folder, (name, body) in TOPICS.items():
        write_skill(data / "skills" / folder, name, body)
    judged = {"id": "q1", "query": "write pytest fixtures", "kind": "keyword",
              "relevant": {f"{SKILL_FOLDERS[0]}/skills/python-testing/SKILL.md": 2}}
    none = {"id": "q2", "query": "bake sourdough bread", "kind": "none", "relevant": {}}
    queries = data / "skills" / "queries"
    queries.mkdir(parents=True)
    (queries / "dev.jsonl").write_text("\n".join(json.dumps(q) for q in (judged, none)) + "\n", encoding="utf-8")
    for name, question in (("hotpotqa", "Who directed the film Jaws?"), ("2wikimultihopqa", "Where was Ada Lovelace born?")):
        (data / "multihop" / name).mkdir(parents=True)
        (data / "multihop" / name / "queries.json").write_text(
            json.dumps([{"id": "1", "question": question, "supporting_idx": [1]}]), encoding="utf-8")
    return data


def test_the_public_caller_row_is_the_public_items_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = main(_data(tmp_path), ["team-skills"], tmp_path / "work")
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ", 1)[1] for line in lines if line.startswith("| ")}
    assert rows["public caller, both"] == rows["the public items alone"]
    assert set(rows) >= {"public caller, both", "the public items alone", "'team' caller, both (sees all)"}
    assert rows["public caller, both"].startswith("0/1 | ")  # the judged query fits
    assert "3 public items, 1 behind 'team'" in lines[1]
    assert "its index defaults decided in" in lines[0]
    assert capsys.readouterr().out.strip().splitlines() == lines


def test_a_private_folder_that_is_not_there_is_named(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no skill folder nowhere"):
        cli(["--data", str(_data(tmp_path)), "--private", "nowhere", "--work", str(tmp_path / "work")])
