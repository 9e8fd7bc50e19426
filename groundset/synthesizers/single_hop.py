"""Single-hop specific questions: one chunk, one fact it states (or, without facts, one of its terms)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..kg.graph import KnowledgeGraph, NodeKind
from .base import Grounding, Synthesizer
from .fact_index import FactIndex
from .facts import Fact

# How much each answer pattern is preferred when a chunk states several facts: specs are full of
# MUST rules, but a test set wants definitions, purposes, defaults and procedures too.
PATTERN_WEIGHTS = {"definition": 3.0, "purpose": 3.0, "default": 4.0, "value": 3.0, "procedure": 3.0,
                   "comparison": 3.0, "cause": 1.5, "constraint": 1.0}  # fmt: skip


class SingleHopSpecificQuerySynthesizer(Synthesizer):
    name = "single_hop_specific"

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        index = FactIndex.of(kg)
        chunks = sorted(index.facts)
        rng.shuffle(chunks)
        left = {c: [f for f in index.facts[c] if index.unambiguous(f)] for c in chunks}
        while any(left.values()):  # a round takes one fact per chunk: every chunk first, then seconds
            for chunk in chunks:
                if left[chunk]:
                    fact = pick_fact(left[chunk], rng)
                    left[chunk].remove(fact)
                    yield [chunk], [fact.focus], [fact]
        if not index.facts or self.writes_with_model:
            # A model can write a good question from any chunk; offline templates need a fact.
            yield from (g for g in _term_groundings(kg, rng) if g[0][0] not in index.facts)


def pick_fact(facts: list[Fact], rng: random.Random) -> Fact:
    """One of a chunk's facts, drawn by ``PATTERN_WEIGHTS``."""
    weights = [PATTERN_WEIGHTS.get(f.pattern, 1.0) for f in facts]
    return rng.choices(facts, weights=weights, k=1)[0]


def _term_groundings(kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
    """Languages without fact rules: a chunk and one of its entities or key phrases."""
    chunks = [c for c in kg.nodes(NodeKind.CHUNK) if kg.get(c).get("entities") or kg.get(c).get("keyphrases")]
    rng.shuffle(chunks)
    for chunk in chunks:
        data = kg.get(chunk)
        text = data["text"].casefold()
        for term in _ranked_terms(data, rng):
            if term.casefold() in text:
                yield [chunk], [term], []
                break


def _ranked_terms(data: dict, rng: random.Random) -> list[str]:
    """Entities, then multi-word keyphrases, then single words: specific terms make specific questions."""
    entities = [t for t in data.get("entities", [])[:6] if len(t) >= 3]
    phrases = [t for t in data.get("keyphrases", [])[:6] if len(t) >= 3]
    tiers = [entities, [p for p in phrases if " " in p], [p for p in phrases if " " not in p]]
    ranked: list[str] = []
    for tier in tiers:
        tier = [t for t in tier if t not in ranked]
        rng.shuffle(tier)
        ranked += tier
    return ranked
