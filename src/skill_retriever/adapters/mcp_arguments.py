"""The MCP tools' argument types and how a bad argument is said (`mcp_server._Server`).

A tool call's JSON is validated by pydantic against the tool function's signature. The
types here are stricter than Python's own where a lenient reading would hide a client's
bug: a count is never ``true`` or ``"5"``, and a switch is never ``"false"`` (read as
true, that string turned a dry run into a real install). The ids and the ``target`` the
component tools take are checked here too (`resolved_ids`, `checked_target`): every tool
that takes them says a problem in the same words.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Literal, get_args

from pydantic import BeforeValidator, Field, ValidationError, WithJsonSchema
from pydantic_core import PydanticCustomError

from skill_retriever.adapters.tool_arguments import Flag, WholeNumber, whole_number
from skill_retriever.components.install import InstallError, UnknownComponentError, resolve_id
from skill_retriever.components.install.not_installable import NotInstallableError
from skill_retriever.components.install.target import existing_folder
from skill_retriever.components.view import CallerView
from skill_retriever.exceptions import SkillRetrieverError
from skill_retriever.kind_names import kind_in_case, meant_kind
from skill_retriever.model import NodeKind

try:  # mcp >= 2; one import for every module that refuses a tool call or a resource read
    from mcp.server.mcpserver.exceptions import ResourceError, ToolError
except ImportError:  # pragma: no cover - mcp 1.x
    from mcp.server.fastmcp.exceptions import ResourceError, ToolError  # type: ignore[no-redef]

__all__ = [
    "MAX_K", "Budget", "Count", "Flag", "Ids", "Kind", "Kinds", "ResourceError", "ToolError", "WholeNumber",
    "argument_error", "checked_ref", "checked_target", "one_or_more", "refused_as_tool_errors", "resolved_ids", "unknown_said",
    "whole_number",
]  # fmt: skip

#: The most results one search call returns. Every result goes into the agent's context:
#: 50 brief results are about 7,500 tokens (`BRIEF_TOKENS` each), full ones many times
#: that, and ``search_components`` adds dependencies on top; past that an agent should
#: narrow its query or kinds, not page through the index (k=100000 returned all of it,
#: 360 KB). The LangChain tool ``search_skills`` takes the same most (``le=50``).
MAX_K = 50
#: ``k`` and ``budget`` as the schema shows them, with their bounds (k 1 to `MAX_K`,
#: budget from 0): a client that checks its arguments before sending knows. One out of
#: range is still refused by the tool itself, in its own words
#: (`mcp_search.checked_counts`), not pydantic's.
Count = Annotated[WholeNumber, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_K})]
Budget = Annotated[WholeNumber, WithJsonSchema({"type": "integer", "minimum": 0})]


def one_or_more(kinds: list[str]) -> dict[str, object]:
    """The JSON schema of a ``kinds`` argument: a list of at least one of ``kinds``, or one
    alone as a string (which the validator reads as a list of one); a client that checks
    its arguments against the schema before sending would refuse the string otherwise."""
    kind = {"type": "string", "enum": kinds}
    return {"anyOf": [{"type": "array", "items": kind, "minItems": 1}, kind]}


#: Component kinds (an enum in the schema; one alone is a list of one) and ids: at least one.
Kind = Literal["skill", "agent", "command", "hook", "mcp_server"]  # `COMPONENT_KINDS`


def _kinds_read(value: object) -> object:
    """``value`` as a list (one kind alone is a list of one), each kind read in any case
    (``Skill``, ``MCP_SERVER``) as `search` and every other entry point read it; anything
    else as given, for the schema to refuse. One kind alone that is none is refused here,
    as ``kinds``: refused as the list's item it was named ``kinds[0]``, an index into a
    list the agent never wrote."""
    if isinstance(value, str) and kind_in_case(value) not in get_args(Kind):
        raise PydanticCustomError("literal_error", _KIND_WORDS)
    kinds = [value] if isinstance(value, str) else value
    return [kind_in_case(k) if isinstance(k, str) else k for k in kinds] if isinstance(kinds, list) else kinds


#: What pydantic says of a kind not in `Kind`, for one given alone (`_kinds_read`).
_KIND_WORDS = "Input should be " + " or ".join(
    [", ".join(repr(k) for k in get_args(Kind)[:-1]), repr(get_args(Kind)[-1])]
)

Kinds = Annotated[
    list[Kind],
    BeforeValidator(_kinds_read),
    Field(min_length=1),
    WithJsonSchema(one_or_more(list(get_args(Kind)))),
]
Ids = Annotated[list[str], Field(min_length=1)]


def argument_error(exc: ValidationError, takes: str) -> str:
    """The first problem with a call's arguments, in one line naming the argument
    (pydantic's own text spans lines and ends in a URL an agent cannot use)."""
    err, *more = exc.errors()
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".")
    said = {
        "missing": f"{where} is required; {takes}",
        "too_short": f"{where} is empty; pass at least one",
        "whole_number": str(err["msg"]),  # names the argument itself
    }.get(err["type"], f"{where}: {err['msg'][:1].lower()}{err['msg'][1:]}")
    if where.startswith("kinds") and isinstance(err.get("input"), str):  # only search_components' kinds refuse one
        said += _kind_pointer(err["input"])
    if err.get("input", "") is None and len(err["loc"]) == 1:  # a model filling every argument
        # null is refused, never read as a default (a switch read as false once wrote files)
        required = f"{where} (required)" in takes.partition(" takes ")[2].split(", ")  # `_Server.call_tool`
        said += "; null is not a value here: " + ("pass one" if required else f"leave {where} out for its default")
    return said + (f" (and {len(more)} more problem(s))" if more else "")


_ITEM_KINDS = frozenset(k.value for k in NodeKind)


def _kind_pointer(given: str) -> str:
    """What a kind ``search_components`` refused means: the component kind a plural or a
    near miss names (`meant_kind`, as `search` guesses), or, for an item kind of another
    sort (``document``, ``incident``, ``plugin``), that ``search`` finds those; "" when
    nothing is near."""
    meant = kind if (kind := kind_in_case(given)) in _ITEM_KINDS else meant_kind(given)
    if meant is None:
        return ""
    if meant in get_args(Kind):
        return f" (did you mean {meant!r}?)"
    if meant == NodeKind.PLUGIN.value:
        return "; a plugin is found with search (kinds plugin) and installed whole by its id"
    return f"; {'an' if meant[0] in 'aeiou' else 'a'} {meant} item is found with search (kinds {meant})"


def unknown_said(exc: UnknownComponentError, arg: str) -> str:
    """What an agent should do about an id that names nothing, or several things (the
    SDK puts the tool's name before it)."""
    if isinstance(exc, NotInstallableError):  # in the index, of a kind install cannot write
        return str(exc)
    if exc.candidates:  # install's own words (what each is, by id), ending in the argument to pass
        said = str(exc).removesuffix("; give the id of the one you want").removesuffix("; give the id")
        return f"{said}; pass the id of the one you want as {arg}"
    return (
        f"no component {exc.ref!r:.200}; call search_components with the task to find ids, "
        f"then pass one of them as {arg}"
    )


def resolved_ids(view: CallerView, refs: Sequence[str], arg: str) -> list[str]:
    """The node id of each of ``refs`` as ``view``'s caller may see it: an id, or a unique
    name (an item the caller may not see is no component, as one that does not exist).

    Raises:
        ToolError: A ref names nothing the caller sees, several things, or an item of a
            kind install has no place for (`unknown_said`).
    """
    for i, ref in enumerate(refs):
        checked_ref(ref, f"{arg}[{i}]")
    try:
        return [resolve_id(view, r) for r in refs]
    except UnknownComponentError as exc:
        raise ToolError(unknown_said(exc, arg)) from exc


def checked_ref(ref: str, where: str) -> None:
    """Refuse an empty (or blank) id as empty: "no component ''" read as if an item by that
    name might exist, and ``where`` (``id``, ``ids[1]``) says which one to fix.

    Raises:
        ToolError: ``ref`` is empty or blank.
    """
    if not ref.strip():
        raise ToolError(
            f"{where} is empty; pass an id from search or search_components (or a unique name)"
        )


def checked_target(target: str | None, *, may_create: bool = False) -> str | None:
    """``target`` if it is absolute and names an existing folder (None stays None); with ``may_create``
    (installing), also a folder yet to be made inside an existing one, as the CLI allows.

    The rule is install's own (`components.install.target.existing_folder`), said in one
    line the agent can act on: an agent's typo must not pass for "no target" (a search
    would report no installed conflicts without a word, and an install would write into
    a new folder somewhere, or the server's working directory for ``""``), and a path the
    OS refuses (a NUL byte, a name too long) must not end in a bare "Error executing tool".

    Raises:
        ToolError: The target is empty, unusable as a path, or not an existing folder.
    """
    if target is None:
        return None
    if target.strip() and not os.path.isabs(os.path.expanduser(target)):  # (empty: said below)
        raise ToolError(
            f"target {target!r:.200} is a relative path, which this server would read from its own "
            f"working folder ({os.getcwd()}), not yours; pass the project folder's absolute path"
        )
    try:
        existing_folder(target, may_create=may_create, fix="pass the project folder's absolute path")
    except InstallError as exc:
        raise ToolError(str(exc)) from exc
    return target


@contextmanager
def refused_as_tool_errors(target: str, doing: str) -> Iterator[None]:
    """What the install tools raise, as the tool's error: our own errors in their words, a
    file system error as what could not be done to ``target`` (``doing``: "write into",
    "change") and what to pass instead."""
    try:
        yield
    except SkillRetrieverError as exc:
        raise ToolError(str(exc)) from exc
    except OSError as exc:
        raise ToolError(
            f"could not {doing} {exc.filename or target}: {exc.strerror or exc}; "
            "pass a folder this server may write to as target"
        ) from exc
