"""The arguments of the ``search_skills`` agent tool (``adapters.langchain``): their
schema, the schema with a builder's defaults (strict-ready on request), and what the tool
answers arguments its schema refuses.

A null argument means the tool's default, as leaving it out does: in OpenAI's strict
function calling every argument is required, so null is the model's only way to leave
one out, and reading it as "every kind" or "no budget" overrode the builder's defaults.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any

from langchain_core.tools import StructuredTool
from langchain_core.tools.base import ArgsSchema
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
    model_validator,
)
from pydantic.config import JsonDict

from skill_retriever.adapters.tool_arguments import Flag, WholeNumber, one_or_several, whole_number
from skill_retriever.exceptions import ConfigError
from skill_retriever.kind_names import kind_guesses, kind_in_case, several_kinds_hint
from skill_retriever.model import NodeKind

__all__ = [
    "KindName",
    "KindNames",
    "SearchSkillsInput",
    "StrictReadyTool",
    "schema_violation_message",
    "schema_with_defaults",
]


def _kind_name(value: str) -> str:
    try:
        return NodeKind(kind_in_case(value))  # "Agent" as the search takes it; "skills" refused
    except ValueError:
        raise ValueError(  # the guess `Filters` says too: a plural is told the kind it means
            f"unknown kind {value!r}; use one of: {', '.join(k.value for k in NodeKind)}{kind_guesses([value])}"
            f"{several_kinds_hint([value])}"
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
    it: a model that writes one kind so must not get a list error back. The string is
    checked here, so a wrong one is refused as ``kinds``: checked as the list's item it
    was named ``kinds.0``, an index into a list the model never wrote."""
    return [_kind_name(value)] if isinstance(value, str) else value


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


#: ``k`` where null may stand for the default (a strict-ready schema): the bounds on the
#: integer itself, inside the optional, as `TokenBudget` has its own.
_CountOrNull = Annotated[StrictInt, Field(ge=1, le=50), BeforeValidator(whole_number)] | None

_FILL_SAID = ("With a token_budget: fill it with lower-ranked items that fit, instead of stopping at the "
              "first item that does not.")


def _kinds_said(default: list[str] | None) -> str:
    which = ", ".join(default) if default else "every kind"
    return f"Only these kinds of item: one ('skill') or several (['skill', 'agent']); null or left out: {which}."


def _budget_said(default: int | None) -> str:
    which = "no budget" if default is None else f"{default} tokens"
    return f"Most tokens the returned items' full texts may add up to; null or left out: {which}."


class SearchSkillsInput(BaseModel):
    """Arguments of ``search_skills``. Another argument is refused, not ignored (a model
    that writes ``top_k`` learns it); so are a count given as text or a boolean and a
    switch given as text or a number, as the MCP tools refuse them (`tool_arguments`)."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        description="What you need to do or know, in plain words (one task or question)."
    )
    kinds: KindNames = Field(default=None, description=_kinds_said(None))
    k: WholeNumber = Field(default=5, ge=1, le=50, description="How many items to return.")
    token_budget: TokenBudget | None = Field(default=None, description=_budget_said(None))
    budget_fill: Flag = Field(default=False, description=_FILL_SAID)

    @model_validator(mode="before")
    @classmethod
    def _null_is_left_out(cls, data: Any) -> Any:
        # A null count or switch is the default, as in the strict schema: models that
        # write every argument send null for those they leave alone, and the plain schema
        # refused it ("k: Input should be a valid integer"). The schema still says integer.
        if isinstance(data, dict):
            return {key: v for key, v in data.items() if not (key in ("k", "budget_fill") and v is None)}
        return data


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
        # whole_number and our own checks (value_error: an unknown kind) say what they got
        got = "" if e["type"] in ("missing", "whole_number", "value_error") else f" (got {e['input']!r:.40})"
        problems.append(f"{where}: {msg}{got}")
    return problems


def schema_with_defaults(defaults: dict[str, Any], *, strict: bool = False) -> type[SearchSkillsInput]:
    """``SearchSkillsInput`` with a tool builder's defaults for its arguments (``k=3``), so
    the schema the model reads says what a call without them (or with null) does.

    Args:
        defaults: the builder's defaults, by argument name.
        strict: a schema ready for strict function calling (OpenAI's ``strict: true``):
            every argument required, ``k`` and ``budget_fill`` nullable too (null: the
            default), and no ``default`` keys, which strict mode is reported to refuse
            (HTTP 400, "'default' is not permitted"); each description says the default
            instead. ``minimum``/``maximum`` stay: OpenAI's supported-schema list has them.

    Raises:
        ConfigError: A default the schema refuses (``k=0``, an unknown kind, no kinds),
            checked as a model's argument is: refused when the tool is built, not at
            every call.
    """
    if not defaults and not strict:
        return SearchSkillsInput
    if defaults.get("kinds") == []:  # the search refused it at every call, naming filters.kinds
        raise ConfigError("make_search_skills_tool: kinds is empty, so nothing could match; "
                          "leave it out for every kind")
    try:
        checked = SearchSkillsInput.model_validate({"query": "-", **defaults})
    except ValidationError as exc:
        raise ConfigError(f"make_search_skills_tool: bad default(s): {'; '.join(_problems(exc))}") from None
    changed: dict[str, Any] = {}
    for key in ("kinds", "k", "token_budget", "budget_fill"):
        info = copy.copy(SearchSkillsInput.model_fields[key])
        info.default = getattr(checked, key)
        info.description = _said(key, info.default, strict)
        annotation = {"k": _CountOrNull, "budget_fill": Flag | None}.get(key) if strict else None
        if annotation is not None:  # its bounds are inside it: on the union they read "ge", "le"
            info.metadata = []
        changed[key] = (annotation or info.annotation, info)
    base = _StrictReadyInput if strict else SearchSkillsInput
    return create_model("SearchSkillsInput", __base__=base, __doc__=SearchSkillsInput.__doc__, **changed)


def _said(key: str, default: Any, strict: bool) -> str:
    """An argument's description, naming what null or leaving it out gives."""
    if key == "kinds":
        return _kinds_said(default)
    if key == "token_budget":
        return _budget_said(default)
    said = "How many items to return." if key == "k" else _FILL_SAID
    return f"{said} Null or left out: {str(default).lower()}." if strict else said


def _strict_ready(schema: JsonDict) -> None:
    """The JSON schema as strict function calling takes it: every property required, no
    other properties, no ``default`` keys (each description names its default)."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return
    for prop in properties.values():
        if isinstance(prop, dict):
            prop.pop("default", None)
    schema["required"] = list(properties)
    schema["additionalProperties"] = False


class _StrictReadyInput(SearchSkillsInput):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_strict_ready)


class StrictReadyTool(StructuredTool):
    """A ``StructuredTool`` whose schema for the model is its ``args_schema`` as it is.

    LangChain hands a model a copy of the arguments' model (``tool_call_schema``), made
    anew with only the fields, so the strict-ready model's own JSON schema settings
    (`_strict_ready`) were lost; this tool's arguments have nothing to leave out."""

    @property
    def tool_call_schema(self) -> ArgsSchema:
        return self.args_schema
