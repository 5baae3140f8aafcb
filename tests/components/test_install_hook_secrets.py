"""A hook whose command holds a secret is indexed redacted, and installed as the user
wrote it: the entries come from the hook's source file. When that file cannot be read
any more, the hook is skipped with the reason; ``[redacted]`` never reaches
``settings.json``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.ingest.secrets import REDACTED
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SECRET_COMMAND = (
    "curl -s -H 'Authorization: Bearer sk-live-abc123' -d @- "
    "https://user:S3CRETPW@hooks.example.com/notify?token=QUERYTOK1"
)
#: A program on PATH, not a script of the project: a hook running a script it does not ship
#: and the target lacks is left out (`unshipped_scripts`), which is not what this tests.
FLAT_COMMAND = "SLACK_TOKEN=xoxb-123 slack-notify"
CLEAN_COMMAND = 'curl -s -H "Authorization: Bearer $TOKEN" https://hooks.example.com/notify'
SKIP_REASON = "a secret in its command was redacted in the index"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "repo" / "hooks"
    folder.mkdir(parents=True)
    group = {"matcher": "Edit", "hooks": [{"type": "command", "command": SECRET_COMMAND}]}
    fragment = {"description": "Notify a webhook.", "hooks": {"PostToolUse": [group]}}
    (folder / "notify.json").write_text(json.dumps(fragment), encoding="utf-8")
    flat = {"description": "Ping Slack.", "event": "Stop", "command": FLAT_COMMAND}
    (folder / "slack-ping.json").write_text(json.dumps(flat), encoding="utf-8")
    clean = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": CLEAN_COMMAND}]}]}}
    (folder / "clean.json").write_text(json.dumps(clean), encoding="utf-8")
    return folder


@pytest.fixture
def index(tmp_path: Path, repo: Path) -> Iterator[Index]:
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    run = index_sources(idx, [repo.parent], "skills", calibrate=False)
    assert not [p for s in run.sources for p in s.problems]
    yield idx
    idx.close()


def ids(index: Index) -> list[str]:
    return sorted(index.snapshot().nodes)


def commands(settings: Path) -> list[str]:
    data = json.loads(settings.read_text(encoding="utf-8"))
    return [h["command"] for gs in data["hooks"].values() for g in gs for h in g["hooks"]]


def test_the_index_holds_the_commands_redacted(index: Index) -> None:
    runs = [r["command"] for n in index.snapshot().nodes.values() for r in n.attrs["runs"]]
    assert sorted(runs) == sorted(
        [
            (
                f"curl -s -H 'Authorization: Bearer {REDACTED}' -d @- "
                f"https://{REDACTED}@hooks.example.com/notify?token={REDACTED}"
            ),
            f"SLACK_TOKEN={REDACTED} slack-notify",
            CLEAN_COMMAND,
        ]
    )


@pytest.mark.parametrize("scope", ["project", "user"])
def test_install_writes_the_command_of_the_source_file(
    index: Index, tmp_path: Path, scope: str
) -> None:
    root = tmp_path / scope
    where = {"user": True, "home": root} if scope == "user" else {"target": root}
    plan = install(index, ids(index), **where)  # type: ignore[arg-type]
    assert plan.ok and {c.status for c in plan.components} == {"install"}
    written = root / ".claude/settings.json"
    assert sorted(commands(written)) == sorted([SECRET_COMMAND, FLAT_COMMAND, CLEAN_COMMAND])
    assert REDACTED not in written.read_text(encoding="utf-8")


def test_a_hook_whose_file_is_gone_is_skipped_with_the_reason(
    index: Index, tmp_path: Path, repo: Path
) -> None:
    (repo / "notify.json").unlink()
    (repo / "slack-ping.json").unlink()
    (repo / "clean.json").unlink()
    project = tmp_path / "project"
    plan = install(index, ids(index), project)
    assert plan.applied and not plan.ok  # two of the three asked for were not installed
    status = {c.name: (c.status, c.reason) for c in plan.components}
    for name in ("notify", "slack-ping"):
        assert status[name][0] == "skipped"
        assert SKIP_REASON in status[name][1]
        assert "not readable" in status[name][1] and "by hand" in status[name][1]
    # a hook without secrets still installs from the index
    assert status["clean"][0] == "install"
    written = project / ".claude/settings.json"
    assert commands(written) == [CLEAN_COMMAND]
    assert REDACTED not in written.read_text(encoding="utf-8")


def test_a_source_file_that_no_longer_holds_a_hook_falls_back_to_the_index(
    index: Index, tmp_path: Path, repo: Path
) -> None:
    (repo / "notify.json").write_text("not json", encoding="utf-8")
    plan = install(index, ids(index), tmp_path / "project")
    status = {c.name: (c.status, c.reason) for c in plan.components}
    assert status["notify"][0] == "skipped" and SKIP_REASON in status["notify"][1]
    written = (tmp_path / "project/.claude/settings.json").read_text(encoding="utf-8")
    assert REDACTED not in written and "sk-live-abc123" not in written
