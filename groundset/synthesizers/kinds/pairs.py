"""What the double and comparative kinds share: one prompt writes a question over two contexts, and the
reference has one line per context, so a reference missing a line leaves a part unanswered."""

from __future__ import annotations

from typing import ClassVar

from ...core.engine import get_engine
from ...samples.testset import TestsetSample
from ..base import Synthesizer
from ..pipeline.quality import QualityGate
from ..scenarios.scenario import Scenario
from .pair_prompts import PairInput, kind_fields


class TwoPartSynthesizer(Synthesizer):
    """Subclasses set ``prompt`` (a ``PairInput`` prompt) and ``missing_part`` (the rejection reason)."""

    missing_part: ClassVar[str]

    async def generate(self, scenario: Scenario, *, graph_fingerprint: str = "") -> TestsetSample:
        data = PairInput(**kind_fields(scenario), contexts=scenario.contexts, labels=scenario.labels)
        answer = await self.prompt.run(  # type: ignore[call-overload]
            self.llm, data, engine=self.engine or get_engine(), stage=f"synth.{self.name}"
        )
        return self.sample(scenario, answer.question, answer.reference, graph_fingerprint)

    async def check(self, gate: QualityGate, sample: TestsetSample, scenario: Scenario) -> str | None:
        """Every part answered (one reference line per context), then the gate with every fact's slots."""
        if sum(1 for line in sample.reference.split("\n") if line.strip()) < len(sample.reference_contexts):
            return self.missing_part
        return await super().check(gate, sample, scenario)
