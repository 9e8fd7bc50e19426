"""The samples a reader needs to look at: the lowest-scoring ones per metric, and the ones that broke.

Only these are rendered, never the whole dataset, so a report on 20,000 samples stays a page, not a dump.
Each sample is a closed ``<details>`` block: the list reads as a summary and opens without JavaScript. A
sample's texts (question, response, contexts, reference) are shown the first time the page lists it; where
it comes again (low in another metric, or failed) its block links back to them rather than copying them.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import Any

from ..result import Cell, EvaluationResult
from .page import (
    CONTEXT_CHARS,
    SUMMARY_CHARS,
    compact_json,
    details,
    el,
    esc,
    field,
    note,
    number,
    one_line,
    see_above,
    short,
    text,
)

WORST_PER_METRIC = 5
MAX_FAILED = 50


def question_text(sample: Any) -> str:
    """The question, or a conversation written out one message a line (multi-turn samples)."""
    value = getattr(sample, "user_input", None)
    if isinstance(value, list):
        return "\n".join(f"{getattr(m, 'type', 'message')}: {getattr(m, 'content', m)}" for m in value)
    if getattr(sample, "history", None):  # a follow-up: the earlier turns, then the question asked
        return sample.asked()
    return "" if value is None else str(value)


class SampleView:
    """Renders samples of one result on one page; knows its ids, locations and the user's own columns, and
    which samples the page already shows."""

    def __init__(self, result: EvaluationResult) -> None:
        self.result = result
        self.ids = result.sample_ids()
        self.extra_columns = list(getattr(result.dataset, "extra_columns", None) or [])
        self.locations = list(getattr(result.dataset, "locations", []))
        self.shown: set[int] = set()

    def block(
        self, index: int, lead: str, cell: Cell | None = None, *, errors: Sequence[tuple[str, str]] = ()
    ) -> str:
        """One sample, closed, under its heading: where it came from, the user's columns, the errors, the
        exchange (the first time the page shows the sample; a link back to it after) and the verdict."""
        first = index not in self.shown
        self.shown.add(index)
        sample = self.result.dataset[index]
        parts = [self._facts(index, sample)] if first else []
        parts += [
            field(label, text(message, limit=CONTEXT_CHARS, class_="text error")) for label, message in errors
        ]
        what = "Its question, response, contexts and reference"
        parts.append(
            self._exchange(sample) if first else see_above(what, f"sample #{index}, above", anchor(index))
        )
        if cell is not None:
            parts.append(self._cell(cell))
        return details(self.heading(index, lead), "".join(parts), id_=anchor(index) if first else None)

    def heading(self, index: int, lead: str) -> str:
        """One summary line: what is wrong (``lead``, already escaped), which sample, and its question."""
        sample_id = self.ids[index]
        name = f"#{index}" + (f" · {sample_id}" if sample_id else "")
        sample = self.result.dataset[index]
        question = one_line(sample.user_input if getattr(sample, "history", None) else question_text(sample))
        return f"{lead} · {el('span', esc(name), class_='mono')} · {esc(question)}"

    def _exchange(self, sample: Any) -> str:
        """The question, the response, the retrieved contexts and the reference, each cut when long."""
        parts = [field("question", text(question_text(sample)))]
        response = getattr(sample, "response", None)
        if response is not None:
            parts.append(field("response", text(response)))
        contexts = getattr(sample, "retrieved_contexts", None)
        if contexts is not None:
            ids = getattr(sample, "retrieved_context_ids", None) or []
            parts.append(field(f"retrieved contexts ({len(contexts)})", self._contexts(contexts, ids)))
        reference = getattr(sample, "reference", None)
        if reference is not None:
            parts.append(field("reference", text(reference)))
        return "".join(parts)

    def _facts(self, index: int, sample: Any) -> str:
        facts = [("id", self.ids[index] or "-")]
        if index < len(self.locations):
            facts.append(("from", self.locations[index]))
        for column in self.extra_columns:
            facts.append((column, _plain(sample.metadata.get(column))))
        items = "".join(el("span", el("b", esc(k)) + ": " + short(v, SUMMARY_CHARS)) for k, v in facts)
        return el("p", items, class_="meta")

    @staticmethod
    def _contexts(contexts: Sequence[str], ids: Sequence[str]) -> str:
        if not contexts:
            return el("div", "none retrieved", class_="muted")
        blocks = []
        for position, context in enumerate(contexts):
            label = f"[{position + 1}]" + (f" {ids[position]}" if position < len(ids) else "")
            blocks.append(el("div", esc(label), class_="muted mono") + text(context, limit=CONTEXT_CHARS))
        return "".join(blocks)

    @staticmethod
    def _cell(cell: Cell) -> str:
        parts = []
        if cell.error:
            parts.append(field("error", text(cell.error, limit=CONTEXT_CHARS, class_="text error")))
        if cell.reason:
            parts.append(field("reason", text(cell.reason, limit=CONTEXT_CHARS)))
        if cell.trace and not math.isnan(cell.value):
            parts.append(field("trace", compact_json(cell.trace)))
        return "".join(parts)


def anchor(index: int) -> str:
    """The page id of the block that shows sample ``index`` whole."""
    return f"sample-{index}"


def _plain(value: Any) -> str:
    return "-" if value is None else value if isinstance(value, str) else str(value)


def worst_indices(values: Sequence[float], k: int = WORST_PER_METRIC) -> list[int]:
    """The ``k`` lowest scored samples, ties broken by position; unscored (NaN) samples are not ranked."""
    ranked = heapq.nsmallest(k, ((v, i) for i, v in enumerate(values) if not math.isnan(v)))
    return [i for _, i in ranked]


def worst_samples(result: EvaluationResult, view: SampleView) -> str:
    """Per metric, the worst samples (lowest, or highest where lower is better) and why."""
    if not result.cells:
        return el("p", "No samples.", class_="muted")
    blocks = []
    for metric in result.metrics:
        values = result.scores(metric)
        flipped = result.lower_is_better(metric)
        chosen = worst_indices([-v for v in values] if flipped else values)
        blocks.append(el("h3", esc(f"{metric} (highest: lower is better)" if flipped else metric)))
        if not chosen:
            blocks.append(el("p", "No sample has a score for this metric.", class_="muted"))
            continue
        for index in chosen:
            lead = el("b", esc(f"{number(values[index])}"))
            blocks.append(view.block(index, lead, result.cells[index][metric]))
    return "".join(blocks)


def failures(result: EvaluationResult) -> list[tuple[int, list[tuple[str, str]]]]:
    """Each sample whose target call or any cell errored, with (what failed, error text) pairs."""
    calls = result.target_calls or []
    found = []
    for index, row in enumerate(result.cells):
        errors = []
        if index < len(calls) and calls[index].error:
            errors.append(("target error", calls[index].error))
        errors += [(f"{metric} error", row[metric].error) for metric in result.metrics if row[metric].error]
        if errors:
            found.append((index, errors))
    return found


def failed_rows(result: EvaluationResult, view: SampleView) -> str:
    """The samples that broke, first ``MAX_FAILED`` of them, each with its error text."""
    found = failures(result)
    if not found:
        return el("p", "No target call or metric failed.", class_="muted")
    blocks = [el("p", esc(f"{len(found):,} of {len(result.cells):,} samples have an error."))]
    for index, errors in found[:MAX_FAILED]:
        what = ", ".join(label.removesuffix(" error") for label, _ in errors)
        lead = el("span", esc(f"failed: {what}"), class_="error")
        blocks.append(view.block(index, lead, errors=errors))
    if len(found) > MAX_FAILED:
        blocks.append(note(esc(f"… and {len(found) - MAX_FAILED:,} more samples with errors, not shown.")))
    return "".join(blocks)
