"""Usage accounting: calls, cache hits, tokens and cost, grouped by a stage label.

A stage is what the call was for ("kg.summary", "metric.faithfulness"). The engine records
into its own running total and into every ``track()`` scope that is active in the calling
context, so one run can report exactly what it used even when runs share an engine.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields

# USD per one million tokens (input, output). Published list prices; override with
# ``CallEngine(prices=...)`` or ``Usage.prices`` when yours differ.
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "text-embedding-3-small": (0.02, 0.0),
    "text-embedding-3-large": (0.13, 0.0),
}


@dataclass
class StageUsage:
    """Counters for one stage. ``calls`` are requests that reached a model endpoint."""

    calls: int = 0
    cache_hits: int = 0
    shared: int = 0
    offline: int = 0
    retries: int = 0
    repairs: int = 0
    # Answers a model could not give in a usable form, taken another way: a structured-output format
    # the server refused (the next one is used), an empty list where a text has statements (its sentences).
    fallbacks: int = 0
    errors: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    unpriced_calls: int = 0

    def add(self, other: StageUsage) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @property
    def saved(self) -> int:
        """Requests avoided by the persistent cache and by single-flight sharing."""
        return self.cache_hits + self.shared


class Usage:
    """Per-stage usage, safe to update from several threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.stages: dict[str, StageUsage] = {}

    def record(self, stage: str, **counts: float) -> None:
        with self._lock:
            target = self.stages.setdefault(stage, StageUsage())
            for name, value in counts.items():
                setattr(target, name, getattr(target, name) + value)

    def total(self) -> StageUsage:
        out = StageUsage()
        with self._lock:
            for stage in self.stages.values():
                out.add(stage)
        return out

    def __getitem__(self, stage: str) -> StageUsage:
        with self._lock:
            return self.stages.get(stage, StageUsage())

    def to_dict(self) -> dict[str, dict[str, float]]:
        with self._lock:
            return {name: asdict(stage) for name, stage in sorted(self.stages.items())}

    def __repr__(self) -> str:
        t = self.total()
        return (
            f"Usage(calls={t.calls}, cache_hits={t.cache_hits}, shared={t.shared}, "
            f"tokens={t.input_tokens}+{t.output_tokens}, cost=${t.cost:.4f})"
        )


def price_of(
    model_name: str, input_tokens: int, output_tokens: int, prices: Mapping[str, tuple[float, float]]
) -> float | None:
    """Cost in USD, or None when the model has no price (exact name first, then longest prefix)."""
    entry = prices.get(model_name)
    if entry is None:
        matches = [name for name in prices if model_name.startswith(name)]
        if not matches:
            return None
        entry = prices[max(matches, key=len)]
    return (input_tokens * entry[0] + output_tokens * entry[1]) / 1_000_000


_scopes: contextvars.ContextVar[tuple[Usage, ...]] = contextvars.ContextVar(
    "groundset_usage_scopes", default=()
)
_stage: contextvars.ContextVar[str] = contextvars.ContextVar("groundset_stage", default="default")


@contextmanager
def track() -> Iterator[Usage]:
    """Collect the usage of every call made in this context (and tasks started from it)."""
    usage = Usage()
    token = _scopes.set((*_scopes.get(), usage))
    try:
        yield usage
    finally:
        _scopes.reset(token)


@contextmanager
def stage(label: str) -> Iterator[None]:
    """Label the calls made in this context (used when a call names no stage itself)."""
    token = _stage.set(label)
    try:
        yield
    finally:
        _stage.reset(token)


def current_stage() -> str:
    return _stage.get()


def active_scopes() -> tuple[Usage, ...]:
    return _scopes.get()
