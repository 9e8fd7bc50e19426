"""Pure, model-free math behind the metrics: scores from verdicts and counts, and their uncertainty.

Kept apart from the Metric classes so that every number a metric reports can be checked by hand
on a few integers, and so that NaN means one thing everywhere: "nothing to score", never 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

NAN = float("nan")
# Below this many scores a bootstrap interval is an artefact of resampling a handful of values
# (at n=1 it has zero width), so none is given.
MIN_CI_SAMPLES = 5
_BOOTSTRAP_CELLS = 4_000_000


def average_precision(verdicts: Sequence[int | bool]) -> float:
    """Rank-weighted context precision: sum_k(P@k * v_k) / sum(v).

    Rewards putting the useful contexts first. No useful context at all scores 0 (judged, and as
    bad as it gets; NaN would drop the row from the mean and reward the worse retriever); NaN only
    when there is no verdict to score.
    """
    hits = 0
    total = 0.0
    for rank, verdict in enumerate(verdicts, start=1):
        if verdict not in (0, 1):
            raise ValueError(f"verdict at rank {rank} must be 0 or 1, got {verdict!r}")
        if verdict:
            hits += 1
            total += hits / rank
    if not verdicts:
        return NAN
    return total / hits if hits else 0.0


def _check_counts(**counts: int) -> None:
    for name, value in counts.items():
        if value < 0:
            raise ValueError(f"{name} must be >= 0, got {value}")


def _from_counts(tp: int, fp: int, fn: int, numerator: int, denominator: int) -> float:
    """Shared edge rules: NaN when there is nothing at all, 0 when there is something but no tp."""
    _check_counts(tp=tp, fp=fp, fn=fn)
    if tp == 0:
        return NAN if fp == 0 and fn == 0 else 0.0
    return numerator / denominator


def precision_from_counts(tp: int, fp: int, fn: int = 0) -> float:
    """Precision tp / (tp + fp); NaN when all counts are 0, 0.0 when tp == 0 otherwise.

    Takes fn so that claiming nothing against a non-empty reference scores 0, not NaN, and so that
    the three functions are interchangeable by mode.
    """
    return _from_counts(tp, fp, fn, tp, tp + fp)


def recall_from_counts(tp: int, fp: int, fn: int) -> float:
    """Recall tp / (tp + fn); NaN when all counts are 0, 0.0 when tp == 0 otherwise."""
    return _from_counts(tp, fp, fn, tp, tp + fn)


def f1_from_counts(tp: int, fp: int, fn: int) -> float:
    """F1 2tp / (2tp + fp + fn); NaN when all counts are 0, 0.0 when tp == 0 otherwise."""
    return _from_counts(tp, fp, fn, 2 * tp, 2 * tp + fp + fn)


def ratio(numerator: int, denominator: int) -> float:
    """numerator / denominator (e.g. supported / total statements); NaN when denominator is 0."""
    _check_counts(numerator=numerator, denominator=denominator)
    return numerator / denominator if denominator else NAN


def weighted_blend(scores: Sequence[float], weights: Sequence[float]) -> float:
    """sum(w_i * s_i) / sum(w_i) over non-zero weights.

    A NaN score with non-zero weight makes the blend NaN (a missing part must not pass as 0);
    a zero weight switches its score off entirely, NaN or not.
    """
    if len(scores) != len(weights):
        raise ValueError(f"{len(scores)} scores but {len(weights)} weights")
    if any(not math.isfinite(w) or w < 0 for w in weights):
        raise ValueError(f"weights must be finite and >= 0, got {list(weights)}")
    weight_sum = math.fsum(weights)
    if weight_sum == 0:
        raise ValueError("at least one weight must be > 0")
    used = [(s, w) for s, w in zip(scores, weights, strict=True) if w > 0]
    if any(math.isnan(s) for s, _ in used):
        return NAN
    return math.fsum(s * w for s, w in used) / weight_sum


def cosine(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """a . b / (|a| |b|), clipped to [-1, 1]; NaN when either vector is all zeros (no direction) or holds a
    NaN or an infinity. Each vector is first scaled by its largest magnitude, so that the norms of very
    small or very large vectors neither underflow to 0 nor overflow to infinity."""
    va = np.asarray(a, dtype=np.float64).ravel()
    vb = np.asarray(b, dtype=np.float64).ravel()
    if va.shape != vb.shape:
        raise ValueError(f"vectors differ in length: {va.size} vs {vb.size}")
    if va.size == 0:
        return NAN
    scale_a, scale_b = float(np.max(np.abs(va))), float(np.max(np.abs(vb)))
    if not (math.isfinite(scale_a) and math.isfinite(scale_b)) or scale_a == 0.0 or scale_b == 0.0:
        return NAN
    va, vb = va / scale_a, vb / scale_b
    return float(np.clip(np.dot(va, vb) / (np.linalg.norm(va) * np.linalg.norm(vb)), -1.0, 1.0))


def bootstrap_interval(
    statistic: Callable[[npt.NDArray[np.int64]], npt.NDArray[np.float64]],
    n: int,
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> tuple[float, float]:
    """(low, high): the percentile bootstrap interval of a figure over ``n`` items; (NaN, NaN) when no
    resample gives one.

    ``statistic`` maps an index matrix (rows: resamples of item positions) to one value per row, so one
    vectorised call scores a block of resamples, and a caller gets its point value from the single row
    ``arange(n)``. The resamples are one (resamples, n) matrix from a seeded generator, drawn in row blocks
    to bound memory: the same numbers whatever the block size, so the interval is fast and reproducible.
    Resamples where the figure is undefined (NaN, e.g. all drawn human scores equal) are left out.
    """
    rng = np.random.default_rng(seed)
    # Blocks of at most ~4M indices: a 20,000-sample run needs 32 MB for them, not 320 MB.
    block = max(1, _BOOTSTRAP_CELLS // n)
    draws = np.concatenate(
        [
            statistic(rng.integers(0, n, size=(min(block, resamples - start), n)))
            for start in range(0, resamples, block)
        ]
    )
    draws = draws[~np.isnan(draws)]
    if not draws.size:
        return (NAN, NAN)
    alpha = 1.0 - confidence
    low, high = np.quantile(draws, [alpha / 2, 1.0 - alpha / 2])
    return (float(low), float(high))


def bootstrap_ci(
    values: Sequence[float] | npt.NDArray[np.float64],
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
    min_n: int = MIN_CI_SAMPLES,
) -> tuple[float, float, float]:
    """(mean, low, high): percentile bootstrap CI (``bootstrap_interval``) of the mean of the non-NaN values.

    NaNs are dropped (they are counted separately by the caller). With fewer than ``min_n`` values
    the interval is (NaN, NaN): too few to say anything about the spread.
    The interval is widened to include the mean if float rounding put it just outside.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    data = np.asarray(values, dtype=np.float64).ravel()
    data = data[~np.isnan(data)]
    n = data.size
    if n == 0:
        return (NAN, NAN, NAN)
    mean = float(data.mean())
    if n < max(min_n, 2):
        return (mean, NAN, NAN)
    low, high = bootstrap_interval(
        lambda idx: data[idx].mean(axis=1), n, confidence=confidence, resamples=resamples, seed=seed
    )
    return (mean, min(low, mean), max(high, mean))


def paired_bootstrap_diff(
    a: Sequence[float] | npt.NDArray[np.float64],
    b: Sequence[float] | npt.NDArray[np.float64],
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """(mean, low, high) of b - a over pairs where both are non-NaN; > 0 means run b scores higher.

    Pairing by sample removes the between-sample spread, so a real difference shows up with far
    fewer samples than comparing two independent intervals would need.
    """
    va = np.asarray(a, dtype=np.float64).ravel()
    vb = np.asarray(b, dtype=np.float64).ravel()
    if va.shape != vb.shape:
        raise ValueError(f"paired runs differ in length: {va.size} vs {vb.size}")
    both = ~(np.isnan(va) | np.isnan(vb))
    return bootstrap_ci(vb[both] - va[both], confidence=confidence, resamples=resamples, seed=seed)
