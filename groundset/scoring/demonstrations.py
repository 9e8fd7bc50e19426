"""People's judgements as few-shot guidance: a metric can carry the user's labelled samples, and its LLM
judges see the k most similar ones (by embedding) with the score a person gave them.

This is how a judge is tuned to a team's standard without training anything: the guidance is part of
the judge's instruction, so it is part of the cache key too (a judge with other demonstrations never
reuses an answer given without them). Offline judges are rule based and ignore it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.engine import CallEngine
from ..samples.evaluation import SingleTurnSample

MAX_FIELD_CHARS = 400
GUIDANCE_HEADER = (
    "The people who will read your verdicts scored similar samples as shown below (1 = fully meets the "
    "standard, 0 = does not). Judge by the same standard."
)


@dataclass(frozen=True)
class Demonstration:
    """A labelled sample: the score (0..1) a person gave it for the metric being tuned."""

    sample: SingleTurnSample
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a demonstration's score must be in 0..1, got {self.score!r}")

    def text(self) -> str:
        """The sample as the judge reads it (long fields cut), also what is embedded to find neighbours."""
        parts = [
            f"{name}: {_cut(value)}"
            for name, value in (
                ("question", self.sample.asked()),
                ("response", self.sample.response),
                ("reference", self.sample.reference),
                ("contexts", " | ".join(self.sample.retrieved_contexts or []) or None),
            )
            if isinstance(value, str) and value.strip()
        ]
        return "\n".join(parts)


def sample_text(sample: SingleTurnSample) -> str:
    return Demonstration(sample, 0.0).text()


async def nearest(
    sample: SingleTurnSample,
    demonstrations: Sequence[Demonstration],
    k: int,
    *,
    embeddings: object,
    engine: CallEngine,
    stage: str,
) -> list[Demonstration]:
    """The ``k`` demonstrations closest to ``sample`` (cosine of their embedded texts), closest first."""
    if k < 1 or not demonstrations:
        return []
    texts = [sample_text(sample), *(d.text() for d in demonstrations)]
    vectors = await engine.embed(embeddings, texts, stage=stage)
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    unit = vectors / norms[:, None]
    similarity = unit[1:] @ unit[0]
    order = np.argsort(-similarity, kind="stable")[:k]
    return [demonstrations[i] for i in order]


def guidance(demonstrations: Sequence[Demonstration]) -> str:
    """The instruction block for these demonstrations ("" for none)."""
    if not demonstrations:
        return ""
    shown = [f"Sample {i}:\n{d.text()}\nscore: {d.score:g}" for i, d in enumerate(demonstrations, start=1)]
    return "\n\n".join([GUIDANCE_HEADER, *shown])


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_FIELD_CHARS else text[: MAX_FIELD_CHARS - 1] + "…"
