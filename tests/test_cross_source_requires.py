"""A ``requires`` naming a component of ANOTHER source of the same index resolves
(`skill_retriever.cross_source`): whatever the order the sources were indexed in, the
DEPENDS_ON edge is made, the dependency closure and the install plan bring the target,
and removing or re-indexing either source keeps the edge true to what is on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from files import write_file

from skill_retriever.cli import main
from skill_retriever.components.closure import dependency_closure
from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.model import EdgeKind
from skill_retriever.sources import remove_source
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

REPORT = "mine/skills/report/SKILL.md"
PDF = "vendor/skills/pdf/SKILL.md"


def _skill(name: str, requires: str = "", extra: str = "") -> str:
    needs = f"requires: [{requires}]\n" if requires else ""
    return f"---\nname: {name}\ndescription: The {name} skill.\n{needs}{extra}---\n\nBody of {name}.\n"


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    write_file(tmp_path / "mine", "skills/report/SKILL.md", _skill("report", requires="pdf"))
    return tmp_path / "mine"


@pytest.fixture
def vendor(tmp_path: Path) -> Path:
    write_file(tmp_path / "vendor", "skills/pdf/SKILL.md", _skill("pdf"))
    write_file(tmp_path / "vendor", "skills/docx/SKILL.md", _skill("docx"))
    return tmp_path / "vendor"


def _open(path: Path) -> Index:
    return Index.open(path, embedder=HashingEmbedder(64), create=True)


def _depends(index: Index) -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in index.snapshot().edges.values() if e.kind is EdgeKind.DEPENDS_ON}


@pytest.mark.parametrize("order", ["mine-then-vendor", "vendor-then-mine", "one-run"])
def test_the_edge_is_made_whatever_the_order(tmp_path: Path, mine: Path, vendor: Path, order: str) -> None:
    with _open(tmp_path / "ix") as index:
        if order == "one-run":
            runs = [index_sources(index, [mine, vendor])]
        else:
            first, second = (mine, vendor) if order == "mine-then-vendor" else (vendor, mine)
            runs = [index_sources(index, [first]), index_sources(index, [second])]
        assert _depends(index) == {(REPORT, PDF)}
        # the note on the name is taken back once it resolves, in the run that resolves it
        last = runs[-1]
        assert not [p for s in last.sources for p in s.problems if "unknown component" in p.message]
        assert last.cross_source is not None
        (link,) = last.cross_source.links
        assert (link.node, link.name, link.target, link.target_source) == (REPORT, "pdf", PDF, "vendor")
        assert index.get(REPORT).attrs["unresolved_requires"] == {"requires": ["pdf"]}


def test_closure_and_install_plan_bring_the_other_sources_component(tmp_path: Path, mine: Path, vendor: Path) -> None:
    with _open(tmp_path / "ix") as index:
        index_sources(index, [mine])
        index_sources(index, [vendor])
        closure = dependency_closure(index.snapshot(), [REPORT])
        assert closure.added == (PDF,)
        plan = install(index, [REPORT], tmp_path / "project", dry_run=True)
    assert {c.id for c in plan.components} == {REPORT, PDF}


def test_removing_the_targets_source_unlinks_and_indexing_it_again_links(
    tmp_path: Path, mine: Path, vendor: Path
) -> None:
    with _open(tmp_path / "ix") as index:
        index_sources(index, [mine, vendor])
        found = []
        remove_source(index, "vendor", relinked=found.append)
        assert _depends(index) == set()
        (report,) = found
        assert [(u.node, u.name, u.lost) for u in report.unresolved] == [(REPORT, "pdf", True)]
        assert index.get(REPORT).attrs["unresolved_requires"] == {"requires": ["pdf"]}
        run = index_sources(index, [vendor])
        assert _depends(index) == {(REPORT, PDF)}
        assert run.cross_source is not None and [k.new for k in run.cross_source.links] == [True]


def test_reindexing_the_requiring_source_keeps_the_edge_or_drops_it_with_the_requires(
    tmp_path: Path, mine: Path, vendor: Path
) -> None:
    with _open(tmp_path / "ix") as index:
        index_sources(index, [vendor, mine])
        version = index.version
        again = index_sources(index, [mine], calibrate=False)  # unchanged: the edge stays as it was
        assert _depends(index) == {(REPORT, PDF)}
        assert index.version == version and again.embedded == 0
        write_file(mine, "skills/report/SKILL.md", _skill("report"))
        run = index_sources(index, [mine])
        assert _depends(index) == set()
        assert run.edges_removed == {str(mine): 1}
        assert "unresolved_requires" not in index.get(REPORT).attrs


def test_a_target_in_the_own_source_wins_over_another_sources(tmp_path: Path, mine: Path, vendor: Path) -> None:
    write_file(mine, "skills/pdf/SKILL.md", _skill("pdf"))
    with _open(tmp_path / "ix") as index:
        index_sources(index, [vendor])
        run = index_sources(index, [mine])
        assert _depends(index) == {(REPORT, "mine/skills/pdf/SKILL.md")}
        assert run.cross_source is not None and run.cross_source.links == []
        # the own one leaves: the name resolves in the other source now, on re-index
        (mine / "skills/pdf/SKILL.md").unlink()
        index_sources(index, [mine])
        assert _depends(index) == {(REPORT, PDF)}


def test_several_other_sources_the_first_by_source_name_wins_with_a_note(tmp_path: Path, mine: Path) -> None:
    for name in ("zeta", "alpha"):
        write_file(tmp_path / name, "skills/pdf/SKILL.md", _skill("pdf"))
    with _open(tmp_path / "ix") as index:
        index_sources(index, [tmp_path / "zeta", mine])
        assert _depends(index) == {(REPORT, "zeta/skills/pdf/SKILL.md")}
        run = index_sources(index, [tmp_path / "alpha"])  # sorts first: the edge moves to it
        assert _depends(index) == {(REPORT, "alpha/skills/pdf/SKILL.md")}
        assert run.cross_source is not None
        (note,) = run.cross_source.notes
        assert "2 components of other sources are named" in note.message
        assert "goes to skill alpha/skills/pdf/SKILL.md, the first by source name and path" in note.message
        assert "also skill zeta/skills/pdf/SKILL.md" in note.message
        # advice a user can follow: the sources are others' repositories, not theirs to rename
        assert "`skill-retriever remove-source NAME --index-dir " in note.message and "rename" not in note.message
        (link,) = run.cross_source.links
        assert link.note == note.message and link.rivals == ("zeta/skills/pdf/SKILL.md",)


def test_dependencies_across_sources_only_when_every_entry_names_a_component(
    tmp_path: Path, vendor: Path
) -> None:
    write_file(tmp_path / "mine", "skills/helper/SKILL.md", _skill("helper"))
    write_file(tmp_path / "mine", "skills/report/SKILL.md", _skill("report", extra="dependencies: [helper, pdf]\n"))
    write_file(tmp_path / "mine", "skills/pkg/SKILL.md", _skill("pkg", extra="dependencies: [pdf, pandas]\n"))
    with _open(tmp_path / "ix") as index:
        index_sources(index, [tmp_path / "mine"])
        assert _depends(index) == set()  # read alone, neither list is all components
        index_sources(index, [vendor])
        assert _depends(index) == {(REPORT, "mine/skills/helper/SKILL.md"), (REPORT, PDF)}
        remove_source(index, "vendor")  # the list is incomplete again: packages, no edges
        assert _depends(index) == set()


def test_conflicts_resolve_across_sources_with_their_reason(tmp_path: Path, vendor: Path) -> None:
    write_file(tmp_path / "mine", "skills/report/SKILL.md",
               _skill("report", extra="conflicts:\n  - name: docx\n    reason: both write reports\n"))
    with _open(tmp_path / "ix") as index:
        index_sources(index, [tmp_path / "mine", vendor])
        (edge,) = [e for e in index.snapshot().edges.values() if e.kind is EdgeKind.CONFLICTS_WITH]
    assert (edge.source, edge.target, edge.description) == (REPORT, "vendor/skills/docx/SKILL.md", "both write reports")


def test_a_json_graph_source_is_untouched(tmp_path: Path, mine: Path) -> None:
    graph = tmp_path / "graph" / "g.json"
    graph.parent.mkdir()
    graph.write_text(json.dumps({"nodes": [
        {"id": "g/pdf", "kind": "skill", "name": "pdf", "text": "a pdf skill"},
        {"id": "g/user", "kind": "skill", "name": "user", "text": "uses pdf", "attrs": {"requires": ["pdf"]}},
    ], "edges": [{"source": "g/user", "target": "g/pdf", "kind": "DEPENDS_ON"}]}))  # fmt: skip
    with _open(tmp_path / "ix") as index:
        index_sources(index, [graph], "json")
        index_sources(index, [mine])
        # the JSON graph's own edge stays; the skill's requires may resolve to its node
        assert _depends(index) == {("g/user", "g/pdf"), (REPORT, "g/pdf")}
        remove_source(index, "mine")
        assert _depends(index) == {("g/user", "g/pdf")}


def test_the_cli_prints_the_link_instead_of_the_unknown_component(
    tmp_path: Path, mine: Path, vendor: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ix = str(tmp_path / "ix")
    common = ["--index-dir", ix, "--embedder", "hashing-64"]
    assert main(["index", str(mine), *common]) == 0
    assert "requires unknown component 'pdf'; no edge made" in capsys.readouterr().out
    assert main(["index", str(vendor), *common]) == 0
    assert "across sources: report requires 'pdf': linked to vendor's pdf" in capsys.readouterr().out
    assert main(["index", str(mine), *common]) == 0
    out = capsys.readouterr().out
    assert "unknown component" not in out
    assert "across sources: report requires 'pdf': linked to vendor's pdf" in out
    assert main(["remove-source", "vendor", *common[:2]]) == 0
    assert ("across sources: report requires 'pdf': no component of that name is left in the index"
            in capsys.readouterr().out)
    assert main(["index", str(vendor), *common, "--json"]) == 0
    links = json.loads(capsys.readouterr().out)["run"]["cross_source"]["links"]
    assert [(k["node"], k["target"], k["new"]) for k in links] == [(REPORT, PDF, True)]


PBT_SKILL = "tob/plugins/pbt/skills/pbt/SKILL.md"


@pytest.fixture
def tob(tmp_path: Path) -> Path:
    """A plugin folder named after its one skill (``plugins/pbt/skills/pbt``), and a
    plugin ``solo`` whose skill is named otherwise."""
    write_file(tmp_path / "tob", "plugins/pbt/skills/pbt/SKILL.md", _skill("pbt"))
    write_file(tmp_path / "tob", "plugins/solo/skills/other/SKILL.md", _skill("other"))
    return tmp_path / "tob"


@pytest.mark.parametrize("order", ["mine-then-tob", "tob-then-mine"])
def test_the_skill_of_a_name_wins_over_its_plugin_and_is_installed(
    tmp_path: Path, tob: Path, order: str
) -> None:
    write_file(tmp_path / "mine", "skills/report/SKILL.md", _skill("report", requires="pbt"))
    mine = tmp_path / "mine"
    with _open(tmp_path / "ix") as index:
        assert index_sources(index, [mine, tob] if order == "mine-then-tob" else [tob, mine]).cross_source
        run = index_sources(index, [tob] if order == "mine-then-tob" else [mine])
        # "tob/plugins/pbt" sorts before its skill's path: only the kind decides
        assert _depends(index) == {(REPORT, PBT_SKILL)}
        assert run.cross_source is not None
        (link,) = run.cross_source.links
        assert (link.target, link.note, link.rivals) == (PBT_SKILL, "", ())
        assert run.cross_source.notes == []  # a plugin and its own member are one thing of a name
        plan = install(index, [REPORT], tmp_path / "project", dry_run=True)
    statuses = {c.id: (c.kind, c.status) for c in plan.components}
    assert statuses == {REPORT: ("skill", "install"), PBT_SKILL: ("skill", "install")}
    assert all(not c.missing for c in plan.components)


def test_a_name_only_a_plugin_has_links_to_the_plugin(tmp_path: Path, tob: Path) -> None:
    write_file(tmp_path / "mine", "skills/report/SKILL.md", _skill("report", requires="solo"))
    with _open(tmp_path / "ix") as index:
        run = index_sources(index, [tmp_path / "mine", tob])
        assert _depends(index) == {(REPORT, "tob/plugins/solo")}
        assert run.cross_source is not None and run.cross_source.notes == []


def test_an_unrelated_plugin_of_the_name_is_a_rival_the_component_goes_first(
    tmp_path: Path, mine: Path, vendor: Path
) -> None:
    write_file(tmp_path / "aaa", "plugins/pdf/skills/pdf-tools/SKILL.md", _skill("pdf-tools"))
    with _open(tmp_path / "ix") as index:
        run = index_sources(index, [mine, tmp_path / "aaa", vendor])
        assert _depends(index) == {(REPORT, PDF)}  # "aaa" sorts first, but is a plugin
        assert run.cross_source is not None
        (note,) = run.cross_source.notes
    assert "which 2 components and plugins of other sources are named" in note.message
    assert f"goes to skill {PDF}, a component before a plugin (also plugin aaa/plugins/pdf)" in note.message


def test_install_notes_a_requires_no_source_of_the_index_has(tmp_path: Path, vendor: Path) -> None:
    write_file(tmp_path / "mine", "skills/report/SKILL.md", _skill("report", requires="pdf, 'torch>=2.9', zzz"))
    write_file(tmp_path / "mine", "skills/outer/SKILL.md", _skill("outer", requires="report"))
    outer = "mine/skills/outer/SKILL.md"
    with _open(tmp_path / "ix") as index:
        index_sources(index, [tmp_path / "mine", vendor])
        linked = install(index, [outer], tmp_path / "project", dry_run=True)
        remove_source(index, "vendor")
        unlinked = install(index, [outer], tmp_path / "project", dry_run=True)
    by = {c.id: c for c in linked.components}
    # pdf is linked (and brought); zzz is nowhere; the package spec is no component
    assert [(m.id, m.name, m.status) for m in by[REPORT].missing] == [("", "zzz", "not in the index")]
    assert [m.note for m in by[outer].missing] == [(
        "requires 'zzz' (via report), which no source of the index has: it may not work until zzz "
        "is there; install it by hand or index a source that has it"
    )]
    by = {c.id: c for c in unlinked.components}
    assert set(by) == {outer, REPORT}
    assert [m.name for m in by[REPORT].missing] == ["pdf", "zzz"]
    assert any(line.startswith("  note: requires 'pdf', which no source of the index has")
               for line in unlinked.lines())
    assert by[REPORT].to_dict()["missing_requirements"][0]["status"] == "not in the index"


def test_the_ambiguity_note_is_printed_with_the_link_whichever_source_is_read(
    tmp_path: Path, mine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("zeta", "alpha"):
        write_file(tmp_path / name, "skills/pdf/SKILL.md", _skill("pdf"))
    common = ["--index-dir", str(tmp_path / "ix"), "--embedder", "hashing-64"]
    link = "across sources: report requires 'pdf': linked to alpha's pdf"
    note = "across sources: note: report requires 'pdf', which 2 components of other sources are named"
    assert main(["index", str(mine), *common]) == 0
    assert main(["index", str(tmp_path / "alpha"), *common]) == 0
    assert note not in capsys.readouterr().out  # one candidate: no note
    # the requiring source, the target's, and the rival's source (which made the choice)
    for source in (tmp_path / "zeta", mine, tmp_path / "alpha", tmp_path / "zeta"):
        assert main(["index", str(source), *common]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert link in lines, source
        (noted,) = [i for i, line in enumerate(lines) if line.startswith(note)]
        assert lines[noted - 1] == link  # right under its link
    write_file(tmp_path / "other", "skills/docx/SKILL.md", _skill("docx"))
    assert main(["index", str(tmp_path / "other"), *common]) == 0
    assert "across sources:" not in capsys.readouterr().out  # a run touching none of it
