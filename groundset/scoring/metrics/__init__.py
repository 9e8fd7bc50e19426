"""The metrics, by name. ``default_metrics()`` is what ``evaluate()`` runs when given none."""

from __future__ import annotations

from ..metric import Metric
from .agents import AgentGoalAccuracyWithoutReference, AgentGoalAccuracyWithReference
from .contexts import ContextPrecision, ContextUtilization
from .correctness import AnswerCorrectness, FactualCorrectness
from .critics import AspectCritic, Coherence, Conciseness, Correctness, Harmfulness, Maliciousness
from .multimodal import MultiModalFaithfulness, MultiModalRelevance
from .noise import ContextEntityRecall, NoiseSensitivity
from .nonllm_contexts import NonLLMContextPrecisionWithReference, NonLLMContextRecall
from .overlap import BleuScore, ChrfScore, RougeScore
from .ratings import AnswerAccuracy, ContextRelevance, ResponseGroundedness
from .refusal import RefusalCorrectness
from .retrieval import MRR, NDCG, HitRate, IDBasedContextPrecision, IDBasedContextRecall
from .rubrics import InstanceRubrics, RubricsScore, SimpleCriteriaScore
from .similarity import AnswerRelevancy, SemanticSimilarity
from .spans import QuotedSpansAlignment
from .sql import LLMSQLEquivalence
from .statements import ContextRecall, Faithfulness
from .summarization import SummarizationScore
from .tables import DataCompyScore
from .text import ExactMatch, NonLLMStringSimilarity, StringPresence
from .tools import ToolCallAccuracy, ToolCallF1
from .topics import TopicAdherenceScore

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
        # out-of-scope questions: declined, and the others answered (no ragas equivalent, so no alias)
        RefusalCorrectness,
        # model-free text metrics
        ExactMatch,
        StringPresence,
        NonLLMStringSimilarity,
        BleuScore,
        ChrfScore,
        RougeScore,
        NonLLMContextPrecisionWithReference,
        NonLLMContextRecall,
        DataCompyScore,
        QuotedSpansAlignment,
        # critics and rubrics
        AspectCritic,
        Harmfulness,
        Maliciousness,
        Coherence,
        Correctness,
        Conciseness,
        SimpleCriteriaScore,
        RubricsScore,
        InstanceRubrics,
        # summaries, SQL, images
        SummarizationScore,
        LLMSQLEquivalence,
        MultiModalFaithfulness,
        MultiModalRelevance,
        # agents and tools (multi-turn)
        ToolCallAccuracy,
        ToolCallF1,
        AgentGoalAccuracyWithReference,
        AgentGoalAccuracyWithoutReference,
        TopicAdherenceScore,
    )
}


# The names ragas users know, for the same measures here: `--metrics` and `metric_class` accept them.
ALIASES: dict[str, str] = {
    "llm_context_precision_with_reference": "context_precision",
    "llm_context_precision_without_reference": "context_utilization",
    "llm_context_recall": "context_recall",
    "response_relevancy": "answer_relevancy",
    "id_based_context_precision": "id_context_precision",
    "id_based_context_recall": "id_context_recall",
}
# The same, as class names for `from groundset.scoring.metrics import LLMContextRecall`.
LLMContextPrecisionWithReference = ContextPrecision
LLMContextPrecisionWithoutReference = ContextUtilization
LLMContextRecall = ContextRecall
ResponseRelevancy = AnswerRelevancy


def metric_class(name: str) -> type[Metric]:
    """The metric class for a name or a ragas alias; an unknown name lists the known ones."""
    found = METRICS.get(ALIASES.get(name, name))
    if found is None:
        known = f"{', '.join(METRICS)} (aliases: {', '.join(ALIASES)})"
        raise KeyError(f"unknown metric {name!r}; known: {known}")
    return found


def default_metrics() -> list[Metric]:
    return [Faithfulness(), AnswerRelevancy(), ContextPrecision(), ContextRecall()]


__all__ = [
    "ALIASES",
    "METRICS",
    "LLMContextPrecisionWithReference",
    "LLMContextPrecisionWithoutReference",
    "LLMContextRecall",
    "ResponseRelevancy",
    "metric_class",
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
    "RefusalCorrectness",
    "ExactMatch",
    "StringPresence",
    "NonLLMStringSimilarity",
    "BleuScore",
    "ChrfScore",
    "RougeScore",
    "NonLLMContextPrecisionWithReference",
    "NonLLMContextRecall",
    "DataCompyScore",
    "QuotedSpansAlignment",
    "AspectCritic",
    "Harmfulness",
    "Maliciousness",
    "Coherence",
    "Correctness",
    "Conciseness",
    "SimpleCriteriaScore",
    "RubricsScore",
    "InstanceRubrics",
    "SummarizationScore",
    "LLMSQLEquivalence",
    "MultiModalFaithfulness",
    "MultiModalRelevance",
    "ToolCallAccuracy",
    "ToolCallF1",
    "AgentGoalAccuracyWithReference",
    "AgentGoalAccuracyWithoutReference",
    "TopicAdherenceScore",
    "default_metrics",
]
