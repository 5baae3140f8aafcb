"""What the MCP ``search`` warnings said of the items a caller may not see (found in a
privacy walkthrough of the MCP server, asked through the SDK's client):

- the "nothing fits" words were chosen by every kind the index holds: a caller who sees
  only runbooks read "nothing in the index fits", where an index of runbooks alone says
  "in these documents", so the words told that private items of other kinds were there;
- the note on a "nothing fits" line calibrated on an index of another size counted every
  item ("it holds 48 items now") for a caller who sees 8 of them.

Both now follow what the caller may see; a caller who sees everything reads them as before.
A real index (the hashing embedder) of runbooks beside skills behind ``access: [bob]``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from files import write_file
from mcp_in_process import tool_answers

from skill_retriever.indexing import index_sources
from skill_retriever.model import Node, NodeKind
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

TOPICS = ("roll back a deploy with helm", "rotate the database password", "page the on-call engineer",
          "restore a backup of postgres", "drain a kubernetes node", "renew the TLS certificate",
          "scale the web tier", "clear the CDN cache")
OFF_TOPIC = "quantum chromodynamics lattice gauge theory"
STALE = "the 'nothing fits' line was calibrated"


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("private-counts")
    for i, topic in enumerate(TOPICS):
        write_file(root, f"docs/runbook-{i}.md", f"# Runbook {i}\n\nHow to {topic}. The steps for {topic} follow.\n")
        write_file(root, f"skills/skills/s{i}/SKILL.md",
                   f"---\nname: s{i}\ndescription: Skill to {topic}\naccess: [bob]\n---\nBody: {topic}\n")
    index = Index.open(root / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [root / "docs"], "docs", calibrate=False)
    index_sources(index, [root / "skills"], "skills")  # calibrated on all 16
    index.close()
    return root / "index"


def _note(index_dir: Path, principals: list[str]) -> str:
    answer = tool_answers(index_dir, principals, {"s": ("search", {"query": OFF_TOPIC, "k": 3})})["s"]
    assert answer["nothing_fits"] is True
    note: str = answer["note"]
    return note


def test_nothing_fits_is_said_in_the_words_of_what_the_caller_may_see(index_dir: Path) -> None:
    assert _note(index_dir, []).startswith("nothing in these documents fits this well")
    assert _note(index_dir, ["bob"]).startswith("nothing in the index fits this well")


def test_a_stale_calibration_note_counts_items_only_for_a_caller_who_sees_them_all(tmp_path: Path) -> None:
    root = tmp_path
    for i, topic in enumerate(TOPICS):
        write_file(root, f"docs/runbook-{i}.md", f"# Runbook {i}\n\nHow to {topic}.\n")
    index = Index.open(root / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [root / "docs"], "docs")  # calibrated on the 8 runbooks
    node = next(iter(index.nodes.values()))
    # written through the Python API, which does not calibrate again: 40 private items
    index.upsert([node.with_changes(id=f"secret-{i}", name=f"secret-{i}", access=("bob",)) for i in range(40)])
    index.close()

    def warnings(principals: list[str]) -> list[str]:
        answer = tool_answers(root / "index", principals, {"s": ("search", {"query": "roll back a deploy", "k": 3})})["s"]
        return [w for w in answer.get("warnings", []) if STALE in w]

    # a caller who may not see the private items is judged by a line drawn now, over the
    # 8 runbooks it sees (`calibration.access_fit`): nothing stale to say, and no count
    assert warnings([]) == []
    (everything,) = warnings(["*"])
    assert "when the index held 8 items; it holds 48 now" in everything


def test_a_caller_who_sees_every_answer_but_not_every_item_is_told_no_count(tmp_path: Path) -> None:
    """Private entities (no answer: the line is drawn over answers) leave the stored line
    the caller's own, so its staleness is said, in words that count nothing."""
    root = tmp_path
    for i, topic in enumerate(TOPICS):
        write_file(root, f"docs/runbook-{i}.md", f"# Runbook {i}\n\nHow to {topic}.\n")
    index = Index.open(root / "index", embedder=HashingEmbedder(), create=True)
    index_sources(index, [root / "docs"], "docs")  # calibrated on the 8 runbooks
    index.upsert([Node(id=f"entity:secret-{i}", kind=NodeKind.ENTITY, name=f"secret-{i}", text=f"Secret {i}.",
                       access=("bob",))
                  for i in range(40)])
    index.close()
    answer = tool_answers(root / "index", [], {"s": ("search", {"query": "roll back a deploy", "k": 3})})["s"]
    (public,) = [w for w in answer.get("warnings", []) if STALE in w]
    assert "on an index of a much different size" in public and "48 now" not in public and "calibrate" in public
