"""`groundset calibrate`: how well a metric's judge agrees with the user's own labels."""

import json
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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

TITLES = {
    "preference_accuracy": "pairwise accuracy (preferences)",
    "pairwise_accuracy": "pairwise accuracy (scored samples)",
    "spearman": "Spearman rho",
    "kappa": "Cohen's kappa",
}
SHOWN_REASONS = 5

if TYPE_CHECKING:
    from ..scoring.calibration import Agreement


def calibrate(
    labels: Annotated[
        Path,
        typer.Argument(
            metavar="LABELS",
            help='JSONL: samples with "human_score", and/or preferences {"better": ..., "worse": ...}.',
        ),
    ],
    metric: Annotated[
        str, typer.Option("--metric", "-m", help="The metric to check (see `groundset metrics`).")
    ],
    threshold: Annotated[
        float,
        typer.Option(
            help="Kappa (0/1 labels): a metric score at or above this counts as 1 (at or below, for a "
            "metric where lower is better)."
        ),
    ] = 0.5,
    out_file: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the agreement figures (JSON) here.")
    ] = None,
    demonstrations: Annotated[
        int,
        typer.Option(
            "--demonstrations",
            min=0,
            help="Tune with K demonstrations: hold part of the labels out, show the LLM judges the K "
            "labels nearest to each sample from the rest, and report held-out agreement before and after.",
        ),
    ] = 0,
    holdout: Annotated[
        float, typer.Option(help="With --demonstrations: the share of labels held out for measuring.")
    ] = 0.5,
    offline_form: Annotated[
        bool,
        typer.Option(
            "--offline-form",
            help="Offline: score the metric's offline form even where it is switched off for not agreeing "
            "with people (`groundset metrics` says which), to measure it on your labels.",
        ),
    ] = False,
    llm: LlmOption = None,
    embeddings: EmbeddingsOption = None,
    cache: CacheOption = None,
    no_cache: NoCacheOption = False,
    max_concurrency: ConcurrencyOption = 16,
    timeout: TimeoutOption = 120.0,
    quiet: QuietOption = False,
) -> None:
    """Score LABELS with one metric; print how well it agrees with the labels (pairwise accuracy,
    Spearman, kappa) with 95% CIs, and which labelled items it could not score."""
    from ..core import StageUsage
    from ..core.atomic import atomic_write_text
    from ..scoring.calibration import calibrate as run
    from ..scoring.calibration import load_labels
    from ..scoring.metrics import metric_class

    try:
        chosen = metric_class(metric)
    except KeyError as exc:
        raise typer.BadParameter(str(exc.args[0]), param_hint="--metric") from None
    if not math.isfinite(threshold):
        raise typer.BadParameter(f"must be a finite number, got {threshold}", param_hint="--threshold")
    start = time.perf_counter()
    if demonstrations:
        _tune(
            labels,
            chosen,
            demonstrations,
            holdout,
            llm,
            embeddings,
            make_engine(cache, no_cache, max_concurrency, timeout),
            threshold,
            quiet,
        )
        out.print(f"{time.perf_counter() - start:.1f} s")
        return
    agreement = run(
        load_labels(labels),
        chosen(offline_form=offline_form),
        llm=llm,
        embeddings=embeddings,
        engine=make_engine(cache, no_cache, max_concurrency, timeout),
        threshold=threshold,
        show_progress=not quiet,
    )
    out.print(
        f"{agreement.metric} against {labels}: {agreement.items} labelled items "
        f"(scored samples: {agreement.samples}, preference pairs: {agreement.pairs})"
    )
    _print_figures(agreement)
    _print_skipped(agreement.skipped)
    total = StageUsage()
    for usage in agreement.usage.values():
        total.add(StageUsage(**usage))
    out.print(usage_line(total, time.perf_counter() - start))
    if out_file:
        text = json.dumps(agreement.to_dict(), indent=2, ensure_ascii=False, allow_nan=False)
        atomic_write_text(out_file, text + "\n")
        out.print(f"wrote {out_file}")


def _tune(
    labels_path: Path,
    metric_class: Any,
    k: int,
    holdout: float,
    llm: str | None,
    embeddings: str | None,
    engine: Any,
    threshold: float,
    quiet: bool,
) -> None:
    """--demonstrations: agreement on held-out labels without and with the other labels as guidance."""
    from ..core.models import is_offline, resolve_llm
    from ..scoring.calibration import load_labels
    from ..scoring.tuning import before_after

    if is_offline(resolve_llm(llm).model):
        out.print(
            "note: offline judges are rule based and ignore demonstrations; pass --llm to tune an LLM judge"
        )
    found = before_after(
        load_labels(labels_path), metric_class, k=k, holdout=holdout, llm=llm, embeddings=embeddings,
        engine=engine, threshold=threshold, show_progress=not quiet,
    )  # fmt: skip
    out.print(
        f"{metric_class.name}: {found.demonstrations} demonstrations from the other labels, "
        f"{found.held_out} held-out items, the {k} nearest shown to the judge per sample"
    )
    for title, agreement in (("before (no demonstrations)", found.before), ("after", found.after)):
        out.print(f"{title}:")
        _print_figures(agreement)


def _print_figures(agreement: "Agreement") -> None:
    """The table, then why a figure is missing and a warning where the items are too few for an interval."""
    from ..scoring.formulas import MIN_CI_SAMPLES

    table = Table("figure", "value", "95% CI", "n")
    for name, figure in agreement.figures().items():
        value = "-" if math.isnan(figure.value) else f"{figure.value:.3f}"
        ci = "-" if math.isnan(figure.ci_low) else f"{figure.ci_low:.3f} - {figure.ci_high:.3f}"
        table.add_row(TITLES[name], value, ci, str(figure.n))
    out.print(table)
    for name, figure in agreement.figures().items():
        if figure.note:
            out.print(f"  {TITLES[name]}: {figure.note}")
    if agreement.note:
        out.print(f"note: {agreement.metric}: {agreement.note}")
    if not agreement.higher_is_better:
        out.print(
            f"note: {agreement.metric}: lower is better, so it agrees with your labels when it scores the "
            f"better answer lower (kappa: a score at or below {agreement.threshold:g} counts as 1)"
        )
    few = [TITLES[name] for name, figure in agreement.figures().items() if 0 < figure.n < MIN_CI_SAMPLES]
    if few:
        out.print(f"warning: fewer than {MIN_CI_SAMPLES} items for {', '.join(few)}: no confidence interval")


def _print_skipped(skipped: list[str]) -> None:
    """The count, and the first reasons: a judge that cannot score a kind of sample shows up here."""
    out.print(f"skipped (metric NaN): {len(skipped)}")
    for reason in skipped[:SHOWN_REASONS]:
        out.print(f"  {reason}")
    if len(skipped) > SHOWN_REASONS:
        out.print(f"  ... and {len(skipped) - SHOWN_REASONS} more (--out lists them all)")
