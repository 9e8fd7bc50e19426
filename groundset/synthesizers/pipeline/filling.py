"""Filling the test set: scenarios are drafted, embedded, screened for duplicates and gated as a stream.

Every draft goes its own way (written, embedded, screened, judged) without waiting for any other, so the
model's slots stay full; only the decisions wait, and they follow launch order: a draft is screened once
all drafts before it are, kept or dropped once all before it are, and what to draft next is chosen after
each kept or dropped draft, from the results so far. Decisions never depend on timing, so the same inputs
give the same test set and a rerun from the cache calls nothing. A draft is screened against the samples
kept and every earlier draft of the phase that was screened in: a duplicate costs no verdict call.
Drafts embedded in the same moment (or while every slot is busy) share one embedding request.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import AsyncIterator, Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.engine import CallEngine, being_cancelled
from ...core.errors import ConfigError, OfflineUnsupported
from ...core.progress import Progress
from ...core.secrets import redact
from ...samples.testset import TestsetSample
from ..base import Synthesizer
from ..scenarios.scenario import Scenario
from ..scenarios.source import ScenarioSource
from ..scenarios.spread import ContextBudget, PassRates, drafts_for, take_waves
from .quality import Deduper, QualityGate

log = logging.getLogger("groundset.synthesizers")
# (synthesizer index, scenario, draft, reason it is out or None, question vector)
Candidate = tuple[int, Scenario, TestsetSample | None, str | None, Any]
Drafted = tuple[TestsetSample | None, str | None, Any]  # (draft, reason it is out or None, its vector)


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
    sources: Sequence[ScenarioSource] = ()  # more scenarios when a queue runs dry (one per synthesizer)
    rejections: Counter[str] = field(default_factory=Counter)
    failures: list[BaseException] = field(default_factory=list)
    spares: list[Candidate] = field(default_factory=list)  # passed once their share was full

    async def run(
        self, show_progress: bool, arriving: AsyncIterator[Any] | None = None
    ) -> tuple[list[TestsetSample], Counter[str], list[BaseException], int]:
        """``arriving``: set while the queues are still being filled; each step means another queue is, and
        its first drafts start at once. Nothing is decided (kept or dropped) before the last step."""
        self.arriving = arriving
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
                await self._fill(phase, advance)
        kept = [s for group in self.kept for s in group]
        return kept, self.rejections, self.failures, self.budget.overused()

    async def _fill(self, phase: str, advance: Any) -> None:
        """Draft, screen and gate until the phase has nothing left to try. Each step follows launch order: a
        draft is screened once every draft launched before it is, kept or dropped once every one before it
        is, and after each kept or dropped draft the scenarios to draft next are chosen from the results so
        far (with a margin for the drafts still under way). So nothing waits for a wave's slowest call,
        and the choices depend on results, never on timing."""
        screen = Deduper(self.duplicate_threshold, within=self.deduper)  # + every draft screened in
        drafting: deque[tuple[int, Scenario, asyncio.Future[Drafted]]] = deque()
        gating: deque[tuple[Candidate, asyncio.Future[str | None]]] = deque()
        pending: Counter[int] = Counter()

        def launch(fill_in: bool = True) -> bool:
            rates = self.rates.expected()
            kept = [len(group) for group in self.kept]

            def take(stage: str) -> list[tuple[int, list[Scenario]]]:
                under_way = [pending[i] for i in range(len(self.kept))]
                waves = take_waves(
                    stage, self.counts, kept, under_way, self.queues, self.size, self.budget, rates
                )
                for i, wave in waves:
                    pending[i] += len(wave)
                    drafting.extend(
                        (i, scenario, asyncio.ensure_future(self._draft(i, scenario))) for scenario in wave
                    )
                return waves

            launched = take(phase)
            while self._top_up(phase, kept, pending, rates):  # a queue ran dry with samples missing
                launched += take(phase)
            if fill_in and phase == "quota" and not launched:  # every share is covered or out of scenarios
                launched = take("fill")  # so fill in now
            return bool(launched)

        try:
            if phase == "quota" and self.arriving is not None:
                started = False
                async for _ in self.arriving:  # a queue was filled: its first drafts go out now
                    started |= launch(fill_in=False)
                launch(fill_in=not started)  # shares may have moved (a synthesizer found no scenario)
            else:
                launch()
            while drafting or gating:
                heads = [drafting[0][2]] if drafting else []
                heads += [gating[0][1]] if gating else []
                if not any(head.done() for head in heads):
                    await asyncio.wait(heads, return_when=asyncio.FIRST_COMPLETED)
                if drafting and drafting[0][2].done():  # screened in order, then straight to the gate
                    i, scenario, task = drafting.popleft()
                    sample, reason, vector = task.result()
                    if sample is not None and reason is None:
                        reason = screen.screen(vector, sample.reference)
                    check = asyncio.ensure_future(self._check(i, scenario, sample, reason))
                    gating.append(((i, scenario, sample, reason, vector), check))
                elif gating and gating[0][1].done():  # kept or dropped in order, then more drafted
                    candidate, check = gating.popleft()
                    pending[candidate[0]] -= 1
                    self._accept(phase, [candidate], [check.result()], advance)
                    launch()
        except BaseException:
            for future in (*(t for *_, t in drafting), *(c for _, c in gating)):
                future.cancel()
            raise

    def _top_up(self, phase: str, kept: list[int], pending: Counter[int], rates: list[float]) -> bool:
        """More scenarios when the test set is short and the queues cannot give the drafts wanted (they ran
        dry, or what is left waits for contexts already used up): the first synthesizer whose source has
        more gets them. Not while filling shares ("quota"): the others fill in first, which costs fewer
        calls than forcing a synthesizer the gate keeps rejecting. True when a queue got any."""
        room = self.size - sum(kept)
        if phase == "quota" or room <= 0:
            return False
        for i, source in enumerate(self.sources):
            if self.counts[i] and not source.exhausted and sum(pending.values()) < drafts_for(room, rates[i]):
                found = source.more()
                self.queues[i].extend(found)
                if found:
                    return True
        return False

    async def _draft(self, i: int, scenario: Scenario) -> Drafted:
        """The draft of ``scenario`` and its question's vector; drafts written in the same moment (or while
        a slot is busy) share one embedding request."""
        written = self.synthesizers[i].generate(scenario, graph_fingerprint=self.fingerprint)
        sample, reason = await self._guarded(written, scenario)
        if sample is None or reason is not None:
            return sample, reason, None
        matrix = await embed_or_none(self.engine, self.embeddings, [sample.asked()], self.failures)
        if matrix is None:  # lost: this draft (no duplicate check), not the run
            return None, "failed: embeddings", None
        return sample, None, matrix[0]

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


def describe(exc: BaseException) -> str:
    if isinstance(exc, asyncio.CancelledError) and not str(exc):
        return "CancelledError: a model call it shared was cancelled elsewhere"
    return redact(f"{type(exc).__name__}: {exc}")
