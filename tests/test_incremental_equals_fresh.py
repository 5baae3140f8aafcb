"""An index kept in step by indexing again after each change holds what a fresh index of
the same files holds: the same items (text, name, kind, attrs) and the same relations.

Random edits to a folder of documents and a folder of skills, seeded: short documents,
documents long enough to be cut into sections, one-paragraph pages cut at their sentences,
frontmatter and links between files, skills that require one another; files written,
rewritten and deleted between runs. Each folder keeps at least one file: a source that
reads as empty keeps its items on purpose (``index`` refuses it and points at
``remove-source``), which `test_index_prune` covers. A small deterministic embedder:
what is compared is what the index stores, not how it ranks.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

FILLER = "Operators read this paragraph during an incident. "  # 51 characters


def _document(rng: random.Random) -> str:
    shape = rng.random()
    if shape < 0.3:
        return f"# Note\n\nA short note about {rng.choice(['redis', 'kafka', 'vault'])}.\n"
    if shape < 0.6:  # headings, often past the split size
        return "".join(f"## Part {n}\n\n" + FILLER * rng.randint(100, 400) + "\n\n" for n in range(rng.randint(1, 8)))
    if shape < 0.8:  # one paragraph, up to about 100,000 characters
        return "Title\n\n" + FILLER * rng.randint(500, 2_000) + "\n"
    return "---\ntitle: Linked\n---\nSee [the other](b.md).\n\n" + "".join(
        f"### Step {n}\n\n" + FILLER * rng.randint(50, 900) + "\n\n" for n in range(rng.randint(1, 6)))


def _skill(rng: random.Random, n: int) -> str:
    return (f"---\nname: s{n}\ndescription: skill {n} for {rng.choice(['git', 'helm', 'rust'])}\n"
            f"requires: [s{(n + 1) % 3}]\n---\n" + FILLER * rng.randint(1, 50))


def _edit(rng: random.Random, docs: Path, skills: Path) -> None:
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.6:
            path = docs / f"{rng.choice('abcd')}.{rng.choice(['md', 'txt'])}"
            if rng.random() < 0.7:
                path.write_text(_document(rng), encoding="utf-8")
            elif path.exists() and len(list(docs.iterdir())) > 1:
                path.unlink()
        else:
            n = rng.randint(0, 2)
            path = skills / f"s{n}" / "SKILL.md"
            if rng.random() < 0.7:
                path.parent.mkdir(exist_ok=True)
                path.write_text(_skill(rng, n), encoding="utf-8")
            elif path.exists() and len(list(skills.rglob("SKILL.md"))) > 1:
                path.unlink()


def _stored(index: Index) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    snap = index.snapshot()
    nodes = {i: (n.text, n.name, n.kind, n.description, sorted(n.attrs.items(), key=str)) for i, n in snap.nodes.items()}
    edges = sorted((e.source, e.target, str(e.kind)) for e in snap.edges.values())
    return nodes, edges


@pytest.mark.parametrize("seed", range(3))
def test_indexing_again_after_random_edits_equals_a_fresh_index(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    docs, skills = tmp_path / "docs", tmp_path / "skills"
    docs.mkdir()
    (skills / "s0").mkdir(parents=True)
    (docs / "a.md").write_text(_document(rng), encoding="utf-8")
    (skills / "s0" / "SKILL.md").write_text(_skill(rng, 0), encoding="utf-8")
    with Index.open(tmp_path / "kept", embedder=HashingEmbedder(), create=True) as kept:
        for step in range(25):
            _edit(rng, docs, skills)
            index_sources(kept, [docs], calibrate=False)
            index_sources(kept, [skills], calibrate=False)
            with Index.open(tmp_path / f"fresh-{step}", embedder=HashingEmbedder(), create=True) as fresh:
                index_sources(fresh, [docs], calibrate=False)
                index_sources(fresh, [skills], calibrate=False)
                assert _stored(kept) == _stored(fresh), f"seed {seed}, after edit {step + 1}"
