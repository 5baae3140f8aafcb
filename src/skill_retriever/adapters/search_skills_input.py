"""The arguments of the ``search_skills`` agent tool (``adapters.langchain``): their
schema, the schema with a builder's defaults, and what the tool answers arguments its
schema refuses."""

from __future__ import annotations

import copy
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    ValidationError,
    WithJsonSchema,
    create_model,
)

from skill_retriever.adapters.tool_arguments import Flag, WholeNumber, one_or_several, whole_number
from skill_retriever.exceptions import ConfigError
from skill_retriever.filters import kind_guesses
from skill_retriever.model import NodeKind

__all__ = ["KindName", "KindNames", "SearchSkillsInput", "schema_violation_message", "schema_with_defaults"]


def _kind_name(value: str) -> str:
    try:
        return NodeKind(value)
    except ValueError:
        raise ValueError(  # the guess `Filters` says too: a plural is told the kind it means
            f"unknown kind {value!r}; use one of: {', '.join(k.value for k in NodeKind)}{kind_guesses([value])}"
        ) from None


#: An item kind by its name ("skill") or as a ``NodeKind``: typed ``str`` so callers pass
#: plain strings under ``mypy --strict``; checked (and stored as ``NodeKind``) by pydantic,
#: and listed as an enum in the JSON schema the model sees.
KindName = Annotated[
    str,
    AfterValidator(_kind_name),
    WithJsonSchema({"type": "string", "enum": [k.value for k in NodeKind]}),
]


def _one_kind_alone(value: object) -> object:
    """One kind given as a string is a list of one (``"document"``), as the MCP tools take
    it: a model that writes one kind so must not get a list error back."""
    return [value] if isinstance(value, str) else value


#: ``kinds``: a list of kind names, one alone as a string, or None; the schema says all
#: three (`one_or_several`), as the MCP tools' says one or more.
KindNames = Annotated[
    list[KindName] | None,
    BeforeValidator(_one_kind_alone),
    WithJsonSchema(one_or_several([k.value for k in NodeKind])),
]

#: ``token_budget``: a `WholeNumber` of at least 0. The bound sits on the integer itself,
#: inside the optional: ``WholeNumber | None`` with ``Field(ge=0)`` put it on the union, and
#: pydantic wrote it into the schema as ``"ge": 0``, no JSON Schema keyword (a model never
#: saw the bound; a strict provider may refuse the tool). Here it is ``"minimum": 0``.
TokenBudget = Annotated[StrictInt, Field(ge=0), BeforeValidator(whole_number)]


class SearchSkillsInput(BaseModel):
    """Arguments of ``search_skills``. Another argument is refused, not ignored (a model
    that writes ``top_k`` learns it); so are a count given as text or a boolean and a
    switch given as text or a number, as the MCP tools refuse them (`tool_arguments`)."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        description="What you need to do or know, in plain words (one task or question)."
    )
    kinds: KindNames = Field(
        default=None,
        description="Only these kinds of item: one ('skill') or several (['skill', 'agent']); omit for all kinds.",
    )
    k: WholeNumber = Field(default=5, ge=1, le=50, description="How many items to return.")
    token_budget: TokenBudget | None = Field(
        default=None, description="Most tokens the returned items' full texts may add up to."
    )
    budget_fill: Flag = Field(
        default=False,
        description="With a token_budget: fill it with lower-ranked items that fit, instead of "
        "stopping at the first item that does not.",
    )


def schema_violation_message(error: ValidationError | Exception) -> str:
    """What the tool answers arguments its schema rejects (``k=0``, an unknown kind, no
    query): one line naming each bad argument, like the search's own errors.

    LangChain raises a schema violation out of ``tool.invoke(tool_call)`` unless the tool
    handles it, so a model's slip would end an agent loop that calls the tool itself
    (only LangGraph's ``ToolNode`` catches it); pydantic's own text is several lines with
    a URL, written for a programmer, not a model.
    """
    if not isinstance(error, ValidationError):
        return f"Error: {error}. Fix the arguments and call the tool again."
    return f"Error: invalid arguments: {'; '.join(_problems(error))}. Fix the arguments and call the tool again."


def _problems(error: ValidationError) -> list[str]:
    """One short line per bad argument: its name, what is wrong, what it got."""
    problems = []
    for e in error.errors(include_url=False):
        where = ".".join(str(p) for p in e["loc"]) or "arguments"
        msg = str(e["msg"]).removeprefix("Value error, ")
        got = "" if e["type"] in ("missing", "whole_number") else f" (got {e['input']!r:.40})"  # whole_number says it
        problems.append(f"{where}: {msg}{got}")
    return problems


def schema_with_defaults(defaults: dict[str, Any]) -> type[SearchSkillsInput]:
    """``SearchSkillsInput`` with a tool builder's defaults for its arguments (``k=3``), so
    the schema the model reads says what a call without them does.

    Raises:
        ConfigError: A default the schema refuses (``k=0``, an unknown kind), checked as a
            model's argument is: refused when the tool is built, not at every call.
    """
    if not defaults:
        return SearchSkillsInput
    if isinstance(defaults.get("kinds"), str):  # one string is one kind, as everywhere
        defaults = {**defaults, "kinds": [defaults["kinds"]]}
    try:
        checked = SearchSkillsInput.model_validate({"query": "-", **defaults})
    except ValidationError as exc:
        raise ConfigError(f"make_search_skills_tool: bad default(s): {'; '.join(_problems(exc))}") from None
    changed: dict[str, Any] = {}
    for key in defaults:
        info = copy.copy(SearchSkillsInput.model_fields[key])
        info.default = getattr(checked, key)
        if key == "kinds" and info.default:
            info.description = f"Only these kinds of item; omit for {', '.join(info.default)}."
        changed[key] = (info.annotation, info)
    return create_model("SearchSkillsInput", __base__=SearchSkillsInput, __doc__=SearchSkillsInput.__doc__, **changed)
