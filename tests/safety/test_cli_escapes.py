r"""The CLI prints indexed data and user input with every terminal control escaped:
``query``, ``stats``, ``index`` and ``install`` run for real against an index that holds
an item full of escape sequences, and their stdout holds none of them raw; ``--json``
output stays valid JSON that reads back to the original text."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skill_retriever import cli
from skill_retriever.model import Node, NodeKind
from skill_retriever.safety.charsets import INVISIBLE
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

OSC52 = "\x1b]52;c;ZXZpbA==\x07"  # "write 'evil' to the clipboard"
EVIL_ID = "skill:evil\u202egpj.exe"  # a bidi override shows this as "skill:evilexe.jpg"
EVIL_NAME = f"deploy{OSC52}\rhelper\u202e"  # \r: what follows overwrites the line
#: The description is the snippet: clear screen, cursor up, a C1 CSI, a bidi isolate.
EVIL_DESCRIPTION = "clears \x1b[2J\x1b[1A FAKE OK \x9b31m red \u2066iso\u2069 end"
EVIL_TEXT = "deploy the service with a canary"
LONG_NAME = "deploy " + "x" * 293  # 300 characters: one file name too long for any file system
LONG_FOLDER = "deploy-" + "x" * 57  # the skill's folder: 64 characters, the most Claude Code takes
#: Anything raw that a terminal obeys, except the newline that ends each printed line.
RAW = re.compile(f"[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ud800-\\udfff{INVISIBLE}]")


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    # the index folder's own name is hostile too: `stats` and `index` print it
    path = tmp_path_factory.mktemp("cli") / "ix\x1b[2J"
    index = Index.open(path, embedder=HashingEmbedder(), create=True)
    try:
        index.upsert(
            [
                Node(
                    id=EVIL_ID,
                    kind=NodeKind.SKILL,
                    name=EVIL_NAME,
                    description=EVIL_DESCRIPTION,
                    text=EVIL_TEXT,
                ),
                Node(
                    id="skill:long",
                    kind=NodeKind.SKILL,
                    name=LONG_NAME,
                    text="deploy with a very long name",
                ),
                Node(
                    id="skill:clean",
                    kind=NodeKind.SKILL,
                    name="canary",
                    text="deploy the service with a canary",
                ),
            ]
        )
    finally:
        index.close()
    return str(path)


@pytest.fixture
def hashed_cli(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The CLI opens indexes with the HashingEmbedder they were built with."""
    opened: list[Index] = []

    def open_index(
        args: argparse.Namespace, **how: Any
    ) -> Index:  # create=, and what else the CLI asks
        index = Index.open(args.index_dir, embedder=HashingEmbedder(), **how)
        opened.append(index)
        return index

    monkeypatch.setattr(cli, "open_index", open_index)
    yield
    for index in opened:
        index.close()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_nothing_raw(out: str) -> None:
    found = sorted({f"U+{ord(c):04X}" for c in RAW.findall(out)})
    assert found == [], f"raw control or invisible characters reached the terminal: {found}"


@pytest.mark.usefixtures("hashed_cli")
def test_query_prints_escapes_not_control_sequences(
    index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "query", "deploy the service", "--index-dir", index_dir, "--no-rerank", "-k", "3"
    )
    assert code == 0
    assert_nothing_raw(out)
    assert r"deploy\x1b]52;c;ZXZpbA==\x07\x0dhelper\u202e" in out  # the name
    assert r"skill:evil\u202egpj.exe" in out  # the id
    # the snippet (bidi isolates are dropped from snippets before it gets here)
    assert r"clears \x1b[2J\x1b[1A FAKE OK \x9b31m red iso end" in out


@pytest.mark.usefixtures("hashed_cli")
def test_query_json_is_valid_and_escapes_c1_and_bidi(
    index_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "query", "deploy the service", "--index-dir", index_dir, "--no-rerank", "--json"
    )
    assert code == 0
    assert_nothing_raw(out)
    results = {r["id"]: r for r in json.loads(out)["results"]}
    assert results[EVIL_ID]["name"] == EVIL_NAME  # lossless: the escapes read back exactly
    assert "\\u009b31m" in out and "\\u202e" in out


@pytest.mark.usefixtures("hashed_cli")
def test_stats_escapes_the_index_path(index_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "--index-dir", index_dir)
    assert code == 0
    assert_nothing_raw(out)
    assert r"ix\x1b[2J (version" in out
    code, out, _ = run(capsys, "stats", "--index-dir", index_dir, "--json")
    assert code == 0 and json.loads(out)["path"] == index_dir


@pytest.mark.usefixtures("hashed_cli")
def test_index_escapes_file_names_and_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graph = tmp_path / f"graph{OSC52}.json"
    graph.write_text(
        '{"nodes": [{"id": "ok", "kind": "skill", "name": "ok", "text": "fine"},'
        ' {"id": "bad", "kind": "skill", "name": "bad", "text": "t", "attrs": {"score": NaN}}]}',
        encoding="utf-8",
    )
    code, out, _ = run(
        capsys, "index", str(graph), "--kind", "json", "--index-dir", str(tmp_path / "ix")
    )
    assert code == 0
    assert_nothing_raw(out)
    assert r"graph\x1b]52;c;ZXZpbA==\x07.json: 1 nodes" in out
    assert "problem:" in out and "'bad'" in out and "score" in out  # the NaN node is refused


@pytest.mark.usefixtures("hashed_cli")
def test_install_plan_escapes_names_and_survives_a_300_character_name(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "project"
    code, out, err = run(
        capsys,
        "install",
        EVIL_ID,
        "skill:long",
        "--target",
        str(target),
        "--dry-run",
        "--index-dir",
        index_dir,
    )
    assert (code, err) == (0, "")
    assert_nothing_raw(out)
    assert r"[skill] deploy\x1b]52;c;ZXZpbA==\x07\x0dhelper\u202e  skill:evil\u202egpj.exe" in out
    # no name Claude Code takes (over 64 characters), and no source folder: a slug of it (`skill_folder`)
    assert f"would create .claude/skills/{LONG_FOLDER}/SKILL.md" in out
    assert not target.exists()
    code, out, _ = run(
        capsys, "install", "skill:long", "--target", str(target), "--index-dir", index_dir
    )
    assert code == 0
    assert (target / ".claude" / "skills" / LONG_FOLDER / "SKILL.md").is_file()
