"""IdentityLRU: served only for the very objects an entry was built from; bounded."""

from __future__ import annotations

import pytest

from skill_retriever.identity_cache import IdentityLRU


def test_hit_needs_the_same_guard_objects() -> None:
    cache: IdentityLRU[list[int]] = IdentityLRU(4)
    built: list[str] = []
    guard_a, guard_b = [1], [1]  # equal, not the same object

    def build(tag: str) -> list[int]:
        built.append(tag)
        return [len(built)]

    first = cache.get_or_build("k", (guard_a,), lambda: build("a"))
    assert cache.get_or_build("k", (guard_a,), lambda: build("again")) is first
    other = cache.get_or_build("k", (guard_b,), lambda: build("b"))
    assert other is not first and built == ["a", "b"]


def test_least_recently_used_goes_first() -> None:
    cache: IdentityLRU[str] = IdentityLRU(2)
    guard = object()
    cache.get_or_build(1, (guard,), lambda: "one")
    cache.get_or_build(2, (guard,), lambda: "two")
    cache.get_or_build(1, (guard,), lambda: "rebuilt")  # touch 1: 2 is now the oldest
    cache.get_or_build(3, (guard,), lambda: "three")
    assert len(cache) == 2
    assert cache.get_or_build(1, (guard,), lambda: "rebuilt") == "one"
    assert cache.get_or_build(2, (guard,), lambda: "two again") == "two again"


def test_a_failing_build_caches_nothing() -> None:
    cache: IdentityLRU[int] = IdentityLRU(2)

    def boom() -> int:
        raise RuntimeError("no")

    with pytest.raises(RuntimeError):
        cache.get_or_build("k", (), boom)
    assert len(cache) == 0
    with pytest.raises(ValueError, match="size"):
        IdentityLRU(0)
