"""The metric interface: one small class per metric with one obvious method, ``ascore(sample)``.

A metric declares the columns it needs (``"reference:optional"`` marks an optional one), its
output type and whether it needs an LLM or embeddings. Columns are checked for the whole
dataset before any call, so a missing column fails in a second, not after an hour of calls.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar

from ..core.aio import run_sync
from ..core.engine import CallEngine, get_engine
from ..core.models import is_offline, resolve_embeddings, resolve_llm
from ..samples.dataset import EvaluationDataset
from ..samples.evaluation import MultiTurnSample, SingleTurnSample
from .demonstrations import Demonstration, guidance, nearest

Sample = SingleTurnSample | MultiTurnSample


class OutputType(StrEnum):
    BINARY = "binary"
    DISCRETE = "discrete"
    CONTINUOUS = "continuous"
    RANKING = "ranking"


OFFLINE_DISAGREES = "no offline form agrees with people well enough; pass --llm"


@dataclass(frozen=True)
class MetricResult:
    """A score (NaN when it cannot be computed), why, and the judge's intermediate outputs."""

    value: float
    reason: str = ""
    trace: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def nan(cls, reason: str, **trace: Any) -> MetricResult:
        return cls(math.nan, reason, dict(trace))


@dataclass
class ScoringContext:
    """The models and engine a metric scores with, and guidance for its judges (see ``demonstrations``)."""

    llm: Any
    embeddings: Any
    engine: CallEngine
    guidance: str = ""


class Metric(ABC):
    """Subclasses set ``name`` and ``columns`` and implement ``_ascore``."""

    name: ClassVar[str]
    columns: ClassVar[tuple[str, ...]]
    output_type: ClassVar[OutputType] = OutputType.CONTINUOUS
    needs_llm: ClassVar[bool] = False
    needs_embeddings: ClassVar[bool] = False
    # False for a metric where a lower score is better (noise sensitivity): gates and reports read it so.
    higher_is_better: ClassVar[bool] = True
    # Offline (no LLM): False means the metric gives NaN with the reason. A non-empty
    # ``offline_measures`` says what the offline form measures when it is not the LLM form's quantity.
    runs_offline: ClassVar[bool] = True
    offline_measures: ClassVar[str] = ""
    # False when the offline form did not agree with people on labelled pairs it was not tuned on
    # (benchmarks/judges.py, test half): offline it then gives NaN with OFFLINE_DISAGREES, since a score
    # that is noise is worse than none. ``offline_form=True`` scores it anyway, to measure it.
    offline_agrees: ClassVar[bool] = True

    def __init__(
        self,
        *,
        llm: Any = None,
        embeddings: Any = None,
        strictness: int = 1,
        demonstrations: Sequence[Demonstration] = (),
        demonstrations_k: int = 3,
        offline_form: bool = False,
    ) -> None:
        # Resolved once here, not per sample: a spec string would otherwise build a client per call.
        self.llm = resolve_llm(llm).model if llm is not None else None
        self.embeddings = resolve_embeddings(embeddings).model if embeddings is not None else None
        # Self-consistency of the verdict judges: k votes per item in one request (n=k), majority wins.
        if not isinstance(strictness, int) or strictness < 1 or strictness % 2 == 0:
            raise ValueError(f"metric {self.name}: strictness must be an odd number >= 1, got {strictness!r}")
        self.strictness = strictness
        # The user's labelled samples: the k nearest go into the LLM judges' instruction per sample.
        self.demonstrations = list(demonstrations)
        self.demonstrations_k = demonstrations_k
        self.offline_form = offline_form

    @property
    def offline_silenced(self) -> bool:
        """The offline form exists but is switched off for disagreeing with people (see offline_agrees)."""
        return self.needs_llm and self.runs_offline and not self.offline_agrees and not self.offline_form

    @property
    def stage(self) -> str:
        return f"metric.{self.name}"

    @classmethod
    def required(cls) -> list[str]:
        return [c for c in cls.columns if not c.endswith(":optional")]

    @classmethod
    def optional(cls) -> list[str]:
        return [c.removesuffix(":optional") for c in cls.columns if c.endswith(":optional")]

    def check(self, dataset: EvaluationDataset) -> list[str]:
        """One line per required column that some samples lack, naming the metric, the column and where
        the samples are (file lines from 1, as in the loader's parse errors)."""
        problems = []
        for column in self.required():
            rows = dataset.missing(column)
            if rows:
                problems.append(
                    f"metric {self.name} needs column {column!r}, missing in {dataset.describe(rows)}"
                )
        return problems

    @classmethod
    def offline_summary(cls) -> str:
        """How the metric behaves with no LLM, for ``groundset metrics``."""
        if not cls.needs_llm:
            return "same measure (no LLM needed)"
        if not cls.runs_offline:
            return "NaN (needs an LLM)"
        if not cls.offline_agrees:
            return f"NaN: {OFFLINE_DISAGREES}"
        if cls.offline_measures:
            return f"DIFFERENT measure: {cls.offline_measures}"
        return "same measure, judged lexically (an approximation of the LLM judge)"

    def run_note(self, ctx: ScoringContext) -> str:
        """What this run's scores measure, when that is not what the metric's name promises ('' if it is)."""
        if not self.needs_llm or not is_offline(self.context(ctx).llm):
            return ""
        if not self.runs_offline:
            return "offline: no score, this metric needs an LLM"
        if self.offline_silenced:
            return f"offline: no score, {OFFLINE_DISAGREES}"
        if self.offline_measures:
            return f"offline form, a different measure: {self.offline_measures}"
        return ""

    def context(self, ctx: ScoringContext | None) -> ScoringContext:
        """The metric's own models where it has them, else the run's, else the defaults."""
        base = ctx or ScoringContext(resolve_llm(None).model, resolve_embeddings(None).model, get_engine())
        return ScoringContext(
            self.llm if self.llm is not None else base.llm,
            self.embeddings if self.embeddings is not None else base.embeddings,
            base.engine,
        )

    async def ascore(self, sample: Sample, ctx: ScoringContext | None = None) -> MetricResult:
        missing = [c for c in self.required() if getattr(sample, c, None) is None]
        if missing:
            raise ValueError(f"metric {self.name} needs {', '.join(missing)} in the sample")
        ctx = self.context(ctx)
        if self.offline_silenced and is_offline(ctx.llm):
            return MetricResult.nan(OFFLINE_DISAGREES)
        if self.demonstrations and isinstance(sample, SingleTurnSample) and not is_offline(ctx.llm):
            shown = await nearest(
                sample,
                self.demonstrations,
                self.demonstrations_k,
                embeddings=ctx.embeddings,
                engine=ctx.engine,
                stage=f"{self.stage}.embed",
            )
            ctx = replace(ctx, guidance=guidance(shown))
        return await self._ascore(sample, ctx)

    def score(self, sample: Sample, ctx: ScoringContext | None = None) -> MetricResult:
        """The sync twin of ``ascore`` (works inside a running event loop too)."""
        return run_sync(self.ascore(sample, ctx))

    @abstractmethod
    async def _ascore(self, sample: Any, ctx: ScoringContext) -> MetricResult:
        """Score one sample whose required columns are present."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
