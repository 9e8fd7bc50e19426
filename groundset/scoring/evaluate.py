"""evaluate(): every (sample, metric) is a task on the call engine; a failure is a NaN with its error kept."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..core.aio import run_sync
from ..core.backends import Backend, RayBackend, get_backend
from ..core.engine import CallEngine, being_cancelled
from ..core.errors import ConfigError, OfflineUnsupported
from ..core.frozen_heap import frozen_heap
from ..core.models import resolve_embeddings, resolve_llm
from ..core.progress import Progress
from ..core.usage import track
from ..samples.dataset import EvaluationDataset
from ..samples.selection import Selection, parse_selection
from .metric import Metric, ScoringContext
from .result import Cell, EvaluationResult, metric_names
from .run_judges import judges_of

CELLS_IN_FLIGHT = 64


def default_metrics(dataset: EvaluationDataset | None = None) -> list[Metric]:
    """Faithfulness, answer relevancy, context precision and context recall; refusal correctness too when
    some sample of ``dataset`` says whether it should be answered or declined (out-of-scope questions)."""
    from .metrics import RefusalCorrectness
    from .metrics import default_metrics as defaults

    chosen = defaults()
    if dataset is not None and any(getattr(s, "expected_behaviour", None) for s in dataset):
        chosen.append(RefusalCorrectness())
    return chosen


async def aevaluate(
    dataset: EvaluationDataset,
    metrics: Sequence[Metric] | None = None,
    *,
    only: str | Iterable[str] | Selection | None = None,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    max_concurrency: int = 16,
    timeout: float | None = 120.0,
    raise_exceptions: bool = False,
    show_progress: bool = True,
    cache: Any = True,
    backend: str | Backend | None = None,
) -> EvaluationResult:
    """Score ``dataset`` with ``metrics`` (default: see ``default_metrics``). Required columns are checked
    for every metric and row before any call.

    ``backend="ray"`` (or a ``RayBackend``) scores batches of samples in Ray workers, with this run's
    call cache and requests-per-second limit shared by all of them (see ``on_ray``); the scores are the
    ones scored here.

    ``only`` scores just the samples a selection keeps (``["reviewed", "tag=critical"]``, as ``--only``
    takes them; see ``groundset.samples.selection``): rows of a groundset test set, or your own rows that
    keep its fields (id, synthesizer, tags, ...). The run's ``selection`` note says how many of how many.
    """
    if not isinstance(dataset, EvaluationDataset):
        raise ConfigError(f"dataset must be an EvaluationDataset, got {type(dataset).__name__}")
    selection = parse_selection(only)
    selected = selection.describe(dataset) if selection else ""
    dataset = selection.select(dataset)
    metrics = list(metrics) if metrics is not None else default_metrics(dataset)
    names = metric_names(metrics)
    problems = [line for metric in metrics for line in metric.check(dataset)]
    if problems:
        hint = ""
        if any("'response'" in p or "'retrieved_contexts'" in p for p in problems):
            hint = (
                "\n(a test set from `groundset generate` holds questions and references only: run your RAG "
                "system on each user_input and add its response and retrieved_contexts)"
            )
        raise ConfigError("the dataset cannot be scored as asked:\n  " + "\n  ".join(problems) + hint)
    runner = get_backend(backend)
    engine = engine or CallEngine(cache=cache, max_concurrency=max_concurrency, timeout=timeout)
    ctx = ScoringContext(resolve_llm(llm).model, resolve_embeddings(embeddings).model, engine)
    cells, usage = await score_on(
        runner, dataset, metrics, ctx, raise_exceptions=raise_exceptions, show_progress=show_progress
    )
    notes = {m.name: note for m in metrics if (note := m.run_note(ctx))}
    if selected:
        notes["selection"] = selected
    lower = tuple(m.name for m in metrics if not m.higher_is_better)
    return EvaluationResult(
        dataset, names, cells, usage, notes, judges=judges_of(metrics, ctx), lower_better=lower
    )


@frozen_heap()  # the dataset outlives the scoring: no full collection walks it again meanwhile
async def score_cells(
    dataset: EvaluationDataset,
    metrics: Sequence[Metric],
    ctx: ScoringContext,
    *,
    preset: Mapping[tuple[int, str], Cell] | None = None,
    raise_exceptions: bool = False,
    show_progress: bool = True,
) -> tuple[list[dict[str, Cell]], dict[str, dict[str, float]]]:
    """Every (sample, metric) cell, concurrently on the engine, and the usage per metric.

    ``preset`` cells are taken as given and not scored (score_rag's rows whose target failed).
    """
    preset = preset or {}
    cells: list[dict[str, Cell]] = [{} for _ in dataset]
    for (index, name), cell in preset.items():
        cells[index][name] = cell

    async def one(index: int, metric: Metric, advance: Any) -> None:
        try:
            result = await metric.ascore(dataset[index], ctx)
            cells[index][metric.name] = Cell(result.value, result.reason, result.trace)
        except OfflineUnsupported as exc:
            cells[index][metric.name] = Cell(float("nan"), exc.reason)
        except (Exception, asyncio.CancelledError) as exc:
            if raise_exceptions or being_cancelled():
                raise
            cells[index][metric.name] = Cell(float("nan"), error=cell_error(exc))
        advance()

    todo = [(i, m) for i in range(len(dataset)) for m in metrics if (i, m.name) not in preset]
    with (
        track() as usage,
        Progress(show_progress) as progress,
        progress.stage("scoring", len(todo)) as advance,
    ):
        # A pool of workers, not one task per cell: cells finish steadily (progress moves) and memory stays
        # bounded on 20,000 rows, while the engine still has every request slot busy.
        pending = iter(todo)

        async def worker() -> None:
            for index, metric in pending:
                await one(index, metric, advance)

        workers = min(len(todo), max(CELLS_IN_FLIGHT, 4 * ctx.engine.max_concurrency))
        await asyncio.gather(*(worker() for _ in range(workers)))
    by_metric = {m.name: vars(usage[m.stage]) for m in metrics}
    by_metric.update(
        {f"{m.name}.embed": vars(usage[f"{m.stage}.embed"]) for m in metrics if m.needs_embeddings}
    )
    return cells, by_metric


async def score_on(
    backend: Backend,
    dataset: EvaluationDataset,
    metrics: Sequence[Metric],
    ctx: ScoringContext,
    **options: Any,
) -> tuple[list[dict[str, Cell]], dict[str, dict[str, float]]]:
    """``score_cells`` here, or in Ray workers when ``backend`` is Ray (same cells either way)."""
    if isinstance(backend, RayBackend):
        from .on_ray import score_cells_on_ray

        return await score_cells_on_ray(backend, dataset, metrics, ctx, **options)
    return await score_cells(dataset, metrics, ctx, **options)


def cell_error(exc: BaseException) -> str:
    """The error text of a failed cell; a CancelledError says where it came from, as it has no message."""
    if isinstance(exc, asyncio.CancelledError) and not str(exc):
        return "CancelledError: a model call this score shared was cancelled elsewhere; rerun to score it"
    return f"{type(exc).__name__}: {exc}"


def evaluate(
    dataset: EvaluationDataset, metrics: Sequence[Metric] | None = None, **options: Any
) -> EvaluationResult:
    """The sync twin of ``aevaluate`` (works inside a running event loop too)."""
    return run_sync(aevaluate(dataset, metrics, **options))
