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


# A host application may freeze its own heap (e.g. before forking workers) and must find it frozen after
# our runs: gc.unfreeze() thaws every frozen object, the host's too, so we stay out of its way.


class HostObject:
    """An object of the host application (an instance: the collector tracks it)."""


def is_frozen(obj: object) -> bool:
    """Frozen objects sit in the permanent generation, which ``gc.get_objects()`` does not list."""
    return gc.is_tracked(obj) and not any(found is obj for found in gc.get_objects())


@pytest.fixture
def host_froze():
    """The host's own ``gc.freeze()`` before our run; undone by the host (this fixture) afterwards."""
    assert gc.get_freeze_count() == 0
    before = HostObject()
    gc.freeze()
    after = HostObject()  # made after the host froze: the host left it to the collector
    try:
        yield before, after
    finally:
        gc.unfreeze()


def test_a_host_freeze_survives_our_runs_and_we_freeze_nothing_of_our_own(host_froze):
    before, after = host_froze
    frozen_at_start = gc.get_freeze_count()

    @frozen_heap()
    async def inner() -> None:
        assert not is_frozen(after)  # we froze nothing: the host's state is the host's

    async def outer() -> None:
        async with frozen_heap():
            await asyncio.gather(inner(), inner())

    asyncio.run(outer())
    assert is_frozen(before) and not is_frozen(after)
    assert gc.get_freeze_count() >= frozen_at_start - 100  # only objects freed meanwhile left it


def test_a_host_freeze_survives_a_scoring_run(host_froze):
    from groundset.samples.dataset import EvaluationDataset
    from groundset.scoring import evaluate
    from groundset.scoring.metrics import HitRate

    before, after = host_froze
    rows = [{"retrieved_context_ids": ["a", "b"], "reference_context_ids": ["b"]}]
    result = evaluate(EvaluationDataset.from_list(rows), [HitRate()], cache=False, show_progress=False)
    assert result.scores(result.metrics[0]) == [1.0]
    assert is_frozen(before) and not is_frozen(after)


def test_a_host_freeze_survives_a_generation_run(host_froze):
    from groundset.core import CallEngine
    from groundset.kg import build_knowledge_graph
    from groundset.synthesizers import TestsetGenerator

    from .corpora import EXAMPLE_DOCS

    before, after = host_froze
    engine = CallEngine(cache=False)
    kg = build_knowledge_graph(EXAMPLE_DOCS, engine=engine, show_progress=False).kg
    testset = TestsetGenerator(engine=engine).generate(kg, 2, seed=0, show_progress=False)
    assert len(testset) >= 1
    assert is_frozen(before) and not is_frozen(after)
