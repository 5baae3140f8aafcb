"""Passage corpora (``../shared/data/multihop/<set>/corpus.json``) -> passages and entities.

Each passage becomes a `NodeKind.PASSAGE` node (id ``passage:<idx>``, name = title, text =
text). Entities come from two places: spaCy NER over the text (the ``ner`` component only)
and the titles of other passages found in the text (case-sensitive, on word boundaries,
by an n-gram dictionary lookup, longest match first). A passage's own title is an entity
it mentions too, so passages about one title connect. A trailing disambiguation is
dropped from a title before it becomes an entity (``Lilu (mythology)`` -> ``Lilu``).
Entities merge by `normalise_entity`; each is one `NodeKind.ENTITY` node
(``entity:<normalised>``) joined to its passages by ``MENTIONS`` edges.

Every node records ``source_root`` (the folder of ``corpus.json``) and ``source_name``
(that folder's name unless the caller names the source) in ``attrs``; a passage's or
fact's ``source`` is its file, which owns it (`provenance.owner_file`), while an entity is
its folder's (`provenance.derived`). A record whose ``idx``, ``title`` or ``text`` is a
number strict JSON cannot carry (NaN, Infinity, an integer over Python's digit limit), or
whose title is not a string or a number (a number is its text: a novel called 1984), is a
problem of it.

Measured on 2 cores: spaCy's small English NER reads about 95 passages/s in one process
and 150 with ``n_process=2`` (passages of ~110 tokens); title matching alone
(``nlp=False``) takes well under a second per corpus. Indexed (``cache_dir``), what spaCy
read is kept beside the index (`ingest.passage_parses`): a run parses only new texts.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from skill_retriever.exceptions import IngestError
from skill_retriever.ingest.facts import fact_nodes, parse_input, regex_sentences
from skill_retriever.ingest.passage_ner import DEFAULT_MODEL, load_ner, parse_texts
from skill_retriever.ingest.passage_parses import ParseCache, Sentences, extractor_id
from skill_retriever.ingest.passage_records import passages_of, read_records
from skill_retriever.ingest.provenance import Provenance
from skill_retriever.ingest.result import IngestResult, Problem
from skill_retriever.ingest.synonyms import alias_edges
from skill_retriever.model import Edge, EdgeKind, Node, NodeKind

#: What this ingester makes; bumped when that changes, so cached indexes are rebuilt.
#: 2: FACT nodes, SAME_AS edges and the heavier edge to a passage's own title.
INGEST_VERSION = 2
#: Weight of the edge between a passage and the entity of its own title (every other
#: MENTIONS edge weighs 1), so that a walk reaching an entity goes on mostly to the passage
#: about it: the second hop of "When did Lothair II's mother die?" is the passage *about*
#: Ermengarde of Tours, not any passage naming her. Chosen among 1, 4, 8, 16 and 32 on the
#: two train sets (hotpotqa_hipporag_train100, musique_hipporag_train100); 16 and 32 tied.
HOME_WEIGHT = 16.0
#: Corpus files larger than this are refused unless the caller raises the limit.
DEFAULT_MAX_BYTES = 512 * 1024 * 1024
#: NER labels kept; dates, numbers, quantities, money and times are left out.
ENTITY_LABELS = frozenset(
    {"PERSON", "ORG", "GPE", "LOC", "WORK_OF_ART", "EVENT", "NORP", "FAC", "PRODUCT", "LAW",
     "LANGUAGE"}
)
_TOKEN = re.compile(r"\w+|[^\w\s]")
_DISAMBIGUATION = re.compile(r"\s*\([^()]*\)\s*$")
_DELETED = str.maketrans("", "", "'’‘`.")
_STOP = frozenset(
    "a an and are as at be but by for from he her his i if in is it its me my no not of on "
    "or our she so that the their them then there these they this to us was we were what "
    "when where which who why will with you your".split()
)


@dataclass(frozen=True, slots=True)
class MultihopQuery:
    """One multi-hop question and the ids of its gold passages."""

    id: str
    question: str
    gold: tuple[str, ...]
    supporting_titles: tuple[str, ...] = ()
    answer: str | None = None


def normalise_entity(name: str) -> str:
    """Merge key of an entity: casefolded, no punctuation, no leading "the", single spaces."""
    text = unicodedata.normalize("NFKC", name).casefold().translate(_DELETED)
    text = " ".join(re.sub(r"[^\w\s]|_", " ", text).split())
    return text.removeprefix("the ")


def _useful(key: str) -> bool:
    return len(key) >= 2 and not key.isdigit() and key not in _STOP


def _name_word(token: str) -> bool:
    return token[:1].isupper() and token.casefold() not in _STOP


class _TitleMatcher:
    """Find known titles in text: case-sensitive, whole tokens, longest match first."""

    def __init__(self, titles: Iterable[str]) -> None:
        self._keys: dict[tuple[str, ...], str] = {}
        lengths: dict[str, set[int]] = {}
        for title in titles:
            if not any(ch.isupper() or ch.isdigit() for ch in title):
                continue  # a lower-case title would match ordinary words
            key = tuple(_TOKEN.findall(title))
            # "The Beatles" is also found as "the Beatles": index it without "The" too.
            for k in (key, key[1:]) if key[:1] == ("The",) else (key,):
                if k and _useful(normalise_entity(" ".join(k))):
                    self._keys[k] = title
                    lengths.setdefault(k[0], set()).add(len(k))
        self._lengths = {first: sorted(ls, reverse=True) for first, ls in lengths.items()}

    def find(self, text: str) -> list[str]:
        """Titles in ``text``, skipping matches inside a longer name ("Stephen" in "Stephen King")."""
        tokens = _TOKEN.findall(text)
        found: list[str] = []
        i = 0
        while i < len(tokens):
            step = 1
            for n in self._lengths.get(tokens[i], ()):
                title = self._keys.get(tuple(tokens[i : i + n]))
                if title is None:
                    continue
                if not (i > 0 and _name_word(tokens[i - 1])) and not (
                    i + n < len(tokens) and _name_word(tokens[i + n])
                ):
                    found.append(title)
                    step = n
                break
            i += step
        return found


def _entity_title(title: str) -> str:
    return _DISAMBIGUATION.sub("", title).strip() or title.strip()


def ingest_passages(
    corpus_path: Path,
    *,
    nlp: Any | Literal[False] | None = None,
    batch_size: int = 64,
    n_process: int = 1,
    labels: frozenset[str] = ENTITY_LABELS,
    max_bytes: int = DEFAULT_MAX_BYTES,
    source_name: str | None = None,
    facts: bool = True,
    synonyms: bool = True,
    home_weight: float = HOME_WEIGHT,
    cache_dir: Path | None = None,
    parse_progress: Callable[[int], Callable[[int], None]] | None = None,
) -> IngestResult:
    """Read a passage corpus into PASSAGE and ENTITY nodes joined by MENTIONS edges.

    Args:
        corpus_path: A JSON list of ``{"title", "text", "idx"}`` objects.
        nlp: A spaCy ``Language``; ``None`` loads `DEFAULT_MODEL` (once per process);
            ``False`` skips NER and uses titles only.
        batch_size: Passages per ``nlp.pipe`` batch.
        n_process: Processes for ``nlp.pipe``.
        labels: NER labels that make entities.
        max_bytes: Refuse (with one problem) a larger file: it is parsed in memory, so
            this bounds memory use.
        source_name: Recorded on every node; the name of the corpus's folder by default.
        facts: Also split each passage into sentences (spaCy's parser; a regular
            expression with ``nlp=False``) and add one FACT node per sentence, joined to
            its passage and the entities it names (`ingest.facts`).
        synonyms: Also join entities whose names denote one thing by SAME_AS edges
            (`ingest.synonyms`: other spellings, acronyms beside their expansion).
        home_weight: Weight of the MENTIONS edge from a passage to the entity of its own
            title (every other MENTIONS edge weighs 1): a walk that reaches an entity
            goes on mostly to the passage about it.
        cache_dir: Keep what spaCy read in each passage there (the index folder;
            `ingest.passage_parses`) and read it back: only a passage whose text is new
            since this file's last run there is parsed, with the same result.
        parse_progress: ``(texts) -> callback(n)``: called when spaCy starts on the passages
            the cache lacks (never when it holds all), its callback as each is parsed.

    Returns:
        Passages first, then entities, then facts (``attrs``: ``labels``, the NER labels and/or
        ``TITLE`` that found it; ``passages``, how many mention it); one problem per
        unreadable record, or one for a file that is not such a list. A repeated ``idx``
        gets id ``passage:<idx>#<n>`` and ``attrs["duplicate_idx"] = True``.

    Raises:
        IngestError: the file does not exist. One that cannot be read (a folder, no
            permission) is a problem, like one that is not such a list.
    """
    corpus_path = Path(corpus_path)
    if not corpus_path.exists():
        raise IngestError(f"{corpus_path}: no such file; pass a corpus.json")
    started = time.perf_counter()
    result = IngestResult(source=str(corpus_path))
    corpus_path = corpus_path.absolute()  # node sources that mean the same from any directory
    origin = Provenance.of(corpus_path, source_name).attrs()
    records = read_records(corpus_path, max_bytes, result)
    passages = passages_of(records, str(corpus_path), result, origin)
    result.nodes.extend(passages)
    titles = [_entity_title(p.name) for p in passages]
    matcher = _TitleMatcher(titles)
    cache = None
    if cache_dir is not None and nlp is not False and passages:  # nothing read: the cache stays
        extractor = extractor_id(nlp, DEFAULT_MODEL, labels, facts)
        cache = None if extractor is None else ParseCache(cache_dir, str(corpus_path), extractor)
    # Per passage, per sentence (one "sentence" per passage without facts): the text and
    # its (surface, NER label or "TITLE") mentions, titles first.
    sentences = [
        [(text, [(t, "TITLE") for t in matcher.find(text)] + ents) for text, ents in sents]
        for sents in _sentences(passages, nlp, labels, facts, batch_size, n_process, cache, parse_progress)
    ]
    if cache is not None and (why := cache.save()) is not None:
        result.problems.append(Problem(str(corpus_path), why, read_whole=True))
    mentions = [[(own, "TITLE")] + [m for _, found in sents for m in found]
                for own, sents in zip(titles, sentences)]
    entity_of = _link(passages, mentions, result, origin, home_weight)
    if synonyms:
        named = [[i for i in (entity_of(s) for s, _ in found) if i] for found in mentions]
        ids = {i for found in named for i in found}
        result.edges.extend(alias_edges(named, {i: i.removeprefix("entity:") for i in ids}))
    if facts:
        for passage, own, sents in zip(passages, titles, sentences):
            linked = [[i for i in (entity_of(s) for s, _ in found) if i] for _, found in sents]
            nodes, edges = fact_nodes(passage, [(text, e) for (text, _), e in zip(sents, linked)], origin, entity_of(own))
            result.nodes.extend(nodes)
            result.edges.extend(edges)
    result.seconds = time.perf_counter() - started
    return result


def _link(
    passages: list[Node],
    mentions: list[list[tuple[str, str]]],
    result: IngestResult,
    origin: dict[str, str],
    home_weight: float = 1.0,
) -> Callable[[str], str | None]:
    """Merge mentions into entity nodes and add one MENTIONS edge per passage and entity
    (``home_weight`` on the edge to the entity of the passage's own title).

    Returns:
        The entity node id a surface merges into (None for a surface that makes none).
    """
    names: dict[str, str] = {}
    found_by: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for passage, found in zip(passages, mentions):
        linked: set[str] = set()
        for n, (surface, label) in enumerate(found):
            key = _entity_key(surface)
            if key is None:
                continue
            if key not in names or (label == "TITLE" and "TITLE" not in found_by[key]):
                names[key] = surface.strip()  # a title's spelling wins
            found_by.setdefault(key, set()).add(label)
            if key not in linked:
                linked.add(key)
                counts[key] = counts.get(key, 0) + 1
                # found[0] is the passage's own title: the passage is about that entity.
                result.edges.append(Edge(passage.id, f"entity:{key}", EdgeKind.MENTIONS,
                                         weight=home_weight if n == 0 else 1.0))
    for key, name in names.items():
        result.nodes.append(
            Node(id=f"entity:{key}", kind=NodeKind.ENTITY, name=name, text=name,
                 attrs={"labels": sorted(found_by[key]), "passages": counts[key], **origin})
        )
    return lambda surface: None if (key := _entity_key(surface)) is None else f"entity:{key}"


def _entity_key(surface: str) -> str | None:
    key = normalise_entity(surface)
    return key if _useful(key) and len(key) <= 200 else None


def _sentences(
    passages: list[Node],
    nlp: Any | Literal[False] | None,
    labels: frozenset[str],
    split: bool,
    batch_size: int,
    n_process: int,
    cache: ParseCache | None = None,
    progress: Callable[[int], Callable[[int], None]] | None = None,
) -> Iterator[Sentences]:
    """Per passage: its sentences (the whole text when not ``split``) with the NER
    mentions inside each; spaCy runs NER, plus the parser when splitting, on the passages
    ``cache`` holds no parse of (and they are added to it)."""
    if nlp is False or not passages:
        for p in passages:
            yield [(text, []) for text in (regex_sentences(parse_input(p.text)) if split else [parse_input(p.text)])]
        return
    held = [cache.get(p.text) if cache is not None else None for p in passages]
    texts = [p.text for p, h in zip(passages, held) if h is None]
    moved: Callable[[int], None] = progress(len(texts)) if progress is not None and texts else (lambda n: None)
    parsed = parse_texts(texts, nlp, labels, split, batch_size, n_process)
    for passage, sents in zip(passages, held):
        if sents is None:
            sents = next(parsed)
            moved(1)
            if cache is not None:
                cache.put(passage.text, sents)
        yield sents
    parsed.close()  # the model's pipes come back on now, not when the generator is collected


def load_multihop_queries(folder: Path) -> list[MultihopQuery]:
    """Read ``queries.json`` of a multihop set; gold ids match `ingest_passages`.

    Raises:
        IngestError: the file is missing or a query lacks its fields.
    """
    path = Path(folder) / "queries.json"
    if not path.is_file():
        raise IngestError(f"{folder}: no queries.json; pass a multihop set folder")
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise IngestError(f"{path}: not valid JSON ({exc})") from exc
    queries: list[MultihopQuery] = []
    for i, rec in enumerate(records if isinstance(records, list) else [None]):
        if not isinstance(rec, dict) or not isinstance(rec.get("question"), str) or not isinstance(
                rec.get("supporting_idx"), list):
            raise IngestError(f"{path}: query {i} lacks question or supporting_idx")
        answer = rec.get("answer")
        queries.append(MultihopQuery(
            id=str(rec.get("id", i)), question=rec["question"],
            gold=tuple(f"passage:{idx}" for idx in rec["supporting_idx"]),
            supporting_titles=tuple(rec.get("supporting_titles") or ()),
            answer=None if answer is None else str(answer),
        ))
    return queries


# ``DEFAULT_MODEL`` and ``load_ner`` live in `ingest.passage_ner`, re-exported: callers
# and tests load the model from here.
__all__ = [
    "DEFAULT_MAX_BYTES", "DEFAULT_MODEL", "ENTITY_LABELS", "HOME_WEIGHT", "INGEST_VERSION", "MultihopQuery",
    "ingest_passages", "load_multihop_queries", "load_ner", "normalise_entity",
]
