"""Scenarios: everything one question needs, fixed before any call is made.

A scenario names its chunks, its persona, the term(s) or theme it is about, the query's style and
length, and the language to write in. Personas are matched to content by embedding similarity (no model call).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import BaseModel

from ...personas import Persona
from ...personas.language import language_label
from ..questions.styles import LENGTHS, STYLES
from .facts import Fact

DEFAULT_STYLE_MIX: dict[str, float] = {
    "perfect_grammar": 0.4,
    "poor_grammar": 0.2,
    "web_search": 0.25,
    "misspelled": 0.15,
}
DEFAULT_LENGTH_MIX: dict[str, float] = {"short": 0.3, "medium": 0.5, "long": 0.2}


class Scenario(BaseModel):
    """One question to write: about ``terms``, grounded in the ``nodes`` (chunk ids), for ``persona``."""

    synthesizer: str
    nodes: list[str]
    contexts: list[str]
    labels: list[str]
    source_documents: list[str]
    terms: list[str]
    facts: list[Fact] = []  # answer-first: what the question asks (see ``facts``)
    scope: str = ""  # what the corpus is about ("Prometheus"), for "... in Prometheus?"
    anchor: str = ""  # offline: the API or command a one-sentence question must name ("npm run-script")
    language: str = "en"  # ISO 639-1: the majority language of the chunks, or the one the caller forced
    written: str | None = None  # the majority language of the chunks, as the graph records it
    persona: Persona
    style: str
    length: str
    seed: int


def prompt_fields(scenario: Scenario) -> dict[str, Any]:
    """What every question-writing prompt takes from a scenario (its kind adds the task and its own)."""
    return {
        "persona": f"{scenario.persona.name}: {scenario.persona.role_description}",
        "terms": scenario.terms,
        "contexts": scenario.contexts,
        "labels": scenario.labels,
        "style": scenario.style,
        "length": scenario.length,
        "seed": scenario.seed,
        "facts": scenario.facts,
        "scope": scenario.scope,
        "anchor": scenario.anchor,
        "language": language_label(scenario.language),
    }


@dataclass
class PersonaPool:
    """Personas with their embeddings; picks the persona closest to a piece of content."""

    personas: list[Persona]
    vectors: np.ndarray  # (len(personas), dim), same model as the chunk embeddings
    _unit: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.personas:
            raise ValueError("PersonaPool needs at least one persona")
        norms = np.linalg.norm(self.vectors, axis=1, keepdims=True)
        self._unit = self.vectors / np.where(norms == 0, 1, norms)

    def match(self, content: np.ndarray | None, rng: random.Random) -> Persona:
        """The most similar persona; ties and missing vectors are broken by ``rng``."""
        if content is None or len(self.personas) == 1:
            return rng.choice(self.personas)
        vector = np.asarray(content, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        if norm == 0 or vector.shape[0] != self._unit.shape[1]:
            return rng.choice(self.personas)
        scores = self._unit @ (vector / norm)
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return self.personas[int(best[rng.randrange(len(best))])]


@dataclass(frozen=True)
class QueryMix:
    """How query styles and lengths are sampled (weights need not sum to 1)."""

    styles: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_STYLE_MIX))
    lengths: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_LENGTH_MIX))

    def __post_init__(self) -> None:
        for name, mix, valid in (("style", self.styles, STYLES), ("length", self.lengths, LENGTHS)):
            unknown = set(mix) - set(valid)
            if unknown:
                raise ValueError(f"unknown query {name}(s) {sorted(unknown)}; valid: {', '.join(valid)}")
            if not mix or any(w < 0 for w in mix.values()) or sum(mix.values()) <= 0:
                raise ValueError(f"query {name} weights must be >= 0 and not all 0, got {dict(mix)}")

    def sample(self, rng: random.Random) -> tuple[str, str]:
        style = rng.choices(list(self.styles), weights=list(self.styles.values()))[0]
        length = rng.choices(list(self.lengths), weights=list(self.lengths.values()))[0]
        return style, length


def largest_remainder(weights: Sequence[float], total: int) -> list[int]:
    """Split ``total`` into integer counts proportional to ``weights`` (Hamilton's method)."""
    if total < 0 or not weights or any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError(f"need total >= 0 and non-negative weights with a positive sum, got {weights}")
    quotas = [w / sum(weights) * total for w in weights]
    counts = [int(q) for q in quotas]
    order = sorted(range(len(weights)), key=lambda i: (-(quotas[i] - counts[i]), i))
    for i in order[: total - sum(counts)]:
        counts[i] += 1
    return counts
