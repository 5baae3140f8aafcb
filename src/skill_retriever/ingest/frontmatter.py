"""YAML frontmatter of Markdown components: split, parse safely, recover common slips.

Frontmatter is the block between a first line ``---`` and the next ``---`` (or ``...``).
It is parsed with a `yaml.SafeLoader` subclass that also refuses aliases, so an alias
bomb ("billion laughs") fails fast instead of expanding; blocks over `MAX_FRONTMATTER_BYTES`
and flow collections nested over `MAX_NESTING` deep are refused before parsing.

Many real components are not strict YAML: an unquoted description containing ``: ``, an
``argument-hint: [name] [--flag]``, ``tools: *``. Claude Code reads these files, so when
strict parsing fails for such a reason the block is read again as plain ``key: value``
lines (`FrontmatterResult.recovered_from` then says why). Anything else raises
`FrontmatterError`, and the caller reports the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.composer import ComposerError

#: Frontmatter larger than this is refused unparsed (real ones are under 10 KB).
MAX_FRONTMATTER_BYTES = 64 * 1024
#: Deeper ``[``/``{`` nesting is refused unparsed (PyYAML slows down, then recurses out).
MAX_NESTING = 64

_OPEN_RE = re.compile(r"\A---[ \t]*\n")
_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_KEY_LINE_RE = re.compile(r"^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?$")


class FrontmatterError(ValueError):
    """The frontmatter cannot be read; the message says why, for a per-file problem."""


class AliasNotAllowedError(ComposerError):  # type: ignore[misc]  # PyYAML ships no stubs
    """Raised by `NoAliasSafeLoader` on the first ``*alias``."""


class NoAliasSafeLoader(yaml.SafeLoader):  # type: ignore[misc]
    """`yaml.SafeLoader` that refuses aliases, so nothing can expand exponentially."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise AliasNotAllowedError(
                None, None, "YAML aliases (*name) are not allowed in frontmatter", event.start_mark
            )
        return super().compose_node(parent, index)


_CSafeLoader: Any = getattr(yaml, "CSafeLoader", None)


def safe_yaml(text: str) -> Any:
    """`yaml.safe_load` semantics, without aliases; libyaml's parser when PyYAML has it.

    The C loader cannot be subclassed per node, so its event stream is checked for
    aliases first (two C passes are still ~10x faster than the pure-Python loader).
    """
    if _CSafeLoader is None:
        return yaml.load(text, Loader=NoAliasSafeLoader)
    for event in yaml.parse(text, Loader=_CSafeLoader):
        if isinstance(event, yaml.AliasEvent):
            raise AliasNotAllowedError(
                None, None, "YAML aliases (*name) are not allowed in frontmatter", event.start_mark
            )
    return yaml.load(text, Loader=_CSafeLoader)


@dataclass(frozen=True, slots=True)
class FrontmatterResult:
    """Parsed frontmatter: fields, the body after it, and whether lenient reading was needed."""

    fields: dict[str, Any]
    body: str
    has_frontmatter: bool
    recovered_from: str = ""


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """Split ``text`` into (frontmatter block or None, body).

    Raises:
        FrontmatterError: The text opens a block with ``---`` but never closes it.
    """
    text = text.replace("\r\n", "\n").lstrip("\ufeff")
    opened = _OPEN_RE.match(text)
    if not opened:
        return None, text
    close = _CLOSE_RE.search(text, opened.end())
    if close is None:
        raise FrontmatterError(
            "frontmatter opened with '---' but never closed; add a closing '---' line"
        )
    return text[opened.end() : close.start()], text[close.end() :].lstrip("\n")


def parse_frontmatter(text: str) -> FrontmatterResult:
    """Split and parse; the fields are a `dict` with string keys.

    Raises:
        FrontmatterError: Too large, unclosed, aliases, not a mapping, or not readable
            even as plain ``key: value`` lines.
    """
    block, body = split_frontmatter(text)
    if block is None:
        return FrontmatterResult({}, body, has_frontmatter=False)
    if len(block.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES:
        raise FrontmatterError(
            f"frontmatter is over {MAX_FRONTMATTER_BYTES // 1024} KB; refused unparsed"
        )
    if _bracket_depth(block) > MAX_NESTING:
        raise FrontmatterError(
            f"frontmatter nests brackets over {MAX_NESTING} deep; refused unparsed"
        )
    recovered = ""
    try:
        data = safe_yaml(block)
    except AliasNotAllowedError as exc:
        raise FrontmatterError(
            "frontmatter uses YAML aliases (*name); write the values out"
        ) from exc
    except yaml.YAMLError as exc:
        data = _lenient_fields(block)
        if data is None:
            raise FrontmatterError(f"frontmatter is not valid YAML: {_describe(exc)}") from exc
        recovered = _describe(exc)
    except RecursionError as exc:  # deeply nested flow collections
        raise FrontmatterError("frontmatter is nested too deeply to parse") from exc
    except UnicodeError as exc:  # a lone surrogate (text decoded with surrogateescape)
        raise FrontmatterError(
            "frontmatter holds characters that are not valid Unicode; save the file as UTF-8"
        ) from exc
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontmatterError(
            f"frontmatter must be a mapping of fields, got a {type(data).__name__}"
        )
    fields = {str(k): v for k, v in data.items()}
    return FrontmatterResult(fields, body, has_frontmatter=True, recovered_from=recovered)


def _bracket_depth(block: str) -> int:
    depth = deepest = 0
    for ch in block:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}" and depth:
            depth -= 1
    return deepest


def _describe(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None) or str(exc).split("\n", 1)[0]
    mark = getattr(exc, "problem_mark", None)
    return f"{problem} (line {mark.line + 1})" if mark is not None else str(problem)


def _lenient_fields(block: str) -> dict[str, Any] | None:
    """Read ``key: value`` lines as lenient readers do; None if the block has other shapes."""
    entries: list[tuple[str, str, list[str]]] = []
    for line in block.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _KEY_LINE_RE.match(line)
        if match:
            entries.append((match.group(1), (match.group(2) or "").strip(), []))
        elif line[:1] in (" ", "\t") or line.startswith("- "):
            if not entries:
                return None
            entries[-1][2].append(line.strip())
        else:
            return None
    if not entries:
        return None
    return {key: _lenient_value(raw, more) for key, raw, more in entries}


def _lenient_value(raw: str, more: list[str]) -> Any:
    if more:
        if not raw and all(m.startswith("- ") or m == "-" for m in more):
            return [_lenient_scalar(m[1:].strip()) for m in more]
        joiner = "\n" if raw.startswith("|") else " "
        head = [] if raw in ("|", ">", "|-", ">-", "|+", ">+") else [raw]
        return joiner.join(head + more).strip()
    return _lenient_scalar(raw)


def _lenient_scalar(raw: str) -> Any:
    if not raw:
        return None
    try:
        value = safe_yaml(raw)
    except (yaml.YAMLError, RecursionError):
        value = None
    else:
        if not isinstance(value, dict):
            return value
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    return raw
