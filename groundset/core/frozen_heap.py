"""Keep Python's cyclic garbage collector off the objects that outlive a run.

A run starts with a large heap that lives through it (the knowledge graph, its parsed Markdown, the fact
index): hundreds of thousands of objects. Every full collection walks all of them again, ~0.3 s on the
Prometheus docs, and blocks the event loop while model answers wait to be read. ``frozen_heap`` moves the
objects alive at its start out of the collector's reach (``gc.freeze``) and gives them back at the end
(``gc.unfreeze``), so the objects a run makes are still collected, and nothing is kept for good.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

_lock = threading.Lock()
_depth = 0  # runs inside one another (or in several threads) thaw once, when the last one ends


@asynccontextmanager
async def frozen_heap() -> AsyncIterator[None]:
    """Freeze the objects alive now while the block (or the decorated coroutine) runs; no collection is
    forced."""
    global _depth
    with _lock:
        _depth += 1
        gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.unfreeze()
