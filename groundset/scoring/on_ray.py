"""Scoring on Ray: batches of samples scored in Ray workers, with the run's one cache and rate limit.

Each metric scores one sample at a time, so a sample scored in a worker gets the score it gets here; the
metrics of one sample stay together in one task, so what they share (a claim extraction, an embedding)
is still asked once. The workers' model calls go through the run's ``CallBroker`` (see
``core.ray_calls``): answers land in the driver's call cache as they come, and the requests of all
workers together keep ``requests_per_second``; each worker gets an equal share of ``max_concurrency``,
so the run never has more requests in flight than it would here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.aio import run_sync
from ..core.backends import RayBackend
from ..core.engine import CallEngine
from ..core.progress import Progress
from ..core.retry import RetryPolicy
from ..samples.dataset import EvaluationDataset, Sample
from .metric import Metric, ScoringContext
from .result import Cell

Usage = dict[str, dict[str, float]]
Row = tuple[int, Sample, dict[str, Cell]]  # index in the dataset, the sample, its preset cells


@dataclass
class _Job:
    """What every task of one run needs: sent once to Ray's object store."""

    metrics: Sequence[Metric]
    llm: Any
    embeddings: Any
    broker: Any
    shared_cache: bool
    rate_limited: bool
    max_concurrency: int
    timeout: float | None
    retry: RetryPolicy
    prices: dict[str, tuple[float, float]]
    embedding_batch_size: int
    raise_exceptions: bool

    def engine(self) -> CallEngine:
        from ..core.ray_calls import SharedCache, SharedRate

        return CallEngine(
            cache=SharedCache(self.broker) if self.shared_cache else False,
            max_concurrency=self.max_concurrency,
            timeout=self.timeout,
            retry=self.retry,
            prices=self.prices,
            embedding_batch_size=self.embedding_batch_size,
            rate_limiter=SharedRate(self.broker) if self.rate_limited else None,  # no turn to wait for
        )


def score_rows(rows: list[Row], job: _Job) -> tuple[list[tuple[int, dict[str, Cell]]], Usage]:
    """A Ray task: score one batch of samples (their preset cells kept) and return its cells and usage."""
    from .evaluate import score_cells

    engine = job.engine()
    batch = EvaluationDataset([sample for _, sample, _ in rows])
    preset = {(j, name): cell for j, (_, _, cells) in enumerate(rows) for name, cell in cells.items()}
    ctx = ScoringContext(job.llm, job.embeddings, engine)
    try:
        cells, usage = run_sync(
            score_cells(
                batch,
                job.metrics,
                ctx,
                preset=preset,
                raise_exceptions=job.raise_exceptions,
                show_progress=False,
            )
        )
    finally:
        if engine.cache is not None:
            engine.cache.flush()  # every answer paid for is on disk before the task ends
    return [(index, scored) for (index, _, _), scored in zip(rows, cells, strict=True)], usage


async def score_cells_on_ray(
    backend: RayBackend,
    dataset: EvaluationDataset,
    metrics: Sequence[Metric],
    ctx: ScoringContext,
    *,
    preset: Mapping[tuple[int, str], Cell] | None = None,
    raise_exceptions: bool = False,
    show_progress: bool = True,
) -> tuple[list[dict[str, Cell]], Usage]:
    """``score_cells`` with the samples scored in Ray tasks; the same cells, and the usage summed."""
    from ..core.ray_calls import ship_models, start_broker

    preset = preset or {}
    rows: list[Row] = [(i, sample, {}) for i, sample in enumerate(dataset)]
    for (index, name), cell in preset.items():
        rows[index][2][name] = cell
    batches = [
        rows[i : i + size] for size in [backend.batch_size(len(rows))] for i in range(0, len(rows), size)
    ]
    engine = ctx.engine
    broker = start_broker(engine.cache, engine.requests_per_second)
    running = max(1, min(len(batches), backend.cpus()))
    own = [getattr(m, role, None) for m in metrics for role in ("llm", "embeddings")]  # a metric's own models
    ship_models([ctx.llm, ctx.embeddings, *own])
    job = _Job(
        metrics=list(metrics),
        llm=ctx.llm,
        embeddings=ctx.embeddings,
        broker=broker,
        shared_cache=engine.cache is not None,
        rate_limited=engine.requests_per_second is not None,
        max_concurrency=max(1, engine.max_concurrency // running),
        timeout=engine.timeout,
        retry=engine.retry,
        prices=engine.prices,
        embedding_batch_size=engine.embedding_batch_size,
        raise_exceptions=raise_exceptions,
    )
    try:
        with (
            Progress(show_progress) as progress,
            progress.stage("scoring samples on Ray", len(rows)) as advance,
        ):
            results = await asyncio.to_thread(
                backend.map_each, score_rows, batches, shared=job, progress=advance
            )
    finally:
        _stop(broker)
    cells: list[dict[str, Cell]] = [{} for _ in rows]
    usage: Usage = {}
    for scored, batch_usage in results:
        for index, row_cells in scored:
            cells[index] = row_cells
        for name, counts in batch_usage.items():
            total = usage.setdefault(name, {})
            for field, value in counts.items():
                total[field] = total.get(field, 0) + value
    return cells, usage


def _stop(broker: Any) -> None:
    """Close the broker's cache (writing what is left) and end the actor."""
    import ray

    try:
        ray.get(broker.close.remote(), timeout=60)
    finally:
        ray.kill(broker)
