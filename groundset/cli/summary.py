"""The end of a scoring command: the summary table, notes, usage, the files written, and the CI gate."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..core import StageUsage
from .common import err, out, usage_line

ReportOption = Annotated[
    Path | None,
    typer.Option(
        "--report",
        help="Write a self-contained HTML report (summary, plots, breakdowns, worst samples) here.",
    ),
]
FailUnderOption = Annotated[
    str | None,
    typer.Option(
        "--fail-under",
        metavar="METRIC=VALUE,...",
        help="CI gate: exit 1, naming each metric, when a metric's mean is below its value "
        "(e.g. faithfulness=0.8,context_recall=0.7); above it for noise_sensitivity, where lower is better. "
        "A mean leaves NaN cells out. In `score`, a question the target failed on fails the gate too, "
        "unless --max-target-errors allows it.",
    ),
]


MAX_TARGET_ERRORS = "--max-target-errors"
MaxTargetErrorsOption = Annotated[
    int | None,
    typer.Option(
        MAX_TARGET_ERRORS,
        min=0,
        metavar="N",
        help="CI gate: exit 1 when the target fails on more than N questions (an exception, an HTTP error, "
        "a timeout). With --fail-under the default is 0, so a failed question fails the gate, since it has "
        "no score and the means leave it out; without --fail-under, giving N makes it a gate of its own.",
    ),
]


def chosen_metrics(spec: str | None) -> list[Any]:
    """``--metrics a,b``: the named metrics (ragas names accepted; an unknown name lists the known ones);
    [] when not given."""
    from ..scoring.metrics import ALIASES, METRICS

    if not spec:
        return []
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if ALIASES.get(n, n) not in METRICS]
    if unknown:
        raise typer.BadParameter(f"unknown metric(s) {', '.join(unknown)}; known: {', '.join(METRICS)}")
    return [METRICS[ALIASES.get(n, n)]() for n in names]


def print_summary(result: Any, seconds: float) -> None:
    """Mean, 95% CI, n, NaN and errors per metric; the target's figures; notes; a few NaN reasons; usage."""
    from ..scoring.formulas import MIN_CI_SAMPLES

    table = Table("metric", "mean", "95% CI", "n", "NaN", "errors")
    aggregate = result.aggregate()
    for name, agg in aggregate.items():
        ci = "-" if math.isnan(agg["ci_low"]) else f"{agg['ci_low']:.3f} - {agg['ci_high']:.3f}"
        mean = "NaN" if math.isnan(agg["mean"]) else f"{agg['mean']:.3f}"
        table.add_row(name, mean, ci, str(agg["n"]), str(agg["nan"]), str(agg["errors"]))
    out.print(table)
    target = result.target_summary()
    if target:
        p50, p95 = (_seconds(target[key]) for key in ("p50_s", "p95_s"))
        out.print(
            f"target: {result.target}: {target['calls']} questions, {target['errors']} failed, "
            f"latency p50 {p50}, p95 {p95}"
        )
        failed = [c.error for c in result.target_calls if c.error]
        for error in sorted(set(failed))[:3]:
            out.print(f"  target error ({failed.count(error)}x): {error}")
    few = [name for name, agg in aggregate.items() if 0 < agg["n"] < MIN_CI_SAMPLES]
    if few:
        out.print(
            f"warning: fewer than {MIN_CI_SAMPLES} scores for {', '.join(few)}: no confidence interval, "
            "and the mean says little; score more samples"
        )
    for name, note in result.notes.items():
        out.print(f"note: {name}: {note}")
    for name in result.metrics:
        reasons = {
            row[name].reason or row[name].error
            for row in result.cells
            if math.isnan(row[name].value) and not row[name].error.startswith("target failed")
        }
        for reason in sorted(r for r in reasons if r)[:3]:
            out.print(f"  {name} NaN: {reason}")
    total = StageUsage()
    for usage in result.usage.values():
        total.add(StageUsage(**usage))
    out.print(usage_line(total, seconds))


def write_outputs(result: Any, out_file: Path | None, report: Path | None) -> None:
    if out_file:
        result.to_jsonl(out_file)
        out.print(f"wrote {out_file}")
    if report:
        result.report(report)
        out.print(f"wrote the report {report} (open it in a browser)")


def check_gate(fail_under: str | None) -> None:
    """Parse ``--fail-under`` before the run, so a typo fails in a second, not after every call."""
    if not fail_under:
        return
    from ..scoring import METRICS
    from ..scoring.thresholds import check_known, parse_thresholds

    check_known(
        parse_thresholds(fail_under, option="--fail-under"), METRICS, option="--fail-under", scored=False
    )


def gate(result: Any, fail_under: str | None, max_target_errors: int | None = None) -> None:
    """``--fail-under metric=value,...``: exit 1 naming every metric whose mean is below its bar, and the
    target's failures when there are more than ``--max-target-errors`` (default 0; given alone, it is a
    gate of its own)."""
    if not fail_under and max_target_errors is None:
        return
    from ..scoring.thresholds import check_known, gate_failures, parse_thresholds, target_allowance_line

    thresholds = parse_thresholds(fail_under, option="--fail-under") if fail_under else {}
    check_known(thresholds, result.metrics, option="--fail-under")
    allowed = max_target_errors or 0
    failures = gate_failures(result, thresholds, max_target_errors=allowed, option=MAX_TARGET_ERRORS)
    if failures:
        for line in failures:
            err.print(f"FAIL {line}", soft_wrap=True)  # one line per failure in a CI log
        raise typer.Exit(1)
    passed = [
        f"{name} {'<=' if result.lower_is_better(name) else '>='} {bar:g}" for name, bar in thresholds.items()
    ]
    allowance = target_allowance_line(result, allowed, MAX_TARGET_ERRORS)
    out.print("pass: " + "; ".join(part for part in (", ".join(passed), allowance) if part))


def _seconds(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def print_where(backend: object) -> None:
    """Where the scoring ran, when not in this process: "scored on Ray on this machine, 2 CPUs"."""
    describe = getattr(backend, "describe", None)
    if describe is not None:
        out.print(f"scored on {describe()}")
