"""A value an error quotes back to whoever sent it: whole when short, else its start and
its length. An agent reads the error into its context, and a 1,000,000-character
``since`` came back whole in the error it got (an MCP ``search`` call)."""

from __future__ import annotations

#: Longest value quoted whole in a message; a longer one is cut.
QUOTED = 80


def shown(value: object) -> str:
    """``value`` quoted for a message (``repr`` of a string, ``str`` of anything else):
    whole when short, else its first `QUOTED` characters and its length."""
    if isinstance(value, str):
        if len(value) <= QUOTED:
            return repr(value)
        return f"{value[:QUOTED]!r}... ({len(value):,} characters)"
    text = str(value)
    return text if len(text) <= QUOTED else f"{text[:QUOTED]}... ({len(text):,} characters)"
