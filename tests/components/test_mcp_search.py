"""The MCP ``search`` tool through the official SDK's stdio client: an index holding four
runbooks (one behind ``access: [team-a]``) and the bundled sample catalogue, searched by a
server started without that principal and by one started with it.

Each server is started once (a module fixture makes every call and keeps the answers) and
the tests read its answers: a start loads the real bundled model, which takes seconds.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from skill_retriever.adapters.mcp_server import STATUS_URI
from skill_retriever.algorithms.budget import token_counter
from skill_retriever.cli import main as cli
from skill_retriever.components.results import BRIEF_TOKENS
from skill_retriever.indexing import index_sources, sample_catalogue_path
from skill_retriever.model import COMPONENT_KINDS
from skill_retriever.stores.embedder import SentenceTransformerEmbedder
from skill_retriever.stores.index import Index

pytestmark = pytest.mark.slow

RUNBOOKS = {
    "rollback-deploy.md": """---
title: Roll back a bad deploy
tags: [deploy, kubernetes]
---
# Roll back a bad deploy

When a release breaks checkout or error rates climb after a deploy, roll it back first
and investigate later. Run `kubectl rollout undo deployment/checkout -n prod`, watch
`kubectl rollout status`, then confirm the previous image tag in the release channel.
Freeze further deploys until the postmortem names the cause. ROLLBACK-STEP-4412.
""",
    "rotate-db-credentials.md": """---
title: Rotate the Postgres credentials
---
# Rotate the Postgres credentials

Every ninety days, or at once after a leak, create a new database role password, update
the secret in the password manager, restart the API pods so they read it, and drop the
old password once connections have drained.
""",
    "ci-disk-full.md": """# Free disk space on CI build agents

When builds fail with "no space left on device", prune the Docker layer cache with
`docker system prune -af`, clear old workspaces under /var/lib/ci, and raise the agents'
volume size if it happens weekly.
""",
    "vault-unseal.md": """---
title: Vault unseal procedure
access: [team-a]
---
# Vault unseal procedure

After the Vault cluster restarts it comes up sealed. Gather three of the five key
shares from the key holders (KEYSHARE-7731), run `vault operator unseal` once per share
on each node, and check `vault status` reports Sealed false.
""",
}
ROLLBACK = "runbooks/rollback-deploy.md"
PRIVATE = "runbooks/vault-unseal.md"
#: What a caller without team-a must never read: the private runbook's id, name, body.
PRIVATE_TOKENS = (PRIVATE, "vault-unseal", "Vault unseal procedure", "KEYSHARE-7731")
DEPLOY = "how do I roll back a bad deploy"
VAULT = "the vault came up sealed after a restart, unseal it"
BREAD = "bake sourdough bread"
ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "OPENBLAS_NUM_THREADS": "1"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, real_embedder: SentenceTransformerEmbedder) -> Path:
    """The runbooks indexed as documents, then the sample catalogue (which calibrates)."""
    root = tmp_path_factory.mktemp("mcp-search")
    (runbooks := root / "runbooks").mkdir()
    for name, text in RUNBOOKS.items():
        (runbooks / name).write_text(text, encoding="utf-8")
    index = Index.open(root / "index", embedder=real_embedder, create=True)
    try:
        docs = index_sources(index, [runbooks], "docs", calibrate=False)
        sample = index_sources(index, [sample_catalogue_path()], "skills")
    finally:
        index.close()
    assert not [p for run in (docs, sample) for s in run.sources for p in s.problems]
    return root


def _answer(result: Any) -> dict[str, Any] | str:
    """A tool's answer: its JSON, or the error's text."""
    if result.is_error:
        return str(result.content[0].text)
    data = result.structured_content
    assert isinstance(data, dict) and json.loads(result.content[0].text) == data
    return data


async def _session(index_dir: Path, principals: str, calls: dict[str, tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Start ``skill-retriever mcp --principals <principals>``, make ``calls`` and a budget
    call sized from an earlier answer; every answer by name, with the tools and status."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "skill_retriever.cli", "mcp", "--index-dir", str(index_dir), "--principals", principals],
        env=ENV,
    )
    out: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        out["tools"] = {t.name: t.input_schema for t in (await session.list_tools()).tools}
        for name, (tool, args) in calls.items():
            out[name] = _answer(await session.call_tool(tool, args))
        # a budget that holds the best two documents of three drops the third
        docs = out["documents"]["results"][:3]
        budget = docs[0]["token_count"] + docs[1]["token_count"]
        args = {"query": DEPLOY, "kinds": ["document"], "k": 3, "budget": budget}
        out["budget"] = budget
        out["budgeted"] = _answer(await session.call_tool("search", args))
        out["status"] = json.loads((await session.read_resource(STATUS_URI)).contents[0].text)
    return out


def _serve(built: Path, principals: str, calls: dict[str, tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    answers: dict[str, Any] = {}

    async def run() -> None:
        with anyio.fail_after(240):
            answers.update(await _session(built / "index", principals, calls))

    anyio.run(run)
    return answers


@pytest.fixture(scope="module")
def team_b(built: Path) -> dict[str, Any]:
    """Answers of a server whose caller holds team-b (not team-a)."""
    return _serve(built, "team-b", {
        "deploy": ("search", {"query": DEPLOY, "k": 4}),
        "deploy_full": ("search", {"query": DEPLOY, "k": 1, "detail": "full"}),
        "documents": ("search", {"query": DEPLOY, "kinds": ["document"], "k": 10}),
        "components": ("search_components", {"query": DEPLOY, "k": 5}),
        "bread": ("search", {"query": BREAD, "k": 3}),
        "vault": ("search", {"query": VAULT, "k": 10}),
        "vault_full": ("search", {"query": VAULT, "k": 10, "detail": "full", "kinds": ["document"]}),
        "unknown_kind": ("search", {"query": DEPLOY, "kinds": ["runbook"]}),
        "unknown_argument": ("search", {"query": DEPLOY, "top_k": 3}),
        "too_long": ("search", {"query": "x" * 120_000}),
        "read": ("get_component", {"id": ROLLBACK}),
        "read_by_name": ("get_component", {"id": "Rotate the Postgres credentials"}),
        "read_private": ("get_component", {"id": PRIVATE}),
    })  # fmt: skip


@pytest.fixture(scope="module")
def team_a(built: Path) -> dict[str, Any]:
    """Answers of a server whose caller holds team-a."""
    return _serve(built, "team-a", {
        "vault": ("search", {"query": VAULT, "k": 3}),
        "documents": ("search", {"query": DEPLOY, "kinds": ["document"], "k": 10}),
        "read_private": ("get_component", {"id": PRIVATE}),
    })  # fmt: skip


def test_search_is_listed_with_every_kind(team_b: dict[str, Any]) -> None:
    schema = team_b["tools"]["search"]
    assert set(schema["properties"]) == {"query", "kinds", "k", "budget", "detail", "since", "until"}
    assert schema["additionalProperties"] is False
    kinds = next(s for s in schema["properties"]["kinds"]["anyOf"] if s.get("type") == "array")
    assert {"document", "incident", "deploy", "service", "tool", "passage", "skill"} <= set(kinds["items"]["enum"])


def test_search_finds_the_runbook_first_with_its_source(team_b: dict[str, Any], built: Path) -> None:
    results = team_b["deploy"]["results"]
    top = results[0]
    assert top["id"] == ROLLBACK and top["kind"] == "document" and top["name"] == "Roll back a bad deploy"
    assert top["source"] == str(built / "runbooks" / "rollback-deploy.md")
    assert top["reason"].startswith("matches ") and "deploy" in top["reason"]
    assert "kubectl rollout undo" in top["snippet"] and top["token_count"] > 0
    assert any(r["kind"] != "document" for r in results)  # components answer too, ranked with them
    count = token_counter()
    cut = [{key: value for key, value in r.items() if key not in ("source", "created", "updated", "flags")}
           for r in results]  # the brief budget bounds what it can cut; these come whole
    assert all(count(json.dumps(r, ensure_ascii=False)) <= BRIEF_TOKENS for r in cut)
    assert "nothing_fits" not in team_b["deploy"] and "text" not in top


def test_full_detail_gives_every_field_and_the_text(team_b: dict[str, Any]) -> None:
    answer = team_b["deploy_full"]
    (top,) = answer["results"]
    assert top["id"] == ROLLBACK and "ROLLBACK-STEP-4412" in top["text"]
    assert top["tags"] == ["deploy", "kubernetes"] and top["channels"] and top["reason"]
    assert answer["nothing_fits"] is False and answer["query"] == DEPLOY


def test_kinds_keeps_to_documents_and_search_components_holds_none(team_b: dict[str, Any]) -> None:
    docs = team_b["documents"]["results"]
    assert {r["kind"] for r in docs} == {"document"}
    assert docs[0]["id"] == ROLLBACK
    components = team_b["components"]["results"]
    assert components and {r["kind"] for r in components} <= {k.value for k in COMPONENT_KINDS}
    assert not [r for r in components if r["id"].startswith("runbooks/")]


def test_nothing_fits_is_flagged_in_the_clis_words(
    team_b: dict[str, Any], built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = team_b["bread"]
    assert answer["nothing_fits"] is True
    closest = ", ".join(r["name"] for r in answer["results"])
    assert answer["note"].endswith(f"fits this well; the closest: {closest}")
    assert not any("fits this well" in w for w in answer.get("warnings", []))  # said once
    assert cli(["query", BREAD, "--index-dir", str(built / "index"), "-k", "3", "--principals", "team-b"]) == 0
    said = capsys.readouterr().out.splitlines()[1]
    assert said == answer["note"][0].upper() + answer["note"][1:] + "."


def test_a_private_runbook_is_never_named_nor_counted(team_b: dict[str, Any]) -> None:
    assert len(team_b["documents"]["results"]) == 3  # of the four runbooks, k=10
    assert {r["kind"] for r in team_b["vault_full"]["results"]} == {"document"}
    assert len(team_b["vault_full"]["results"]) == 3
    assert team_b["status"]["node_kinds"]["document"] == 3
    assert team_b["read_private"].endswith(
        f"get_component: no component {PRIVATE!r}; call search_components with the task to find "
        "ids, then pass one of them as id"
    )  # as for an id that names nothing
    # every answer but the refusal above, which repeats the id the caller typed
    said = json.dumps({k: v for k, v in team_b.items() if k not in ("tools", "read_private")}, ensure_ascii=False)
    assert [t for t in PRIVATE_TOKENS if t in said] == []


def test_a_caller_holding_the_label_finds_it(team_a: dict[str, Any], built: Path) -> None:
    top = team_a["vault"]["results"][0]
    assert top["id"] == PRIVATE and top["source"] == str(built / "runbooks" / "vault-unseal.md")
    assert len(team_a["documents"]["results"]) == 4
    assert team_a["status"]["node_kinds"]["document"] == 4
    assert "KEYSHARE-7731" in team_a["read_private"]["text"]


def test_get_component_reads_a_document_whole(team_b: dict[str, Any], built: Path) -> None:
    read = team_b["read"]
    assert read["id"] == ROLLBACK and read["kind"] == "document"
    assert "ROLLBACK-STEP-4412" in read["text"] and "kubectl rollout undo" in read["text"]
    assert read["source"] == str(built / "runbooks" / "rollback-deploy.md")
    by_name = team_b["read_by_name"]
    assert by_name["id"] == "runbooks/rotate-db-credentials.md" and "drained" in by_name["text"]


@pytest.mark.parametrize(
    ("call", "said"),
    [
        ("unknown_kind", "Error executing tool search: kinds: unknown kind(s) ['runbook']; use any of ['agent', "),
        ("unknown_argument", ("Error executing tool search: unknown argument(s) 'top_k'; search takes "
                              "query (required), kinds, k, budget, detail")),
        ("too_long", "Error executing tool search: the query is 120,000 characters, over this tool's limit"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_in_one_line(team_b: dict[str, Any], call: str, said: str) -> None:
    answer = team_b[call]
    assert isinstance(answer, str) and answer.startswith(said), answer[:300]
    assert "\n" not in answer


def test_a_budget_drops_and_says_how_many(team_b: dict[str, Any]) -> None:
    answer = team_b["budgeted"]
    kept = [r["id"] for r in answer["results"]]
    assert kept == [r["id"] for r in team_b["documents"]["results"][:2]]
    assert answer["dropped"] == 1 and answer["total_tokens"] <= team_b["budget"]
    assert any(w.startswith(f"the token budget of {team_b['budget']} dropped 1 of 3 results") for w in answer["warnings"])
