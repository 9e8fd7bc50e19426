"""Situational questions: one chunk's question asked the way users ask, after saying what they are doing.

A user writes "I run Node Exporter on Kubernetes, and right now I'm working on retention. What is the
default retention period in Prometheus?"; the situation is about the asker and must not throw the
retriever off the answer. The groundings are the single-hop ones (a fact of a chunk, or a term with a
model or outside English); the situation comes from the scenario's persona and the chunk's section
(``situational_prompts``) and adds no fact the reference rests on, so the default quality gate applies:
the reference is the fact (offline) and must answer the question.
"""

from __future__ import annotations

from typing import Any

from ..core.engine import CallEngine, get_engine
from ..core.models import describe_model
from ..personas.language import language_label
from ..samples.testset import TestsetSample
from .scenarios import QueryMix, Scenario
from .single_hop import SingleHopSpecificQuerySynthesizer
from .situational_prompts import SituationalInput, SituationalPrompt, joined, task_text

__all__ = ["SituationalQuerySynthesizer"]


class SituationalQuerySynthesizer(SingleHopSpecificQuerySynthesizer):
    """Single-hop questions that carry the persona's situation (see the module docstring)."""

    name = "situational"

    def __init__(
        self,
        llm: Any = None,
        *,
        engine: CallEngine | None = None,
        mix: QueryMix | None = None,
        language: str | None = None,
    ) -> None:
        super().__init__(llm, engine=engine, mix=mix, language=language)
        self.prompt = SituationalPrompt()  # type: ignore[assignment]

    async def generate(self, scenario: Scenario, *, graph_fingerprint: str = "") -> TestsetSample:
        """The situation and question for ``scenario`` in one call (or the offline templates)."""
        data = SituationalInput(
            task=task_text(scenario.style, scenario.length),
            persona=f"{scenario.persona.name}: {scenario.persona.role_description}",
            terms=scenario.terms,
            contexts=scenario.contexts,
            labels=scenario.labels,
            style=scenario.style,
            length=scenario.length,
            seed=scenario.seed,
            facts=scenario.facts,
            scope=scenario.scope,
            language=language_label(scenario.language),
        )
        answer = await self.prompt.run(
            self.llm, data, engine=self.engine or get_engine(), stage=f"synth.{self.name}"
        )
        return TestsetSample.create(
            user_input=joined(answer.situation, answer.question),
            reference=answer.reference.strip(),
            reference_contexts=scenario.contexts,
            reference_context_ids=scenario.nodes,
            source_documents=scenario.source_documents,
            synthesizer=self.name,
            persona=scenario.persona.name,
            style=scenario.style,
            length=scenario.length,
            terms=scenario.terms,
            graph_fingerprint=graph_fingerprint,
            generator_model=describe_model(self.llm),
        )
