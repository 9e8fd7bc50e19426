"""Tool-call metrics: did the agent call the tools the reference expects, with the expected arguments?

Both read the calls of the conversation's AI messages, in order, and compare them with the sample's
``reference_tool_calls``; no model is involved, so they run the same offline. Call ids are ignored: they
are the agent's bookkeeping, not its behaviour.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz

from ...samples.evaluation import MultiTurnSample
from ...samples.messages import ToolCallSpec, tool_calls_made
from ..metric import MetricResult, ScoringContext
from .agents import ConversationMetric

ArgComparison = Callable[[Any, Any], float]
NOTHING_TO_JUDGE = "no reference tool calls and no tool calls made: nothing to judge"


def canonical(value: Any) -> Any:
    """A value as compared: tuples as lists, integral floats as ints (1.0 == 1, as in JSON); booleans
    stay booleans (true != 1)."""
    if isinstance(value, Mapping):
        return {str(key): canonical(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [canonical(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def canonical_json(value: Any) -> str:
    """One spelling per value: JSON with sorted keys, so argument order and 1 vs 1.0 do not matter."""
    return json.dumps(
        canonical(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str
    )


def exact_match(expected: Any, actual: Any) -> float:
    """1.0 when the two values are equal as JSON (keys in any order, 1 == 1.0, true != 1), else 0.0."""
    return 1.0 if canonical_json(expected) == canonical_json(actual) else 0.0


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else canonical_json(value)


def string_similarity(expected: Any, actual: Any) -> float:
    """Normalised Indel similarity of the two values as text (case and surrounding spaces ignored), in
    0..1: "Oslo" vs "Olso" is 0.75. Non-strings are compared as their JSON text, so 3 vs "3" is 1.0."""
    left, right = _as_text(expected).strip().casefold(), _as_text(actual).strip().casefold()
    if not left and not right:
        return 1.0
    return fuzz.ratio(left, right) / 100.0


COMPARISONS: dict[str, ArgComparison] = {"exact": exact_match, "string_similarity": string_similarity}


def _comparison(value: str | ArgComparison) -> ArgComparison:
    if callable(value):
        return value
    if value not in COMPARISONS:
        raise ValueError(
            f"tool_call_accuracy: arg_comparison must be one of {', '.join(COMPARISONS)} or a function "
            f"(expected, actual) -> float in [0, 1], got {value!r}"
        )
    return COMPARISONS[value]


def argument_score(
    expected: Mapping[str, Any], actual: Mapping[str, Any], compare: ArgComparison, tool: str = ""
) -> float:
    """Mean of ``compare(expected value, actual value)`` over the reference's arguments; an argument the
    call lacks scores 0, one the reference does not name is not counted. 1.0 when the reference has no
    arguments (nothing was required)."""
    if not expected:
        return 1.0
    total = 0.0
    for key, value in expected.items():
        if key not in actual:
            continue
        score = compare(value, actual[key])
        if isinstance(score, bool) or not isinstance(score, int | float) or not 0.0 <= score <= 1.0:
            raise ValueError(
                f"tool_call_accuracy: arg_comparison returned {score!r} for argument {key!r} of {tool!r}; "
                "it must return a number in [0, 1]"
            )
        total += float(score)
    return total / len(expected)


Pair = tuple[int, int, float]  # (reference index, index among the calls made, argument score)
# Argument scores of every same-name (reference, made) pair; None where the names differ.
Scores = list[list[float | None]]


def pair_scores(
    reference: Sequence[ToolCallSpec], made: Sequence[ToolCallSpec], compare: ArgComparison
) -> Scores:
    return [
        [
            argument_score(ref["args"], call["args"], compare, ref["name"])
            if ref["name"] == call["name"]
            else None
            for call in made
        ]
        for ref in reference
    ]


def align_in_order(scores: Scores) -> list[Pair]:
    """The order-preserving pairing of same-name calls (a longest common subsequence over tool names)
    with the largest total argument score; among those, the one with the most pairs."""
    m, n = len(scores), len(scores[0]) if scores else 0
    best = [[(0.0, 0)] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            options = [best[i - 1][j], best[i][j - 1]]
            score = scores[i - 1][j - 1]
            if score is not None:
                total, count = best[i - 1][j - 1]
                options.append((total + score, count + 1))
            best[i][j] = max(options)
    pairs: list[Pair] = []
    i, j = m, n
    while i and j:  # walk back: a cell not reached by skipping a call was reached by pairing two
        if best[i][j] == best[i - 1][j]:
            i -= 1
        elif best[i][j] == best[i][j - 1]:
            j -= 1
        else:
            pairs.append((i - 1, j - 1, scores[i - 1][j - 1] or 0.0))
            i, j = i - 1, j - 1
    return pairs[::-1]


def align_any_order(scores: Scores) -> list[Pair]:
    """The pairing of same-name calls, in any order, with the largest total argument score (an optimal
    assignment); among those, the one with the most pairs."""
    from scipy.optimize import linear_sum_assignment

    tie_break = 1e-9  # a pair is worth a hair more than none, so a same-name pair scoring 0 still pairs
    weight = [[0.0 if s is None else s + tie_break for s in row] for row in scores]
    rows, cols = linear_sum_assignment(weight, maximize=True)
    return [
        (int(i), int(j), score)
        for i, j in zip(rows, cols, strict=True)
        if (score := scores[i][j]) is not None
    ]


class ToolCallAccuracy(ConversationMetric):
    """How closely the tool calls made follow the reference calls, order and arguments included.

    Pairs are same-name calls: with ``strict_order`` (the default) an order-preserving alignment (a
    longest common subsequence over tool names), else any pairing (an optimal assignment); either way
    the one with the largest total argument score. A pair's argument score is the mean, over the
    reference call's arguments, of ``arg_comparison(expected, actual)`` (a missing argument 0, extra
    arguments free; "exact" equality by default, "string_similarity" or your own function)::

        score = sum of the pairs' argument scores / max(reference calls, calls made)

    i.e. mean argument score x pairs / max(reference calls, calls made): extra calls and missing calls
    both cost. NaN when neither side has a call (nothing to judge); 0 when only one side has calls.
    """

    name = "tool_call_accuracy"
    columns = ("user_input", "reference_tool_calls")

    def __init__(
        self, *, strict_order: bool = True, arg_comparison: str | ArgComparison = "exact", **options: Any
    ) -> None:
        super().__init__(**options)
        if not isinstance(strict_order, bool):
            raise ValueError(f"tool_call_accuracy: strict_order must be true or false, got {strict_order!r}")
        self.strict_order = strict_order
        self.arg_comparison = _comparison(arg_comparison)

    async def _ascore(self, sample: MultiTurnSample, ctx: ScoringContext) -> MetricResult:
        reference = list(sample.reference_tool_calls or [])
        made = tool_calls_made(sample.user_input)
        if not reference and not made:
            return MetricResult.nan(NOTHING_TO_JUDGE)
        trace: dict[str, Any] = {"made": made, "strict_order": self.strict_order}
        if not made:
            return MetricResult(0.0, f"no tool call made; the reference expects {len(reference)}", trace)
        if not reference:
            return MetricResult(0.0, f"{len(made)} tool call(s) made; the reference expects none", trace)
        align = align_in_order if self.strict_order else align_any_order
        pairs = align(pair_scores(reference, made, self.arg_comparison))
        total = sum(score for _, _, score in pairs)
        value = total / max(len(reference), len(made))
        paired_ref, paired_made = {i for i, _, _ in pairs}, {j for _, j, _ in pairs}
        trace.update(
            pairs=[{"reference": i, "made": j, "name": made[j]["name"], "arg_score": s} for i, j, s in pairs],
            missing=[i for i in range(len(reference)) if i not in paired_ref],
            extra=[j for j in range(len(made)) if j not in paired_made],
        )
        order = "in order" if self.strict_order else "in any order"
        mean = f"mean argument score {total / len(pairs):.2f}" if pairs else "no pair"
        reason = (
            f"{len(pairs)} of {len(reference)} reference calls matched {order} by the {len(made)} made; "
            f"{mean}; {total:.2f} / max({len(reference)}, {len(made)}) = {value:.2f}"
        )
        return MetricResult(value, reason, trace)

    def __repr__(self) -> str:
        compare = getattr(self.arg_comparison, "__name__", repr(self.arg_comparison))
        return f"ToolCallAccuracy(strict_order={self.strict_order}, arg_comparison={compare})"


class ToolCallF1(ConversationMetric):
    """F1 of the calls made against the reference calls, each a (name, arguments) pair, as sets.

    Arguments are compared as canonical JSON (sorted keys, 1 == 1.0), order is ignored and a call made
    twice counts once. With TP the calls on both sides::

        precision = TP / calls made, recall = TP / reference calls, F1 = 2 TP / (calls made + reference)

    NaN when neither side has a call (nothing to judge).
    """

    name = "tool_call_f1"
    columns = ("user_input", "reference_tool_calls")

    async def _ascore(self, sample: MultiTurnSample, ctx: ScoringContext) -> MetricResult:
        reference = {_key(call) for call in sample.reference_tool_calls or []}
        made = {_key(call) for call in tool_calls_made(sample.user_input)}
        if not reference and not made:
            return MetricResult.nan(NOTHING_TO_JUDGE)
        both = reference & made
        precision = len(both) / len(made) if made else None  # None: undefined (no call on that side)
        recall = len(both) / len(reference) if reference else None
        value = 2 * len(both) / (len(made) + len(reference))
        trace = {
            "precision": precision,
            "recall": recall,
            "matched": sorted(_show(k) for k in both),
            "extra": sorted(_show(k) for k in made - reference),
            "missing": sorted(_show(k) for k in reference - made),
        }
        reason = (
            f"{len(both)} of {len(made)} distinct calls made are in the reference, {len(both)} of "
            f"{len(reference)} reference calls were made"
        )
        return MetricResult(value, reason, trace)


def _key(call: ToolCallSpec) -> tuple[str, str]:
    return call["name"], canonical_json(call["args"])


def _show(key: tuple[str, str]) -> str:
    return f"{key[0]}({key[1]})"
