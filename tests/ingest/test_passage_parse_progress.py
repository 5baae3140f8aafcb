"""``index`` of a passage corpus shows a bar while spaCy reads its new passages: the
first run of 2wikimultihopqa (6,119 passages) read for one to two minutes on 2 cores with
nothing on the terminal, the write bar coming only after. Real spaCy, hashing embedder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from passage_corpus import corpus

from skill_retriever.indexing import index_sources
from skill_retriever.stores.embedder import HashingEmbedder
from skill_retriever.stores.index import Index

RECORDS = [
    {"idx": 0, "title": "Lothair II", "text": "Lothair II was King of Lotharingia. His mother was Ermengarde of Tours."},
    {"idx": 1, "title": "Ermengarde of Tours", "text": "Ermengarde of Tours died in 851 at Erstein in Alsace."},
    {"idx": 2, "title": "Erstein", "text": "Erstein is a commune in the Bas-Rhin department in France."},
]
READING = "corpus.json: reading passages (spaCy)"


class Bars:
    """What `index_sources` asks its progress factory for: each bar's label, total and moves."""

    def __init__(self) -> None:
        self.made: list[tuple[str, int]] = []
        self.moved: dict[str, int] = {}

    def factory(self, total: int, label: str) -> Callable[[int], None]:
        self.made.append((label, total))
        self.moved[label] = 0

        def update(n: int) -> None:
            self.moved[label] += n

        return update


def run(index: Index, path: Path, *, ner: bool = True) -> Bars:
    bars = Bars()
    index_sources(index, [path], ner=ner, progress_factory=bars.factory, calibrate=False)
    return bars


def test_a_first_run_shows_spacy_reading_each_passage_then_the_writes(tmp_path: Path) -> None:
    path = corpus(tmp_path / "set" / "corpus.json", RECORDS)
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder(32), create=True) as index:
        first = run(index, path)
        assert first.made[0] == (READING, 3) and first.moved[READING] == 3  # before the write bar
        assert [label for label, _ in first.made] == [READING, "corpus.json"]
        # read again: spaCy's parses are kept beside the index, so nothing is read and no bar shows
        assert [label for label, _ in run(index, path).made] == ["corpus.json"]
        # one passage changed: one to read
        corpus(path, [*RECORDS[:2], {**RECORDS[2], "text": "Erstein lies on the Ill, south of Strasbourg."}])
        again = run(index, path)
        assert again.made[0] == (READING, 1) and again.moved[READING] == 1


def test_titles_only_reads_nothing_with_spacy(tmp_path: Path) -> None:
    path = corpus(tmp_path / "set" / "corpus.json", RECORDS)
    with Index.open(tmp_path / "idx", embedder=HashingEmbedder(32), create=True) as index:
        assert [label for label, _ in run(index, path, ner=False).made] == ["corpus.json"]
