"""What `skill-retriever query` says for edge cases a user meets: a flag after the
subcommand, a limit of 0, a kind the index does not hold, one result."""

from __future__ import annotations

import pytest

from skill_retriever.cli import _parser, main


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("cli")
    for name, text in (("pg-migrations", "postgres schema migrations"), ("ruff-lint", "lint python with ruff")):
        path = root / "repo" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: {name}\ndescription: {text}\n---\n\n{text}\n", encoding="utf-8")
    ix = str(root / "ix")
    assert main(["index", str(root / "repo"), "--index-dir", ix, "--embedder", "hashing-64"]) == 0
    return ix


def query(index_dir: str, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["query", *args, "--index-dir", index_dir])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_verbose_may_follow_the_subcommand(index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _parser().parse_args(["query", "postgres", "-v"]).verbose is True
    assert _parser().parse_args(["-v", "query", "postgres"]).verbose is True
    assert _parser().parse_args(["query", "postgres"]).verbose is False
    code, out, _ = query(index_dir, capsys, "postgres migrations", "-k", "1", "-v")
    assert code == 0 and out.startswith("1 result (")  # one result, not "1 results"


def test_a_limit_of_zero_or_below_is_refused_in_one_line(index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    """argparse refuses them (exit 2), naming the flag (tests/test_cli_walkthrough_fixes.py)."""
    for flag, value, said in (("--max-query-chars", "0", "1 or more characters"), ("-k", "0", "1 or more results"),
                              ("-k", "-1", "1 or more results")):
        with pytest.raises(SystemExit) as exited:
            query(index_dir, capsys, "postgres", flag, value)
        err = capsys.readouterr().err
        assert exited.value.code == 2 and f"argument {flag}: must be {said}, got {value}" in err


def test_a_kind_the_index_does_not_hold_is_named(index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = query(index_dir, capsys, "format on save", "--kinds", "hook,skill,agent", "-k", "3")
    assert code == 0 and "the index holds no" not in out  # skills are there
    code, out, _ = query(index_dir, capsys, "format on save", "--kinds", "hook,agent")
    assert code == 0 and out.startswith("0 results")
    assert "note: the index holds no agent, hook items you may see" in out


def test_k_counts_entries_once_copies_are_folded(tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    """One folder indexed under two source names holds each component twice; the text
    folds the copies ("also at"), and -k 2 still shows two entries (it showed one)."""
    root = tmp_path_factory.mktemp("twice")
    for name in ("pg-migrations", "ruff-lint", "helm-deploy"):
        path = root / "repo" / "skills" / name / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: {name}\ndescription: {name} work\n---\n\n{name} work\n", encoding="utf-8")
    ix = str(root / "ix")
    for source in ("one", "two"):
        assert main(["index", str(root / "repo"), "--index-dir", ix, "--embedder", "hashing-64", "--source-name", source]) == 0
    code, out, _ = query(ix, capsys, "pg-migrations work", "-k", "2")
    assert code == 0 and out.startswith("2 results")
    assert [line.split(".")[0].strip() for line in out.splitlines() if line[:3].strip().rstrip(".").isdigit()] == ["1", "2"]
    assert out.count("also at: ") == 2
