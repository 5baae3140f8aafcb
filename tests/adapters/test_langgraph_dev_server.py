"""The real `langgraph dev` server (langgraph-cli, in-memory runtime) serving the repo's
langgraph.json on a free loopback port, offline, driven through the langgraph_sdk client."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_client

from skill_retriever.stores.index import Index

REPO = Path(__file__).resolve().parents[2]
STARTUP_S = 120


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def offline_env(index_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    for key in (
        "LANGSMITH_API_KEY",
        "LANGCHAIN_API_KEY",
        "LANGSMITH_ENDPOINT",
        "LANGCHAIN_ENDPOINT",
    ):
        env.pop(key, None)
    env.update(
        LANGSMITH_TRACING="false",
        LANGCHAIN_TRACING_V2="false",
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        HF_HUB_OFFLINE="1",
        SKILL_RETRIEVER_INDEX=str(index_dir),
    )
    return env


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, sample_index_path: Path) -> Iterator[str]:
    # `langgraph dev` resolves graph paths and keeps its state (.langgraph_api/) relative to
    # its working directory: run it in a scratch folder holding the repo's own langgraph.json
    # and a link to graphs/, so nothing is written into the repo.
    work = tmp_path_factory.mktemp("langgraph-dev")
    shutil.copy(REPO / "langgraph.json", work / "langgraph.json")
    (work / "graphs").symlink_to(REPO / "graphs", target_is_directory=True)
    index_dir = work / "index"  # a copy, so the test's own index is never touched
    shutil.copytree(sample_index_path, index_dir)
    port = free_port()
    cli = Path(sys.executable).with_name("langgraph")
    log = (work / "server.log").open("wb")
    proc = subprocess.Popen(
        [
            str(cli),
            "dev",
            "--port",
            str(port),
            "--host",
            "127.0.0.1",
            "--no-browser",
            "--no-reload",
        ],
        cwd=work,
        env=offline_env(index_dir),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped as one below
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"langgraph dev exited ({proc.returncode}):\n{(work / 'server.log').read_text()[-4000:]}"
                )
            try:
                with urllib.request.urlopen(f"{url}/ok", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(
                    f"langgraph dev not up after {STARTUP_S}s:\n{(work / 'server.log').read_text()[-4000:]}"
                )
            time.sleep(0.5)
        yield f"{url}#{work / 'server.log'}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.close()


async def _run_all(url: str) -> dict[str, Any]:
    client = get_client(url=url)
    assistants = await client.assistants.search()
    retrieval = await client.runs.wait(
        None,
        "retrieval",
        input={"query": "add OpenTelemetry tracing to a FastAPI service", "k": 4},
        context={"cross_encoder": None},  # no cross-encoder: no reranking
    )
    chunks = [
        (chunk.event, chunk.data)
        async for chunk in client.runs.stream(
            None,
            "retrieval",
            input={"query": "format python code", "k": 2},
            context={"rerank": False},
            stream_mode="updates",
            stream_subgraphs=True,
        )
    ]
    agent = await client.runs.wait(
        None,
        "coding_agent",
        input={"task": "write a safe alembic migration", "k": 3},
        context={"rerank": False},
    )
    return {"assistants": assistants, "retrieval": retrieval, "chunks": chunks, "agent": agent}


def test_langgraph_dev_serves_both_graphs(server: str, sample_index: Index) -> None:
    got = asyncio.run(_run_all(server.split("#", 1)[0]))
    assert {a["graph_id"] for a in got["assistants"]} == {"retrieval", "coding_agent"}

    out = got["retrieval"]
    assert set(out) == {"results", "route_taken", "reranker", "stats", "warnings", "fit"}  # the sample index is calibrated
    assert set(out["fit"]) == {"confidence", "nothing_fits", "top_similarity", "agree"}
    assert 1 <= len(out["results"]) <= 4
    assert all(r["id"] in sample_index.nodes for r in out["results"])
    assert out["route_taken"] in ("smart", "ppr", "quick")
    assert out["reranker"] == "none"
    assert all(r["channels"] for r in out["results"])
    assert {"plan_query", "fuse_rrf", "rerank_cross_encoder", "apply_token_budget"} <= set(
        out["stats"]
    )

    # streamed with subgraphs: each phase is an update in the subgraph's namespace
    events = [e for e, _ in got["chunks"]]
    phase_events = [(e, d) for e, d in got["chunks"] if e.startswith("updates|retrieve:")]
    phases = {node for _, d in phase_events for node in d}
    assert {
        "plan_query",
        "retrieve_seeds",
        "search_keywords",
        "fuse_rrf",
        "apply_token_budget",
    } <= phases, events

    agent = got["agent"]
    assert agent["skills"] and len(agent["skills"]) <= 3
    assert agent["prompt"].startswith("Task: write a safe alembic migration")
    assert agent["skills"][0]["text"] in agent["prompt"]
    # the retrieval's warnings and fit reach a served agent's caller too
    assert set(agent) == {"skills", "prompt", "answer", "warnings", "fit"}
    assert isinstance(agent["warnings"], list) and set(agent["fit"]) == set(out["fit"])


def test_the_server_warms_the_index_up_at_start(server: str) -> None:
    """graphs/retrieval.py loads the default index and runs one search in the background
    at import: the server's log says so before any run needs it."""
    log = Path(server.split("#", 1)[1]) if "#" in server else None
    assert log is not None
    deadline = time.monotonic() + 60
    while "[skill_retriever][server] ready" not in log.read_text(errors="replace"):
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.5)


async def _run_with_assistants(url: str) -> dict[str, Any]:
    client = get_client(url=url)
    # an assistant holds configurable or context, not both (the API refuses both, and mirrors
    # each into the other); a run's context is mirrored into its configurable too
    made = await client.assistants.create("retrieval", config={"configurable": {"k": 2, "rerank": False}}, name="k2")
    out = await client.runs.wait(None, made["assistant_id"], input={"query": "format python code"})
    with_context = await client.runs.wait(None, made["assistant_id"], input={"query": "format python code"},
                                          context={"rerank": False, "cross_encoder": None})
    over = await client.assistants.create("retrieval", config={"configurable": {"channel_depth": 10**6}}, name="over")
    refused = await client.runs.wait(None, over["assistant_id"], input={"query": "format python code"},
                                     raise_error=False)  # the failed run's answer holds its "__error__"
    return {"out": out, "with_context": with_context, "refused": refused}


def test_an_assistants_configurable_applies_bounded(server: str) -> None:
    """An assistant made with ``config={"configurable": {"k": 2}}`` searched for the default 10:
    the served graph read no configurable. It now takes k 2 and says so in the stats, while
    the LangGraph API's own keys there (assistant_id, graph_id, langgraph_auth_user, ...) and
    the context it mirrors there (rerank) are left alone without a warning."""
    got = asyncio.run(_run_with_assistants(server.split("#", 1)[0]))
    out = got["out"]
    assert len(out["results"]) == 2, out
    assert out["stats"]["plan_query"]["configurable"] == {"k": 2}  # rerank is the context's, mirrored there
    assert out["reranker"] == "none"
    # a run's context, which the API copies into its configurable, is not read as settings there
    assert "configurable" not in got["with_context"]["stats"]["plan_query"]
    assert not [w for w in out["warnings"] if "configurable" in w], out["warnings"]
    # a value over the server's limit is refused naming it, as a run's own profile is
    error = got["refused"]["__error__"]
    assert error["error"] == "ConfigError", error
    assert "config['configurable'] setting channel_depth=1000000 is over this server's limit" in error["message"]


async def _run_paused_then_new(url: str) -> dict[str, Any]:
    client = get_client(url=url)
    thread = await client.threads.create()
    ctx = {"rerank": False}
    await client.runs.wait(thread["thread_id"], "retrieval", context=ctx, interrupt_before=["retrieve"],
                           input={"query": "format python code", "k": 1, "filters": {"kinds": ["hook"]}})
    paused = await client.threads.get_state(thread["thread_id"])
    again = await client.runs.wait(thread["thread_id"], "retrieval", input={"query": "write a safe alembic migration"},
                                   context=ctx)
    alone = await client.runs.wait(None, "retrieval", input={"query": "write a safe alembic migration"}, context=ctx)
    return {"paused": paused, "again": again, "alone": alone}


def test_a_served_threads_new_input_after_a_pause_gets_the_defaults(server: str) -> None:
    """Through the server's own checkpointer (read before the run): a run paused before
    ``retrieve`` left k 1 and a hook filter for the thread's next query."""
    got = asyncio.run(_run_paused_then_new(server.split("#", 1)[0]))
    assert got["paused"]["next"] == ["retrieve"]
    assert [r["id"] for r in got["again"]["results"]] == [r["id"] for r in got["alone"]["results"]]
    assert len(got["alone"]["results"]) > 1
