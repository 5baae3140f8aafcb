"""Dataset loading: a missing data folder is a skip note, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skill_retriever.bench import datasets as D
from skill_retriever.exceptions import IngestError


def test_missing_data_folder_skips_with_a_message(tmp_path: Path) -> None:
    for loader in (D.multihop_sets, D.skills_sets, D.toolret_sets):
        sets, skipped = loader(None)
        assert sets == [] and skipped and "skipped" in skipped[0]
        sets, skipped = loader(tmp_path / "nowhere")
        assert sets == [] and "skipped" in skipped[0]


def test_seeded_sample_is_deterministic_and_ordered() -> None:
    items = list(range(100))
    a = D.seeded_sample(items, 10)
    assert a == D.seeded_sample(items, 10) and a == sorted(a) and len(set(a)) == 10
    assert D.seeded_sample(items, 500) == items


def test_toolret_set_from_a_small_folder(tmp_path: Path) -> None:
    folder = tmp_path / "toolret" / "mini"
    folder.mkdir(parents=True)
    (folder / "tools.jsonl").write_text("\n".join(json.dumps(t) for t in [
        {"id": "a", "name": "a", "description": "search flights"},
        {"id": "b", "name": "b", "description": "book a hotel"},
    ]), encoding="utf-8")
    (folder / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in [
        {"id": str(i), "query": f"q{i}", "relevant": ["a"]} for i in range(5)
    ]), encoding="utf-8")
    (folder / "edges.jsonl").write_text(json.dumps({"source": "a", "target": "b", "type": "tool_graph"}), encoding="utf-8")
    sets, skipped = D.toolret_sets(tmp_path, max_queries=3)
    assert not skipped and len(sets) == 1
    ds = sets[0]
    assert len(ds.queries) == 3 and any("seeded sample of 3" in n for n in ds.notes)
    result = ds.ingest(tmp_path)
    assert [e.kind.value for e in result.edges] == ["FEEDS"]


def _skills_data(tmp_path: Path, lines: list[str]) -> Path:
    root = tmp_path / "skills"
    for f in D.SKILL_FOLDERS:
        (root / f).mkdir(parents=True)
    (root / "queries").mkdir()
    path = root / "queries" / "dev.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps({"id": "q1", "query": "plot a heat map", "relevant": {"anthropics__skills/a/SKILL.md": 2},
                   "kind": "direct"})


@pytest.mark.parametrize(("line", "why"), [
    ('{"id": "bad", "query": "x"', "not JSON"),
    ('{"id": "bad", "query": "x"}', 'expected {"id", "query", "relevant": {"<folder>/<path>": grade}'),
    ('{"id": "bad", "query": "x", "relevant": ["anthropics__skills/a/SKILL.md"]}', '"relevant": {"<folder>/<path>"'),
    ('{"id": "bad", "query": 3, "relevant": {}}', '"query"'),
    ('{"id": "bad", "query": "x", "relevant": {"anthropics__skills/a/SKILL.md": "high"}}', "grade"),
    ("[1, 2]", "not a JSON object"),
])
def test_a_malformed_skills_query_line_is_an_ingest_error_naming_file_and_line(
    tmp_path: Path, line: str, why: str
) -> None:
    """Found by a walkthrough: a malformed line of skills/queries/dev.jsonl ended
    `benchmark --only skills` with a Python traceback (JSONDecodeError, KeyError:
    'relevant', TypeError: list indices must be integers)."""
    path = _skills_data(tmp_path, [GOOD, line])
    with pytest.raises(IngestError) as err:
        D.skills_sets(tmp_path)
    assert str(err.value).startswith(f"{path}:2: ") and why in str(err.value)


def test_a_well_formed_skills_query_file_still_reads(tmp_path: Path) -> None:
    _skills_data(tmp_path, [GOOD, json.dumps({"query": "nothing fits", "relevant": {}, "kind": "none"})])
    sets, skipped = D.skills_sets(tmp_path)
    assert not skipped and [q.id for q in sets[0].queries] == ["q1", "2"]
    assert dict(sets[0].queries[0].relevant) == {"anthropics__skills/a/SKILL.md": 2}


@pytest.mark.parametrize("loader", [D.multihop_sets, D.skills_sets, D.toolret_sets])
def test_data_given_as_a_family_folder_or_one_set_says_which_folder_to_give(tmp_path: Path, loader) -> None:  # type: ignore[no-untyped-def]
    """Found by a walkthrough: `--only toolret --data <data>/toolret` (or `<data>/toolret/metatool`)
    said only "toolret: no folder <data>/toolret/toolret; skipped"."""
    family = loader.__name__.removesuffix("_sets")
    one_set = tmp_path / family / "someset"
    one_set.mkdir(parents=True)
    _, skipped = loader(tmp_path / family)
    assert len(skipped) == 1 and skipped[0].endswith(
        f"; skipped (--data names the {family} folder itself: give the folder above it, {tmp_path})")
    _, skipped = loader(one_set)
    assert len(skipped) == 1 and skipped[0].endswith(
        f"; skipped (--data names one {family} set: give {tmp_path}, whose {family}/ holds it)")
    _, skipped = loader(tmp_path / "elsewhere")
    assert skipped[0].endswith("; skipped")


def test_a_missing_judged_skills_folder_is_named_plainly(tmp_path: Path) -> None:
    """The note printed a Python list: "judged folder(s) ['anthropics__skills'] missing"."""
    path = _skills_data(tmp_path, [GOOD])
    import shutil

    shutil.rmtree(path.parent.parent / "anthropics__skills")
    sets, skipped = D.skills_sets(tmp_path)
    assert sets == [] and skipped == [(
        f"skills: judged folder anthropics__skills missing under {tmp_path / 'skills'}; skipped "
        "(each judged repository is cloned into a folder of its owner__name)")]
