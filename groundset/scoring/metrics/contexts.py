"""Context precision: were the useful contexts ranked first? Rank-weighted average precision.

A follow-up question is judged after its earlier turns. Against the reference, an out-of-scope question
(nothing in the documents answers it) has no useful context to rank: NaN with that reason.
"""

from __future__ import annotations

from ...judges.aligned import judge, numbered
from ...samples.evaluation import SingleTurnSample
from ..formulas import average_precision
from ..metric import Metric, MetricResult, OutputType, ScoringContext
from ..prompts import ContextsToJudge, ContextUsefulnessPrompt
from .refusal import nothing_to_retrieve
from .statements import votes


class ContextPrecision(Metric):
    """Usefulness verdicts v1..vK of the retrieved contexts for the reference; sum_k(P@k * v_k) / sum(v)."""

    name = "context_precision"
    columns = ("user_input", "retrieved_contexts", "reference")
    output_type = OutputType.CONTINUOUS
    needs_llm = True
    answer_field = "reference"

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        contexts = sample.retrieved_contexts or []
        answer = getattr(sample, self.answer_field) or ""
        skipped = nothing_to_retrieve(sample, "no context is useful")
        if skipped is not None and self.answer_field == "reference":
            return skipped
        if not answer.strip():
            return MetricResult.nan(f"the {self.answer_field} is empty: nothing to judge usefulness against")
        if not contexts:
            return MetricResult(0.0, "no retrieved contexts: nothing useful was retrieved", {"useful": []})
        data = ContextsToJudge(question=sample.asked() or "", answer=answer, contexts=numbered(contexts))
        judged = await judge(
            ContextUsefulnessPrompt(),
            ctx.llm,
            data,
            engine=ctx.engine,
            stage=self.stage,
            strictness=self.strictness,
            guidance=ctx.guidance,
        )
        keys = tuple(data.contexts)
        verdicts = [int(flag) for flag in judged.flags(keys)]
        score = average_precision(verdicts)
        reason = (
            f"{sum(verdicts)} of {len(verdicts)} contexts useful" if sum(verdicts) else "no useful context"
        )
        agreement = votes([judged.agreement[k] for k in keys], self.strictness)
        return MetricResult(score, reason, {"useful": verdicts, **agreement})


class ContextUtilization(ContextPrecision):
    """Context precision judged against the response instead of a reference (no reference needed)."""

    name = "context_utilization"
    columns = ("user_input", "retrieved_contexts", "response")
    answer_field = "response"
