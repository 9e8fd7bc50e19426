"""Evaluation results: per-sample scores, reasons, errors and traces; aggregates with bootstrap CIs."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core.atomic import atomic_write_text
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
class EvaluationResult:
    dataset: EvaluationDataset
    metrics: list[str]
    cells: list[dict[str, Cell]]
    usage: dict[str, dict[str, float]] = field(default_factory=dict)
    # Per metric, what its scores measure when that is not what its name promises (e.g. offline forms).
    notes: dict[str, str] = field(default_factory=dict)

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

    def to_pandas(self) -> Any:
        frame = self.dataset.to_pandas()
        for metric in self.metrics:
            frame[metric] = self.scores(metric)
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
        lines = [json.dumps(finite_or_none(header), sort_keys=True, allow_nan=False)]
        for sample, row in zip(self.dataset.to_list(), self.cells, strict=True):
            record = {"sample": sample, "cells": {m: asdict(c) for m, c in row.items()}}
            lines.append(json.dumps(finite_or_none(record), ensure_ascii=False, allow_nan=False, default=str))
        atomic_write_text(path, "\n".join(lines) + "\n")

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
        samples, cells = [], []
        for number, line in enumerate(lines[1:], start=2):
            try:
                record = json.loads(line)
                samples.append(record["sample"])
                cells.append(
                    {m: Cell(**{**c, "value": none_as_nan(c["value"])}) for m, c in record["cells"].items()}
                )
            except (ValueError, KeyError, TypeError) as exc:
                raise ConfigError(f"{path} line {number}: broken run record ({exc})") from exc
        return cls(
            EvaluationDataset.from_list(samples),
            list(header["metrics"]),
            cells,
            header.get("usage", {}),
            header.get("notes", {}),
        )

    def __repr__(self) -> str:
        means = {m: round(a["mean"], 4) for m, a in self.aggregate().items()}
        return f"EvaluationResult({len(self.cells)} samples, {means})"


def metric_names(metrics: Sequence[Any]) -> list[str]:
    names = [m.name for m in metrics]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"metric names must be unique, got {sorted(duplicates)} twice")
    return names
