"""Evaluation results: per-sample scores, reasons, errors and traces; aggregates with bootstrap CIs."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from ..core.atomic import atomic_write_lines
from ..core.errors import ConfigError
from ..core.records import finite_or_none, json_lines, none_as_nan
from ..samples.dataset import EvaluationDataset
from ..samples.messages import kind
from .formulas import bootstrap_ci
from .run_judges import Judge
from .thresholds import lower_is_better

HEADER_KEY = "_groundset_run"
FORMAT_VERSION = 1


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
    # Per metric, the models that judged it by role ("llm", "embeddings"; {} for a metric no model judges).
    # Empty for a run file written before groundset recorded them: the judges are unknown.
    judges: dict[str, dict[str, Judge]] = field(default_factory=dict)
    # The metrics where a lower score is the better one, as the run's metric objects said (a critic
    # renamed by the user keeps its direction). None for a run file written before groundset recorded them:
    # then the metric's registered name decides.
    lower_better: tuple[str, ...] | None = None

    def lower_is_better(self, metric: str) -> bool:
        """Whether a lower score of ``metric`` is the better one in this run."""
        if self.lower_better is not None:
            return metric in self.lower_better
        return lower_is_better(metric)

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
            HEADER_KEY: FORMAT_VERSION,
            "metrics": self.metrics,
            "aggregate": self.aggregate(),
            "usage": self.usage,
            "notes": self.notes,
        }
        if self.judges:
            header["judges"] = {
                metric: {role: asdict(judge) for role, judge in roles.items()}
                for metric, roles in self.judges.items()
            }
        if self.lower_better is not None:
            header["lower_is_better"] = sorted(self.lower_better)
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
        """Read a run file written by :meth:`to_jsonl`. It may be old, hand-edited or cut short, so every
        problem is one ConfigError naming the file, the line and the field, never a stray exception."""
        records = json_lines(path, "run file")
        number, header = _first_record(records, path)
        top = f"{path} line {number}"
        metrics = _check_header(header, top)
        judges = _judges(header.get("judges", {}), top)  # absent in a run file from before they were recorded
        lower_better = _names(header.get("lower_is_better"), f"{top}: lower_is_better")
        has_target = "target" in header
        samples, where, cells, calls = [], [], [], []
        for number, record in records:
            at = f"{path} line {number}"
            if not isinstance(record, dict):
                raise ConfigError(f"{at}: broken run record (expected an object, got {kind(record)})")
            samples.append(_part(record, "sample", at))
            where.append(at)
            cells.append(_cells(_part(record, "cells", at), metrics, at))
            if has_target:  # the header says a target was asked, so every sample has its call
                calls.append(_target_call(_part(record, "target", at), at))
        return cls(
            EvaluationDataset.from_list(samples, notify=False, where=where),
            metrics,
            cells,
            header.get("usage", {}),
            header.get("notes", {}),
            target=header.get("target", {}).get("name", ""),
            target_calls=calls if has_target else None,
            judges=judges,
            lower_better=lower_better,
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


CELL_FIELDS = frozenset(f.name for f in fields(Cell))


def _first_record(records: Iterator[tuple[int, Any]], path: str | Path) -> tuple[int, Any]:
    """The header record. A first line that is not JSON is most often a wrong or truncated file, so the
    message says that before the JSON detail."""
    head = f"{path} line 1: "
    try:
        first = next(records, None)
    except ConfigError as exc:
        if not str(exc).startswith(head):
            raise
        raise ConfigError(f"{head}not a groundset run file ({str(exc).removeprefix(head)})") from None
    if first is None:
        raise ConfigError(f"{path} is not a groundset run file (it is empty); write one with to_jsonl")
    return first


def _check_header(header: Any, at: str) -> list[str]:
    """The metric names, once the header is known to be a version-1 run header with fields of the right
    types: a wrong one would otherwise fail later, in the report, far from its cause."""
    if not isinstance(header, dict) or HEADER_KEY not in header:
        raise ConfigError(
            f"{at}: not a groundset run file (no header line); write one with to_jsonl or --out"
        )
    if header[HEADER_KEY] != FORMAT_VERSION:
        raise ConfigError(
            f"{at}: run file format {header[HEADER_KEY]!r}, but this groundset reads format "
            f"{FORMAT_VERSION}; upgrade groundset or score the run again"
        )
    if "metrics" not in header:
        raise ConfigError(f"{at}: metrics: missing from the run header")
    metrics = header["metrics"]
    if not isinstance(metrics, list) or not all(isinstance(name, str) and name for name in metrics):
        raise ConfigError(f"{at}: metrics: must be a list of metric names, got {kind(metrics)}")
    twice = [name for name in metrics if metrics.count(name) > 1]
    if twice:
        raise ConfigError(f"{at}: metrics: {twice[0]!r} is listed twice")
    for stage, counts in _object(header.get("usage", {}), f"{at}: usage").items():
        for name, value in _object(counts, f"{at}: usage.{_key(stage)}").items():
            _number(value, f"{at}: usage.{_key(stage)}.{_key(name)}")
    for name, text in _object(header.get("notes", {}), f"{at}: notes").items():
        if not isinstance(text, str):
            raise ConfigError(f"{at}: notes.{_key(name)}: must be a string, got {kind(text)}")
    if not isinstance(_object(header.get("target", {}), f"{at}: target").get("name", ""), str):
        raise ConfigError(f"{at}: target.name: must be a string, got {kind(header['target']['name'])}")
    return list(metrics)


def _names(data: Any, at: str) -> tuple[str, ...] | None:
    """A header's list of metric names (None when absent: an older run file)."""
    if data is None:
        return None
    if not isinstance(data, list):
        raise ConfigError(f"{at}: must be a list of metric names, got {kind(data)}")
    for name in data:
        if not isinstance(name, str):
            raise ConfigError(f"{at}: must be a list of metric names, got {kind(name)} in it")
    return tuple(data)


def _judges(data: Any, at: str) -> dict[str, dict[str, Judge]]:
    """The header's judges, per metric and role, each with a name, an identity and whether offline."""
    judges: dict[str, dict[str, Judge]] = {}
    for metric, roles in _object(data, f"{at}: judges").items():
        judges[metric] = {}
        for role, judge in _object(roles, f"{at}: judges.{_key(metric)}").items():
            where = f"{at}: judges.{_key(metric)}.{_key(role)}"
            record = _object(judge, where)
            for name, expected in (("name", str), ("identity", str), ("offline", bool)):
                if not isinstance(record.get(name), expected):
                    wanted = "a string" if expected is str else "true or false"
                    raise ConfigError(f"{where}.{name}: must be {wanted}, got {kind(record.get(name))}")
            judges[metric][role] = Judge(record["name"], record["identity"], record["offline"])
    return judges


def _key(name: str) -> str:
    """A key of the file in a message: as it is when plain, quoted when it could break the one line."""
    return name if re.fullmatch(r"[\w.-]+", name) else repr(name)


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: must be an object, got {kind(value)}")
    return value


def _part(record: dict[str, Any], name: str, at: str) -> dict[str, Any]:
    if name not in record:
        raise ConfigError(f"{at}: broken run record ({name!r} is missing)")
    return _object(record[name], f"{at}: {name}")


def _cells(cells: dict[str, Any], metrics: list[str], at: str) -> dict[str, Cell]:
    """A record's cells; every metric of the header needs one, since scores() reads each row by name."""
    missing = [name for name in metrics if name not in cells]
    if missing:
        raise ConfigError(f"{at}: cells: no cell for {missing[0]!r}, a metric the header lists")
    return {
        name: _cell(_object(cell, f"{at}: cells.{_key(name)}"), f"{at}: cells.{_key(name)}")
        for name, cell in cells.items()
    }


def _cell(data: dict[str, Any], where: str) -> Cell:
    unknown = sorted(data.keys() - CELL_FIELDS)
    if unknown:
        raise ConfigError(f"{where}: unknown field {unknown[0]!r}")
    if "value" not in data:
        raise ConfigError(f"{where}: value: missing (null for a score that could not be computed)")
    for name, expected in (("reason", str), ("error", str), ("trace", dict)):
        if name in data and not isinstance(data[name], expected):
            wanted = "a string" if expected is str else "an object"
            raise ConfigError(f"{where}.{name}: must be {wanted}, got {kind(data[name])}")
    value = _number(data["value"], f"{where}.value")
    return Cell(value, data.get("reason", ""), data.get("trace", {}), data.get("error", ""))


def _target_call(data: dict[str, Any], at: str) -> TargetCall:
    if not isinstance(data.get("error", ""), str):
        raise ConfigError(f"{at}: target.error: must be a string, got {kind(data['error'])}")
    return TargetCall(_number(data.get("latency_s"), f"{at}: target.latency_s"), data.get("error", ""))


def _number(value: Any, where: str) -> float:
    """A number as read back: null (and a legacy bare NaN) is NaN; infinities and other types are refused,
    since one of them would turn every mean, interval and total into nonsense."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise ConfigError(f"{where}: must be a number or null, got {kind(value)}")
    try:
        number = none_as_nan(value)
    except OverflowError:
        number = math.inf
    if math.isinf(number):
        raise ConfigError(f"{where}: must be a finite number or null, got an infinite or too large one")
    return number
