"""Score thresholds inside your own test suite (pytest or any runner that treats AssertionError as a failure).

    from groundset.scoring.score_rag import score_rag
    from groundset.testing import assert_scores

    def test_my_rag_is_grounded():
        result = score_rag("testset.jsonl", my_rag.answer)
        assert_scores(result, faithfulness=0.8, context_recall=0.7)

One assertion names every metric under its bar, with its mean and 95% CI, so a red test says
what to look at without opening the run. Questions the target failed on count against the bar (see
``max_target_errors``), as they do for ``groundset score --fail-under``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from .scoring.compare import compare_runs
from .scoring.result import EvaluationResult
from .scoring.run_judges import JudgesDiffer
from .scoring.thresholds import below_thresholds, check_known, gate_failures

__all__ = ["assert_no_regression", "assert_scores"]


def assert_scores(
    result: EvaluationResult | str | Path, *, max_target_errors: int = 0, **thresholds: float
) -> None:
    """Fail when a metric's mean is below its threshold, or when it has no score at all; and when the
    target failed on more than ``max_target_errors`` questions (a failed question has no score, so the
    means leave it out: without this, a system that is down would pass on the few rows it answered)."""
    run = _run(result)
    if not thresholds:
        raise ValueError("assert_scores: give at least one metric=threshold, e.g. faithfulness=0.8")
    check_known(thresholds, run.metrics, option="assert_scores")
    aggregate = run.aggregate()
    lines = [
        f"{line}{_ci(aggregate[line.split(':')[0]])}"
        for line in below_thresholds(aggregate, thresholds, run.lower_is_better)
    ]
    lines += gate_failures(run, {}, max_target_errors=max_target_errors, option="max_target_errors")
    if lines:
        raise AssertionError("the run fails its thresholds:\n  " + "\n  ".join(lines))


def assert_no_regression(
    before: EvaluationResult | str | Path,
    after: EvaluationResult | str | Path,
    *,
    max_new_target_errors: int = 0,
    strict: bool = False,
    **deltas: float,
) -> None:
    """Fail when a metric got worse from ``before`` to ``after`` by more than its delta, with 95%
    confidence (the paired bootstrap CI of the difference lies entirely below -delta), or when the target
    of ``after`` failed on more than ``max_new_target_errors`` questions ``before`` answered.

    A metric the two runs had judged by different models is not checked (a ``JudgesDifferWarning``
    says so); ``strict=True`` fails instead, as it does when a run does not record its judges."""
    if not deltas:
        raise ValueError("assert_no_regression: give at least one metric=delta, e.g. faithfulness=0.05")
    try:
        comparison = compare_runs(_run(before), _run(after), strict=strict)
    except JudgesDiffer as exc:
        raise AssertionError(str(exc)) from None
    regressions = comparison.regressions(deltas, max_new_target_errors=max_new_target_errors)
    if regressions:
        raise AssertionError("regressions:\n  " + "\n  ".join(regressions))


def _run(value: EvaluationResult | str | Path) -> EvaluationResult:
    if isinstance(value, EvaluationResult):
        return value
    if isinstance(value, str | Path):
        return EvaluationResult.load(value)
    raise TypeError(f"expected an EvaluationResult or a run file path, got {type(value).__name__}")


def _ci(aggregate: dict[str, Any]) -> str:
    low, high = aggregate["ci_low"], aggregate["ci_high"]
    shown = "" if math.isnan(low) else f" (95% CI {low:.3f} - {high:.3f}"
    return f"{shown}, n={aggregate['n']})" if shown else f" (n={aggregate['n']})"
