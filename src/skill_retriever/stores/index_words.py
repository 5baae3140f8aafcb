"""How a message about an index folder asks for another one, read by the CLI and Python alike.

The stores raise these messages under both: ``skill-retriever ... --index-dir`` and
``Index.open(path)``. Telling a Python caller only to "point --index-dir at" a folder names
an option it has no way to pass, so the advice names both ways to choose the folder.
"""

from __future__ import annotations

__all__ = ["point_at"]


def point_at(what: str) -> str:
    """``point --index-dir (Python: Index.open's path) at WHAT``.

    Args:
        what: The folder to choose, e.g. ``"an index, or at a new folder"``.
    """
    return f"point --index-dir (in Python, Index.open's path) at {what}"
