"""Evaluation results: per-sample scores, reasons, errors and traces; aggregates with bootstrap CIs."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.atomic import atomic_write_lines
from ..core.errors import ConfigError
from ..core.records import finite_or_none, none_as_nan
from ..samples.dataset import EvaluationDataset
from .formulas import bootstrap_ci

HEADER_KEY = "_groundset_run"


@dataclass
class Cell:
    """One (sample, metric) outcome. ``error`` is set when scoring failed; then ``value`` is NaN."""

    value: float
    reason: str = ""
    trace: dict[str, Any] = field(default_factory=dict)
    error: str = ""


@dataclass
class TargetCall:
    """How the RAG system under test did on one question: its latency, and its error if it failed."""

    latency_s: float = float("nan")
    error: str = ""


@dataclass
class EvaluationResult:
    dataset: EvaluationDataset
    metrics: list[str]
    cells: list[dict[str, Cell]]
    usage: dict[str, dict[str, float]] = field(default_factory=dict)
    # Per metric, what its scores measure when that is not what its name promises (e.g. offline forms).
    notes: dict[str, str] = field(default_factory=dict)
    # Set by score_rag: what was scored (e.g. "baseline bm25 top_k=5, offline") and, per sample,
    # the target's latency and error. None for a plain evaluate() of a finished dataset.
    target: str = ""
    target_calls: list[TargetCall] | None = None

    def scores(self, metric: str) -> list[float]:
        return [row[metric].value for row in self.cells]

    def aggregate(self, *, confidence: float = 0.95, seed: int = 0) -> dict[str, dict[str, float]]:
        """Per metric: mean with a bootstrap CI over the non-NaN scores, n, NaN count and error count."""
        out = {}
        for metric in self.metrics:
            values = self.scores(metric)
            mean, low, high = bootstrap_ci(values, confidence=confidence, seed=seed)
            out[metric] = {
                "mean": mean,
                "ci_low": low,
                "ci_high": high,
                "n": sum(not math.isnan(v) for v in values),
                "nan": sum(math.isnan(v) for v in values),
                "errors": sum(bool(row[metric].error) for row in self.cells),
            }
        return out

    def target_summary(self) -> dict[str, float]:
        """Calls, errors and latency percentiles (seconds) of the target; empty without a target."""
        if self.target_calls is None:
            return {}
        latencies = [c.latency_s for c in self.target_calls if not c.error and not math.isnan(c.latency_s)]
        p50, p95 = (percentile(latencies, q) for q in (50, 95))
        errors = sum(bool(c.error) for c in self.target_calls)
        return {"calls": len(self.target_calls), "errors": errors, "p50_s": p50, "p95_s": p95}

    def sample_ids(self) -> list[str | None]:
        """Each sample's test-set id (``metadata["id"]``), None where the dataset has none."""
        ids = []
        for sample in self.dataset:
            value = sample.metadata.get("id")
            ids.append(value if isinstance(value, str) and value else None)
        return ids

    def report(self, path: str | Path, *, title: str | None = None) -> Path:
        """Write one self-contained HTML report (inline CSS and plots, no scripts) to ``path``."""
        from .report import write_run_report

        return write_run_report(self, path, title=title)

    def to_pandas(self) -> Any:
        """The dataset's columns (your own ones included), one column of scores per metric and, for a
        score_rag run, the target's latency and error. A metric named like one of your columns gets
        ``<metric>_score``, so no column of yours is overwritten."""
        frame = self.dataset.to_pandas()
        for metric in self.metrics:
            frame[f"{metric}_score" if metric in frame.columns else metric] = self.scores(metric)
        if self.target_calls is not None:
            frame["target_latency_s"] = [call.latency_s for call in self.target_calls]
            frame["target_error"] = [call.error for call in self.target_calls]
        return frame

    def to_jsonl(self, path: str | Path) -> None:
        """A header line (metrics, aggregate, usage), then per sample its data and every cell. Atomic.

        Strict JSON: a score that could not be computed is ``null`` with its reason or error beside it.
        """
        header = {
            HEADER_KEY: 1,
            "metrics": self.metrics,
            "aggregate": self.aggregate(),
            "usage": self.usage,
            "notes": self.notes,
        }
        if self.target_calls is not None:
            header["target"] = {"name": self.target, **self.target_summary()}
        calls = self.target_calls or [None] * len(self.cells)

        def lines() -> Iterator[str]:  # streamed to the file: a big run is never one string in memory
            yield json.dumps(finite_or_none(header), sort_keys=True, allow_nan=False)
            for sample, row, call in zip(self.dataset.to_list(), self.cells, calls, strict=True):
                record = {"sample": sample, "cells": {m: asdict(c) for m, c in row.items()}}
                if call is not None:
                    record["target"] = asdict(call)
                yield json.dumps(finite_or_none(record), ensure_ascii=False, allow_nan=False, default=str)

        atomic_write_lines(path, lines())

    @classmethod
    def load(cls, path: str | Path) -> EvaluationResult:
        text = Path(path).read_text(encoding="utf-8")
        lines = [line for line in text.split("\n") if line.strip()]
        try:
            header = json.loads(lines[0]) if lines else {}
        except ValueError as exc:
            raise ConfigError(f"{path} line 1: not a groundset run file ({exc})") from exc
        if header.get(HEADER_KEY) != 1:
            raise ConfigError(f"{path} is not a groundset run file (no header line); write one with to_jsonl")
        samples, cells, calls = [], [], []
        for number, line in enumerate(lines[1:], start=2):
            try:
                record = json.loads(line)
                samples.append(record["sample"])
                cells.append(
                    {m: Cell(**{**c, "value": none_as_nan(c["value"])}) for m, c in record["cells"].items()}
                )
                if "target" in record:
                    call = record["target"]
                    calls.append(TargetCall(none_as_nan(call.get("latency_s")), call.get("error", "")))
            except (ValueError, KeyError, TypeError) as exc:
                raise ConfigError(f"{path} line {number}: broken run record ({exc})") from exc
        return cls(
            EvaluationDataset.from_list(samples, notify=False),
            list(header["metrics"]),
            cells,
            header.get("usage", {}),
            header.get("notes", {}),
            target=(header.get("target") or {}).get("name", ""),
            target_calls=calls if "target" in header else None,
        )

    def __repr__(self) -> str:
        means = {m: round(a["mean"], 4) for m, a in self.aggregate().items()}
        return f"EvaluationResult({len(self.cells)} samples, {means})"


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (linear interpolation) of ``values``; NaN when there are none."""
    return float(np.percentile(values, q)) if values else float("nan")


def metric_names(metrics: Sequence[Any]) -> list[str]:
    names = [m.name for m in metrics]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"metric names must be unique, got {sorted(duplicates)} twice")
    return names
