"""Metrics about what the retrieved contexts hold: entity recall and noise sensitivity."""

from __future__ import annotations

import asyncio
from typing import Literal

from ...samples.evaluation import SingleTurnSample
from ..formulas import ratio
from ..metric import Metric, MetricResult, ScoringContext
from ..prompts import EntitiesPrompt, TextForEntities
from .correctness import compare_statements
from .statements import statements_of, supported


class ContextEntityRecall(Metric):
    """Share of the reference's entities that appear in the retrieved contexts (NaN without entities)."""

    name = "context_entity_recall"
    columns = ("reference", "retrieved_contexts")
    needs_llm = True

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        found = await EntitiesPrompt().run(
            ctx.llm, TextForEntities(text=sample.reference or ""), engine=ctx.engine, stage=self.stage
        )
        entities = list(dict.fromkeys(e.strip() for e in found.entities if e.strip()))
        if not entities:
            return MetricResult.nan("the reference names no entity")
        haystack = "\n".join(sample.retrieved_contexts or []).casefold()
        present = [e for e in entities if e.casefold() in haystack]
        return MetricResult(
            ratio(len(present), len(entities)),
            f"{len(present)} of {len(entities)} reference entities appear in the retrieved contexts",
            {"entities": entities, "present": present},
        )


class NoiseSensitivity(Metric):
    """Share of the response's statements that are wrong (not supported by the reference) yet supported by
    a relevant context (mode "relevant") or only by irrelevant ones (mode "irrelevant"); lower is better.
    A context is relevant when it supports at least one reference statement."""

    name = "noise_sensitivity"
    higher_is_better = False
    columns = ("user_input:optional", "response", "reference", "retrieved_contexts")
    needs_llm = True

    def __init__(self, *, mode: Literal["relevant", "irrelevant"] = "relevant", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        if mode not in ("relevant", "irrelevant"):
            raise ValueError(f"mode must be 'relevant' or 'irrelevant', got {mode!r}")
        self.mode = mode

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        contexts = sample.retrieved_contexts or []
        statements = await statements_of(sample, ctx, self.stage)
        said, expected = statements.response, statements.reference
        if not said:
            return MetricResult.nan("the response makes no statement")
        # Offline, a statement the reference mostly states (an answer's extra detail) counts as correct.
        correct = [
            share >= 0.5
            for share in (
                await compare_statements(said, expected, ctx, self.stage, self.strictness)
            ).response_supported
        ]
        per_context = [
            flags
            for flags, _ in await asyncio.gather(
                *(supported(said, [c], ctx, self.stage, self.strictness) for c in contexts),
                *(supported(expected, [c], ctx, self.stage, self.strictness) for c in contexts if expected),
            )
        ]
        backs, relevant_flags = per_context[: len(contexts)], per_context[len(contexts) :]
        relevant = [any(flags) for flags in relevant_flags] or [False] * len(contexts)
        noisy = []
        for i, ok in enumerate(correct):
            from_relevant = any(backs[c][i] and relevant[c] for c in range(len(contexts)))
            from_irrelevant = any(backs[c][i] and not relevant[c] for c in range(len(contexts)))
            hit = from_relevant if self.mode == "relevant" else from_irrelevant and not from_relevant
            noisy.append(not ok and hit)
        trace = {"statements": said, "correct": correct, "relevant_contexts": relevant, "noisy": noisy}
        return MetricResult(
            ratio(sum(noisy), len(noisy)),
            f"{sum(noisy)} of {len(noisy)} statements are wrong and come from {self.mode} contexts",
            trace,
        )
