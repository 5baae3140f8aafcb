"""Close names for a name that installs nothing, from the caller's view only.

Catalogues prefix names: an agent a plugin ships is ``comprehensive-review-code-reviewer``,
so ``install code-reviewer`` finds nothing by that name. The names worth offering, best
first: those that end with the given name as hyphenated parts, those that hold it as
hyphenated parts, then `difflib`'s close matches (a typo). Only what the caller may see
is offered (an item hidden from them must never be named), each as what to type to
install it (`by_name.name_for`: its id when its name alone would not take it).
"""

from __future__ import annotations

import difflib
import re

from skill_retriever.components.install.by_name import name_for
from skill_retriever.components.install.inventory import INSTALLABLE
from skill_retriever.components.view import CallerView
from skill_retriever.model import Node, NodeKind

__all__ = ["close_names"]

_SHOWN = 5
#: A longer name is no one's typo, and `difflib` would take long over a whole catalogue.
_LONGEST = 100
_SEPARATORS = re.compile(r"[\s_]+")


def _key(name: str) -> str:
    """A name as compared: case-folded, spaces and underscores as hyphens."""
    return _SEPARATORS.sub("-", name.strip().casefold())


def close_names(view: CallerView, ref: str) -> list[str]:
    """At most five installable names (or ids) close to ``ref``, best first (see the module)."""
    key = _key(ref)
    if not key or len(key) > _LONGEST:
        return []
    by_key: dict[str, list[Node]] = {}
    for node in view.nodes.values():
        if node.kind in INSTALLABLE or node.kind is NodeKind.PLUGIN:
            by_key.setdefault(_key(node.name), []).append(node)
    by_key.pop(key, None)  # the name itself answered to nothing installable: no offer of it
    keys = sorted(by_key, key=lambda k: (len(k), k))  # the shorter, the closer
    ends = [k for k in keys if k.endswith(f"-{key}")]
    holds = [k for k in keys if k.startswith(f"{key}-") or f"-{key}-" in k]
    typos = difflib.get_close_matches(key, keys, n=_SHOWN, cutoff=0.7)
    out: dict[str, None] = {}
    for k in [*ends, *holds, *typos]:
        for node in sorted(by_key[k], key=lambda n: n.id):
            out.setdefault(name_for(view, node), None)
        if len(out) >= _SHOWN:
            break
    return list(out)[:_SHOWN]
