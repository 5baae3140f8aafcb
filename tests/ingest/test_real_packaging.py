"""Claude Code's real packaging in the shared data (skipped when it is absent): the
wshobson marketplace and plugin manifests, davila7's hook fragments and MCP configs.

Expected counts are read from the raw files with plain `json`, not from the ingester.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.ingest.result import IngestResult
from skill_retriever.ingest.skills import ingest_skill_repo
from skill_retriever.model import COMPONENT_KINDS, EdgeKind, NodeKind

SKILLS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "skills"
WSHOBSON = SKILLS / "wshobson__agents"
DAVILA = SKILLS / "davila7__claude-code-templates"
COMPONENTS = DAVILA / "cli-tool" / "components"

pytestmark = pytest.mark.skipif(
    not (WSHOBSON / ".claude-plugin" / "marketplace.json").is_file()
    or not (COMPONENTS / "mcps").is_dir(),
    reason="shared skills data with packaging not present",
)


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _problems_under(result: IngestResult, *folders: Path) -> list[str]:
    return [str(p) for p in result.problems if any(p.path.startswith(f"{f}/") for f in folders)]


@pytest.fixture(scope="module")
def wshobson() -> IngestResult:
    return ingest_skill_repo(WSHOBSON)


@pytest.fixture(scope="module")
def davila() -> IngestResult:
    return ingest_skill_repo(DAVILA)


def test_every_marketplace_entry_is_a_plugin(wshobson: IngestResult) -> None:
    market = _load(WSHOBSON / ".claude-plugin" / "marketplace.json")
    plugins = {n.name: n for n in wshobson.nodes if n.kind is NodeKind.PLUGIN}
    assert set(plugins) == {e["name"] for e in market["plugins"]}
    assert len(plugins) == len(market["plugins"])
    for entry in market["plugins"]:
        node = plugins[entry["name"]]
        assert node.attrs["marketplace"] == market["name"]
        assert node.attrs["marketplace_source"] == entry["source"]
        manifest = WSHOBSON / str(entry["source"]) / ".claude-plugin" / "plugin.json"
        merged = {**entry, **(_load(manifest) if manifest.is_file() else {})}
        assert node.attrs["category"] == merged["category"]  # plugin.json wins
        if isinstance(entry["source"], str):
            assert node.id == f"wshobson__agents/{entry['source'].removeprefix('./')}"
    assert _problems_under(wshobson, WSHOBSON / ".claude-plugin", WSHOBSON / "plugins") == []
    assert wshobson.problems == []


def test_plugin_manifests_win_and_components_are_part_of_their_plugin(
    wshobson: IngestResult,
) -> None:
    by_id = {n.id: n for n in wshobson.nodes}
    manifests = sorted((WSHOBSON / "plugins").glob("*/.claude-plugin/plugin.json"))
    assert manifests
    part_of = {(e.source, e.target) for e in wshobson.edges if e.kind is EdgeKind.PART_OF}
    for manifest in manifests:
        data = _load(manifest)
        folder = manifest.parent.parent.relative_to(WSHOBSON).as_posix()
        node = by_id[f"wshobson__agents/{folder}"]
        assert node.attrs["version"] == data["version"] and node.name == data["name"]
        members = {
            n.id
            for n in wshobson.nodes
            if n.kind in COMPONENT_KINDS and n.attrs["path"].startswith(f"{folder}/")
        }
        assert members, folder
        assert members == {src for src, dst in part_of if dst == node.id}
        assert all(by_id[m].name in node.text for m in members)


def test_every_hook_file_is_one_component_or_a_script_it_runs(davila: IngestResult) -> None:
    folder = COMPONENTS / "hooks"
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    definitions = [p for p in files if p.suffix == ".json" and "hooks" in _load(p)]
    hooks = {
        n.source: n
        for n in davila.nodes
        if n.kind is NodeKind.HOOK and n.source.startswith(str(folder))
    }
    assert set(hooks) == {str(p) for p in definitions}
    for path in definitions:
        assert hooks[str(path)].attrs["hooks"] == _load(path)["hooks"]
    scripts = {
        (Path(node.source).parent / rel).resolve()
        for node in hooks.values()
        for rel in node.attrs["scripts"]
    }
    others = [p for p in files if p.suffix != ".json"]
    assert scripts == {p.resolve() for p in others}  # every script belongs to a hook
    assert _problems_under(davila, folder) == []
    print(f"{len(files)} hook files -> {len(hooks)} hook components, {len(others)} scripts")


def test_every_mcp_server_entry_is_one_component_without_secrets(davila: IngestResult) -> None:
    folder = COMPONENTS / "mcps"
    files = sorted(folder.rglob("*.json"))
    entries = {(str(p), name): e for p in files for name, e in _load(p)["mcpServers"].items()}
    servers = {
        (n.source, n.id.rsplit("#", 1)[1]): n
        for n in davila.nodes
        if n.kind is NodeKind.MCP_SERVER and n.source.startswith(str(folder))
    }
    assert set(servers) == set(entries)
    for key, entry in entries.items():
        attrs = servers[key].attrs
        assert attrs["env_keys"] == sorted(entry.get("env") or {})
        assert attrs.get("header_keys", []) == sorted(entry.get("headers") or {})
        assert attrs["command"] == entry.get("command")
        dump = json.dumps(servers[key].to_dict())
        secrets = [*(entry.get("env") or {}).values(), *(entry.get("headers") or {}).values()]
        assert not any(len(s) > 8 and s in dump for s in secrets)
    assert _problems_under(davila, folder) == []
    print(f"{len(files)} MCP files -> {len(servers)} MCP servers")
