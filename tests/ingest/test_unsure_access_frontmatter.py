"""Frontmatter that is not valid YAML, and says who may see the item: never a guess.

Lenient reading takes such a block as plain ``key: value`` lines. An ``access:`` line
indented under the description (``description: Deploy: fast`` then ``  access: [ops]``)
was read as part of the description: the skill was indexed public with its text. An
unclosed ``access: [ops`` became the label ``[ops``, which no caller holds. Either file is
now a problem, not indexed, and what was indexed of it before stays.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

from skill_retriever.ingest.result import Unread
from skill_retriever.ingest.skills import ingest_skill_repo

GOOD = "---\nname: vault\ndescription: Rotate the vault keys\naccess: [ops]\n---\n\nRotate the vault keys now.\n"


@pytest.mark.parametrize(
    ("rel", "block"),
    [
        ("skills/vault/SKILL.md", "name: vault\ndescription: Deploy: fast\n  access: [ops]\n"),
        ("skills/vault/SKILL.md", "name: vault\ndescription: Deploy: fast\naccess: [ops\n"),
        ("agents/vault.md", "name: vault\ndescription: Deploy: fast\naccess: [ops,\n  admin]\n"),
        ("commands/vault.md", "name: vault\ndescription: Deploy: fast\n- access: [ops]\n"),
    ],
)
def test_an_access_plain_lines_cannot_read_for_certain_keeps_the_file_out(tmp_path: Path, rel: str, block: str) -> None:
    repo = tmp_path / "repo"
    path = write_file(repo, rel, f"---\n{block}---\n\nRotate the vault keys now.\n")
    result = ingest_skill_repo(repo)
    assert result.nodes == []
    (problem,) = result.problems
    assert problem.path == str(path) and problem.keeps is Unread.FILE
    assert "its access is not certain" in problem.message and "make it valid YAML" in problem.message


def test_lenient_reading_that_reads_access_as_written_still_indexes(tmp_path: Path) -> None:
    """A description holding ': ' is the common slip lenient reading is for: an
    ``access`` on a line of its own, in flow or block form, is read as written."""
    repo = tmp_path / "repo"
    write_file(repo, "skills/a/SKILL.md", "---\nname: a\ndescription: Deploy: fast\naccess: [ops]\n---\n\nA.\n")
    write_file(repo, "skills/b/SKILL.md", "---\nname: b\ndescription: Deploy: fast\naccess:\n  - ops\n---\n\nB.\n")
    assert {n.name: n.access for n in ingest_skill_repo(repo).nodes} == {"a": ("ops",), "b": ("ops",)}


def test_index_keeps_the_private_version_from_a_public_query(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    path = write_file(repo, "skills/vault/SKILL.md", GOOD)
    write_file(repo, "skills/open/SKILL.md", "---\nname: open\ndescription: Open a ticket\n---\n\nOpen one.\n")
    assert run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")[0] == 0
    path.write_text(GOOD.replace("description: Rotate the vault keys\naccess", "description: Vault: rotate\n  access"),
                    encoding="utf-8")
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix, "--embedder", "hashing-64")
    assert code == 0 and f"problem: {path}: frontmatter is not valid YAML" in out
    for principals, found in (("nobody", False), ("ops", True)):
        code, out, _ = run(capsys, "query", "rotate the vault keys", "--index-dir", ix, "--json",
                           "--principals", principals)
        assert ("vault" in {r["name"] for r in json.loads(out)["results"]}) is found
