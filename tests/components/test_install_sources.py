"""Issue 12, item 4: an install reads a component's source file, its folder's listed files
and a hook's scripts only inside the source root that was indexed for it (links
followed); anything else is refused with a one-line reason, and the component writes
nothing. A node indexed before roots were recorded is rebuilt from the index text."""

from __future__ import annotations

import json
from pathlib import Path

from component_catalogue import sid

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SECRET = "BEGIN FAKE PRIVATE KEY 0xdeadbeef"


def files_under(root: Path) -> dict[str, str]:
    if not root.exists():
        return {}
    return {p.relative_to(root).as_posix(): p.read_text() for p in root.rglob("*") if p.is_file()}


def test_a_json_graph_node_whose_source_is_outside_its_root_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "elsewhere" / "id_fake"
    key.parent.mkdir()
    key.write_text(SECRET)
    graph = tmp_path / "graph" / "components.json"
    graph.parent.mkdir()
    inside = graph.parent / "agents" / "helper.md"
    inside.parent.mkdir()
    inside.write_text("---\nname: helper\n---\nthe helper agent's own file\n")
    graph.write_text(json.dumps({"nodes": [
        {"id": "g/thief", "kind": "agent", "name": "thief", "text": "an agent", "source": str(key)},
        {"id": "g/climber", "kind": "agent", "name": "climber", "text": "an agent", "source": "../elsewhere/id_fake"},
        {"id": "g/helper", "kind": "agent", "name": "helper", "text": "an agent", "source": str(inside)},
        {"id": "g/srv", "kind": "mcp_server", "name": "srv", "text": "a server", "source": str(key),
         "attrs": {"command": "srv-mcp"}},
    ], "edges": []}))  # fmt: skip
    index = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    try:
        run = index_sources(index, [graph], "json")
        assert not [p for s in run.sources for p in s.problems]
        assert index.get("g/thief").attrs["source_root"] == str(graph.parent.resolve())
        target = tmp_path / "project"
        plan = install(index, ["g/thief", "g/climber", "g/helper", "g/srv"], target)
    finally:
        index.close()
    status = {c.id: c for c in plan.components}
    for refused in ("g/thief", "g/climber", "g/srv"):
        assert status[refused].status == "refused"
        assert "outside its source root" in status[refused].reason
        assert "\n" not in status[refused].reason  # one line
    assert status["g/helper"].status == "install"
    written = files_under(target)
    assert written[".claude/agents/helper.md"] == inside.read_text()  # inside the root: read
    assert not any(SECRET in text for text in written.values())
    assert set(written) == {
        ".claude/agents/helper.md",
        ".claude/.skill-retriever/installed.json",
        ".claude/.skill-retriever/.gitignore",
    }
    assert not plan.ok and not (target / ".mcp.json").exists()


def test_skill_files_that_climb_or_link_out_are_refused(
    hashed_index: Index, tmp_path: Path, catalogue: tuple[Path, Path]
) -> None:
    acme, _ = catalogue
    (tmp_path / "secret.txt").write_text(SECRET)
    folder = acme / "skills/api-style"
    (folder / "escape").symlink_to(tmp_path / "secret.txt")
    (folder / "sibling").symlink_to(
        acme / "skills/web-scaffold/SKILL.md"
    )  # in the root, not the folder
    base = hashed_index.get(sid("api-style"))
    climbing = base.with_changes(
        id="x/climb", name="climb", attrs={**base.attrs, "files": ["../secret.txt"]}
    )
    linked = base.with_changes(id="x/link", name="link", attrs={**base.attrs, "files": ["escape"]})
    sideways = base.with_changes(
        id="x/side", name="side", attrs={**base.attrs, "files": ["sibling"]}
    )
    # a skill whose SKILL.md itself is a link leading out of the root
    outside_skill = tmp_path / "outside-skill"
    outside_skill.mkdir()
    (outside_skill / "SKILL.md").write_text(f"---\nname: out\n---\n{SECRET}\n")
    (acme / "skills/linked-skill").mkdir()
    (acme / "skills/linked-skill/SKILL.md").symlink_to(outside_skill / "SKILL.md")
    via_link = base.with_changes(
        id="x/via-link",
        name="via-link",
        source=str(acme / "skills/linked-skill/SKILL.md"),
        attrs={**base.attrs, "files": []},
    )
    hashed_index.upsert([climbing, linked, sideways, via_link])
    target = tmp_path / "project"
    plan = install(hashed_index, ["x/climb", "x/link", "x/side", "x/via-link"], target)
    assert [c.status for c in plan.components] == ["refused"] * 4
    reasons = [c.reason for c in plan.components]
    assert "'..'" in reasons[0] and "outside" in reasons[1] and "outside its folder" in reasons[2]
    assert "outside its source root" in reasons[3]
    assert files_under(target) == {}


def test_a_node_without_a_source_root_is_rebuilt_and_its_file_not_read(
    hashed_index: Index, tmp_path: Path
) -> None:
    real = tmp_path / "on-disk" / "SKILL.md"
    real.parent.mkdir()
    real.write_text(f"---\nname: old\n---\n{SECRET}\n")
    base = hashed_index.get(sid("redact-pii"))
    attrs = {k: v for k, v in base.attrs.items() if k not in ("source_root", "source_name")}
    old = base.with_changes(id="old/redact", name="old-redact", source=str(real), attrs=attrs)
    hashed_index.upsert([old])
    plan = install(hashed_index, ["old/redact"], tmp_path / "project")
    (c,) = plan.components
    assert c.status == "install" and "indexed without its source root" in c.reason
    text = (tmp_path / "project/.claude/skills/old-redact/SKILL.md").read_text()
    assert SECRET not in text and "Mask emails" in text  # the index text, not the file


def test_a_hook_script_that_links_out_is_refused(
    hashed_index: Index, tmp_path: Path, catalogue: tuple[Path, Path]
) -> None:
    acme, _ = catalogue
    (tmp_path / "payload.sh").write_text(f"echo {SECRET}\n")
    (acme / "hooks/format-on-save.sh").symlink_to(tmp_path / "payload.sh")
    hook = hashed_index.get("acme-skills/hooks/format-on-save.json")
    hashed_index.upsert(
        [hook.with_changes(id="x/hook", attrs={**hook.attrs, "scripts": ["format-on-save.sh"]})]
    )
    plan = install(hashed_index, ["x/hook"], tmp_path / "project")
    (c,) = plan.components
    assert c.status == "refused" and "outside its source root" in c.reason
    assert files_under(tmp_path / "project") == {}
