"""Reading the task input of the example coding agent (``graphs/coding_agent.py``, which
re-exports these): the task itself, the kinds it asks for, and the retrieval settings it
changes. Each refuses a bad value in one line, before any search."""

from __future__ import annotations

from typing import Any

from skill_retriever.exceptions import ConfigError, QueryError
from skill_retriever.filters import names_of
from skill_retriever.kind_names import check_kinds
from skill_retriever.model import COMPONENT_KINDS

__all__ = ["DEFAULT_K", "DEFAULT_KINDS", "NO_TASK", "task_k", "task_kinds", "task_of", "task_profile",
           "task_values_checked"]

#: How many items the agent retrieves when its input leaves ``k`` out (or null).
DEFAULT_K = 5

#: What a coding agent installs or reads: skills, agents, commands, hooks, MCP servers.
DEFAULT_KINDS = sorted(k.value for k in COMPONENT_KINDS)
NO_TASK = 'the input needs "task", the coding task in plain words, e.g. {"task": "add tracing"}'


def task_kinds(state: Any) -> list[str]:
    """The kinds a task's input asks for: left out (or null), every component kind; one
    string, that one kind (``list("skill")`` searched for the kinds s, k, i, l).

    Raises:
        ConfigError: An empty list, which would search every kind, the opposite of what
            an empty filter says; neither a string nor a list of strings; or an unknown
            kind, named as this input's ``kinds`` (the search's check says ``filters.kinds``,
            which the agent's input lacks).
    """
    kinds = names_of(state.get("kinds"), "kinds")  # one string is one name, as everywhere
    if kinds is None:
        return list(DEFAULT_KINDS)
    if not kinds:
        raise ConfigError(f"kinds is empty; leave kinds out for every component kind ({', '.join(DEFAULT_KINDS)})")
    check_kinds(kinds, "kinds")
    return sorted(kinds)


def task_k(state: Any, default: Any = DEFAULT_K) -> Any:
    """How many items a task's input asks for: left out or null, ``default`` (`DEFAULT_K`;
    served, a run's configurable k). (A null passed on was the retrieval graph's own default,
    RetrievalConfig's 10.) Any other value goes to the retrieval graph, whose check refuses a
    bad one (`task_values_checked`)."""
    k = state.get("k")
    return default if k is None else k


def task_of(state: Any) -> str:
    """The task a run works on.

    Raises:
        QueryError: No ``task`` (a thread's state without one, as the input check lets a
            run on a thread through), not a string, or empty.
    """
    task = state.get("task")
    if not isinstance(task, str):
        raise QueryError(NO_TASK)
    if not task.strip():  # the search would say "the query is empty", a key this input lacks
        raise QueryError(f"the task is {'empty' if not task else 'blank'}; "
                         'give the coding task in plain words, e.g. {"task": "add tracing"}')
    return task


def task_profile(state: Any) -> dict[str, Any]:
    """The retrieval settings a task's input changes (the retrieval graph's ``profile``):
    ``budget_fill`` when given; an empty profile leaves the settings as they are.

    Raises:
        ConfigError: ``budget_fill`` is not true, false or null.
    """
    fill = state.get("budget_fill")
    if fill is None:
        return {}
    if not isinstance(fill, bool):
        raise ConfigError(f"budget_fill must be true or false (or left out), got {fill!r:.40}")
    return {"budget_fill": fill}


def task_values_checked(given: Any, context: Any = None) -> None:
    """Refuse, before the run, a coding agent input's value its run would refuse, in the
    run's words: an empty or blank ``task``, bad ``kinds`` (an unknown kind too),
    ``budget_fill``, ``k`` or ``token_budget`` (`input_values`: a checkpointed thread
    keeps a failed run's input, and failed every later task with it).

    Raises:
        ConfigError: A bad value, named.
        QueryError: A task that is not text, empty or blank.
    """
    from skill_retriever.filters import Filters
    from skill_retriever.input_values import retrieval_values_checked

    if given.get("task") is not None:
        task_of(given)
    Filters.from_spec({"kinds": task_kinds(given)})
    task_profile(given)
    retrieval_values_checked({key: given[key] for key in ("k", "token_budget") if key in given}, context)
