"""Samples and datasets, metrics, evaluate(), results and reports."""

from ..samples.dataset import EvaluationDataset
from ..samples.evaluation import MultiTurnSample, SingleTurnSample
from .evaluate import aevaluate, evaluate
from .metric import Metric, MetricResult, OutputType, ScoringContext
from .metrics import (
    METRICS,
    MRR,
    NDCG,
    AnswerAccuracy,
    AnswerCorrectness,
    AnswerRelevancy,
    ContextEntityRecall,
    ContextPrecision,
    ContextRecall,
    ContextRelevance,
    ContextUtilization,
    FactualCorrectness,
    Faithfulness,
    HitRate,
    IDBasedContextPrecision,
    IDBasedContextRecall,
    NoiseSensitivity,
    ResponseGroundedness,
    SemanticSimilarity,
    default_metrics,
)
from .result import Cell, EvaluationResult

__all__ = [
    "METRICS",
    "MRR",
    "NDCG",
    "NoiseSensitivity",
    "AnswerAccuracy",
    "AnswerCorrectness",
    "AnswerRelevancy",
    "FactualCorrectness",
    "Cell",
    "ContextEntityRecall",
    "ContextPrecision",
    "ContextRecall",
    "ContextRelevance",
    "ContextUtilization",
    "EvaluationDataset",
    "EvaluationResult",
    "Faithfulness",
    "HitRate",
    "IDBasedContextPrecision",
    "IDBasedContextRecall",
    "Metric",
    "MetricResult",
    "MultiTurnSample",
    "OutputType",
    "ResponseGroundedness",
    "ScoringContext",
    "SemanticSimilarity",
    "SingleTurnSample",
    "aevaluate",
    "default_metrics",
    "evaluate",
]
