"""Overlap pairs (shared entities or themes) from an inverted index, never from a loop over all pairs.

Items are normalised, then fuzzy variants are merged *once per vocabulary* (compact keys for spacing,
hyphens and plurals; rapidfuzz ``cdist`` inside small blocks for typos), so each node becomes a set of
canonical item ids. Shared counts for every candidate pair come from one sparse product of the
node x item incidence matrix (the inverted index, evaluated in C), in row blocks of bounded size.
Items in more than ``max(min_df_cap, min(max_df * n, max_df_cap))`` nodes are "stop items" (the
absolute ceiling keeps candidate counts linear in n on big corpora), treated like stop words:
they are left out of candidate generation *and* of ``shared`` and the score (an item in most chunks
says nothing about two chunks being related, and would otherwise dominate every edge's items).
"""

from __future__ import annotations

import gc
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from rapidfuzz import fuzz, process
from scipy.sparse.csgraph import connected_components

#: Budget of candidate entries (directed pairs) scored at once; bounds the memory a block takes on top of the
#: graph (a large build's peak is in these stages; the pairs found do not depend on it).
BLOCK_ENTRIES = 500_000
BLOCK_ROWS = 4096
#: Largest (crowded rows x distinct scores) histogram per block; beyond it a block is ranked by sorting. A
#: histogram and its running sum are int64: at most 64 MB.
HISTOGRAM_CELLS = 4_000_000
#: Typo blocks larger than this are not compared (compact-key merges still apply there).
FUZZY_BLOCK_CAP = 4000
_KEEP_S = frozenset({"https", "ftps", "sftps", "wss", "aws", "gcs", "dns", "ios", "macos", "kubernetes"})
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")
_WRAPPERS = " \t\r\n`'\"“”‘’"  # stripped from surface forms: "`PromQL`" reads as "PromQL"
_SEPARATORS = re.compile(r"[^\w+#]+|_+")

Pair = tuple[int, int, float, list[str]]
#: (i, j, score, number of the shared-items tuple, the tuples): see ``overlap_pair_arrays``.
OverlapColumns = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[tuple[str, ...]]]


def normalise_item(text: str) -> str:
    """Casefolded, possessive and punctuation (incl. backticks) stripped, whitespace collapsed.

    ``+`` and ``#`` are kept so "C++" and "C#" stay distinct from "C".
    """
    text = _POSSESSIVE.sub("", text.casefold().replace("`", ""))
    return " ".join(_SEPARATORS.sub(" ", text).split())


def compact_keys(norm: str) -> list[str]:
    """Spacing- and plural-insensitive keys: "Alert Managers" and "alertmanager" share "alertmanager".

    Every word loses a plural "s" (the first key); the last word also tries the "-es"/"-ies" readings.
    """
    words = [_strip_s(w) for w in norm.split()]
    last = norm.rsplit(" ", 1)[-1]
    tails = [words[-1]] if words else []
    if last.isalpha() and len(last) > 4 and last not in _KEEP_S:
        if last.endswith("ies"):
            tails.append(last[:-3] + "y")
        if last.endswith("es"):
            tails.append(last[:-2])
    return ["".join(words[:-1]) + tail for tail in dict.fromkeys(tails)]


def _strip_s(word: str) -> str:
    keep = len(word) <= 3 or not word.isalpha() or word in _KEEP_S or word.endswith(("ss", "us", "is"))
    return word if keep or not word.endswith("s") else word[:-1]


@dataclass
class _Prepared:
    """Nodes as sorted sets of canonical item ids (CSR, stop items removed) and how to print them."""

    incidence: sp.csr_matrix  # nodes x canonical items, 0/1, sorted indices
    surfaces: np.ndarray  # object array aligned with incidence entries: first surface form in that node
    ranks: np.ndarray  # sort rank of each entry's surface form (casefolded, then as written)
    stop_items: list[str]  # most common surface form of each stop item, most frequent first


def overlap_pairs(item_sets: Sequence[Sequence[str]], **options: Any) -> list[Pair]:
    """``(i, j, jaccard, shared surface forms of i)`` for node pairs sharing >= ``min_shared`` items, sorted
    by (i, j): ``overlap_pair_arrays`` (same options) as one tuple per pair."""
    lo, hi, scores, shared, items = overlap_pair_arrays(item_sets, **options)
    rows = zip(lo.tolist(), hi.tolist(), scores.tolist(), shared.tolist(), strict=True)
    return [(i, j, score, list(items[number])) for i, j, score, number in rows]


def overlap_pair_arrays(
    item_sets: Sequence[Sequence[str]],
    *,
    min_shared: int = 1,
    min_score: float = 0.0,
    fuzzy_threshold: float | None = 90.0,
    max_df: float = 0.05,
    min_df_cap: int = 50,
    max_df_cap: int = 500,
    max_pairs_per_node: int | None = 20,
    map_batches: Callable[..., list[Any]] | None = None,
) -> OverlapColumns:
    """Node pairs sharing >= ``min_shared`` items, as columns sorted by (i, j): i, j, their jaccard score,
    and the number in ``items`` of the items they share (as node i wrote them, sorted), each distinct tuple
    listed once: a million pairs as tuples with lists would take 200 MB, and most pairs share one of a few
    thousand tuples.

    A pair is kept if it is among the ``max_pairs_per_node`` best (score, then lower index) of either
    endpoint. ``fuzzy_threshold=None`` matches normalised items exactly. ``map_batches``
    (``Backend.map_batches``): where the row blocks are scored, e.g. on Ray; the same pairs.
    """
    _check(min_shared, min_score, fuzzy_threshold, max_df, max_pairs_per_node)
    with _gc_paused():
        prep = _prepare(item_sets, fuzzy_threshold, max_df, min_df_cap, max_df_cap)
        if prep.incidence.shape[0] < 2 or prep.incidence.nnz == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros(0, dtype=np.float64), np.zeros(0, dtype=np.int32), []
        lo, hi, scores = _scored_pairs(prep.incidence, min_shared, min_score, max_pairs_per_node, map_batches)
        shared, items = _shared_surfaces(prep, lo, hi)
        return lo, hi, scores, shared, items


def frequent_items(
    item_sets: Sequence[Sequence[str]],
    max_df: float = 0.05,
    min_df_cap: int = 50,
    max_df_cap: int = 500,
    *,
    fuzzy_threshold: float | None = 90.0,
) -> list[str]:
    """The stop items ``overlap_pairs`` leaves out (their most common surface form), most frequent first,
    so callers can log them."""
    _check(1, 0.0, fuzzy_threshold, max_df, None)
    with _gc_paused():
        return _prepare(item_sets, fuzzy_threshold, max_df, min_df_cap, max_df_cap).stop_items


def _check(shared: int, score: float, fuzzy: float | None, max_df: float, per_node: int | None) -> None:
    problems = {
        f"min_shared must be >= 1, got {shared!r}": shared < 1,
        f"min_score must be within [0, 1], got {score!r}": not 0.0 <= score <= 1.0,
        f"fuzzy_threshold must be within [0, 100] or None, got {fuzzy!r}": fuzzy is not None
        and not 0.0 <= fuzzy <= 100.0,
        f"max_df must be within (0, 1], got {max_df!r}": not 0.0 < max_df <= 1.0,
        f"max_pairs_per_node must be >= 1 or None, got {per_node!r}": per_node is not None and per_node < 1,
    }
    for message, failed in problems.items():
        if failed:
            raise ValueError(f"overlap_pairs: {message}")


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic GC while ~10^6 small dicts, lists and tuples are built (none of them cyclic):
    otherwise repeated collections of the growing young generation about double the Python-side time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _prepare(
    item_sets: Sequence[Sequence[str]],
    fuzzy_threshold: float | None,
    max_df: float,
    min_df_cap: int,
    max_df_cap: int,
) -> _Prepared:
    """Normalise every item once (cached per raw string), merge variants, drop stop items, build CSR."""
    vocab: dict[str, int] = {}
    cache: dict[str, str] = {}
    node_items: list[dict[int, str]] = []
    for items in item_sets:
        if isinstance(items, str):
            raise TypeError("overlap_pairs: each node needs a sequence of items, got a bare string")
        seen: dict[int, str] = {}
        for raw in items:
            if raw is None:
                continue
            if not isinstance(raw, str):
                raise TypeError(f"overlap_pairs: items must be strings, got {type(raw).__name__}")
            norm = cache.get(raw)
            if norm is None:
                norm = cache[raw] = normalise_item(raw)
            if norm:
                seen.setdefault(vocab.setdefault(norm, len(vocab)), raw.strip(_WRAPPERS))
        node_items.append(seen)
    canon = _canonical_ids(list(vocab), fuzzy_threshold).tolist()
    nodes = [{canon[vid]: surface for vid, surface in reversed(seen.items())} for seen in node_items]
    df = Counter(item for names in nodes for item in names)
    cap = max(float(min_df_cap), min(max_df * len(nodes), float(max_df_cap)))
    stop = {item for item, count in df.items() if count > cap}
    indptr, indices, surfaces = [0], [], []
    forms: dict[int, Counter[str]] = {item: Counter() for item in stop}
    for names in nodes:
        for item in sorted(names):
            if item in stop:
                forms[item][names[item]] += 1
            else:
                indices.append(item)
                surfaces.append(names[item])
        indptr.append(len(indices))
    rank_of = {s: r for r, s in enumerate(sorted(set(surfaces), key=lambda s: (s.casefold(), s)))}
    ranks = np.fromiter((rank_of[s] for s in surfaces), dtype=np.int64, count=len(surfaces))
    shape = (len(nodes), max(canon) + 1 if canon else 0)
    cols = np.asarray(indices, dtype=np.int64)
    incidence = sp.csr_matrix((np.ones(cols.size, dtype=np.int32), cols, np.asarray(indptr)), shape=shape)
    named = {item: counts.most_common(1)[0][0] for item, counts in forms.items()}
    stop_items = [named[c] for c in sorted(named, key=lambda c: (-df[c], named[c]))]
    return _Prepared(incidence, np.asarray(surfaces, dtype=object), ranks, stop_items)


def _canonical_ids(vocab: list[str], fuzzy_threshold: float | None) -> np.ndarray:
    """Canonical id per normalised item: connected components of "is a variant of" (vocabulary-wide)."""
    size = len(vocab)
    if fuzzy_threshold is None or size < 2:
        return np.arange(size, dtype=np.int64)
    keys: dict[str, int] = {}
    src: list[int] = []
    dst: list[int] = []
    primary: list[str] = []
    for vid, norm in enumerate(vocab):
        variants = compact_keys(norm)
        primary.append(variants[0])
        for key in variants:
            src.append(vid)
            dst.append(size + keys.setdefault(key, len(keys)))
    a, b = _typo_pairs(primary, fuzzy_threshold)
    src.extend(a)
    dst.extend(b)
    total = size + len(keys)
    graph = sp.coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(total, total))
    _, labels = connected_components(graph, directed=False)
    _, canon = np.unique(labels[:size], return_inverse=True)
    return canon.astype(np.int64)


def _typo_pairs(primary: list[str], threshold: float) -> tuple[list[int], list[int]]:
    """Index pairs whose compact keys have ``fuzz.ratio >= threshold`` (and the same digits).

    Blocked by (3-letter prefix or suffix) x (length band of 4, two grids offset by 2), so two keys
    within 2 characters of length that agree at either end are always compared.
    """
    blocks: dict[tuple[str, str, int, int], list[int]] = {}
    for vid, key in enumerate(primary):
        if len(key) < 5:
            continue
        for end, affix in (("p", key[:3]), ("s", key[-3:])):
            for grid in (0, 2):
                blocks.setdefault((end, affix, grid, (len(key) + grid) // 4), []).append(vid)
    digits = [re.sub(r"\D", "", key) for key in primary]
    pairs: set[tuple[int, int]] = set()
    for ids in blocks.values():
        if len(ids) < 2 or len(ids) > FUZZY_BLOCK_CAP:
            continue
        words = [primary[i] for i in ids]
        hits = process.cdist(words, words, scorer=fuzz.ratio, score_cutoff=threshold, dtype=np.uint8)
        for x, y in zip(*np.nonzero(np.triu(hits, 1)), strict=True):
            i, j = ids[x], ids[y]
            if primary[i] != primary[j] and digits[i] == digits[j]:
                pairs.add((i, j))
    return [p[0] for p in pairs], [p[1] for p in pairs]


def _scored_pairs(
    inc: sp.csr_matrix,
    min_shared: int,
    min_score: float,
    limit: int | None,
    map_batches: Callable[..., list[Any]] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Undirected pairs (lo, hi, score) sorted by (lo, hi) among nodes sharing an item of ``inc``.

    Rows are processed in blocks whose candidate count (sum of the rows' item frequencies) stays
    under ``BLOCK_ENTRIES``; each block is one sparse product against the transposed index, and a
    partition of its own (``block_pairs``), so blocks may be scored anywhere (``map_batches``).
    Scores are kept as integers q = round(score * 1e6), so ranking and rounding are exact.
    """
    n = inc.shape[0]
    inc_t = inc.T.tocsr()
    cost = np.cumsum(inc @ np.diff(inc_t.indptr).astype(np.int64))
    cuts = np.searchsorted(cost, np.arange(BLOCK_ENTRIES, cost[-1] + 1, BLOCK_ENTRIES), side="right")
    bounds = np.unique(np.concatenate((np.arange(0, n, BLOCK_ROWS), cuts, [n]))).tolist()
    blocks = list(zip(bounds[:-1], bounds[1:], strict=True))
    shared = (inc, inc_t, min_shared, math.ceil(min_score * 1e6 - 1e-6), limit)
    if map_batches is None:
        parts = block_pairs(blocks, shared)
    else:
        parts = [part for batch in map_batches(block_pairs, blocks, shared=shared) for part in batch]
    lo, hi, q = (np.concatenate([part[i] for part in parts]).astype(np.int64) for i in range(3))
    _, first = np.unique(lo * n + hi, return_index=True)  # both directions carry the same integer score
    return lo[first], hi[first], q[first] / 1e6


def block_pairs(
    blocks: list[tuple[int, int]], shared: tuple[sp.csr_matrix, sp.csr_matrix, int, int, int | None]
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(lo, hi, q) of each row block [a, b): its rows' pairs, each row's ``limit`` best. ``shared``: the
    incidence matrix, its transpose, the least shared count and score (q) and the limit."""
    inc, inc_t, min_shared, min_q, limit = shared
    sizes = np.diff(inc.indptr).astype(np.int64)
    found = []
    for a, b in blocks:
        block = inc[a:b] @ inc_t
        rows = np.repeat(np.arange(a, b), np.diff(block.indptr))
        cols, common = block.indices, block.data
        q = np.rint(common * 1e6 / (sizes[rows] + sizes[cols] - common)).astype(np.int64)
        ok = cols != rows
        if min_shared > 1:
            ok &= common >= min_shared
        if min_q > 0:
            ok &= q >= min_q
        rows, cols, q = rows[ok], cols[ok], q[ok]
        if limit is not None:
            best = _row_topk(rows - a, cols, q, b - a, limit)
            rows, cols, q = rows[best], cols[best], q[best]
        found.append((np.minimum(rows, cols), np.maximum(rows, cols), q))
    return found


def _shared_surfaces(
    prep: _Prepared, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, list[tuple[str, ...]]]:
    """Shared items of each pair as node lo wrote them, sorted: per pair the number of its tuple, and the
    distinct tuples in the order they first appear. One sparse product, no per-pair sets."""
    inc = prep.incidence
    both = inc[lo].multiply(inc[hi]).tocsr()
    both.sort_indices()
    pair = np.repeat(np.arange(lo.size), np.diff(both.indptr))
    width = max(inc.shape[1], 1)
    keys = np.repeat(np.arange(inc.shape[0]), np.diff(inc.indptr)) * width + inc.indices
    at = np.searchsorted(keys, lo[pair] * width + both.indices)
    at = at[np.lexsort((prep.ranks[at], pair))]
    del pair, keys
    names = prep.surfaces[at].tolist()
    ends = both.indptr.tolist()
    numbers = np.empty(lo.size, dtype=np.int32)
    found: dict[tuple[str, ...], int] = {}
    for place, (start, end) in enumerate(zip(ends[:-1], ends[1:], strict=True)):
        numbers[place] = found.setdefault(tuple(names[start:end]), len(found))
    return numbers, list(found)


def _row_topk(rows: np.ndarray, cols: np.ndarray, q: np.ndarray, height: int, limit: int) -> np.ndarray:
    """Mask of each row's ``limit`` best entries (higher q, then lower column), in O(entries).

    Scores are few distinct values, so a per-row histogram over score levels finds each row's cut;
    only entries tied at the cut are sorted (by column) to fill the remaining places.
    """
    keep = np.ones(rows.size, dtype=bool)
    crowded = np.bincount(rows, minlength=height) > limit
    if not crowded.any():
        return keep
    sel = np.flatnonzero(crowded[rows])
    row_at, qq, cc = (np.cumsum(crowded) - 1)[rows[sel]], q[sel], cols[sel]
    present = np.zeros(1_000_001, dtype=bool)
    present[qq] = True
    level = (np.cumsum(present[::-1])[::-1] - 1)[qq]  # 0 = best score present
    tall, width = int(crowded.sum()), int(present.sum())
    if tall * width > HISTOGRAM_CELLS:  # too many distinct scores for a histogram: sort them all instead
        chosen, tied, need = np.zeros(sel.size, dtype=bool), np.arange(sel.size), np.full(tall, limit)
    else:
        hist = np.bincount(row_at * width + level, minlength=tall * width).reshape(tall, width)
        cum = np.cumsum(hist, axis=1)
        cut = np.argmax(cum >= limit, axis=1)
        need = limit - np.where(cut > 0, np.take_along_axis(cum, np.maximum(cut - 1, 0)[:, None], 1)[:, 0], 0)
        chosen = level < cut[row_at]
        tied = np.flatnonzero(level == cut[row_at])
    tied = tied[np.lexsort((cc[tied], level[tied], row_at[tied]))]
    tied_rows = row_at[tied]
    rank = np.arange(tied.size) - np.searchsorted(tied_rows, tied_rows, side="left")
    chosen[tied[rank < need[tied_rows]]] = True
    keep[sel] = chosen
    return keep
