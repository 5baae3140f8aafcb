"""A public component that requires an item private to others (``access: [secops]``) got no
note for a caller without access when the requirement resolved in its own source (the
edge to the private item was simply hidden), while the same requirement written in
another source got the "no source of the index has" note. A private item must read as one
that does not exist: both get that note, named by the public file's own text only, and
nothing in the plan tells the private item is there."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from files import write_skill

from skill_retriever.cli import main
from skill_retriever.components.install import install
from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

SECRET = "TOPSECRET-ZANZIBAR-MARKER"
#: As the public files write it; the private item is named ``zanzibar-vault``, so a note
#: that spelt it in lower case would have read the private name.
WRITTEN = "Zanzibar-Vault"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    acme, extra = tmp_path / "acme", tmp_path / "extra"
    write_skill(acme, "zanzibar-vault", f"{SECRET} credentials workflow.", access=["secops"])
    write_skill(acme, "deploy-helper", "Roll out, then smoke check.", requires=[WRITTEN])
    write_skill(acme, "release-train", "Ship the release.", requires=["deploy-helper"])
    write_skill(acme, "ghost-user", "Needs a thing nobody has.", requires=["no-such-thing"])
    write_skill(extra, "uses-private", "Also needs the vault.", requires=[WRITTEN])
    idx = Index.open(tmp_path / "index", embedder=HashingEmbedder(), create=True)
    index_sources(idx, [acme, extra], "skills", calibrate=False)
    yield idx
    idx.close()


def _notes(plan_dict: dict[str, object]) -> dict[str, list[dict[str, object]]]:
    comps = plan_dict["components"]
    assert isinstance(comps, list)
    return {c["name"]: c.get("missing_requirements") or [] for c in comps}


def test_a_private_requirement_reads_as_one_no_source_has(index: Index, tmp_path: Path) -> None:
    plan = install(
        index,
        ["deploy-helper", "uses-private", "ghost-user", "release-train"],
        tmp_path / "proj",
        principals=["alice"],
    )
    assert plan.ok and plan.applied
    notes = _notes(plan.to_dict())
    (own,) = notes["deploy-helper"]  # same source as the private item: was missing
    (other,) = notes["uses-private"]  # another source: had it already
    (ghost,) = notes["ghost-user"]  # a name nothing in the index has
    for note in (own, other):
        assert note["status"] == "not in the index you see" and note["id"] == "" and note["name"] == WRITTEN
        assert note["note"] == str(ghost["note"]).replace("no-such-thing", WRITTEN)
    assert own["note"] == (
        f"requires {WRITTEN!r}, which the index does not show you (no source has it, or only others "
        f"may see it): it may not work until {WRITTEN} is there; install it by hand, ask someone who "
        "may see it to install it here, or index a source that has it"
    )
    # transitively too, as for any requirement that will not be there
    (via,) = notes["release-train"]
    assert via["name"] == WRITTEN and via["via"] == ["acme/skills/deploy-helper/SKILL.md"]
    assert f"requires {WRITTEN!r} (via deploy-helper), which the index does not show you" in str(via["note"])
    # the private item is neither installed nor named nor hinted at anywhere
    text = "\n".join(plan.lines()) + json.dumps(plan.to_dict())
    assert "zanzibar-vault" not in text and SECRET not in text
    assert not (tmp_path / "proj/.claude/skills/zanzibar-vault").exists()
    installed = (tmp_path / "proj/.claude/skills/deploy-helper/SKILL.md").read_text()
    assert WRITTEN in installed  # the name the note gives is the public file's own text


def test_a_caller_with_access_gets_the_requirement_and_no_note(index: Index, tmp_path: Path) -> None:
    plan = install(index, ["deploy-helper", "uses-private"], tmp_path / "proj", principals=["secops"])
    assert plan.ok
    assert not any(c.missing for c in plan.components)
    assert (tmp_path / "proj/.claude/skills/zanzibar-vault/SKILL.md").is_file()


def test_the_cli_json_plan_says_the_same(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    index_dir = str(index.path)
    index.close()  # the command opens it itself
    code = main([
        "install", "deploy-helper", "--target", str(tmp_path / "proj"), "--dry-run",
        "--principals", "alice", "--index-dir", index_dir, "--json",
    ])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    (note,) = _notes(json.loads(out))["deploy-helper"]
    assert note["name"] == WRITTEN and "which the index does not show you" in str(note["note"])
    assert "zanzibar-vault" not in out and SECRET not in out
