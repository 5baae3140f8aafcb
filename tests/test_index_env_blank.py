"""``SKILL_RETRIEVER_INDEX`` set but blank (``SKILL_RETRIEVER_INDEX= skill-retriever
stats``, or ``$DIR`` of an unset variable) means unset, as the LangGraph server already
read it: the CLI refused it as ``argument --index-dir: is empty; ... (or leave
--index-dir out)``, blaming an option the user had not given, and a message's advice
wrote the default index as ``.``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skill_retriever.advice import default_index_dir, env_index_dir
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index


@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_variable_is_the_default_index(blank: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKILL_RETRIEVER_INDEX", blank)
    assert env_index_dir() is None
    assert default_index_dir() == Path(".skill-retriever")
    monkeypatch.setenv("SKILL_RETRIEVER_INDEX", "/srv/ix")
    assert env_index_dir() == "/srv/ix"


def test_the_cli_with_a_blank_variable_reads_the_default_index(tmp_path: Path) -> None:
    with Index.open(tmp_path / ".skill-retriever", embedder=HashingEmbedder(), create=True) as index:
        index_sources(index, [sample_catalogue_path()])
    env = {**os.environ, "SKILL_RETRIEVER_INDEX": "", "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-m", "skill_retriever.cli", "stats", "--json"], check=False, cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert '"path": ".skill-retriever"' in done.stdout
