"""One line for each way a LangChain adapter's constructor is called wrongly.

``SkillRetriever`` is a pydantic model (LangChain's ``BaseRetriever``), whose own error is
several lines with a link to errors.pydantic.dev, written for the model's author; the
same mistake given to ``invoke`` (``k="5"``) is a `ConfigError` of one line. This says
the constructor's in the same words: the field, what it got, what to give.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from skill_retriever.config import close_name
from skill_retriever.filters import FILTER_KEYS

__all__ = ["constructor_message"]

#: Names other retrievers give a field (``top_k``), which `close_name` would not guess.
_OTHER_NAMES = {"top_k": "k", "topk": "k", "budget": "token_budget", "max_tokens": "token_budget"}


def constructor_message(
    owner: str, error: ValidationError, fields: Iterable[str], given: Mapping[str, Any] | None = None
) -> str:
    """``owner``'s constructor error in one line: the first bad field, what is wrong with
    what it got and what to give instead, and how many more errors there are.

    Args:
        owner: The class, as the caller wrote it (``SkillRetriever``).
        error: What pydantic raised.
        fields: The fields the constructor takes (named for an unknown one).
        given: What the caller passed, by field: a field that takes one name as a string
            (``kinds="skills"``) is named alone, not as the string's first item.
    """
    problems = error.errors(include_url=False)
    first = problems[0]
    more = f" (and {len(problems) - 1} more error(s))" if len(problems) > 1 else ""
    return f"{owner}: {_problem(first, list(fields), given or {})}{more}"


def _problem(e: Any, fields: list[str], given: Mapping[str, Any]) -> str:
    where = ".".join(str(p) for p in e["loc"]) or "arguments"
    if len(e["loc"]) == 2 and isinstance(given.get(str(e["loc"][0])), str):
        where = str(e["loc"][0])  # "kinds.0" read as an index on the string the caller gave
    name = str(e["loc"][0]) if e["loc"] else where
    got = e.get("input")
    shown = f"{got!r:.60} ({type(got).__name__})"
    kind = e["type"]
    if kind == "extra_forbidden":
        if _OTHER_NAMES.get(name) in fields:
            meant = f" (did you mean {_OTHER_NAMES[name]!r}?)"
        elif name in FILTER_KEYS and "filters" in fields:
            meant = f" (a filter: filters={{{name!r}: ...}})"
        else:
            meant = close_name(name, fields)
        return f"unknown argument {name!r}{meant}; it takes {', '.join(fields)}"
    if kind == "missing":
        return f"{where} is required" + (" (index=Index.open(path))" if where == "index" else "")
    if kind.startswith("int"):  # int_type: a strict count given as text, a bool or a float
        return f"{where} must be a whole number such as 5, got {shown}"
    if kind in ("greater_than", "greater_than_equal"):
        bound = e["ctx"].get("gt", e["ctx"].get("ge"))
        return f"{where} must be {'>' if kind == 'greater_than' else '>='} {bound}, got {got!r:.60}"
    if kind == "is_instance_of":
        return f"{where} must be {e['ctx']['class']}, got {type(got).__name__}" + (
            " (index=Index.open(path))" if where == "index" else "")
    if kind == "literal_error":
        return f"{where} must be one of {e['ctx']['expected']}, got {got!r:.60}"
    msg = str(e["msg"]).removeprefix("Value error, ")
    if kind == "value_error":  # our own check's words (`Filters`, a kind): they say what it got
        return msg if msg.startswith(("filters", where)) else f"{where}: {msg}"
    return f"{where}: {msg} (got {shown})"
