"""Agent goal accuracy: did the conversation get the user what they wanted (1) or not (0)?

An LLM judge infers the user's goal and the end state the conversation reached (see
``agents_prompts``), then either compares the end state with the sample's reference outcome or checks it
against the inferred goal. With ``strictness=k`` the judge votes k times in one request and the
majority wins. Offline the score is NaN with the reason: there is no honest classical form of reading
what a person wanted and whether it was done.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel

from ...core.models import is_offline
from ...core.prompts import Prompt
from ...samples.dataset import EvaluationDataset
from ...samples.evaluation import MultiTurnSample, SingleTurnSample
from ...samples.messages import text_of, transcript
from ..metric import Metric, MetricResult, OutputType, ScoringContext
from .agents_prompts import (
    Conversation,
    ConversationAndOutcome,
    GoalJudgement,
    GoalWithoutReference,
    GoalWithReference,
)

# A tool can return megabytes; this much of each result is enough to tell what it did.
TOOL_RESULT_LIMIT = 4000
OFFLINE_REASON = (
    "offline: no score; inferring the user's goal and whether the conversation reached it needs an LLM "
    "(there is no classical form of this judgement); configure one with --llm or GROUNDSET_LLM"
)


def user_spoke(messages: Sequence[BaseMessage]) -> bool:
    """Whether some user message has text: without one there is no goal or request to judge."""
    return any(isinstance(m, HumanMessage) and text_of(m).strip() for m in messages)


def without_judge(sample: MultiTurnSample) -> MetricResult | None:
    """The result when the conversation settles it: NaN without a user request, 0 without any reply."""
    messages = sample.user_input
    if not user_spoke(messages):
        return MetricResult.nan("the conversation has no user message: there is no goal to infer")
    if not any(isinstance(m, AIMessage) and (text_of(m).strip() or m.tool_calls) for m in messages):
        return MetricResult(0.0, "the assistant never replied or acted: nothing was achieved")
    return None


class ConversationMetric(Metric):
    """A metric of multi-turn samples: given single-turn ones it says so, instead of naming a column."""

    def check(self, dataset: EvaluationDataset) -> list[str]:
        if dataset.sample_type is SingleTurnSample:
            return [
                f"metric {self.name} scores conversations (multi-turn samples, whose user_input is a list "
                "of messages), but this dataset is single-turn"
            ]
        return super().check(dataset)

    async def ascore(self, sample: Any, ctx: ScoringContext | None = None) -> MetricResult:
        if not isinstance(sample, MultiTurnSample):
            raise ValueError(f"metric {self.name} scores a MultiTurnSample, got {type(sample).__name__}")
        return await super().ascore(sample, ctx)


class _GoalAccuracy(ConversationMetric):
    needs_llm = True
    runs_offline = False
    output_type = OutputType.BINARY

    @abstractmethod
    def judge(self) -> Prompt[Any, GoalJudgement]:
        """The prompt that infers goal and end state and gives the verdict."""

    @abstractmethod
    def judge_input(self, sample: MultiTurnSample, conversation: str) -> BaseModel:
        """What the judge reads: the conversation as text, and the reference where there is one."""

    async def _ascore(self, sample: MultiTurnSample, ctx: ScoringContext) -> MetricResult:
        settled = self.settled(sample)
        if settled is not None:
            return settled
        if is_offline(ctx.llm):
            return MetricResult.nan(OFFLINE_REASON)
        data = self.judge_input(sample, transcript(sample.user_input, TOOL_RESULT_LIMIT))
        answer = (
            await self.judge()
            .with_guidance(ctx.guidance)
            .run(ctx.llm, data, n=self.strictness, engine=ctx.engine, stage=self.stage)
        )
        votes = answer if isinstance(answer, list) else [answer]
        (verdict, count), *_ = Counter(v.achieved for v in votes).most_common(1)
        chosen = next(v for v in votes if v.achieved == verdict)
        trace: dict[str, Any] = {
            "user_goal": chosen.user_goal,
            "end_state": chosen.end_state,
            "reason": chosen.reason,
        }
        if self.strictness > 1:
            trace["agreement"] = count / len(votes)
        said = "achieved" if verdict else "not achieved"
        return MetricResult(float(verdict), f"{said}: {chosen.reason}" if chosen.reason else said, trace)

    def settled(self, sample: MultiTurnSample) -> MetricResult | None:
        """The result when the inputs settle it without a judge, else None."""
        return without_judge(sample)


class AgentGoalAccuracyWithReference(_GoalAccuracy):
    """1 when the end state the conversation reached matches the reference outcome, else 0 (LLM judge)."""

    name = "agent_goal_accuracy"
    columns = ("user_input", "reference")

    def judge(self) -> Prompt[Any, GoalJudgement]:
        return GoalWithReference()

    def judge_input(self, sample: MultiTurnSample, conversation: str) -> BaseModel:
        return ConversationAndOutcome(conversation=conversation, reference=(sample.reference or "").strip())

    def settled(self, sample: MultiTurnSample) -> MetricResult | None:
        if not (sample.reference or "").strip():
            return MetricResult.nan("the reference outcome is empty: nothing to compare the end state with")
        return without_judge(sample)


class AgentGoalAccuracyWithoutReference(_GoalAccuracy):
    """1 when the end state delivers the goal the judge infers from the user's messages, else 0."""

    name = "agent_goal_accuracy_without_reference"
    columns = ("user_input",)

    def judge(self) -> Prompt[Any, GoalJudgement]:
        return GoalWithoutReference()

    def judge_input(self, sample: MultiTurnSample, conversation: str) -> BaseModel:
        return Conversation(conversation=conversation)
