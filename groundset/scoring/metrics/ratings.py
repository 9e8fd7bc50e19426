"""Reference-free ratings: context relevance, response groundedness, answer accuracy.

Each sample is rated 0, 1 or 2 by two differently phrased judges at once (see ``ratings_prompts``);
the score is the mean of rating / 2, so 2 and 1 give 0.75. Two phrasings average out the quirks of
either. A judge whose answer stays unusable after its repair request is left out and the other's
rating stands alone, said in the reason and the trace; when both fail the error propagates and
``evaluate`` records the cell as NaN with it.
"""

from __future__ import annotations

import asyncio
import math
from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel

from ...core.errors import PromptOutputError
from ...core.models import is_offline
from ...core.prompts import Prompt
from ...samples.evaluation import SingleTurnSample
from ..metric import Metric, MetricResult, OutputType, ScoringContext
from .ratings_prompts import (
    AccuracyReader,
    AccuracyReviewer,
    AnswerAndReference,
    GroundednessReader,
    GroundednessReviewer,
    QuestionAndContexts,
    Rating,
    RelevanceReader,
    RelevanceReviewer,
    ResponseAndContexts,
    sentence_focus,
)

MAX_RATING = 2
# Offline context relevance loses up to this for text around the answer that is not about the question:
# less than the half-point between two ratings, so padding breaks ties but never outranks a better rating.
PADDING_COST = 0.2


@dataclass(frozen=True)
class Opinion:
    """One judge's rating and reason, or the error that left it without one."""

    judge: str
    rating: int | None
    reason: str = ""
    error: PromptOutputError | None = None


async def _opinion(prompt: Prompt[Any, Rating], data: BaseModel, ctx: ScoringContext, stage: str) -> Opinion:
    """Only an unusable answer is tolerated here; a failed request or anything else still propagates."""
    judge = prompt.name.rsplit(".", 1)[-1]
    try:
        answer = await prompt.with_guidance(ctx.guidance).run(ctx.llm, data, engine=ctx.engine, stage=stage)
    except PromptOutputError as exc:
        return Opinion(judge, None, error=exc)
    return Opinion(judge, answer.rating, answer.reason)


async def rate_twice(
    prompts: tuple[Prompt[Any, Rating], ...], data: BaseModel, ctx: ScoringContext, stage: str
) -> MetricResult:
    """Ask every judge concurrently; the score is the mean of rating / 2 over the judges that answered."""
    opinions = await asyncio.gather(*(_opinion(p, data, ctx, stage) for p in prompts))
    rated = [o for o in opinions if o.rating is not None]
    failed = {o.judge: o.error for o in opinions if o.error is not None}
    if not rated:
        first = next(iter(failed.values()))
        problems = "; ".join(f"{judge}: {error.error}" for judge, error in failed.items())
        raise PromptOutputError(first.prompt_name, f"no judge gave a usable rating ({problems})", first.raw)
    score = sum(o.rating or 0 for o in rated) / (MAX_RATING * len(rated))
    trace: dict[str, Any] = {
        "ratings": {o.judge: o.rating for o in opinions},
        "reasons": {o.judge: o.reason for o in opinions},
    }
    if failed:
        trace["failed"] = {judge: error.error for judge, error in failed.items()}
    if is_offline(ctx.llm):
        trace["offline"] = True
        return MetricResult(score, f"offline form, shared by both judges: {rated[0].reason}", trace)
    reason = ", ".join(f"{o.judge} rated {o.rating}" for o in rated) + f" (of {MAX_RATING})"
    if failed:
        lost = ", ".join(f"{judge}'s answer was unusable ({error.error})" for judge, error in failed.items())
        reason = f"{lost}; {reason} alone"
    return MetricResult(score, reason, trace)


class _TwoJudgeRating(Metric):
    """A rating metric: first the inputs that need no judge, then both judges on ``judge_input``."""

    judges: ClassVar[tuple[type[Prompt[Any, Rating]], ...]]
    needs_llm = True
    output_type = OutputType.DISCRETE

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        settled = self.without_judge(sample)
        if settled is not None:
            return settled
        prompts = tuple(judge() for judge in self.judges)
        return await rate_twice(prompts, self.judge_input(sample), ctx, self.stage)

    @abstractmethod
    def without_judge(self, sample: SingleTurnSample) -> MetricResult | None:
        """The result when the inputs settle it (NaN: cannot be judged; 0: judged and bad), else None."""

    @abstractmethod
    def judge_input(self, sample: SingleTurnSample) -> BaseModel:
        """What both judges read."""


def _contexts(sample: SingleTurnSample) -> list[str]:
    return [c for c in sample.retrieved_contexts or [] if c.strip()]


class ContextRelevance(_TwoJudgeRating):
    """How relevant the retrieved contexts, taken together, are to the question (0, 0.5 or 1 per judge)."""

    name = "context_relevance"
    columns = ("user_input", "retrieved_contexts")
    judges = (RelevanceReviewer, RelevanceReader)
    offline_measures = (
        "per context, WordLlama cosine with the question and the share of the question's words it holds "
        "(names and numbers counted twice), rated 0/1/2 by the best context and a step lower when most "
        "contexts are padding, less up to 0.2 for the share of sentences not about the question (topic "
        "overlap, not a reading of relevance)"
    )

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        result = await super()._ascore(sample, ctx)
        if not result.trace.get("offline") or math.isnan(result.value):
            return result
        focus, sentences = sentence_focus(sample.asked() or "", _contexts(sample))
        value = max(0.0, result.value - PADDING_COST * (1.0 - focus))
        reason = f"{result.reason}; {focus:.0%} of the contexts' {sentences} sentence(s) about the question"
        return MetricResult(value, reason, result.trace | {"sentence_focus": focus})

    def without_judge(self, sample: SingleTurnSample) -> MetricResult | None:
        if not (sample.user_input or "").strip():
            return MetricResult.nan("the question is empty: relevance to it cannot be judged")
        if not _contexts(sample):
            return MetricResult(0.0, "no retrieved contexts: nothing relevant was retrieved")
        return None

    def judge_input(self, sample: SingleTurnSample) -> BaseModel:
        return QuestionAndContexts(question=sample.asked() or "", contexts=_contexts(sample))


class ResponseGroundedness(_TwoJudgeRating):
    """Whether the retrieved contexts support what the response says: none, part or all of it."""

    name = "response_groundedness"
    columns = ("response", "retrieved_contexts")
    judges = (GroundednessReviewer, GroundednessReader)

    def without_judge(self, sample: SingleTurnSample) -> MetricResult | None:
        if not (sample.response or "").strip():
            return MetricResult.nan("the response is empty: it makes no claim, so it cannot be judged")
        if not _contexts(sample):
            return MetricResult(0.0, "no retrieved contexts: nothing grounds the response")
        return None

    def judge_input(self, sample: SingleTurnSample) -> BaseModel:
        return ResponseAndContexts(response=sample.response or "", contexts=_contexts(sample))


class AnswerAccuracy(_TwoJudgeRating):
    """Whether the response gives the reference's answer to the question: wrong, partly or fully."""

    name = "answer_accuracy"
    columns = ("user_input", "response", "reference")
    judges = (AccuracyReviewer, AccuracyReader)

    def without_judge(self, sample: SingleTurnSample) -> MetricResult | None:
        if not (sample.reference or "").strip():
            return MetricResult.nan("the reference is empty: nothing to check the response against")
        if not (sample.response or "").strip():
            return MetricResult(0.0, "the response is empty: it does not give the reference's answer")
        return None

    def judge_input(self, sample: SingleTurnSample) -> BaseModel:
        return AnswerAndReference(
            question=sample.asked() or "", response=sample.response or "", reference=sample.reference or ""
        )
