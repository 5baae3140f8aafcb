"""The install record's entry of a plugin installed whole (`inventory` re-exports it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PluginRecord"]


@dataclass
class PluginRecord:
    """A plugin installed whole: its name, the component ids installing it brought
    (its members, and what they required that the install added), and the marketplace its
    entry is in ("" when none, or for a record of an older version): uninstall takes
    ``<plugin>@<marketplace>``, the name Claude Code gives it, as install does."""

    name: str
    components: list[str] = field(default_factory=list)
    marketplace: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "components": list(self.components),
                **({"marketplace": self.marketplace} if self.marketplace else {})}

    @classmethod
    def from_json(cls, data: Any) -> PluginRecord:
        if not isinstance(data, dict) or not isinstance(data.get("components"), list):
            raise TypeError("a plugin entry needs its components")
        market = data.get("marketplace")
        return cls(str(data.get("name") or ""), [str(c) for c in data["components"]],
                   market if isinstance(market, str) else "")
