"""Compare two scoring runs sample by sample: did run B really do better or worse than run A?

Two runs of the same test set share their questions, so each score in B has a partner in A. The
paired difference removes the spread between easy and hard questions, and its bootstrap interval
says whether a change is more than noise; a CI gate can then fail on a real regression only. A question
run B's target failed on (and run A's answered) is a regression of its own, since it has no score to
pair; and a metric the two runs had judged by different models is not compared as if they were alike.
"""

from __future__ import annotations

import json
import math
import warnings
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.errors import ConfigError
from ..samples.evaluation import MultiTurnSample, message_to_dict
from .formulas import paired_bootstrap_diff
from .result import EvaluationResult
from .run_judges import JudgesDiffer, JudgesDifferWarning, judge_differences, judge_notes, judges_problem
from .thresholds import check_allowance, lower_is_better

NAN = float("nan")
# Score differences smaller than this are float noise, not a change: they count as ties.
TIE_TOLERANCE = 1e-9
LISTED_IDS = 5  # sample ids named in a line about newly failed questions


@dataclass
class MetricComparison:
    """One metric over the sample pairs where both runs have a score."""

    metric: str
    n: int
    mean_a: float
    mean_b: float
    diff: float  # mean of (b - a)
    ci_low: float  # paired bootstrap CI of diff; NaN below MIN_CI_SAMPLES pairs
    ci_high: float
    wins: int  # b > a
    ties: int
    losses: int  # b < a


@dataclass
class SampleChange:
    """One paired sample whose score moved, with what was asked and both answers, to read why."""

    sample_id: str
    metric: str
    a: float
    b: float
    delta: float  # b - a
    user_input: str
    response_a: str
    response_b: str


@dataclass
class RunComparison:
    """Run B against run A: per-metric paired differences, the largest changes, and what did not pair."""

    label_a: str
    label_b: str
    target_a: str
    target_b: str
    paired: int
    only_a: int
    only_b: int
    metrics: dict[str, MetricComparison]
    changes: list[SampleChange]  # per metric the largest |delta| first
    notes: list[str] = field(default_factory=list)
    confidence: float = 0.95  # of every ci_low/ci_high
    target_errors_a: int = 0  # questions each run's target failed on (0 for a run of a finished dataset)
    target_errors_b: int = 0
    newly_failed: list[str] = field(default_factory=list)  # pairs whose question A answered and B failed
    judges_differ: dict[str, str] = field(default_factory=dict)  # metric -> how its judges differ
    # "A" / "B" -> the metrics a model may have judged in a run that does not record who did (old files)
    judges_unknown: dict[str, list[str]] = field(default_factory=dict)
    # The metrics where a lower score is the better one, as the runs recorded them (None: by registered name).
    lower_better: frozenset[str] | None = None

    def report(self, path: str | Path, *, title: str | None = None) -> Path:
        """Write a self-contained HTML report of this comparison to ``path``."""
        from .report import write_comparison_report

        return write_comparison_report(self, path, title=title)

    def lower_is_better(self, metric: str) -> bool:
        return lower_is_better(metric) if self.lower_better is None else metric in self.lower_better

    def verdict(self, metric: str) -> str:
        """ "better" / "worse" when the whole CI lies on one side of 0, else "no clear change";
        "too few pairs" when there is no CI. Mirrored for metrics where lower is better."""
        row = self._row(metric)
        if metric in self.judges_differ:
            return "judges differ"
        if math.isnan(row.ci_low) or math.isnan(row.ci_high):
            return "too few pairs"
        sign = -1 if self.lower_is_better(metric) else 1
        if sign * row.ci_low > 0 and sign * row.ci_high > 0:
            return "better"
        if sign * row.ci_low < 0 and sign * row.ci_high < 0:
            return "worse"
        return "no clear change"

    def regressions(self, thresholds: Mapping[str, float], *, max_new_target_errors: int = 0) -> list[str]:
        """One line per metric whose whole CI of the change lies beyond its allowed drop ``delta``, and
        one when run B's target failed on more than ``max_new_target_errors`` questions run A answered.

        Requiring the whole interval (not just the mean) past the bar keeps a CI gate from failing on
        noise. A metric without a CI (too few pairs) is never a regression; check ``ci_low`` for NaN
        to warn about it. Nor is a metric the runs had judged by different models (``judges_differ``):
        its change may be the judge's; ``compare_runs(strict=True)`` refuses such runs instead.
        """
        check_allowance(max_new_target_errors, "max_new_target_errors")
        unknown = [name for name in thresholds if name not in self.metrics]
        if unknown:
            compared = ", ".join(self.metrics) or "none"
            raise ConfigError(
                f"--fail-on-regression: {', '.join(unknown)} not scored in both runs; "
                f"compared metrics: {compared}"
            )
        failures = []
        for name, delta in thresholds.items():
            if not math.isfinite(delta) or delta < 0:
                raise ConfigError(
                    f"--fail-on-regression: {name}={delta:g}: the allowed drop must be a number >= 0"
                )
            row = self.metrics[name]
            if math.isnan(row.ci_low) or math.isnan(row.ci_high) or name in self.judges_differ:
                continue
            ci = f"{self.confidence:.0%} CI {row.ci_low:.3f} to {row.ci_high:.3f}"
            if self.lower_is_better(name):
                if row.ci_low > delta:
                    failures.append(
                        f"{name}: {row.diff:+.3f} ({ci}) lies entirely above {delta:+g} (lower is better)"
                    )
            elif row.ci_high < -delta:
                bar = -delta or 0.0  # no "-0" for a zero threshold
                failures.append(f"{name}: {row.diff:+.3f} ({ci}) lies entirely below {bar:g}")
        if len(self.newly_failed) > max_new_target_errors:
            failures.append(
                f"target: failed on {len(self.newly_failed)} questions run A answered "
                f"({_listed(self.newly_failed)}), more than the {max_new_target_errors} allowed"
            )
        return failures

    def _row(self, metric: str) -> MetricComparison:
        if metric not in self.metrics:
            raise ConfigError(f"{metric} not compared; compared metrics: {', '.join(self.metrics) or 'none'}")
        return self.metrics[metric]


def compare_runs(
    run_a: EvaluationResult | str | Path,
    run_b: EvaluationResult | str | Path,
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    top: int = 10,
    label_a: str | None = None,
    label_b: str | None = None,
    strict: bool = False,
) -> RunComparison:
    """Compare run B with run A (each an EvaluationResult or a run file written by ``to_jsonl``).

    Samples pair by test-set id (``metadata["id"]``) when every sample of both runs has one. Else
    (e.g. a user's own dataset without ids) they pair by question text, with surrounding whitespace
    ignored; a question asked several times pairs in order of appearance, first with first. Only
    metrics scored in both runs are compared, in run A's order; what did not pair or compare is
    listed in ``notes``. Raises ConfigError when not a single sample pairs.

    Each run records which models judged each metric (``EvaluationResult.judges``). A compared metric
    judged by different models in A and B is listed in ``judges_differ``, noted, warned about
    (``JudgesDifferWarning``) and left out of ``regressions``; with ``strict=True`` it raises
    ``JudgesDiffer`` (a ConfigError) instead, as it does when a run (an older run file) does not say
    who judged a metric some model may judge.
    """
    if top < 0:
        raise ValueError(f"top must be >= 0, got {top}")
    result_a, result_b = _load(run_a), _load(run_b)
    default_a, default_b = _default_labels(run_a, run_b, result_a, result_b)
    label_a, label_b = label_a or default_a, label_b or default_b
    pairs, by_id, notes = pair_samples(result_a, result_b)
    if not pairs:
        how = "sample id" if by_id else "question text"
        raise ConfigError(
            f"no sample of {label_a} ({_samples(len(result_a.cells))}) pairs with one of {label_b} "
            f"({_samples(len(result_b.cells))}) by {how}; compare two runs of the same test set"
        )
    only_a, only_b = len(result_a.cells) - len(pairs), len(result_b.cells) - len(pairs)
    for count, this, other in ((only_a, "A", "B"), (only_b, "B", "A")):
        if count:
            verb = "has" if count == 1 else "have"
            notes.append(f"{_samples(count)} of run {this} {verb} no partner in run {other}")
    names = [m for m in result_a.metrics if m in result_b.metrics]
    notes += [f"{m} only in run A" for m in result_a.metrics if m not in result_b.metrics]
    notes += [f"{m} only in run B" for m in result_b.metrics if m not in result_a.metrics]
    lower = frozenset(m for m in names if result_a.lower_is_better(m) or result_b.lower_is_better(m))
    for name in (m for m in names if m in lower):
        notes.append(f"{name}: lower is better; the verdict and the regression gate read a fall as a gain")
    differ, unknown = judge_differences(result_a, result_b, names)
    if strict and (differ or unknown):
        raise JudgesDiffer(judges_problem(differ, unknown))
    notes += judge_notes(differ, unknown)
    if differ:
        warnings.warn(JudgesDifferWarning(judges_problem(differ, {})), stacklevel=2)
    errors_a, errors_b = _failed_rows(result_a), _failed_rows(result_b)
    ids_a, ids_b = result_a.sample_ids(), result_b.sample_ids()
    newly_failed = [_pair_label(ids_a, ids_b, i, j) for i, j in pairs if errors_b[j] and not errors_a[i]]
    if any(errors_a) or any(errors_b):
        fixed = sum(errors_a[i] and not errors_b[j] for i, j in pairs)
        notes.append(_target_failures_note(sum(errors_a), sum(errors_b), len(newly_failed), fixed))
    metrics, changes = {}, []
    for name in names:
        va = np.array([_value(result_a, i, name) for i, _ in pairs], dtype=np.float64)
        vb = np.array([_value(result_b, j, name) for _, j in pairs], dtype=np.float64)
        metrics[name] = _metric(name, va, vb, confidence, resamples, seed)
        if metrics[name].n == 0:
            notes.append(f"{name}: no sample pair where both runs have a score")
        changes += _changes(name, va, vb, pairs, result_a, result_b, top)
    return RunComparison(
        label_a,
        label_b,
        result_a.target,
        result_b.target,
        len(pairs),
        only_a,
        only_b,
        metrics,
        changes,
        notes,
        confidence,
        sum(errors_a),
        sum(errors_b),
        newly_failed,
        differ,
        unknown,
        lower,
    )


def _target_failures_note(failed_a: int, failed_b: int, newly: int, fixed: int) -> str:
    """Each run's target failures, and how many questions one answered the other failed on (a question
    B newly fails has no score to pair, so no metric shows it; the regression gate counts it)."""
    questions = f"{newly} question{'s' * (newly != 1)}"
    note = f"target failures: A {failed_a}, B {failed_b} ({questions} A answered failed in B"
    return note + (f", {fixed} A failed on answered in B)" if fixed else ")")


def _failed_rows(result: EvaluationResult) -> list[bool]:
    """Per row, whether the target failed on its question (all False for a run without a target)."""
    if result.target_calls is None:
        return [False] * len(result.cells)
    return [bool(call.error) for call in result.target_calls]


def _pair_label(ids_a: Sequence[str | None], ids_b: Sequence[str | None], i: int, j: int) -> str:
    """A pair's name: its test-set id, else its row in run A."""
    return ids_a[i] or ids_b[j] or f"A row {i + 1}"


def _listed(labels: Sequence[str]) -> str:
    shown = ", ".join(labels[:LISTED_IDS])
    return shown + (", ..." if len(labels) > LISTED_IDS else "")


def pair_samples(a: EvaluationResult, b: EvaluationResult) -> tuple[list[tuple[int, int]], bool, list[str]]:
    """(index in A, index in B) of every pair in A's order; whether they paired by id; notes on how."""
    ids_a, ids_b = a.sample_ids(), b.sample_ids()
    notes = []
    keys_a: Sequence[str | None]
    keys_b: Sequence[str | None]
    by_id = all(ids_a) and all(ids_b)
    if by_id:
        keys_a, keys_b = ids_a, ids_b
        for label, ids in (("A", ids_a), ("B", ids_b)):
            repeated = len(ids) - len(set(ids))
            if repeated:
                notes.append(f"run {label} repeats {repeated} sample id(s); they pair in order of appearance")
    else:
        keys_a = [_question_key(sample) for sample in a.dataset]
        keys_b = [_question_key(sample) for sample in b.dataset]
        without = [label for label, ids in (("A", ids_a), ("B", ids_b)) if not all(ids)]
        runs = f"run {without[0]} has" if len(without) == 1 else "runs A and B have"
        notes.append(f"paired by question text: {runs} samples without an id (metadata.id)")
    queues: dict[str, deque[int]] = {}
    for j, key in enumerate(keys_b):
        if key is not None:
            queues.setdefault(key, deque()).append(j)
    pairs = []
    for i, key in enumerate(keys_a):
        queue = queues.get(key) if key is not None else None
        if queue:
            pairs.append((i, queue.popleft()))
    return pairs, by_id, notes


def _metric(
    name: str, va: np.ndarray, vb: np.ndarray, confidence: float, resamples: int, seed: int
) -> MetricComparison:
    both = ~(np.isnan(va) | np.isnan(vb))
    n = int(both.sum())
    diff, low, high = paired_bootstrap_diff(va, vb, confidence=confidence, resamples=resamples, seed=seed)
    deltas = vb[both] - va[both]
    wins, losses = int((deltas > TIE_TOLERANCE).sum()), int((deltas < -TIE_TOLERANCE).sum())
    mean_a = float(va[both].mean()) if n else NAN
    mean_b = float(vb[both].mean()) if n else NAN
    return MetricComparison(name, n, mean_a, mean_b, diff, low, high, wins, n - wins - losses, losses)


def _changes(
    name: str,
    va: np.ndarray,
    vb: np.ndarray,
    pairs: list[tuple[int, int]],
    a: EvaluationResult,
    b: EvaluationResult,
    top: int,
) -> list[SampleChange]:
    """The ``top`` pairs with the largest |b - a| (ties beyond the tolerance left out), largest first."""
    moved = [
        (k, float(vb[k] - va[k]))
        for k in range(len(pairs))
        if not (math.isnan(va[k]) or math.isnan(vb[k])) and abs(vb[k] - va[k]) > TIE_TOLERANCE
    ]
    moved.sort(key=lambda item: -abs(item[1]))
    ids_a, ids_b = a.sample_ids(), b.sample_ids()
    changes = []
    for k, delta in moved[:top]:
        i, j = pairs[k]
        sample_a, sample_b = a.dataset[i], b.dataset[j]
        changes.append(
            SampleChange(
                _pair_label(ids_a, ids_b, i, j),
                name,
                float(va[k]),
                float(vb[k]),
                delta,
                _question_text(sample_a),
                _response_text(sample_a),
                _response_text(sample_b),
            )
        )
    return changes


def _value(result: EvaluationResult, index: int, metric: str) -> float:
    cell = result.cells[index].get(metric)
    return NAN if cell is None else float(cell.value)


def _question_key(sample: object) -> str | None:
    """What identifies a question without an id: its text, or a conversation's messages as JSON."""
    if isinstance(sample, MultiTurnSample):
        return json.dumps([message_to_dict(m) for m in sample.user_input], sort_keys=True, default=str)
    text = getattr(sample, "user_input", None)
    if not isinstance(text, str) or not text.strip():
        return None
    return text.strip()


def _question_text(sample: object) -> str:
    if isinstance(sample, MultiTurnSample):
        human = [m for m in sample.user_input if m.type == "human"]
        return str(human[0].content) if human else ""
    return getattr(sample, "user_input", None) or ""


def _response_text(sample: object) -> str:
    """The answer: a single-turn response, or a conversation's last AI message."""
    if isinstance(sample, MultiTurnSample):
        replies = [m for m in sample.user_input if m.type == "ai"]
        return str(replies[-1].content) if replies else ""
    return getattr(sample, "response", None) or ""


def _samples(count: int) -> str:
    return f"{count} sample{'s' * (count != 1)}"


def _load(run: EvaluationResult | str | Path) -> EvaluationResult:
    return run if isinstance(run, EvaluationResult) else EvaluationResult.load(run)


def _default_labels(
    run_a: object, run_b: object, result_a: EvaluationResult, result_b: EvaluationResult
) -> tuple[str, str]:
    """File names; for in-memory runs the target's name ("A"/"B" without one or when both share it);
    whole paths when both files share a name."""
    names = [Path(run).name if isinstance(run, str | Path) else None for run in (run_a, run_b)]
    if names[0] and names[0] == names[1]:
        names = [str(run_a), str(run_b)]
    targets = [result_a.target, result_b.target]
    if targets[0] == targets[1]:
        targets = ["", ""]
    return names[0] or targets[0] or "A", names[1] or targets[1] or "B"
