"""How a `RetrievalConfig` is written: ``repr`` names only the settings that differ from
the defaults (``RetrievalConfig(k=5, fusion='scores')``), since the dataclass's own repr
wrote all of them (about 1,400 characters) and buried the few a caller set;
`every_setting` writes all of them, for keys that must tell any two configs apart."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any


def _defaults(config: Any) -> list[tuple[str, Any]]:
    """Each field of the dataclass ``config`` with its default value (a factory's made anew)."""
    out = []
    for f in dataclasses.fields(config):
        if f.default_factory is not dataclasses.MISSING:
            out.append((f.name, f.default_factory()))
        else:
            out.append((f.name, f.default))
    return out


def _written(value: Any) -> str:
    # A read-only mapping (MappingProxyType) as the dict it holds: the repr stays one that
    # Python reads back as an equal config.
    return repr(dict(value)) if isinstance(value, Mapping) and not isinstance(value, dict) else repr(value)


def changed_settings(config: Any) -> str:
    """``config``'s class called with the settings that differ from its defaults."""
    named = [
        f"{name}={_written(value)}"
        for name, default in _defaults(config)
        if (value := getattr(config, name)) != default  # equal: the same search, as == says
    ]
    return f"{type(config).__name__}({', '.join(named)})"


def every_setting(config: Any) -> str:
    """``config``'s class called with every setting, as the dataclass repr wrote it."""
    named = ", ".join(f"{f.name}={getattr(config, f.name)!r}" for f in dataclasses.fields(config))
    return f"{type(config).__name__}({named})"
