"""What `server_drift.out_of_step` says may set the server's collections right by itself.

Every cause ended "a write in progress catches up by itself", the server's lost
collections too: a write under way makes them again only since a writer's next write or
search does (commit "A writer's search whose Chroma collections are gone makes them
again"), and a reader never does; the message that follows says so when a writer holds
the lock (`repair_wait.while_writing`). The words now promise a catch-up only of a count
a write or delete under way brings level."""

from __future__ import annotations

from skill_retriever.stores.server_drift import out_of_step

NAMES = ["p-nodes", "p-edges"]
CATCH_UP = "a write in progress catches up by itself"


def test_lost_collections_are_promised_no_catch_up() -> None:
    said = out_of_step(NAMES, [None, None], [10, 4])
    assert said.startswith("holds no collection in p-nodes and no collection in p-edges")
    assert "the server lost the collections" in said and CATCH_UP not in said, said


def test_a_count_a_write_under_way_may_bring_level_still_says_so() -> None:
    for have in ([7, 4], [12, 4], [None, 3]):  # fewer, more, one lost and one behind
        said = out_of_step(NAMES, have, [10, 4])
        assert said.endswith(f"; {CATCH_UP})"), said
    assert out_of_step(NAMES, [10, 4], [10, 4]) == ""
