"""Custom LLM metrics from a prompt template: a value from a list, a number in a range, or a ranking.

    metric = DiscreteMetric(
        name="cites_reference",
        allowed_values=["pass", "fail"],
        prompt="Does the answer {response} state what the reference {reference} states? pass or fail.",
    )

The template's ``{field}`` placeholders are sample fields (checked when the metric is made) and become
its columns. The judge's answer is checked against the allowed values, the range or the item list;
a wrong answer gets one repair request, then the score is NaN with the reason. Discrete values score
by ``scores=`` when given; otherwise pass/fail, yes/no and true/false score 1/0 and any other list
is read best first (first value 1.0, last 0.0, evenly spaced). A ranking scores the share of item
pairs the judge puts in the order they are listed (1.0: the list was already best first).
A metric saves to JSON (``metric.save(path)``) and loads back (``load_metric(path, llm=...)``); the
model is not saved. Function metrics (no model) are in ``decorators``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from ..core.atomic import atomic_write_text
from ..core.errors import ConfigError
from ..core.models import is_offline
from .custom_prompts import (
    SAMPLE_FIELDS,
    ChoicePrompt,
    ChoiceTask,
    NumberPrompt,
    NumberTask,
    RankingPrompt,
    RankingTask,
    fill,
    match_choice,
    template_fields,
    unknown_field,
)
from .metric import MetricResult, OutputType, ScoringContext
from .metrics.critics import (
    InstanceMetric,
    ask_votes,
    checked_name,
    majority,
    median_vote,
    offline_nan,
    vote_note,
)

FORMAT_KEY = "groundset_metric"
FORMAT_VERSION = 1
# Value pairs whose meaning fixes their scores, whatever order they are listed in.
PAIRS = {
    frozenset({"pass", "fail"}): "pass",
    frozenset({"yes", "no"}): "yes",
    frozenset({"true", "false"}): "true",
}
LIST_FIELDS = ("multi_responses", "retrieved_contexts", "reference_contexts", "reference_topics")


def check_allowed(values: object, owner: str) -> list[str]:
    """At least two distinct non-empty strings (distinct ignoring case: answers match ignoring case)."""
    if isinstance(values, str) or not isinstance(values, Sequence) or len(values) < 2:
        raise ConfigError(f"{owner}: allowed_values must be a list of at least two strings, got {values!r}")
    if not all(isinstance(v, str) and v.strip() for v in values):
        raise ConfigError(f"{owner}: allowed_values must be non-empty strings, got {list(values)!r}")
    folded = [v.strip().casefold() for v in values]
    if len(set(folded)) != len(folded):
        raise ConfigError(f"{owner}: allowed_values must differ (ignoring case), got {list(values)!r}")
    return [v.strip() for v in values]


def value_scores(allowed: list[str], scores: Mapping[str, float] | None, owner: str) -> dict[str, float]:
    """The score of each allowed value: ``scores`` when given, else by meaning or by position."""
    if scores is not None:
        if not isinstance(scores, Mapping) or set(scores) != set(allowed):
            got = sorted(scores) if isinstance(scores, Mapping) else scores
            raise ConfigError(
                f"{owner}: scores must give a number for each allowed value {allowed}, got {got!r}"
            )
        bad = [
            k
            for k, v in scores.items()
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v)
        ]
        if bad:
            raise ConfigError(f"{owner}: scores of {bad} must be finite numbers")
        return {value: float(scores[value]) for value in allowed}
    positive = PAIRS.get(frozenset(v.casefold() for v in allowed))
    if positive is not None:
        return {value: float(value.casefold() == positive) for value in allowed}
    last = len(allowed) - 1
    return {value: (last - i) / last for i, value in enumerate(allowed)}


def check_range(bounds: object, owner: str) -> tuple[float, float]:
    ok = isinstance(bounds, tuple | list) and len(bounds) == 2
    numbers = ok and all(
        isinstance(b, int | float) and not isinstance(b, bool) and math.isfinite(b) for b in bounds
    )
    if not numbers or bounds[0] >= bounds[1]:  # type: ignore[index]
        raise ConfigError(
            f"{owner}: range must be two finite numbers (lowest, highest), lowest < highest, got {bounds!r}"
        )
    return float(bounds[0]), float(bounds[1])  # type: ignore[index]


class PromptMetric(InstanceMetric):
    """A metric judged by the user's prompt template; subclasses say what the answer is and how it scores."""

    kind: ClassVar[str]
    settings: ClassVar[tuple[str, ...]]  # constructor arguments saved beside name and prompt
    needs_llm = True
    runs_offline = False
    need_placeholder: ClassVar[bool] = True

    def __init__(self, name: str, prompt: str, **options: Any) -> None:
        owner = f"{type(self).__name__} {name!r}"
        self.name = checked_name(name, type(self).__name__)
        self.fields = template_fields(prompt, owner, need_one=self.need_placeholder)
        self.prompt = prompt
        self.columns = self.fields
        super().__init__(**options)

    def to_dict(self) -> dict[str, Any]:
        data = {FORMAT_KEY: FORMAT_VERSION, "kind": self.kind, "name": self.name, "prompt": self.prompt}
        data.update({key: getattr(self, key) for key in self.settings})
        return {**data, "strictness": self.strictness}

    def save(self, path: str | Path) -> Path:
        """Write the metric as JSON (atomically); ``load_metric(path)`` makes it again."""
        atomic_write_text(path, json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n")
        return Path(path)

    @classmethod
    def load(cls, path: str | Path, **options: Any) -> PromptMetric:
        """A metric saved with ``save``, checked to be of this class; ``options`` are llm= and the like."""
        metric = load_metric(path, **options)
        if not isinstance(metric, cls):
            raise ConfigError(
                f"{path}: field 'kind' is {metric.kind!r}, not {cls.kind!r}; load it with load_metric"
            )
        return metric

    async def _ascore(self, sample: Any, ctx: ScoringContext) -> MetricResult:
        if is_offline(ctx.llm):
            return offline_nan(self)
        return await self.judge(fill(self.prompt, self.fields, sample), sample, ctx)

    async def judge(self, task: str, sample: Any, ctx: ScoringContext) -> MetricResult:
        raise NotImplementedError


class DiscreteMetric(PromptMetric):
    """One of ``allowed_values``, chosen by the judge; scored as the module docstring says."""

    kind = "discrete"
    settings = ("allowed_values", "scores")

    def __init__(
        self,
        name: str,
        allowed_values: Sequence[str] = ("pass", "fail"),
        prompt: str = "",
        *,
        scores: Mapping[str, float] | None = None,
        **options: Any,
    ) -> None:
        owner = f"DiscreteMetric {name!r}"
        self.allowed_values = check_allowed(allowed_values, owner)
        self.scores = value_scores(self.allowed_values, scores, owner)
        self.output_type = OutputType.BINARY if len(self.allowed_values) == 2 else OutputType.DISCRETE
        super().__init__(name, prompt, **options)

    async def judge(self, task: str, sample: Any, ctx: ScoringContext) -> MetricResult:
        data = ChoiceTask(task=task, allowed_values=self.allowed_values)
        answers = await ask_votes(ChoicePrompt(), data, ctx, self.stage, self.strictness)
        if isinstance(answers, MetricResult):
            return answers
        votes = [match_choice(a.value, self.allowed_values) or a.value for a in answers]
        # A tie between values goes to the lowest-scoring one: a tie is no evidence for the better value.
        value, share = majority(votes, sorted(self.allowed_values, key=self.scores.__getitem__))
        reason = next(a.reason for a, v in zip(answers, votes, strict=True) if v == value)
        trace = {"value": value, "agreement": share, "votes": votes, "reasons": [a.reason for a in answers]}
        return MetricResult(
            self.scores[value], f"{value}: {reason}{vote_note(share, self.strictness)}", trace
        )


class NumericMetric(PromptMetric):
    """A number in ``range`` from the judge, returned as it is (the median when strictness > 1)."""

    kind = "numeric"
    settings = ("range",)
    output_type = OutputType.CONTINUOUS

    def __init__(
        self, name: str, range: tuple[float, float] = (0, 1), prompt: str = "", **options: Any
    ) -> None:
        self.range = check_range(range, f"NumericMetric {name!r}")
        super().__init__(name, prompt, **options)

    async def judge(self, task: str, sample: Any, ctx: ScoringContext) -> MetricResult:
        lowest, highest = self.range
        data = NumberTask(task=task, lowest=lowest, highest=highest)
        answers = await ask_votes(NumberPrompt(), data, ctx, self.stage, self.strictness)
        if isinstance(answers, MetricResult):
            return answers
        value, share = median_vote([a.value for a in answers])
        reason = next(a.reason for a in answers if a.value == value)
        trace = {
            "agreement": share,
            "votes": [a.value for a in answers],
            "reasons": [a.reason for a in answers],
        }
        return MetricResult(
            value, f"{value:g} of {lowest:g}-{highest:g}: {reason}{vote_note(share, self.strictness)}", trace
        )


class RankingMetric(PromptMetric):
    """The judge orders the sample's ``items`` list (``multi_responses`` by default) best first.

    The score is the share of item pairs the judge orders as they are listed (Kendall's tau mapped to
    0-1): 1.0 when the list was already best first, 0.0 when it was exactly reversed. The ranking itself
    (item numbers from 1, best first) is in the trace. Fewer than two items: NaN, nothing to order.
    """

    kind = "ranking"
    settings = ("items",)
    output_type = OutputType.RANKING
    need_placeholder = False  # the items are shown to the judge anyway

    def __init__(
        self, name: str, prompt: str = "", *, items: str = "multi_responses", **options: Any
    ) -> None:
        owner = f"RankingMetric {name!r}"
        if items not in LIST_FIELDS:
            if isinstance(items, str) and items not in SAMPLE_FIELDS:
                raise unknown_field(items, owner, "items")
            raise ConfigError(
                f"{owner}: items must name a list field ({', '.join(LIST_FIELDS)}), got {items!r}"
            )
        if options.get("strictness", 1) != 1:
            raise ConfigError(f"{owner}: strictness must be 1 (rankings are not put to a vote)")
        self.items = items
        super().__init__(name, prompt, **options)
        self.columns = tuple(dict.fromkeys([*self.fields, items]))

    async def judge(self, task: str, sample: Any, ctx: ScoringContext) -> MetricResult:
        texts = list(getattr(sample, self.items) or [])
        if len(texts) < 2:
            return MetricResult.nan(f"{self.items} holds {len(texts)} item(s): nothing to rank")
        data = RankingTask(task=task, items={str(i): text for i, text in enumerate(texts, 1)})
        answers = await ask_votes(RankingPrompt(), data, ctx, self.stage, 1)
        if isinstance(answers, MetricResult):
            return answers
        (answer,) = answers
        order = answer.ranking
        position = {item: place for place, item in enumerate(order)}
        pairs = [(a, b) for a in range(1, len(texts) + 1) for b in range(a + 1, len(texts) + 1)]
        kept = sum(position[a] < position[b] for a, b in pairs)
        trace = {"ranking": order, "first_item_place": position[1] + 1}
        reason = f"ranked {order} (best first); {kept} of {len(pairs)} pairs as listed: {answer.reason}"
        return MetricResult(kept / len(pairs), reason, trace)


KINDS: dict[str, type[PromptMetric]] = {
    cls.kind: cls for cls in (DiscreteMetric, NumericMetric, RankingMetric)
}


def load_metric(path: str | Path, **options: Any) -> PromptMetric:
    """A prompt metric saved with ``save``; ``options`` (llm=, embeddings=) are passed to it. Every
    problem names the file and the field."""
    source = Path(path)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{source}: no such metric file") from exc
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{source}: not a metric file ({exc})") from exc
    if not isinstance(data, dict) or FORMAT_KEY not in data:
        raise ConfigError(
            f"{source}: not a groundset metric file (no {FORMAT_KEY!r} field); "
            "write one with metric.save(path)"
        )
    version = data[FORMAT_KEY]
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= FORMAT_VERSION:
        raise ConfigError(
            f"{source}: field {FORMAT_KEY!r} is {version!r}; this groundset reads format {FORMAT_VERSION} "
            "(a newer groundset wrote it? upgrade)"
        )
    kind = data.get("kind")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ConfigError(f"{source}: field 'kind' must be one of {', '.join(KINDS)}, got {kind!r}")
    known = {FORMAT_KEY, "kind", "name", "prompt", "strictness", *cls.settings}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(
            f"{source}: unknown field(s) {', '.join(map(repr, unknown))} for kind {kind!r}; "
            f"known: {', '.join(sorted(known))}"
        )
    missing = [key for key in ("name", "prompt") if key not in data]
    if missing:
        raise ConfigError(f"{source}: field {missing[0]!r} is missing")
    arguments = {k: v for k, v in data.items() if k not in (FORMAT_KEY, "kind") and v is not None}
    if isinstance(arguments.get("range"), list):
        arguments["range"] = tuple(arguments["range"])
    try:
        return cls(**{**arguments, **options})
    except ValueError as exc:  # ConfigError included: the constructors name the field
        raise ConfigError(f"{source}: {exc}") from exc
