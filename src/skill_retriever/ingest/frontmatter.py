"""YAML frontmatter of Markdown components: split, parse safely, recover common slips.

Frontmatter is the block between a first line ``---`` and the next ``---`` (or ``...``).
It is parsed by `yaml_loader.load_yaml`: safe tags only, aliases refused (an alias bomb,
"billion laughs", fails fast instead of expanding), and a value YAML types but cannot build
(``created: 2026-02-30``, a 5,000-digit integer) kept as text with a warning in
`FrontmatterResult.warnings`; blocks over `MAX_FRONTMATTER_BYTES` and flow collections
nested over `MAX_NESTING` deep are refused before parsing.

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

from skill_retriever.ingest.json_values import nesting_message
from skill_retriever.ingest.lenient_access import unsure_access
from skill_retriever.ingest.yaml_loader import (  # noqa: F401  (re-exported names)
    AliasNotAllowedError,
    KeptText,
    NoAliasSafeLoader,
    load_yaml,
    safe_yaml,
)

#: Frontmatter larger than this is refused unparsed (real ones are under 10 KB).
MAX_FRONTMATTER_BYTES = 64 * 1024
#: Deeper ``[``/``{`` nesting is refused unparsed (PyYAML slows down, then recurses out);
#: deeper block nesting is refused once parsed.
MAX_NESTING = 64

_OPEN_RE = re.compile(r"\A---[ \t]*\n")
_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_KEY_LINE_RE = re.compile(r"^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?$")


class FrontmatterError(ValueError):
    """The frontmatter cannot be read; the message says why, for a per-file problem."""


@dataclass(frozen=True, slots=True)
class FrontmatterResult:
    """Parsed frontmatter: fields, the body after it, and whether lenient reading was needed."""

    fields: dict[str, Any]
    body: str
    has_frontmatter: bool
    recovered_from: str = ""
    #: Values kept as text because YAML could not build them ("line 3: ... kept as text").
    warnings: tuple[str, ...] = ()


def split_frontmatter(text: str) -> tuple[str | None, str]:
    """Split ``text`` into (frontmatter block or None, body).

    Raises:
        FrontmatterError: The text opens a block with ``---`` but never closes it.
    """
    # Every line ending Python's universal newlines knows: a file saved with CR alone
    # (classic Mac) is otherwise one line, its frontmatter unseen and kept in the body.
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
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
    warnings: list[str] = []
    try:
        data, warnings = load_yaml(block)
    except AliasNotAllowedError as exc:
        raise FrontmatterError(
            "frontmatter uses YAML aliases (*name); write the values out"
        ) from exc
    except yaml.YAMLError as exc:
        data = _lenient_fields(block, warnings)
        if data is None:
            raise FrontmatterError(f"frontmatter is not valid YAML: {_describe(exc)}") from exc
        recovered = _describe(exc)
        unsure = unsure_access(block, data)
        if unsure is not None:  # who may see the item must not rest on a guess
            raise FrontmatterError(
                f"frontmatter is not valid YAML ({recovered}), and read as plain 'key: value' lines its "
                f"access is not certain: {unsure}; not indexed (it could be shown to callers it is not "
                "meant for): make it valid YAML, quoting values that hold ': ' or start with '[', '{' or '*'"
            ) from exc
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
    deep = nesting_message(data, MAX_NESTING)  # block indentation, which brackets miss
    if deep is not None:
        raise FrontmatterError(f"frontmatter {deep}")
    fields = {str(k): v for k, v in data.items()}
    return FrontmatterResult(
        fields, body, has_frontmatter=True, recovered_from=recovered, warnings=tuple(warnings)
    )


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


def _lenient_fields(block: str, warnings: list[str]) -> dict[str, Any] | None:
    """Read ``key: value`` lines as lenient readers do; None if the block has other shapes.

    Values kept as text add to ``warnings``.
    """
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
    return {key: _lenient_value(raw, more, warnings) for key, raw, more in entries}


def _lenient_value(raw: str, more: list[str], warnings: list[str]) -> Any:
    if more:
        if not raw and all(m.startswith("- ") or m == "-" for m in more):
            return [_lenient_scalar(m[1:].strip(), warnings) for m in more]
        joiner = "\n" if raw.startswith("|") else " "
        head = [] if raw in ("|", ">", "|-", ">-", "|+", ">+") else [raw]
        return _unquoted(joiner.join(head + more).strip())
    return _lenient_scalar(raw, warnings)


def _lenient_scalar(raw: str, warnings: list[str]) -> Any:
    if not raw:
        return None
    try:
        value, kept = load_yaml(raw)
    except (yaml.YAMLError, RecursionError):
        value = None
    else:
        if not isinstance(value, dict):
            # The scalar was parsed alone, so its line number would be 1: name the text.
            warnings.extend(w.split(": ", 1)[-1] for w in kept)
            return value
    return _unquoted(raw)


def _unquoted(text: str) -> str:
    """``text`` without the quotes YAML could not read it in: a pair around it (a quoted
    value over several lines), or an opening one never closed (``"unterminated``), which
    would otherwise show in the item's description and be matched as a word."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if text[:1] in ("'", '"') and text[0] not in text[1:]:
        return text[1:].lstrip()
    return text
