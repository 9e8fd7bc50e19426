"""Small plots rendered to inline SVG text, so a report is one file that shows its figures offline.

Figures are built with ``matplotlib.figure.Figure`` directly: no pyplot, so no global figure registry to
leak into or race on when reports are written from several threads. Text is drawn as paths (matplotlib's
default for SVG), so no font has to be present where the report is opened. Labels come from data, so
mathtext is off for every one of them: a ``$`` in a file name must not be parsed as a formula.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .page import el, skip

# Colours that stay apart for readers with the common colour-vision deficiencies (Okabe-Ito).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
_NO_METADATA = {"Creator": None, "Date": None, "Format": None, "Type": None}
_ID = re.compile(r'\bid="([^"]+)"')


def to_svg(fig: Figure, name: str) -> str:
    """The figure as an ``<svg>`` element for inline use, with ids made unique to this plot.

    Several SVGs in one page share one id space; matplotlib reuses glyph ids across figures, so
    each id gets the plot's ``name`` as a prefix. The XML prologue, the doctype (which names a URL),
    the namespace declarations (implied in HTML) and comments are dropped.
    """
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata=_NO_METADATA)
    fig.clear()  # drop the artists now rather than when the garbage collector gets to them
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)
    ids = {old: f"{name}-{n}" for n, old in enumerate(dict.fromkeys(_ID.findall(svg)))}
    svg = _ID.sub(lambda m: f'id="{ids[m.group(1)]}"', svg)
    svg = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{ids.get(m.group(1), m.group(1))}"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{ids.get(m.group(1), m.group(1))})", svg)
    return svg.strip()


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    fig.set_facecolor("white")
    return fig


def _plot(svg: str, label: str) -> str:
    return el("div", svg, class_="plot", role="img", aria_label=label)


def histogram(metric: str, values: Sequence[float], mean: float, name: str) -> str:
    """A histogram of one metric's scores with the mean marked; a short text when there is nothing to draw.

    Scores in [0, 1] are drawn on the full 0..1 axis, so two metrics' plots can be read side by side.
    """
    data = np.asarray([v for v in values if math.isfinite(v)], dtype=np.float64)
    if data.size == 0:
        return skip(f"{metric}: no scores to plot")
    low, high = float(data.min()), float(data.max())
    if low == high:
        return skip(f"{metric}: all {data.size:,} scores are {low:.3g}; nothing to plot")
    unit = low >= 0.0 and high <= 1.0
    fig = _figure(3.4, 2.2)
    ax = fig.add_subplot()
    ax.hist(data, bins=20, range=(0.0, 1.0) if unit else None, color=PALETTE[0], edgecolor="white")
    if unit:
        ax.set_xlim(0.0, 1.0)
    title = _short(metric, 40)
    if math.isfinite(mean):
        ax.axvline(mean, color=PALETTE[5], linewidth=1.5, linestyle="--")
        title += f"  (mean {mean:.3f}, dashed)"
    ax.set_title(title, fontsize=9, parse_math=False)
    ax.set_ylabel("samples", fontsize=8)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(labelsize=7)
    ax.spines[["top", "right"]].set_visible(False)
    return _plot(to_svg(fig, name), f"distribution of {metric}")


def group_bars(
    title: str, metrics: Sequence[str], groups: Sequence[str], means: Sequence[Sequence[float]], name: str
) -> str:
    """Mean per metric (x) for each group (one bar colour each); ``means[g][m]`` may be NaN."""
    table = np.asarray(means, dtype=np.float64).reshape(len(groups), len(metrics))
    if not groups or not metrics or not np.isfinite(table).any():
        return skip(f"{title}: no scores to plot")
    width = 0.8 / len(groups)
    x = np.arange(len(metrics))
    fig = _figure(min(2.0 + 1.1 * len(metrics) * max(1, len(groups) / 3), 11.0), 2.8)
    ax = fig.add_subplot()
    bars = []
    for index in range(len(groups)):
        offset = (index - (len(groups) - 1) / 2) * width
        colour = PALETTE[index % len(PALETTE)]
        bars.append(ax.bar(x + offset, np.nan_to_num(table[index], nan=0.0), width, color=colour))
    ax.set_xticks(x, [_short(m, 22) for m in metrics], fontsize=7, rotation=20, ha="right", parse_math=False)
    ax.set_ylabel("mean", fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    if float(np.nanmin(table)) >= 0.0 and float(np.nanmax(table)) <= 1.0:
        ax.set_ylim(0.0, 1.0)
    ax.set_title(title, fontsize=9, parse_math=False)
    ax.spines[["top", "right"]].set_visible(False)
    # Labels passed explicitly: a group named "_x" would otherwise be dropped from an automatic legend.
    legend = ax.legend(
        bars,
        [_short(g, 28) for g in groups],
        fontsize=7,
        frameon=False,
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
    )
    for label in legend.get_texts():
        label.set_parse_math(False)
    return _plot(to_svg(fig, name), title)


def forest(
    metrics: Sequence[str],
    diffs: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    verdicts: Sequence[str],
    name: str,
) -> str:
    """Each metric's difference (B - A) with its 95% CI as a horizontal bar, and the zero line.

    Colour follows the verdict ("better" / "worse"), not the sign, since for some metrics lower is better.
    A metric whose interval could not be computed shows its point alone (hollow), so it is not mistaken
    for a certain one.
    """
    shown = [i for i, d in enumerate(diffs) if math.isfinite(d)]
    if not shown:
        return skip("no metric has pairs to compare; nothing to plot")
    fig = _figure(6.0, 0.9 + 0.38 * len(shown))
    ax = fig.add_subplot()
    for row, index in enumerate(reversed(shown)):
        diff, low, high = diffs[index], lows[index], highs[index]
        if math.isfinite(low) and math.isfinite(high):
            colour = {"better": PALETTE[2], "worse": PALETTE[5]}.get(verdicts[index], "#555555")
            ax.plot([low, high], [row, row], color=colour, linewidth=2.2, solid_capstyle="butt")
            ax.plot([diff], [row], "o", color=colour, markersize=5)
        else:
            ax.plot([diff], [row], "o", markerfacecolor="white", markeredgecolor="#555555", markersize=5)
    ax.axvline(0.0, color="#222222", linewidth=0.9)
    labels = [_short(metrics[i], 30) for i in reversed(shown)]
    ax.set_yticks(range(len(shown)), labels, fontsize=8, parse_math=False)
    ax.set_ylim(-0.7, len(shown) - 0.3)
    ax.set_xlabel("difference in mean score (B - A), 95% CI", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    ax.spines[["top", "right"]].set_visible(False)
    return _plot(to_svg(fig, name), "difference per metric with 95% confidence interval")


def _short(label: str, limit: int) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"
