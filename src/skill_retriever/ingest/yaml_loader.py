"""YAML for untrusted frontmatter: safe tags only, no aliases, no exceptions from values.

`load_yaml` has `yaml.safe_load` semantics with two changes:

- Aliases are refused (`AliasNotAllowedError`), so an alias bomb fails fast.
- A scalar that PyYAML resolves to a type but cannot build raises nothing: an impossible
  date (``2026-02-30``, ``0000-01-01``, ``25:61:00``, an offset over a day), an integer
  longer than Python's int <-> str digit limit (``sys.set_int_max_str_digits``), or an
  explicit ``!!int abc`` / ``!!bool maybe`` / ``!!timestamp soon``. Its text is kept as a
  `KeptText` (a ``str``) and a warning says which line and why. PyYAML's own constructors
  raise ValueError, KeyError, AttributeError or TypeError there, which once escaped every
  handler and aborted a whole indexing run.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import SafeConstructor

_ALIAS_MESSAGE = "YAML aliases (*name) are not allowed in frontmatter"


class AliasNotAllowedError(ComposerError):  # type: ignore[misc]  # PyYAML ships no stubs
    """Raised on the first ``*alias``."""


class KeptText(str):
    """A scalar YAML would type (date, integer, ...) that could not be built; its text.

    Readers that would use the typed value (a ``created`` date) skip it quietly: the
    loader has already reported why.
    """

    __slots__ = ()


def _tolerant(what: str, build: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Wrap a scalar constructor: on failure keep the text and record a warning."""

    def construct(loader: Any, node: Any) -> Any:
        try:
            value = build(loader, node)
            if isinstance(value, int):
                str(value)  # ValueError past the digit limit: it could never be saved as JSON
            return value
        except (ValueError, OverflowError, KeyError, AttributeError, TypeError) as exc:
            # ValueError: impossible date or digit limit; KeyError: !!bool maybe;
            # AttributeError / TypeError: !!timestamp on text that is no timestamp.
            text = str(node.value)
            loader.value_warnings.append(
                f"line {node.start_mark.line + 1}: {_why(what, text, exc)}"
            )
            return KeptText(text)

    return construct


def _why(what: str, text: str, exc: BaseException) -> str:
    digits = text.lstrip("+-").replace("_", "")
    if what == "integer" and digits.isdigit() and len(digits) > sys.get_int_max_str_digits():
        return (
            f"a {len(digits):,}-digit integer is over Python's "
            f"{sys.get_int_max_str_digits():,}-digit limit; kept as text"
        )
    shown = text if len(text) <= 40 else f"{text[:37]}..."
    detail = f" ({exc})" if isinstance(exc, ValueError) and len(str(exc)) < 120 else ""
    return f"{shown!r} is not a valid {what}{detail}; kept as text"


_TOLERANT = {
    "tag:yaml.org,2002:int": ("integer", SafeConstructor.construct_yaml_int),
    "tag:yaml.org,2002:float": ("number", SafeConstructor.construct_yaml_float),
    "tag:yaml.org,2002:bool": ("boolean", SafeConstructor.construct_yaml_bool),
    "tag:yaml.org,2002:timestamp": ("date", SafeConstructor.construct_yaml_timestamp),
}


def _make_tolerant(cls: Any) -> Any:
    for tag, (what, build) in _TOLERANT.items():
        cls.add_constructor(tag, _tolerant(what, build))
    return cls


@_make_tolerant
class NoAliasSafeLoader(yaml.SafeLoader):  # type: ignore[misc]
    """`yaml.SafeLoader` that refuses aliases and never raises on a scalar's value."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise AliasNotAllowedError(None, None, _ALIAS_MESSAGE, event.start_mark)
        return super().compose_node(parent, index)


_CSafeLoader: Any = getattr(yaml, "CSafeLoader", None)
if _CSafeLoader is not None:

    @_make_tolerant
    class _TolerantCLoader(_CSafeLoader):  # type: ignore[misc]
        """libyaml's parser with the tolerant constructors (aliases checked beforehand)."""

    _FAST: Any = _TolerantCLoader
else:  # pragma: no cover - PyYAML built without libyaml
    _FAST = None


def load_yaml(text: str) -> tuple[Any, list[str]]:
    """Parse ``text``; return the data and one warning per scalar kept as text.

    libyaml's parser is used when PyYAML has it; its event stream is checked for aliases
    first (two C passes are still ~10x faster than the pure-Python loader).

    Raises:
        AliasNotAllowedError: The text uses an alias.
        yaml.YAMLError: The text is not YAML.
    """
    if _FAST is not None:
        for event in yaml.parse(text, Loader=_CSafeLoader):
            if isinstance(event, yaml.AliasEvent):
                raise AliasNotAllowedError(None, None, _ALIAS_MESSAGE, event.start_mark)
    loader = (_FAST or NoAliasSafeLoader)(text)
    loader.value_warnings = []
    try:
        return loader.get_single_data(), list(loader.value_warnings)
    finally:
        loader.dispose()


def safe_yaml(text: str) -> Any:
    """`load_yaml` without the warnings."""
    return load_yaml(text)[0]
