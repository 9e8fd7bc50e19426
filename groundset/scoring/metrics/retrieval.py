"""ID-based retrieval metrics: retrieved_context_ids vs reference_context_ids. Exact, no model."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...samples.evaluation import SingleTurnSample
from .. import retrieval as ids
from ..metric import Metric, MetricResult, OutputType, ScoringContext

COLUMNS = ("retrieved_context_ids", "reference_context_ids")


class _IdMetric(Metric):
    columns = COLUMNS
    formula: Callable[[Sequence[str], Sequence[str]], float]

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
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
        retrieved, relevant = sample.retrieved_context_ids or [], sample.reference_context_ids or []
        return MetricResult(type(self).at_k(retrieved, relevant, k=self.k), f"k={self.k or len(retrieved)}")


class HitRate(_AtK):
    name = "hit_rate"
    output_type = OutputType.BINARY
    at_k = staticmethod(ids.hit_rate)


class NDCG(_AtK):
    name = "ndcg"
    at_k = staticmethod(ids.ndcg_at_k)
