"""`groundset evaluate` and `groundset metrics`."""

import time
from pathlib import Path
from typing import Annotated

import typer

from .common import (
    CacheOption,
    ConcurrencyOption,
    EmbeddingsOption,
    LlmOption,
    NoCacheOption,
    OnlyOption,
    QuietOption,
    RateOption,
    RayAddressOption,
    TimeoutOption,
    backend_option,
    make_engine,
    out,
)
from .summary import (
    FailUnderOption,
    ReportOption,
    check_gate,
    chosen_metrics,
    gate,
    print_summary,
    print_where,
    write_outputs,
)


def evaluate(
    data: Annotated[
        Path, typer.Argument(metavar="DATA", help="Samples to score: JSONL, CSV, or a groundset test set.")
    ],
    metrics: Annotated[
        str | None, typer.Option(help="Comma-separated metric names (see `groundset metrics`); default four.")
    ] = None,
    only: OnlyOption = None,
    out_file: Annotated[Path | None, typer.Option("--out", "-o", help="Write the run (JSONL) here.")] = None,
    report: ReportOption = None,
    fail_under: FailUnderOption = None,
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    max_concurrency: ConcurrencyOption = 16,
    timeout: TimeoutOption = 120.0,
    requests_per_second: RateOption = None,
    backend: Annotated[
        str, backend_option("the scoring (batches of samples, with their model calls)")
    ] = "local",
    ray_address: RayAddressOption = None,
    quiet: QuietOption = False,
) -> None:
    """Score DATA with the chosen metrics; print mean, 95% CI, n and NaN per metric, and usage.

    With --backend ray, batches of samples are scored in Ray workers; their model calls share this run's
    call cache and --requests-per-second limit."""
    from ..core.backends import get_backend
    from ..samples.selection import parse_selection
    from ..scoring import EvaluationDataset
    from ..scoring import evaluate as run

    check_gate(fail_under)
    runner = get_backend(backend, address=ray_address)
    selection = parse_selection(only)
    dataset = (
        EvaluationDataset.from_csv(data)
        if data.suffix.lower() == ".csv"
        else EvaluationDataset.from_jsonl(data)
    )
    if selection:
        out.print(f"scoring {selection.describe(dataset)}")
    chosen = chosen_metrics(metrics) or None  # None: evaluate's defaults for the samples it scores
    start = time.perf_counter()
    result = run(
        dataset,
        chosen,
        only=selection,
        llm=llm,
        embeddings=embeddings,
        engine=make_engine(cache, no_cache, max_concurrency, timeout, requests_per_second),
        show_progress=not quiet,
        backend=runner,
    )
    print_summary(result, time.perf_counter() - start)
    print_where(runner)
    write_outputs(result, out_file, report)
    gate(result, fail_under)


def metrics() -> None:
    """List every metric: output type, models it needs, columns, what it does offline, and its ragas alias."""
    from ..scoring.metrics import ALIASES, METRICS

    aliases = {canonical: alias for alias, canonical in ALIASES.items()}
    for name, cls in METRICS.items():
        needs = ", ".join(
            n for n, flag in (("llm", cls.needs_llm), ("embeddings", cls.needs_embeddings)) if flag
        )
        out.print(
            f"{name:<22} {cls.output_type.value:<10} needs {needs or 'nothing':<16} "
            f"columns: {', '.join(cls.columns)}"
        )
        out.print(f"{'':<22} offline: {cls.offline_summary()}")
        if name in aliases:
            out.print(f"{'':<22} also accepted as: {aliases[name]}")
