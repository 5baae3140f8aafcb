"""Fact nodes: the sentences of a passage, each joined to the entities it names.

HippoRAG 2 (Gutiérrez et al. 2025, "From RAG to Memory: Non-Parametric Continual Learning
for Large Language Models", arXiv:2502.14802) matches the query against *facts*, triples
an LLM read out of each passage, and starts the graph walk from the entities of the facts
that match: its Table 4 has recall@5 74.7 / 90.4 / 96.3 on MuSiQue / 2Wiki / HotpotQA
with that "query-to-triple" linking, against 44.9 / 65.5 / 68.3 matching the query to
nodes instead. Here no LLM: a fact is one sentence, as spaCy's
dependency parser splits a passage (a regular-expression splitter when no parser runs),
and the entities it names are the ones the passage ingester found inside that sentence
(NER spans and titles of other passages) plus the passage's own title, the subject a
sentence of an encyclopaedia passage is about ("His mother was Ermengarde of Tours." is a
fact about Lothair II).

Each fact is a `NodeKind.FACT` node named after its passage's title, so it is embedded as
``"<title>\\n<sentence>"`` (MiniLM reads "Lothair II / His mother was Ermengarde of
Tours.", not a dangling "His"); it has a ``PART_OF`` edge to its passage and a
``MENTIONS`` edge to every entity the sentence names. Facts are graph scaffolding: BM25
and name matching leave them out (``stores.snapshot``), a search for passages never
returns them, and the seeds of a graph walk come from them (``algorithms.seeding``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from skill_retriever.model import Edge, EdgeKind, Node, NodeKind

#: Sentences shorter than this (in characters, stripped) carry no fact ("Career.", "(b. 1950)").
MIN_FACT_CHARS = 20
#: A sentence longer than this is cut (MiniLM reads 256 word pieces; the title comes first).
MAX_FACT_CHARS = 600
#: What the parser reads of one passage (its first characters; the whole text is still
#: embedded and searched by keyword). spaCy's own cap is 1,000,000 characters, and its time
#: and memory grow with the text: one such passage held an index run for minutes and GBs,
#: where a multi-hop passage runs to about 600 characters.
MAX_PARSE_CHARS = 100_000
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")


def parse_input(text: str, max_length: int = MAX_PARSE_CHARS + 1) -> str:
    """What of ``text`` entities and facts are read from: its first `MAX_PARSE_CHARS`
    characters, fewer where the spaCy pipeline's ``max_length`` is lower (it refuses a
    text of that length or more)."""
    return text[: min(MAX_PARSE_CHARS, max_length - 1)]


def regex_sentences(text: str) -> list[str]:
    """Split ``text`` after ``.``, ``!`` or ``?`` followed by space and a capital or digit.

    The fallback when no parser runs (``nlp=False``); spaCy's parser splits better
    ("d. 20 March 851" is not a sentence end there either, but "U.S. Navy" is one here).
    """
    return [s for s in (part.strip() for part in _SPLIT.split(text)) if s]


def doc_sentences(doc: Any, labels: frozenset[str]) -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """The sentences of a parsed spaCy ``Doc`` with the NER spans inside each.

    A ``Doc`` without sentence boundaries (no parser, no senter) is one sentence. An
    entity belongs to a sentence when it lies wholly inside it, as ``Span.ents`` has it;
    but ``Span.ents`` walks every entity of the document, so asking it per sentence cost
    O(sentences x entities), minutes for one long passage. One pass over the sorted
    entities gives the same lists.
    """
    sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
    ents = [e for e in doc.ents if e.label_ in labels]  # sorted by start, never overlapping
    first = 0
    for sent in sents:
        while first < len(ents) and ents[first].start < sent.start:
            first += 1  # before this sentence, or begun in an earlier one
        inside = []
        while first < len(ents) and ents[first].start < sent.end:
            ent = ents[first]
            if ent.end <= sent.end:  # one that runs past the sentence's end is in neither
                inside.append((ent.text, ent.label_))
            first += 1
        yield sent.text, inside


def fact_nodes(
    passage: Node,
    sentences: Sequence[tuple[str, Sequence[str]]],
    origin: dict[str, str],
    subject: str | None = None,
) -> tuple[list[Node], list[Edge]]:
    """Fact nodes of one passage and their edges.

    Args:
        passage: The passage node (its name is the title every fact is named after).
        sentences: ``(sentence text, entity node ids it names)`` in passage order; the
            caller has already merged surfaces into entity ids (own title included).
        origin: Provenance attrs (``source_root``, ``source_name``) for every node.
        subject: The entity id of the passage's own title, if it makes one: every fact
            names it, and ``attrs["subject"]`` records it.

    Returns:
        One FACT node per sentence of at least `MIN_FACT_CHARS` characters (id
        ``fact:<passage id without "passage:">:<n>``, ``attrs``: ``passage``, ``n``,
        ``subject``), a
        ``PART_OF`` edge from each fact to the passage and a ``MENTIONS`` edge from each
        fact to each entity it names (each once).
    """
    nodes: list[Node] = []
    edges: list[Edge] = []
    stem = passage.id.removeprefix("passage:")
    for n, (text, entity_ids) in enumerate(sentences):
        text = " ".join(text.split())
        if len(text) < MIN_FACT_CHARS:
            continue
        fact_id = f"fact:{stem}:{n}"
        nodes.append(Node(id=fact_id, kind=NodeKind.FACT, name=passage.name, text=text[:MAX_FACT_CHARS],
                          source=passage.source, attrs={"passage": passage.id, "n": n, "subject": subject, **origin}))
        edges.append(Edge(fact_id, passage.id, EdgeKind.PART_OF))
        named = [subject] if subject else []
        edges.extend(Edge(fact_id, entity_id, EdgeKind.MENTIONS) for entity_id in dict.fromkeys(named + list(entity_ids)))
    return nodes, edges


__all__ = [
    "MAX_FACT_CHARS", "MAX_PARSE_CHARS", "MIN_FACT_CHARS", "doc_sentences", "fact_nodes", "parse_input",
    "regex_sentences",
]
