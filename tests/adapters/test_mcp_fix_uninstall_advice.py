"""What ``uninstall_components`` advises works when followed literally, through the SDK's
stdio client against ``skill-retriever mcp`` on a real index: after a plugin's uninstall
kept a member the user changed, ``next`` names the ids still recorded (the plugin itself
is forgotten, so naming it again is refused); ids of which some are not installed are
refused as the CLI refuses them, the refusal naming those to pass; and a folder where
skill-retriever installed nothing (the caller may see) says so plainly."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from files import write_file, write_skill
from mcp import ClientSession
from test_mcp_uninstall_tool import call, files_under, serve

from skill_retriever.cli import main
from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

KIT = "acme/plugins/kit"
KIT_A = f"{KIT}/skills/kit-alpha/SKILL.md"
KIT_B = f"{KIT}/skills/kit-beta/SKILL.md"
LINT = "acme/skills/lint-rules/SKILL.md"
PRIVATE = "acme/skills/vault-admin/SKILL.md"
SECRET = "WOMBAT-VAULT-MARKER"
ALPHA_FILE = ".claude/skills/kit-alpha/SKILL.md"
RECORD = ".claude/.skill-retriever/installed.json"
NOTHING = "skill-retriever has installed nothing there that you may see, so there is nothing to uninstall"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A plugin ``kit`` of two skills, a lone skill and a private one."""
    root = tmp_path_factory.mktemp("mcp-uninstall-advice")
    acme = root / "acme"
    write_file(acme, "plugins/kit/.claude-plugin/plugin.json", json.dumps({"name": "kit", "description": "A kit."}))
    write_skill(acme / "plugins/kit", "kit-alpha", "Alpha step of the kit.")
    write_skill(acme / "plugins/kit", "kit-beta", "Beta step of the kit.")
    write_skill(acme, "lint-rules", "Lint Python with the house rules.")
    write_skill(acme, "vault-admin", f"{SECRET} unseal the vault.", access=["secops"])
    index = Index.open(root / "index", embedder=HashingEmbedder(64), create=True)
    try:
        run = index_sources(index, [acme], "skills")
        assert not [p for s in run.sources for p in s.problems]
        assert {KIT, KIT_A, KIT_B, LINT, PRIVATE} <= set(index.snapshot().nodes)
    finally:
        index.close()
    yield root / "index"


def ids_in(text: str) -> list[str]:
    """The JSON list of ids an answer tells the caller to pass (exactly one in it)."""
    found = re.findall(r"ids (\[[^\]]*\])", text)
    assert len(found) == 1, text
    ids = json.loads(found[0])
    assert isinstance(ids, list)
    return ids


def test_next_after_a_kept_member_of_a_plugin_names_the_ids_that_finish(index_dir: Path, tmp_path: Path) -> None:
    undone, forced = tmp_path / "undone", tmp_path / "forced"
    answers: dict[str, Any] = {}

    async def script(session: ClientSession) -> None:
        for project in (undone, forced):
            project.mkdir()
            done = await call(session, "install_components", {"ids": ["kit"], "target": str(project), "dry_run": False})
            assert isinstance(done, dict) and done["ok"] is True, done
        original = (undone / ALPHA_FILE).read_bytes()
        for project in (undone, forced):
            (project / ALPHA_FILE).write_text("my own notes\n", encoding="utf-8")
            args = {"ids": ["kit"], "target": str(project), "dry_run": False}
            answers[f"kept/{project.name}"] = kept = await call(session, "uninstall_components", args)
            assert isinstance(kept, dict) and kept["ok"] is False, kept
            # the advice the walkthrough followed and got refused: the plugin, with force
            answers[f"plugin/{project.name}"] = await call(session, "uninstall_components", {**args, "force": True})

        (undone / ALPHA_FILE).write_bytes(original)  # undo the change, pass the ids next names
        ids = ids_in(answers["kept/undone"]["next"])
        answers["finish/undone"] = await call(
            session, "uninstall_components", {"ids": ids, "target": str(undone), "dry_run": False}
        )
        ids = ids_in(answers["kept/forced"]["next"])  # or pass them with force true
        answers["finish/forced"] = await call(
            session, "uninstall_components", {"ids": ids, "target": str(forced), "dry_run": False, "force": True}
        )

    serve(index_dir, script)
    for name in ("undone", "forced"):
        kept = answers[f"kept/{name}"]
        assert f"kept {ALPHA_FILE}: changed since it was installed" in kept["summary"]
        assert f"still recorded (the ids to pass to finish): {KIT_A}" in kept["summary"]
        assert ids_in(kept["next"]) == [KIT_A] and "pass force true with those ids" in kept["next"]
        refused = answers[f"plugin/{name}"]
        assert isinstance(refused, str) and "'kit' not installed in" in refused and "nothing removed" in refused
        assert "still recorded there: kit-alpha" in refused and ids_in(refused) == [KIT_A]
        finished = answers[f"finish/{name}"]
        assert isinstance(finished, dict) and finished["ok"] is True and "next" not in finished, finished
        assert not (tmp_path / name / ".claude").exists()  # the record and every folder gone
    assert answers["finish/forced"]["summary"][0].endswith("removed as it was (force)")


def test_a_dry_run_keeping_a_changed_file_advises_the_same_ids(index_dir: Path, tmp_path: Path) -> None:
    """Nothing is forgotten by a dry run: its advice keeps the ids given (the plugin)."""
    project = tmp_path / "proj"
    project.mkdir()
    answers: dict[str, Any] = {}

    async def script(session: ClientSession) -> None:
        await call(session, "install_components", {"ids": ["kit"], "target": str(project), "dry_run": False})
        (project / ALPHA_FILE).write_text("my own notes\n", encoding="utf-8")
        answers["plan"] = await call(session, "uninstall_components", {"ids": ["kit"], "target": str(project)})

    serve(index_dir, script)
    plan = answers["plan"]
    assert isinstance(plan, dict) and plan["applied"] is False, plan
    assert f"would stay recorded: {KIT_A}" in plan["summary"]
    assert "dry_run false" in plan["next"] and "pass force true" in plan["next"] and "ids [" not in plan["next"]
    assert (project / ALPHA_FILE).read_text(encoding="utf-8") == "my own notes\n"


def test_ids_some_not_installed_are_refused_naming_those_to_pass(
    index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the CLI does, the whole call is refused; the answer names the installed ids,
    and never a private one the record holds."""
    project = tmp_path / "proj"
    project.mkdir()
    with Index.open(index_dir, embedder=HashingEmbedder(64), create=False) as index:
        assert install(index, [LINT, PRIVATE], project, principals=["*"]).applied
    before = files_under(project)

    assert main(["uninstall", "lint-rules", "kit", "--target", str(project)]) == 2
    cli = capsys.readouterr().err
    assert "no component 'kit' installed in" in cli and files_under(project) == before
    answers: dict[str, Any] = {}

    async def script(session: ClientSession) -> None:
        for dry_run in (True, False):
            answers[str(dry_run)] = await call(
                session, "uninstall_components", {"ids": ["lint-rules", "kit"], "target": str(project), "dry_run": dry_run}
            )
        answers["none given"] = await call(session, "uninstall_components", {"ids": ["kit"], "target": str(project)})

    serve(index_dir, script, principals="team-a")
    assert files_under(project) == before  # nothing removed, the record as it was
    for dry_run in (True, False):
        refused = answers[str(dry_run)]
        assert isinstance(refused, str), refused
        assert "'kit' not installed in" in refused and "nothing removed" in refused
        assert "of the ids given, installed there: lint-rules" in refused and ids_in(refused) == [LINT]
    listed = answers["none given"]
    assert isinstance(listed, str) and "'kit' not installed in" in listed and LINT in listed
    for answer in (answers["True"], answers["False"], listed):
        assert "vault-admin" not in answer and SECRET not in answer

    async def follow(session: ClientSession) -> None:
        answers["followed"] = await call(
            session, "uninstall_components", {"ids": ids_in(answers["False"]), "target": str(project), "dry_run": False}
        )

    serve(index_dir, follow, principals="team-a")
    followed = answers["followed"]
    assert isinstance(followed, dict) and followed["ok"] is True, followed
    assert not (project / ".claude/skills/lint-rules").exists()
    assert (project / ".claude/skills/vault-admin/SKILL.md").is_file()  # the private one stays


def test_where_nothing_is_installed_the_answer_says_so(index_dir: Path, tmp_path: Path) -> None:
    """An empty project, the file system root, and a project holding only a component the
    caller may not see read alike: nothing installed there that the caller may see."""
    empty, hidden = tmp_path / "empty", tmp_path / "hidden"
    empty.mkdir()
    hidden.mkdir()
    with Index.open(index_dir, embedder=HashingEmbedder(64), create=False) as index:
        assert install(index, [PRIVATE], hidden, principals=["*"]).applied
    before = files_under(hidden)
    answers: dict[str, Any] = {}

    async def script(session: ClientSession) -> None:
        for target in (str(empty), "/", str(hidden)):
            answers[target] = await call(
                session, "uninstall_components", {"ids": [LINT], "target": target, "dry_run": False}
            )

    serve(index_dir, script, principals="team-a")
    for target, answer in answers.items():
        assert isinstance(answer, str), answer
        assert f"'lint-rules' not installed in {target} by skill-retriever: {NOTHING}" in answer
        assert "pass as target the project folder install_components wrote into" in answer
        assert "record lists" not in answer and "pass one of those" not in answer
    assert answers[str(hidden)].replace(str(hidden), "X") == answers[str(empty)].replace(str(empty), "X")
    assert files_under(hidden) == before
    assert files_under(empty) == {}
