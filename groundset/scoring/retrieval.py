"""ID-based retrieval metrics: retrieved context ids against reference ids, exact and model-free.

Ranks are 1-based positions in `retrieved` as given. A repeated id keeps its first rank and later
copies count as misses, so a retriever that wastes slots on duplicates is not rewarded for them.
`relevant` is a set semantically. Every metric here follows one rule: NaN means "no reference ids
to judge against" (cannot be judged); with reference ids, retrieving nothing scores 0 (judged, and bad).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

NAN = float("nan")


def _ids(values: Sequence[str], name: str) -> list[str]:
    """A bare string is a Sequence[str] too: reject it rather than score its characters."""
    if isinstance(values, str | bytes):
        raise TypeError(f"{name} must be a sequence of ids, not a single string")
    return list(values)


def _dedup(retrieved: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(_ids(retrieved, "retrieved")))


def _check_k(k: int | None) -> None:
    if k is not None and k < 1:
        raise ValueError(f"k must be >= 1 or None, got {k}")


def _gains(retrieved: Sequence[str], relevant: set[str], k: int | None) -> list[int]:
    """Binary gain per rank in the top k; a relevant id scores only at its first occurrence."""
    seen: set[str] = set()
    gains: list[int] = []
    for doc_id in _ids(retrieved, "retrieved")[:k]:
        gains.append(int(doc_id in relevant and doc_id not in seen))
        seen.add(doc_id)
    return gains


def id_precision(retrieved: Sequence[str], relevant: Sequence[str]) -> float:
    """|dedup(retrieved) & relevant| / |dedup(retrieved)|; NaN if there are no relevant ids, 0.0 if
    nothing was retrieved."""
    unique = _dedup(retrieved)
    wanted = set(_ids(relevant, "relevant"))
    if not wanted:
        return NAN
    if not unique:
        return 0.0
    return sum(doc_id in wanted for doc_id in unique) / len(unique)


def id_recall(retrieved: Sequence[str], relevant: Sequence[str]) -> float:
    """|set(retrieved) & set(relevant)| / |set(relevant)|; NaN if there are no relevant ids."""
    wanted = set(_ids(relevant, "relevant"))
    if not wanted:
        return NAN
    return len(wanted & set(_ids(retrieved, "retrieved"))) / len(wanted)


def hit_rate(retrieved: Sequence[str], relevant: Sequence[str], k: int | None = None) -> float:
    """1.0 if any relevant id is in retrieved[:k] else 0.0; NaN if there are no relevant ids."""
    _check_k(k)
    wanted = set(_ids(relevant, "relevant"))
    if not wanted:
        return NAN
    return float(any(g for g in _gains(retrieved, wanted, k)))


def reciprocal_rank(retrieved: Sequence[str], relevant: Sequence[str]) -> float:
    """1 / rank of the first relevant id (1-based), 0.0 if none; NaN if there are no relevant ids."""
    wanted = set(_ids(relevant, "relevant"))
    if not wanted:
        return NAN
    for rank, doc_id in enumerate(_ids(retrieved, "retrieved"), start=1):
        if doc_id in wanted:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(retrieved: Sequence[str], relevant: Sequence[str], k: int | None = None) -> float:
    """DCG / IDCG with DCG = sum_{i<=k} rel_i / log2(i + 1), IDCG over min(k, |relevant|) ideal hits.

    Binary relevance; k=None means the whole retrieved list (IDCG then uses every relevant id).
    NaN if there are no relevant ids.
    """
    _check_k(k)
    wanted = set(_ids(relevant, "relevant"))
    if not wanted:
        return NAN
    gains = _gains(retrieved, wanted, k)
    dcg = math.fsum(g / math.log2(i + 1) for i, g in enumerate(gains, start=1) if g)
    ideal_hits = len(wanted) if k is None else min(k, len(wanted))
    idcg = math.fsum(1.0 / math.log2(i + 1) for i in range(1, ideal_hits + 1))
    return dcg / idcg
