"""Samples, datasets, metrics, evaluate(), score_rag() and its targets, results, reports, compare_runs()."""

from ..samples.dataset import EvaluationDataset
from ..samples.evaluation import MultiTurnSample, SingleTurnSample
from .baseline import BaselineRAG
from .compare import RunComparison, compare_runs
from .custom import DiscreteMetric, NumericMetric, RankingMetric, load_metric
from .decorators import discrete_metric, numeric_metric
from .evaluate import aevaluate, evaluate
from .http_target import HttpTarget
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
    RefusalCorrectness,
    ResponseGroundedness,
    SemanticSimilarity,
    default_metrics,
)
from .result import Cell, EvaluationResult, TargetCall
from .score_rag import ascore_rag, score_rag
from .targets import RagAnswer

__all__ = [
    "METRICS",
    "MRR",
    "NDCG",
    "NoiseSensitivity",
    "RefusalCorrectness",
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
    "BaselineRAG",
    "RunComparison",
    "HttpTarget",
    "RagAnswer",
    "TargetCall",
    "ascore_rag",
    "compare_runs",
    "score_rag",
    "DiscreteMetric",
    "NumericMetric",
    "RankingMetric",
    "discrete_metric",
    "load_metric",
    "numeric_metric",
]
