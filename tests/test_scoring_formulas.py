"""Formula tests for the model-free scoring math: exact values, NaN rules, errors."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from groundset.scoring.formulas import (
    MIN_CI_SAMPLES,
    average_precision,
    bootstrap_ci,
    bootstrap_interval,
    cosine,
    f1_from_counts,
    paired_bootstrap_diff,
    precision_from_counts,
    ratio,
    recall_from_counts,
    weighted_blend,
)
from groundset.scoring.retrieval import hit_rate, id_precision, id_recall, ndcg_at_k, reciprocal_rank

nan = math.isnan


# --- context precision ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ([1, 1, 0, 0], 1.0),
        ([1, 0, 1, 0], (1 + 2 / 3) / 2),  # 0.8333
        ([0, 1, 0, 1], (1 / 2 + 2 / 4) / 2),  # 0.5
        ([0, 0, 1, 1], (1 / 3 + 2 / 4) / 2),  # 0.41667
    ],
)
def test_average_precision_table(verdicts: list[int], expected: float) -> None:
    assert average_precision(verdicts) == pytest.approx(expected, abs=1e-3)
    assert average_precision([bool(v) for v in verdicts]) == pytest.approx(expected, abs=1e-3)


def test_average_precision_table_rounded_values() -> None:
    got = [average_precision(v) for v in ([1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1])]
    assert got == pytest.approx([1.0, 0.833, 0.5, 0.417], abs=1e-3)


def test_average_precision_nan_and_errors() -> None:
    assert nan(average_precision([]))
    # Judged, and nothing useful: 0, not NaN. NaN would drop the row, and a retriever scoring
    # [1.0, nothing useful] would average 1.0, above a strictly better one scoring [1.0, 0.25].
    assert average_precision([0, 0, 0]) == 0.0
    worse, better = (
        [average_precision([1]), average_precision([0, 0])],
        [1.0, average_precision([0, 0, 0, 1])],
    )
    assert np.nanmean(worse) < np.nanmean(better)
    assert average_precision([0, 0, 0, 1]) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="rank 2"):
        average_precision([1, 2])


# --- counts -------------------------------------------------------------------------------------


def test_counts_exact_values() -> None:
    assert precision_from_counts(3, 1, 2) == pytest.approx(0.75)
    assert recall_from_counts(3, 1, 2) == pytest.approx(0.6)
    assert f1_from_counts(3, 1, 2) == pytest.approx(6 / 9)  # 2tp / (2tp + fp + fn)
    p, r = 0.75, 0.6
    assert f1_from_counts(3, 1, 2) == pytest.approx(2 * p * r / (p + r))
    assert precision_from_counts(2, 0) == 1.0


@pytest.mark.parametrize("fn", [precision_from_counts, recall_from_counts, f1_from_counts])
def test_counts_edge_cases(fn: Callable[[int, int, int], float]) -> None:
    assert nan(fn(0, 0, 0))
    assert fn(0, 2, 0) == 0.0
    assert fn(0, 0, 3) == 0.0
    assert fn(0, 1, 1) == 0.0
    with pytest.raises(ValueError, match=">= 0"):
        fn(-1, 0, 0)


def test_precision_recall_ignore_the_other_side() -> None:
    assert precision_from_counts(2, 0, 5) == 1.0
    assert recall_from_counts(2, 5, 0) == 1.0


def test_ratio() -> None:
    assert ratio(3, 4) == 0.75
    assert ratio(0, 4) == 0.0
    assert nan(ratio(0, 0))
    with pytest.raises(ValueError):
        ratio(-1, 2)


# --- blend and cosine ---------------------------------------------------------------------------


def test_weighted_blend_values() -> None:
    assert weighted_blend([0.8, 0.4], [0.75, 0.25]) == pytest.approx(0.7)
    assert weighted_blend([0.8, 0.4], [3, 1]) == pytest.approx(0.7)  # normalised
    assert weighted_blend([0.8, float("nan")], [1.0, 0.0]) == pytest.approx(0.8)  # zero weight off
    assert nan(weighted_blend([0.8, float("nan")], [0.75, 0.25]))


@pytest.mark.parametrize(
    ("scores", "weights"),
    [([0.5], [0.5, 0.5]), ([0.5, 0.5], [1.0, -0.1]), ([0.5, 0.5], [0.0, 0.0]), ([0.5], [float("nan")])],
)
def test_weighted_blend_errors(scores: list[float], weights: list[float]) -> None:
    with pytest.raises(ValueError):
        weighted_blend(scores, weights)


def test_cosine() -> None:
    assert cosine(np.array([1.0, 0.0]), np.array([1.0, 0.0])) == pytest.approx(1.0)
    assert cosine(np.array([1.0, 0.0]), np.array([0.0, 2.0])) == pytest.approx(0.0)
    assert cosine(np.array([1.0, 1.0]), np.array([-3.0, -3.0])) == pytest.approx(-1.0)
    assert cosine(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])) == pytest.approx(
        32 / math.sqrt(14 * 77)
    )
    assert nan(cosine(np.zeros(3), np.ones(3)))
    with pytest.raises(ValueError):
        cosine(np.ones(2), np.ones(3))


# --- bootstrap ----------------------------------------------------------------------------------


def test_bootstrap_edge_sizes() -> None:
    assert all(nan(x) for x in bootstrap_ci([]))
    assert all(nan(x) for x in bootstrap_ci([float("nan")] * 3))
    # Below MIN_CI_SAMPLES there is a mean but no interval (at n=1 it used to be printed 0.4 - 0.4).
    for few in ([0.4], [0.4, float("nan")], [0.4, 0.6, 0.5, 0.1]):
        mean, low, high = bootstrap_ci(few)
        assert mean == pytest.approx(float(np.nanmean(few))) and nan(low) and nan(high)
    assert MIN_CI_SAMPLES == 5
    mean, low, high = bootstrap_ci([0.4, 0.6, 0.5, 0.1, 0.9])
    assert low < mean < high
    assert not nan(bootstrap_ci([0.4, 0.6], min_n=2)[1])


def test_bootstrap_deterministic_and_contains_mean() -> None:
    values = list(np.random.default_rng(1).random(50))
    first = bootstrap_ci(values, seed=7)
    assert first == bootstrap_ci(values, seed=7)
    assert first != bootstrap_ci(values, seed=8)
    mean, low, high = first
    assert mean == pytest.approx(float(np.mean(values)))
    assert low < mean < high
    assert 0.0 < high - low < 0.5


def test_bootstrap_constant_sample_zero_width() -> None:
    mean, low, high = bootstrap_ci([0.7] * 30)
    assert mean == pytest.approx(0.7)
    assert high - low == 0.0


def test_bootstrap_ignores_nan() -> None:
    values = [0.1, 0.9, 0.5, 0.3, 0.8]
    assert bootstrap_ci(values + [float("nan")] * 4) == bootstrap_ci(values)


def test_bootstrap_interval_draws_blocks_as_one_matrix_and_leaves_out_undefined_resamples(
    monkeypatch,
) -> None:
    """One seeded (resamples, n) index matrix, whatever the block size; a NaN resample is left out, and
    with none defined there is no interval."""
    values = np.random.default_rng(4).random(30)
    rows = np.random.default_rng(5).integers(0, 30, size=(200, 30))
    means = values[rows].mean(axis=1)
    expected = tuple(np.quantile(means, [0.025, 0.975]))
    monkeypatch.setattr("groundset.scoring.formulas._BOOTSTRAP_CELLS", 30 * 7)  # blocks of 7 rows
    assert bootstrap_interval(lambda idx: values[idx].mean(axis=1), 30, resamples=200, seed=5) == expected
    first_half_nan = lambda idx: np.where(idx[:, 0] < 15, np.nan, values[idx].mean(axis=1))  # noqa: E731
    kept = means[rows[:, 0] >= 15]
    low, high = bootstrap_interval(first_half_nan, 30, resamples=200, seed=5)
    assert (low, high) == tuple(np.quantile(kept, [0.025, 0.975]))
    assert all(nan(x) for x in bootstrap_interval(lambda idx: np.full(len(idx), np.nan), 30))


def test_bootstrap_width_shrinks_with_more_data() -> None:
    rng = np.random.default_rng(3)
    _, low_s, high_s = bootstrap_ci(rng.random(20))
    _, low_l, high_l = bootstrap_ci(rng.random(2000))
    assert high_l - low_l < (high_s - low_s) / 3


def test_bootstrap_confidence_widens_and_validates() -> None:
    values = list(np.random.default_rng(2).random(40))
    _, l90, h90 = bootstrap_ci(values, confidence=0.90)
    _, l99, h99 = bootstrap_ci(values, confidence=0.99)
    assert h99 - l99 > h90 - l90
    with pytest.raises(ValueError):
        bootstrap_ci(values, confidence=1.0)
    with pytest.raises(ValueError):
        bootstrap_ci(values, resamples=0)


def test_paired_bootstrap_diff_sign_and_pairing() -> None:
    rng = np.random.default_rng(4)
    a = rng.random(60)
    b = a + 0.1 + rng.normal(0, 0.01, 60)
    mean, low, high = paired_bootstrap_diff(a, b)
    assert mean == pytest.approx(0.1, abs=0.01)
    assert 0.0 < low <= mean <= high
    rmean, rlow, rhigh = paired_bootstrap_diff(b, a)
    assert rmean == pytest.approx(-mean) and rhigh < 0.0
    # a NaN on either side drops the whole pair (and one pair is too few for an interval)
    mean, low, high = paired_bootstrap_diff([0.2, float("nan"), 0.5], [0.4, 0.9, float("nan")])
    assert mean == pytest.approx(0.2) and nan(low) and nan(high)
    assert all(nan(x) for x in paired_bootstrap_diff([float("nan")], [1.0]))
    with pytest.raises(ValueError):
        paired_bootstrap_diff([0.1], [0.1, 0.2])


# --- ID-based retrieval -------------------------------------------------------------------------


def test_id_precision_recall_with_duplicates() -> None:
    retrieved = ["a", "x", "a", "b", "y"]  # dedup -> a, x, b, y
    assert id_precision(retrieved, ["a", "b", "c"]) == pytest.approx(2 / 4)
    assert id_recall(retrieved, ["a", "b", "c"]) == pytest.approx(2 / 3)
    assert id_recall(retrieved, ["a", "a", "b"]) == 1.0  # relevant is a set
    assert id_precision(["a", "a", "a"], ["a"]) == 1.0
    assert id_precision(["x"], ["a"]) == 0.0


def test_retrieval_nan_cases() -> None:
    """One rule for every ID metric: NaN iff there are no reference ids; retrieving nothing scores 0."""
    for fn in (id_precision, id_recall, hit_rate, reciprocal_rank, ndcg_at_k):
        assert nan(fn(["a", "b"], [])), fn.__name__
        assert nan(fn([], [])), fn.__name__
        assert fn([], ["a"]) == 0.0, fn.__name__
    assert nan(id_precision(["a"], []))
    assert id_recall([], ["a"]) == 0.0
    assert hit_rate([], ["a"]) == 0.0
    assert reciprocal_rank([], ["a"]) == 0.0
    assert ndcg_at_k([], ["a"]) == 0.0


def test_retrieval_rejects_bare_string_and_bad_k() -> None:
    with pytest.raises(TypeError):
        id_precision("abc", ["a"])
    with pytest.raises(TypeError):
        id_recall(["a"], "a")
    with pytest.raises(ValueError):
        ndcg_at_k(["a"], ["a"], k=0)
    with pytest.raises(ValueError):
        hit_rate(["a"], ["a"], k=-1)


def test_hit_rate_cutoff() -> None:
    retrieved = ["x", "y", "a"]
    assert hit_rate(retrieved, ["a"]) == 1.0
    assert hit_rate(retrieved, ["a"], k=3) == 1.0
    assert hit_rate(retrieved, ["a"], k=2) == 0.0
    assert hit_rate(["x"], ["a"], k=10) == 0.0


def test_reciprocal_rank() -> None:
    assert reciprocal_rank(["x", "y", "a", "b"], ["a", "b"]) == pytest.approx(1 / 3)
    assert reciprocal_rank(["b", "a"], ["a", "b"]) == 1.0
    assert reciprocal_rank(["x", "x", "a"], ["a"]) == pytest.approx(1 / 3)  # duplicates keep ranks
    assert reciprocal_rank(["x", "y"], ["a"]) == 0.0


def test_ndcg_perfect_ranking() -> None:
    assert ndcg_at_k(["a", "b", "x"], ["a", "b"]) == pytest.approx(1.0)
    assert ndcg_at_k(["b", "a"], ["a", "b"], k=2) == pytest.approx(1.0)
    # 3 relevant but k=2: two hits in the top 2 is ideal
    assert ndcg_at_k(["a", "b", "x"], ["a", "b", "c"], k=2) == pytest.approx(1.0)


def test_ndcg_known_values() -> None:
    # ranks 1 and 3 relevant: DCG = 1/log2(2) + 1/log2(4) = 1 + 0.5 = 1.5
    # |relevant| = 3, k = 4 -> IDCG = 1 + 1/log2(3) + 1/log2(4) = 1 + 0.63093 + 0.5 = 2.13093
    # NDCG = 1.5 / 2.13093 = 0.70392
    assert ndcg_at_k(["a", "x", "b", "y"], ["a", "b", "c"], k=4) == pytest.approx(0.70392, abs=1e-4)
    # duplicate "a" at rank 3 gains nothing: DCG = 1/log2(3) = 0.63093
    # IDCG over min(3, 2) = 2 hits = 1 + 0.63093 = 1.63093 -> NDCG = 0.38685
    assert ndcg_at_k(["x", "a", "a", "b"], ["a", "b"], k=3) == pytest.approx(0.38685, abs=1e-4)
    # the cut-off drops "b" at rank 4; without it: DCG = 0.63093 + 1/log2(5) = 0.63093 + 0.43068
    assert ndcg_at_k(["x", "a", "a", "b"], ["a", "b"]) == pytest.approx(1.06161 / 1.63093, abs=1e-4)
    assert ndcg_at_k(["x", "y"], ["a"]) == 0.0
