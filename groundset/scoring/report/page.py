"""HTML building blocks: one page skeleton with inline CSS, and helpers that escape every piece of data.

Reports hold untrusted text (documents, model answers, file paths), so the only way text enters the page
is through :func:`esc`; markup is built by small functions rather than a template engine, which keeps the
escaping visible at every call site. No scripts, fonts or external URLs: the file must work offline.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from ..._version import __version__

# Text from data longer than these is cut where it is shown, with its length said, so a page stays usable
# (a 10 MB answer would make it a dump); the run file keeps every text whole.
TEXT_CHARS = 20_000  # a question, response or reference: longer than any answer a reader reads through
CONTEXT_CHARS = 1500
TRACE_CHARS = 2000
LABEL_CHARS = 48
SUMMARY_CHARS = 90

CSS = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --good: #1a7f37; --bad: #cf222e; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  max-width: 1200px; margin: 0 auto; padding: 24px; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 19px; margin: 32px 0 8px;
  border-bottom: 1px solid var(--line); padding-bottom: 4px; } h3 { font-size: 15px; margin: 18px 0 6px; }
.meta { color: var(--muted); margin: 0 0 16px; } .meta span { margin-right: 18px; }
.muted { color: var(--muted); }
table { border-collapse: collapse; margin: 6px 0 12px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); } td.num { text-align: right; } tr.total td { font-weight: 600; }
.note { background: #fff8c5; border-left: 3px solid #d4a72c; padding: 6px 10px; margin: 6px 0; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
.plot { display: inline-block; border: 1px solid var(--line); padding: 6px; max-width: 100%; }
.plot svg { display: block; max-width: 100%; height: auto; }
.skip { color: var(--muted); font-style: italic; padding: 8px; }
details { border: 1px solid var(--line); border-radius: 4px; margin: 6px 0; padding: 4px 10px; }
details[open] { background: #fcfcfd; } summary { cursor: pointer; }
.text { white-space: pre-wrap; word-break: break-word; background: var(--soft); padding: 6px 8px;
  border-radius: 3px; margin: 2px 0 8px; max-height: 420px; overflow: auto; }
.field { font-weight: 600; margin-top: 6px; }
.error { color: var(--bad); }
.good { color: var(--good); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
"""


def esc(value: object) -> str:
    """Any value as escaped text (quotes too, so the result is safe inside attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def attrs(**values: object) -> str:
    """Escaped attributes; a None value is left out, ``class_`` becomes ``class``."""
    return "".join(
        f' {name.rstrip("_").replace("_", "-")}="{esc(value)}"'
        for name, value in values.items()
        if value is not None
    )


def el(name: str, inner: str = "", **attributes: object) -> str:
    """One element around markup that the caller has already escaped."""
    return f"<{name}{attrs(**attributes)}>{inner}</{name}>"


def text(value: object, *, limit: int = TEXT_CHARS, class_: str = "text") -> str:
    """A block of data text, escaped, cut at ``limit`` characters with its whole length stated. The cut
    comes before escaping, so it never splits an entity, and only the shown head is copied."""
    whole = "" if value is None else str(value)
    if len(whole) <= limit:
        return el("div", esc(whole), class_=class_)
    said = f"(cut: {len(whole):,} characters in all; the run file keeps it whole)"
    return el("div", esc(whole[:limit]) + "…", class_=class_) + el("div", esc(said), class_="muted")


def one_line(value: str, limit: int = SUMMARY_CHARS) -> str:
    """A text as one line of at most ``limit`` characters, for a summary; only its head is read."""
    flat = " ".join(value[: limit * 4].split())
    return flat if len(flat) <= limit and len(value) <= limit * 4 else flat[: limit - 1] + "…"


def short(value: object, limit: int = LABEL_CHARS) -> str:
    """A label cut to ``limit`` characters; when cut, the full text (up to ``CONTEXT_CHARS``) is in the title
    attribute."""
    full = "" if value is None else str(value)
    if len(full) <= limit:
        return esc(full)
    title = full if len(full) <= CONTEXT_CHARS else full[:CONTEXT_CHARS] + "…"
    return el("span", esc(full[: limit - 1] + "…"), title=title)


def field(label: str, body: str) -> str:
    return el("div", esc(label), class_="field") + body


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    id_: str | None = None,
    total: Sequence[str] = (),
    numeric_from: int = 1,
) -> str:
    """A table of pre-escaped cells; columns from ``numeric_from`` on hold numbers and align right."""

    def row_html(row: Sequence[str], class_: str | None = None) -> str:
        cells = (el("td", c, class_="num" if i >= numeric_from else None) for i, c in enumerate(row))
        return el("tr", "".join(cells), class_=class_)

    head = el("thead", el("tr", "".join(el("th", esc(h)) for h in headers)))
    body = [row_html(row) for row in rows]
    if total:
        body.append(row_html(total, "total"))
    return el("table", head + el("tbody", "".join(body)), id=id_)


def details(summary: str, body: str, *, open_: bool = False, id_: str | None = None) -> str:
    """A collapsible block: readable without JavaScript, closed by default; a link can point at ``id_``."""
    return f"<details{attrs(id=id_)}{' open' if open_ else ''}>{el('summary', summary)}{body}</details>"


def see_above(what: str, where: str, target: str) -> str:
    """What stands in for texts the page already shows: a line saying which, linking to block ``target``."""
    link = el("a", esc(where), href="#" + target)
    return el("p", esc(f"{what}: see ") + link + ".", class_="muted")


def note(message: str) -> str:
    return el("div", message, class_="note")


def skip(message: str) -> str:
    """What stands in for a plot that has nothing to show."""
    return el("div", esc(message), class_="skip")


def section(title: str, body: str, *, id_: str | None = None) -> str:
    return el("section", el("h2", esc(title)) + body, id=id_)


def document(title: str, meta: Sequence[tuple[str, str]], body: str) -> str:
    """The whole page: title, a line of facts about the run, then the sections."""
    facts = "".join(el("span", el("b", esc(k)) + ": " + esc(v)) for k, v in meta if v != "")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"{el('h1', esc(title))}\n{el('p', facts, class_='meta')}\n{body}\n</body>\n</html>\n"
    )


def standard_meta() -> list[tuple[str, str]]:
    """When and with what the report was made."""
    return [
        ("generated", datetime.now(UTC).isoformat(timespec="seconds")),
        ("groundset", __version__),
    ]


def number(value: float, digits: int = 3) -> str:
    """A score as text; NaN (nothing to show) as a dash."""
    if value is None or isinstance(value, float) and math.isnan(value):
        return "-"
    return f"{value:.{digits}f}"


def signed(value: float, digits: int = 3) -> str:
    return "-" if math.isnan(value) else f"{value:+.{digits}f}"


def interval(low: float, high: float, digits: int = 3, *, sign: bool = False) -> str:
    """A confidence interval as ``[low, high]``, or a dash when it could not be computed."""
    if math.isnan(low) or math.isnan(high):
        return "-"
    show = signed if sign else number
    return f"[{show(low, digits)}, {show(high, digits)}]"


def duration(seconds: float) -> str:
    """Latency in the unit a reader takes in at a glance: ms below a second, s above."""
    if seconds is None or math.isnan(seconds):
        return "-"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def count(value: float) -> str:
    return f"{int(value):,}"


def compact_json(value: Any, limit: int = TRACE_CHARS) -> str:
    """A trace as one escaped block of compact JSON, cut at ``limit`` characters."""
    try:
        dumped = json.dumps(value, ensure_ascii=False, default=str, separators=(", ", ": "))
    except (TypeError, ValueError):  # e.g. a circular structure: still show something
        dumped = repr(value)
    return text(dumped, limit=limit, class_="text mono")
