"""Summary score: does the summary (``response``) keep what matters in the source (``reference_contexts``)?

The keyphrases of the source become questions the source answers "yes"; the QA score is the share
the summary answers "yes" too. A copy of the source would answer every one, so by default the score
blends in conciseness, 1 - min(len(summary), len(source)) / len(source) in characters:

    score = qa * (1 - coefficient) + conciseness * coefficient

The source is the sample's reference contexts joined by a newline, as in ragas' ``summary_score``.
"""

from __future__ import annotations

from typing import Any

from ...core.models import is_offline
from ...judges.aligned import judge, numbered
from ...samples.evaluation import SingleTurnSample
from ..formulas import ratio
from ..metric import Metric, MetricResult, ScoringContext
from .summarization_prompts import (
    KeyphrasesPrompt,
    QuestionsPrompt,
    SourceAndKeyphrases,
    SourceText,
    SummaryAndQuestions,
    SummaryAnswersPrompt,
)

EPSILON = 1e-10


def conciseness(summary: str, source: str) -> float:
    """1 - min(len(summary), len(source)) / (len(source) + 1e-10): 1 for an empty summary, 0 for a copy."""
    return 1.0 - min(len(summary), len(source)) / (len(source) + EPSILON)


def blend(qa: float, concise: float, coefficient: float) -> float:
    """qa * (1 - coefficient) + concise * coefficient."""
    return qa * (1.0 - coefficient) + concise * coefficient


class SummarizationScore(Metric):
    """Share of the source's key questions the summary answers "yes", blended with conciseness."""

    name = "summary_score"
    columns = ("reference_contexts", "response")
    needs_llm = True
    offline_measures = (
        "keyphrase coverage: the share of the source's top TF-IDF phrases at least half of whose content "
        "words (by stem) occur in the summary, blended with conciseness as with an LLM (no question asked)"
    )

    def __init__(self, *, coefficient: float = 0.5, length_penalty: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if (
            isinstance(coefficient, bool)
            or not isinstance(coefficient, int | float)
            or not 0 <= coefficient <= 1
        ):
            raise ValueError(
                f"metric {self.name}: coefficient must be a number from 0 to 1 (the weight of conciseness), "
                f"got {coefficient!r}"
            )
        self.coefficient = float(coefficient)
        self.length_penalty = bool(length_penalty)

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        source = "\n".join(c for c in sample.reference_contexts or [] if c.strip())
        summary = (sample.response or "").strip()
        if not source.strip():
            return MetricResult.nan("the reference contexts are empty: there is no source to summarise")
        if not summary:
            return MetricResult(0.0, "the summary is empty: it keeps nothing of the source")
        found = await KeyphrasesPrompt().run(
            ctx.llm, SourceText(text=source), engine=ctx.engine, stage=self.stage
        )
        keyphrases = list(dict.fromkeys(p.strip() for p in found.keyphrases if p.strip()))
        if not keyphrases:
            return MetricResult.nan("no keyphrases found in the source: nothing to ask the summary about")
        asked = await QuestionsPrompt().run(
            ctx.llm,
            SourceAndKeyphrases(text=source, keyphrases=keyphrases),
            engine=ctx.engine,
            stage=self.stage,
        )
        questions = [q.strip() for q in asked.questions if q.strip()]
        if not questions:
            return MetricResult.nan("no question came of the keyphrases: nothing to ask the summary")
        data = SummaryAndQuestions(summary=summary, questions=numbered(questions))
        judged = await judge(
            SummaryAnswersPrompt(),
            ctx.llm,
            data,
            engine=ctx.engine,
            stage=self.stage,
            strictness=self.strictness,
            guidance=ctx.guidance,
        )
        keys = tuple(data.questions)
        answers = judged.flags(keys)
        qa = ratio(sum(answers), len(answers))
        concise = conciseness(summary, source)
        value = blend(qa, concise, self.coefficient) if self.length_penalty else qa
        trace: dict[str, Any] = {
            "keyphrases": keyphrases,
            "questions": questions,
            "answers": answers,
            "reasons": [judged.verdicts[k].reason for k in keys],
            "qa_score": qa,
            "conciseness_score": concise,
            "coefficient": self.coefficient if self.length_penalty else 0.0,
        }
        if self.strictness > 1:
            trace["agreement"] = [judged.agreement[k] for k in keys]
        count = f"{sum(answers)} of {len(answers)}"
        if is_offline(ctx.llm):
            reason = f"the summary mentions {count} of the source's keyphrases ({qa:.2f})"
        else:
            reason = f"the summary answers yes to {count} of the source's questions ({qa:.2f})"
        if self.length_penalty:
            reason += (
                f"; conciseness {concise:.2f} ({len(summary)} of {len(source)} characters), "
                f"weighted {self.coefficient:g}"
            )
        return MetricResult(value, reason, trace)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(coefficient={self.coefficient}, length_penalty={self.length_penalty})"
