"""Pickling or deep-copying an open index's handle (`Index`, `Retriever`, `SkillRetriever`)
is refused in words: the class, the index's path, and how another process opens its own.
Pickle's own error named a lock (``TypeError: cannot pickle '_thread.lock' object``), as
in ``ProcessPoolExecutor().submit(retriever.search, q)``, and said nothing of what to do.

A deep copy is refused as pickling is, not answered with the handle itself: a "copy" that
is the original (closing one closes the other) is no deep copy, and a real one would be a
second handle on the same folder. A shallow ``copy.copy`` of an `Index` or `Retriever` is
refused too: it shared the SQLite connection but kept its own closed flag, so closing the
copy broke the original (``ix2 = copy.copy(ix); ix2.close(); len(ix)`` raised sqlite3's
"Cannot operate on a closed database"). A `SkillRetriever`'s shallow copies still work, and
so do LangChain's own (``model_copy``, ``configurable_fields``, ``with_config``, ``bind``),
none of which pickles or deep-copies it.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

import pytest
from langchain_core.runnables import ConfigurableField

from skill_retriever.adapters.langchain import SkillRetriever
from skill_retriever.retriever import Retriever
from skill_retriever.stores.index import Index

QUERY = "postgres migrations"


def _handles(index: Index) -> list[tuple[object, str, str]]:
    return [
        (index, "Index", "Index.open(path)"),
        (Retriever(index, reranker=None), "Retriever", "Retriever(Index.open(path))"),
        (SkillRetriever(index=index, reranker=None), "SkillRetriever", "SkillRetriever(index=Index.open(path))"),
    ]


@pytest.mark.parametrize(
    ("how", "verb"),
    [
        (pickle.dumps, "pickled"),
        (lambda o: pickle.dumps(o, protocol=2), "pickled"),
        (copy.deepcopy, "deep-copied"),
        (lambda o: copy.deepcopy({"retriever": [o]}), "deep-copied"),  # inside a container too
    ],
)
def test_pickling_or_deep_copying_a_handle_says_to_open_the_path_there(
    shared_tiny_index: Index, how: Callable[[object], object], verb: str
) -> None:
    for handle, name, reopen in _handles(shared_tiny_index):
        with pytest.raises(TypeError) as info:
            how(handle)
        message = str(info.value)
        assert message.startswith(f"{name} cannot be {verb}:"), message
        assert str(shared_tiny_index.path) in message and reopen in message, message
        assert "_thread" not in message and "\n" not in message


def test_a_bound_search_sent_to_another_process_is_refused_in_words(shared_tiny_index: Index) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    with pytest.raises(TypeError, match=r"^Retriever cannot be pickled: .*Retriever\(Index\.open\(path\)\)"):
        pickle.dumps(retriever.search)  # what ProcessPoolExecutor.submit(retriever.search, ...) pickles


def test_a_shallow_copy_of_an_index_or_retriever_is_refused_and_the_original_stays_open(
    shared_tiny_index: Index,
) -> None:
    retriever = Retriever(shared_tiny_index, reranker=None)
    for handle, name, instead in [
        (shared_tiny_index, "Index", "closing the copy would close the database under this one"),
        (retriever, "Retriever", "Retriever(retriever.index, retriever.config, ...)"),
    ]:
        with pytest.raises(TypeError) as info:
            copy.copy(handle)
        message = str(info.value)
        assert message.startswith(f"{name} cannot be copied: a copy would share the open index at "), message
        assert str(shared_tiny_index.path) in message and instead in message and "\n" not in message
    assert len(shared_tiny_index) and retriever.search(QUERY, k=2).results  # both still open


def test_a_skill_retrievers_shallow_copy_still_shares_the_index(shared_tiny_index: Index) -> None:
    lc = SkillRetriever(index=shared_tiny_index, reranker=None, k=2)
    twin = copy.copy(lc)
    assert twin is not lc and twin.index is shared_tiny_index
    assert [d.id for d in twin.invoke(QUERY)] == [d.id for d in lc.invoke(QUERY)]
    twin.close()
    assert lc.invoke(QUERY) and lc.model_copy(update={"k": 1}).invoke(QUERY)  # the original still searches


def test_langchains_own_copies_of_a_skill_retriever_still_search(shared_tiny_index: Index) -> None:
    original = SkillRetriever(index=shared_tiny_index, reranker=None, k=3)
    configured = original.configurable_fields(k=ConfigurableField(id="k"))
    assert len(configured.invoke(QUERY, config={"configurable": {"k": 1}})) == 1
    assert len(original.with_config(tags=["x"]).invoke(QUERY)) == 3
    assert len(original.bind(k=2).invoke(QUERY)) == 2
    assert len(original.with_config(configurable={"k": 1}).invoke(QUERY)) == 3  # no field made configurable
