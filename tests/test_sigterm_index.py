"""SIGTERM (`timeout`, systemd, `docker stop`) during an index run is handled as Ctrl-C is.

Found walking the CLI: SIGTERM during the first `index` run of a new index left an empty
index with an unfinished-run mark, exit 143 and no word, where Ctrl-C took the new folder
back and said so (exit 130). Here a real process is sent SIGTERM at a fixed point: its
first embedding call, after the run mark is written.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from skill_retriever.cli import main

# The CLI, its embedder made to say when it first embeds and then wait to be stopped.
_STOPPED_AT_FIRST_EMBED = """
import sys, time
from skill_retriever.cli import main
from skill_retriever.stores.embedder import HashingEmbedder
def embed(self, texts):
    print("EMBEDDING", flush=True)
    time.sleep(120)
HashingEmbedder.embed = embed
sys.exit(main(sys.argv[1:]))
"""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _terminated(tmp_path: Path, *args: str) -> tuple[int, str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _STOPPED_AT_FIRST_EMBED, "index", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "EMBEDDING", (line, proc.communicate(timeout=60))
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "pdf-tools").mkdir(parents=True)
    (repo / "pdf-tools" / "SKILL.md").write_text(
        "---\nname: pdf-tools\ndescription: Merge and split PDF files.\n---\nMerge PDFs.\n", encoding="utf-8"
    )
    return repo


def test_sigterm_during_the_first_run_takes_the_new_index_back_and_says_so(tmp_path: Path) -> None:
    ix = tmp_path / "ix"
    code, err = _terminated(tmp_path, str(_repo(tmp_path)), "--index-dir", str(ix), "--embedder", "hashing-64")
    assert code == 143, err
    assert "skill-retriever: terminated (SIGTERM); nothing was kept" in err, err
    assert "Traceback" not in err, err
    assert not ix.exists()  # no empty index with a run mark left behind


def test_sigterm_into_an_index_that_holds_items_says_the_run_to_complete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, ix = _repo(tmp_path), tmp_path / "ix"
    assert main(["index", str(repo), "--index-dir", str(ix), "--embedder", "hashing-64"]) == 0
    (repo / "pdf-tools" / "SKILL.md").write_text("---\nname: pdf-tools\ndescription: Merge PDFs.\n---\nNew.\n", encoding="utf-8")
    code, err = _terminated(tmp_path, str(repo), "--index-dir", str(ix))
    assert code == 143, err
    assert "terminated (SIGTERM); the source it was writing" in err and "run the same command again" in err, err
    capsys.readouterr()
    assert main(["stats", "--index-dir", str(ix), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == 1  # what it held stays


def test_main_puts_back_the_sigterm_handler_it_found(tmp_path: Path) -> None:
    before = signal.getsignal(signal.SIGTERM)
    assert main(["index", str(_repo(tmp_path)), "--index-dir", str(tmp_path / "ix"), "--embedder", "hashing-64"]) == 0
    assert signal.getsignal(signal.SIGTERM) is before
