"""Plain functions as metrics: ``@discrete_metric`` and ``@numeric_metric``.

    @numeric_metric(range=(0, 1))
    def length_ratio(response: str, reference: str) -> float:
        return min(len(response), len(reference)) / max(len(response), len(reference), 1)

The function's parameters are sample fields, by name: they become the metric's columns (a parameter
with a default is an optional column, left out of the call when the sample lacks it), so a missing
field fails before the run like any metric's. A function returns its value, or ``(value, reason)``;
a value outside the allowed values or the range is NaN with the reason, not a crash. No model is
involved, so these score the same offline. Sync functions run inline (keep them quick); put slow
I/O in an ``async def``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.errors import ConfigError
from .custom import check_allowed, check_range, value_scores
from .custom_prompts import SAMPLE_FIELDS, match_choice, unknown_field
from .metric import MetricResult, OutputType, ScoringContext
from .metrics.critics import NAME, InstanceMetric, checked_name

_UNNAMED = inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD, inspect.Parameter.POSITIONAL_ONLY


def signature_columns(function: Callable[..., Any], owner: str) -> tuple[str, ...]:
    """The function's parameters as metric columns; every one must be a sample field passed by name."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{owner}: cannot read the function's parameters ({exc})") from exc
    columns = []
    for parameter in parameters:
        if parameter.kind in _UNNAMED:
            raise ConfigError(
                f"{owner}: parameter {parameter.name!r} must be a plain named parameter (no *args, **kwargs "
                f"or positional-only); name each sample field you need: {', '.join(SAMPLE_FIELDS)}"
            )
        if parameter.name not in SAMPLE_FIELDS:
            raise unknown_field(parameter.name, owner, "parameter")
        optional = parameter.default is not inspect.Parameter.empty
        columns.append(f"{parameter.name}:optional" if optional else parameter.name)
    if not columns:
        raise ConfigError(f"{owner}: the function takes no sample field; add parameters such as response")
    return tuple(columns)


class FunctionMetric(InstanceMetric):
    """A metric computed by a user's function of sample fields (no model)."""

    needs_llm = False
    runs_offline = True

    def __init__(self, function: Callable[..., Any], name: str | None = None) -> None:
        if not callable(function):
            raise ConfigError(f"{type(self).__name__}: expected a function, got {type(function).__name__}")
        owner = f"{type(self).__name__} for {getattr(function, '__name__', repr(function))}"
        default = getattr(function, "__name__", "")
        if name is None and not NAME.fullmatch(default):
            raise ConfigError(f"{owner}: the function's name {default!r} cannot name a metric; pass name=")
        self.name = checked_name(name if name is not None else default, owner)
        self.function = function
        self.columns = signature_columns(function, f"metric {self.name}")
        super().__init__()

    async def _ascore(self, sample: Any, ctx: ScoringContext) -> MetricResult:
        fields = [c.removesuffix(":optional") for c in self.columns]
        arguments = {f: getattr(sample, f) for f in fields if getattr(sample, f, None) is not None}
        returned = self.function(**arguments)
        if inspect.isawaitable(returned):
            returned = await returned
        value, reason = returned if isinstance(returned, tuple) and len(returned) == 2 else (returned, "")
        if not isinstance(reason, str):
            reason = str(reason)
        return self.checked(value, reason)

    def checked(self, value: Any, reason: str) -> MetricResult:
        raise NotImplementedError


class DiscreteFunctionMetric(FunctionMetric):
    """A function returning one of ``allowed_values``; scored like ``DiscreteMetric``'s values."""

    def __init__(
        self,
        function: Callable[..., Any],
        name: str | None = None,
        allowed_values: Sequence[str] = ("pass", "fail"),
        scores: Mapping[str, float] | None = None,
    ) -> None:
        owner = f"discrete_metric {name or getattr(function, '__name__', '')!r}"
        self.allowed_values = check_allowed(allowed_values, owner)
        self.scores = value_scores(self.allowed_values, scores, owner)
        self.output_type = OutputType.BINARY if len(self.allowed_values) == 2 else OutputType.DISCRETE
        super().__init__(function, name)

    def checked(self, value: Any, reason: str) -> MetricResult:
        found = match_choice(value, self.allowed_values) if isinstance(value, str) else None
        if found is None:
            return MetricResult.nan(
                f"the function returned {value!r}, not one of {self.allowed_values}", returned=repr(value)
            )
        return MetricResult(self.scores[found], reason or found, {"value": found})


class NumericFunctionMetric(FunctionMetric):
    """A function returning a number in ``range``, kept as it is."""

    output_type = OutputType.CONTINUOUS

    def __init__(
        self, function: Callable[..., Any], name: str | None = None, range: tuple[float, float] = (0, 1)
    ) -> None:
        self.range = check_range(range, f"numeric_metric {name or getattr(function, '__name__', '')!r}")
        super().__init__(function, name)

    def checked(self, value: Any, reason: str) -> MetricResult:
        lowest, highest = self.range
        if isinstance(value, bool) or not isinstance(value, int | float):
            return MetricResult.nan(f"the function returned {value!r}, not a number", returned=repr(value))
        if math.isnan(value):
            return MetricResult.nan(reason or "the function returned NaN")
        if not lowest <= value <= highest:
            return MetricResult.nan(
                f"the function returned {value:g}, outside the range {lowest:g}-{highest:g}", returned=value
            )
        return MetricResult(float(value), reason or f"the function returned {value:g}")


def discrete_metric(
    function: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    allowed_values: Sequence[str] = ("pass", "fail"),
    scores: Mapping[str, float] | None = None,
) -> Any:
    """Turn a function of sample fields returning one of ``allowed_values`` into a metric."""

    def wrap(f: Callable[..., Any]) -> DiscreteFunctionMetric:
        return DiscreteFunctionMetric(f, name, allowed_values, scores)

    return wrap(function) if function is not None else wrap


def numeric_metric(
    function: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    range: tuple[float, float] = (0, 1),
) -> Any:
    """Turn a function of sample fields returning a number in ``range`` into a metric."""

    def wrap(f: Callable[..., Any]) -> NumericFunctionMetric:
        return NumericFunctionMetric(f, name, range)

    return wrap(function) if function is not None else wrap
