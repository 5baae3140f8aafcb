"""A catalogue, or a query, that does not read as English is said so: the "nothing fits"
line is drawn from English probe requests and the bundled MiniLM reads English. On a
German catalogue 0 of 8 off-topic German requests were flagged ("Wie backe ich
Sauerteigbrot": confidence 0.97) and nothing said the flag was weak there. The index
learns, when its calibration is drawn, the share of English among its items' words that
tell a language (`calibration.language`); ``stats``, ``calibrate`` and each judged answer
say it plainly when the catalogue does not read as English, and an answer says it of a
query that does not on one that does. No ranking changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.calibration import calibration_of
from skill_retriever.calibration.fit import keywords_back, keywords_can_agree
from skill_retriever.calibration.language import (
    ENGLISH_SHARE_MIN,
    catalogue_note,
    english_share,
    foreign_query,
    query_note,
)
from skill_retriever.calibration.model import Calibration
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.filters import Filters
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

GERMAN = {
    "pdf-bearbeiten": "PDF-Dateien bearbeiten, zusammenführen und teilen; Formulare ausfüllen.",
    "docker-hilfe": "Docker-Compose-Dateien schreiben und Fehler in Containern finden.",
    "sql-optimierung": "Langsame PostgreSQL-Abfragen mit EXPLAIN analysieren und Indizes vorschlagen.",
    "git-fehlersuche": "Mit git bisect den Commit finden, der einen Fehler eingeführt hat.",
    "terraform-module": "Wiederverwendbare Terraform-Module für AWS schreiben.",
}
ENGLISH = {
    "pdf-editor": "Edit, merge and split PDF files, fill PDF forms and extract text from PDFs.",
    "docker-compose-helper": "Write and debug docker-compose files for multi-container development setups.",
    "sql-tuner": "Analyse slow PostgreSQL queries with EXPLAIN and suggest indexes for them.",
    "git-bisect-guide": "Find the commit that introduced a bug using git bisect.",
    "terraform-modules": "Write reusable Terraform modules for AWS with tests.",
}
GERMAN_OFF_TOPIC = ["Wie backe ich Sauerteigbrot", "Wo kann ich einen Hund adoptieren",
                    "Rezept für einen Apfelkuchen", "Welche Schuhe passen zu einem Anzug"]


def _catalogue(root: Path, skills: dict[str, str]) -> Path:
    for name, text in skills.items():
        write_file(root, f"skills/{name}/SKILL.md", f"---\nname: {name}\ndescription: {text}\n---\n\n{text}\n")
    return root


def test_english_share_tells_the_catalogues_apart() -> None:
    english = english_share(ENGLISH.values())
    assert english is not None and english > 0.9
    assert english_share(GERMAN.values()) == 0.0
    assert english_share(["编辑、合并和拆分PDF文件，填写PDF表单。", "使用Helm将应用部署到Kubernetes。"]) == 0.0
    # terse English holds no function word, and no sign of another language: not measured
    assert english_share(["Edit PDF files, variant 3 fast.", "Merge PDF pages"]) is None
    assert catalogue_note(None) is None and catalogue_note(english) is None
    assert catalogue_note(ENGLISH_SHARE_MIN - 0.01) is not None


@pytest.mark.parametrize("query", [*GERMAN_OFF_TOPIC, "Comment faire une tarte aux pommes pour le dîner",
                                   "Cómo puedo hacer una paella para mi familia", "如何为 Python 项目配置 CI 流水线",
                                   "Hoe kan ik een fiets repareren voor mijn zoon"])
def test_a_query_in_another_language_is_told_so(query: str) -> None:
    assert foreign_query(query)
    note = query_note(query, 0.99)
    assert note is not None and "its nothing_fits flag is unreliable" in note
    assert query_note(query, 0.0) is None  # the catalogue's note says it for every query


@pytest.mark.parametrize("query", ["merge pdf files", "kubernetes pod restart loop", "die casting simulation",
                                   "the des encryption es module con", "status", "per-user rate limit in a la carte api",
                                   "use the café résumé naïve approach", "Who directed the film Das Boot?"])
def test_an_english_query_is_not(query: str) -> None:
    assert not foreign_query(query) and query_note(query, 0.99) is None


def test_a_german_catalogue_is_said_not_english_by_stats_calibrate_and_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, ix = _catalogue(tmp_path / "de", GERMAN), tmp_path / "ix"
    assert run(capsys, "index", source, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    code, out, _ = run(capsys, "stats", "--index-dir", ix)
    (line,) = [x for x in out.splitlines() if x.startswith("calibration: ")]
    assert code == 0 and "; the catalogue does not read as English (of its words that tell a language, 0% are" in line
    assert "'nothing fits' is drawn from English probe requests" in line  # not the bundled model: not named
    code, out, _ = run(capsys, "stats", "--index-dir", ix, "--json")
    assert code == 0 and json.loads(out)["calibration"]["english_share"] == 0.0
    assert "does not read as English" in run(capsys, "calibrate", "--index-dir", ix)[1]
    for query in (*GERMAN_OFF_TOPIC, "git bisect"):
        code, out, _ = run(capsys, "query", query, "--index-dir", ix, "--json")
        warnings = json.loads(out)["warnings"]
        assert code == 0 and [w for w in warnings if "the catalogue does not read as English" in w], warnings


def test_an_english_catalogue_warns_only_for_a_query_in_another_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, ix = _catalogue(tmp_path / "en", ENGLISH), tmp_path / "ix"
    assert run(capsys, "index", source, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    code, out, _ = run(capsys, "stats", "--index-dir", ix, "--json")
    share = json.loads(out)["calibration"]["english_share"]
    assert code == 0 and share > 0.9
    assert "read as English" not in run(capsys, "stats", "--index-dir", ix)[1]
    english = json.loads(run(capsys, "query", "split a pdf file", "--index-dir", ix, "--json")[1])
    assert "fit" in english and not [w for w in english["warnings"] if "English" in w]
    german = json.loads(run(capsys, "query", GERMAN_OFF_TOPIC[0], "--index-dir", ix, "--json")[1])
    assert [w for w in german["warnings"] if w.startswith("the query does not read as English")]
    assert not [w for w in german["warnings"] if "catalogue does not read" in w]
    with Index.open(ix) as index, Retriever(index) as retriever:  # no judgement asked for: no warning
        quiet = retriever.search(GERMAN_OFF_TOPIC[0], use_calibration=False)
        assert quiet.fit is None and not [w for w in quiet.warnings if "English" in w]


def test_another_languages_function_words_are_no_keyword_agreement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """"einen" is the only word "Wo kann ich einen Hund adoptieren" shares with the German
    catalogue (git-fehlersuche writes it): BM25 ranks that item first, and the "nothing
    fits" bonus must not count it as backing. A German query on the item's subject still
    agrees; English text keeps every word ("Los Angeles")."""
    source, ix = _catalogue(tmp_path / "de", GERMAN), tmp_path / "ix"
    assert run(capsys, "index", source, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    everything = Filters.everything()
    with Index.open(ix) as index:
        snap = index.snapshot()
        (fehler,) = [i for i in snap.nodes if "git-fehlersuche" in i]
        for query, backed in [("Wo kann ich einen Hund adoptieren", False), ("Rezept für einen Apfelkuchen", False),
                              ("Wie finde ich mit git bisect einen Fehler", True)]:
            ranked = [h.id for h in snap.search_keywords(query, 5, everything)]
            assert fehler in ranked[:2]  # BM25 itself ranks it high on "einen"
            assert keywords_can_agree(query)
            assert keywords_back(snap, query, fehler, ranked, everything) is backed, query
        assert not keywords_can_agree("der und einen")  # only function words: nothing can agree
    assert keywords_can_agree("los angeles homes") and keywords_can_agree("Las Vegas")


def test_a_calibration_stored_before_reads_and_a_bad_share_is_unreadable(tmp_path: Path) -> None:
    old = Calibration(version=1, items=2)
    stored = json.loads(old.to_json())
    del stored["english_share"]  # as calibrations stored before it was measured
    assert Calibration.from_json(json.dumps(stored)).english_share is None
    assert Calibration.from_json(json.dumps(stored)).summary(1)["english_share"] is None
    for bad in (1.5, -0.1, "0.5", True):
        with pytest.raises(IndexCorruptError, match="english_share"):
            Calibration.from_json(json.dumps({**stored, "english_share": bad}))


@pytest.mark.slow
def test_the_bundled_model_is_named_on_a_german_catalogue(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, ix = _catalogue(tmp_path / "de", GERMAN), tmp_path / "ix"
    assert run(capsys, "index", source, "--index-dir", ix)[0] == 0
    with Index.open(ix) as index:
        found = calibration_of(index.snapshot())
        assert found is not None and found.english_share == 0.0
    answer = json.loads(run(capsys, "query", GERMAN_OFF_TOPIC[0], "--index-dir", ix, "--json")[1])
    said = [w for w in answer["warnings"] if "the catalogue does not read as English" in w]
    assert said and "and the bundled model are tuned for English text" in said[0]


@pytest.mark.parametrize("query", ["напиши фаззер для библиотеки на C", "如何为 Python 项目配置 CI 流水线"])
def test_a_query_in_another_script_gets_one_warning_that_says_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], query: str
) -> None:
    """The script note (the bundled model reads the script poorly) and the query note (its
    nothing_fits flag is unreliable) were two warnings for one cause: one sentence says both."""
    source, ix = _catalogue(tmp_path / "en", ENGLISH), tmp_path / "ix"
    assert run(capsys, "index", source, "--index-dir", ix)[0] == 0
    answer = json.loads(run(capsys, "query", query, "--index-dir", ix, "--json")[1])
    assert "fit" in answer
    (said,) = [w for w in answer["warnings"] if "script" in w or "English" in w]
    assert "the bundled embedding model (all-MiniLM-L6-v2) was trained on English" in said
    assert "its nothing_fits flag is unreliable" in said and "ask in English" in said
    with Index.open(ix) as index, Retriever(index) as retriever:  # not judged: the script note alone
        (quiet,) = [w for w in retriever.search(query, use_calibration=False).warnings if "script" in w]
        assert "nothing_fits" not in quiet


def test_a_calibration_drawn_before_the_share_was_measured_still_tells_a_german_catalogue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An index calibrated before `english_share` was stored reads it as absent: measured
    from the items when read (once per snapshot), so stats and answers say it as a fresh
    calibration does, without a redraw."""
    source, ix = _catalogue(tmp_path / "de", GERMAN), tmp_path / "ix"
    assert run(capsys, "index", source, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    with Index.open(ix) as index:
        def older(text: str) -> str:
            stored = json.loads(text)
            del stored["english_share"]
            return json.dumps(stored)
        index.store_meta("calibration", older)
    code, out, _ = run(capsys, "stats", "--index-dir", ix, "--json")
    assert code == 0 and json.loads(out)["calibration"]["english_share"] == 0.0
    assert "the catalogue does not read as English" in run(capsys, "stats", "--index-dir", ix)[1]
    answer = json.loads(run(capsys, "query", GERMAN_OFF_TOPIC[0], "--index-dir", ix, "--json")[1])
    assert [w for w in answer["warnings"] if "the catalogue does not read as English" in w]
