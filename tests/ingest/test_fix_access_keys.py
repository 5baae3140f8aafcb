"""An ``access`` the file seems to mean but does not say is a note, never silence.

Found in a walkthrough: a SKILL.md with ``Access: [team]`` (or ``acess:``, or
``access: ""``) was indexed public, with no problem and no note, so its author believed
it private. Only ``access`` gives labels; the item stays what the file says (public), and
``index`` now says so, with what to write (`ingest/access_keys.py`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.ingest.access_keys import access_notes
from skill_retriever.ingest.documents import ingest_documents
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index


def skill(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: The {name} skill rotates vault keys.\n{extra}---\n\nBody of {name}.\n"


def _index_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, list[str]]:
    """``index --json``'s notes and problems of the run, by kind."""
    assert main(["index", *args, "--json"]) == 0
    sources = json.loads(capsys.readouterr().out)["run"]["sources"]
    return {
        "notes": [n for s in sources for n in s["notes"]],
        "problems": [p for s in sources for p in s["problems"]],
    }


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("Access: [team]", "Access"),
        ("ACCESS: [team]", "ACCESS"),
        ("acess: [team]", "acess"),
        ("accces: team", "accces"),
        ("acces: [team]", "acces"),
        ("accesss: [team]", "accesss"),
        ("visibility: [team]", "visibility"),
        ("principals: [team]", "principals"),
        ("audience: [team]", "audience"),
        ("allowed: [team]", "allowed"),
    ],
)
def test_a_near_miss_of_access_is_a_note_saying_the_item_is_public(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str], line: str, key: str
) -> None:
    repo = tmp_path / "repo"
    write_file(repo, "skills/vault/SKILL.md", skill("vault", f"{line}\n"))
    out = _index_json(capsys, str(repo), "--index-dir", str(index_dir))
    assert out["problems"] == []
    (note,) = out["notes"]
    assert note.startswith(f"{repo / 'skills' / 'vault' / 'SKILL.md'}: key '{key}' is not read")
    assert "the item is public (every caller sees it)" in note and note.endswith("write `access: [team]`")
    with Index.open(index_dir) as index:
        # what the note says: a caller with no principals finds it
        found = Retriever(index, reranker=None).search("rotate vault keys").results
        assert [(r.name, index.get(r.id).access) for r in found] == [("vault", ())]


def test_a_case_variant_says_keys_are_case_sensitive_and_a_synonym_names_access() -> None:
    (case,) = access_notes({"Access": ["team"]}, ())
    (synonym,) = access_notes({"private": True}, ())
    assert "(keys are case-sensitive)" in case
    assert "(only 'access' gives access labels)" in synonym and synonym.endswith("write `access: [label, ...]`")


def test_a_near_miss_beside_access_says_access_alone_decides(tmp_path: Path) -> None:
    write_file(tmp_path, "skills/vault/SKILL.md", skill("vault", "access: [ops]\nACCESS: [team]\n"))
    result = ingest_skill_repo(tmp_path)
    assert [n.access for n in result.nodes] == [("ops",)]
    (note,) = [p.message for p in result.notes]
    assert note == "key 'ACCESS' is not read (keys are case-sensitive): who sees the item is decided by 'access' (ops) alone; remove 'ACCESS' or merge it into 'access'"


@pytest.mark.parametrize("line", ['access: ""', "access:", "access: ''"])
def test_an_empty_access_is_a_note_that_the_item_is_public(tmp_path: Path, line: str) -> None:
    write_file(tmp_path, "skills/vault/SKILL.md", skill("vault", f"{line}\n"))
    result = ingest_skill_repo(tmp_path)
    assert [n.access for n in result.nodes] == [()]
    assert [p.message for p in result.problems] == [(
        "'access' is empty: the item is public (every caller sees it), unless what it is part of has labels; "
        "write `access: [label, ...]` to restrict it, or leave the key out"
    )]
    assert all(p.read_whole for p in result.problems)


@pytest.mark.parametrize(
    "line",
    ["accept: [json]", "assess: yes", "success: done", "allowed-tools: Read", "tool_access: [Read]", "access: []", "model: opus"],
)
def test_other_keys_and_an_explicit_empty_list_give_no_note(tmp_path: Path, line: str) -> None:
    write_file(tmp_path, "skills/vault/SKILL.md", skill("vault", f"{line}\n"))
    assert ingest_skill_repo(tmp_path).problems == []


def test_agents_commands_hooks_mcp_servers_and_plugins_get_the_note(tmp_path: Path) -> None:
    write_file(tmp_path, "agents/auditor.md", "---\nname: auditor\ndescription: audits\nAccess: ops\n---\nbody\n")
    write_file(tmp_path, "commands/rotate.md", "---\ndescription: rotate now\nacess: [ops]\n---\nbody\n")
    write_file(tmp_path, "hooks/guard.json", json.dumps({
        "description": "guards", "Access": ["ops"],
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]},
    }))
    write_file(tmp_path, ".mcp.json", json.dumps({"mcpServers": {"vault-mcp": {"command": "vault-mcp", "visibility": ["ops"]}}}))
    write_file(tmp_path, "plugins/ops/.claude-plugin/plugin.json", json.dumps({"name": "ops", "description": "Ops.", "ACCESS": ["ops"]}))
    write_file(tmp_path, "plugins/ops/skills/deploy/SKILL.md", skill("deploy"))
    result = ingest_skill_repo(tmp_path)
    assert all(n.access == () for n in result.nodes)
    notes = {Path(p.path).name: p.message.split(":", 1)[0] for p in result.notes}
    assert notes == {
        "auditor.md": "key 'Access' is not read (keys are case-sensitive)",
        "rotate.md": "key 'acess' is not read (only 'access' gives access labels)",
        "guard.json": "key 'Access' is not read (keys are case-sensitive)",
        ".mcp.json": "key 'visibility' is not read (only 'access' gives access labels)",
        "plugin.json": "key 'ACCESS' is not read (keys are case-sensitive)",
    }


def test_documents_get_the_note_without_the_caveat_of_inherited_labels(
    tmp_path: Path, index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    write_file(docs, "runbook.md", "---\ntitle: Runbook\nAccess: [team]\n---\n# Runbook\nRotate the vault keys.\n")
    write_file(docs, "empty.md", "---\ntitle: Empty\naccess: \"\"\n---\n# Empty\nNothing private.\n")
    out = _index_json(capsys, str(docs), "--kind", "docs", "--index-dir", str(index_dir))
    assert out["problems"] == []
    assert sorted(out["notes"]) == [
        (f"{docs / 'empty.md'}: 'access' is empty: the item is public (every caller sees it); "
         "write `access: [label, ...]` to restrict it, or leave the key out"),
        (f"{docs / 'runbook.md'}: key 'Access' is not read (keys are case-sensitive): the item is public "
         "(every caller sees it); write `access: [team]`"),
    ]
    assert all(n.access == () for n in ingest_documents(docs).nodes)
