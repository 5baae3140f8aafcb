"""What a user walkthrough of the CLI found, fixed:

- a numeric query flag out of range is refused by argparse in the flag's words
  (``--budget``, not the Python setting ``token_budget``);
- ``--kinds`` drops empty entries (``skill,,agent``) and refuses a list with none left;
- a garbage ``index.json`` beside readable items: ``query`` and ``stats`` point at
  ``repair``, which keeps the bad file aside and writes a new one from the items;
- with ``--json`` an error is also ``{"error": ...}`` on stdout, so a pipe into a JSON
  reader gets JSON;
- the embedding reranker's cost in ``default_reranker``'s docstring is the README's.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from tiny_graph import build_tiny_index, tiny_nodes

from skill_retriever import rerank
from skill_retriever.cli import _parser, main
from skill_retriever.cliargs import open_for_repair
from skill_retriever.exceptions import IndexCorruptError
from skill_retriever.stores.index import Index

README = Path(__file__).resolve().parents[1] / "README.md"
GARBAGE = b"{not json"


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A closed tiny index (HashingEmbedder: reopened by its name, no model to load)."""
    build_tiny_index(tmp_path / "ix").close()
    return tmp_path / "ix"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """main's exit status, stdout and stderr; argparse's refusal (SystemExit) included."""
    capsys.readouterr()
    try:
        code = main(list(argv))
    except SystemExit as exited:
        code = int(exited.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith(("-wal", "-shm"))}


# -- 1. numeric flags ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--budget", "-5", "argument --budget: must be 0 or more tokens, got -5"),
        ("--budget", "lots", "argument --budget: 'lots' is not a whole number of tokens"),
        ("-k", "0", "argument -k: must be 1 or more results, got 0"),
        ("--max-query-chars", "0", "argument --max-query-chars: must be 1 or more characters, got 0"),
        ("--clause-coverage", "2", "argument --clause-coverage: must be a number from 0 (off) to 1, got 2"),
        ("--clause-coverage", "-0.1", "argument --clause-coverage: must be a number from 0 (off) to 1, got -0.1"),
        ("--clause-coverage", "nan", "argument --clause-coverage: must be a number from 0 (off) to 1, got nan"),
    ],
)
def test_a_numeric_flag_out_of_range_is_refused_by_argparse_naming_the_flag(
    built: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str, said: str
) -> None:
    code, out, err = run(capsys, "query", "alembic", flag, value, "--index-dir", str(built))
    assert code == 2 and out == ""
    assert said in err and "token_budget" not in err and "or be None" not in err
    # one line, as the README says: not argparse's usage block above it
    assert err == f"skill-retriever query: error: {said} (see skill-retriever query --help)\n"


def test_the_edges_of_each_range_are_accepted() -> None:
    args = _parser().parse_args(
        ["query", "x", "-k", "1", "--budget", "0", "--max-query-chars", "1", "--clause-coverage", "1"]
    )
    assert (args.k, args.budget, args.max_query_chars, args.clause_coverage) == (1, 0, 1, 1.0)
    assert _parser().parse_args(["query", "x", "--clause-coverage", "0"]).clause_coverage == 0.0


# -- 2. --kinds ---------------------------------------------------------------------------
def test_empty_kinds_are_dropped(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _parser().parse_args(["query", "x", "--kinds", " skill ,, agent,"]).kinds == ["skill", "agent"]
    code, out, err = run(capsys, "query", "alembic", "--kinds", "skill,,agent", "--json", "--index-dir", str(built))
    assert code == 0 and err == ""
    assert {r["kind"] for r in json.loads(out)["results"]} <= {"skill", "agent"}


@pytest.mark.parametrize("kinds", [",", " , ,", ""])
def test_kinds_naming_no_kind_are_refused(capsys: pytest.CaptureFixture[str], kinds: str) -> None:
    code, _, err = run(capsys, "query", "x", "--kinds", kinds)
    assert code == 2
    assert "argument --kinds: names no kind; give one or more of: agent, command" in err


def test_an_unknown_kind_is_named_with_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "query", "x", "--kinds", "skill,skils")
    assert code == 2 and "argument --kinds: unknown kind(s) skils (did you mean skill?); give one or more of:" in err


# -- 3. a garbage manifest ----------------------------------------------------------------
@pytest.mark.parametrize("garbage", [GARBAGE, b"\xff\xfe", b"[1, 2]", b'{"format": "other"}'])
def test_query_and_stats_on_a_garbage_manifest_point_at_repair(
    built: Path, capsys: pytest.CaptureFixture[str], garbage: bytes
) -> None:
    (built / "index.json").write_bytes(garbage)
    kept = files(built)
    for argv in (["query", "alembic"], ["stats"]):
        code, out, err = run(capsys, *argv, "--index-dir", str(built))
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert f"skill-retriever repair --index-dir {built}" in err and "delete" not in err
    assert files(built) == kept  # a reader changes nothing


def test_repair_sets_a_garbage_manifest_aside_and_writes_a_new_one(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = json.loads((built / "index.json").read_text())
    (built / "index.json").write_bytes(GARBAGE)
    code, out, _ = run(capsys, "repair", "--index-dir", str(built))
    assert code == 0
    assert "set the unreadable index.json aside as index.json.bad-" in out
    assert f"wrote a new index.json from the {len(tiny_nodes())} items in items.sqlite" in out
    (aside,) = built.glob("index.json.bad-*")
    assert aside.read_bytes() == GARBAGE  # nothing is lost
    after = json.loads((built / "index.json").read_text())
    assert (after["format"], after["embedder"], after["dim"]) == (before["format"], before["embedder"], 64)
    code, out, _ = run(capsys, "query", "alembic migrations", "--index-dir", str(built), "--json")
    assert code == 0 and json.loads(out)["results"]
    code, out, _ = run(capsys, "repair", "--index-dir", str(built), "--json")
    assert code == 0 and json.loads(out)["repaired"] == []  # in step now
    assert len(list(built.glob("index.json.bad-*"))) == 1


def test_repair_says_it_wrote_a_missing_manifest(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (built / "index.json").unlink()
    code, out, _ = run(capsys, "repair", "--index-dir", str(built), "--json")
    assert code == 0
    wrote = f"wrote a new index.json from the {len(tiny_nodes())} items in items.sqlite (it was missing)"
    assert json.loads(out)["repaired"] == [wrote]
    assert not list(built.glob("index.json.bad-*"))


def test_a_repair_whose_open_fails_puts_the_manifest_back(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (built / "index.json").write_bytes(GARBAGE)
    kept = files(built)

    def failing_open(*args: object, **kwargs: object) -> Index:
        raise IndexCorruptError("the open failed")

    monkeypatch.setattr(Index, "open", failing_open)
    args = _parser().parse_args(["repair", "--index-dir", str(built)])
    with pytest.raises(IndexCorruptError, match="the open failed"):
        open_for_repair(args)
    assert files(built) == kept


def test_a_garbage_manifest_without_items_keeps_its_advice(tmp_path: Path) -> None:
    """No items to rebuild it from: repair cannot help, and leaves it where it is."""
    (tmp_path / "ix").mkdir()
    (tmp_path / "ix" / "index.json").write_bytes(GARBAGE)
    with pytest.raises(IndexCorruptError, match="delete it and run `skill-retriever index <sources> --index-dir "):
        Index.open(tmp_path / "ix")
    with pytest.raises(IndexCorruptError, match="delete it and run"):
        open_for_repair(_parser().parse_args(["repair", "--index-dir", str(tmp_path / "ix")]))
    assert [p.name for p in (tmp_path / "ix").iterdir()] == ["index.json"]


# -- 4. --json errors ---------------------------------------------------------------------
def test_an_error_with_json_is_json_on_stdout_too(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "query", "x", "--json", "--index-dir", str(tmp_path / "nothing"))
    assert code == 2 and json.loads(out)["error"].startswith(f"no index at {tmp_path / 'nothing'}")
    assert err.startswith("skill-retriever: error: no index at")
    (built / "index.json").write_bytes(GARBAGE)
    for argv in (["query", "x"], ["stats"]):
        code, out, err = run(capsys, *argv, "--json", "--index-dir", str(built))
        assert code == 2 and "skill-retriever repair" in json.loads(out)["error"] and "error:" in err


def test_an_error_without_json_leaves_stdout_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "query", "x", "--index-dir", str(tmp_path / "nothing"))
    assert code == 2 and out == "" and "no index at" in err
    code, out, err = run(capsys, "query", "x", "-k", "0")
    assert code == 2 and out == "" and "argument -k" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["query", "x", "-k", "0", "--json"], "argument -k: must be 1 or more results, got 0"),
        (["query", "--json"], "the following arguments are required: query"),
        (["stats", "--json", "--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    ],
)
def test_a_usage_error_with_json_is_json_on_stdout_too(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and json.loads(out) == {"error": said} and said in err


# -- 5. the reranker's figures ------------------------------------------------------------
def test_the_rerank_docstring_quotes_the_readme() -> None:
    doc = " ".join((rerank.default_reranker.__doc__ or "").split())
    readme = " ".join(README.read_text(encoding="utf-8").split())
    for figure in ("712 ms p50 on the skills set against 9 ms", '"full+rerank"', "1fe7ce1", "-5.8 to +0.4"):
        assert figure in doc and figure in readme, figure
    assert "1.6-2.4 s" not in doc
