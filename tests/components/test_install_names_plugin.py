"""A plugin named like its own member (trailofbits' ``plugins/c-review`` holding the skill
``c-review``, as 45 of the 134 plugins of the skills data do) installs and uninstalls by
that name: the plugin, with a note naming the member's id, which takes the member alone.
Advice that names something to install or uninstall gives the id whenever the name alone
would be refused or take another; a name that several things share otherwise is refused
in one line saying what each is. On a small catalogue indexed by the real code path and
driven through the CLI."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from component_catalogue import files_under

from skill_retriever.cli import main
from skill_retriever.components.install import (
    InstallError,
    UnknownComponentError,
    install,
    plan_install,
    resolve_id,
    uninstall,
)
from skill_retriever.components.install.not_installable import NotInstallableError
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

KIT = "cat/plugins/kit"
KIT_SKILL = f"{KIT}/skills/kit/SKILL.md"
KIT_AGENT = f"{KIT}/agents/kit-worker.md"
REVIEW = "cat/plugins/review"
REVIEW_SKILL = f"{REVIEW}/skills/review/SKILL.md"
LONE_REVIEW = "cat/agents/review.md"


def _md(name: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: The {name} one, for tests.\n---\n\n{body}\n"


def _catalogue(root: Path) -> Path:
    """``kit`` holds its skill ``kit`` (and an agent, and a prompt file); ``review`` holds
    its skill ``review``, and an agent ``review`` of no plugin shares that name."""
    files = {
        "plugins/kit/.claude-plugin/plugin.json": json.dumps({"name": "kit", "description": "A kit."}),
        "plugins/kit/skills/kit/SKILL.md": _md("kit", "Run the kit."),
        "plugins/kit/agents/kit-worker.md": _md("kit-worker", "Work for the kit."),
        "plugins/kit/prompts/finder.md": _md("finder", "Find things."),
        "plugins/review/.claude-plugin/plugin.json": json.dumps({"name": "review", "description": "Reviews."}),
        "plugins/review/skills/review/SKILL.md": _md("review", "Review inside the plugin."),
        "plugins/review/prompts/checker.md": _md("checker", "Check things."),
        "agents/review.md": _md("review", "Review on its own."),
    }
    cat = root / "cat"
    for rel, text in files.items():
        (cat / rel).parent.mkdir(parents=True, exist_ok=True)
        (cat / rel).write_text(text, encoding="utf-8")
    return cat


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[str]:
    """The catalogue's index folder, closed: the CLI opens it itself."""
    index = Index.open(tmp_path / "ix", embedder=HashingEmbedder(), create=True)
    run = index_sources(index, [_catalogue(tmp_path)], "skills")
    assert not [p for s in run.sources for p in s.problems]
    index.close()
    yield str(tmp_path / "ix")


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    got = capsys.readouterr()
    return rc, got.out, got.err


def _advised(err: str) -> tuple[str, str]:
    """The plugin a prompt file's refusal names (it is read through ${CLAUDE_PLUGIN_ROOT},
    so installing that plugin here would not bring it): its name and its id."""
    found = re.search(r"it is a file of the plugin (\S+) \((\S+)\)", err)
    assert found, err
    return found.group(1), found.group(2)


def test_the_advised_plugin_name_installs_the_plugin_with_a_note(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    rc, _, err = _cli(capsys, "install", "finder", "--target", str(target), "--index-dir", index_dir)
    assert rc == 2 and f"it is a file of the plugin kit ({KIT})" in err and "/plugin install kit@" in err
    advised, _ = _advised(err)
    assert advised == "kit"
    rc, out, err = _cli(capsys, "install", advised, "--target", str(target), "--index-dir", index_dir)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[1] == (
        f"note: 'kit' names the plugin kit (id {KIT}) and its own skill kit (id {KIT_SKILL}): "
        "installing the plugin, which holds it; give its id to install it alone"
    )
    assert f"plugin kit  {KIT}: 2 component(s)" in lines
    assert set(files_under(target)) >= {".claude/skills/kit/SKILL.md", ".claude/agents/kit-worker.md"}
    # uninstall by the same name takes the plugin back whole
    rc, out, err = _cli(capsys, "uninstall", "kit", "--target", str(target))
    assert rc == 0, err
    assert out.splitlines()[1] == (
        f"  note: 'kit' names the plugin kit (id {KIT}) and its own skill kit (id {KIT_SKILL}): "
        "uninstalling the plugin, which holds it; give its id to uninstall it alone"
    )
    assert not [p for p in files_under(target) if not p.startswith(".claude/.skill-retriever/")]


def test_the_members_id_installs_it_alone_and_the_json_plan_holds_the_note(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    rc, out, _ = _cli(capsys, "install", KIT_SKILL, "--target", str(target), "--index-dir", index_dir, "--json")
    data = json.loads(out)
    assert rc == 0 and data["plugins"] == {} and data["notes"] == []
    assert [c["id"] for c in data["components"]] == [KIT_SKILL]
    rc, out, _ = _cli(capsys, "install", "KIT", "--target", str(tmp_path / "p2"), "--index-dir", index_dir, "--json", "--dry-run")
    data = json.loads(out)
    assert rc == 0 and list(data["plugins"]) == [KIT]
    assert len(data["notes"]) == 1 and KIT_SKILL in data["notes"][0]


def test_a_name_shared_beyond_the_plugin_is_advised_and_refused_by_id(
    index_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "proj"
    rc, _, err = _cli(capsys, "install", "checker", "--target", str(target), "--index-dir", index_dir)
    assert rc == 2
    name, advised = _advised(err)
    assert (name, advised) == ("review", REVIEW), err  # 'review' alone would be refused: the id is named
    assert "/plugin install review@" in err  # Claude Code's plugin install goes by the name
    rc, _, err = _cli(capsys, "install", "review", "--target", str(target), "--index-dir", index_dir)
    assert rc == 2
    (line,) = err.strip().splitlines()
    assert line == (
        "skill-retriever: error: 3 components are named 'review': "
        f"the agent review (id {LONE_REVIEW}), the plugin review (id {REVIEW}, 1 component) "
        f"and its skill review (id {REVIEW_SKILL}); give the id of the one you want"
    )
    rc, out, err = _cli(capsys, "install", advised, "--target", str(target), "--index-dir", index_dir)
    assert rc == 0, err
    assert ".claude/skills/review/SKILL.md" in files_under(target)
    assert "note:" not in out  # an id chose nothing


def test_resolution_and_its_refusal_through_the_api(index_dir: str, tmp_path: Path) -> None:
    index = Index.open(Path(index_dir))
    try:
        assert resolve_id(index, "kit") == KIT
        assert resolve_id(index, "kit-worker") == KIT_AGENT
        with pytest.raises(UnknownComponentError) as refused:
            resolve_id(index, "review")
        assert set(refused.value.candidates) == {REVIEW, REVIEW_SKILL, LONE_REVIEW}
        with pytest.raises(NotInstallableError, match=f"a file of the plugin review \\({REVIEW}\\)"):
            plan_install(index, ["checker"], tmp_path / "p")
    finally:
        index.close()


def test_uninstall_advice_and_listing_give_ids_where_names_are_shared(index_dir: str, tmp_path: Path) -> None:
    target = tmp_path / "proj"
    index = Index.open(Path(index_dir))
    try:
        # the plugin review, its skill by its own id too, the lone skill review, the plugin kit
        assert install(index, [REVIEW, REVIEW_SKILL, LONE_REVIEW, "kit"], target).ok
    finally:
        index.close()
    with pytest.raises(InstallError) as refused:
        uninstall(["review"], target)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("3 components are named 'review' in ")
    assert all(f"(id {i}" in message for i in (REVIEW, REVIEW_SKILL, LONE_REVIEW))
    with pytest.raises(InstallError) as unknown:
        uninstall(["nope"], target)
    # kit: its name takes it (over its own skill kit); review: the id, the name is refused
    assert f"; plugins {REVIEW}, kit)" in str(unknown.value)
    report = uninstall([REVIEW], target)
    # the member asked for by its own id stays; 'review' would now name it and the lone one
    assert report.stayed == {
        "review": (
            "an install asked for it by its own name, not only as part of plugin 'review': "
            f"uninstall {REVIEW_SKILL!r} to remove it too"
        )
    }
    assert (target / ".claude/skills/review/SKILL.md").is_file()
    assert uninstall([REVIEW_SKILL], target).ids == [REVIEW_SKILL]
    uninstall(["kit", "review"], target)  # each name is now one recorded thing
    assert not [p for p in files_under(target) if not p.startswith(".claude/.skill-retriever/")]
