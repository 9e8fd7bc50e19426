"""The facts of a whole graph, computed once and shared by the three synthesizers.

Also the corpus's scope (the product most documents are about, for "... in Prometheus?") and
sentence vectors from the local WordLlama model, which tell whether two mentions of a subject mean
the same thing. They cost no model call and no API money, whatever model writes the questions.
"""

from __future__ import annotations

from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np

from ...core.wordllama_embeddings import shared_model
from ...kg.extractors import languages
from ...kg.graph import KnowledgeGraph
from ...kg.scope import corpus_scope
from ...personas.audience import audience_of, staff_read
from ...text.lexical import folded
from ...text.mdparse import read_once
from ..questions.templates import asks_one_thing
from .facts import Fact, facts_of, prose_vocabulary, subject_key
from .graph_cache import GraphCache
from .passages import PASSAGES_MEMO_CHARS, continued_list

__all__ = ["FactIndex", "corpus_scope"]

_CACHE_SIZE = 4


@dataclass
class FactIndex:
    """Facts by chunk id (document order), the corpus scope, and sentence vectors on demand."""

    facts: dict[str, list[Fact]]
    scope: str = ""
    staff: bool = False  # its readers are mostly staff (a handbook): see ``question_scope``
    lowercase: frozenset[str] = frozenset()  # words its prose writes in lower case (``prose_vocabulary``)
    _vectors: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    _questions: Counter[tuple[str, ...]] = field(default_factory=Counter, repr=False)
    _views: dict[frozenset[str], FactIndex] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # Each different answer counts, in one chunk too ("Receivers MUST respond 2xx ... MUST respond 5xx
        # ..."); a chunk repeating a sentence is one answer.
        for facts in self.facts.values():
            answered = {(f.question_key(), folded(f.answer)) for f in facts}
            self._questions.update(question for question, _ in answered)

    def only(self, languages: frozenset[str]) -> FactIndex:
        """The index of the facts in ``languages``: a kind whose offline templates are English only must not
        be handed German facts (``Synthesizer.fact_languages``). Shares the sentence vectors."""
        if all(f.lang in languages for found in self.facts.values() for f in found):
            return self
        if languages not in self._views:
            kept = {c: [f for f in found if f.lang in languages] for c, found in self.facts.items()}
            self._views[languages] = FactIndex(
                {c: found for c, found in kept.items() if found},
                scope=self.scope,
                staff=self.staff,
                lowercase=self.lowercase,
                _vectors=self._vectors,
            )
        return self._views[languages]

    def unambiguous(self, fact: Fact) -> bool:
        """Whether ``fact``'s question has one answer in the corpus: it names what it asks for, and no other
        statement answers the same question. A rule asked without what it is about ("What is required of
        X?", "What is recommended for X?") is never asked, even of a subject's only rule: blind readers
        kept 11 of 39 such questions on four corpora (61% of all samples), nothing in the question pointing
        to what the sentence says."""
        return asks_one_thing(fact) and self._questions[fact.question_key()] <= 1

    @property
    def question_scope(self) -> str:
        """What an offline question names as its scope ("... in Prometheus?"): the corpus scope, but none in
        a handbook: "How do I obtain approval in Sourcegraph?" reads as a feature of the company's product
        (blind readers failed it), and every question of a company handbook is about the company."""
        return "" if self.staff else self.scope

    def is_scope(self, fact: Fact) -> bool:
        """Whether ``fact`` is about the product the corpus documents (too broad for one sentence)."""
        return self.is_scope_key(fact.key())

    def is_scope_key(self, key: str) -> bool:
        return bool(self.scope) and key == subject_key(self.scope)

    @classmethod
    def of(cls, kg: KnowledgeGraph) -> FactIndex:
        """The index of ``kg`` (cached by its chunk ids, which change with any chunk's text)."""
        return _cache.get(kg, cls._build)

    @classmethod
    def _build(cls, kg: KnowledgeGraph, chunks: list[str]) -> FactIndex:
        langs = languages(kg, chunks)
        texts = [kg.get(c)["text"] for c in chunks]
        sections = [kg.get(c).get("section") or "" for c in chunks]
        # Both passes read every chunk's passages. When the corpus outgrows the memo the second pass finds
        # none of the first's (each was pushed out by later chunks), and the memos only hold a few hundred
        # megabytes at a large test set's peak: there each chunk's readings are forgotten after it.
        each = read_once if sum(map(len, texts)) > PASSAGES_MEMO_CHARS else nullcontext
        vocabulary = prose_vocabulary(texts, sections, each=each)
        facts: dict[str, list[Fact]] = {}
        before = _previous_chunks(kg, chunks)
        for chunk, text, section, lang in zip(chunks, texts, sections, langs, strict=True):
            data = kg.get(chunk)
            if chunk in before:
                text = continued_list(kg.get(before[chunk])["text"], text)
            phrases = [p for p in data.get("keyphrases") or [] if " " in p.strip()]
            topics = frozenset(t.casefold() for t in [*(data.get("entities") or []), *phrases] if t)
            with each():
                found = facts_of(text, section, lang or "en", vocabulary, topics)
            if found:
                facts[chunk] = found
        scope = corpus_scope(kg)
        staff = staff_read(audience_of(texts))
        return cls(_without_stray_purposes(kg, facts, scope), scope=scope, staff=staff, lowercase=vocabulary)

    def vectors(self, sentences: list[str]) -> np.ndarray:
        """Unit vectors of ``sentences`` (WordLlama, cached per sentence)."""
        missing = [s for s in dict.fromkeys(sentences) if s not in self._vectors]
        if missing:
            matrix = np.asarray(shared_model().embed(missing), dtype=np.float32)
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            for sentence, row in zip(missing, matrix / np.where(norms == 0, 1, norms), strict=True):
                self._vectors[sentence] = row
        return np.vstack([self._vectors[s] for s in sentences]) if sentences else np.zeros((0, 1))

    def similarity(self, a: str, b: str) -> float:
        va, vb = self.vectors([a, b])
        return float(va @ vb)


def _previous_chunks(kg: KnowledgeGraph, chunks: list[str]) -> dict[str, str]:
    """The chunk before each of ``chunks`` in its document's section, where there is one."""
    before: dict[str, str] = {}
    for document in dict.fromkeys(kg.get(c).get("document") for c in chunks):
        if not document:
            continue
        ordered = kg.chunks_of(document)
        for first, second in zip(ordered, ordered[1:], strict=False):
            if kg.get(first).get("section") == kg.get(second).get("section"):
                before[second] = first
    return before


def _without_stray_purposes(
    kg: KnowledgeGraph, facts: dict[str, list[Fact]], scope: str
) -> dict[str, list[Fact]]:
    """``facts`` without what the product is for, said outside the pages that define it: "Requests enables
    users to create Transport Adapters" on the adapters page is one feature, but asked "What does Requests
    enable users to do?" it claims to be the answer to a question a whole manual answers."""
    if not scope:
        return facts
    key = subject_key(scope)
    home = {kg.get(c)["document"] for c, found in facts.items() for f in found
            if f.pattern == "definition" and f.key() == key}  # fmt: skip
    kept = {
        chunk: [
            f
            for f in found
            if not (f.pattern == "purpose" and f.key() == key) or kg.get(chunk)["document"] in home
        ]  # fmt: skip
        for chunk, found in facts.items()
    }
    return {chunk: found for chunk, found in kept.items() if found}


_cache: GraphCache[FactIndex] = GraphCache(_CACHE_SIZE)
