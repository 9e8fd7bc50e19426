"""``frozen_heap``: the objects alive when a run starts are out of the collector's reach until it ends."""

from __future__ import annotations

import asyncio
import gc

import pytest

from groundset.core.frozen_heap import frozen_heap


def test_the_heap_is_frozen_during_the_block_and_given_back_after():
    alive = [object() for _ in range(1000)]

    async def run() -> int:
        async with frozen_heap():
            return gc.get_freeze_count()

    assert gc.get_freeze_count() == 0
    assert asyncio.run(run()) >= len(alive)
    assert gc.get_freeze_count() == 0


def test_nested_and_decorated_runs_give_the_heap_back_once_the_outer_one_ends():
    seen: list[int] = []

    @frozen_heap()
    async def inner() -> None:
        seen.append(gc.get_freeze_count())

    async def outer() -> None:
        async with frozen_heap():
            await inner()
            await asyncio.gather(inner(), inner())
            seen.append(gc.get_freeze_count())  # the inner runs ended: still frozen

    asyncio.run(outer())
    assert len(seen) == 4 and all(count > 0 for count in seen)
    assert gc.get_freeze_count() == 0


def test_a_failing_run_gives_the_heap_back():
    @frozen_heap()
    async def fails() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        asyncio.run(fails())
    assert gc.get_freeze_count() == 0
