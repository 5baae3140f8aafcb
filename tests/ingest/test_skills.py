"""Skills repositories -> nodes and edges: the bundled sample, hostile files, the real corpora."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from files import write_file
from hypothesis import given, settings
from hypothesis import strategies as st

from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.frontmatter import FrontmatterError, parse_frontmatter
from skill_retriever.ingest.mentions import MentionScanner
from skill_retriever.ingest.result import IngestResult
from skill_retriever.ingest.skills import ingest_skill_repo, ingest_skill_repos
from skill_retriever.model import EdgeKind, NodeKind, validate_graph

SAMPLE = (
    Path(__file__).resolve().parents[2] / "src" / "skill_retriever" / "data" / "sample_catalogue"
)
SHARED_SKILLS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "skills"
JUDGED = ("wshobson__agents", "K-Dense-AI__claude-scientific-skills", "anthropics__skills")


def _md(
    name: str, description: str = "A component.", body: str = "Body text.", **fields: str
) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n{body}\n"


def _edges(result: IngestResult, kind: EdgeKind) -> set[tuple[str, str]]:
    names = {n.id: n.name for n in result.nodes}
    return {(names[e.source], names[e.target]) for e in result.edges if e.kind is kind}


def _check_graph(result: IngestResult) -> None:
    validate_graph(result.nodes, result.edges)
    keys = [(e.source, e.target, e.kind) for e in result.edges]
    assert len(keys) == len(set(keys)), "duplicate edges"
    assert all(e.source != e.target for e in result.edges), "self-edge"


# --- the bundled sample catalogue -------------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> IngestResult:
    return ingest_skill_repo(SAMPLE)


def test_sample_counts_by_kind(sample: IngestResult) -> None:
    kinds = Counter(n.kind for n in sample.nodes)
    assert kinds == {
        NodeKind.SKILL: 26,
        NodeKind.AGENT: 13,
        NodeKind.COMMAND: 11,
        NodeKind.MCP_SERVER: 7,
        NodeKind.HOOK: 6,
        NodeKind.PLUGIN: 3,
    }
    assert sample.problems == []
    _check_graph(sample)


def test_sample_ids_are_corpus_and_relative_path(sample: IngestResult) -> None:
    ids = {n.id for n in sample.nodes}
    assert "sample_catalogue/skills/ruff-format/SKILL.md" in ids
    assert "sample_catalogue/plugins/db-toolkit/skills/migrations-alembic/SKILL.md" in ids
    assert "sample_catalogue/mcp/team-servers.json#feature-flags" in ids
    assert "sample_catalogue/mcp/metrics-gateway.json" in ids
    assert "sample_catalogue/plugins/release-train" in ids  # a plugin is its folder
    node = next(n for n in sample.nodes if n.name == "migrations-alembic")
    assert node.attrs["path"] == "plugins/db-toolkit/skills/migrations-alembic/SKILL.md"
    assert node.attrs["plugin"] == "db-toolkit"
    assert node.attrs["corpus"] == "sample_catalogue"
    assert Path(node.source).is_file()


def test_sample_dependencies_conflicts_and_uses(sample: IngestResult) -> None:
    depends = _edges(sample, EdgeKind.DEPENDS_ON)
    assert {
        ("ship", "release-captain"),
        ("release-captain", "canary-rollout"),
        ("canary-rollout", "slo-alerting"),
        ("db-migrate", "migrations-alembic"),
        ("format-on-save", "ruff-format"),
    } <= depends
    conflicts = _edges(sample, EdgeKind.CONFLICTS_WITH)
    assert {
        ("ruff-format", "black-formatting"),
        ("migrations-alembic", "migrations-sqitch"),
        ("migrations-sqitch", "migrations-alembic"),
        ("canary-rollout", "blue-green-deploy"),
    } <= conflicts
    reason = next(
        e.description
        for e in sample.edges
        if e.kind is EdgeKind.CONFLICTS_WITH and e.source.endswith("ruff-format/SKILL.md")
    )
    assert "flip" in reason
    uses = _edges(sample, EdgeKind.USES)
    assert ("query-plan-tuning", "postgres-inspector") in uses
    assert ("release-captain", "deploy-control") in uses  # from mcp__deploy-control__promote
    assert ("accessibility-audit", "browser-runner") in uses  # a server inside a multi-server file
    assert ("incident-commander", "Read") not in uses  # built-in tools are not nodes


def test_sample_dependencies_have_no_cycle(sample: IngestResult) -> None:
    graph: dict[str, set[str]] = {}
    for e in sample.edges:
        if e.kind is EdgeKind.DEPENDS_ON:
            graph.setdefault(e.source, set()).add(e.target)
    state: dict[str, int] = {}

    def visit(node: str) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            assert state.get(nxt) != 1, f"dependency cycle through {nxt}"
            if nxt not in state:
                visit(nxt)
        state[node] = 2

    for node in list(graph):
        if node not in state:
            visit(node)


def test_sample_plugins_and_skill_files(sample: IngestResult) -> None:
    part_of = _edges(sample, EdgeKind.PART_OF)
    assert ("migrations-alembic", "db-toolkit") in part_of
    assert ("database-reviewer", "db-toolkit") in part_of
    assert ("block-friday-deploys", "release-train") in part_of
    assert ("audit-deps", "security-kit") in part_of
    assert not any(target == "db-toolkit" for src, target in part_of if src == "ruff-format")
    plugin = next(
        n for n in sample.nodes if n.kind is NodeKind.PLUGIN and n.name == "release-train"
    )
    assert (
        "canary-rollout (skill)" in plugin.text
        and plugin.attrs["plugin_json"]["version"] == "2.1.0"
    )
    skill = next(n for n in sample.nodes if n.name == "load-testing")
    assert skill.attrs["files"] == ["scripts/check.sh"]
    assert "k6 run" not in skill.text  # extra files are listed, not read


def test_sample_mentions_and_metadata(sample: IngestResult) -> None:
    mentions = _edges(sample, EdgeKind.MENTIONS)
    assert ("fastapi-service-scaffold", "container-image-hardening") in mentions
    assert all(e.weight == 0.5 for e in sample.edges if e.kind is EdgeKind.MENTIONS)
    server = next(n for n in sample.nodes if n.name == "metrics-gateway")
    assert server.attrs["env_keys"] == ["METRICS_GATEWAY_TOKEN", "METRICS_GATEWAY_URL"]
    assert "metrics.internal.example" not in json.dumps(server.to_dict())  # env values stay out
    recent = {
        n.name for n in sample.nodes if n.updated and n.updated.strftime("%Y-%m") == "2026-11"
    }
    assert {"canary-rollout", "accessibility-audit"} <= recent
    assert len({n.description for n in sample.nodes}) == len(sample.nodes)


def test_ingest_is_deterministic(sample: IngestResult) -> None:
    again = ingest_skill_repo(SAMPLE)
    assert [n.to_dict() for n in again.nodes] == [n.to_dict() for n in sample.nodes]
    assert [e.to_dict() for e in again.edges] == [e.to_dict() for e in sample.edges]


# --- hostile and awkward files ------------------------------------------------------------


def test_hostile_files_are_reported_and_the_rest_ingested(tmp_path: Path) -> None:
    root = tmp_path / "hostile"
    write_file(root, "skills/good/SKILL.md", _md("good-skill", requires="[missing-thing]"))
    write_file(
        root,
        "skills/malformed/SKILL.md",
        "---\nname: broken\ndescription: fine\n}{ not yaml\n---\nbody\n",
    )
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    write_file(root, "skills/bomb/SKILL.md", f"---\nname: bomb\ndescription: boom\n{bomb}---\nbody\n")
    write_file(root, "skills/listy/SKILL.md", "---\n- name\n- description\n---\nbody\n")
    write_file(
        root, "skills/namelist/SKILL.md", "---\nname: [a, b]\ndescription: two names\n---\nbody\n"
    )
    write_file(root, "skills/binary/SKILL.md", b"---\nname: bin\n---\n\x00\x01\x02")
    write_file(
        root,
        "skills/latin1/SKILL.md",
        "---\nname: caf\xe9\ndescription: d\n---\nbody\n".encode("latin-1"),
    )
    write_file(root, "skills/huge/SKILL.md", _md("huge", body="x" * 200_000))
    write_file(
        root,
        "skills/bigfm/SKILL.md",
        "---\nname: big\ndescription: " + "y" * 70_000 + "\n---\nbody\n",
    )
    write_file(root, "skills/unclosed/SKILL.md", "---\nname: unclosed\ndescription: never closed\n")
    write_file(root, "agents/empty.md", "---\nname: empty-agent\n---\n\n   \n")
    write_file(root, "agents/timestamps.md", _md("timestamps-agent", created="not-a-date"))
    write_file(root, "hooks/bad.json", "{not json")

    result = ingest_skill_repo(root, max_file_bytes=100_000)
    by_file = {Path(p.path).relative_to(root).as_posix(): p.message for p in result.problems}
    assert set(by_file) == {
        "skills/good/SKILL.md",
        "skills/malformed/SKILL.md",
        "skills/bomb/SKILL.md",
        "skills/listy/SKILL.md",
        "skills/namelist/SKILL.md",
        "skills/binary/SKILL.md",
        "skills/latin1/SKILL.md",
        "skills/huge/SKILL.md",
        "skills/bigfm/SKILL.md",
        "skills/unclosed/SKILL.md",
        "agents/empty.md",
        "agents/timestamps.md",
        "hooks/bad.json",
    }
    assert "requires unknown component 'missing-thing'" in by_file["skills/good/SKILL.md"]
    assert "not valid YAML" in by_file["skills/malformed/SKILL.md"]
    assert "aliases" in by_file["skills/bomb/SKILL.md"]
    assert "mapping" in by_file["skills/listy/SKILL.md"]
    assert "'name' must be text" in by_file["skills/namelist/SKILL.md"]
    assert "binary" in by_file["skills/binary/SKILL.md"]
    assert "UTF-8" in by_file["skills/latin1/SKILL.md"]
    assert "over the 100,000-byte limit" in by_file["skills/huge/SKILL.md"]
    assert "64 KB" in by_file["skills/bigfm/SKILL.md"]
    assert "never closed" in by_file["skills/unclosed/SKILL.md"]
    assert "nothing to index" in by_file["agents/empty.md"]
    assert "not an ISO date" in by_file["agents/timestamps.md"]
    assert "JSON" in by_file["hooks/bad.json"]
    # What could be read was read; the bad timestamp only cost the timestamp.
    assert sorted(n.name for n in result.nodes) == ["good-skill", "timestamps-agent"]
    assert next(n for n in result.nodes if n.name == "timestamps-agent").created is None
    assert result.edges == []


def test_alias_bomb_is_refused_fast() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    lines += [
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}" if i > 1 else "*a"] * 10) + "]"
        for i in range(1, 20)
    ]
    with pytest.raises(FrontmatterError, match="aliases"):
        parse_frontmatter("---\n" + "\n".join(lines) + "\n---\nbody")


def test_deep_nesting_is_refused_unparsed() -> None:
    with pytest.raises(FrontmatterError, match="deep"):
        parse_frontmatter("---\nname: x\ntags: " + "[" * 30_000 + "\n---\nbody")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("-:[]{}&*!|>'\"#\n\t ab1")), max_size=200))
def test_any_frontmatter_parses_or_raises_frontmatter_error(block: str) -> None:
    try:
        fm = parse_frontmatter(f"---\n{block}\n---\nbody")
    except FrontmatterError:
        return
    assert isinstance(fm.fields, dict) and all(isinstance(k, str) for k in fm.fields)


def test_lenient_frontmatter_is_recovered() -> None:
    text = (
        "---\nname: droid\n"
        "description: Use this agent. Examples: user: 'How?' assistant: 'Like so.'\n"
        "argument-hint: [name] [--typescript]\ntools: *\n---\nBody.\n"
    )
    fm = parse_frontmatter(text)
    assert fm.recovered_from and fm.fields["name"] == "droid"
    assert fm.fields["description"].startswith("Use this agent. Examples: user:")
    assert fm.fields["argument-hint"] == "[name] [--typescript]" and fm.fields["tools"] == "*"
    assert fm.body == "Body.\n"


def test_a_quote_yaml_could_not_read_is_not_part_of_the_value() -> None:
    """An opening quote never closed, or a quoted value over several lines, is read as
    its words: the quote is no part of the description an agent or the keywords see."""
    fm = parse_frontmatter(
        "---\nname: x\ndescription: \"unterminated: yes\nargument-hint: 'two\n  lines: here'\n---\nB\n"
    )
    assert fm.recovered_from
    assert fm.fields["description"] == "unterminated: yes"
    assert fm.fields["argument-hint"] == "two lines: here"


def test_recovered_file_is_ingested_with_a_flag(tmp_path: Path) -> None:
    write_file(
        tmp_path / "r",
        "commands/go.md",
        "---\ndescription: Go: now\nargument-hint: [a] | --b\n---\nRun it.\n",
    )
    result = ingest_skill_repo(tmp_path / "r")
    (node,) = result.nodes
    assert node.kind is NodeKind.COMMAND and node.name == "go" and node.description == "Go: now"
    assert node.attrs["frontmatter_recovered"]
    (problem,) = result.problems  # indexed, and reported: the file is not valid YAML
    assert problem.path == str(tmp_path / "r" / "commands" / "go.md")
    assert problem.message.startswith("frontmatter is not valid YAML (")


def test_broken_frontmatter_value_is_indexed_as_written_and_reported(tmp_path: Path) -> None:
    """An unclosed list is no common slip: the text is kept, and the run says so."""
    bad = write_file(
        tmp_path / "r", "skills/foo/SKILL.md", "---\ndescription: [unclosed foo: : bar\n---\nBody.\n"
    )
    write_file(tmp_path / "r", "skills/ok/SKILL.md", _md("ok"))
    result = ingest_skill_repo(tmp_path / "r")
    node = next(n for n in result.nodes if n.name == "foo")
    assert node.description == "[unclosed foo: : bar"
    assert node.attrs["frontmatter_recovered"]
    assert [(p.path, p.message.split(";")[0]) for p in result.problems] == [
        (str(bad), f"frontmatter is not valid YAML ({node.attrs['frontmatter_recovered']})")
    ]


def test_plain_files_are_skipped_silently(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    write_file(root, "README.md", "# Readme\nNo frontmatter.\n")
    write_file(root, "LICENSE.md", "---\nname: license\ndescription: the licence\n---\ntext\n")
    write_file(root, "MANIFEST.json", '{"files": []}')
    write_file(root, "docs/guide.md", _md("style-guide", "How we write."))
    result = ingest_skill_repo(root)
    assert [(n.kind, n.name) for n in result.nodes] == [(NodeKind.OTHER, "style-guide")]
    assert result.problems == []


def test_duplicate_names_resolve_within_the_plugin(tmp_path: Path) -> None:
    root = tmp_path / "dups"
    for plugin in ("alpha", "beta"):
        write_file(
            root, f"plugins/{plugin}/agents/debugger.md", _md("debugger", f"Debugger for {plugin}.")
        )
        write_file(
            root,
            f"plugins/{plugin}/commands/fix.md",
            _md(
                f"fix-{plugin}",
                body="Ask the debugger agent, then the debugger again.",
                requires="[debugger]",
            ),
        )
    write_file(root, "commands/solo.md", _md("solo-fix", requires="[debugger]"))
    result = ingest_skill_repo(root)
    _check_graph(result)
    deps = {(e.source, e.target) for e in result.edges if e.kind is EdgeKind.DEPENDS_ON}
    assert deps == {
        ("dups/plugins/alpha/commands/fix.md", "dups/plugins/alpha/agents/debugger.md"),
        ("dups/plugins/beta/commands/fix.md", "dups/plugins/beta/agents/debugger.md"),
        ("dups/commands/solo.md", "dups/plugins/alpha/agents/debugger.md"),  # first by path
    }
    # The agents' own bodies name themselves: no self-edges, and no edge to the other copy.
    assert not any(
        e.kind is EdgeKind.MENTIONS and e.source.endswith("debugger.md") for e in result.edges
    )
    plugins = sorted(n.id for n in result.nodes if n.kind is NodeKind.PLUGIN)
    assert plugins == ["dups/plugins/alpha", "dups/plugins/beta"]


def test_mcp_and_hook_configs_keep_secrets_out(tmp_path: Path) -> None:
    root = tmp_path / "cfg"
    servers = {
        "mcpServers": {
            "github-tools": {
                "command": "npx",
                "args": ["-y", "gh-mcp", "--api-key", "sk-SECRET1"],
                "env": {"GH_TOKEN": "SECRET2"},
            },
            "remote-search": {
                "type": "http",
                "url": "https://u:SECRET3@search.example/mcp?key=SECRET4",
            },
            "broken": "not an object",
        }
    }
    write_file(root, "plugins/kit/.mcp.json", json.dumps(servers))
    write_file(root, "mcp/solo.json", json.dumps({"name": "solo-server", "description": "One server."}))
    settings_hook = {
        "description": "Lint after edits.",
        "hooks": {
            "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "lint"}]}]
        },
    }
    write_file(root, "hooks/lint.json", json.dumps(settings_hook))
    write_file(
        root,
        "plugins/kit/agents/helper.md",
        _md("kit-helper", tools="Read, mcp__github-tools__search"),
    )
    result = ingest_skill_repo(root)
    dump = json.dumps([n.to_dict() for n in result.nodes])
    assert not any(f"SECRET{i}" in dump for i in range(1, 5))
    # A bad entry is reported and skipped; the rest of its file and the other files are read.
    assert [p.message for p in result.problems] == [
        "mcpServers['broken'] skipped: must be an object"
    ]
    names = sorted(n.name for n in result.nodes)
    assert names == ["github-tools", "kit", "kit-helper", "lint", "remote-search", "solo-server"]
    hook = next(n for n in result.nodes if n.name == "lint")
    assert hook.attrs["runs"] == [{"event": "PostToolUse", "matcher": "Edit", "command": "lint"}]
    ids = {n.id for n in result.nodes}
    assert {
        "cfg/plugins/kit/.mcp.json#github-tools",
        "cfg/plugins/kit/.mcp.json#remote-search",
    } <= ids
    assert _edges(result, EdgeKind.USES) == {("kit-helper", "github-tools")}
    remote = next(n for n in result.nodes if n.name == "remote-search")
    assert (
        remote.attrs["url"] == "https://search.example/mcp" and remote.attrs["transport"] == "http"
    )


def test_mentions_match_whole_names_only() -> None:
    scanner = MentionScanner(
        ["code-review", "test", "docs", "security auditor", "pennylane", "Next.js"]
    )
    assert scanner.keys == {"code-review", "security auditor", "pennylane", "next js"}
    found = scanner.scan(
        "Run code-review-checklist, then the Security Auditor; test docs with PennyLane in Next.js."
    )
    assert found == {"security auditor", "pennylane", "next js"}


def test_other_corpora_resolve_missing_dependencies(tmp_path: Path) -> None:
    write_file(tmp_path / "one", "skills/a/SKILL.md", _md("needs-base", requires="[shared-base]"))
    write_file(tmp_path / "two", "skills/b/SKILL.md", _md("shared-base"))
    alone = ingest_skill_repo(tmp_path / "one")
    assert [p.message for p in alone.problems] == [
        "requires unknown component 'shared-base'; no edge made"
    ]
    both = ingest_skill_repos([tmp_path / "one", tmp_path / "two"])
    assert both.problems == []
    assert _edges(both, EdgeKind.DEPENDS_ON) == {("needs-base", "shared-base")}
    assert {n.id for n in both.nodes} == {"one/skills/a/SKILL.md", "two/skills/b/SKILL.md"}


def test_bad_roots_raise(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="not a folder"):
        ingest_skill_repo(tmp_path / "absent")
    (tmp_path / "x" / "same").mkdir(parents=True)
    (tmp_path / "y" / "same").mkdir(parents=True)
    with pytest.raises(IngestError, match="distinct corpus names"):
        ingest_skill_repos([tmp_path / "x" / "same", tmp_path / "y" / "same"])


def test_symlink_out_of_the_repository_is_skipped(tmp_path: Path) -> None:
    secret = write_file(tmp_path, "outside/secret.md", _md("outside-secret"))
    root = tmp_path / "repo"
    write_file(root, "agents/ok.md", _md("ok-agent"))
    (root / "agents" / "leak.md").symlink_to(secret)
    result = ingest_skill_repo(root)
    assert [n.name for n in result.nodes] == ["ok-agent"]
    assert "outside the repository" in result.problems[0].message


# --- the real corpora (skipped when the shared data is absent) -------------------------------

needs_data = pytest.mark.skipif(not SHARED_SKILLS.is_dir(), reason="shared skills data not present")


@needs_data
def test_anthropics_ids_match_manifest() -> None:
    root = SHARED_SKILLS / "anthropics__skills"
    manifest = json.loads((root / "MANIFEST.json").read_text(encoding="utf-8"))
    expected = {f"anthropics__skills/{f['path']}": f["name"] for f in manifest["files"]}
    result = ingest_skill_repo(root)
    assert {n.id: n.name for n in result.nodes} == expected
    assert result.problems == []
    _check_graph(result)


@needs_data
def test_dev_query_ids_exist_in_the_judged_corpora() -> None:
    result = ingest_skill_repos([SHARED_SKILLS / name for name in JUDGED])
    _check_graph(result)
    ids = {n.id for n in result.nodes}
    with (SHARED_SKILLS / "queries" / "dev.jsonl").open(encoding="utf-8") as lines:
        wanted = {
            doc_id for line in lines if line.strip() for doc_id in json.loads(line)["relevant"]
        }
    assert wanted and wanted <= ids
