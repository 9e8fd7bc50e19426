"""ID-based retrieval metrics: retrieved_context_ids vs reference_context_ids. Exact, no model.

With no reference ids there is nothing to judge retrieval against: NaN, with why (an out-of-scope
question has none by nature: the documents do not answer it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...samples.evaluation import SingleTurnSample
from .. import retrieval as ids
from ..metric import Metric, MetricResult, OutputType, ScoringContext
from .refusal import nothing_to_retrieve

COLUMNS = ("retrieved_context_ids", "reference_context_ids")


def no_reference_ids(sample: SingleTurnSample) -> MetricResult | None:
    """NaN with the reason when the sample has no reference id, else None."""
    if sample.reference_context_ids:
        return None
    return nothing_to_retrieve(sample, "it has no reference context ids") or MetricResult.nan(
        "no reference context ids: nothing to judge the retrieved ids against"
    )


class _IdMetric(Metric):
    columns = COLUMNS
    formula: Callable[[Sequence[str], Sequence[str]], float]

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        unjudged = no_reference_ids(sample)
        if unjudged is not None:
            return unjudged
        retrieved, relevant = sample.retrieved_context_ids or [], sample.reference_context_ids or []
        score = type(self).formula(retrieved, relevant)
        found = len(set(retrieved) & set(relevant))
        return MetricResult(
            score, f"{found} of {len(set(relevant))} reference ids among {len(retrieved)} retrieved"
        )


class IDBasedContextPrecision(_IdMetric):
    name = "id_context_precision"
    formula = staticmethod(ids.id_precision)


class IDBasedContextRecall(_IdMetric):
    name = "id_context_recall"
    formula = staticmethod(ids.id_recall)


class MRR(_IdMetric):
    name = "mrr"
    output_type = OutputType.RANKING
    formula = staticmethod(ids.reciprocal_rank)


class _AtK(_IdMetric):
    output_type = OutputType.RANKING
    at_k: Callable[..., float]

    def __init__(self, *, k: int | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.k = k

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        unjudged = no_reference_ids(sample)
        if unjudged is not None:
            return unjudged
        retrieved, relevant = sample.retrieved_context_ids or [], sample.reference_context_ids or []
        return MetricResult(type(self).at_k(retrieved, relevant, k=self.k), f"k={self.k or len(retrieved)}")


class HitRate(_AtK):
    name = "hit_rate"
    output_type = OutputType.BINARY
    at_k = staticmethod(ids.hit_rate)


class NDCG(_AtK):
    name = "ndcg"
    at_k = staticmethod(ids.ndcg_at_k)
