"""The install record's entry of a plugin installed whole (`inventory` re-exports it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PluginRecord", "same_marketplace"]


def same_marketplace(recorded: object, given: str) -> bool:
    """``given`` (of ``<plugin>@<marketplace>``) names the marketplace ``recorded`` (the
    index's or the record's name of it): case aside, as a plugin's name is compared
    (`CallerView.named`), a marketplace name being a kebab-case identifier
    (https://code.claude.com/docs/en/plugin-marketplaces#marketplace-schema)."""
    return isinstance(recorded, str) and bool(recorded) and recorded.casefold() == given.casefold()


@dataclass
class PluginRecord:
    """A plugin installed whole: its name, the component ids it holds (its members, and
    what they require, whether its install added it or found it there: `plugin_members`),
    and the marketplace its entry is in ("" when none, or for a record of an older
    version): uninstall takes ``<plugin>@<marketplace>``, the name Claude Code gives it,
    as install does. ``required``: those of ``components`` the plugin does not load but
    holds as a dependency of a member (none in a record of an older version, which read every listed
    component as a member): a command it only requires is not moved into its folder
    (`shared_moves`)."""

    name: str
    components: list[str] = field(default_factory=list)
    marketplace: str = ""
    required: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "components": list(self.components),
                **({"marketplace": self.marketplace} if self.marketplace else {}),
                **({"required": list(self.required)} if self.required else {})}

    @classmethod
    def from_json(cls, data: Any) -> PluginRecord:
        if not isinstance(data, dict) or not isinstance(data.get("components"), list):
            raise TypeError("a plugin entry needs its components")
        required = data.get("required", [])
        if not isinstance(required, list):
            raise TypeError("a plugin entry's required components must be a list")
        market = data.get("marketplace")
        return cls(str(data.get("name") or ""), [str(c) for c in data["components"]],
                   market if isinstance(market, str) else "", [str(c) for c in required])
