"""`groundset compare RUN_A RUN_B`: is run B better or worse than run A, beyond noise; a CI gate."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import click
import typer
from rich.table import Table

from .common import err, out

if TYPE_CHECKING:
    from ..scoring.compare import RunComparison

QUESTION_WIDTH = 70


class RegressionFound(click.ClickException):
    """Exit code 1 after the REGRESSION lines. Not ``typer.Exit(1)``: ``main()`` runs click in
    non-standalone mode, where an Exit becomes a return value that ``main()`` drops, so a CI gate
    would pass with code 0; a ClickException reaches ``main()``, which shows it and returns its code."""

    exit_code = 1

    def show(self, file: object = None) -> None:
        err.print(f"failed: {self.message}")


def compare_runs_command(
    # No exists=True on the runs: click would print a usage block; the loader says it in one line.
    run_a: Annotated[
        Path,
        typer.Argument(
            metavar="RUN_A",
            help="The baseline run: a run file from `groundset score --out` or `groundset evaluate --out`.",
        ),
    ],
    run_b: Annotated[
        Path,
        typer.Argument(
            metavar="RUN_B",
            help="The run to judge against the baseline (same test set); differences are B minus A.",
        ),
    ],
    report: Annotated[
        Path | None,
        typer.Option(
            "--report", metavar="PATH", help="Also write a self-contained HTML report of the comparison here."
        ),
    ] = None,
    fail_on_regression: Annotated[
        str | None,
        typer.Option(
            "--fail-on-regression",
            metavar="METRIC=DROP,...",
            help="Exit with code 1 when a metric fell by more than DROP, e.g. "
            "'faithfulness=0.05,context_recall=0.02'. A fall counts only when the whole 95% confidence "
            "interval of B minus A lies below -DROP, so noise does not fail the build; 0 fails on any "
            "clear fall. For noise_sensitivity (lower is better) a rise above DROP fails. A question "
            "run B's target failed on and run A's answered fails too, unless --max-new-target-errors "
            "allows it. A metric the runs had judged by different models is not checked (see --strict).",
        ),
    ] = None,
    max_new_target_errors: Annotated[
        int | None,
        typer.Option(
            "--max-new-target-errors",
            min=0,
            metavar="N",
            help="How many questions run B's target may fail on that run A's answered (such a question has "
            "no score to pair, so no metric shows it). Default 0 with --fail-on-regression; given alone, "
            "a gate of its own.",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Fail when the runs had a metric judged by different models (LLM or embeddings), or when "
            "a run does not record its judges (an older run file), instead of warning.",
        ),
    ] = False,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the bootstrap; the same seed gives the same intervals.")
    ] = 0,
    top: Annotated[
        int,
        typer.Option(
            "--top",
            min=0,
            help="How many samples with the largest score change to list per metric (0: none).",
        ),
    ] = 10,
) -> None:
    """Compare two scoring runs of the same test set, sample by sample.

    Samples pair by test-set id, or by question text when a run has no ids. Per metric: the means over
    the pairs, the mean change B - A with its paired-bootstrap 95% CI, wins/ties/losses of B, and a
    verdict ("better"/"worse" only when the whole CI is on one side of 0). Then the samples whose
    scores moved most. Each run file records the models that judged it; a metric judged differently
    gets a warning and no verdict ("judges differ"), or with --strict the comparison fails.
    """
    from ..scoring.compare import compare_runs
    from ..scoring.run_judges import JudgesDifferWarning
    from ..scoring.thresholds import parse_thresholds

    thresholds = (
        parse_thresholds(fail_on_regression, option="--fail-on-regression")
        if fail_on_regression is not None
        else {}
    )
    with warnings.catch_warnings():  # printed below, with the notes, as a warning line per gated metric
        warnings.simplefilter("ignore", JudgesDifferWarning)
        comparison = compare_runs(run_a, run_b, seed=seed, top=top, strict=strict)
    gated = bool(thresholds) or max_new_target_errors is not None
    allowed = max_new_target_errors or 0
    # Checks the metric names before anything is printed.
    failures = comparison.regressions(thresholds, max_new_target_errors=allowed)
    for label, name, target in (
        ("A", comparison.label_a, comparison.target_a),
        ("B", comparison.label_b, comparison.target_b),
    ):
        out.print(f"{label}: {name}" + (f" (target: {target})" if target else ""))
    out.print(
        f"paired {comparison.paired} samples; only in A {comparison.only_a}, only in B {comparison.only_b}"
    )
    out.print(_table(comparison))
    for note in comparison.notes:
        out.print(f"note: {note}")
    if comparison.changes:
        out.print("largest changes (B - A):")
    for change in comparison.changes:
        question = " ".join(change.user_input.split())
        if len(question) > QUESTION_WIDTH:
            question = question[: QUESTION_WIDTH - 3] + "..."
        out.print(
            f"  {change.sample_id}  {change.metric}  {change.a:.3f} -> {change.b:.3f} ({change.delta:+.3f})"
            f"  {question}"
        )
    if report:
        written = comparison.report(report)
        out.print(f"wrote {written}")
    if not gated:
        return
    for name in thresholds:
        if name in comparison.judges_differ:
            out.print(
                f"warning: {name}: run A and run B were judged by different models "
                f"({comparison.judges_differ[name]}); its --fail-on-regression threshold was not checked "
                "(--strict fails instead)"
            )
        elif math.isnan(comparison.metrics[name].ci_low):
            out.print(
                f"warning: {name}: only {comparison.metrics[name].n} scored pairs, too few for a "
                "confidence interval; its --fail-on-regression threshold was not checked"
            )
    for line in failures:
        out.print(f"REGRESSION {line}")
    if failures:
        count = len(failures)
        option = "--fail-on-regression" if thresholds else "--max-new-target-errors"
        raise RegressionFound(f"{count} regression{'s' * (count != 1)} beyond {option}")
    out.print("no regression beyond the thresholds")


def _table(comparison: RunComparison) -> Table:
    confidence = f"{comparison.confidence:.0%} CI"
    table = Table("metric", "n", "mean A", "mean B", "B - A", confidence, "W/T/L", "verdict")
    for name, row in comparison.metrics.items():
        ci = "-" if math.isnan(row.ci_low) else f"{row.ci_low:+.3f} to {row.ci_high:+.3f}"
        table.add_row(
            name,
            str(row.n),
            _number(row.mean_a),
            _number(row.mean_b),
            "NaN" if math.isnan(row.diff) else f"{row.diff:+.3f}",
            ci,
            f"{row.wins}/{row.ties}/{row.losses}",
            comparison.verdict(name),
        )
    return table


def _number(value: float) -> str:
    return "NaN" if math.isnan(value) else f"{value:.3f}"
