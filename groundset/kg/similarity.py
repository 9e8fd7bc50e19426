"""Cosine ``similar`` pairs: each vector's top-k neighbours above a threshold, without an O(n^2) Python loop.

Up to ``exact_below`` vectors the search is exact: row blocks of the normalised matrix are multiplied by
the whole matrix (memory: a few ``block_size x n`` arrays at a time); the entries above the threshold
are ranked sparsely, or by ``np.argpartition`` when most of a block passes (a low threshold).
Beyond that an IVF index (MiniBatchKMeans lists, ``nprobe`` nearest lists searched per query) keeps the
work near ``n^1.5`` at a measured recall (see ``benchmarks/kg_relationships.py``). Each list's search is a
partition of its own (``list_topk``: the lists' ids in, their pairs out), run by ``map_batches`` when one is
given: on Ray, the lists are searched on the workers, with the matrix sent to the object store once.

Scores are rounded to 6 decimals *before* the top-k is taken, so float noise never decides between two
neighbours; exact ties go to the lower index. That makes the result reproducible across block sizes. The
scores kept are computed again in float64, so they do not depend on how the BLAS split the product.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

#: IVF lists = IVF_LISTS_PER_SQRT_N * sqrt(n); lists searched per query. Tuned in the benchmark.
IVF_LISTS_PER_SQRT_N = 1.0
IVF_NPROBE = 8
#: Vectors used to fit the k-means lists (a sample is enough for the centroids; assignment uses all).
IVF_FIT_PER_LIST = 64
#: Rows normalised at once (whole-matrix temporaries would count at the peak).
ROW_BLOCK = 8192
#: Pairs an IVF partition holds before it keeps only each query's k best.
MERGE_ENTRIES = 1_000_000
#: Scores in one block of the exact search: 2M is 8 MB of float32 scores, 16 MB of each int64 index array.
EXACT_BLOCK_ENTRIES = 2_000_000
#: Above this share of entries passing the threshold, a block is ranked densely (argpartition).
SPARSE_TOPK_FRACTION = 0.05

Pairs = tuple[np.ndarray, np.ndarray, np.ndarray]


def similar_pairs(vectors: np.ndarray, **options: Any) -> list[tuple[int, int, float]]:
    """Undirected ``(i, j, cosine)``, ``i < j``, sorted: j in i's top-k or i in j's, cosine >= threshold
    (``options``: those of ``similar_pair_arrays``)."""
    lo, hi, scores = similar_pair_arrays(vectors, **options)
    return list(zip(lo.tolist(), hi.tolist(), scores.tolist(), strict=True))


def similar_pair_arrays(
    vectors: np.ndarray,
    *,
    k: int = 5,
    threshold: float = 0.75,
    exact_below: int = 20_000,
    block_size: int = 1024,
    seed: int = 0,
    map_batches: Callable[..., list[Any]] | None = None,
    overwrite: bool = False,
) -> Pairs:
    """``similar_pairs`` as three arrays (i, j, cosine): a million pairs as tuples would take 100 MB.

    Rows that are all-zero or hold NaN/inf get no edges. ``n <= exact_below`` (non-zero rows) is exact;
    larger inputs use the approximate IVF path. Deterministic for a given ``seed``, however the IVF
    lists are shared out (``map_batches``: ``Backend.map_batches``; default here, in order).
    ``overwrite``: ``vectors`` may be normalised in place (a copy the caller made for this).
    """
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        raise ValueError(f"similar_pairs: k must be an integer >= 1, got {k!r}")
    if not -1.0 <= threshold <= 1.0:
        raise ValueError(f"similar_pairs: threshold must be within [-1, 1], got {threshold!r}")
    if block_size < 1:
        raise ValueError(f"similar_pairs: block_size must be >= 1, got {block_size!r}")
    unit, ids = normalise_rows(vectors, overwrite=overwrite)
    n = unit.shape[0]
    if n < 2:
        return _concat([])
    k = min(int(k), n - 1)
    if n <= exact_below:
        rows, cols, scores = _exact_pairs(unit, k, threshold, block_size)
    else:
        lists = max(1, min(n, round(IVF_LISTS_PER_SQRT_N * math.sqrt(n))))
        rows, cols, scores = ivf_pairs(
            unit, k, threshold, block_size, seed, lists=lists, nprobe=IVF_NPROBE, map_batches=map_batches
        )
    del unit
    return _undirected(ids[rows], ids[cols], scores)


def normalise_rows(vectors: np.ndarray, *, overwrite: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Unit float32 rows of the usable vectors and their original indices (zero/NaN/inf rows dropped).

    A corpus of 100,000 chunks has a 100 MB matrix, and each whole-matrix temporary counts at the build's
    peak: the work goes by blocks of rows, and with ``overwrite`` a float32 matrix whose rows are all
    usable is normalised in place (the caller's own copy). Rows that have length 1 already (as embedding
    models give them) come back as they are: neither copied nor changed."""
    data = np.asarray(vectors)
    if data.ndim != 2:
        raise ValueError(f"similar_pairs: vectors must be a 2-D (n, d) array, got shape {data.shape}")
    if data.dtype not in (np.float32, np.float64):
        data = data.astype(np.float64)
    peak = np.zeros(data.shape[0], dtype=data.dtype)
    if data.shape[1]:
        for start in range(0, data.shape[0], ROW_BLOCK):
            block = data[start : start + ROW_BLOCK]
            finite = np.isfinite(block).all(axis=1)
            peak[start : start + ROW_BLOCK][finite] = np.abs(block[finite]).max(axis=1)
    ids = np.flatnonzero(peak > 0)
    if data.dtype == np.float32 and ids.size == data.shape[0] and _unit_already(data):
        return data, ids  # embeddings come normalised: used as they are, neither copied nor changed
    in_place = overwrite and data.dtype == np.float32 and ids.size == data.shape[0]
    unit = data if in_place else data[ids]
    # Scale by the largest entry first so squaring can neither overflow nor underflow in float32.
    unit /= peak[ids, None]
    unit = unit.astype(np.float32, copy=False)
    for start in range(0, unit.shape[0], ROW_BLOCK):
        block = unit[start : start + ROW_BLOCK]
        block /= np.linalg.norm(block, axis=1, keepdims=True)
    return unit, ids


def _unit_already(data: np.ndarray, tolerance: float = 2e-6) -> bool:
    """Every row has length 1 (within float32 rounding), by blocks of rows."""
    for start in range(0, data.shape[0], ROW_BLOCK):
        lengths = np.linalg.norm(data[start : start + ROW_BLOCK].astype(np.float64), axis=1)
        if not np.all(np.abs(lengths - 1.0) <= tolerance):
            return False
    return True


def _exact_pairs(unit: np.ndarray, k: int, threshold: float, block_size: int) -> Pairs:
    """Directed top-k pairs by blocks of rows against the whole matrix, each block at most
    ``EXACT_BLOCK_ENTRIES`` scores (its ranking holds several arrays of that size)."""
    n = unit.shape[0]
    everyone = np.arange(n)
    block_size = max(1, min(block_size, EXACT_BLOCK_ENTRIES // n))
    found: list[Pairs] = []
    for start in range(0, n, block_size):
        queries = everyone[start : start + block_size]
        found.append(_block_topk(unit[queries], queries, everyone, unit, k, threshold))
    return _concat(found)


def ivf_pairs(
    unit: np.ndarray,
    k: int,
    threshold: float,
    block_size: int,
    seed: int,
    *,
    lists: int,
    nprobe: int,
    map_batches: Callable[..., list[Any]] | None = None,
) -> Pairs:
    """Directed approximate top-k pairs of unit rows: each query searches its ``nprobe`` nearest lists.

    Work is grouped by list: every query that probes list p is scored against p's members in one
    matrix product, so the cost is n * nprobe * (n / lists) dot products, ~n^1.5 for lists ~ sqrt(n).
    Each (query, list) keeps its own top-k; a final vectorised merge keeps each query's overall top-k.
    """
    n = unit.shape[0]
    lists = max(1, min(lists, n))
    nprobe = max(1, min(nprobe, lists))
    centres = _fit_lists(unit, lists, seed)
    probes = np.empty((n, nprobe), dtype=np.int64)
    home = np.empty(n, dtype=np.int64)
    for start in range(0, n, block_size):
        sims = unit[start : start + block_size] @ centres.T
        near = np.argpartition(sims, lists - nprobe, axis=1)[:, lists - nprobe :]
        probes[start : start + block_size] = near
        # The home list is the best of the probed ones, so every query always probes its own list.
        best = np.take_along_axis(sims, near, axis=1).argmax(axis=1)
        home[start : start + block_size] = near[np.arange(near.shape[0]), best]
    members = _group(home, lists)
    probers = _group(probes.ravel(), lists)  # entries are flat (query * nprobe + slot) positions
    searches = [
        (probers[p] // nprobe, members[p], k, threshold, block_size)
        for p in range(lists)
        if members[p].size and probers[p].size
    ]
    del probes, home, members, probers
    if map_batches is None:
        found = list_topk(searches, unit)
    else:
        found = [pairs for batch in map_batches(list_topk, searches, shared=unit) for pairs in batch]
    return _best_k(found, k)


def _best_k(parts: list[Pairs], k: int) -> Pairs:
    """Each query's k best pairs among ``parts`` (score, then lower column), sorted by query. The best k of
    a union are the best k of its parts' best k, so a search may keep only these as it goes."""
    rows, cols, scores = _concat(parts)
    order = np.lexsort((cols, -scores, rows))
    rows, cols, scores = rows[order], cols[order], scores[order]
    best = (np.arange(rows.size) - np.searchsorted(rows, rows, side="left")) < k
    return rows[best], cols[best], scores[best]


def list_topk(
    searches: list[tuple[np.ndarray, np.ndarray, int, float, int]], unit: np.ndarray
) -> list[Pairs]:
    """Each (queries, members, k, threshold, block_size) search of one IVF list: the queries' top-k among
    the list's members, in blocks of queries, merged into each query's k best as they come (a query
    probes several lists; keeping all its lists' pairs would hold nprobe times as many). A pure function
    of its input: a partition runs anywhere."""
    found: list[Pairs] = []
    held = 0
    for queries, members, k, threshold, block_size in searches:
        pool = unit[members]
        for start in range(0, queries.size, block_size):
            block = queries[start : start + block_size]
            found.append(_block_topk(unit[block], block, members, pool, k, threshold))
            held += found[-1][0].size
            if held > MERGE_ENTRIES:
                found = [_best_k(found, k)]
                held = found[0][0].size
    return [_best_k(found, searches[0][2])] if searches else []


def _fit_lists(unit: np.ndarray, lists: int, seed: int) -> np.ndarray:
    """Unit centroids of MiniBatchKMeans fitted on a sample (float64: sklearn's fast path; n_init=1)."""
    from sklearn.cluster import MiniBatchKMeans

    n = unit.shape[0]
    fit_size = min(n, max(IVF_FIT_PER_LIST * lists, 4096))
    rng = np.random.default_rng(seed)
    sample = unit if fit_size == n else unit[np.sort(rng.choice(n, fit_size, replace=False))]
    kmeans = MiniBatchKMeans(
        n_clusters=lists, random_state=seed, n_init=1, batch_size=2048, max_iter=50, max_no_improvement=5
    )
    centres = kmeans.fit(sample.astype(np.float64)).cluster_centers_.astype(np.float32)
    centres /= np.maximum(np.linalg.norm(centres, axis=1, keepdims=True), np.float32(1e-12))
    return centres


def _group(labels: np.ndarray, count: int) -> list[np.ndarray]:
    """Positions of each label value, ascending (one stable argsort, no Python loop over items)."""
    order = np.argsort(labels, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(labels, minlength=count))))
    return [order[bounds[c] : bounds[c + 1]] for c in range(count)]


def _block_topk(
    rows_of_queries: np.ndarray,
    queries: np.ndarray,
    candidates: np.ndarray,
    pool: np.ndarray,
    k: int,
    threshold: float,
) -> Pairs:
    """Top-k of each query (ids ``queries``, unit rows ``rows_of_queries``) among ``candidates`` (sorted
    ids; ``pool`` = their rows), self excluded."""
    scores = rows_of_queries @ pool.T
    np.round(scores, 6, out=scores)
    self_at = np.searchsorted(candidates, queries)
    present = self_at < candidates.size
    present[present] = candidates[self_at[present]] == queries[present]
    scores[np.flatnonzero(present), self_at[present]] = -np.inf
    # The floor is a cheap pre-filter only (a hair below the threshold, so float32 never drops a pair);
    # the exact comparison is made below on the float64 scores.
    rows, cols = topk_positions(scores, k, floor=threshold - 1e-6)
    # The kept scores are computed again in float64: a float32 product's last bits depend on how the BLAS
    # splits it (threads, a Ray worker's one thread), and a score must not.
    picked = np.round(
        np.einsum("ij,ij->i", rows_of_queries[rows].astype(np.float64), pool[cols].astype(np.float64)), 6
    )
    keep = picked >= threshold
    return queries[rows[keep]], candidates[cols[keep]], np.clip(picked[keep], -1.0, 1.0)


def topk_positions(scores: np.ndarray, k: int, floor: float = -np.inf) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) positions of each row's k largest entries that are >= ``floor``; ties -> lower column.

    With a useful floor few entries pass, so they are ranked sparsely (one lexsort over the survivors);
    a dense block falls back to ``np.argpartition`` per row.
    """
    passing = scores >= floor
    if np.count_nonzero(passing) > SPARSE_TOPK_FRACTION * scores.size:
        rows, cols = _topk_dense(scores, min(k, scores.shape[1]))
        keep = scores[rows, cols] >= floor
        return rows[keep], cols[keep]
    rows, cols = np.nonzero(passing)  # row-major: columns ascend within a row
    order = np.lexsort((cols, -scores[rows, cols], rows))
    rows, cols = rows[order], cols[order]
    rank = np.arange(rows.size) - np.searchsorted(rows, rows, side="left")
    return rows[rank < k], cols[rank < k]


def _topk_dense(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-k positions of every row (k < width). ``np.argpartition`` picks an arbitrary subset of the
    entries tied at the k-th value; only rows where that happens are redone with a vectorised tie-break."""
    m, width = scores.shape
    if k >= width:
        return np.nonzero(np.isfinite(scores))
    top = np.argpartition(scores, width - k, axis=1)[:, width - k :]
    kth = np.take_along_axis(scores, top, axis=1).min(axis=1, keepdims=True)
    need = k - np.count_nonzero(scores > kth, axis=1)
    rows = np.repeat(np.arange(m), k)
    cols = top.ravel()
    ragged = np.flatnonzero(np.count_nonzero(scores == kth, axis=1) > need)
    if ragged.size:
        keep = np.ones(m, dtype=bool)
        keep[ragged] = False
        keep = keep[rows]
        sub, sub_kth = scores[ragged], kth[ragged]
        at_cut = sub == sub_kth
        chosen = (sub > sub_kth) | (at_cut & (np.cumsum(at_cut, axis=1) <= need[ragged, None]))
        fix_rows, fix_cols = np.nonzero(chosen)
        rows = np.concatenate([rows[keep], ragged[fix_rows]])
        cols = np.concatenate([cols[keep], fix_cols])
    finite = np.isfinite(scores[rows, cols])
    return rows[finite], cols[finite]


def _concat(parts: list[Pairs]) -> Pairs:
    if not parts:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, np.empty(0, dtype=np.float64)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]


def _undirected(rows: np.ndarray, cols: np.ndarray, scores: np.ndarray) -> Pairs:
    """Each unordered pair once (its higher score if the two directions differ), sorted by (i, j)."""
    lo, hi = np.minimum(rows, cols).astype(np.int64), np.maximum(rows, cols).astype(np.int64)
    order = np.lexsort((-scores, hi, lo))
    lo, hi, scores = lo[order], hi[order], scores[order]
    first = np.ones(lo.size, dtype=bool)
    first[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
    return lo[first], hi[first], scores[first]
