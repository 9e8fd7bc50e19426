"""The report of one scoring run: what was scored, how well, where it is weak, what broke, what it cost.

It shows aggregates and a bounded set of samples (the worst per metric, the first failures), so its size
does not grow with the dataset beyond the group tables.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from ...core.atomic import atomic_write_text
from ..result import EvaluationResult
from . import plots
from .breakdowns import Breakdown, all_breakdowns
from .page import (
    count,
    document,
    duration,
    el,
    esc,
    interval,
    note,
    number,
    section,
    short,
    standard_meta,
    table,
)
from .samples import SampleView, failed_rows, worst_samples

MAX_GROUPS = 30
USAGE_FIELDS = ("calls", "cache_hits", "input_tokens", "output_tokens", "cost")


def write_run_report(result: EvaluationResult, path: str | Path, *, title: str | None = None) -> Path:
    """Write the run's report as one self-contained HTML file (atomically) and return its path."""
    target = Path(path)
    atomic_write_text(target, render_run_report(result, title=title))
    return target


def render_run_report(result: EvaluationResult, *, title: str | None = None) -> str:
    """The report as HTML text."""
    heading = title or ("groundset report: " + result.target if result.target else "groundset report")
    aggregate = result.aggregate()
    view = SampleView(result)
    meta = [("target", result.target), ("samples", f"{len(result.cells):,}"), *standard_meta()]
    body = [section("Summary", summary(result, aggregate))]
    if result.target_calls is not None:
        body.append(section("Target", target_section(result)))
    body.append(section("Score distributions", distributions(result, aggregate)))
    body.append(section("Breakdowns", breakdowns(result)))
    body.append(section("Worst-scoring samples", worst_samples(result, view)))
    body.append(section("Failed rows", failed_rows(result, view), id_="failed"))
    body.append(section("Usage and cost", usage(result.usage)))
    return document(heading, meta, "\n".join(body))


def summary(result: EvaluationResult, aggregate: Mapping[str, Mapping[str, float]]) -> str:
    """Per metric mean, 95% CI and counts; then what each metric's notes and unscored samples say."""
    if not result.cells:
        return el("p", "No samples: the run scored nothing.", class_="muted") + _summary_table(aggregate)
    # "selection": a part of the test set (--only); "target": e.g. conversations sent as one text
    said = {key: result.notes[key] for key in ("selection", "target") if result.notes.get(key)}
    notes = [note(el("b", key) + ": " + esc(text)) for key, text in said.items()]
    for metric in result.metrics:
        stats = aggregate[metric]
        if result.notes.get(metric):
            notes.append(note(el("b", esc(metric)) + ": " + esc(result.notes[metric])))
        if stats["nan"]:
            notes.append(note(_unscored(result, metric, stats)))
    return _summary_table(aggregate) + "".join(notes)


def _summary_table(aggregate: Mapping[str, Mapping[str, float]]) -> str:
    rows = [
        [
            esc(metric),
            number(stats["mean"]),
            interval(stats["ci_low"], stats["ci_high"]),
            count(stats["n"]),
            count(stats["nan"]),
            count(stats["errors"]),
        ]
        for metric, stats in aggregate.items()
    ]
    return table(["metric", "mean", "95% CI", "n", "NaN", "errors"], rows, id_="summary")


def _unscored(result: EvaluationResult, metric: str, stats: Mapping[str, float]) -> str:
    """How many samples a metric did not score, and the most common reasons why."""
    nan, total = int(stats["nan"]), len(result.cells)
    lead = "no sample was scored" if nan == total else f"{nan:,} of {total:,} samples not scored"
    reasons = Counter(
        (row[metric].error and "error: " + row[metric].error) or row[metric].reason or "no reason given"
        for row in result.cells
        if math.isnan(row[metric].value)
    )
    common = "; ".join(f"{short(reason, 160)} ({n:,})" for reason, n in reasons.most_common(3))
    return el("b", esc(metric)) + ": " + esc(lead) + ". Most common: " + common


def target_section(result: EvaluationResult) -> str:
    """Calls to the system under test, how many failed, and its latency percentiles."""
    stats = result.target_summary()
    rows = [
        [
            esc(result.target or "-"),
            count(stats["calls"]),
            count(stats["errors"]),
            duration(stats["p50_s"]),
            duration(stats["p95_s"]),
        ]
    ]
    out = table(["target", "calls", "errors", "latency p50", "latency p95"], rows, numeric_from=1)
    if stats["errors"]:
        failed = f"{stats['errors']:,} of {stats['calls']:,} target calls failed"
        out += note(esc(f"{failed}; they are listed under Failed rows."))
    return out


def distributions(result: EvaluationResult, aggregate: Mapping[str, Mapping[str, float]]) -> str:
    if not result.metrics:
        return el("p", "No metrics.", class_="muted")
    figures = [
        plots.histogram(metric, result.scores(metric), aggregate[metric]["mean"], f"hist{n}")
        for n, metric in enumerate(result.metrics)
    ]
    return el("div", "".join(figures), class_="plots")


def breakdowns(result: EvaluationResult) -> str:
    """Mean per metric per group, for every grouping the data actually varies along."""
    if not result.cells:
        return el("p", "No samples to group.", class_="muted")
    scores = {metric: result.scores(metric) for metric in result.metrics}
    metadatas = [sample.metadata for sample in result.dataset]
    extra = list(getattr(result.dataset, "extra_columns", None) or [])
    found = all_breakdowns(metadatas, scores, extra)
    if not found:
        return el(
            "p",
            "No grouping has two or more values in this data (no synthesizer, persona, style, length or "
            "source document metadata to compare).",
            class_="muted",
        )
    return "".join(_breakdown(b, result.metrics, n) for n, b in enumerate(found))


def _breakdown(found: Breakdown, metrics: list[str], position: int) -> str:
    shown = found.groups[:MAX_GROUPS]
    rows = [
        [short(group.label), count(group.n)]
        + [_group_mean(group.means[m], group.scored[m], group.n) for m in metrics]
        for group in shown
    ]
    out = el("h3", esc(f"by {found.title}")) + table([found.title, "n", *metrics], rows)
    if len(found.groups) > MAX_GROUPS:
        rest = len(found.groups) - MAX_GROUPS
        out += el("p", esc(f"… and {rest:,} more groups, smaller than these, not shown."), class_="muted")
    if found.key == "synthesizer" and metrics:
        means = [[group.means[m] for m in metrics] for group in shown[: len(plots.PALETTE)]]
        labels = [group.label for group in shown[: len(plots.PALETTE)]]
        out += plots.group_bars("mean score by synthesizer", metrics, labels, means, f"bars{position}")
    return out


def _group_mean(mean: float, scored: int, n: int) -> str:
    """A group's mean; when some of its samples were not scored, how many were, in the tooltip and text."""
    if scored == n:
        return number(mean)
    if scored == 0:
        return el("span", "- (none scored)", title=f"none of {n} samples scored")
    return el("span", esc(f"{number(mean)} ({scored:,} scored)"), title=f"{scored} of {n} samples scored")


def usage(stages: Mapping[str, Mapping[str, float]]) -> str:
    """Per stage calls, cache hits, tokens and cost, with a total row."""
    if not stages:
        return el("p", "No usage recorded.", class_="muted")
    totals = {name: 0.0 for name in (*USAGE_FIELDS, "offline", "unpriced_calls")}
    rows = []
    for name, stage in sorted(stages.items()):
        for key in totals:
            totals[key] += float(stage.get(key, 0) or 0)
        rows.append([esc(name), *_usage_cells(stage)])
    out = table(
        ["stage", "calls", "cache hits", "input tokens", "output tokens", "cost (USD)"],
        rows,
        total=["total", *_usage_cells(totals)],
    )
    if all(totals[key] == 0 for key in USAGE_FIELDS) and totals["offline"] > 0:
        out += note(esc(f"offline: no model calls ({int(totals['offline']):,} offline computations)."))
    if totals["unpriced_calls"]:
        unpriced = int(totals["unpriced_calls"])
        out += note(esc(f"{unpriced:,} calls used a model with no known price; the cost leaves them out."))
    return out


def _usage_cells(stage: Mapping[str, float]) -> list[str]:
    def get(key: str) -> float:
        return float(stage.get(key, 0) or 0)

    return [
        count(get("calls")),
        count(get("cache_hits")),
        count(get("input_tokens")),
        count(get("output_tokens")),
        f"{get('cost'):.4f}",
    ]
