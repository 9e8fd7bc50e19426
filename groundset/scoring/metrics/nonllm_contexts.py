"""Context precision and recall with no model: retrieved contexts matched to the reference contexts by
string similarity (the same code as ``NonLLMStringSimilarity``) and a threshold.

For the case where the reference contexts are known as text but not by id; with ids, the ID-based
metrics in ``retrieval.py`` are exact. Whitespace-only reference contexts are left out: there is nothing
in them to find.
"""

from __future__ import annotations

import numpy as np

from ...samples.evaluation import SingleTurnSample
from ..formulas import average_precision
from ..metric import Metric, MetricResult, ScoringContext
from .refusal import nothing_to_retrieve
from .text import DistanceMeasure, parse_measure, similarity_matrix

__all__ = ["NonLLMContextPrecisionWithReference", "NonLLMContextRecall"]


class _ContextMatch(Metric):
    columns = ("retrieved_contexts", "reference_contexts")

    def __init__(
        self,
        *,
        distance_measure: str | DistanceMeasure = DistanceMeasure.LEVENSHTEIN,
        threshold: float = 0.5,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.distance_measure = parse_measure(distance_measure, self.name)
        if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0 <= threshold <= 1:
            raise ValueError(f"{self.name}: threshold must be a number in [0, 1], got {threshold!r}")
        self.threshold = float(threshold)

    def similarities(self, sample: SingleTurnSample) -> tuple[list[str], list[str], np.ndarray]:
        """Retrieved contexts, non-blank reference contexts, their (retrieved x reference) similarities."""
        retrieved = list(sample.retrieved_contexts or [])
        references = [text for text in sample.reference_contexts or [] if text.strip()]
        return retrieved, references, similarity_matrix(retrieved, references, self.distance_measure)

    def __repr__(self) -> str:
        measure = self.distance_measure.value
        return f"{type(self).__name__}(distance_measure={measure!r}, threshold={self.threshold})"


class NonLLMContextPrecisionWithReference(_ContextMatch):
    """Rank-weighted precision of the retrieved contexts; one is relevant when its best similarity to a
    reference context reaches ``threshold``. NaN with no retrieved or no reference context."""

    name = "non_llm_context_precision_with_reference"

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        retrieved, references, matrix = self.similarities(sample)
        if not retrieved:
            return MetricResult.nan("no retrieved context to judge")
        if not references:
            return nothing_to_retrieve(sample, "it has no reference contexts") or MetricResult.nan(
                "no reference context to judge the retrieved ones against"
            )
        best = matrix.max(axis=1)
        verdicts = [int(value >= self.threshold) for value in best]
        trace = {"best_similarity": [round(float(v), 4) for v in best], "verdicts": verdicts}
        score = average_precision(verdicts)
        reason = (
            f"{sum(verdicts)} of {len(retrieved)} retrieved contexts match a reference context "
            f"({self.distance_measure.value} >= {self.threshold})"
        )
        return MetricResult(score, reason, trace)


class NonLLMContextRecall(_ContextMatch):
    """Share of the reference contexts that some retrieved context matches with similarity >= ``threshold``.
    NaN with no reference context; 0 when references exist and nothing was retrieved."""

    name = "non_llm_context_recall"

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        retrieved, references, matrix = self.similarities(sample)
        if not references:
            return nothing_to_retrieve(sample, "it has no reference contexts") or MetricResult.nan(
                "no reference context to recall"
            )
        if not retrieved:
            return MetricResult(0.0, f"nothing retrieved: 0 of {len(references)} reference contexts found")
        best = matrix.max(axis=0)
        found = [bool(value >= self.threshold) for value in best]
        trace = {"best_similarity": [round(float(v), 4) for v in best], "found": found}
        reason = (
            f"{sum(found)} of {len(references)} reference contexts found "
            f"({self.distance_measure.value} >= {self.threshold})"
        )
        return MetricResult(sum(found) / len(references), reason, trace)
