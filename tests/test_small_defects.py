"""Defects a user meets walking through the product: a lock error that named no real way to
wait, an empty index answering a bare "0 results", "nothing fits" calling passages a
catalogue, and an item dated by the earlier of its two timestamps."""

from __future__ import annotations

import argparse
import json
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index

from skill_retriever.calibration import calibrate_index
from skill_retriever.calibration.defaults import index_defaults
from skill_retriever.cli import EXIT_BUSY, _parser, main
from skill_retriever.cliargs import error_text
from skill_retriever.exceptions import IndexLockedError
from skill_retriever.filters import Filters
from skill_retriever.model import Node
from skill_retriever.responses import (
    NOTHING_FITS,
    closest_names,
    is_nothing_fits,
    nothing_fits_phrase,
)
from skill_retriever.retriever import Retriever
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

WRITING_COMMANDS = ("index", "calibrate", "repair", "remove-source", "move-to-embedded", "move-to-server")


@pytest.fixture
def index_dir(tmp_path: Path) -> str:
    """A two-skill index built by the CLI (hashing embedder: no model to load)."""
    for name, text in (("pg-migrations", "postgres schema migrations"), ("ruff-lint", "lint python with ruff")):
        path = tmp_path / "repo" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: {name}\ndescription: {text}\n---\n\n{text}\n", encoding="utf-8")
    ix = str(tmp_path / "ix")
    assert main(["index", str(tmp_path / "repo"), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    return ix


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- 1. a second writer is told a way to wait that exists -----------------------------------


def test_a_second_cli_writer_is_told_lock_wait_and_lock_wait_works(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = str(tmp_path / "repo")
    holder = Index.open(index_dir, writable=True)  # another writer (flock: per open file)
    try:
        for command in WRITING_COMMANDS:
            given = {"index": [repo], "remove-source": ["repo"], "move-to-server": ["--chroma-url", "http://127.0.0.1:9"]}
            argv = [command, *given.get(command, []), "--index-dir", index_dir]
            code, _, err = _run(capsys, *argv)
            # not 2, a bad argument's: a script told "busy, try again" apart from "wrong"
            assert code == EXIT_BUSY == 75 and "is writing the index at" in err, err
            assert "pass --lock-wait SECONDS to wait for it" in err and "--index-dir" in err, err
            assert "longer wait" not in err and "lock_wait_s" not in err  # the CLI's own terms
            # the option the message names exists on that command
            assert _parser().parse_args([*argv, "--lock-wait", "2.5"]).lock_wait == 2.5
        code, _, err = _run(capsys, "calibrate", "--index-dir", index_dir, "--lock-wait", "0.2")
        assert code == EXIT_BUSY and "(waited 0.2 s for it)" in err and "to wait longer for it" in err, err
        code, out, _ = _run(capsys, "calibrate", "--index-dir", index_dir, "--json")
        assert code == EXIT_BUSY and "is writing the index at" in json.loads(out)["error"]
    finally:
        threading.Timer(0.3, holder.close).start()
    code, out, err = _run(capsys, "calibrate", "--index-dir", index_dir, "--lock-wait", "30")
    assert code == 0 and out.startswith("calibrated 2 items"), err


def test_a_lock_file_that_cannot_be_written_is_an_error_not_busy(
    index_dir: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only another writer is "try again later" (75): a lock file this user may not write
    stays 2, as retrying it would never end."""
    import os

    real = os.open

    def open_(path: object, flags: int, *args: object, **kw: object) -> int:
        if Path(str(path)) == Path(index_dir) / "write.lock" and flags & os.O_RDWR:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", open_)
    code, _, err = _run(capsys, "calibrate", "--index-dir", index_dir)
    assert code == 2 and "cannot take the writer's lock" in err, err


@pytest.mark.parametrize("value", ["-1", "nan", "soon"])
def test_a_lock_wait_that_is_no_duration_is_refused(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _parser().parse_args(["repair", "--lock-wait", value])
    assert "--lock-wait" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["inf", "nan"])
def test_an_endless_lock_wait_is_not_said_to_be_below_zero(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    # `--lock-wait inf` said "must be 0 or more seconds, got inf" (a CLI audit)
    with pytest.raises(SystemExit):
        _parser().parse_args(["index", "x", "--lock-wait", value])
    err = capsys.readouterr().err
    assert f"argument --lock-wait: must be a finite number of seconds (86400 waits up to a day), got {value}" in err
    assert "0 or more" not in err


def test_the_python_message_names_the_python_parameter(index_dir: str) -> None:
    holder = Index.open(index_dir, writable=True)
    other = Index.open(index_dir)
    try:
        with pytest.raises(IndexLockedError) as err:
            other.upsert([Node(id="x:1", kind="skill", name="x", text="x")])
        message = str(err.value)
        assert "Index.open(..., lock_wait_s=SECONDS)" in message and "--lock-wait" not in message
        assert err.value.directory == index_dir and err.value.holder is not None
        # a command without --lock-wait is told to run again, not an option it lacks
        without = error_text(err.value, argparse.Namespace(index_dir=index_dir))
        assert "run this again" in without and "--lock-wait" not in without and "lock_wait_s" not in without
    finally:
        other.close()
        holder.close()


# -- 2. an empty index says so ----------------------------------------------------------------


def test_a_query_on_an_empty_index_says_it_holds_no_items(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    try:
        response = Retriever(index, reranker=None).search("format python on save")
        assert response.results == []
        note = next(w for w in response.warnings if "holds no items" in w)
        assert f"skill-retriever index <folder> --index-dir {tmp_path / 'ix'}" in note
    finally:
        index.close()
    code, out, _ = _run(capsys, "query", "format python on save", "--index-dir", str(tmp_path / "ix"))
    assert code == 0 and out.startswith("0 results") and "note: the index at" in out and "holds no items" in out


def test_an_index_whose_items_were_all_deleted_says_so_too(tmp_path: Path) -> None:
    index = build_tiny_index(tmp_path / "ix")
    try:
        retriever = Retriever(index, reranker=None)
        assert not any("holds no items" in w for w in retriever.search("postgres migrations").warnings)
        index.delete(list(index.snapshot().nodes))
        assert any("holds no items" in w for w in retriever.search("postgres migrations").warnings)
    finally:
        index.close()


def test_calibrating_an_empty_index_prints_no_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True).close()
    code, out, _ = _run(capsys, "calibrate", "--index-dir", str(tmp_path / "ix"))
    assert code == 0 and "None" not in out and "no 'nothing fits' threshold yet" in out, out
    code, out, _ = _run(capsys, "stats", "--index-dir", str(tmp_path / "ix"))
    assert code == 0 and "None" not in out, out


# -- 3. "nothing fits" in the words of what the index holds ----------------------------------

PASSAGES = (
    "The Eiffel Tower is a wrought-iron tower in Paris, built by Gustave Eiffel's company.",
    "Gustave Eiffel was a French civil engineer born in Dijon in 1832.",
    "Dijon is a city in eastern France, the capital of the Cote-d'Or department.",
    "The Statue of Liberty was a gift from France to the United States, with a frame by Eiffel.",
    "Paris is the capital and most populous city of France.",
)


#: Words no passage holds: the best match is far below the calibrated line.
OFF_TOPIC = "qwzx vbnmk plokj trewq"


def _passage_index(path: Path) -> Index:
    """A small multi-hop passage corpus (passages and a fact), calibrated."""
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    nodes = [Node(id=f"p:{i}", kind="passage", name=f"passage {i}", text=t) for i, t in enumerate(PASSAGES)]
    nodes.append(Node(id="f:0", kind="fact", name="eiffel born in dijon", text="Gustave Eiffel was born in Dijon."))
    index.upsert(nodes)
    calibrate_index(index)
    return index


def test_nothing_fits_over_passages_does_not_say_catalogue(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = _passage_index(tmp_path / "ix")
    try:
        assert index_defaults(index.snapshot()).corpus == "passages"
        response = Retriever(index, reranker=None).search(OFF_TOPIC)
        assert response.nothing_fits
        assert any(w.startswith("no passage in the index fits this well; the closest: ") for w in response.warnings)
        assert not any("catalogue" in w for w in response.warnings)
    finally:
        index.close()
    code, out, _ = _run(capsys, "query", OFF_TOPIC, "--no-rerank",
                        "--index-dir", str(tmp_path / "ix"))
    assert code == 0 and "No passage in the index fits this well; the closest: " in out
    assert "catalogue" not in out and "note: no passage" not in out  # said once, in its own line


def test_each_corpus_gets_its_own_words() -> None:
    assert nothing_fits_phrase("catalogue") == NOTHING_FITS == "nothing in the catalogue fits this well"
    assert nothing_fits_phrase("passages") == "no passage in the index fits this well"
    assert nothing_fits_phrase("other") == nothing_fits_phrase("empty") == "nothing in the index fits this well"
    for corpus in ("catalogue", "passages", "other"):
        assert is_nothing_fits(f"{nothing_fits_phrase(corpus)}; the closest: x")
    assert not is_nothing_fits("the token budget of 10 dropped 1 of 2 results")


# -- 5. an item counts by its later timestamp --------------------------------------------------


def test_last_changed_is_the_later_of_created_and_updated() -> None:
    skewed = Node(id="s:1", kind="skill", name="s", text="s", created="2026-05-01", updated="2026-01-01")
    assert skewed.last_changed == datetime(2026, 5, 1, tzinfo=UTC)
    normal = Node(id="s:2", kind="skill", name="s", text="s", created="2026-01-01", updated="2026-05-01")
    assert normal.last_changed == datetime(2026, 5, 1, tzinfo=UTC)
    assert Node(id="s:3", kind="skill", name="s", text="s", created="2026-02-02").last_changed == datetime(
        2026, 2, 2, tzinfo=UTC
    )
    assert Node(id="s:4", kind="skill", name="s", text="s").last_changed is None
    # the since filter reads the same date as the time phrases: the skewed item is recent
    since = Filters(since=datetime(2026, 4, 1, tzinfo=UTC))
    assert since.admits(skewed) and since.admits(normal)
    assert not Filters(until=datetime(2026, 4, 1, tzinfo=UTC)).admits(skewed)


def test_the_closest_names_two_items_of_one_name_by_kind() -> None:
    # A plugin and its skill often share a name: "the closest: x, x" read as one item said twice.
    named = [("burp-parser", "plugin", "r/burp"), ("burp-parser", "skill", "r/burp/SKILL.md"), ("nmap", "skill", "r/n")]
    assert closest_names(named) == "burp-parser (plugin), burp-parser (skill), nmap"
    assert closest_names([("a", "skill", "r/a"), ("b", "agent", "r/b")]) == "a, b"
    assert closest_names([]) == "nothing"


def test_the_closest_names_two_items_of_one_name_and_kind_by_id() -> None:
    # Two READMEs titled "Overview": "Overview (document), Overview (document)" told them apart no better.
    named = [("Overview", "document", "d/api/README.md"), ("Other", "document", "d/other.md"),
             ("Overview", "document", "d/web/README.md"), ("Overview", "skill", "s/overview/SKILL.md")]
    assert closest_names(named) == (
        "Overview (document d/api/README.md), Other, Overview (document d/web/README.md), Overview (skill)"
    )


def test_the_closest_names_quote_a_name_that_holds_a_comma() -> None:
    # Passage titles do: "Demon algorithm, Kunia Camp, Hawaii, Kahuku, Hawaii" read as five.
    named = [("Demon algorithm", "passage", "p:1"), ("Kunia Camp, Hawaii", "passage", "p:2"), ("Kahuku, Hawaii", "passage", "p:3")]
    assert closest_names(named) == 'Demon algorithm, "Kunia Camp, Hawaii", "Kahuku, Hawaii"'
