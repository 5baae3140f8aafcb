"""`destination_name` keeps file names within what file systems allow: a long name is cut
and gets a hash of the whole name, so long names never collide and never fail to write."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skill_retriever.components.install import destination_name

CAPPED = re.compile(r"^(?P<head>.+)-(?P<hash>[0-9a-f]{8})$")


def test_a_300_character_name_is_cut_and_hashed_and_can_be_written(tmp_path: Path) -> None:
    name = "deploy " + "x" * 293
    slug = destination_name(name)
    m = CAPPED.match(slug)
    assert m and m.group("head") == ("deploy-" + "x" * 293)[:100]
    assert len(slug.encode("utf-8")) <= 109
    assert destination_name(name) == slug  # stable from one install to the next
    folder = tmp_path / ".claude" / "skills" / slug
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("ok", encoding="utf-8")
    (tmp_path / f"{slug}.md").write_text("ok", encoding="utf-8")  # agents and commands


def test_long_names_sharing_their_first_100_characters_do_not_collide() -> None:
    common = "a" * 150
    first, second = destination_name(common + "-one"), destination_name(common + "-two")
    assert first != second
    assert first[:100] == second[:100]


def test_multibyte_names_are_capped_in_bytes_on_a_character_boundary() -> None:
    name = "日本語" * 40  # 120 characters, 360 bytes: too long for ext4 though under 255 characters
    slug = destination_name(name)
    assert len(slug.encode("utf-8")) <= 109
    assert CAPPED.match(slug) and slug.startswith("日本語" * 11)
    assert destination_name("é" * 150).encode("utf-8").decode("utf-8")  # no half character


@pytest.mark.parametrize(
    "name, slug",
    [("Code Reviewer: v2", "Code-Reviewer-v2"), ("x" * 100, "x" * 100), ("ü" * 50, "ü" * 50)],
)
def test_names_up_to_100_bytes_are_kept(name: str, slug: str) -> None:
    assert destination_name(name) == slug
