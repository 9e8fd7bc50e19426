"""Single-hop specific questions: one chunk, one of its entities or keyphrases."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..kg.graph import KnowledgeGraph, NodeKind
from .base import Grounding, Synthesizer


class SingleHopSpecificQuerySynthesizer(Synthesizer):
    name = "single_hop_specific"

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        chunks = [
            c for c in kg.nodes(NodeKind.CHUNK) if kg.get(c).get("entities") or kg.get(c).get("keyphrases")
        ]
        rng.shuffle(chunks)
        for chunk in chunks:
            data = kg.get(chunk)
            text = data["text"].casefold()
            for term in _ranked_terms(data, rng):
                if term.casefold() in text:
                    yield [chunk], [term]
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
