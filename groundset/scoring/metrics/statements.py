"""Metrics that decompose a text into statements and judge each one against a context.

Faithfulness (response vs retrieved contexts) and context recall (reference vs retrieved
contexts) decompose the sample's response and reference in one shared call, the same one the
correctness metrics make, so running them together pays for it once. The decomposition reads the
question as asked: a follow-up after its earlier turns, so "and the second one?" becomes statements
that name what they are about.

An out-of-scope question (``expected_behaviour`` "refuse") has nothing to retrieve: context recall is
NaN with that reason. Faithfulness still checks an answer the system gave anyway against what it
retrieved; a response that declines makes no claim to check, so it is NaN (refusal_correctness scores it).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ...core.errors import PromptOutputError
from ...judges.aligned import judge, numbered
from ...judges.support import StatementsAndContext, SupportPrompt
from ...samples.evaluation import SingleTurnSample
from ..formulas import ratio
from ..metric import Metric, MetricResult, ScoringContext
from ..prompts import SampleStatements, SampleTexts, StatementsPrompt
from .refusal import DECLINES, classify, nothing_to_retrieve, out_of_scope

logger = logging.getLogger(__name__)


async def statements_of(
    sample: SingleTurnSample,
    ctx: ScoringContext,
    stage: str,
    *,
    atomicity: str = "standard",
    coverage: str = "standard",
) -> SampleStatements:
    """The response's and the reference's statements, in one call shared by every metric of the sample.

    A model that lists no statement for a text that has sentences (small models do), or whose answer
    stays unusable after its repair, has failed, not found the text empty: that side takes the text's
    sentences instead, counted as a fallback."""
    prompt = StatementsPrompt()
    texts = SampleTexts(
        question=sample.asked() or "",
        response=sample.response or "",
        reference=sample.reference or "",
        atomicity=atomicity,
        coverage=coverage,
    )
    try:
        found: SampleStatements = await prompt.run(ctx.llm, texts, engine=ctx.engine, stage=stage)
    except PromptOutputError as exc:
        logger.info("%s: no usable statements from the model (%s); using the sentences", stage, exc.error)
        found = SampleStatements(response=[], reference=[])
    response = [s.strip() for s in found.response if s.strip()]
    reference = [s.strip() for s in found.reference if s.strip()]
    if (not response and texts.response.strip()) or (not reference and texts.reference.strip()):
        split = prompt.offline(texts)
        if not response and split.response:
            response = split.response
            ctx.engine.record(stage, fallbacks=1)
        if not reference and split.reference:
            reference = split.reference
            ctx.engine.record(stage, fallbacks=1)
    return SampleStatements(response=response, reference=reference)


async def supported(
    statements: list[str], contexts: list[str], ctx: ScoringContext, stage: str, strictness: int = 1
) -> tuple[list[bool], list[float]]:
    """One keyed support verdict per statement against the joined contexts (one call per batch), and
    the share of the ``strictness`` votes that agreed with each."""
    data = StatementsAndContext(statements=numbered(statements), context="\n\n".join(contexts))
    judged = await judge(
        SupportPrompt(),
        ctx.llm,
        data,
        engine=ctx.engine,
        stage=stage,
        strictness=strictness,
        guidance=ctx.guidance,
    )
    keys = tuple(data.statements)
    return judged.flags(keys), [judged.agreement[k] for k in keys]


def votes(agreement: list[float], strictness: int) -> dict[str, list[float]]:
    """The trace entry for self-consistency: per item, the share of votes that agreed (with k > 1 only)."""
    return {"agreement": agreement} if strictness > 1 else {}


class _SupportedShare(Metric):
    """Share of one side's statements (the response's or the reference's) the retrieved contexts support."""

    side: str  # "response" or "reference"
    needs_llm = True

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        skipped = await self.out_of_scope(sample, ctx)
        if skipped is not None:
            return skipped
        statements = getattr(await statements_of(sample, ctx, self.stage), self.side)
        if not statements:
            return MetricResult.nan(f"the {self.side} makes no statement")
        contexts = sample.retrieved_contexts or []
        if not contexts:  # judged without a call: nothing retrieved supports anything
            return MetricResult(
                0.0, "no retrieved contexts: no statement is supported", {"statements": statements}
            )
        verdicts, agreement = await supported(statements, contexts, ctx, self.stage, self.strictness)
        return MetricResult(
            ratio(sum(verdicts), len(verdicts)),
            f"{sum(verdicts)} of {len(verdicts)} {self.side} statements are supported by the contexts",
            {"statements": statements, "supported": verdicts, **votes(agreement, self.strictness)},
        )

    async def out_of_scope(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult | None:
        """The result for a question the documents do not answer, when the metric cannot judge it."""
        return None


class Faithfulness(_SupportedShare):
    """Share of the response's statements that the retrieved contexts support (NaN without statements)."""

    name = "faithfulness"
    columns = ("user_input:optional", "response", "retrieved_contexts")
    side = "response"

    async def out_of_scope(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult | None:
        if not out_of_scope(sample) or not (sample.response or "").strip():
            return None
        # The call refusal_correctness makes (shared), without faithfulness's demonstrations.
        found = await classify(sample, replace(ctx, guidance=""), self.stage)
        if isinstance(found, MetricResult) or found[0].behaviour != DECLINES:
            return None
        return MetricResult.nan(
            "out-of-scope sample: the response declines, so it makes no claim to check against the "
            "contexts (refusal_correctness scores the refusal)",
            out_of_scope=True,
            declines=found[0].reason,
        )


class ContextRecall(_SupportedShare):
    """Share of the reference's statements that the retrieved contexts support."""

    name = "context_recall"
    columns = ("user_input:optional", "retrieved_contexts", "reference")
    side = "reference"

    async def out_of_scope(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult | None:
        return nothing_to_retrieve(sample, "the reference only says the documents do not cover it")
