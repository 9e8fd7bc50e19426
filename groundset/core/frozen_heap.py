"""Keep Python's cyclic garbage collector off the objects that outlive a run.

A run starts with a large heap that lives through it (the knowledge graph, its parsed Markdown, the fact
index): hundreds of thousands of objects. Every full collection walks all of them again, ~0.3 s on the
Prometheus docs, and blocks the event loop while model answers wait to be read. ``frozen_heap`` moves the
objects alive at its start out of the collector's reach (``gc.freeze``) and gives them back at the end
(``gc.unfreeze``), so the objects a run makes are still collected, and nothing is kept for good.

The freeze belongs to the process, not to us: ``gc.unfreeze`` thaws every frozen object, and there is no
way to thaw only some. So when the host application has frozen objects of its own when our outermost run
starts (``gc.get_freeze_count() > 0``, e.g. it froze its startup heap before forking workers), we neither
freeze nor unfreeze: unfreezing would thaw the host's objects, and freezing without unfreezing would keep
our graph, and whatever the host made since its freeze, out of the collector's reach for good. The run then
only forgoes the shorter pauses. Left open: a host thread that calls ``gc.freeze()`` while one of our runs
is under way has that freeze undone when the run ends; the gc API cannot tell its objects from ours.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

_lock = threading.Lock()
_depth = 0  # runs inside one another (or in several threads) thaw once, when the last one ends
_ours = False  # whether the outermost run found nothing frozen, so that the freeze is ours to undo


@asynccontextmanager
async def frozen_heap() -> AsyncIterator[None]:
    """Freeze the objects alive now while the block (or the decorated coroutine) runs; no collection is
    forced. Does nothing while the host application holds a freeze of its own."""
    global _depth, _ours
    with _lock:
        if _depth == 0:
            _ours = gc.get_freeze_count() == 0
        _depth += 1
        if _ours:
            gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _ours:
                gc.unfreeze()
