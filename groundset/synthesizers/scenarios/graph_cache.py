"""A small cache of what is built from a graph's chunks (the fact index, the chunk index of the
out-of-scope check), keyed by the chunk ids: they change with any chunk's text, so a changed graph
never gets a stale index. Thread-safe; the least recently used entries go first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from ...core.hashing import stable_hash
from ...kg.graph import KnowledgeGraph, NodeKind

T = TypeVar("T")


class GraphCache(Generic[T]):
    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[str, T] = OrderedDict()

    def get(self, kg: KnowledgeGraph, build: Callable[[KnowledgeGraph, list[str]], T]) -> T:
        """The value for ``kg``, made by ``build(kg, sorted chunk ids)`` when not cached."""
        chunks = sorted(kg.nodes(NodeKind.CHUNK))
        key = stable_hash(chunks, length=16)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = build(kg, chunks)
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value
