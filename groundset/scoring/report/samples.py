"""The samples a reader needs to look at: the lowest-scoring ones per metric, and the ones that broke.

Only these are rendered, never the whole dataset, so a report on 20,000 samples stays a page, not a dump.
Each sample is a closed ``<details>`` block: the list reads as a summary and opens without JavaScript.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from typing import Any

from ..result import Cell, EvaluationResult
from ..thresholds import lower_is_better
from .page import CONTEXT_CHARS, compact_json, details, el, esc, field, note, number, text

WORST_PER_METRIC = 5
MAX_FAILED = 50
SUMMARY_CHARS = 90


def question_text(sample: Any) -> str:
    """The question, or a conversation written out one message a line (multi-turn samples)."""
    value = getattr(sample, "user_input", None)
    if isinstance(value, list):
        return "\n".join(f"{getattr(m, 'type', 'message')}: {getattr(m, 'content', m)}" for m in value)
    if getattr(sample, "history", None):  # a follow-up: the earlier turns, then the question asked
        return sample.asked()
    return "" if value is None else str(value)


def _one_line(value: str, limit: int = SUMMARY_CHARS) -> str:
    flat = " ".join(value.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class SampleView:
    """Renders samples of one result; knows its ids, locations and the user's own columns."""

    def __init__(self, result: EvaluationResult) -> None:
        self.result = result
        self.ids = result.sample_ids()
        self.extra_columns = list(getattr(result.dataset, "extra_columns", None) or [])
        self.locations = list(getattr(result.dataset, "locations", []))

    def heading(self, index: int, lead: str) -> str:
        """One summary line: what is wrong (``lead``, already escaped), which sample, and its question."""
        sample_id = self.ids[index]
        name = f"#{index}" + (f" · {sample_id}" if sample_id else "")
        sample = self.result.dataset[index]
        question = _one_line(sample.user_input if getattr(sample, "history", None) else question_text(sample))
        return f"{lead} · {el('span', esc(name), class_='mono')} · {esc(question)}"

    def body(self, index: int, cell: Cell | None = None, *, errors: Sequence[tuple[str, str]] = ()) -> str:
        """Everything about one sample: where it came from, the user's columns, the exchange, the verdict."""
        sample = self.result.dataset[index]
        parts = [self._facts(index, sample)]
        for label, message in errors:
            parts.append(field(label, text(message, limit=CONTEXT_CHARS, class_="text error")))
        parts.append(field("question", text(question_text(sample))))
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
        if cell is not None:
            parts.append(self._cell(cell))
        return "".join(parts)

    def _facts(self, index: int, sample: Any) -> str:
        facts = [("id", self.ids[index] or "-")]
        if index < len(self.locations):
            facts.append(("from", self.locations[index]))
        for column in self.extra_columns:
            facts.append((column, _plain(sample.metadata.get(column))))
        items = "".join(el("span", el("b", esc(k)) + ": " + esc(v)) for k, v in facts)
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
        flipped = lower_is_better(metric)
        chosen = worst_indices([-v for v in values] if flipped else values)
        blocks.append(el("h3", esc(f"{metric} (highest: lower is better)" if flipped else metric)))
        if not chosen:
            blocks.append(el("p", "No sample has a score for this metric.", class_="muted"))
            continue
        for index in chosen:
            lead = el("b", esc(f"{number(values[index])}"))
            blocks.append(details(view.heading(index, lead), view.body(index, result.cells[index][metric])))
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
        blocks.append(details(view.heading(index, lead), view.body(index, errors=errors)))
    if len(found) > MAX_FAILED:
        blocks.append(note(esc(f"… and {len(found) - MAX_FAILED:,} more samples with errors, not shown.")))
    return "".join(blocks)
