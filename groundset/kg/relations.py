"""A knowledge graph's edges as columns, not networkx attribute dicts.

A corpus of 100,000 chunks has well over a million relationship edges (similar, entity_overlap,
theme_overlap) and two hundred thousand structure edges (child, next). In a ``networkx.MultiDiGraph``
each one costs about 520 bytes (a key dict, an attribute dict, two adjacency entries); here it costs
about 20: two node numbers, a score and the number of its shared-items tuple, each tuple stored once.
Relationship edges are symmetric (stored once, the smaller id first; a node's neighbours are found at
either end); the ``directed`` kinds (structure edges) hold no score or items and lead from source to
target.

Edges are appended to growing arrays and settled lazily: the first read after a write merges repeated
pairs (the last write's data wins, the first write's place is kept, as a dict update would) and builds
the per-node offsets that ``neighbours`` and ``edge`` read. Node ids get numbers once, and a removed
node's edges are dropped at once, so an id that comes back starts with none.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

NO_SHARED = -1


@dataclass
class _Settled:
    source: np.ndarray  # int32 node numbers, smaller id first
    target: np.ndarray
    score: np.ndarray  # float64, NaN: no score
    shared: np.ndarray  # int32 into Relations.shared_items, -1: none
    out_order: np.ndarray | None = None  # rows by source number, then row
    out_start: np.ndarray | None = None
    in_order: np.ndarray | None = None  # rows by target number, then row
    in_start: np.ndarray | None = None


def _empty() -> _Settled:
    return _Settled(
        np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.float64), np.zeros(0, np.int32)
    )


class _Table:
    """The edges of one kind: settled columns plus the rows appended since."""

    def __init__(self) -> None:
        self.settled = _empty()
        self.pending = (array("i"), array("i"), array("d"), array("i"))

    def append(self, source: int, target: int, score: float, shared: int) -> None:
        for column, value in zip(self.pending, (source, target, score, shared), strict=True):
            column.append(value)

    def extend(self, source: np.ndarray, target: np.ndarray, score: np.ndarray, shared: np.ndarray) -> None:
        self.settle(len_nodes=None)  # keep rows in write order: earlier appends first
        self._add_rows(source, target, score, shared)

    def settle(self, len_nodes: int | None) -> _Settled:
        if len(self.pending[0]):
            columns = [np.frombuffer(c, dtype=c.typecode) for c in self.pending]
            self.pending = (array("i"), array("i"), array("d"), array("i"))
            self._add_rows(*columns)
        if len_nodes is not None and self.settled.out_start is None:
            self._index(len_nodes)
        return self.settled

    def _add_rows(
        self, source: np.ndarray, target: np.ndarray, score: np.ndarray, shared: np.ndarray
    ) -> None:
        """The settled rows, then these (a new index is built on the next read)."""
        s = self.settled
        self.settled = _Settled(
            np.concatenate([s.source, source.astype(np.int32)]),
            np.concatenate([s.target, target.astype(np.int32)]),
            np.concatenate([s.score, score.astype(np.float64)]),
            np.concatenate([s.shared, shared.astype(np.int32)]),
        )
        self._merge()

    def _merge(self) -> None:
        """One row per pair: the first row's place, the last row's data."""
        s = self.settled
        if not len(s.source):
            return
        key = (s.source.astype(np.int64) << 32) | s.target.astype(np.int64)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        if len(first) == len(key):
            return
        last = np.zeros(len(first), dtype=np.int64)
        np.maximum.at(last, inverse.ravel(), np.arange(len(key)))
        order = np.argsort(first, kind="stable")
        first, last = first[order], last[order]
        self.settled = _Settled(s.source[first], s.target[first], s.score[last], s.shared[last])

    def _index(self, len_nodes: int) -> None:
        s = self.settled
        s.out_order = np.argsort(s.source, kind="stable").astype(np.int32)
        s.out_start = np.searchsorted(s.source[s.out_order], np.arange(len_nodes + 1)).astype(np.int64)
        s.in_order = np.argsort(s.target, kind="stable").astype(np.int32)
        s.in_start = np.searchsorted(s.target[s.in_order], np.arange(len_nodes + 1)).astype(np.int64)

    def keep(self, mask: np.ndarray) -> int:
        """Keep the settled rows where ``mask`` holds; returns how many were dropped."""
        s = self.settled
        dropped = int(len(mask) - mask.sum())
        if dropped:
            self.settled = _Settled(s.source[mask], s.target[mask], s.score[mask], s.shared[mask])
        return dropped


class Relations:
    """The edges of a knowledge graph, by kind (a kind is its string value); ``directed`` names the kinds
    whose edges lead one way (the others are symmetric)."""

    def __init__(self, directed: Iterable[str] = ()) -> None:
        self.directed = frozenset(directed)
        self.ids: list[str] = []
        self.numbers: dict[str, int] = {}
        self.shared_items: list[tuple[str, ...]] = []
        self._shared_numbers: dict[tuple[str, ...], int] = {}
        self._tables: dict[str, _Table] = {}

    # -- numbering -----------------------------------------------------------------------------
    def number(self, node: str) -> int:
        found = self.numbers.get(node)
        if found is None:
            found = self.numbers[node] = len(self.ids)
            self.ids.append(node)
        return found

    def places(self, place_of: dict[str, int]) -> np.ndarray:
        """Each numbered node's place in ``place_of`` (-1: not in it), indexed by node number: what turns an
        edge column of node numbers into places in some order of the nodes."""
        return np.fromiter((place_of.get(n, -1) for n in self.ids), dtype=np.int64, count=len(self.ids))

    def _numbers(self, nodes: Sequence[str]) -> np.ndarray:
        return np.fromiter((self.number(n) for n in nodes), dtype=np.int64, count=len(nodes))

    def shared_number(self, shared: Sequence[str] | None) -> int:
        if shared is None:
            return NO_SHARED
        items = tuple(shared)
        found = self._shared_numbers.get(items)
        if found is None:
            found = self._shared_numbers[items] = len(self.shared_items)
            self.shared_items.append(items)
        return found

    def _table(self, kind: str) -> _Table:
        return self._tables.setdefault(kind, _Table())

    def _settled(self, kind: str) -> _Settled:
        table = self._tables.get(kind)
        return table.settle(len(self.ids)) if table is not None else _empty()

    # -- writing -------------------------------------------------------------------------------
    def add(
        self, kind: str, source: str, target: str, score: float | None, shared: Sequence[str] | None
    ) -> None:
        """Add or update one edge (``source`` < ``target`` if the kind is symmetric)."""
        table = self._table(kind)
        table.append(
            self.number(source),
            self.number(target),
            np.nan if score is None else float(score),
            self.shared_number(shared),
        )

    def add_many(
        self,
        kind: str,
        nodes: Sequence[str],
        pairs: Iterable[tuple[int, int, float, Sequence[str] | None]],
    ) -> int:
        """Add edges given as (i, j, score, shared) over positions in ``nodes`` (ids in any order)."""
        numbers = self._numbers(nodes)
        left, right, scores, shared = [], [], [], []
        for i, j, score, items in pairs:
            if nodes[i] > nodes[j]:
                i, j = j, i
            left.append(i)
            right.append(j)
            scores.append(np.nan if score is None else score)
            shared.append(self.shared_number(items))
        if left:
            self._table(kind).extend(
                numbers[np.asarray(left)],
                numbers[np.asarray(right)],
                np.asarray(scores, dtype=np.float64),
                np.asarray(shared, dtype=np.int64),
            )
        return len(left)

    def add_columns(
        self,
        kind: str,
        nodes: Sequence[str],
        first: np.ndarray,
        second: np.ndarray,
        scores: np.ndarray,
        shared: np.ndarray | None = None,
        shared_items: Sequence[tuple[str, ...]] = (),
    ) -> int:
        """Add edges given as columns of positions in ``nodes``, their scores and (optionally) the number
        of each edge's shared items in ``shared_items``: no tuple per edge (a million similarity pairs)."""
        rank = np.empty(len(nodes), dtype=np.int64)
        rank[sorted(range(len(nodes)), key=nodes.__getitem__)] = np.arange(len(nodes))
        swap = rank[first] > rank[second]  # the smaller id first
        low, high = np.where(swap, second, first), np.where(swap, first, second)
        numbers = self._numbers(nodes)
        if len(low):
            self._table(kind).extend(
                numbers[low],
                numbers[high],
                np.asarray(scores, dtype=np.float64),
                self._shared_numbers_of(shared, shared_items, len(low)),
            )
        return len(low)

    def load_columns(
        self,
        kind: str,
        nodes: Sequence[str],
        shared_items: Sequence[tuple[str, ...]],
        source: np.ndarray,
        target: np.ndarray,
        score: np.ndarray,
        shared: np.ndarray,
    ) -> None:
        """Add saved edges (``source``, ``target``: places in ``nodes``; ``shared``: in ``shared_items``)."""
        numbers = self._numbers(nodes)
        mapped = self._shared_numbers_of(shared, shared_items, len(source))
        self._table(kind).extend(numbers[source], numbers[target], score, mapped)

    def _shared_numbers_of(
        self, shared: np.ndarray | None, items: Sequence[tuple[str, ...]], count: int
    ) -> np.ndarray:
        """Edges' numbers in ``items`` (-1: none) as numbers in this store's ``shared_items``."""
        if shared is None or not len(items):
            return np.full(count, NO_SHARED, dtype=np.int64)
        ours = np.fromiter((self.shared_number(t) for t in items), dtype=np.int64, count=len(items))
        return np.where(shared >= 0, ours[np.maximum(shared, 0)], NO_SHARED)

    def remove_kind(self, kind: str) -> int:
        table = self._tables.pop(kind, None)
        return len(table.settle(None).source) if table is not None else 0

    def remove_among(self, kind: str, nodes: Iterable[str]) -> int:
        """Drop the ``kind`` edges whose two ends are both in ``nodes``."""
        table = self._tables.get(kind)
        if table is None:
            return 0
        s = table.settle(None)
        members = np.zeros(len(self.ids), dtype=bool)
        members[[self.numbers[n] for n in nodes if n in self.numbers]] = True
        return table.keep(~(members[s.source] & members[s.target]))

    def remove_nodes(self, nodes: Iterable[str]) -> None:
        numbers = [self.numbers[n] for n in nodes if n in self.numbers]
        if not numbers:
            return
        gone = np.zeros(len(self.ids), dtype=bool)
        gone[numbers] = True
        for table in self._tables.values():
            s = table.settle(None)
            table.keep(~(gone[s.source] | gone[s.target]))

    # -- reading -------------------------------------------------------------------------------
    def kinds(self) -> list[str]:
        return [kind for kind in self._tables if self.count(kind)]

    def count(self, kind: str) -> int:
        return len(self._settled(kind).source)

    def data(self, kind: str, row: int, settled: _Settled | None = None) -> dict[str, Any]:
        s = settled if settled is not None else self._settled(kind)
        data: dict[str, Any] = {"kind": kind}
        if kind in self.directed:
            return data
        score = float(s.score[row])
        if score == score:  # not NaN
            data["score"] = score
        shared = int(s.shared[row])
        if shared != NO_SHARED:
            data["shared"] = list(self.shared_items[shared])
        data["symmetric"] = True
        return data

    def rows(
        self, kind: str, positions: dict[str, int] | None = None
    ) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """(source, target, data) of every ``kind`` edge; with ``positions`` (node -> place), ordered by
        the source's place, then by when the edge was first added (the order networkx would give)."""
        s = self._settled(kind)
        order = np.arange(len(s.source))
        if positions is not None and len(order):
            order = np.argsort(self.places(positions)[s.source], kind="stable")
        for row in order.tolist():
            yield self.ids[s.source[row]], self.ids[s.target[row]], self.data(kind, row, s)

    def edge(self, kind: str, source: str, target: str) -> dict[str, Any] | None:
        a, b = self.numbers.get(source), self.numbers.get(target)
        if a is None or b is None or kind not in self._tables:
            return None
        s = self._settled(kind)
        rows = s.out_order[s.out_start[a] : s.out_start[a + 1]]
        hit = rows[s.target[rows] == b]
        return self.data(kind, int(hit[0]), s) if len(hit) else None

    def neighbours(self, kind: str, node: str) -> list[str]:
        """Nodes an edge leads to from ``node`` and, for a symmetric kind, those it comes from (where
        ``node`` is the larger id), each in the order the edges were added."""
        number = self.numbers.get(node)
        if number is None or kind not in self._tables:
            return []
        s = self._settled(kind)
        out = s.out_order[s.out_start[number] : s.out_start[number + 1]]
        found = [self.ids[n] for n in s.target[out].tolist()]
        if kind not in self.directed:
            into = s.in_order[s.in_start[number] : s.in_start[number + 1]]
            found += [self.ids[n] for n in s.source[into].tolist()]
        return found

    def columns(self, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Node numbers of both ends, scores and shared numbers of every ``kind`` edge (for saving)."""
        s = self._settled(kind)
        return s.source, s.target, s.score, s.shared

    def copy_among(self, nodes: Iterable[str]) -> Relations:
        """A new store with only the edges among ``nodes`` (column by column: no dict an edge)."""
        members = np.zeros(len(self.ids), dtype=bool)
        members[[self.numbers[n] for n in set(nodes) if n in self.numbers]] = True
        kept = np.flatnonzero(members)
        place = np.full(len(self.ids), -1, dtype=np.int64)
        place[kept] = np.arange(len(kept))
        kept_nodes = [self.ids[number] for number in kept.tolist()]
        copy = Relations(self.directed)
        for kind in self._tables:
            s = self._settled(kind)
            among = members[s.source] & members[s.target]
            if among.any():
                copy.load_columns(
                    kind,
                    kept_nodes,
                    self.shared_items,
                    place[s.source[among]],
                    place[s.target[among]],
                    s.score[among],
                    s.shared[among],
                )
        return copy
