"""A file inside a skill's folder (``rules/webhooks.md``, ``templates/cli-tool/TEMPLATE.md``)
is named for its skill's readers: a component elsewhere that says "webhooks" or "cli-tool"
means the word, not that file. Seen on davila7/claude-code-templates: 16 agents and
commands that merely say "webhooks" got a MENTIONS edge to the HeyGen skill's
``rules/webhooks.md``, and every agent naming the repository's ``cli-tool/`` folder one to
the app-builder's ``templates/cli-tool/TEMPLATE.md``."""

from __future__ import annotations

from pathlib import Path

from files import write_file

from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind


def _md(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\n{body}\n"


def _mentions(root: Path) -> set[tuple[str, str]]:
    result = ingest_skill_repo(root)
    names = {n.id: n.name for n in result.nodes}
    return {(names[e.source], names[e.target]) for e in result.edges if e.kind is EdgeKind.MENTIONS}


def test_a_file_inside_a_skill_is_mentioned_only_from_inside_that_skill(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_file(root, "skills/heygen/SKILL.md", _md("heygen", "Make avatar videos.", "Read rules/webhooks.md for webhooks."))
    write_file(root, "skills/heygen/rules/webhooks.md", _md("webhooks", "Registering HeyGen webhooks.", "POST it."))
    write_file(root, "skills/heygen/rules/avatars.md", _md("avatars", "Listing avatars.", "Then set up webhooks."))
    write_file(root, "agents/kube.md", _md("kube-expert", "Kubernetes.", "Admission webhooks and operators."))
    write_file(root, "commands/sync.md", _md("sync-status", "Sync status.", "Configure webhooks; then run the kube-expert agent."))
    mentions = _mentions(root)
    assert ("heygen", "webhooks") in mentions  # its own skill names it
    assert ("avatars", "webhooks") in mentions  # and a file beside it
    assert ("sync-status", "kube-expert") in mentions  # a component elsewhere is still named
    assert not {m for m in mentions if m[1] == "webhooks" and m[0] in ("kube-expert", "sync-status")}


def test_a_template_of_a_nested_skill_is_named_from_its_outer_skill(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_file(root, "skills/app-builder/SKILL.md", _md("app-builder", "Build apps.", "Pick a template: cli-tool or web."))
    write_file(root, "skills/app-builder/templates/SKILL.md", _md("templates", "Template index.", "See cli-tool."))
    write_file(root, "skills/app-builder/templates/cli-tool/TEMPLATE.md", _md("cli-tool", "Node CLI template.", "Commander."))
    write_file(root, "agents/expert.md", _md("agent-expert", "Writes agents.", "Files go in cli-tool/components/agents."))
    mentions = _mentions(root)
    assert {("app-builder", "cli-tool"), ("templates", "cli-tool")} <= mentions
    assert ("agent-expert", "cli-tool") not in mentions


def test_a_skill_names_its_own_copy_of_a_file_another_skill_also_holds(tmp_path: Path) -> None:
    """davila7 holds Remotion's rules twice (``remotion-best-practices/rules/`` and
    ``video/remotion/references/``): the second skill's SKILL.md was linked to the first
    skill's copies, the first by path."""
    root = tmp_path / "repo"
    for skill in ("design/remotion-best", "video/remotion"):
        write_file(root, f"skills/{skill}/SKILL.md", _md(skill.rsplit("/", 1)[1], "Remotion.", "See tailwind and lottie."))
        for rule in ("tailwind", "lottie"):
            write_file(root, f"skills/{skill}/rules/{rule}.md", _md(rule, f"{rule} in Remotion.", "Text."))
    result = ingest_skill_repo(root)
    targets = {e.target for e in result.edges if e.kind is EdgeKind.MENTIONS and e.source.endswith("video/remotion/SKILL.md")}
    assert targets == {"repo/skills/video/remotion/rules/tailwind.md", "repo/skills/video/remotion/rules/lottie.md"}
