"""Indexing a source again names the items that changed, as it names the new ones.

The README offers `index` run again as the check of what changed on disk. Editing one
SKILL.md of sickn33's 596-item catalogue printed `1 new, 1 changed, 594 unchanged; new:
<the added skill>`: which skill had changed was said nowhere, so the check could not
answer its own question."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_calls import run
from files import write_file

HASHING = ("--embedder", "hashing-64")


def _skill(folder: Path, name: str, description: str) -> None:
    write_file(folder, "SKILL.md", f"---\nname: {name}\ndescription: {description}\n---\nUse it for {description}.\n")


def test_the_changed_items_are_named_after_the_new_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, ix = tmp_path / "repo", tmp_path / "ix"
    for n in range(8):
        _skill(repo / "skills" / f"s{n}", f"skill-{n}", f"task number {n}")
    assert run(capsys, "index", repo, "--index-dir", ix, *HASHING)[0] == 0
    for n in (1, 3, 4, 5, 6, 7):  # six edited: five named, then how many more
        with (repo / "skills" / f"s{n}" / "SKILL.md").open("a", encoding="utf-8") as f:
            f.write("One more line.\n")
    _skill(repo / "skills" / "added", "added-skill", "something new")
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix)
    assert code == 0
    assert out.splitlines()[1] == (
        "  1 new, 6 changed, 2 unchanged; new: repo/skills/added/SKILL.md; changed: "
        + ", ".join(f"repo/skills/s{n}/SKILL.md" for n in (1, 3, 4, 5, 6)) + " and 1 more"
    )
    # nothing changed: nothing named
    code, out, _ = run(capsys, "index", repo, "--index-dir", ix)
    assert out.splitlines()[1] == "  0 new, 0 changed, 9 unchanged"
