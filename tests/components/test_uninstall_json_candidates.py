"""``uninstall NAME --json`` where several installed components answer to NAME lists their
ids as ``"candidates"`` beside ``"error"``, as ``install``'s JSON does: after installing
davila7/claude-code-templates' two ``postgresql`` (an MCP server and a skill) by id,
``uninstall postgresql --json`` said the ids only inside the error's sentence, so an agent
that must pick one had to parse them out of it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.components.install import install, uninstall
from skill_retriever.components.install.errors import UnknownComponentError
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

AGENT, COMMAND = "cat/agents/postgresql.md", "cat/commands/db/postgresql.md"
ONE, TWO = "cat/plugins/one/commands/scan.md", "cat/plugins/two/commands/scan.md"


def _md(name: str, what: str) -> str:
    return f"---\nname: {name}\ndescription: {what}\n---\n\n{what}\n"


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    """A project holding two components named ``postgresql`` and two
    commands of one file name, ``scan``, each installed by id."""
    src = tmp_path / "src" / "cat"
    write_file(src, "agents/postgresql.md", _md("postgresql", "A PostgreSQL agent."))
    write_file(src, "commands/db/postgresql.md", _md("postgresql", "Tune PostgreSQL."))
    write_file(src, "plugins/one/commands/scan.md", _md("one:scan", "Scan one way."))
    write_file(src, "plugins/two/commands/scan.md", _md("two:scan", "Scan another way."))
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [src], "skills")
    installed = tmp_path / "proj"
    assert install(index, [AGENT, COMMAND, ONE, TWO], installed).ok
    index.close()
    yield installed


@pytest.mark.parametrize(("name", "ids", "said"), [
    ("postgresql", [AGENT, COMMAND], "2 components are named 'postgresql'"),
    ("scan", [ONE, TWO], "have the file name 'scan'"),
])
def test_the_json_error_lists_the_ids_several_installed_answer_to(
    name: str, ids: list[str], said: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "uninstall", name, "--target", project, "--json")
    data = json.loads(out)
    assert code == 2 and said in data["error"] and "give the id of the one you want" in data["error"], data
    assert data["candidates"] == ids
    with pytest.raises(UnknownComponentError) as caught:  # the Python API's refusal carries them too
        uninstall([name], project)
    assert list(caught.value.candidates) == ids
    assert (project / ".claude/agents/postgresql.md").is_file()  # nothing removed


def test_a_name_nothing_installed_answers_to_lists_none(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "uninstall", "mysql", "--target", project, "--json")
    data = json.loads(out)
    assert code == 2 and "no component 'mysql' installed" in data["error"] and "candidates" not in data, data
