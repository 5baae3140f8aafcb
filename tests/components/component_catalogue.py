"""Helpers: a small invented catalogue in two repositories (one re-hosts a skill of the other),
with dependencies, a cycle, a conflict, an agent, a command, a hook and an MCP server."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from skill_retriever.indexing import index_sources
from skill_retriever.model import Edge, EdgeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.graph import EdgeIndex
from skill_retriever.stores.index import Index

API_STYLE_BODY = """# API style

Resource names are plural nouns. Paginate with cursors, never offsets. Errors use
problem+json with a type, a title and the failing fields. Every POST takes an
idempotency key so clients may retry safely.
"""


def _skill(name: str, description: str, body: str, **front: object) -> str:
    lines = [f"name: {name}", f"description: {json.dumps(description)}"]
    for key, value in front.items():
        lines.append(f"{key}: {json.dumps(value)}")
    return "---\n" + "\n".join(lines) + "\n---\n\n" + body


def write_catalogue(root: Path) -> tuple[Path, Path]:
    """Write the two repositories under ``root``; returns their folders."""
    acme = root / "acme-skills"
    mirror = root / "mirror-skills"
    files: dict[Path, str] = {
        acme / "skills/web-scaffold/SKILL.md": _skill(
            "web-scaffold",
            "Scaffold a new Python web service with routes, settings and health checks.",
            "# Web scaffold\n\nCreate app/main.py, app/settings.py and a health route; wire JSON logs.\n",
            requires=["api-style", "json-logging"],
        ),
        acme / "skills/web-scaffold/templates/app.py": "def create_app():\n    return None\n",
        acme / "skills/web-scaffold/scripts/run.sh": "#!/bin/sh\nexec uvicorn app.main:app\n",
        acme / "skills/api-style/SKILL.md": _skill(
            "api-style", "House rules for JSON HTTP APIs: naming, pagination, errors.", API_STYLE_BODY
        ),
        acme / "skills/json-logging/SKILL.md": _skill(
            "json-logging",
            "Structured JSON logs with request ids and trace ids.",
            "# JSON logging\n\nOne JSON object per line with timestamp, level, event, request_id.\n",
            requires=["redact-pii"],
        ),
        acme / "skills/redact-pii/SKILL.md": _skill(
            "redact-pii",
            "Remove personal data from logs and traces before they leave the service.",
            "# Redact PII\n\nMask emails, phone numbers and card numbers with a shared filter.\n",
        ),
        acme / "skills/cycle-a/SKILL.md": _skill(
            "cycle-a", "Release notes drafting.", "# Cycle A\n\nDraft release notes from merged PRs.\n",
            requires=["cycle-b"],
        ),
        acme / "skills/cycle-b/SKILL.md": _skill(
            "cycle-b", "Changelog keeping.", "# Cycle B\n\nKeep CHANGELOG.md in the keep-a-changelog format.\n",
            requires=["cycle-a"],
        ),
        acme / "skills/ruff-lint/SKILL.md": _skill(
            "ruff-lint", "Lint and format Python with Ruff.", "# Ruff\n\nRun ruff check and ruff format.\n",
            conflicts=[{"name": "black-style", "reason": "both rewrite Python files in different styles"}],
        ),
        acme / "skills/black-style/SKILL.md": _skill(
            "black-style", "Format Python with Black and isort.", "# Black\n\nRun black and isort.\n"
        ),
        acme / "agents/api-reviewer.md": _skill(
            "api-reviewer", "Reviews HTTP API changes against the house rules.",
            "You review API diffs for naming, pagination and error format.\n", requires=["api-style"],
        ),
        acme / "commands/ship.md": _skill(
            "ship", "Tag a release and push it.", "Run the tests, tag the version, push the tag.\n"
        ),
        acme / "hooks/format-on-save.json": json.dumps({
            "name": "format-on-save", "description": "Format Python files after every edit.",
            "event": "PostToolUse", "matcher": "Edit|Write", "command": "ruff format $CLAUDE_FILE_PATHS",
        }),
        acme / ".mcp.json": json.dumps({"mcpServers": {"metrics": {
            "command": "metrics-mcp", "args": ["--port", "0"], "env": {"METRICS_TOKEN": "${METRICS_TOKEN}"},
        }}}),
        mirror / "skills/api-style/SKILL.md": _skill(
            "api-style", "House rules for JSON HTTP APIs: naming, pagination and errors.", API_STYLE_BODY
        ),
        mirror / "skills/sql-migrations/SKILL.md": _skill(
            "sql-migrations", "Write reversible SQL schema migrations.",
            "# Migrations\n\nEvery migration has a down step; never drop a column in one release.\n",
        ),
    }  # fmt: skip
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    os.chmod(acme / "skills/web-scaffold/scripts/run.sh", 0o755)
    return acme, mirror


def sid(name: str, corpus: str = "acme-skills") -> str:
    """The node id of a fixture skill."""
    return f"{corpus}/skills/{name}/SKILL.md"


def build_index(path: Path, catalogue: Sequence[Path], embedder: object | None = None) -> Index:
    """``catalogue``'s repositories indexed at ``path`` (the HashingEmbedder unless one is
    given), asserting that no file was a problem."""
    index = Index.open(path, embedder=embedder or HashingEmbedder(), create=True)  # type: ignore[arg-type]
    run = index_sources(index, list(catalogue), "skills")
    problems = [str(p) for s in run.sources for p in s.problems]
    assert not problems, problems
    return index


def graph_of(edges: list[tuple[str, str, str] | tuple[str, str, str, str]]) -> EdgeIndex:
    """A bare typed-edge index from ``(source, target, kind[, description])`` tuples."""
    made = [Edge(e[0], e[1], EdgeKind(e[2]), description=e[3] if len(e) > 3 else "") for e in edges]
    return EdgeIndex({e.id: e for e in made})


def files_under(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` (relative POSIX path -> bytes): what an install left."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def claude_tree(root: Path) -> dict[str, bytes]:
    """What lies in ``root``'s .claude (the install record aside), file by file: what an
    install or uninstall left in a project."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in (root / ".claude").rglob("*")
            if p.is_file() and ".skill-retriever" not in p.parts}


#: davila7's claude-code-templates database MCP servers (postgresql among them).
DATABASE_MCPS = (
    Path(__file__).resolve().parents[3]
    / "shared/data/skills/davila7__claude-code-templates/cli-tool/components/mcps/database"
)


def database_mcps_index(root: Path) -> Path | None:
    """An index (hashing embedder) of a copy of `DATABASE_MCPS` under ``root``, read with
    no problem; None when the shared data is not here. The copy keeps the data out of the
    repository."""
    import shutil

    if not DATABASE_MCPS.is_dir():
        return None
    source = root / "claude-code-templates"
    shutil.copytree(DATABASE_MCPS, source / "mcps/database")
    index = Index.open(root / "index", embedder=HashingEmbedder(), create=True)
    try:
        run = index_sources(index, [source], "skills", calibrate=False)
        assert not [p for s in run.sources for p in s.problems]
    finally:
        index.close()
    return root / "index"
