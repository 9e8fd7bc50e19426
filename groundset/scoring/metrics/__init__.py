"""The metrics, by name. ``default_metrics()`` is what ``evaluate()`` runs when given none."""

from __future__ import annotations

from ..metric import Metric
from .contexts import ContextPrecision, ContextUtilization
from .correctness import AnswerCorrectness, FactualCorrectness
from .noise import ContextEntityRecall, NoiseSensitivity
from .ratings import AnswerAccuracy, ContextRelevance, ResponseGroundedness
from .retrieval import MRR, NDCG, HitRate, IDBasedContextPrecision, IDBasedContextRecall
from .similarity import AnswerRelevancy, SemanticSimilarity
from .statements import ContextRecall, Faithfulness

METRICS: dict[str, type[Metric]] = {
    cls.name: cls
    for cls in (
        Faithfulness,
        AnswerRelevancy,
        ContextPrecision,
        ContextUtilization,
        ContextRecall,
        SemanticSimilarity,
        AnswerCorrectness,
        FactualCorrectness,
        ContextEntityRecall,
        NoiseSensitivity,
        IDBasedContextPrecision,
        IDBasedContextRecall,
        HitRate,
        MRR,
        NDCG,
        ContextRelevance,
        ResponseGroundedness,
        AnswerAccuracy,
    )
}


def default_metrics() -> list[Metric]:
    return [Faithfulness(), AnswerRelevancy(), ContextPrecision(), ContextRecall()]


__all__ = [
    "METRICS",
    "MRR",
    "NDCG",
    "NoiseSensitivity",
    "AnswerCorrectness",
    "AnswerRelevancy",
    "FactualCorrectness",
    "ContextEntityRecall",
    "ContextPrecision",
    "ContextRecall",
    "ContextUtilization",
    "Faithfulness",
    "HitRate",
    "IDBasedContextPrecision",
    "IDBasedContextRecall",
    "SemanticSimilarity",
    "ContextRelevance",
    "ResponseGroundedness",
    "AnswerAccuracy",
    "default_metrics",
]
