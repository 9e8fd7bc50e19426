"""Correctness of the response against the reference, from statements judged both ways.

Answer correctness: response statements supported by the reference are true positives, the
others false positives; reference statements the response does not support are false
negatives; F1 is blended with embedding similarity. Factual correctness: claims of each side
verified against the other; precision, recall or F1. Both use the sample's shared statements
call and one comparison call that judges both directions, so together they pay for it once.
A follow-up question is read after its earlier turns (``SingleTurnSample.asked``). An out-of-scope
question's reference only says the documents do not cover it: both are NaN there, with that reason
(refusal_correctness scores whether the response declined). An empty response is judged and scores 0
in both (its similarity half too), never NaN, which would drop the row and lift the mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...core.models import is_offline
from ...judges.aligned import judge, numbered
from ...samples.evaluation import SingleTurnSample
from ...text.lexical import LexicalContext
from ..formulas import cosine, f1_from_counts, precision_from_counts, recall_from_counts, weighted_blend
from ..metric import Metric, MetricResult, ScoringContext
from ..prompts import CompareStatementsPrompt, StatementsToCompare
from .refusal import out_of_scope
from .statements import statements_of

OUT_OF_SCOPE = (
    "out-of-scope sample: the reference only says the documents do not cover the question, so there is "
    "no answer to compare with (refusal_correctness scores whether the response declined)"
)


@dataclass(frozen=True)
class StatementComparison:
    """Per statement, how far the other side supports it: 1/0 from an LLM judge; offline, the share of
    the statement the other side states (so an answer's extra detail costs precision, not everything)."""

    response_supported: list[float]  # per response statement: does the reference support it?
    reference_covered: list[float]  # per reference statement: does the response state it?


async def compare_statements(
    response: list[str],
    reference: list[str],
    ctx: ScoringContext,
    stage: str,
    strictness: int = 1,
    question: str = "",
) -> StatementComparison:
    """Both directions in one shared call (in batches for long lists), one keyed verdict per statement.
    Offline, a reference statement counts as covered by its key facts (numbers, names) and by the words
    the question did not already give (an answer need not repeat the question)."""
    if is_offline(ctx.llm):
        ctx.engine.record(stage, offline=1)
        by_reference, by_response = LexicalContext("\n".join(reference)), LexicalContext("\n".join(response))
        asked = by_response.stems_of(question)
        return StatementComparison(
            [by_reference.overlap(s) for s in response],
            [by_response.overlap(s, key_facts=True, asked=asked) for s in reference],
        )
    data = StatementsToCompare(response=numbered(response, "r"), reference=numbered(reference, "g"))
    judged = await judge(
        CompareStatementsPrompt(),
        ctx.llm,
        data,
        engine=ctx.engine,
        stage=stage,
        strictness=strictness,
        guidance=ctx.guidance,
    )
    flags = judged.flags
    return StatementComparison(
        [float(f) for f in flags(tuple(data.response))], [float(f) for f in flags(tuple(data.reference))]
    )


class AnswerCorrectness(Metric):
    name = "answer_correctness"
    columns = ("user_input:optional", "response", "reference")
    needs_llm = True
    needs_embeddings = True

    def __init__(self, *, weights: tuple[float, float] = (0.75, 0.25), **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        if len(weights) != 2 or min(weights) < 0 or sum(weights) <= 0:
            raise ValueError(f"weights must be two non-negative numbers (F1, similarity), got {weights}")
        self.weights = weights

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        if out_of_scope(sample):
            return MetricResult.nan(OUT_OF_SCOPE, out_of_scope=True)
        response, reference = sample.response or "", sample.reference or ""
        statements = await statements_of(sample, ctx, self.stage)
        said, expected = statements.response, statements.reference
        if not said and not expected:
            return MetricResult.nan("neither the response nor the reference makes a statement")
        judged = await compare_statements(
            said, expected, ctx, self.stage, self.strictness, sample.asked() or ""
        )
        tp_flags, covered = judged.response_supported, judged.reference_covered
        tp, fp, fn = sum(tp_flags), len(tp_flags) - sum(tp_flags), len(covered) - sum(covered)
        f1 = f1_from_counts(tp, fp, fn)
        similarity = await self._similarity(response, reference, ctx) if self.weights[1] > 0 else 0.0
        score = weighted_blend([f1, similarity], list(self.weights))
        trace = {
            "response_statements": said,
            "true_positive": tp_flags,
            "reference_statements": expected,
            "covered": covered,
            "f1": f1,
            "similarity": similarity,
        }
        empty = "the response is empty: " if not response.strip() else ""
        reason = f"{empty}{_counts(tp, fp, fn)}; F1 {f1:.3f}, similarity {similarity:.3f}"
        return MetricResult(score, reason, trace)

    async def _similarity(self, response: str, reference: str, ctx: ScoringContext) -> float:
        """Cosine of the two texts' embeddings. An empty response scores 0 unembedded (a model's vector
        for "" would earn it partial credit, a zero vector NaN): it is judged, and says nothing."""
        if not response.strip():
            return 0.0
        vectors = await ctx.engine.embed(ctx.embeddings, [response, reference], stage=f"{self.stage}.embed")
        return cosine(vectors[0], vectors[1])


class FactualCorrectness(Metric):
    name = "factual_correctness"
    columns = ("user_input:optional", "response", "reference")
    needs_llm = True

    def __init__(
        self,
        *,
        mode: Literal["precision", "recall", "f1"] = "f1",
        atomicity: Literal["standard", "high"] = "standard",
        coverage: Literal["standard", "high"] = "standard",
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        if mode not in ("precision", "recall", "f1"):
            raise ValueError(f"mode must be 'precision', 'recall' or 'f1', got {mode!r}")
        self.mode, self.atomicity, self.coverage = mode, atomicity, coverage

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        if out_of_scope(sample):
            return MetricResult.nan(OUT_OF_SCOPE, out_of_scope=True)
        statements = await statements_of(
            sample, ctx, self.stage, atomicity=self.atomicity, coverage=self.coverage
        )
        claims, truth = statements.response, statements.reference
        if not claims and not truth:
            return MetricResult.nan("neither the response nor the reference makes a claim")
        judged = await compare_statements(
            claims, truth, ctx, self.stage, self.strictness, sample.asked() or ""
        )
        right, found = judged.response_supported, judged.reference_covered
        # fn counts in every mode: a response that claims nothing against a reference scores 0 (judged,
        # and wrong), never NaN, which would drop the row and reward the empty answer.
        tp, fp, fn = sum(right), len(right) - sum(right), len(found) - sum(found)
        formula = {"precision": precision_from_counts, "recall": recall_from_counts, "f1": f1_from_counts}[
            self.mode
        ]
        score = formula(tp, fp, fn)
        trace = {
            "claims": claims,
            "claims_supported": right,
            "reference_claims": truth,
            "reference_found": found,
        }
        return MetricResult(score, f"{self.mode}: {_counts(tp, fp, fn)}", trace)


def _counts(tp: float, fp: float, fn: float) -> str:
    """``TP 2, FP 0.14, FN 1``: whole numbers from an LLM judge, shares offline."""
    return f"TP {tp:.3g}, FP {fp:.3g}, FN {fn:.3g}"
