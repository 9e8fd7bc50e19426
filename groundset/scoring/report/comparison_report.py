"""The report of two runs on the same questions: which metrics moved, whether the move is more than noise,
and the samples that moved most, with both answers side by side (once per sample: where the same sample
moved in another metric too, its block links back to them).

Only attributes of the comparison are read, so any object with the fields of ``compare.RunComparison`` works.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.atomic import atomic_write_text
from . import plots
from .page import (
    count,
    details,
    document,
    el,
    esc,
    field,
    interval,
    note,
    number,
    one_line,
    section,
    see_above,
    signed,
    standard_meta,
    table,
    text,
)

if TYPE_CHECKING:
    from ..compare import RunComparison


def write_comparison_report(comparison: RunComparison, path: str | Path, *, title: str | None = None) -> Path:
    """Write the comparison's report as one self-contained HTML file (atomically) and return its path."""
    target = Path(path)
    atomic_write_text(target, render_comparison_report(comparison, title=title))
    return target


def render_comparison_report(comparison: RunComparison, *, title: str | None = None) -> str:
    heading = title or f"groundset comparison: {comparison.label_a} vs {comparison.label_b}"
    meta = [
        ("A", _run(comparison.label_a, comparison.target_a)),
        ("B", _run(comparison.label_b, comparison.target_b)),
        ("paired samples", f"{comparison.paired:,}"),
        ("only in A", f"{comparison.only_a:,}"),
        ("only in B", f"{comparison.only_b:,}"),
        *standard_meta(),
    ]
    metrics = list(comparison.metrics.values())
    body = [
        section("Summary", summary(comparison)),
        section(
            "Difference per metric",
            plots.forest(
                [m.metric for m in metrics],
                [m.diff for m in metrics],
                [m.ci_low for m in metrics],
                [m.ci_high for m in metrics],
                [verdict(comparison, m) for m in metrics],
                "forest",
            ),
        ),
        section("Samples that changed most", changes(comparison)),
    ]
    return document(heading, meta, "\n".join(body))


def _run(label: str, target: str) -> str:
    return f"{label} ({target})" if target else label


def verdict(comparison: RunComparison, item: Any) -> str:
    """The comparison's own verdict when it has one (it knows which metrics are better lower), else
    "better" / "worse" only when the CI of B - A lies clear of 0."""
    own = getattr(comparison, "verdict", None)
    if callable(own):
        return str(own(item.metric))
    if math.isnan(item.ci_low) or math.isnan(item.ci_high):
        return "too few pairs"
    if item.ci_low > 0:
        return "better"
    if item.ci_high < 0:
        return "worse"
    return "no clear change"


_VERDICT_STYLE = {"better": "good", "worse": "bad", "too few pairs": "muted"}


def summary(comparison: RunComparison) -> str:
    confidence = float(getattr(comparison, "confidence", 0.95))
    rows = []
    for item in comparison.metrics.values():
        word = verdict(comparison, item)
        rows.append(
            [
                esc(item.metric),
                count(item.n),
                number(item.mean_a),
                number(item.mean_b),
                signed(item.diff),
                interval(item.ci_low, item.ci_high, sign=True),
                esc(f"{item.wins:,} / {item.ties:,} / {item.losses:,}"),
                el("span", esc(word), class_=_VERDICT_STYLE.get(word)),
            ]
        )
    ci = f"{confidence:.0%} CI"
    headers = ["metric", "pairs", "mean A", "mean B", "diff (B - A)", ci, "win / tie / loss", "verdict"]
    out = table(headers, rows, id_="summary")
    if not comparison.metrics:
        out += el("p", "The two runs share no metric.", class_="muted")
    out += el(
        "p",
        esc(
            f"A verdict is “better” or “worse” only when the paired bootstrap {ci} of B - A lies clear of 0 "
            "(mirrored for metrics where lower is better); wins count pairs where B scored higher than A."
        ),
        class_="muted",
    )
    if comparison.only_a or comparison.only_b:
        out += note(
            esc(
                f"Only samples in both runs are compared: {comparison.only_a:,} only in A and "
                f"{comparison.only_b:,} only in B are left out."
            )
        )
    for message in getattr(comparison, "notes", None) or []:
        out += note(esc(message))
    return out


def changes(comparison: RunComparison) -> str:
    """Per metric, the samples whose score moved most, each with its question and both responses."""
    if not comparison.changes:
        return el("p", "No sample changed.", class_="muted")
    by_metric: dict[str, list[Any]] = {name: [] for name in comparison.metrics}
    for change in comparison.changes:
        by_metric.setdefault(change.metric, []).append(change)
    blocks = []
    # (sample id, question, responses) -> the page id of the block that shows them: the texts are in the
    # key, as a run may repeat an id (``compare_runs`` pairs such samples in order) and each pair is shown
    anchors: dict[tuple[str, str, str, str], str] = {}
    for metric, items in by_metric.items():
        if not items:
            continue
        blocks.append(el("h3", esc(metric)))
        blocks.extend(_change(item, comparison, anchors) for item in items)
    return "".join(blocks)


def _change(item: Any, comparison: RunComparison, anchors: dict[tuple[str, str, str, str], str]) -> str:
    """One moved sample: its question and both responses the first time the page shows it, else a link."""
    style = "good" if item.delta > 0 else "bad" if item.delta < 0 else None
    question = one_line(str(item.user_input or ""))
    lead = (
        el("span", esc(signed(item.delta)), class_=style)
        + esc(f" · {number(item.a)} → {number(item.b)} · ")
        + el("span", esc(item.sample_id), class_="mono")
        + esc(f" · {question}")
    )
    key = (item.sample_id, item.user_input, item.response_a, item.response_b)
    if key in anchors:
        where = f"{item.sample_id}, above"
        return details(lead, see_above("Its question and both responses", where, anchors[key]))
    anchors[key] = f"pair-{len(anchors) + 1}"
    pair = el(
        "div",
        el("div", field(f"response A ({comparison.label_a})", text(item.response_a)))
        + el("div", field(f"response B ({comparison.label_b})", text(item.response_b))),
        class_="pair",
    )
    return details(lead, field("question", text(item.user_input)) + pair, id_=anchors[key])
