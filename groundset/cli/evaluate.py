"""`groundset evaluate` and `groundset metrics`."""

import math
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from .common import (
    CacheOption,
    ConcurrencyOption,
    EmbeddingsOption,
    LlmOption,
    NoCacheOption,
    QuietOption,
    TimeoutOption,
    make_engine,
    out,
    usage_line,
)


def evaluate(
    data: Annotated[
        Path, typer.Argument(metavar="DATA", help="Samples to score: JSONL, CSV, or a groundset test set.")
    ],
    metrics: Annotated[
        str | None, typer.Option(help="Comma-separated metric names (see `groundset metrics`); default four.")
    ] = None,
    out_file: Annotated[Path | None, typer.Option("--out", "-o", help="Write the run (JSONL) here.")] = None,
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    max_concurrency: ConcurrencyOption = 16,
    timeout: TimeoutOption = 120.0,
    quiet: QuietOption = False,
) -> None:
    """Score DATA with the chosen metrics; print mean, 95% CI, n and NaN per metric, and usage."""
    from ..scoring import METRICS, EvaluationDataset, default_metrics
    from ..scoring import evaluate as run
    from ..scoring.formulas import MIN_CI_SAMPLES

    chosen = default_metrics()
    if metrics:
        names = [n.strip() for n in metrics.split(",") if n.strip()]
        unknown = [n for n in names if n not in METRICS]
        if unknown:
            raise typer.BadParameter(f"unknown metric(s) {', '.join(unknown)}; known: {', '.join(METRICS)}")
        chosen = [METRICS[n]() for n in names]
    dataset = (
        EvaluationDataset.from_csv(data)
        if data.suffix.lower() == ".csv"
        else EvaluationDataset.from_jsonl(data)
    )
    start = time.perf_counter()
    result = run(
        dataset,
        chosen,
        llm=llm,
        embeddings=embeddings,
        engine=make_engine(cache, no_cache, max_concurrency, timeout),
        show_progress=not quiet,
    )
    table = Table("metric", "mean", "95% CI", "n", "NaN", "errors")
    aggregate = result.aggregate()
    for name, agg in aggregate.items():
        ci = "-" if math.isnan(agg["ci_low"]) else f"{agg['ci_low']:.3f} - {agg['ci_high']:.3f}"
        mean = "NaN" if math.isnan(agg["mean"]) else f"{agg['mean']:.3f}"
        table.add_row(name, mean, ci, str(agg["n"]), str(agg["nan"]), str(agg["errors"]))
    out.print(table)
    few = [name for name, agg in aggregate.items() if 0 < agg["n"] < MIN_CI_SAMPLES]
    if few:
        out.print(
            f"warning: fewer than {MIN_CI_SAMPLES} scores for {', '.join(few)}: no confidence interval, "
            "and the mean says little; score more samples"
        )
    for name, note in result.notes.items():
        out.print(f"note: {name}: {note}")
    for name in result.metrics:
        reasons = {row[name].reason or row[name].error for row in result.cells if math.isnan(row[name].value)}
        for reason in sorted(r for r in reasons if r)[:3]:
            out.print(f"  {name} NaN: {reason}", highlight=False, markup=False)
    from ..core import StageUsage

    total = StageUsage()
    for usage in result.usage.values():
        total.add(StageUsage(**usage))
    out.print(usage_line(total, time.perf_counter() - start), highlight=False)
    if out_file:
        result.to_jsonl(out_file)
        out.print(f"wrote {out_file}", highlight=False)


def metrics() -> None:
    """List every metric: output type, models it needs, columns, and what it does offline."""
    from ..scoring import METRICS

    for name, cls in METRICS.items():
        needs = ", ".join(
            n for n, flag in (("llm", cls.needs_llm), ("embeddings", cls.needs_embeddings)) if flag
        )
        out.print(
            f"{name:<22} {cls.output_type.value:<10} needs {needs or 'nothing':<16} "
            f"columns: {', '.join(cls.columns)}"
        )
        out.print(f"{'':<22} offline: {cls.offline_summary()}")
