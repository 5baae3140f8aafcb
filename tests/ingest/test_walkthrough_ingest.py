"""What indexing real skill repositories reads: package lists, line endings, bad files.

Small folders built in tmp_path, plus reads of the real collections in
``/work/shared/data/skills`` (skipped where that data is missing).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file

from skill_retriever.ingest.result import IngestResult
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import EdgeKind, NodeKind

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "skills"  # ../shared beside the clone
DAVILA = DATA / "davila7__claude-code-templates"


def _md(name: str, description: str = "A component.", **fields: str) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody text.\n"


def _edges(result: IngestResult, kind: EdgeKind) -> set[tuple[str, str]]:
    names = {n.id: n.name for n in result.nodes}
    return {(names[e.source], names[e.target]) for e in result.edges if e.kind is kind}


def _by_file(result: IngestResult, root: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p in result.problems:
        out.setdefault(Path(p.path).relative_to(root).as_posix(), []).append(p.message)
    return out


def test_dependencies_listing_packages_are_no_components(tmp_path: Path) -> None:
    # Anthropic's skill format lists software under `dependencies`: a package that shares a
    # skill's name is no dependency on that skill, and the rest are no missing components.
    write_file(tmp_path, "skills/transformers/SKILL.md", _md("transformers"))
    write_file(
        tmp_path, "skills/vllm/SKILL.md", _md("vllm", dependencies="[vllm, torch, transformers]")
    )
    write_file(
        tmp_path,
        "skills/lc/SKILL.md",
        _md("langchain", dependencies="[langchain-core, transformers]"),
    )
    write_file(tmp_path, "skills/g/SKILL.md", _md("guidance", dependencies="[guidance, transformers]"))
    write_file(tmp_path, "skills/pinned/SKILL.md", _md("pinned", dependencies="[transformers>=4.0]"))
    result = ingest_skill_repo(tmp_path)
    assert _edges(result, EdgeKind.DEPENDS_ON) == set()
    assert result.problems == []


def test_dependencies_naming_components_only_are_edges(tmp_path: Path) -> None:
    write_file(tmp_path, "skills/base/SKILL.md", _md("base"))
    write_file(tmp_path, "skills/extra/SKILL.md", _md("extra"))
    write_file(tmp_path, "skills/top/SKILL.md", _md("top", dependencies="[base, extra]"))
    write_file(tmp_path, "skills/req/SKILL.md", _md("req", requires="[base, ghost]"))
    result = ingest_skill_repo(tmp_path)
    assert _edges(result, EdgeKind.DEPENDS_ON) == {
        ("top", "base"),
        ("top", "extra"),
        ("req", "base"),
    }
    # `requires` names components: a missing one is still a note.
    assert [p.message for p in result.problems] == [
        "requires unknown component 'ghost'; no edge made"
    ]


def test_dependencies_with_a_misspelt_component_get_a_note(tmp_path: Path) -> None:
    # One typo turns a list of components into a list of packages: no edge is made, but
    # the author is told which name to correct (a note: the file was read whole).
    write_file(tmp_path, "skills/base/SKILL.md", _md("pdf-reporting"))
    write_file(tmp_path, "skills/extra/SKILL.md", _md("chart-builder"))
    write_file(tmp_path, "skills/top/SKILL.md", _md("top", dependencies="[pdf-reporting, chart-bulder]"))
    result = ingest_skill_repo(tmp_path)
    assert _edges(result, EdgeKind.DEPENDS_ON) == set()
    assert [p.read_whole for p in result.problems] == [True]
    assert result.problems[0].message == (
        "dependencies names components (pdf-reporting) but not 'chart-bulder' (did you mean "
        "'chart-builder'?): the list was read as packages and no dependency edge was made; "
        "correct the name to make them"
    )


def test_cr_only_line_endings_keep_the_frontmatter(tmp_path: Path) -> None:
    write_file(
        tmp_path, "skills/mac/SKILL.md", b"---\rname: mac-skill\rdescription: Old Mac.\r---\rBody\r"
    )
    (node,) = ingest_skill_repo(tmp_path).nodes
    assert (node.name, node.description, node.text) == ("mac-skill", "Old Mac.", "Body")


def test_bom_and_crlf_are_read_as_plain_frontmatter(tmp_path: Path) -> None:
    write_file(
        tmp_path,
        "skills/a/SKILL.md",
        b"\xef\xbb\xbf---\r\nname: a\r\ndescription: BOM.\r\n---\r\nBody\r\n",
    )
    result = ingest_skill_repo(tmp_path)
    assert [(n.name, n.description, n.text) for n in result.nodes] == [("a", "BOM.", "Body")]
    assert result.problems == []


def test_tab_indented_frontmatter_note_says_to_indent_with_spaces(tmp_path: Path) -> None:
    write_file(
        tmp_path,
        "skills/t/SKILL.md",
        "---\nname: t\ndescription: Tabs.\nmetadata:\n\tversion: 1\n---\nB\n",
    )
    result = ingest_skill_repo(tmp_path)
    assert [n.name for n in result.nodes] == ["t"]
    (note,) = result.notes
    assert "indent with spaces, not tabs" in note.message


def test_skill_or_agent_without_description_is_noted(tmp_path: Path) -> None:
    write_file(tmp_path, "skills/bare/SKILL.md", "# Bare\n\nNo frontmatter at all.\n")
    write_file(tmp_path, "agents/quiet.md", "---\nname: quiet\n---\nAn agent.\n")
    write_file(tmp_path, "commands/go.md", "Run it.\n")  # commands need no description
    result = ingest_skill_repo(tmp_path)
    assert sorted(n.name for n in result.nodes) == ["bare", "go", "quiet"]
    by_file = _by_file(result, tmp_path)
    assert set(by_file) == {"skills/bare/SKILL.md", "agents/quiet.md"}
    assert all(p.read_whole for p in result.problems)
    assert "no 'description'" in by_file["agents/quiet.md"][0]


def test_bad_files_in_a_skills_folder_cost_only_themselves(tmp_path: Path) -> None:
    write_file(tmp_path, "skills/good/SKILL.md", _md("good"))
    write_file(tmp_path, "skills/empty/SKILL.md", b"")
    write_file(tmp_path, "skills/dir/SKILL.md/notes.txt", "a folder named SKILL.md")
    write_file(tmp_path, "skills/huge/SKILL.md", _md("huge") + "x" * 5_000)
    (tmp_path / "skills/loop").mkdir()
    (tmp_path / "skills/loop/self").symlink_to("self")
    (tmp_path / "skills/loop/up").symlink_to("..", target_is_directory=True)
    result = ingest_skill_repo(tmp_path, max_file_bytes=2_000)
    assert [n.name for n in result.nodes] == ["good"]
    by_file = _by_file(result, tmp_path)
    assert set(by_file) == {
        "skills/empty/SKILL.md",
        "skills/dir/SKILL.md",
        "skills/huge/SKILL.md",
        "skills/loop/self",
        "skills/loop/up",
    }
    assert "folder named SKILL.md" in by_file["skills/dir/SKILL.md"][0]
    assert "cannot be resolved" in by_file["skills/loop/self"][0]
    assert "a loop" in by_file["skills/loop/up"][0]
    assert "over the 2,000-byte limit" in by_file["skills/huge/SKILL.md"][0]


@pytest.mark.skipif(not DAVILA.is_dir(), reason="real skills data not present")
def test_real_package_dependencies_make_no_edges_and_no_notes() -> None:
    # cli-tool/components/skills/ai-research/*: `dependencies: [torch, transformers, ...]`.
    result = ingest_skill_repo(DAVILA / "cli-tool/components/skills")
    assert _edges(result, EdgeKind.DEPENDS_ON) == set()
    assert not [p for p in result.problems if "requires unknown component" in p.message]
    lc = next(n for n in result.nodes if n.attrs["path"] == "ai-research/agents-langchain/SKILL.md")
    assert lc.kind is NodeKind.SKILL
    assert "langchain-core" in lc.attrs["frontmatter"]["dependencies"]  # kept, as packages


@pytest.mark.skipif(not DATA.is_dir(), reason="real skills data not present")
@pytest.mark.parametrize(
    ("repo", "skills"),
    [
        ("anthropics__skills", 14),
        ("K-Dense-AI__claude-scientific-skills", 129),
        ("trailofbits__skills", 80),
    ],
)
def test_real_repositories_index_every_skill_without_problems(repo: str, skills: int) -> None:
    root = DATA / repo
    if not root.is_dir():
        pytest.skip(f"{repo} not present")
    result = ingest_skill_repo(root)
    found = sum(1 for p in root.rglob("*") if p.name.lower() == "skill.md" and p.is_file())
    assert sum(n.kind is NodeKind.SKILL for n in result.nodes) == found == skills
    # trailofbits' two rust-review prompts whose description a ` #` comment cuts short
    # (`test_frontmatter_comment_cut`) get a note each, and nothing else has any.
    cut = {Path(p.path).name for p in result.problems if p.read_whole and "ends before ' #'" in p.message}
    assert cut == ({"repr-c-padding-finder.md", "packed-field-ref-finder.md"} if repo == "trailofbits__skills" else set())
    assert len(result.problems) == len(cut)


def test_a_skill_lists_the_files_of_skills_nested_in_it(tmp_path: Path) -> None:
    # sickn33's app-builder/SKILL.md links templates/SKILL.md and templates/*/TEMPLATE.md:
    # installing app-builder must copy them.
    write_file(tmp_path, "skills/app-builder/SKILL.md", _md("app-builder"))
    write_file(tmp_path, "skills/app-builder/templates/SKILL.md", _md("templates"))
    write_file(tmp_path, "skills/app-builder/templates/cli/TEMPLATE.md", "A template.\n")
    write_file(tmp_path, "skills/app-builder/scripts/run.sh", "echo\n")
    files = {n.name: n.attrs["files"] for n in ingest_skill_repo(tmp_path).nodes}
    assert files["app-builder"] == [
        "scripts/run.sh",
        "templates/SKILL.md",
        "templates/cli/TEMPLATE.md",
    ]
    assert files["templates"] == ["cli/TEMPLATE.md"]


@pytest.mark.skipif(not DATA.is_dir(), reason="real skills data not present")
def test_real_nested_skill_files_are_listed_by_the_outer_skill() -> None:
    root = DATA / "sickn33__antigravity-awesome-skills/skills/app-builder"
    if not root.is_dir():
        pytest.skip("sickn33 app-builder not present")
    outer = next(n for n in ingest_skill_repo(root).nodes if n.attrs["path"] == "SKILL.md")
    assert "templates/SKILL.md" in outer.attrs["files"]
    assert "templates/nextjs-fullstack/TEMPLATE.md" in outer.attrs["files"]
