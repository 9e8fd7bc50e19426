"""Topic adherence: does the assistant answer what lies within its topics, and only that?

One judge lists the user's requests in the conversation; a second gives two keyed verdicts per request:
within the sample's ``reference_topics`` or not, answered or refused (see ``topics_prompts``). Counting
requests as TP (answered, in topic), FP (answered, off topic), FN (refused, in topic) and TN (refused, off
topic)::

    precision = TP / (TP + FP)    recall = TP / (TP + FN)    f1 = 2 TP / (2 TP + FP + FN)

Precision is NaN when nothing was answered, recall when no request was in topic; f1 is 1.0 when every
request was off topic and refused (no mistake of either kind). Offline: NaN with the reason, as
``topics_prompts`` explains.
"""

from __future__ import annotations

from typing import Any, Literal

from ...core.models import is_offline
from ...judges.aligned import judge, numbered
from ...samples.evaluation import MultiTurnSample
from ...samples.messages import transcript
from ..metric import MetricResult, ScoringContext
from .agents import TOOL_RESULT_LIMIT, ConversationMetric, user_spoke
from .topics_prompts import (
    ConversationText,
    RequestsPrompt,
    RequestsToJudge,
    TopicVerdictsPrompt,
    answer_key,
    topic_key,
)

Mode = Literal["precision", "recall", "f1"]
MODES: tuple[str, ...] = ("precision", "recall", "f1")
OFFLINE_REASON = (
    "offline: no score; deciding which requests fall within the reference topics and whether the "
    "assistant answered them needs an LLM; configure one with --llm or GROUNDSET_LLM"
)


def adherence(in_topic: list[bool], answered: list[bool]) -> dict[str, float | None]:
    """Precision, recall and f1 of answering in-topic requests (None where undefined; see the module)."""
    tp = sum(t and a for t, a in zip(in_topic, answered, strict=True))
    fp = sum(a and not t for t, a in zip(in_topic, answered, strict=True))
    fn = sum(t and not a for t, a in zip(in_topic, answered, strict=True))
    return {
        "precision": tp / (tp + fp) if tp + fp else None,
        "recall": tp / (tp + fn) if tp + fn else None,
        "f1": 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0,
    }


_UNDEFINED = {
    "precision": "the assistant answered none of the {n} requests: no answer to check for its topic",
    "recall": "none of the {n} requests is within the reference topics: no in-topic request to answer",
}


class TopicAdherenceScore(ConversationMetric):
    """How well the assistant keeps to ``reference_topics``: answering in-topic requests (recall), not
    answering off-topic ones (precision), or both (f1, the default); see the module for the formulas."""

    name = "topic_adherence"
    columns = ("user_input", "reference_topics")
    needs_llm = True
    runs_offline = False

    def __init__(self, *, mode: Mode = "f1", **options: Any) -> None:
        super().__init__(**options)
        if mode not in MODES:
            raise ValueError(f"topic_adherence: mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.mode = mode

    async def _ascore(self, sample: MultiTurnSample, ctx: ScoringContext) -> MetricResult:
        topics = [topic.strip() for topic in sample.reference_topics or [] if topic.strip()]
        if not topics:
            return MetricResult.nan("reference_topics is empty: there is no topic to adhere to")
        if not user_spoke(sample.user_input):
            return MetricResult.nan("the conversation has no user message: there is no request to judge")
        if is_offline(ctx.llm):
            return MetricResult.nan(OFFLINE_REASON)
        conversation = transcript(sample.user_input, TOOL_RESULT_LIMIT)
        found = await RequestsPrompt().run(
            ctx.llm, ConversationText(conversation=conversation), engine=ctx.engine, stage=self.stage
        )
        requests = [r for r in found.requests if r.question.strip()]
        if not requests:
            return MetricResult.nan("the user makes no request in the conversation: nothing to adhere to")
        data = RequestsToJudge(
            conversation=conversation,
            allowed_topics=topics,
            requests=numbered([r.question.strip() for r in requests]),
        )
        judged = await judge(
            TopicVerdictsPrompt(),
            ctx.llm,
            data,
            engine=ctx.engine,
            stage=self.stage,
            strictness=self.strictness,
            guidance=ctx.guidance,
        )
        items = list(data.requests)
        in_topic = judged.flags([topic_key(item) for item in items])
        answered = judged.flags([answer_key(item) for item in items])
        scores = adherence(in_topic, answered)
        trace: dict[str, Any] = {
            "requests": [r.question for r in requests],
            "topics": [r.topic for r in requests],
            "in_topic": in_topic,
            "answered": answered,
            "reasons": {key: verdict.reason for key, verdict in judged.verdicts.items()},
            **scores,
        }
        if self.strictness > 1:
            trace["agreement"] = judged.agreement
        counts = (
            f"{sum(in_topic)} of {len(items)} requests in topic; answered {sum(answered)}, "
            f"{sum(t and a for t, a in zip(in_topic, answered, strict=True))} of them in topic"
        )
        value = scores[self.mode]
        if value is None:
            return MetricResult.nan(f"{_UNDEFINED[self.mode].format(n=len(items))} ({counts})", **trace)
        return MetricResult(value, f"{self.mode} {value:.2f}: {counts}", trace)

    def __repr__(self) -> str:
        return f"TopicAdherenceScore(mode={self.mode!r})"
