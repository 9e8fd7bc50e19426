"""What every synthesizer does: find grounded scenarios in the graph, then write one sample per scenario."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from ..core.engine import CallEngine, get_engine
from ..core.models import describe_model, is_offline, resolve_llm
from ..core.prompts import Prompt
from ..kg.graph import KnowledgeGraph
from ..personas.language import check_language, nodes_language
from ..samples.testset import TestsetSample
from .pipeline.quality import QualityGate, Written
from .questions.answer_first import answer_slots
from .questions.prompts import QueryInput, QueryPrompt, evidence_groups, task_text
from .scenarios.fact_index import FactIndex
from .scenarios.facts import Fact, names_its_call
from .scenarios.page_name import (
    document_name,
    names_itself,
    page_name,
    page_topic,
    points_elsewhere,
    section_name,
)
from .scenarios.scenario import PersonaPool, QueryMix, Scenario, prompt_fields

# (chunk ids, terms, facts): the first term is what the question is about; the facts (answer-first
# scenarios) are what the question asks, one per chunk; without facts the term's sentences ground it.
Grounding = tuple[list[str], list[str], list[Fact]]


class Synthesizer(ABC):
    """Subclasses say which chunk groups and terms make a question (``groundings``); the rest is shared."""

    name: ClassVar[str]
    prompt_class: ClassVar[type[Prompt[Any, Any]]] = QueryPrompt  # the prompt that writes its samples
    # The languages of the facts its questions are written from: its templates' (German facts make single-
    # and multi-hop, distracting, situational and double questions; comparative and conversational wording
    # is English, so those take terms in German).
    fact_languages: ClassVar[frozenset[str]] = frozenset({"en"})

    def __init__(
        self,
        llm: Any = None,
        *,
        engine: CallEngine | None = None,
        mix: QueryMix | None = None,
        language: str | None = None,
    ) -> None:
        self.llm = resolve_llm(llm).model
        self.engine = engine
        self.mix = mix or QueryMix()
        self.language = check_language(language)  # None: each scenario's chunks decide
        self.prompt = self.prompt_class()

    @property
    def writes_with_model(self) -> bool:
        """True when an LLM writes the questions (it needs no fact to start from), False offline."""
        return not is_offline(self.llm)

    def fact_index(self, kg: KnowledgeGraph) -> FactIndex:
        """The facts of ``kg`` this kind writes questions from (``fact_languages``)."""
        return FactIndex.of(kg).only(self.fact_languages)

    @abstractmethod
    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        """Candidate (chunks, terms) in a random but seed-determined order."""

    def shortage(self, kg: KnowledgeGraph) -> str:
        """Why ``kg`` gives this synthesizer few scenarios, in words a user can act on ("" when nothing
        more specific than the count can be said). Said when a test set runs short of its share."""
        return ""

    def scenarios(
        self, kg: KnowledgeGraph, n: int, personas: PersonaPool, rng: random.Random
    ) -> list[Scenario]:
        """Up to ``n`` scenarios whose term is found in every one of their chunks."""
        found: list[Scenario] = []
        names: dict[str, tuple[str, bool]] = {}  # page names by document, each read once (name, a topic)
        index = FactIndex.of(kg)
        scope = index.scope if self.writes_with_model else index.question_scope  # a model sees what it is
        for nodes, terms, facts in self.groundings(kg, rng):
            if len(found) >= n:
                break
            contexts = [kg.get(node)["text"] for node in nodes]
            written = nodes_language(kg, nodes)
            language = self.language or written
            if not self.grounded(terms, facts, contexts, written, language):
                continue
            scenario = self.scenario(kg, nodes, terms, facts, scope, written, personas, rng)
            one_page = len({kg.get(node).get("document") for node in nodes}) == 1
            by_code_name = False  # the anchor names an API or a command, not the page's topic
            if not self.writes_with_model and one_page and facts:
                document = kg.get(nodes[0]).get("document") or ""
                if document not in names:
                    named = page_name(kg, nodes[0]) or document_name(kg, nodes[0], index.scope)
                    topic = "" if named else page_topic(kg, nodes[0], index.scope, index.lowercase)
                    names[document] = (named or topic, bool(topic))
                # the API of its section (of every context's: two sections' facts are not one API's), else
                # its page's
                sections = {section_name(kg, node) for node in nodes}
                one_section = len(sections) == 1 and "" not in sections
                name, topical = (sections.pop(), False) if one_section else names[document]
                # a page's topic says what a generic subject is about ("hardware support for VMM", of CANN),
                # but a name is its own: "What exactly is request.state in SQL?", "What is the LinkCollector
                # class in PackageFinder?" (FastAPI, pip; readers failed both as a section title's leak)
                if topical and any(names_itself(f.focus) for f in facts):
                    name = ""
                if name and not any(
                    f.pattern == "procedure" and points_elsewhere(f.answer, name) for f in facts
                ):
                    scenario.anchor = name  # used where the question does not name it
                    by_code_name = not topical
            if not self.writes_with_model and not by_code_name and not all(names_its_call(f) for f in facts):
                continue  # "What happens if address is not provided?" asks nothing without "in socket.send()"
            found.append(scenario)
        return found

    def grounded(
        self, terms: list[str], facts: list[Fact], contexts: list[str], written: str, language: str
    ) -> bool:
        """Whether a grounding can make a question: it has facts, or every context says something about
        its term (``written``: the contexts' language; ``language``: the one to write in)."""
        return bool(facts) or all(evidence_groups(self.name, terms[0], contexts, written, written))

    def scenario(
        self,
        kg: KnowledgeGraph,
        nodes: list[str],
        terms: list[str],
        facts: list[Fact],
        scope: str,
        written: str,
        personas: PersonaPool,
        rng: random.Random,
    ) -> Scenario:
        """The scenario of one grounding (``written``: its chunks' language): their texts and labels, the
        language to write in, a persona by content, a style, a length and a seed drawn from ``rng``."""
        style, length = self.mix.sample(rng)
        return Scenario(
            synthesizer=self.name,
            nodes=nodes,
            contexts=[kg.get(node)["text"] for node in nodes],
            labels=[label(kg, node) for node in nodes],
            source_documents=list(dict.fromkeys(kg.get(node)["source"] for node in nodes)),
            terms=terms,
            facts=facts,
            scope=scope,
            language=self.language or written,
            written=written,
            persona=personas.match(mean_vector(kg, nodes), rng),
            style=style,
            length=length,
            seed=rng.randrange(2**31),
        )

    def sample(
        self, scenario: Scenario, question: str, reference: str, graph_fingerprint: str, **extra: Any
    ) -> TestsetSample:
        """The sample written for ``scenario`` (``extra``: a kind's own fields, e.g. its distractors)."""
        return TestsetSample.create(
            user_input=question.strip(),
            reference=reference.strip(),
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
            **extra,
        )

    async def generate(self, scenario: Scenario, *, graph_fingerprint: str = "") -> TestsetSample:
        """Write the question and reference for ``scenario`` (one LLM call, or the offline templates)."""
        data = QueryInput(
            kind=self.name,
            task=task_text(self.name, scenario.style, scenario.length),
            **prompt_fields(scenario),
        )
        answer = await self.prompt.run(
            self.llm, data, engine=self.engine or get_engine(), stage=f"synth.{self.name}"
        )
        return self.sample(scenario, answer.question, answer.reference, graph_fingerprint)

    async def check(self, gate: QualityGate, sample: TestsetSample, scenario: Scenario) -> str | None:
        """None when ``sample`` passes the quality gate, else the rejection reason. A kind whose sample is
        not a plain grounded answer (a question to decline, a conversation) checks what it promises."""
        return await gate.check(sample, answer_slots(scenario.facts), self.written(scenario))

    def written(self, scenario: Scenario) -> Written:
        """The languages of a draft's texts: its question's is the one asked for; its reference's too when a
        model writes it (offline it is copied from the contexts, whatever the language asked for)."""
        reference = scenario.language if self.writes_with_model else scenario.written
        return Written(question=scenario.language, reference=reference, contexts=scenario.written)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def label(kg: KnowledgeGraph, node: str) -> str:
    data = kg.get(node)
    section = (data.get("section") or "").split(" > ")[-1]
    return section or kg.get(data["document"]).get("title", "") or data["source"]


def mean_vector(kg: KnowledgeGraph, nodes: list[str]) -> np.ndarray | None:
    vectors = [kg.get(n).get("embedding") for n in nodes]
    vectors = [v for v in vectors if v is not None]
    return np.mean(np.vstack(vectors), axis=0) if vectors else None
