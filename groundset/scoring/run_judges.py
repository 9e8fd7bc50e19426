"""Who judged a run: the models behind each metric's scores, recorded in the run file and compared.

A change of judge (another LLM, other embeddings, other settings of the same model) moves scores as
much as a change of system, so a comparison must not report it as the system's regression. Each run
records, per metric, the models that judged it; ``compare`` finds the metrics two runs had judged
differently, and the runs that do not say (run files written before groundset recorded this).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError
from ..core.models import describe_model, is_offline, model_identity

if TYPE_CHECKING:
    from .metric import Metric, ScoringContext
    from .result import EvaluationResult

JUDGE_ROLES = ("llm", "embeddings")


@dataclass(frozen=True)
class Judge:
    """A model that judged a metric: its name, its identity (what the call cache keys on: the model and
    the settings that shape its output) and whether it is offline. Two runs compare only when equal."""

    name: str
    identity: str
    offline: bool

    @classmethod
    def of(cls, model: Any) -> Judge:
        return cls(
            describe_model(model),
            model_identity(model) if model is not None else "offline",
            is_offline(model),
        )


class JudgesDifferWarning(UserWarning):
    """Two compared runs had a metric judged by different models: its change is not the system's alone."""


class JudgesDiffer(ConfigError):
    """``strict``: the runs were judged differently, or a run does not say who judged it."""


def judges_of(metrics: Sequence[Metric], ctx: ScoringContext) -> dict[str, dict[str, Judge]]:
    """Per metric, the models that judge it (its own where it has them, else the run's), recorded in the
    run so that a comparison can tell a change of system from a change of judge."""
    judges: dict[str, dict[str, Judge]] = {}
    for metric in metrics:
        used = metric.context(ctx)
        roles = {
            "llm": (metric.needs_llm, used.llm),
            "embeddings": (metric.needs_embeddings, used.embeddings),
        }
        judges[metric.name] = {role: Judge.of(model) for role, (needed, model) in roles.items() if needed}
    return judges


def judge_differences(
    a: EvaluationResult, b: EvaluationResult, names: Sequence[str]
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Per metric of ``names`` judged by different models in A and B, how they differ; and per run
    ("A", "B") that does not record who judged them, the metrics some model may have judged."""
    differ: dict[str, str] = {}
    unknown: dict[str, list[str]] = {}
    for name in names:
        judges_a, judges_b = a.judges.get(name), b.judges.get(name)
        if judges_a is None or judges_b is None:
            if _may_be_judged(name, judges_a if judges_a is not None else judges_b):
                for label, judges in (("A", judges_a), ("B", judges_b)):
                    if judges is None:
                        unknown.setdefault(label, []).append(name)
            continue
        roles = [role for role in JUDGE_ROLES if judges_a.get(role) != judges_b.get(role)]
        if roles:
            differ[name] = "; ".join(_judge_change(r, judges_a.get(r), judges_b.get(r)) for r in roles)
    return differ, dict(sorted(unknown.items()))


def _may_be_judged(name: str, known: Mapping[str, Judge] | None) -> bool:
    """Whether a model may judge ``name``: as the run that records it says, else as the metric's class
    says; a metric groundset does not know (a custom one) may be."""
    if known is not None:
        return bool(known)
    from .metrics import METRICS

    found = METRICS.get(name)
    return found is None or found.needs_llm or found.needs_embeddings


def _judge_change(role: str, a: Judge | None, b: Judge | None) -> str:
    """``llm: A offline, B ChatOpenAI gpt-4o``; with the identities when the names alone look alike."""
    same_name = a is not None and b is not None and a.name == b.name
    shown = ["none" if j is None else f"{j.name} ({j.identity})" if same_name else j.name for j in (a, b)]
    return f"{role}: A {shown[0]}, B {shown[1]}"


def judges_problem(differ: Mapping[str, str], unknown: Mapping[str, list[str]]) -> str:
    """Why a strict comparison cannot go on (and what the warning of a lax one says)."""
    if differ:
        metrics = "; ".join(f"{name} ({how})" for name, how in differ.items())
        return (
            f"run A and run B were judged differently: {metrics}. A change in these scores may be the "
            "judge's, not the system's: score both runs with the same --llm and --embeddings; without "
            "--strict (strict=True) compare shows them, with no verdict and no regression gate"
        )
    return "; ".join(_unknown_note(label, metrics) for label, metrics in unknown.items()) + (
        ": score the run again with this groundset to record them, or compare without --strict (strict=True)"
    )


def _unknown_note(label: str, metrics: Sequence[str]) -> str:
    return (
        f"run {label} does not record its judges (a run file from before groundset recorded them): "
        f"whether both runs were judged alike is unknown for {', '.join(metrics)}"
    )


def judge_notes(differ: Mapping[str, str], unknown: Mapping[str, list[str]]) -> list[str]:
    notes = [
        f"judged differently: {name} ({how}); no verdict and no regression gate for it"
        for name, how in differ.items()
    ]
    return notes + [_unknown_note(label, metrics) for label, metrics in unknown.items()]
