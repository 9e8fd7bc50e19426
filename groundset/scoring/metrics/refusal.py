"""Refusal correctness: does the system decline what its documents do not cover, and answer the rest?

A test set may hold out-of-scope questions (``expected_behaviour == "refuse"``): the documents do not
answer them, and the right response says so instead of inventing an answer. The metric scores 1 when an
out-of-scope question is declined or an in-scope one (``expected_behaviour`` "answer" or unset) is
answered, 0 otherwise; the reason says which of the four cases it was. One judge call classifies the
response as declining or answering (``refusal_prompts``); offline, refusal phrases decide, and for an
out-of-scope question answered anyway the trace says how much of the answer the retrieved contexts hold
word for word (an answer they hold is retrieved material stretched to fit, one they do not is invented).

Out-of-scope samples have no reference contexts and a reference that only says the documents are silent,
so the retrieval and correctness metrics cannot judge them: ``out_of_scope`` and ``nothing_to_retrieve``
let those metrics give NaN with that reason instead of a meaningless score.
"""

from __future__ import annotations

from typing import Any

from ...core.models import is_offline
from ...samples.evaluation import SingleTurnSample
from ...text.lexical import content_words, lexical_support
from ...text.plaintext import plain_text
from ..metric import Metric, MetricResult, OutputType, ScoringContext
from .critics import ask_votes, majority, vote_note
from .refusal_prompts import ANSWERS, DECLINES, Behaviour, RefusalInput, RefusalPrompt

NOTHING_TO_RETRIEVE = "out-of-scope sample: nothing to retrieve"
OUTCOMES = {
    ("refuse", DECLINES): (1.0, "declined an out-of-scope question"),
    ("refuse", ANSWERS): (0.0, "invented an answer to an out-of-scope question"),
    ("answer", ANSWERS): (1.0, "answered an answerable question"),
    ("answer", DECLINES): (0.0, "refused an answerable question"),
}


def out_of_scope(sample: Any) -> bool:
    """True for a question the documents do not answer (the system should decline it)."""
    return getattr(sample, "expected_behaviour", None) == "refuse"


def nothing_to_retrieve(sample: Any, why: str = "") -> MetricResult | None:
    """NaN with the reason for an out-of-scope sample (``why`` adds what the metric would have needed)."""
    if not out_of_scope(sample):
        return None
    return MetricResult.nan(f"{NOTHING_TO_RETRIEVE}{f' ({why})' if why else ''}", out_of_scope=True)


async def classify(
    sample: SingleTurnSample, ctx: ScoringContext, stage: str, k: int = 1
) -> list[Behaviour] | MetricResult:
    """k classifications of the response (one request; offline, by refusal phrases), or NaN with why.
    With k=1 the call is the one refusal_correctness makes, so other metrics asking it pay nothing more."""
    data = RefusalInput(question=sample.asked() or "", response=sample.response or "")
    return await ask_votes(RefusalPrompt(), data, ctx, stage, k)


class RefusalCorrectness(Metric):
    """1 when an out-of-scope question is declined or an in-scope one answered, else 0."""

    name = "refusal_correctness"
    columns = ("user_input", "response", "expected_behaviour:optional")
    output_type = OutputType.BINARY
    needs_llm = True

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        if not (sample.response or "").strip():
            return MetricResult.nan("the response is empty: it neither declines nor answers")
        expected = "refuse" if out_of_scope(sample) else "answer"
        answers = await classify(sample, ctx, self.stage, self.strictness)
        if isinstance(answers, MetricResult):
            return answers
        behaviour, share = majority([a.behaviour for a in answers], tie_break=(ANSWERS,))
        why = next(a.reason for a in answers if a.behaviour == behaviour)
        value, outcome = OUTCOMES[expected, behaviour]
        trace: dict[str, Any] = {"expected": expected, "behaviour": behaviour}
        trace["reasons"] = [a.reason for a in answers]
        if self.strictness > 1:
            trace |= {"votes": [a.behaviour for a in answers], "agreement": share}
        offline = is_offline(ctx.llm)
        if offline:
            trace["offline"] = True
        reason = f"{outcome}: {why}{vote_note(share, self.strictness)}"
        if offline and (expected, behaviour) == ("refuse", ANSWERS):
            held = context_support(sample)
            if held is not None:
                trace["context_support"] = held
                reason += f"; {held:.0%} of its words are in the retrieved contexts"
        return MetricResult(value, reason, trace)


def context_support(sample: SingleTurnSample) -> float | None:
    """The share of the response's content words found in the retrieved contexts (None without any)."""
    contexts = [c for c in sample.retrieved_contexts or [] if c.strip()]
    if not contexts:
        return None
    known = {w for text in contexts for w in content_words(plain_text(text))}
    return round(lexical_support(plain_text(sample.response or ""), known), 4)
