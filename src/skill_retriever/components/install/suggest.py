"""Close names for a name that installs nothing, from the caller's view only.

Catalogues prefix names: an agent a plugin ships is ``comprehensive-review-code-reviewer``,
so ``install code-reviewer`` finds nothing by that name. The names worth offering, best
first: the one the given name is but for spaces, underscores and its ends (``audit log``
for ``audit-log``; the resolver compares names only case-insensitively), those that end with the given name as hyphenated parts, those that hold it as
hyphenated parts, then near spellings (`difflib`'s ratio, best first), each name compared
whole and by every run of as many hyphenated parts as the given name has: a typo inside a
prefixed name (``code-reviewr``) is close to its ``code-reviewer`` part, while the whole
``tdd-workflows-code-reviewer`` is not, and shorter names that merely share a word
(``team-reviewer``) would win. Only what the caller may see is offered (an item hidden
from them must never be named), each as what to type to install it (`by_name.name_for`:
its id when its name alone would not take it).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from skill_retriever.components.install.by_name import name_for
from skill_retriever.components.install.inventory import INSTALLABLE
from skill_retriever.model import Node, NodeKind

if TYPE_CHECKING:  # `uninstall` offers close names of its record (`close_among`) and reads no index
    from skill_retriever.components.view import CallerView

__all__ = ["close_among", "close_names", "near_spellings"]

_SHOWN = 5
#: A longer name is no one's typo, and `difflib` would take long over a whole catalogue.
_LONGEST = 100
#: `difflib.get_close_matches`' default: a whole name this close is a near spelling.
_WHOLE_CUTOFF = 0.7
#: A run of a name's parts must be closer: a short run matches much by chance.
_PART_CUTOFF = 0.8
#: A colon too: a plugin command's frontmatter ``name: trailofbits:ct-check`` is /ct-check.
_SEPARATORS = re.compile(r"[\s_:]+")


def _key(name: str) -> str:
    """A name as compared: case-folded, spaces, underscores and colons as hyphens."""
    return _SEPARATORS.sub("-", name.strip().casefold())


def _runs(name: str, size: int) -> list[str]:
    """Every run of ``size`` consecutive hyphenated parts of ``name`` (none when it has no more)."""
    parts = name.split("-")
    return ["-".join(parts[i : i + size]) for i in range(len(parts) - size + 1)] if len(parts) > size else []


def near_spellings(key: str, names: Sequence[str]) -> list[str]:
    """Those of ``names`` spelt close to ``key``, the closest first (then the shorter):
    each compared whole (ratio >= 0.7) and by its runs of as many parts as ``key`` has
    (>= 0.8), its best counting."""
    size = key.count("-") + 1
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(key)  # difflib caches what it learns of the second sequence

    def ratio(text: str, cutoff: float) -> float:
        matcher.set_seq1(text)
        # the cheap upper bounds first, as `get_close_matches` does
        if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
            return 0.0
        found = matcher.ratio()
        return found if found >= cutoff else 0.0

    scored = []
    for name in names:
        best = max([ratio(name, _WHOLE_CUTOFF), *(ratio(run, _PART_CUTOFF) for run in _runs(name, size))])
        if best > 0:
            scored.append((-best, len(name), name))
    return [name for _, _, name in sorted(scored)]


def close_names(view: CallerView, ref: str) -> list[str]:
    """At most five installable names (or ids) close to ``ref``, best first (see the module)."""
    key = _key(ref)
    if not key or len(key) > _LONGEST:
        return []
    given = ref.casefold()  # what the lookup tried (`CallerView.named`: case aside, nothing else)
    by_key: dict[str, list[Node]] = {}
    for node in view.nodes.values():
        # the name itself answered to nothing installable: no offer of it (one spelt
        # otherwise, ``trailofbits:ct-check`` for ``trailofbits-ct-check``, is offered)
        if (node.kind in INSTALLABLE or node.kind is NodeKind.PLUGIN) and node.name.casefold() != given:
            by_key.setdefault(_key(node.name), []).append(node)
    keys = sorted(by_key, key=lambda k: (len(k), k))  # the shorter, the closer
    # the name ``ref`` is but for spaces, underscores or its ends (``audit log``): the lookup
    # (`CallerView.named`) sets only case aside, so it was not tried, and it is the likeliest meant
    same = [key] if key in by_key else []
    ends = [k for k in keys if k.endswith(f"-{key}")]
    holds = [k for k in keys if k.startswith(f"{key}-") or f"-{key}-" in k]
    out: dict[str, None] = {}
    for k in [*same, *ends, *holds, *near_spellings(key, keys)]:
        for node in sorted(by_key[k], key=lambda n: n.id):
            out.setdefault(name_for(view, node), None)
        if len(out) >= _SHOWN:
            break
    return list(out)[:_SHOWN]


def close_among(ref: str, names: Iterable[str]) -> list[str]:
    """At most five of ``names`` close to ``ref``, in `close_names`' order: the one it is
    but for spaces, underscores and its ends, those ending with it, holding it, then near
    spellings. Uninstall offers them of what its record holds."""
    key = _key(ref)
    if not key or len(key) > _LONGEST:
        return []
    by_key: dict[str, list[str]] = {}
    for name in names:
        if name.casefold() != ref.casefold():  # (the lookup tried it, case aside)
            by_key.setdefault(_key(name), []).append(name)
    keys = sorted(by_key, key=lambda k: (len(k), k))
    same = [key] if key in by_key else []
    ends = [k for k in keys if k.endswith(f"-{key}")]
    holds = [k for k in keys if k.startswith(f"{key}-") or f"-{key}-" in k]
    out: dict[str, None] = {}
    for k in [*same, *ends, *holds, *near_spellings(key, keys)]:
        out.update(dict.fromkeys(sorted(by_key[k])))
        if len(out) >= _SHOWN:
            break
    return list(out)[:_SHOWN]
