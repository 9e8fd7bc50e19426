"""Score thresholds for CI: parse ``metric=value`` lists and name every metric that misses its bar.

One parser serves ``--fail-under``, ``--fail-on-regression`` and ``groundset.testing``, so a
threshold means the same thing on the command line and inside a user's own test suite. A gate also
counts the questions the target failed on: their rows have no score, so a mean over the rest would
let a system that is down pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..core.errors import ConfigError


def parse_thresholds(text: str, *, option: str = "--fail-under") -> dict[str, float]:
    """``"faithfulness=0.8,context_recall=0.7"`` -> ``{"faithfulness": 0.8, "context_recall": 0.7}``."""
    thresholds: dict[str, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, value = (s.strip() for s in part.partition("="))
        if not sep or not name or not value:
            raise ConfigError(f"{option}: {part!r} is not metric=value (e.g. faithfulness=0.8)")
        try:
            number = float(value)
        except ValueError:
            raise ConfigError(f"{option}: {name}={value!r}: the value must be a number") from None
        if not math.isfinite(number):
            raise ConfigError(f"{option}: {name}={value}: the value must be a finite number")
        if name in thresholds:
            raise ConfigError(f"{option}: {name} is given twice")
        thresholds[name] = number
    if not thresholds:
        raise ConfigError(f"{option}: no metric=value pair given")
    return thresholds


def check_known(
    thresholds: Mapping[str, float], metrics: Iterable[str], *, option: str, scored: bool = True
) -> None:
    """A threshold on a metric the run does not have is a typo, not a pass. ``scored=False``: ``metrics``
    are all the metrics there are (the check before a run)."""
    known = list(metrics)
    unknown = [name for name in thresholds if name not in known]
    if unknown:
        what = "not scored in this run; scored metrics" if scored else "unknown; known metrics"
        raise ConfigError(f"{option}: {', '.join(unknown)} {what}: {', '.join(known)}")


def lower_is_better(metric: str) -> bool:
    """True for a registered metric where a lower score is the better one (noise sensitivity, harmfulness);
    a run knows its own metrics' directions (``EvaluationResult.lower_is_better``)."""
    from .metrics import METRICS

    found = METRICS.get(metric)
    return found is not None and not found.higher_is_better


def below_thresholds(
    aggregate: Mapping[str, Mapping[str, Any]],
    thresholds: Mapping[str, float],
    lower: Callable[[str], bool] = lower_is_better,
) -> list[str]:
    """One line per metric whose mean misses its threshold (or has no score at all): under it, or
    over it for a metric where lower is better (``noise_sensitivity=0.2`` means at most 0.2; ``lower``
    tells which, e.g. a run's ``lower_is_better``)."""
    failures = []
    for name, bar in thresholds.items():
        mean = float(aggregate[name]["mean"])
        if math.isnan(mean):
            failures.append(f"{name}: no score (every sample NaN), needs {bar:g}")
        elif lower(name) and mean > bar:
            failures.append(f"{name}: {mean:.3f} > {bar:g} (lower is better)")
        elif not lower(name) and mean < bar:
            failures.append(f"{name}: {mean:.3f} < {bar:g}")
    return failures


def check_allowance(value: object, option: str) -> int:
    """An allowed number of failures: an integer >= 0 (a bool or a float is a mistake, not a count)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(f"{option} must be an integer >= 0, got {value!r}")
    return value


def gate_failures(
    result: Any, thresholds: Mapping[str, float], *, max_target_errors: int = 0, option: str
) -> list[str]:
    """Every reason ``result`` fails the gate: the metrics under their bars, then the target's failures
    when there are more than ``max_target_errors`` (``option`` names that allowance in the message)."""
    check_allowance(max_target_errors, option)
    failures = below_thresholds(result.aggregate(), thresholds, result.lower_is_better) if thresholds else []
    target = result.target_summary()
    if target and target["errors"] > max_target_errors:
        failures.append(
            f"target: failed on {target['errors']} of {target['calls']} questions, more than the "
            f"{max_target_errors} {option} allows (a failed question has no score, so the means leave it out)"
        )
    return failures


def target_allowance_line(result: Any, max_target_errors: int, option: str) -> str:
    """How many questions the target failed on and how many the gate allows ('' for a run without one)."""
    target = result.target_summary()
    if not target:
        return ""
    return (
        f"target failed on {target['errors']} of {target['calls']} questions, "
        f"{option} allows {max_target_errors}"
    )
