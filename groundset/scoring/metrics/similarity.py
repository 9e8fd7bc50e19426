"""Metrics on embeddings: semantic similarity of response and reference; response relevancy."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.models import is_offline
from ...samples.evaluation import SingleTurnSample
from ..formulas import cosine
from ..metric import Metric, MetricResult, OutputType, ScoringContext
from ..offline_relevancy import offline_relevancy
from ..prompts import ResponseQuestionPrompt, ResponseToQuestion
from .refusal import out_of_scope

OUT_OF_SCOPE = (
    "out-of-scope sample: the right response declines, which relevancy scores 0, and an invented answer "
    "can look relevant (refusal_correctness scores whether the response declined)"
)


def _empty_response(response: str | None, target: str) -> MetricResult | None:
    """An empty response is judged, and scores 0; NaN only when there is nothing to compare it with."""
    if (response or "").strip():
        return None
    if not target.strip():
        return MetricResult.nan("both texts are empty")
    return MetricResult(0.0, "the response is empty")


class SemanticSimilarity(Metric):
    """Cosine of the response and reference embeddings; with ``threshold``, 1.0 at or above it, else 0.0."""

    name = "semantic_similarity"
    columns = ("response", "reference")
    needs_embeddings = True

    def __init__(self, *, threshold: float | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.threshold = threshold
        if threshold is not None:
            self.output_type = OutputType.BINARY  # type: ignore[misc]

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        empty = _empty_response(sample.response, sample.reference or "")
        if empty is not None:
            return empty
        vectors = await ctx.engine.embed(
            ctx.embeddings, [sample.response or "", sample.reference or ""], stage=f"{self.stage}.embed"
        )
        score = cosine(vectors[0], vectors[1])
        if self.threshold is not None and not np.isnan(score):
            return MetricResult(
                float(score >= self.threshold), f"cosine {score:.3f} vs threshold {self.threshold}"
            )
        return MetricResult(score, f"cosine {score:.3f}")


class AnswerRelevancy(Metric):
    """Mean cosine of the question and ``strictness`` questions written back from the response; 0 when any
    generation flags the response noncommittal (as in ragas). Offline: coverage of the question's parts
    by the response's answering clauses x focus (see ``scoring.offline_relevancy``), 0 for a refusal.
    A follow-up question is compared as asked, after its earlier turns; offline its parts are the last
    question's, and the words of the earlier turns count as given. NaN for an out-of-scope question."""

    name = "answer_relevancy"
    columns = ("user_input", "response")
    needs_llm = True
    needs_embeddings = True
    offline_measures = (
        "coverage of the question's parts by what the response's clauses add to the question (embedding "
        "cosines, halved for a part whose kind of answer, such as a date, number or name, is missing) x "
        "the share of sentences on topic x how much of the question's subject the response names (0.5 to "
        "1); 0 for a refusal, or when every clause hedges or restates the "
        "question; the LLM form compares the question with questions written back from the response"
    )

    def __init__(self, *, strictness: int = 3, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        if strictness < 1:
            raise ValueError(f"strictness must be >= 1, got {strictness}")
        self.strictness = strictness

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        if out_of_scope(sample):
            return MetricResult.nan(OUT_OF_SCOPE, out_of_scope=True)
        question, response = sample.user_input or "", sample.response or ""
        empty = _empty_response(response, question)
        if empty is not None:
            return empty
        if is_offline(ctx.llm):
            return await self._offline(question, response, ctx, sample.asked() or "")
        question = sample.asked() or ""
        outs = await ResponseQuestionPrompt().run(
            ctx.llm,
            ResponseToQuestion(response=response),
            n=self.strictness,
            engine=ctx.engine,
            stage=self.stage,
        )
        outs = outs if isinstance(outs, list) else [outs]
        generated = [o.question for o in outs]
        vectors = await ctx.engine.embed(ctx.embeddings, [question, *generated], stage=f"{self.stage}.embed")
        similarities = [cosine(vectors[0], v) for v in vectors[1:]]
        trace = {
            "questions": generated,
            "noncommittal": [o.noncommittal for o in outs],
            "cosines": similarities,
        }
        flagged = sum(o.noncommittal for o in outs)
        if flagged:
            return MetricResult(
                0.0, f"{flagged} of {len(outs)} generations judged the response noncommittal", trace
            )
        score = float(np.mean(similarities))
        return MetricResult(score, f"mean cosine of {len(generated)} generated questions {score:.3f}", trace)

    async def _offline(self, question: str, response: str, ctx: ScoringContext, asked: str) -> MetricResult:
        async def embed(texts: Sequence[str]) -> np.ndarray:
            return await ctx.engine.embed(ctx.embeddings, texts, stage=f"{self.stage}.embed")

        found = await offline_relevancy(question, response, embed, conversation=asked)
        if found is None:
            return MetricResult(0.0, "the response is noncommittal", {"offline": True})
        trace = {
            "offline": True,
            "parts": found.parts,
            "coverage": found.coverage,
            "focus": found.focus,
            "missing": found.missing,
        }
        return MetricResult(found.score, found.reason(), trace)
