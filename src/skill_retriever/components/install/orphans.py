"""Leave out a dependency nothing written needs.

A component comes into a plan as a dependency for the components that require it. When
none of those is written (blocked by a file of the user's, refused as unsafe, skipped as
a kind this scope cannot place), writing the dependency anyway leaves it behind recorded
as nobody's: no later uninstall of what was asked takes it back. So it is skipped too, and
says why; one already in place (unchanged) is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from skill_retriever.components.install.plan import ComponentPlan

__all__ = ["leave_out_orphans"]

#: The statuses of a component nothing of which is written.
NOT_WRITTEN = ("blocked", "refused", "skipped")


def leave_out_orphans(plans: Sequence[ComponentPlan]) -> list[ComponentPlan]:
    """``plans`` with each dependency to install skipped when every component of the plan
    that requires it is not written (to a fixed point: a chain of them goes whole)."""
    out = {c.id: c for c in plans}
    changed = True
    while changed:
        changed = False
        for c in list(out.values()):
            users = [out[u] for u in c.required_by if u in out]
            if c.status != "install" or not users or any(u.status not in NOT_WRITTEN for u in users):
                continue
            why = ", ".join(f"{u.name} ({u.status})" for u in users)
            were = "is" if len(users) == 1 else "are"
            out[c.id] = replace(c, status="skipped", reason=f"left out: it is here for {why}, which {were} not installed")
            changed = True
    return [out[c.id] for c in plans]
