"""Situational questions: one chunk's question asked the way users ask, after saying what they are doing.

A user writes "I run Node Exporter on Kubernetes, and right now I'm working on retention. What is the
default retention period in Prometheus?"; the situation is about the asker and must not throw the
retriever off the answer. The groundings are the single-hop ones (a fact of a chunk, or a term with a
model or outside English); the situation comes from the scenario's persona and the chunk's section
(``situational_prompts``) and adds no fact the reference rests on, so the default quality gate applies:
the reference is the fact (offline) and must answer the question.
"""

from __future__ import annotations

from ..core.engine import get_engine
from ..samples.testset import TestsetSample
from .scenarios import Scenario, prompt_fields
from .single_hop import SingleHopSpecificQuerySynthesizer
from .situational_prompts import SituationalInput, SituationalPrompt, joined, task_text

__all__ = ["SituationalQuerySynthesizer"]


class SituationalQuerySynthesizer(SingleHopSpecificQuerySynthesizer):
    """Single-hop questions that carry the persona's situation (see the module docstring)."""

    name = "situational"
    prompt_class = SituationalPrompt

    async def generate(self, scenario: Scenario, *, graph_fingerprint: str = "") -> TestsetSample:
        """The situation and question for ``scenario`` in one call (or the offline templates)."""
        data = SituationalInput(task=task_text(scenario.style, scenario.length), **prompt_fields(scenario))
        answer = await self.prompt.run(
            self.llm, data, engine=self.engine or get_engine(), stage=f"synth.{self.name}"
        )
        return self.sample(
            scenario, joined(answer.situation, answer.question), answer.reference, graph_fingerprint
        )
