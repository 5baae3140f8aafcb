"""A query that is, whole, an item's name puts that item first (fusion's "named" list,
`named_query.whole_query_names`). Found in a walkthrough: on the index of wshobson__agents
"finetune" put the command named finetune 7th, below six skills that say fine-tuning more
often, and "status" 2nd, below team-status: the named list held only identifier-like names.
Here the skills say the word far more often than the long command does, so without the
named list (its weight 0, the control) the command is not first."""

from __future__ import annotations

import pytest

from skill_retriever.model import Node, NodeKind
from skill_retriever.named_query import whole_query_names
from skill_retriever.retriever import Retriever

SKILLS = [
    Node(id=f"skill:s{i}", kind=NodeKind.SKILL, name=f"finetune-helper-{i}",
         text=f"Finetune models. Finetune with LoRA, finetune with QLoRA, finetune recipe {i}.")
    for i in range(4)
]  # fmt: skip
COMMANDS = [
    Node(id="cmd:finetune", kind=NodeKind.COMMAND, name="finetune",
         text="Run the whole lifecycle end to end: " + "harness, data, environment, training, export. " * 40 + "finetune"),
    Node(id="cmd:team-status", kind=NodeKind.COMMAND, name="team-status",
         text="Show the members of an agent team. " * 30 + "status"),
    Node(id="cmd:status", kind=NodeKind.COMMAND, name="status", text="Status, status, status of every status track."),
]  # fmt: skip


@pytest.fixture
def retriever(make_index):  # type: ignore[no-untyped-def]
    return Retriever(make_index([*SKILLS, *COMMANDS]), cache_size=0)


@pytest.mark.parametrize(("query", "named"), [
    ("finetune", "cmd:finetune"), ("Finetune ", "cmd:finetune"), ("/finetune", "cmd:finetune"),
    ("team status", "cmd:team-status"), ("Team-Status", "cmd:team-status"),
])  # fmt: skip
def test_a_query_that_is_a_name_puts_that_item_first(retriever: Retriever, query: str, named: str) -> None:
    response = retriever.search(query, k=5, rerank=False)
    assert response.ids[0] == named, response.ids
    assert "named" in response.results[0].channels
    control = retriever.search(query, k=5, rerank=False, channels={"named": 0.0})
    if query.casefold().strip() in ("finetune", "/finetune"):
        assert control.ids[0] != named, control.ids  # the case this rule is for


def test_words_around_a_name_do_not_make_it_named(retriever: Retriever) -> None:
    response = retriever.search("finetune my model with lora", k=5, rerank=False)
    assert "named" not in response.stats["fuse_rrf"]["channels"], response.stats["fuse_rrf"]


def test_whole_query_names() -> None:
    assert whole_query_names("  Team   Status ") == {"team status", "team-status"}
    assert whole_query_names("/finetune") == {"/finetune", "finetune"}
    assert whole_query_names("/") == {"/"}
    assert whole_query_names("") == frozenset()
    assert whole_query_names("x" * 201) == frozenset()
