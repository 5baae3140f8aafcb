"""Names the indexer writes into items that the installer and the adapters read back:
the text that stands for a redacted secret (`REDACTED`) and the attribute of the
declared names that resolved nowhere (`UNRESOLVED_ATTR`).

Their own module, apart from the secret patterns (`secret_formats`) and the link reader
(`skill_links`) that write them: ``install`` and the MCP adapter read them without
importing those (tests/test_cold_start.py).
"""

from __future__ import annotations

__all__ = ["REDACTED", "UNRESOLVED_ATTR"]

#: What stands in for a value the index does not keep.
REDACTED = "[redacted]"

#: The node attribute holding the declared names that resolved nowhere in its own source:
#: ``{"requires": [name, ...], "dependencies": [[name, local id or null], ...],
#: "conflicts": [[name, reason], ...]}`` (only the relations that have some).
UNRESOLVED_ATTR = "unresolved_requires"
