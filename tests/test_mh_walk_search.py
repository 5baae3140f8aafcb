"""What a walkthrough of multi-hop QA found in the answers' warnings, fixed:

1. on a QA passage corpus, where no item carries a date, "in 1986" warned that it looks
   like a time but names no window: there it is words of the question, and says nothing
   (where the index holds dated items, a year is read as that year: test_year_windows.py);
2. the 'multihop' profile on an index without facts (documents) ranked worse than the
   index's own defaults without a word: the answer now says facts cannot seed the walk,
   and what to index instead.

Each builds a small real index (HashingEmbedder) through the Index API and searches it
with the real Retriever.
"""

from __future__ import annotations

from collections.abc import Callable

from skill_retriever.config import config_for
from skill_retriever.model import Node
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUESTION = "Which team won the World Series in 1986?"
UNREAD = "looks like a time but names no window"
NO_FACTS = "holds no fact items"


def passages(dated: bool = False) -> list[Node]:
    extra = {"created": "2026-01-05T00:00:00Z"} if dated else {}
    return [
        Node(id="passage:0", kind="passage", name="1986 World Series",
             text="The 1986 World Series was won by the New York Mets over the Boston Red Sox.", **extra),
        Node(id="passage:1", kind="passage", name="Boston Red Sox",
             text="The Boston Red Sox are a baseball team based in Boston."),
    ]  # fmt: skip


def warnings_of(index: Index, query: str, profile: str | None = None) -> list[str]:
    retriever = Retriever(index, config_for(profile) if profile else None, reranker=None, cache_size=0)
    return retriever.search(query).warnings


MakeIndex = Callable[[list[Node]], Index]  # the `make_index` fixture (conftest.py)


def test_an_unread_year_says_nothing_where_no_item_carries_a_date(make_index: MakeIndex) -> None:
    index = make_index(passages())
    assert not [w for w in warnings_of(index, QUESTION) if UNREAD in w]


def test_a_year_is_a_window_where_items_carry_dates(make_index: MakeIndex) -> None:
    # There "in 1986" is read as that year (test_year_windows.py), and the answer says that no
    # item is dated inside it, where it said the year was not read.
    index = make_index(passages(dated=True))
    warnings = warnings_of(index, QUESTION)
    assert not [w for w in warnings if UNREAD in w]
    said = [w for w in warnings if "no item was created or updated inside it" in w]
    assert len(said) == 1 and "'in 1986', 1986-01-01 00:00 to 1987-01-01 00:00 UTC" in said[0]


def test_the_multihop_profile_on_documents_says_facts_cannot_seed_the_walk(make_index: MakeIndex) -> None:
    docs = [Node(id=f"doc:{i}", kind="document", name=n.name, text=n.text) for i, n in enumerate(passages())]
    index = make_index(docs)
    said = [w for w in warnings_of(index, "who won the series", profile="multihop") if NO_FACTS in w]
    assert len(said) == 1
    assert "fact_seeds=2" in said[0] and "corpus.json" in said[0] and "leave it out here" in said[0]
    # an index of its own: passages beside these documents would take the passage settings off both
    assert "--index-dir <new folder>" in said[0]
    assert not [w for w in warnings_of(index, "who won the series") if NO_FACTS in w]  # the default asks none


def test_the_multihop_profile_on_passages_without_facts_says_index_them_again(make_index: MakeIndex) -> None:
    index = make_index(passages())
    said = [w for w in warnings_of(index, "who won the series", profile="multihop") if NO_FACTS in w]
    assert len(said) == 1 and "its passages have none" in said[0] and "index <set>/corpus.json" in said[0]
    # passages written through the API (as here) or from a JSON graph get no facts from indexing again
    assert "passages from a JSON graph or the Python API get none" in said[0]


def test_the_multihop_profile_on_a_corpus_with_facts_says_nothing(make_index: MakeIndex) -> None:
    fact = Node(id="fact:0:0", kind="fact", name="Mets won 1986", text="The Mets won the 1986 World Series.")
    index = make_index([*passages(), fact])
    assert not [w for w in warnings_of(index, "who won the series", profile="multihop") if NO_FACTS in w]
