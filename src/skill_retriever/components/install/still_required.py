"""Refuse to uninstall what an installed component that stays still requires.

A package manager does not pull a requirement out from under what needs it: uninstalling
``secret-scanning`` while the hook ``block-secrets-in-commits`` that requires it stays
would leave the hook pointing at a skill no longer there. So the uninstall is refused,
nothing removed, naming the components that require it and the two ways on: uninstall
them too, in one call (all of them that reach it through what they require, so the one
call goes through), or ``force`` to remove it anyway (they stay, and the report's
``note:`` line says what they lack).

What requires what comes from the install record alone (``RecordEntry.requires``, the ids
each component required directly when it was installed): uninstall does not read the
index. A record written before those were recorded says nothing, and nothing is refused.
"""

from __future__ import annotations

from skill_retriever.components.install.errors import InstallError
from skill_retriever.components.install.inventory import InstallRecord

__all__ = ["StillRequiredError", "requirers", "still_required"]


class StillRequiredError(InstallError):
    """What an uninstall would take back is required by components that stay.

    Attributes:
        said: What requires what (``secret-scanning is required by block-secrets-in-commits,
            which stays installed in <root>``).
        required: The id going -> the ids of the components staying that require it
            directly.
        dependents: Every component staying that needs what goes, directly or through
            others (the ids to uninstall too), in the record's order.
        refs: What to pass for each of ``dependents`` (its name where that takes it
            alone, else its id), in the same order; ``asked`` the refs given.
        names: Id -> name, for the ids above.
    """

    def __init__(
        self,
        said: str,
        required: dict[str, list[str]],
        dependents: list[str],
        refs: list[str],
        asked: list[str],
        names: dict[str, str],
    ) -> None:
        self.said, self.required, self.dependents = said, required, dependents
        self.refs, self.asked, self.names = refs, asked, names
        super().__init__(self.advice(f"uninstall({[*asked, *refs]!r}, ...)", "pass force=True"))

    def advice(self, together: str, force: str) -> str:
        """The refusal, with the two ways on in the caller's words: ``together`` (the call
        or command that uninstalls the dependents too) and ``force`` (how to force it)."""
        them = "it" if len(self.dependents) == 1 else "them"
        users = list(dict.fromkeys(u for us in self.required.values() for u in us))
        lack = f"{', '.join(self.names[u] for u in users)} then lack{'s' if len(users) == 1 else ''}"
        return (
            f"{self.said}; nothing removed. Uninstall {them} too, in one call: {together}; "
            f"or {force} to remove it anyway ({lack} it, which a note says)"
        )


def requirers(record: InstallRecord, going: list[str]) -> dict[str, list[str]]:
    """Of ``going`` (recorded ids), those a component that stays requires directly -> the
    ids of those components."""
    gone = set(going)
    out: dict[str, list[str]] = {}
    for i in going:
        users = [u for u, e in record.components.items() if u not in gone and i in e.requires]
        if users:
            out[i] = users
    return out


def _dependents(record: InstallRecord, going: list[str]) -> list[str]:
    """Every component staying that requires something in ``going``, directly or through
    another staying one: what to uninstall too for nothing left to miss a requirement."""
    out: list[str] = []
    reached = set(going)
    while True:
        more = [i for i, e in record.components.items() if i not in reached and reached.intersection(e.requires)]
        if not more:
            return out
        out += more
        reached.update(more)


def _ref(record: InstallRecord, node_id: str) -> str:
    """What names ``node_id`` to an uninstall: its name when that takes it alone, else its id."""
    name = record.components[node_id].name
    key = name.casefold()
    same = [i for i, e in record.components.items() if e.name.casefold() == key]
    same += [p for p, rec in record.plugins.items() if rec.name.casefold() == key]
    return name if same == [node_id] else node_id


def still_required(record: InstallRecord, going: list[str], asked: list[str]) -> StillRequiredError | None:
    """The refusal to uninstall ``going`` (the chosen ids, with what they take along) from
    ``record``'s root while components that stay require some of it; None when none do.
    ``asked``: the refs the uninstall was given, repeated in the advised command."""
    required = requirers(record, going)
    if not required:
        return None
    dependents = _dependents(record, going)
    refs = [_ref(record, i) for i in dependents]
    names = {i: record.components[i].name for i in [*required, *dependents]}
    said = "; ".join(
        f"{names[i]} is required by {', '.join(names[u] for u in users)}" for i, users in required.items()
    )
    stay = "stays" if len({u for us in required.values() for u in us}) == 1 else "stay"
    return StillRequiredError(f"{said}, which {stay} installed in {record.root}", required, dependents, refs, asked, names)
