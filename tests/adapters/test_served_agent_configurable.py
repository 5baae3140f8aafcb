"""The served ``coding_agent`` reads a run's ``config["configurable"]`` as the served
``retrieval`` graph does (tests/adapters/test_server_configurable.py): an assistant made with
``{"configurable": {"k": 2}}`` retrieved the default 5 skills. Its settings pass the same
checks (a cost setting over the server's limit is refused naming the limit); the task's own
``k`` and ``token_budget`` come after them, and the k a run leaves out stays the assistant's
on a thread's later runs. Real served agent, the sample index (hashing embedder)."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from skill_retriever.exceptions import ConfigError

TASK = {"task": "postgres schema migration"}


@pytest.fixture
def served_ctx(sample_index_path: Path, tmp_path: Path) -> dict[str, Any]:
    index_dir = tmp_path / "index"
    shutil.copytree(sample_index_path, index_dir)
    return {"index_dir": str(index_dir), "rerank": False}


def test_the_served_coding_agent_reads_it(coding_agent: ModuleType, served_ctx: dict[str, Any]) -> None:
    agent = coding_agent.build_agent_with_wrapper_node()
    assert len(agent.invoke(TASK, context=served_ctx)["skills"]) == coding_agent.DEFAULT_K
    out = agent.invoke(TASK, {"configurable": {"k": 2, "kk": 1}}, context=served_ctx)
    assert len(out["skills"]) == 2
    assert any("key 'kk' is no setting (did you mean 'k'?)" in w for w in out["warnings"])
    assert len(agent.invoke({**TASK, "k": 3}, {"configurable": {"k": 2}}, context=served_ctx)["skills"]) == 3
    with pytest.raises(ConfigError, match=r"setting channel_depth=1000000 is over this server's limit: at most 50"):
        agent.invoke(TASK, {"configurable": {"channel_depth": 10**6}}, context=served_ctx)


def test_a_threads_later_run_keeps_the_assistants_k(coding_agent: ModuleType, served_ctx: dict[str, Any]) -> None:
    """A run that succeeded wrote k 5 back (`per_call_defaults`), which the next run of the
    thread read as its own input: the assistant's k held for the first run only."""
    agent = coding_agent.build_agent_with_wrapper_node(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t", "k": 2}}
    assert len(agent.invoke({**TASK, "k": 4}, config, context=served_ctx)["skills"]) == 4
    assert len(agent.invoke(TASK, config, context=served_ctx)["skills"]) == 2
    assert len(agent.invoke(TASK, {"configurable": {"thread_id": "t"}}, context=served_ctx)["skills"]) == 5


def _budget(agent: Any, thread: str) -> Any:
    return agent.get_state({"configurable": {"thread_id": thread}}).values["retrieval"]["stats"]["apply_token_budget"]["budget"]


def test_a_threads_first_run_keeps_the_assistants_budget_and_a_later_task_the_agents(
    coding_agent: ModuleType, served_ctx: dict[str, Any]
) -> None:
    """A new task on a thread starts from the defaults for what it leaves out (a run paused
    before retrieve_skills gave its budget to the next task), but only for the keys the
    thread's state holds: its first run holds no token_budget, so the assistant's holds."""
    agent = coding_agent.build_agent_with_wrapper_node(checkpointer=InMemorySaver())
    assistant = {"configurable": {"thread_id": "b", "token_budget": 900}}
    agent.invoke(TASK, assistant, context=served_ctx)
    assert _budget(agent, "b") == 900
    agent.invoke(TASK, assistant, context=served_ctx)
    assert _budget(agent, "b") == coding_agent.DEFAULT_BUDGET  # a later task: the agent's (README)

    paused = {"configurable": {"thread_id": "p", "token_budget": 900}}
    agent.invoke({**TASK, "token_budget": 300}, paused, context=served_ctx, interrupt_before=["retrieve_skills"])
    agent.invoke(TASK, paused, context=served_ctx)
    assert _budget(agent, "p") == coding_agent.DEFAULT_BUDGET  # not the paused task's 300
