"""Whether the corpus answers an out-of-scope question after all: the chunks a retriever would most likely
return for it, and the offline signs that one of them answers it.

The likely chunks are the top k by cosine between the question's embedding and the chunk embeddings
of the graph (when the graph's embeddings are a local model, or a vector is given) together with the
top k by word overlap (Snowball stems, weighted by inverse document frequency): one matrix product
each. A chunk answers when it names the question's term beside a word that answers what the question
asks about (``Aspect.answered_by``: "price", "licence" for a licence price; in a chunk of another language
the English words and that language's own, ``answers``), when it holds nearly all the question's content
words, or when it states the candidate answer (``PassageCheckPrompt.offline``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from ....core.models import resolve_embeddings
from ....kg.graph import KnowledgeGraph
from ....personas.language import node_language
from ....personas.nouns import CJK_LANGUAGES
from ....text.language import detect_language
from ....text.lexical import stemmed_words
from ...questions.offline import term_pattern
from ...scenarios.graph_cache import GraphCache
from .prompts import (
    ASPECTS,
    LOCAL_ASPECTS,
    Aspect,
    PassageCheckPrompt,
    PassagesToCheck,
    core_question,
)
from .wording import latin_spaced

__all__ = ["DEFAULT_K", "ChunkIndex", "answers", "asked_aspects", "question_vector", "supporting_chunks"]

DEFAULT_K = 6
_CACHE_SIZE = 4


@dataclass
class ChunkIndex:
    """The graph's chunks as two matrices: unit embeddings and stem incidence (with idf weights)."""

    ids: list[str]
    texts: list[str]
    documents: list[str]
    languages: list[str]
    unit: np.ndarray | None  # (n, dim) unit rows; None when a chunk has no vector
    stems: sparse.csr_matrix  # (n, vocabulary) 1 where the chunk has the stem
    vocabulary: dict[str, int]
    idf: np.ndarray
    _mentions: dict[str, list[int]] = field(default_factory=dict, repr=False)
    _rows: dict[str, int] = field(default_factory=dict, repr=False)

    def row(self, chunk: str) -> int:
        if not self._rows:
            self._rows.update((c, i) for i, c in enumerate(self.ids))
        return self._rows[chunk]

    @classmethod
    def of(cls, kg: KnowledgeGraph) -> ChunkIndex:
        """The index of ``kg``'s chunks (cached by their ids, which change with any chunk's text)."""
        return _cache.get(kg, cls._build)

    @classmethod
    def _build(cls, kg: KnowledgeGraph, chunks: list[str]) -> ChunkIndex:
        texts = [kg.get(c)["text"] for c in chunks]
        languages = [node_language(kg, c) for c in chunks]
        vocabulary: dict[str, int] = {}
        rows: list[int] = []
        cols: list[int] = []
        for row, (text, lang) in enumerate(zip(texts, languages, strict=True)):
            for stem in dict.fromkeys(stemmed_words(text, lang)):
                rows.append(row)
                cols.append(vocabulary.setdefault(stem, len(vocabulary)))
        shape = (len(chunks), max(len(vocabulary), 1))
        stems = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=shape)
        frequency = np.asarray(stems.sum(axis=0)).ravel()
        idf = np.log((1 + len(chunks)) / (1 + frequency)) + 1
        vectors = [kg.get(c).get("embedding") for c in chunks]
        unit = None
        if chunks and all(v is not None and len(v) for v in vectors):
            matrix = np.vstack([np.asarray(v, dtype=np.float32) for v in vectors])
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            unit = matrix / np.where(norms == 0, 1, norms)
        documents = [kg.get(c)["document"] for c in chunks]
        return cls(chunks, texts, documents, languages, unit, stems, vocabulary, idf.astype(np.float32))

    def word_scores(self, question: str) -> np.ndarray:
        """Per chunk, the idf-weighted share of the question's stems it holds (0 to 1)."""
        found = list(dict.fromkeys(stemmed_words(question, detect_language(question))))
        known = [self.vocabulary[s] for s in found if s in self.vocabulary]
        total = float(self.idf[known].sum()) + (len(found) - len(known)) * float(self.idf.max(initial=1))
        if not known or total <= 0:
            return np.zeros(len(self.ids), dtype=np.float32)
        return np.asarray(self.stems[:, known] @ self.idf[known]).ravel() / total

    def cosines(self, vector: np.ndarray | None) -> np.ndarray | None:
        """Per chunk, its cosine to ``vector``; None without chunk vectors or for another dimension."""
        if vector is None or self.unit is None:
            return None
        vector = np.asarray(vector, dtype=np.float32).ravel()
        norm = float(np.linalg.norm(vector))
        if norm == 0 or vector.shape[0] != self.unit.shape[1]:
            return None
        return self.unit @ (vector / norm)

    def nearest(self, question: str, vector: np.ndarray | None = None, k: int = DEFAULT_K) -> list[int]:
        """Rows of the chunks most likely retrieved for ``question``: top ``k`` by cosine, then top ``k``
        by words (each chunk once, a copied text once)."""
        ranked: list[int] = []
        cosines = self.cosines(vector)
        if cosines is not None:
            ranked += _top(cosines, k)
        scores = self.word_scores(core_question(question))
        ranked += [row for row in _top(scores, k) if scores[row] > 0]
        seen: set[str] = set()
        rows = []
        for row in ranked:
            text = " ".join(self.texts[row].split())
            if text not in seen:
                seen.add(text)
                rows.append(row)
        return rows

    def mentioning(self, term: str) -> list[int]:
        """Rows of the chunks that mention ``term`` (any case, singular or plural)."""
        key = term.casefold()
        if key not in self._mentions:
            pattern = term_pattern(term)
            self._mentions[key] = (
                [] if pattern is None else [i for i, t in enumerate(self.texts) if pattern.search(t)]
            )
        return self._mentions[key]

    def documents_of(self, term: str) -> set[str]:
        return {self.documents[row] for row in self.mentioning(term)}

    def close_to(self, row: int, candidates: Iterable[int], m: int) -> list[int]:
        """Up to ``m`` of ``candidates`` (not ``row`` nor a copy of its text), the most similar first."""
        others = [c for c in candidates if c != row and self.texts[c] != self.texts[row]]
        if self.unit is None or not others:
            return others[:m]
        scores = self.unit[others] @ self.unit[row]
        return [others[i] for i in _top(scores, m)]


def _top(scores: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` highest scores, highest first; ties go to the lower index."""
    if k <= 0 or scores.size == 0:
        return []
    order = np.argsort(-np.round(scores, 6), kind="stable")
    return [int(i) for i in order[:k]]


def answers(aspect: Aspect, text: str, lang: str) -> bool:
    """Whether ``text`` (written in ``lang``) uses a word answering what ``aspect`` asks: an English one
    (in Chinese or Japanese text, a Latin word set off first) or, outside English, one of its own."""
    if aspect.answered_by.search(latin_spaced(text) if lang in CJK_LANGUAGES else text):
        return True
    local = LOCAL_ASPECTS.get(lang, {}).get(aspect.key)
    return local is not None and bool(local.answered_by.search(text))


def answers_aspect(text: str, term: str, aspect: Aspect, lang: str = "en") -> bool:
    """Whether a chunk names ``term`` beside a word answering what ``aspect`` asks ("price", "licence")."""
    pattern = term_pattern(term)
    return pattern is not None and bool(pattern.search(text)) and answers(aspect, text, lang)


def asked_aspects(question: str, named: Sequence[str] = ()) -> list[Aspect]:
    """The aspects a question asks about: those named (by topic, in any language, as a sample's later
    terms) and those whose answering words the question itself uses ("How much does a licence cost?")."""
    wanted = {topic.casefold() for topic in named}
    lang = detect_language(question)
    return [a for a in ASPECTS if wanted & _TOPICS[a.key] or answers(a, question, lang)]


# Each aspect's topic in every language (an offline sample names it in its own).
_TOPICS = {
    a.key: {a.topic.casefold(), *(t[a.key].topic.casefold() for t in LOCAL_ASPECTS.values() if a.key in t)}
    for a in ASPECTS
}


@functools.lru_cache(maxsize=8)
def _local_embeddings(identity: str) -> Any:
    return resolve_embeddings(identity).model


def question_vector(kg: KnowledgeGraph, question: str) -> np.ndarray | None:
    """The question's embedding in the graph's vector space, when the graph was embedded by a local
    (offline) model; None otherwise (then only words find the likely chunks)."""
    recorded = (kg.graph.graph.get("models") or {}).get("embeddings") or {}
    identity = str(recorded.get("identity") or "")
    if not identity.startswith("offline:"):
        return None
    return np.asarray(_local_embeddings(identity).embed_matrix([question])[0], dtype=np.float32)


def supporting_chunks(
    kg: KnowledgeGraph,
    question: str,
    candidate: str = "",
    *,
    terms: Sequence[str] = (),
    vector: np.ndarray | None = None,
    k: int = DEFAULT_K,
) -> list[str]:
    """Ids of the likely chunks that answer ``question`` or state ``candidate`` (offline signs; empty when
    none does). ``terms``: the sample's terms, its topic term first (and its aspect's topic, offline).
    ``vector``: the question's embedding, computed here with the graph's local model when not given."""
    index = ChunkIndex.of(kg)
    if vector is None:
        vector = question_vector(kg, question)
    rows = index.nearest(question, vector, k)
    if not rows:
        return []
    core = core_question(question)
    aspects = asked_aspects(core, terms[1:])
    term = terms[0] if terms else ""
    judged = (
        PassageCheckPrompt()
        .offline(
            PassagesToCheck(
                question=question, candidate_answer=candidate, passages={str(r): index.texts[r] for r in rows}
            )
        )
        .by_key()
    )
    named = [
        row
        for row in rows
        if term and any(answers_aspect(index.texts[row], term, a, index.languages[row]) for a in aspects)
    ]
    return [index.ids[row] for row in rows if judged[str(row)].verdict or row in named]


_cache: GraphCache[ChunkIndex] = GraphCache(_CACHE_SIZE)
