"""Scores on a scale: by a criterion (``SimpleCriteriaScore``), by rubric descriptions for the whole run
(``RubricsScore``) or by each sample's own rubrics (``InstanceRubrics``).

These return the judge's raw integer (e.g. 0-5 or 1-5), not a 0-1 share like most metrics: the number
is what the scale or rubric defines, and rescaling it would hide that. Their output type is DISCRETE.
``strictness=k`` asks for k scores in one request and keeps their median. A rubric maps scores to
descriptions; keys may be written "3", "score3" or "score3_description".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...core.errors import ConfigError
from ...core.models import is_offline
from ...samples.evaluation import SingleTurnSample
from ..metric import MetricResult, OutputType, ScoringContext
from .critics import InstanceMetric, ask_votes, checked_name, median_vote, offline_nan, submission, vote_note
from .critics_prompts import RubricInput, RubricPrompt, ScaleInput, ScalePrompt, Score

RUBRIC_KEY = re.compile(r"(?:score)?[\s_]*(-?\d+)(?:[\s_]*description)?", re.IGNORECASE)
JUDGED = ("user_input:optional", "response", "retrieved_contexts:optional", "reference:optional")

# Written for this project: how well a response answers its question (with the passages, when given).
REFERENCE_FREE_RUBRIC = {
    "1": "Does not answer the question: off topic, empty of substance, or plainly wrong.",
    "2": "Touches the question but helps little: the main point is missing or seriously wrong.",
    "3": "Answers part of the question; there are clear gaps, vague spots or some errors.",
    "4": "Answers the question correctly and clearly, with only small omissions or imprecisions.",
    "5": "Answers the question fully, accurately and clearly; nothing important is missing or wrong.",
}
# Written for this project: how much of the reference's answer the response gives, and how faithfully.
REFERENCE_BASED_RUBRIC = {
    "1": "Contradicts the reference, or shares none of its answer.",
    "2": "Shares a little of the reference's answer, but its main point is missing or wrong.",
    "3": "Gives about half of the reference's answer; some key facts are missing or changed.",
    "4": "Gives the reference's answer with one minor detail missing or slightly off.",
    "5": "Gives the reference's answer fully and accurately; any extra detail agrees with it.",
}


def parse_rubric(rubric: object, where: str) -> dict[str, str]:
    """Rubric keys normalised to plain integers ("score3_description" -> "3"), ordered by score. Raises
    ValueError naming the key that is not a score, or the empty description."""
    if not isinstance(rubric, Mapping) or len(rubric) < 2:
        raise ValueError(f"{where}: a rubric maps at least two scores to descriptions, got {rubric!r}")
    parsed: dict[int, str] = {}
    for key, text in rubric.items():
        found = RUBRIC_KEY.fullmatch(str(key).strip())
        if found is None:
            raise ValueError(
                f"{where}: rubric key {key!r} is not a score; write keys as '3' or 'score3_description'"
            )
        score = int(found.group(1))
        if score in parsed:
            raise ValueError(f"{where}: score {score} appears twice in the rubric")
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"{where}: the description of score {key!r} is empty")
        parsed[score] = text.strip()
    return {str(score): parsed[score] for score in sorted(parsed)}


def score_result(answers: list[Score], k: int, trace: dict[str, Any], scale: str) -> MetricResult:
    """The median score of the votes, with the reason of a vote that gave it."""
    score, share = median_vote([a.score for a in answers])
    reason = next(a.reason for a in answers if a.score == score)
    trace = {**trace, "score": int(score), "agreement": share, "votes": [a.score for a in answers]}
    trace["reasons"] = [a.reason for a in answers]
    return MetricResult(float(score), f"{int(score)} {scale}: {reason}{vote_note(share, k)}", trace)


class _ScaleMetric(InstanceMetric):
    needs_llm = True
    runs_offline = False
    output_type = OutputType.DISCRETE
    columns = JUDGED

    def unjudgeable(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult | None:
        if not (sample.response or "").strip():
            return MetricResult.nan(f"the response is empty: there is nothing to score for {self.name}")
        return offline_nan(self) if is_offline(ctx.llm) else None


class SimpleCriteriaScore(_ScaleMetric):
    """An integer on ``scale`` (default 0-5) for how well the response meets ``definition``; the
    reference and passages are shown to the judge when the sample has them."""

    name = "simple_criteria"

    def __init__(
        self,
        name: str | None = None,
        definition: str | None = None,
        scale: tuple[int, int] = (0, 5),
        **options: Any,
    ) -> None:
        if name is None:
            raise ConfigError(
                "SimpleCriteriaScore needs name= and definition=, e.g. SimpleCriteriaScore(name='clarity', "
                "definition='How clearly does the response explain its answer?', scale=(0, 5))"
            )
        self.name = checked_name(name, type(self).__name__)
        if not isinstance(definition, str) or not definition.strip():
            raise ConfigError(
                f"SimpleCriteriaScore {name}: definition must be a non-empty text, got {definition!r}"
            )
        whole = isinstance(scale, tuple | list) and len(scale) == 2
        whole = whole and all(isinstance(v, int) and not isinstance(v, bool) for v in scale)
        if not whole or scale[0] >= scale[1]:
            raise ConfigError(
                f"SimpleCriteriaScore {name}: scale must be two whole numbers (lowest, highest) with lowest "
                f"< highest, got {scale!r}"
            )
        self.definition = definition.strip()
        self.scale = (int(scale[0]), int(scale[1]))
        super().__init__(**options)

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        if (settled := self.unjudgeable(sample, ctx)) is not None:
            return settled
        lowest, highest = self.scale
        data = ScaleInput(criterion=self.definition, lowest=lowest, highest=highest, **submission(sample))
        answers = await ask_votes(ScalePrompt(), data, ctx, self.stage, self.strictness)
        if isinstance(answers, MetricResult):
            return answers
        return score_result(answers, self.strictness, {"scale": [lowest, highest]}, f"on {lowest}-{highest}")


class RubricsScore(_ScaleMetric):
    """The score (1-5 by default) whose rubric description fits the response best.

    ``rubrics=None`` uses the built-in rubrics: reference-based for a sample with a reference,
    reference-free otherwise. ``with_reference=True`` always uses (and requires) the reference, False
    never shows it, None (default) decides per sample.
    """

    name = "rubrics_score"

    def __init__(
        self,
        rubrics: Mapping[str, str] | None = None,
        with_reference: bool | None = None,
        *,
        name: str | None = None,
        **options: Any,
    ) -> None:
        self.name = checked_name(name, "RubricsScore") if name is not None else type(self).name
        if with_reference not in (None, True, False):
            raise ConfigError(
                f"RubricsScore: with_reference must be True, False or None (auto), got {with_reference!r}"
            )
        try:
            self.rubrics = parse_rubric(rubrics, f"RubricsScore {self.name}") if rubrics is not None else None
        except ValueError as exc:
            raise ConfigError(str(exc)) from exc
        self.with_reference = with_reference
        if with_reference:
            self.columns = tuple(
                c.removesuffix(":optional") if c.startswith("reference") else c for c in JUDGED
            )
        super().__init__(**options)

    def rubric_for(self, has_reference: bool) -> tuple[str, dict[str, str]]:
        if self.rubrics is not None:
            return "given", self.rubrics
        if has_reference:
            return "reference-based", REFERENCE_BASED_RUBRIC
        return "reference-free", REFERENCE_FREE_RUBRIC

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        if (settled := self.unjudgeable(sample, ctx)) is not None:
            return settled
        seen = submission(sample)
        if self.with_reference is False:
            seen["reference"] = None
        elif self.with_reference and seen["reference"] is None:
            return MetricResult.nan("with_reference=True, but the sample's reference is empty")
        kind, rubric = self.rubric_for(seen["reference"] is not None)
        return await judge_rubric(self, rubric, kind, seen, ctx)


class InstanceRubrics(_ScaleMetric):
    """The score whose description, in the sample's own ``rubrics``, fits the response best."""

    name = "instance_rubrics"
    columns = (*JUDGED, "rubrics:optional")

    def __init__(self, *, name: str | None = None, **options: Any) -> None:
        self.name = checked_name(name, "InstanceRubrics") if name is not None else type(self).name
        super().__init__(**options)

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        if not sample.rubrics:
            return MetricResult.nan(
                "the sample has no rubrics: give it a 'rubrics' object (score -> description)"
            )
        try:
            rubric = parse_rubric(sample.rubrics, "the sample's rubrics")
        except ValueError as exc:
            return MetricResult.nan(str(exc))
        if (settled := self.unjudgeable(sample, ctx)) is not None:
            return settled
        return await judge_rubric(self, rubric, "sample", submission(sample), ctx)


async def judge_rubric(
    metric: _ScaleMetric, rubric: dict[str, str], kind: str, seen: dict[str, Any], ctx: ScoringContext
) -> MetricResult:
    data = RubricInput(rubric=rubric, **seen)
    answers = await ask_votes(RubricPrompt(), data, ctx, metric.stage, metric.strictness)
    if isinstance(answers, MetricResult):
        return answers
    scores = [int(s) for s in rubric]
    return score_result(
        answers, metric.strictness, {"rubric": kind}, f"of {min(scores)}-{max(scores)} ({kind} rubric)"
    )
