"""Filling the test set: scenarios are drafted, embedded, screened for duplicates and gated in waves.

Waves overlap: while one wave's drafts are at the quality gate, the next wave is drafted, sized by what
is still missing less what the wave at the gate is expected to pass. Every decision (which scenarios a
wave takes, what a draft is screened against, what is kept) follows from results in a fixed order,
never from timing, so the same inputs give the same test set and a rerun from the cache calls nothing.
A draft is screened against the samples kept and the drafts still at the gate: a duplicate of either
costs no verdict call.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.engine import CallEngine, being_cancelled
from ..core.errors import ConfigError, OfflineUnsupported
from ..core.progress import Progress
from ..core.secrets import redact
from ..samples.testset import TestsetSample
from .base import Synthesizer
from .quality import Deduper, QualityGate
from .scenarios import Scenario
from .spread import ContextBudget, PassRates, take_waves

log = logging.getLogger("groundset.synthesizers")
# (synthesizer index, scenario, draft, reason it is out or None, question vector)
Candidate = tuple[int, Scenario, TestsetSample | None, str | None, Any]


@dataclass
class Filler:
    """One fill of a test set: ``run()`` returns the kept samples, rejections by reason, the failures and
    how many contexts back more samples than the spread allows."""

    synthesizers: list[Synthesizer]
    queues: list[list[Scenario]]
    counts: list[int]
    size: int
    llm: Any
    embeddings: Any
    engine: CallEngine
    duplicate_threshold: float
    fingerprint: str
    existing: Sequence[TestsetSample] = ()
    rejections: Counter[str] = field(default_factory=Counter)
    failures: list[BaseException] = field(default_factory=list)
    spares: list[Candidate] = field(default_factory=list)  # passed once their share was full

    async def run(
        self, show_progress: bool
    ) -> tuple[list[TestsetSample], Counter[str], list[BaseException], int]:
        self.gate = QualityGate(self.llm, self.engine)
        self.deduper = Deduper(self.duplicate_threshold)
        self.budget = ContextBudget(self.size + len(self.existing))
        questions = [s.asked() for s in self.existing]
        seeds = await self.engine.embed(self.embeddings, questions, stage="synth.embed") if questions else []
        for sample, vector in zip(self.existing, seeds, strict=True):
            self.deduper.keep(vector, sample.reference)
            self.budget.reserve(sample.reference_contexts)
        self.kept: list[list[TestsetSample]] = [[] for _ in self.synthesizers]
        self.rates = PassRates(len(self.synthesizers))
        with Progress(show_progress) as progress, progress.stage("samples", self.size) as advance:
            for phase in ("quota", "fill", "reuse"):
                self.budget.relaxed = phase == "reuse"  # a small corpus: contexts may back more samples
                if phase != "quota":
                    self._use_spares(advance)
                at_gate: list[Candidate] = []
                verdicts: Awaitable[list[str | None]] | None = None
                while True:
                    waves = take_waves(
                        phase, self.counts, self._have(at_gate), self.queues, self.size, self.budget,
                        self.rates.expected(),
                    )  # fmt: skip
                    if not waves and verdicts is None:
                        break
                    drafting = self._drafts(waves, at_gate) if waves else _nothing()
                    gated, drafted = await asyncio.gather(verdicts or _nothing(), drafting)
                    self._accept(phase, at_gate, gated or [], advance)
                    at_gate = drafted or []
                    verdicts = self._verdicts(at_gate) if at_gate else None
        kept = [s for group in self.kept for s in group]
        return kept, self.rejections, self.failures, self.budget.overused()

    def _have(self, at_gate: list[Candidate]) -> list[int]:
        """Per synthesizer, the samples kept plus those the drafts at the gate are expected to give."""
        expected = self.rates.expected()
        waiting = Counter(i for i, _, _, reason, _ in at_gate if reason is None)
        return [len(group) + round(waiting[i] * expected[i]) for i, group in enumerate(self.kept)]

    async def _drafts(
        self, waves: list[tuple[int, list[Scenario]]], at_gate: list[Candidate]
    ) -> list[Candidate]:
        """Draft and embed a wave, then screen it (in order) against the kept samples and the drafts at
        the gate; what is left for the gate has reason None."""
        flat = [(i, scenario) for i, wave in waves for scenario in wave]
        drafts = await asyncio.gather(*(self._draft(i, scenario) for i, scenario in flat))
        texts = [d.asked() for d, reason in drafts if reason is None]
        matrix = await embed_or_none(self.engine, self.embeddings, texts, self.failures) if texts else []
        if matrix is None:  # lost: this wave's drafts (no duplicate check), not the run
            self.failures.extend(self.failures[-1:] * (len(texts) - 1))  # one failure per lost draft
            drafts = [(None, "failed: embeddings") if r is None else (d, r) for d, r in drafts]
        vectors = iter(matrix if matrix is not None else [])
        screen = Deduper(self.duplicate_threshold, within=self.deduper)
        for _, _, sample, reason, vector in at_gate:
            if reason is None and sample is not None:
                screen.keep(vector, sample.reference)
        screened: list[Candidate] = []
        for (i, scenario), (sample, reason) in zip(flat, drafts, strict=True):
            vector = next(vectors) if reason is None else None
            if sample is not None and reason is None:
                reason = screen.screen(vector, sample.reference)
            screened.append((i, scenario, sample, reason, vector))
        return screened

    async def _draft(self, i: int, scenario: Scenario) -> tuple[TestsetSample | None, str | None]:
        written = self.synthesizers[i].generate(scenario, graph_fingerprint=self.fingerprint)
        return await self._guarded(written, scenario)

    async def _verdicts(self, candidates: list[Candidate]) -> list[str | None]:
        """The gate's reason for each candidate (None: passed); a reason given before the gate stays."""
        return await asyncio.gather(*(self._check(*c[:4]) for c in candidates))

    async def _check(
        self, i: int, scenario: Scenario, sample: TestsetSample | None, reason: str | None
    ) -> str | None:
        if reason is not None or sample is None:
            return reason
        checked = self.synthesizers[i].check(self.gate, sample, scenario)
        verdict, failed = await self._guarded(checked, scenario)
        return failed or verdict

    def _accept(
        self, phase: str, candidates: list[Candidate], reasons: list[str | None], advance: Any
    ) -> None:
        """Keep the candidates that passed, in order, up to each synthesizer's share; free the others'
        contexts."""
        for (i, scenario, sample, _, vector), reason in zip(candidates, reasons, strict=True):
            if not (reason or "").startswith("failed"):  # a failed call says nothing of the gate
                self.rates.count(i, passed=reason is None)
            taken = sum(map(len, self.kept))
            cap = self.counts[i] if phase == "quota" else len(self.kept[i]) + self.size - taken
            if reason is None and sample is not None and len(self.kept[i]) < cap:
                self.deduper.keep(vector, sample.reference)
                self.kept[i].append(sample)
                advance()
                continue
            self.budget.give_back(scenario.contexts)
            if reason is None:
                self.spares.append((i, scenario, sample, reason, vector))  # good, not needed yet
            else:
                self.rejections[reason] += 1

    def _use_spares(self, advance: Any) -> None:
        """Before a phase drafts anything, the good samples passed over earlier fill what is still missing
        (no call), in the order they were drafted, if they are no duplicate and their contexts are free."""
        left: list[Candidate] = []
        for i, scenario, sample, _, vector in self.spares:
            usable = sample is not None and self.size > sum(map(len, self.kept))
            usable = usable and not self.deduper.is_duplicate(vector)
            usable = usable and not self.deduper.seen_reference(sample.reference)
            if usable and self.budget.take(scenario.contexts):
                self.deduper.keep(vector, sample.reference)
                self.kept[i].append(sample)
                advance()
            else:
                left.append((i, scenario, sample, None, vector))
        self.spares = left

    async def _guarded(self, call: Awaitable[Any], scenario: Scenario) -> tuple[Any, str | None]:
        """(result, None), or (None, "failed: <error>") for a failure that concerns this scenario only (an
        unusable answer, a shared call cancelled elsewhere); cancelling the run still stops it."""
        try:
            return await call, None
        except (ConfigError, OfflineUnsupported):
            raise  # the same for every scenario: the run cannot go on
        except (Exception, asyncio.CancelledError) as exc:
            if being_cancelled():
                raise
            self.failures.append(exc)
            log.info("%s on %s failed: %s", scenario.synthesizer, ", ".join(scenario.nodes), describe(exc))
            return None, f"failed: {type(exc).__name__}"


async def embed_or_none(
    engine: CallEngine, embeddings: Any, texts: list[str], failures: list[BaseException]
) -> np.ndarray | None:
    """The texts' vectors, or None (the error kept in ``failures``) when embedding fails for good."""
    try:
        return await engine.embed(embeddings, texts, stage="synth.embed")
    except (ConfigError, OfflineUnsupported):
        raise
    except Exception as exc:
        if being_cancelled():
            raise
        failures.append(exc)
        log.info("embedding %d text(s) failed: %s", len(texts), describe(exc))
        return None


async def _nothing() -> None:
    return None


def describe(exc: BaseException) -> str:
    if isinstance(exc, asyncio.CancelledError) and not str(exc):
        return "CancelledError: a model call it shared was cancelled elsewhere"
    return redact(f"{type(exc).__name__}: {exc}")
