"""score_rag(): run a RAG system over a test set, then score its answers.

The target runs concurrently, with progress, a timeout per question and its latency measured. A
question the target fails on is recorded on its row (every metric NaN with the target's error)
and counted; it never stops the run.
"""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..core.aio import run_sync
from ..core.backends import Backend, get_backend
from ..core.engine import CallEngine, being_cancelled
from ..core.errors import ConfigError
from ..core.models import resolve_embeddings, resolve_llm
from ..core.progress import Progress
from ..core.secrets import redact
from ..core.usage import StageUsage, track
from ..samples.dataset import EvaluationDataset
from ..samples.evaluation import SingleTurnSample
from ..samples.selection import Selection, parse_selection
from ..samples.testset import Testset
from .evaluate import cell_error, default_metrics, score_on
from .metric import Metric, ScoringContext
from .result import Cell, EvaluationResult, TargetCall, metric_names
from .run_judges import judges_of
from .targets import (
    HISTORY_AS_TEXT,
    RagAnswer,
    Target,
    as_target,
    history_messages,
    takes_history,
    timed_answer,
)
from .testset_graph import GraphMismatchWarning, graph_mismatch

ANSWER_COLUMNS = ("response", "retrieved_contexts", "retrieved_context_ids")


def as_dataset(testset: Testset | EvaluationDataset | str | Path) -> EvaluationDataset:
    """The questions to ask: a Testset, an EvaluationDataset, or a test-set/dataset file (JSONL, CSV)."""
    if isinstance(testset, EvaluationDataset):
        dataset = testset
    elif isinstance(testset, Testset):
        dataset = EvaluationDataset.from_testset(testset)
    elif isinstance(testset, str | Path):
        path = Path(testset)
        if not path.is_file():
            raise ConfigError(f"test set {path} does not exist (write one with `groundset generate`)")
        csv = path.suffix.lower() == ".csv"
        dataset = EvaluationDataset.from_csv(path) if csv else EvaluationDataset.from_jsonl(path)
    else:
        kind = type(testset).__name__
        raise ConfigError(f"testset must be a Testset, an EvaluationDataset or a path, got {kind}")
    if dataset.is_multi_turn:
        raise ConfigError("score_rag asks single questions; this dataset holds multi-turn conversations")
    return dataset


async def ascore_rag(
    testset: Testset | EvaluationDataset | str | Path,
    target: Any,
    metrics: Sequence[Metric] | None = None,
    *,
    only: str | Iterable[str] | Selection | None = None,
    name: str | None = None,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    target_concurrency: int = 8,
    target_timeout: float | None = 60.0,
    max_concurrency: int = 16,
    timeout: float | None = 120.0,
    raise_exceptions: bool = False,
    show_progress: bool = True,
    cache: Any = True,
    backend: str | Backend | None = None,
) -> EvaluationResult:
    """Ask ``target`` every question of ``testset``, then score the answers with ``metrics``
    (``backend="ray"``: scored in Ray workers, as ``evaluate`` does; the target is asked from here).

    ``target``: a function ``f(question)`` (sync or async) returning a :class:`RagAnswer`, a dict
    (``response``, ``retrieved_contexts``, optional ``retrieved_context_ids``) or a
    ``(response, contexts)`` tuple; a LangChain Runnable; an ``http(s)://`` URL (see ``HttpTarget``
    for field names); ``"module:function"``; or a :class:`BaselineRAG`. Default metrics: the four
    of ``evaluate`` plus ID-based context recall when the target returns context ids and the test
    set has reference ids, and refusal correctness when some sample says whether it should be answered
    or declined (``expected_behaviour``: out-of-scope questions). A follow-up question (a sample with
    ``history``) is asked with its earlier turns (see ``targets``). ``name`` labels the target in the
    summary, the run file and comparisons (default: the function's name, the URL, or the baseline's
    settings). A target that retrieves from a knowledge graph (``BaselineRAG``) the test set was not
    written from (their fingerprints differ) gets a ``GraphMismatchWarning`` before the first question,
    kept in the run's notes. The run records, per metric, the models that judged it (``judges``).

    ``only`` asks just the samples a selection keeps: specs that must all hold, as ``--only`` takes them
    (``["reviewed", "tag=critical"]``; see ``groundset.samples.selection``). The run's ``selection`` note
    says how many of how many; a selection that keeps nothing is a ConfigError.
    """
    if target_concurrency < 1:
        raise ConfigError(f"target_concurrency must be >= 1, got {target_concurrency}")
    selection = parse_selection(only)
    dataset = as_dataset(testset)
    selected = selection.describe(dataset) if selection else ""
    dataset = selection.select(dataset)
    chosen = as_target(target)
    mismatch = graph_mismatch(testset, dataset, chosen)
    if mismatch:  # said before the first question, and kept in the run's notes
        warnings.warn(GraphMismatchWarning(mismatch), stacklevel=1)
    explicit = metrics is not None
    metrics = list(metrics) if metrics is not None else default_metrics(dataset)
    metric_names(metrics)
    _check_columns(dataset, metrics)
    runner = get_backend(backend)  # before the first question: a Ray that cannot start is said at once
    engine = engine or CallEngine(cache=cache, max_concurrency=max_concurrency, timeout=timeout)
    if getattr(chosen, "engine", False) is None:
        chosen.engine = engine  # the baseline's LLM answers share the run's engine and cache
    answers, calls, target_usage = await _ask_all(
        chosen, dataset, target_concurrency, target_timeout, show_progress, raise_exceptions
    )
    answered = _with_answers(dataset, answers)
    if not explicit and _has_ids(answered):
        from .metrics import IDBasedContextRecall

        metrics.append(IDBasedContextRecall())
    names = metric_names(metrics)
    preset = _preset_cells(answered, metrics, calls)
    ctx = ScoringContext(resolve_llm(llm).model, resolve_embeddings(embeddings).model, engine)
    cells, usage = await score_on(
        runner,
        answered,
        metrics,
        ctx,
        preset=preset,
        raise_exceptions=raise_exceptions,
        show_progress=show_progress,
    )
    usage["target"] = vars(target_usage)
    notes = {m.name: note for m in metrics if (note := m.run_note(ctx))}
    if selected:
        notes["selection"] = selected
    if any(sample.history for sample in dataset) and not takes_history(chosen):
        notes["target"] = HISTORY_AS_TEXT
    if mismatch:
        notes["target"] = "; ".join(note for note in (notes.get("target"), mismatch) if note)
    label = name or chosen.name
    judges = judges_of(metrics, ctx)
    lower = tuple(m.name for m in metrics if not m.higher_is_better)
    return EvaluationResult(
        answered,
        names,
        cells,
        usage,
        notes,
        target=label,
        target_calls=calls,
        judges=judges,
        lower_better=lower,
    )


def score_rag(
    testset: Testset | EvaluationDataset | str | Path,
    target: Any,
    metrics: Sequence[Metric] | None = None,
    **options: Any,
) -> EvaluationResult:
    """The sync twin of ``ascore_rag`` (works inside a running event loop, e.g. Jupyter, too)."""
    return run_sync(ascore_rag(testset, target, metrics, **options))


def _check_columns(dataset: EvaluationDataset, metrics: Sequence[Metric]) -> None:
    """Columns the target does not supply must be in the test set, checked before any question is asked."""
    problems = [
        line
        for metric in metrics
        for column in metric.required()
        if column not in ANSWER_COLUMNS
        for line in metric.check(dataset)
        if f"column {column!r}" in line
    ]
    if problems:
        raise ConfigError("the test set cannot be scored as asked:\n  " + "\n  ".join(problems))


async def _ask_all(
    target: Target,
    dataset: EvaluationDataset,
    concurrency: int,
    timeout: float | None,
    show_progress: bool,
    raise_exceptions: bool,
) -> tuple[list[RagAnswer | None], list[TargetCall], StageUsage]:
    answers: list[RagAnswer | None] = [None] * len(dataset)
    calls = [TargetCall() for _ in dataset]
    gate = asyncio.Semaphore(concurrency)

    async def ask(index: int, advance: Any) -> None:
        question, history = dataset[index].user_input, history_messages(dataset[index])
        async with gate:
            start = time.perf_counter()
            try:
                answers[index] = await timed_answer(target, str(question), timeout, history)
            except (Exception, asyncio.CancelledError) as exc:
                if raise_exceptions or being_cancelled():
                    raise
                calls[index].error = redact(cell_error(exc))
            calls[index].latency_s = time.perf_counter() - start
        advance()

    try:
        with (
            track() as usage,
            Progress(show_progress) as progress,
            progress.stage("asking the target", len(dataset)) as advance,
        ):
            await asyncio.gather(*(ask(i, advance) for i in range(len(dataset))))
    finally:
        close = getattr(target, "aclose", None)
        if close is not None:
            await close()
    return answers, calls, usage.total()


def _with_answers(dataset: EvaluationDataset, answers: Sequence[RagAnswer | None]) -> EvaluationDataset:
    """The test set with each answer filled in; a failed question keeps no response (None)."""
    samples: list[SingleTurnSample] = []
    for sample, answer in zip(dataset, answers, strict=True):
        update = answer.model_dump() if answer is not None else dict.fromkeys(ANSWER_COLUMNS)
        samples.append(sample.model_copy(update=update))
    return EvaluationDataset(samples, locations=dataset.locations, extra_columns=dataset.extra_columns)


def _has_ids(dataset: EvaluationDataset) -> bool:
    """Every answered row has retrieved ids and the test set has reference ids: ID recall is meaningful.
    An out-of-scope question has no reference ids by nature (ID recall gives it NaN with that reason)."""
    rows = [s for s in dataset if s.response is not None]
    in_scope = [s for s in rows if s.expected_behaviour != "refuse"]
    return bool(in_scope) and all(
        s.retrieved_context_ids is not None and (s.reference_context_ids or s.expected_behaviour == "refuse")
        for s in rows
    )


def _preset_cells(
    dataset: EvaluationDataset, metrics: Sequence[Metric], calls: Sequence[TargetCall]
) -> dict[tuple[int, str], Cell]:
    """Cells decided without scoring: the target failed, or did not return what the metric needs."""
    preset: dict[tuple[int, str], Cell] = {}
    for index, (sample, call) in enumerate(zip(dataset, calls, strict=True)):
        for metric in metrics:
            if call.error:
                preset[index, metric.name] = Cell(float("nan"), error=f"target failed: {call.error}")
                continue
            missing = [c for c in metric.required() if getattr(sample, c, None) is None]
            if missing:
                reason = f"the target returned no {', '.join(missing)}"
                preset[index, metric.name] = Cell(float("nan"), reason)
    return preset
