"""Relationship builders: similar_pairs (exact and IVF paths) and overlap_pairs, against brute force."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from groundset.kg import overlap, similarity
from groundset.kg.overlap import frequent_items, normalise_item, overlap_pairs
from groundset.kg.similarity import normalise_rows, similar_pair_arrays, similar_pairs
from groundset.kg.vectors import rows_matrix

# ---------------------------------------------------------------- similar_pairs


def brute_similar(vectors: np.ndarray, k: int, threshold: float) -> list[tuple[int, int, float]]:
    """All-pairs reference: float64 cosines rounded to 6 decimals, ties to the lower index."""
    data = np.asarray(vectors, dtype=np.float64)
    usable = [i for i in range(len(data)) if np.isfinite(data[i]).all() and np.linalg.norm(data[i]) > 0]
    unit = {i: data[i] / np.linalg.norm(data[i]) for i in usable}
    found: dict[tuple[int, int], float] = {}
    for i in usable:
        scores = sorted((-round(float(unit[i] @ unit[j]), 6), j) for j in usable if j != i)
        for neg, j in scores[:k]:
            if -neg >= threshold:
                found[(min(i, j), max(i, j))] = -neg
    return sorted((i, j, s) for (i, j), s in found.items())


def assert_same_pairs(got: list[tuple[int, int, float]], want: list[tuple[int, int, float]]) -> None:
    assert [(i, j) for i, j, _ in got] == [(i, j) for i, j, _ in want]
    assert np.allclose([s for *_, s in got], [s for *_, s in want], atol=2e-6)


def clustered(n: int, dim: int = 32, clusters: int = 40, noise: float = 0.12, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, dim))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    points = centres[rng.integers(0, clusters, n)] + noise * rng.standard_normal((n, dim))
    return points.astype(np.float32)


@pytest.mark.parametrize(("k", "threshold"), [(1, -1.0), (3, 0.0), (5, 0.5), (200, 0.2)])
def test_exact_path_matches_brute_force_on_random_data(k: int, threshold: float) -> None:
    vectors = np.random.default_rng(k).standard_normal((90, 12)).astype(np.float32)
    assert_same_pairs(
        similar_pairs(vectors, k=k, threshold=threshold, block_size=16), brute_similar(vectors, k, threshold)
    )


def tie_heavy(n: int, seed: int) -> np.ndarray:
    """Signed permutations of vectors with norm 1 or 5: every cosine is a multiple of 1/25, so exact ties
    abound and no float32 error can move a score across a 6-decimal rounding boundary."""
    rng = np.random.default_rng(seed)
    base = np.array([[1, 0, 0, 0], [3, 4, 0, 0], [1, 2, 2, 4], [0, 0, 0, 5]])[rng.integers(0, 4, n)]
    signs = rng.choice([-1, 1], size=(n, 4))
    return np.array([row[rng.permutation(4)] for row in base * signs], dtype=np.float32)


@pytest.mark.parametrize("sparse_share", [0.0, 1.0])  # force the dense (argpartition) or the sparse ranking
def test_exact_ties_are_broken_deterministically_by_index(
    monkeypatch: pytest.MonkeyPatch, sparse_share: float
) -> None:
    monkeypatch.setattr(similarity, "SPARSE_TOPK_FRACTION", sparse_share)
    vectors = tie_heavy(70, seed=3)
    for k, threshold in ((3, -1.0), (2, 0.3), (1, 0.9)):
        want = brute_similar(vectors, k, threshold)
        for block in (1, 7, 1024):
            assert_same_pairs(similar_pairs(vectors, k=k, threshold=threshold, block_size=block), want)
    copies = np.array([[1, 0, 0, 0]] + [[1, 1, 0, 0]] * 6, dtype=np.float32)
    assert [(i, j) for i, j, _ in similar_pairs(copies, k=2, threshold=0.0) if i == 0] == [(0, 1), (0, 2)]


def test_threshold_k_uniqueness_and_order() -> None:
    vectors = clustered(300)
    pairs = similar_pairs(vectors, k=4, threshold=0.8)
    assert pairs and all(i < j and s >= 0.8 for i, j, s in pairs)
    assert pairs == sorted(pairs) and len({(i, j) for i, j, _ in pairs}) == len(pairs)
    assert all(round(s, 6) == s for *_, s in pairs)
    # Each node's own top-k picks are at most k; it may have more edges via its neighbours' lists.
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    for i in range(0, 300, 37):
        scores = np.round(unit @ unit[i], 6)
        scores[i] = -np.inf
        mine = {j for a, b, _ in pairs for j in (a, b) if i in (a, b) and j != i}
        top = set(np.argsort(-scores, kind="stable")[:4].tolist())
        assert {j for j in top if scores[j] >= 0.8} <= mine


def test_zero_nan_rows_and_scaling() -> None:
    vectors = clustered(120, seed=1)
    vectors[[5, 17]] = 0.0
    vectors[9, 3] = np.nan
    vectors[30, 0] = np.inf
    pairs = similar_pairs(vectors, k=3, threshold=-1.0)
    assert not {5, 17, 9, 30} & {x for i, j, _ in pairs for x in (i, j)}
    assert_same_pairs(pairs, brute_similar(vectors, 3, -1.0))
    scaled = vectors * np.random.default_rng(2).uniform(0.01, 1000, size=(120, 1)).astype(np.float32)
    assert_same_pairs(similar_pairs(scaled, k=3, threshold=-1.0), pairs)
    assert similar_pairs(np.full((3, 4), 1e30, dtype=np.float64), k=1, threshold=0.5) == [
        (0, 1, 1.0),
        (0, 2, 1.0),
    ]


def test_edge_cases_and_validation() -> None:
    assert similar_pairs(np.zeros((0, 8), dtype=np.float32)) == []
    assert similar_pairs(np.ones((1, 8), dtype=np.float32)) == []
    assert similar_pairs(np.zeros((5, 8), dtype=np.float32)) == []
    two = np.array([[1.0, 0.0], [0.6, 0.8]], dtype=np.float32)
    assert similar_pairs(two, k=10, threshold=0.0) == [(0, 1, 0.6)]
    for bad in ({"k": 0}, {"threshold": 1.5}, {"threshold": -1.01}, {"threshold": math.nan}):
        with pytest.raises(ValueError, match="similar_pairs"):
            similar_pairs(two, **bad)
    with pytest.raises(ValueError, match="2-D"):
        similar_pairs(np.ones(4, dtype=np.float32))


def test_approximate_path_recall_and_determinism() -> None:
    vectors = clustered(3000, dim=48, clusters=150, noise=0.15, seed=4)
    exact = {(i, j) for i, j, _ in similar_pairs(vectors, k=5, threshold=-1.0)}
    approx = similar_pairs(vectors, k=5, threshold=-1.0, exact_below=100, seed=7)
    recall = len(exact & {(i, j) for i, j, _ in approx}) / len(exact)
    assert recall >= 0.9, recall
    assert approx == similar_pairs(vectors, k=5, threshold=-1.0, exact_below=100, seed=7)
    assert all(i < j for i, j, _ in approx) and approx == sorted(approx)
    at_threshold = similar_pairs(vectors, k=5, threshold=0.9, exact_below=100, seed=7)
    assert all(s >= 0.9 for *_, s in at_threshold)


# ---------------------------------------------------------------- overlap_pairs


def brute_overlap(
    keyed: list[list[tuple[str, str]]], min_shared: int, min_score: float, limit: int | None
) -> list[tuple[int, int, float, list[str]]]:
    """All-pairs reference over (key, surface) items: Jaccard on keys, top-`limit` per node by either end."""
    sets = []
    for items in keyed:
        first: dict[str, str] = {}
        for key, surface in items:
            first.setdefault(key, surface)
        sets.append(first)
    scored: dict[tuple[int, int], float] = {}
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            shared = sets[i].keys() & sets[j].keys()
            score = round(len(shared) / len(sets[i].keys() | sets[j].keys()), 6) if shared else 0.0
            if shared and len(shared) >= min_shared and score >= min_score:
                scored[(i, j)] = score
    kept = set(scored)
    if limit is not None:
        kept = set()
        for node in range(len(sets)):
            mine = sorted((-s, b if a == node else a) for (a, b), s in scored.items() if node in (a, b))
            kept |= {(min(node, other), max(node, other)) for _, other in mine[:limit]}
    out = []
    for i, j in sorted(kept):
        shared = sorted(
            (sets[i][key] for key in sets[i].keys() & sets[j].keys()), key=lambda s: (s.casefold(), s)
        )
        out.append((i, j, scored[(i, j)], shared))
    return out


def test_handmade_exact_overlap() -> None:
    nodes = [
        ["Prometheus", "Grafana", "`PromQL`"],
        ["prometheus", "promql", "Loki"],
        ["Grafana", "Loki", "Tempo", "Mimir"],
        [],
        ["Grafana's", "grafana", "GRAFANA"],
    ]
    pairs = overlap_pairs(nodes, fuzzy_threshold=None)
    assert pairs == [
        (0, 1, 0.5, ["Prometheus", "PromQL"]),
        (0, 2, round(1 / 6, 6), ["Grafana"]),
        (0, 4, round(1 / 3, 6), ["Grafana"]),
        (1, 2, round(1 / 6, 6), ["Loki"]),
        (2, 4, 0.25, ["Grafana"]),
    ]
    assert overlap_pairs(nodes, fuzzy_threshold=None, min_shared=2) == [pairs[0]]
    assert overlap_pairs(nodes, fuzzy_threshold=None, min_score=0.3) == [pairs[0], pairs[2]]
    assert normalise_item("  The `Alert-Manager`'s  config! ") == "the alert manager config"
    assert normalise_item("C++") != normalise_item("C#") != normalise_item("C")


def test_fuzzy_variants_match_and_lookalikes_do_not() -> None:
    nodes = [
        ["Alertmanager", "time series", "exporter", "kubelet", "Prometheus", "http", "metric"],
        ["Alert Manager", "time-series", "exporters", "kubectl", "Prometheus Operator", "https", "matrix"],
    ]
    (pair,) = overlap_pairs(nodes)
    assert pair[:2] == (0, 1)
    assert pair[3] == ["Alertmanager", "exporter", "time series"]
    assert pair[2] == round(3 / 11, 6)
    exact = overlap_pairs(nodes, fuzzy_threshold=None)
    assert exact == [(0, 1, round(1 / 13, 6), ["time series"])]  # "time-series" normalises to "time series"
    typo = overlap_pairs([["Alertmanager", "Kubernetes 1.27"], ["Alertmanger", "Kubernetes 1.28"]])
    assert typo == [(0, 1, round(1 / 3, 6), ["Alertmanager"])]  # typo merged, version numbers not


def test_stop_items_are_not_candidates() -> None:
    # "Prometheus" is in all 60 nodes (> max(min_df_cap=50, 0.05 * 60)): it alone links nothing.
    nodes = [["Prometheus", f"item{i}"] for i in range(60)]
    nodes[7].append("Thanos")
    nodes[42].append("thanos")
    assert overlap_pairs(nodes) == [(7, 42, round(1 / 3, 6), ["Thanos"])]
    assert frequent_items(nodes) == ["Prometheus"]
    assert frequent_items(nodes, max_df=1.0) == []
    assert len(overlap_pairs(nodes, min_df_cap=100, max_pairs_per_node=None)) == 60 * 59 // 2


def test_max_pairs_per_node_bounds_edges() -> None:
    rng = random.Random(5)
    nodes = [[f"topic{rng.randrange(6)}" for _ in range(3)] for _ in range(80)]
    for limit in (1, 3, 10):
        pairs = overlap_pairs(nodes, max_pairs_per_node=limit, min_df_cap=1000)
        degree = np.bincount([x for i, j, *_ in pairs for x in (i, j)], minlength=80)
        # each node keeps <= limit of its own picks, but can be picked by others as well
        assert len(pairs) <= 80 * limit and degree.max() > 0
        assert pairs == brute_overlap([[(normalise_item(x), x) for x in ns] for ns in nodes], 1, 0.0, limit)


def test_row_ranking_without_histogram_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(2)
    nodes = [[f"t{rng.randrange(8)}" for _ in range(4)] for _ in range(120)]
    want = brute_overlap([[(x, x) for x in ns] for ns in nodes], 1, 0.0, 3)
    assert overlap_pairs(nodes, max_pairs_per_node=3, min_df_cap=1000) == want
    monkeypatch.setattr(overlap, "HISTOGRAM_CELLS", 0)
    assert overlap_pairs(nodes, max_pairs_per_node=3, min_df_cap=1000) == want


@pytest.mark.parametrize("fuzzy", [None, 90.0])
def test_overlap_matches_brute_force_on_random_data(fuzzy: float | None) -> None:
    rng = random.Random(11)
    letters = "abcdefghijklmnopqrtuvwxyz"  # no "s": plural variants stay unambiguous
    bases = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(6, 10))) for _ in range(120)})

    def variant(base: str) -> str:
        forms = [base, base.upper(), base + "s", base[:3] + "-" + base[3:], base[:4] + " " + base[4:]]
        return rng.choice(forms) if fuzzy else rng.choice(forms[:2])

    keyed = [[(b, variant(b)) for b in rng.sample(bases, rng.randint(0, 6))] for _ in range(150)]
    nodes = [[surface for _, surface in items] for items in keyed]
    for min_shared, min_score, limit in [(1, 0.0, None), (2, 0.0, 5), (1, 0.2, 3)]:
        got = overlap_pairs(
            nodes, fuzzy_threshold=fuzzy, min_shared=min_shared, min_score=min_score, max_pairs_per_node=limit
        )
        assert got == brute_overlap(keyed, min_shared, min_score, limit)


def test_overlap_edge_cases_and_validation() -> None:
    assert overlap_pairs([]) == []
    assert overlap_pairs([["a", "b"]]) == []
    assert overlap_pairs([[], [], []]) == []
    assert overlap_pairs([["!!!", "  "], ["???"]]) == []
    assert frequent_items([]) == []
    for bad in ({"min_shared": 0}, {"min_score": 1.5}, {"fuzzy_threshold": 101}, {"max_df": 0.0}):
        with pytest.raises(ValueError, match="overlap_pairs"):
            overlap_pairs([["a"], ["a"]], **bad)
    with pytest.raises(ValueError, match="max_pairs_per_node"):
        overlap_pairs([["a"], ["a"]], max_pairs_per_node=0)
    with pytest.raises(TypeError, match="bare string"):
        overlap_pairs(["abc", "abd"])


def test_vectors_stored_as_rows_of_one_matrix_are_searched_without_a_copy():
    """An embedding stage (and a loaded graph) keeps each node's vector as a row of one matrix: the
    similarity stage reads that matrix as it is. Rows in another order, or of several matrices, are copied."""
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(50, 16)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    rows = list(matrix)
    view, copied = rows_matrix(rows[10:40])
    assert not copied and np.shares_memory(view, matrix) and np.array_equal(view, matrix[10:40])
    shuffled, copied = rows_matrix([rows[3], rows[1], rows[2]])
    assert copied and not np.shares_memory(shuffled, matrix) and np.array_equal(shuffled, matrix[[3, 1, 2]])
    mixed, copied = rows_matrix([rows[0], matrix[1].copy()])
    assert copied and np.array_equal(mixed, matrix[:2])
    unit, ids = normalise_rows(view)  # unit rows already: neither copied nor changed
    assert unit is view and ids.tolist() == list(range(30))
    scaled, _ = normalise_rows(view * 3)  # not unit: a normalised copy, the input untouched
    assert np.allclose(scaled, view, atol=1e-6) and not np.shares_memory(scaled, view)
    pairs = similar_pair_arrays(view, k=3, threshold=-1.0)
    assert np.array_equal(view, matrix[10:40])  # the graph's vectors are not changed by the search
    assert pairs[0].size > 0
