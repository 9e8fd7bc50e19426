"""Calibration: how well a metric's judge agrees with the user's own labels.

A mean score says nothing about whether the judge ranks answers as the user would. These figures do:
pairwise accuracy over labelled preferences and over scored samples, Spearman's rank correlation and,
for binary labels, Cohen's kappa, each with a seeded percentile-bootstrap CI that resamples items.

People's scores and preferences say how good an answer is. For a metric where lower is better
(``Metric.higher_is_better`` False: noise sensitivity, harmfulness, maliciousness) the judge agrees when
it scores the better answer lower, so its scores are read negated for every figure (kappa: a score at or
below the threshold counts as 1, good).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import stats

from ..core.errors import ConfigError
from ..core.records import finite_or_none, json_lines
from ..samples.dataset import EvaluationDataset, describe_locations
from ..samples.evaluation import MultiTurnSample, SingleTurnSample, kind, sample_from_row
from .evaluate import evaluate
from .formulas import MIN_CI_SAMPLES, bootstrap_interval
from .metric import Metric
from .result import Cell

logger = logging.getLogger(__name__)

Sample = SingleTurnSample | MultiTurnSample
Array = npt.NDArray[np.float64]
NAN = float("nan")
LABEL_KEY = "human_score"
PAIR_KEYS = ("better", "worse", "id")
# Notes for people beside a preference (how the pair was made, where its text is from): never read here.
PAIR_NOTES = ("kind", "better_kind", "made", "source", "corpus")
FORMAT = (
    'each line is a sample with "human_score": <number>, or a preference '
    '{"better": {sample}, "worse": {sample}} with an optional "id" (and optional notes: '
    + ", ".join(f'"{key}"' for key in PAIR_NOTES)
    + ")"
)
RESAMPLES = 2000
FIGURES = ("preference_accuracy", "pairwise_accuracy", "spearman", "kappa")


@dataclass(frozen=True)
class Pair:
    """A labelled preference: the user judged ``better`` the better answer of the two."""

    better: Sample
    worse: Sample
    where: str
    id: str = ""

    @property
    def name(self) -> str:
        return f"{self.where} (pair {self.id})" if self.id else self.where


@dataclass
class Labels:
    """Scored samples (with their human scores and lines) and preference pairs, as read from a file."""

    samples: list[Sample] = field(default_factory=list)
    human_scores: list[float] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    pairs: list[Pair] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.samples) + len(self.pairs)

    def dataset(self) -> EvaluationDataset:
        """Everything to score in one run: the scored samples, then every pair's better, then its worse."""
        samples = [*self.samples, *(p.better for p in self.pairs), *(p.worse for p in self.pairs)]
        locations = [*self.locations, *(p.where for p in self.pairs), *(p.where for p in self.pairs)]
        return EvaluationDataset(samples, locations=locations)


def load_labels(path: str | Path) -> Labels:
    """Read a JSONL label file; a ConfigError names the file, the line (from 1) and the field."""
    labels, renames, first = Labels(), {}, {}
    for number, record in json_lines(path, "labels"):
        where = f"{path} line {number}"
        for sample, place in _add(labels, record, where, renames):
            _check_kind(first, sample, place)
    if not len(labels):
        raise ConfigError(f"{path}: no labelled line; {FORMAT}")
    if renames:
        names = ", ".join(f"{old} -> {new}" for old, new in renames.items())
        logger.warning("%s: read legacy column names (%s); rename them to silence this notice", path, names)
    return labels


def _add(labels: Labels, record: object, where: str, renames: dict[str, str]) -> list[tuple[Sample, str]]:
    """Add one line's item to ``labels``; returns its samples with where each is, for the kind check."""
    if not isinstance(record, dict):
        raise ConfigError(f"{where}: expected a JSON object, got {kind(record)}; {FORMAT}")
    if "better" in record or "worse" in record:
        pair = _pair(record, where, renames)
        labels.pairs.append(pair)
        return [(pair.better, f"{where}: better"), (pair.worse, f"{where}: worse")]
    if LABEL_KEY not in record:
        raise ConfigError(f"{where}: no {LABEL_KEY!r} and no 'better'/'worse'; {FORMAT}")
    row = dict(record)
    score = _human_score(row.pop(LABEL_KEY), where)
    sample = sample_from_row(row, where, renames)
    labels.samples.append(sample)
    labels.human_scores.append(score)
    labels.locations.append(where)
    return [(sample, where)]


def _pair(record: dict[str, Any], where: str, renames: dict[str, str]) -> Pair:
    unknown = [key for key in record if key not in PAIR_KEYS + PAIR_NOTES]
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)} in a preference; {FORMAT}")
    missing = [side for side in ("better", "worse") if side not in record]
    if missing:
        raise ConfigError(f"{where}: a preference needs both 'better' and 'worse'; {missing[0]!r} is missing")
    pair_id = record.get("id", "")
    if pair_id is None or isinstance(pair_id, bool) or not isinstance(pair_id, str | int):
        raise ConfigError(f"{where}: id must be a string or a number, got {kind(pair_id)}")
    better, worse = (
        sample_from_row(record[side], f"{where}: {side}", renames) for side in ("better", "worse")
    )
    return Pair(better, worse, where, str(pair_id))


def _human_score(value: object, where: str) -> float:
    """A finite number on any scale; a boolean is refused (write 1 or 0) so the scale is explicit."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        shown = kind(value) if not isinstance(value, float) else str(value)
        raise ConfigError(f"{where}: {LABEL_KEY} must be a finite number (e.g. 0/1 or 1-5), got {shown}")
    return float(value)


def _check_kind(first: dict[str, Any], sample: Sample, where: str) -> None:
    """One run scores one kind of sample: single-turn or multi-turn, not both."""
    multi = isinstance(sample, MultiTurnSample)
    first_multi, first_where = first.setdefault("kind", (multi, where))
    if multi != first_multi:
        names = ("single-turn", "multi-turn")
        raise ConfigError(
            f"{where}: a {names[multi]} sample, but {first_where} is {names[first_multi]}; "
            "label one kind per file (multi-turn: user_input is a list of messages)"
        )


def check_columns(labels: Labels, metric: Metric) -> None:
    """Refuse, before any call, labels that lack a column the metric needs: name metric, column, lines."""
    dataset = labels.dataset()
    problems = []
    for column in metric.required():
        places = {dataset.locations[i] for i in dataset.missing(column)}
        if places:
            shown = describe_locations(sorted(places, key=lambda place: int(place.rpartition(" ")[2])))
            problems.append(f"metric {metric.name} needs column {column!r}, missing in {shown}")
    if problems:
        raise ConfigError("the labels cannot be scored as asked:\n  " + "\n  ".join(problems))


@dataclass(frozen=True)
class Figure:
    """One agreement figure with its bootstrap CI (NaN below MIN_CI_SAMPLES items) and item count."""

    value: float
    ci_low: float = NAN
    ci_high: float = NAN
    n: int = 0
    note: str = ""


@dataclass
class Agreement:
    """How well ``metric`` agrees with the labels; NaN-scored items are skipped and listed in ``skipped``."""

    metric: str
    preference_accuracy: Figure
    pairwise_accuracy: Figure
    spearman: Figure
    kappa: Figure
    items: int
    samples: int
    pairs: int
    skipped: list[str]
    threshold: float = 0.5
    confidence: float = 0.95
    note: str = ""
    usage: dict[str, dict[str, float]] = field(default_factory=dict)
    higher_is_better: bool = True

    def figures(self) -> dict[str, Figure]:
        return {name: getattr(self, name) for name in FIGURES}

    def to_dict(self) -> dict[str, Any]:
        """Strict-JSON-ready: a figure that cannot be computed is null, with its note beside it."""
        data = {key: value for key, value in asdict(self).items() if key not in self.figures()}
        data["figures"] = {name: asdict(figure) for name, figure in self.figures().items()}
        return finite_or_none(data)


def calibrate(
    labels: Labels,
    metric: Metric | str,
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: Any = None,
    threshold: float = 0.5,
    confidence: float = 0.95,
    seed: int = 0,
    **options: Any,
) -> Agreement:
    """Score every labelled sample (both sides of each pair) in one ``evaluate`` run, then compare.

    ``options`` go to ``evaluate`` (cache, max_concurrency, timeout, show_progress). For kappa a
    metric score at or above ``threshold`` counts as 1 (at or below, for a metric where lower is better).
    """
    metric = _as_metric(metric)
    check_columns(labels, metric)
    result = evaluate(labels.dataset(), [metric], llm=llm, embeddings=embeddings, engine=engine, **options)
    return agreement_of(labels, metric, result, threshold=threshold, confidence=confidence, seed=seed)


def agreement_of(
    labels: Labels,
    metric: Metric,
    result: Any,
    *,
    threshold: float = 0.5,
    confidence: float = 0.95,
    seed: int = 0,
) -> Agreement:
    """The figures of ``metric`` from an ``evaluate`` result over ``labels.dataset()`` (which may hold
    other metrics too): what ``calibrate`` reports, for callers that score several metrics in one run."""
    human, values, pairs, skipped = _split([row[metric.name] for row in result.cells], labels)
    interval = _Interval(confidence, seed)
    turn = 1.0 if metric.higher_is_better else -1.0  # read every score as people do: higher is better
    values, pairs = turn * values, turn * pairs
    return Agreement(
        metric.name,
        preference_figure(pairs, interval),
        pairwise_figure(human, values, interval),
        spearman_figure(human, values, interval),
        kappa_figure(human, values, turn * threshold, interval),
        items=len(labels),
        samples=len(labels.samples),
        pairs=len(labels.pairs),
        skipped=skipped,
        threshold=threshold,
        confidence=confidence,
        note=result.notes.get(metric.name, ""),
        usage=result.usage,
        higher_is_better=metric.higher_is_better,
    )


def _split(cells: list[Cell], labels: Labels) -> tuple[Array, Array, Array, list[str]]:
    """(human scores, metric scores) of the scored samples, (better, worse) rows of the pairs, both
    without NaN, and why each item with a NaN was skipped."""
    k, p = len(labels.samples), len(labels.pairs)
    scored, better, worse = cells[:k], cells[k : k + p], cells[k + p :]
    skipped = [
        f"{where}: NaN ({_why(c)})" for where, c in zip(labels.locations, scored, strict=True) if _nan(c)
    ]
    for pair, *sides in zip(labels.pairs, better, worse, strict=True):
        nan = [
            f"{side} NaN ({_why(c)})" for side, c in zip(("better", "worse"), sides, strict=True) if _nan(c)
        ]
        skipped += [f"{pair.name}: {'; '.join(nan)}"] if nan else []
    keep = [(labels.human_scores[i], c.value) for i, c in enumerate(scored) if not _nan(c)]
    rows = [(b.value, w.value) for b, w in zip(better, worse, strict=True) if not (_nan(b) or _nan(w))]
    human, values = np.array(keep, dtype=np.float64).reshape(-1, 2).T
    return human, values, np.array(rows, dtype=np.float64).reshape(-1, 2), skipped


def _as_metric(metric: Metric | str) -> Metric:
    if isinstance(metric, Metric):
        return metric
    from .metrics import metric_class

    try:
        return metric_class(metric)()
    except KeyError as exc:
        raise ConfigError(str(exc.args[0])) from None


def _nan(cell: Cell) -> bool:
    return math.isnan(cell.value)


def _why(cell: Cell) -> str:
    return cell.error or cell.reason or "no reason given"


# Figures. Each statistic takes an index matrix (rows: resamples of item positions) and returns one
# value per row, so the same code gives the point value (one row: every item once) and the interval.


@dataclass(frozen=True)
class _Interval:
    confidence: float = 0.95
    seed: int = 0

    def figure(self, statistic: Callable[[npt.NDArray[np.int64]], Array], n: int, note: str = "") -> Figure:
        """The value over all ``n`` items, and its ``bootstrap_interval`` from MIN_CI_SAMPLES items up,
        widened to hold the value."""
        value = float(statistic(np.arange(n)[None, :])[0]) if n else NAN
        if n < MIN_CI_SAMPLES or math.isnan(value):
            return Figure(value, n=n, note=note)
        low, high = bootstrap_interval(
            statistic, n, confidence=self.confidence, resamples=RESAMPLES, seed=self.seed
        )
        if math.isnan(low):
            return Figure(value, n=n, note=note)
        return Figure(value, min(low, value), max(high, value), n, note)


def preference_outcomes(better: Array, worse: Array) -> Array:
    """Per pair: 1 when the judge scores the preferred answer higher, 0.5 on a tie, 0 otherwise."""
    return 0.5 * (1.0 + np.sign(better - worse))


def pair_outcomes(human: Array, scores: Array) -> tuple[Array, Array]:
    """(outcome, counted) matrices over ordered sample pairs: counted where the human scores differ;
    outcome 1 when the judge orders the pair as the human did, 0.5 when it ties them, 0 otherwise."""
    human_sign = np.sign(human[:, None] - human[None, :])
    outcome = 0.5 * (1.0 + np.sign(scores[:, None] - scores[None, :]) * human_sign)
    return outcome, (human_sign != 0).astype(np.float64)


def spearman_rows(x: Array, y: Array) -> Array:
    """Spearman's rho per row: Pearson of the average ranks; NaN where either row is constant."""
    rx, ry = (stats.rankdata(a, axis=1) for a in (x, y))
    rx, ry = rx - rx.mean(axis=1, keepdims=True), ry - ry.mean(axis=1, keepdims=True)
    denominator = np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, (rx * ry).sum(axis=1) / denominator, NAN)


def kappa_rows(a: Array, b: Array) -> Array:
    """Cohen's kappa per row of 0/1 ratings: (p_o - p_e) / (1 - p_e), p_e from each rater's 1-share;
    NaN where p_e = 1 (both raters gave one same label throughout: agreement by chance alone)."""
    observed = (a == b).mean(axis=1)
    pa, pb = a.mean(axis=1), b.mean(axis=1)
    chance = pa * pb + (1 - pa) * (1 - pb)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(chance < 1.0, (observed - chance) / (1.0 - chance), NAN)


def preference_figure(pairs: Array, interval: _Interval) -> Figure:
    """pairs: (n, 2) of (better, worse) scores, NaN-free."""
    if not len(pairs):
        return Figure(NAN, note="no scored preference pair")
    outcomes = preference_outcomes(pairs[:, 0], pairs[:, 1])
    return interval.figure(lambda idx: outcomes[idx].mean(axis=1), len(outcomes))


def pairwise_figure(human: Array, scores: Array, interval: _Interval) -> Figure:
    """Share of sample pairs with different human scores that the judge orders the same way.

    A resample is weighed by how often it drew each sample (count_i * count_j per pair), which is
    comparing every pair of drawn positions without building them.
    """
    outcome, counted = pair_outcomes(human, scores)
    compared = int(counted.sum()) // 2
    if not compared:
        return Figure(NAN, n=len(human), note="no two scored samples with different human scores")
    hits, n = outcome * counted, len(human)

    def statistic(idx: npt.NDArray[np.int64]) -> Array:
        rows = np.arange(len(idx))[:, None] * n
        counts = np.bincount((idx + rows).ravel(), minlength=len(idx) * n).reshape(len(idx), n)
        total = ((counts @ counted) * counts).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, ((counts @ hits) * counts).sum(axis=1) / total, NAN)

    return interval.figure(statistic, n, f"{compared} pairs with different human scores")


def spearman_figure(human: Array, scores: Array, interval: _Interval) -> Figure:
    """Spearman's rho of metric and human scores (ties take their average rank), from 3 samples up."""
    if len(human) < 3:
        return Figure(NAN, n=len(human), note=f"needs 3 scored samples, has {len(human)}")
    if np.ptp(human) == 0 or np.ptp(scores) == 0:
        constant = "human scores" if np.ptp(human) == 0 else "metric scores"
        return Figure(NAN, n=len(human), note=f"all {constant} are equal")
    return interval.figure(lambda idx: spearman_rows(human[idx], scores[idx]), len(human))


def kappa_figure(human: Array, scores: Array, threshold: float, interval: _Interval) -> Figure:
    """Kappa of the 0/1 labels and the metric thresholded (score >= threshold is 1)."""
    if not len(human):
        return Figure(NAN, note="no scored sample")
    if not np.isin(human, (0.0, 1.0)).all():
        return Figure(NAN, n=len(human), note="human scores are not binary (0/1)")
    judged = (scores >= threshold).astype(np.float64)
    figure = interval.figure(lambda idx: kappa_rows(human[idx], judged[idx]), len(human))
    if math.isnan(figure.value):
        return Figure(NAN, n=len(human), note="labels and thresholded scores all take one same value")
    return figure
