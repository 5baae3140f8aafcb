"""The tiny hand-made knowledge graph the unit tests index (HashingEmbedder, real
Chroma on disk). A plain module, not conftest: several conftest.py files live under
tests/, so ``from conftest import`` would be ambiguous."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from skill_retriever.model import Edge, Node
from skill_retriever.stores.embedder import Embedder, HashingEmbedder
from skill_retriever.stores.index import Index

#: The fixed "now" of every test that reads time (RetrievalConfig(now=NOW)).
NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
#: A node only principal "team-a" may see.
PRIVATE_ID = "doc:checkout-runbook"


def tiny_nodes() -> list[Node]:
    def n(id_: str, kind: str, name: str, text: str, **kw: object) -> Node:
        return Node(id=id_, kind=kind, name=name, text=text, **kw)  # type: ignore[arg-type]

    return [
        n("skill:postgres-migrations", "skill", "postgres-migrations",
          "Write and run postgres schema migrations with alembic; roll back a failed migration safely.",
          description="Postgres schema migrations", tags=("db", "postgres"), updated="2026-03-01"),
        n("skill:alembic", "skill", "alembic",
          "Alembic revision scripts: autogenerate, upgrade head, downgrade one revision.",
          tags=("db", "python"), updated="2025-10-10"),
        n("agent:db-reviewer", "agent", "db-reviewer",
          "Reviews database changes: postgres migrations, indexes, locking and long transactions.",
          tags=("db",), updated="2026-05-05"),
        n("command:deploy", "command", "deploy",
          "Deploy a service such as checkout-api to production with a canary and automatic rollback.",
          tags=("deploy",), updated="2026-11-01"),
        n("service:checkout-api", "service", "checkout-api",
          "The checkout-api service takes payments and creates orders; owned by the payments team.",
          tags=("payments",), updated="2026-09-09"),
        n("incident:INC-1043", "incident", "INC-1043",
          "INC-1043: checkout-api latency spike after a deploy; rolled back, postgres lock contention.",
          tags=("incident", "payments"), created="2026-11-28T07:00:00Z", updated="2026-11-28T08:00:00Z"),
        n("incident:INC-0999", "incident", "INC-0999",
          "INC-0999: search service returned stale results after a cache flush.",
          tags=("incident",), created="2026-11-20T10:00:00Z"),
        n("skill:pytest-fixtures", "skill", "pytest-fixtures",
          "Share test setup with pytest fixtures, scopes and factories; avoid global state in tests.",
          tags=("python", "testing"), updated="2026-01-15"),
        n("hook:ruff-pre-commit", "hook", "ruff-pre-commit",
          "A pre-commit hook that runs ruff format and ruff check on staged python files.",
          tags=("python", "formatting"), updated="2026-02-02"),
        n("mcp:github", "mcp_server", "github",
          "GitHub MCP server: read pull requests, issues and workflow runs for deploy reviews.",
          tags=("github",), updated="2026-06-06"),
        n(PRIVATE_ID, "document", "checkout-runbook",
          "Private runbook for checkout-api outages: failover steps, postgres replica promotion, on-call contacts.",
          tags=("payments", "runbook"), access=("team-a",), updated="2026-11-27"),
    ]  # fmt: skip


def tiny_edges() -> list[Edge]:
    return [
        Edge("skill:postgres-migrations", "skill:alembic", "DEPENDS_ON"),
        Edge("agent:db-reviewer", "skill:postgres-migrations", "USES"),
        Edge("command:deploy", "service:checkout-api", "TOUCHES"),
        Edge("command:deploy", "skill:postgres-migrations", "DEPENDS_ON", weight=0.5),
        Edge("incident:INC-1043", "service:checkout-api", "AFFECTS", description="latency spike"),
        Edge("mcp:github", "command:deploy", "ENHANCES"),
        Edge("hook:ruff-pre-commit", "skill:pytest-fixtures", "RELATED_TO", weight=0.3),
        Edge(PRIVATE_ID, "service:checkout-api", "MENTIONS"),
        Edge(PRIVATE_ID, "incident:INC-1043", "MENTIONS"),
    ]


def build_tiny_index(path: Path, embedder: Embedder | None = None) -> Index:
    index = Index.open(path, embedder=embedder or HashingEmbedder(), create=True)
    index.add(tiny_nodes(), tiny_edges())
    return index
