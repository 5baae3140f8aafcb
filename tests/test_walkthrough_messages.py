"""What a user walkthrough on six real repositories found misleading, fixed:

1. ``install`` of a name ``query`` just showed (a prompt file, ``[other]``; a passage)
   said "no component ... in the index": it now says what the item is, that install has
   no place for it, and what to install instead (exit 2 as before; its id is skipped with
   the same words, exit 1 as before);
2. a renamed folder read as a removal alone: re-indexing a source the index held says how
   many items are new, changed and unchanged, naming the new ones;
3. ``--lock-wait`` waited without a word: it says on stderr that it waits, and for whom;
   the library prints nothing (it logs);
4. ``stats`` during the first index run pointed at ``calibrate``, which the run's lock
   refuses: it says the run under way calibrates the index;
5. an MCP server whose URL holds its author's example login (``user:password@``) got no
   note; real-looking logins still get none;
6. ``index`` was silent for minutes unless ``-v``: on a terminal it shows progress bars,
   never with ``--json`` or when stderr is piped.

Each builds a small real index (``--embedder hashing-64``: no model) in ``tmp_path`` and
runs the real CLI.
"""

from __future__ import annotations

import io
import json
import logging
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.cli import _parser
from skill_retriever.components.install.placeholders import _placeholder_login
from skill_retriever.exceptions import IndexLockedError
from skill_retriever.index_progress import show_progress
from skill_retriever.stores import run_marks
from skill_retriever.stores.index import Index
from skill_retriever.stores.lock import WAIT_LOG, WriterLock

HASHING = ("--embedder", "hashing-64")


def skill(folder: Path, name: str, description: str) -> None:
    write_file(folder, "SKILL.md", f"---\nname: {name}\ndescription: {description}\n---\nUse it for {description}.\n")


# -- 1. install names an item install has no place for -------------------------------------
@pytest.fixture
def plugin_repo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """An index of a plugin holding a skill and a prompt file (an ``other`` item), and of
    a passage corpus."""
    repo = tmp_path / "repo"
    skill(repo / "plugins" / "rust-review" / "skills" / "rust-check", "rust-check", "review Rust code for lossy casts")
    write_file(
        repo, "plugins/rust-review/prompts/lossy.md",
        "---\nname: lossy-str-conversion-finder\ndescription: find lossy string conversions\n---\nLook for as casts.\n",
    )
    corpus = tmp_path / "corpus"
    write_file(corpus, "corpus.json", json.dumps([{"idx": 0, "title": "Gallu", "text": "Gallu is a demon of the underworld."}]))
    ix = tmp_path / "ix"
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    assert run(capsys, "index", corpus, "--no-ner", "--index-dir", ix)[0] == 0
    return ix


def test_install_of_a_prompt_files_name_says_what_it_is_and_what_to_install(
    plugin_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "install", "lossy-str-conversion-finder", "--target", tmp_path, "--dry-run",
                         "--index-dir", plugin_repo)
    assert code == 2 and out == ""
    assert "no component" not in err
    assert (
        "'lossy-str-conversion-finder' is in the index as an other item (a prompt or template file: "
        "repo/plugins/rust-review/prompts/lossy.md), which install has no place for; it is a file of "
        "the plugin rust-review (repo/plugins/rust-review), whose components reach such files through "
        "${CLAUDE_PLUGIN_ROOT}, which only Claude Code's own plugin install sets"
    ) in err
    # what it says works: Claude Code's plugin install, or the plugin's folder copied by hand
    assert "(/plugin install rust-review@<marketplace>;" in err
    assert f"copy the plugin's folder, {tmp_path / 'repo/plugins/rust-review'}, by hand" in err
    # installing the plugin here writes its components, not the prompt file (as it says)
    code, out, _ = run(capsys, "install", "repo/plugins/rust-review", "--target", tmp_path, "--dry-run",
                       "--index-dir", plugin_repo)
    assert code == 0 and "would create .claude/skills/rust-check/SKILL.md" in out and "lossy" not in out


def test_install_of_a_passages_title_says_it_is_material_for_query(
    plugin_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "install", "Gallu", "--target", tmp_path, "--dry-run", "--index-dir", plugin_repo)
    assert code == 2 and "no component" not in err
    assert "'Gallu' is in the index as a" in err and "which install has no place for" in err
    assert "it is material for `query` to answer with, not a Claude Code component" in err


def test_install_of_such_an_id_is_skipped_in_the_same_words_and_a_name_of_nothing_is_unknown(
    plugin_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "install", "passage:0", "--target", tmp_path, "--dry-run", "--index-dir", plugin_repo)
    assert code == 1  # as before: a plan with what was asked for skipped
    assert "[passage] Gallu  passage:0: skipped - 'Gallu' is in the index as a passage item (a passage of a corpus: passage:0)" in out
    code, _, err = run(capsys, "install", "no-such-thing", "--target", tmp_path, "--dry-run", "--index-dir", plugin_repo)
    assert code == 2 and "no component 'no-such-thing' in the index" in err


def test_install_of_a_prompt_files_id_names_what_to_install_as_its_name_does(
    plugin_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # By id the plan skipped it without naming the plugin (the words had no index to read).
    code, out, _ = run(capsys, "install", "repo/plugins/rust-review/prompts/lossy.md", "--target", tmp_path,
                       "--dry-run", "--index-dir", plugin_repo)
    assert code == 1
    assert ("skipped - 'lossy-str-conversion-finder' is in the index as an other item (a prompt or template "
            "file: repo/plugins/rust-review/prompts/lossy.md), which install has no place for; it is a file of "
            "the plugin rust-review (repo/plugins/rust-review), whose components reach such files") in out


def test_the_component_named_instead_is_one_the_caller_may_see(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    graph = write_file(tmp_path, "g/graph.json", {
        "nodes": [
            {"id": "secret-skill", "kind": "skill", "name": "secret-skill", "text": "Team only.", "access": ["team"]},
            {"id": "tpl", "kind": "other", "name": "release-template", "text": "A release template."},
        ],
        "edges": [{"source": "tpl", "target": "secret-skill", "kind": "PART_OF"}],
    })
    ix = tmp_path / "ix"
    assert run(capsys, "index", graph, "--index-dir", ix, *HASHING)[0] == 0
    for principals, named in (("team", True), ("alice", False)):
        for ref in ("tpl", "release-template"):  # by id (a plan) and by name (an error)
            code, out, err = run(capsys, "install", ref, "--target", tmp_path / "p", "--dry-run",
                                 "--principals", principals, "--index-dir", ix)
            said = out + err
            assert code == (1 if ref == "tpl" else 2)  # a plan with it skipped; a refused name
            assert "which install has no place for" in said, (principals, ref)
            assert ("secret-skill" in said) is named, (principals, ref, said)


# -- 2. a renamed folder: new items beside the removed ones ---------------------------------
def test_reindexing_says_what_is_new_changed_and_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    skill(repo / "skills" / "brand-guidelines", "brand-guidelines", "apply brand colours")
    skill(repo / "skills" / "other", "other-skill", "something else")
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix, *HASHING)
    assert code == 0 and " new, " not in out  # a source new to the index: its summary says all
    (repo / "skills" / "brand-guidelines").rename(repo / "skills" / "brand-guide")
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix)
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "  1 new, 0 changed, 1 unchanged; new: repo/skills/brand-guide/SKILL.md"
    assert lines[2] == "  removed 1 item(s) the source no longer has: repo/skills/brand-guidelines/SKILL.md"
    with (repo / "skills" / "other" / "SKILL.md").open("a", encoding="utf-8") as f:
        f.write("One more line.\n")
    for n in range(6):
        skill(repo / "skills" / f"added-{n}", f"added-{n}", f"added skill {n}")
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix)
    assert out.splitlines()[1] == (
        "  6 new, 1 changed, 1 unchanged; new: " + ", ".join(f"repo/skills/added-{n}/SKILL.md" for n in range(5))
        + " and 1 more; changed: repo/skills/other/SKILL.md"
    )


# -- 3. --lock-wait says that it waits -------------------------------------------------------
def test_lock_wait_says_on_stderr_that_it_waits_and_for_whom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    skill(repo / "skills" / "a", "a-skill", "do a")
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    lock = WriterLock(ix)
    lock.acquire()  # this process writes the index
    child = subprocess.Popen(
        [sys.executable, "-m", "skill_retriever.cli", "index", str(repo), "--index-dir", str(ix), "--lock-wait", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert child.stderr is not None
        said = child.stderr.readline()  # the child waits for the lock: it must say so first
    finally:
        lock.release()
    out, err = child.communicate(timeout=120)
    assert said == f"waiting up to 60 s for process {os.getpid()}, which is writing the index at {ix}\n", said + err
    assert child.returncode == 0 and "1 unchanged" in out and err == ""


def test_the_library_logs_the_wait_and_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    Index.open(tmp_path / "ix", create=True).close()
    lock = WriterLock(tmp_path / "ix")
    lock.acquire()
    capsys.readouterr()
    try:
        with caplog.at_level(logging.INFO, logger=WAIT_LOG), pytest.raises(IndexLockedError):
            Index.open(tmp_path / "ix", writable=True, lock_wait_s=0.2)
    finally:
        lock.release()
    assert capsys.readouterr() == ("", "")
    assert [r.getMessage() for r in caplog.records if r.name == WAIT_LOG] == [
        f"waiting up to 0.2 s for process {os.getpid()}, which is writing the index at {tmp_path / 'ix'}"
    ]


# -- 4. stats while the first index run is under way -----------------------------------------
def test_stats_during_a_run_says_the_run_calibrates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    skill(repo / "skills" / "a", "a-skill", "do a")
    with Index.open(ix, create=True) as index:
        code, out, _ = run(capsys, "stats", "--index-dir", ix)
        assert code == 0 and f"calibration: none (run `skill-retriever calibrate --index-dir {ix}`)" in out
        run_marks.begin(index, "repo", repo)  # this process is the run under way
        code, out, _ = run(capsys, "stats", "--index-dir", ix)
        assert "calibration: none yet (the index run under way calibrates it when it ends)" in out
        ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                               check=True, capture_output=True, text=True)
        stopped = {"repo": {"started": "2026-01-01T00:00:00+00:00", "pid": int(ended.stdout), "host": platform.node()}}
        index.store_meta("unfinished_runs", json.dumps(stopped))  # a run that stopped: indexing again completes (and calibrates) it
        code, out, _ = run(capsys, "stats", "--index-dir", ix)
        assert "calibration: none, because an index run did not finish" in out and "no longer running" in out


# -- 5. an MCP server's example login -----------------------------------------------------------
SERVERS = {
    "postgresql": {"command": "npx", "args": ["-y", "pg-mcp"],
                   "env": {"POSTGRES_CONNECTION_STRING": "postgresql://user:password@localhost:5432/dbname"}},
    "mysql-args": {"command": "npx", "args": ["-y", "my-mcp", "mysql://<user>:<password>@localhost/db"]},
    "remote": {"url": "https://YOUR_USER:xxx@mcp.example.org/mcp"},
    "real-login": {"command": "npx", "args": ["pg", "postgresql://alice:s3cret@db.internal/app"],
                   "env": {"DB": "postgres://postgres:postgres@localhost/db"}},
    "references": {"command": "npx", "env": {"DB": "postgresql://${PGUSER}:${PGPASSWORD}@db/app", "URL": "${DATABASE_URL}"}},
}


@pytest.fixture
def mcp_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    write_file(tmp_path, "repo/.mcp.json", json.dumps({"mcpServers": SERVERS}))
    assert run(capsys, "index", tmp_path / "repo", "--index-dir", tmp_path / "ix", *HASHING)[0] == 0
    return tmp_path / "ix"


@pytest.mark.parametrize(
    ("server", "note"),
    [
        ("postgresql", "its env POSTGRES_CONNECTION_STRING still hold(s) a placeholder value"),
        ("mysql-args", "its args hold a URL with a placeholder user and password (mysql://<user>:<password>@)"),
        ("remote", "its URL holds a placeholder ('https://YOUR_USER:xxx@mcp.example.org/mcp')"),
        ("real-login", None),
        ("references", None),
    ],
)
def test_an_example_login_in_an_mcp_server_is_noted_and_a_real_one_is_not(
    mcp_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], server: str, note: str | None
) -> None:
    code, out, _ = run(capsys, "install", f"repo/.mcp.json#{server}", "--target", tmp_path, "--dry-run",
                       "--index-dir", mcp_index)
    assert code == 0 and f"would create .mcp.json#{server}" in out
    if note is None:
        assert "placeholder" not in out, out
    else:
        assert note in out, out


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("postgresql://user:password@localhost:5432/dbname", "postgresql://user:password@"),
        ("redis://username:pass@cache:6379", "redis://username:pass@"),
        ("mongodb://{user}:{password}@h/db", "mongodb://{user}:{password}@"),
        ("postgresql://YOUR_USER:realSecret9@h/db", "postgresql://YOUR_USER:***@"),  # the rest may be real
        ("postgresql://alice:s3cret@db.internal/app", None),
        ("postgres://postgres:postgres@localhost/db", None),
        ("postgresql://${PGUSER}:${PGPASSWORD}@db/app", None),
        ("https://user@example.com/x", None),
        ("git@github.com:owner/repo.git", None),
    ],
)
def test_which_logins_are_an_authors_example(text: str, shown: str | None) -> None:
    assert _placeholder_login(text) == shown


# -- 6. progress on a terminal ------------------------------------------------------------------
class Terminal(io.StringIO):
    """A stream that says it is a terminal, as stderr on a console does."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("flags", "stream", "shown"),
    [
        ((), Terminal(), True),
        (("--json",), Terminal(), False),
        ((), io.StringIO(), False),  # piped or redirected
        (("-v",), io.StringIO(), True),
        (("-v", "--json"), Terminal(), False),
    ],
)
def test_when_index_shows_progress(flags: tuple[str, ...], stream: io.StringIO, shown: bool) -> None:
    args = _parser().parse_args(["index", "repo", *flags])
    assert show_progress(args, stream) is shown


@pytest.mark.parametrize("json_flag", [False, True])
def test_index_on_a_terminal_shows_a_bar_per_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, json_flag: bool
) -> None:
    repo = tmp_path / "repo"
    for n in range(3):
        skill(repo / "skills" / f"s{n}", f"s{n}", f"skill number {n}")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code, out, _ = run(capsys, "index", repo, "--index-dir", tmp_path / "ix", *HASHING, *(["--json"] if json_flag else []))
    assert code == 0
    if json_flag:
        assert terminal.getvalue() == "" and json.loads(out)["run"]["nodes_added"] == 3
    else:
        assert "indexing repo" in terminal.getvalue() and "3/3" in terminal.getvalue()


# -- the count of texts embedded says what it holds --------------------------------------
def test_the_texts_embedded_are_split_into_items_and_relations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"embedded 3504 texts; index ... holds 3431 nodes" left 73 texts unexplained: they
    were the sentences of relations ("report requires pdf"), embedded for the graph."""
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    skill(repo / "skills" / "pdf", "pdf", "read and write PDF files")
    write_file(repo, "skills/report/SKILL.md",
               "---\nname: report\ndescription: write a report\nrequires: [pdf]\n---\nWrite it.\n")
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix, *HASHING, "--json")
    data = json.loads(out)["run"]
    assert code == 0 and data["embedded"] == 3 and data["embedded_edges"] == 1
    (tmp_path / "ix2").mkdir()
    code, out, _ = run(capsys, "index", repo, "--index-dir", tmp_path / "ix2" / "i", *HASHING)
    assert "embedded 3 texts (2 item texts, 1 of relations); index" in out
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix)  # nothing to embed: nothing to split
    assert "embedded 0 texts; index" in out
