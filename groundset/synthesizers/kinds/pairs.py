"""What the kinds built on two chunks share (distracting, double, comparative): the synthesizer that
writes one question over two contexts with a reference of one line per context (a reference missing a
line leaves a part unanswered), the prompts' inputs, task and rules, and the offline reference.

Each kind's prompt asks a model for one question and its reference, with the contexts labelled by the
part they play (the passage that answers and the near-miss; the two passages of a double question; the
two sides of a comparison), and has an offline form: distracting writes the single-hop question
(``QueryPrompt``'s offline form), double and comparative English templates answer first (in their own
modules) or, in Chinese, Japanese, German, French and Spanish, the term-based ones of ``term_based``.
Offline, the reference is the facts' self-contained sentences, one line per context; without facts (a
model's scenario answered offline) the sentences of each context that mention the scenario's term.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ...core.engine import get_engine
from ...languages import QuestionWording
from ...personas.language import label_code
from ...samples.testset import TestsetSample
from ..base import Synthesizer
from ..pipeline.quality import QualityGate
from ..questions.answer_first import fact_reference
from ..questions.offline import answer_sentences
from ..questions.prompts import LENGTH_GUIDANCE, STYLE_GUIDANCE, GeneratedSample
from ..questions.styles import apply_style, size_question
from ..scenarios.facts import Fact
from ..scenarios.scenario import Scenario, prompt_fields
from .term_based import local_wording

__all__ = [
    "KIND_TASKS",
    "KindInput",
    "NearMissInput",
    "PairInput",
    "TwoPartSynthesizer",
    "evidence_reference",
    "finish_question",
    "kind_fields",
    "kind_task",
    "offline_pair",
    "pair_reference",
    "term_and_sides",
]

KIND_TASKS = {
    "distracting": (
        "Write one question that `answer_context` answers on its own. Use at least one distinctive word, "
        "name or phrase that `near_miss` also uses, so that a search matching words could bring up the "
        "near-miss instead; the near-miss must not answer it."
    ),
    "double": (
        "Write one message that asks two things at once: the first is answered by the first context, the "
        'second by the second context. Join them as one user\'s need ("What is X, and how do I Y?").'
    ),
    "comparative": (
        "The two contexts come from different documents. Write one question that compares the two sides "
        "(two subjects, or one subject as each document describes it) and names both (when the terms give "
        "one subject and two documents, name the documents as the terms write them), so that answering it "
        "takes both contexts."
    ),
}


LANGUAGE_RULE = (
    "Write the question and the reference in the language given as `language` (the language of the "
    "contexts), whatever the language of these instructions and of the example; keep names, code and "
    "quoted terms exactly as the contexts write them. Never put a section title, file name or markup in "
    "the question unless the task asks to name a document."
)


def kind_task(kind: str, style: str, length: str) -> str:
    return f"{KIND_TASKS[kind]} {STYLE_GUIDANCE[style]} {LENGTH_GUIDANCE[length]}"


class KindInput(BaseModel):
    """What every kind's prompt is given besides its contexts."""

    kind: str
    task: str = Field(description="what to write, in which style and length")
    persona: str = Field(description="who is asking")
    terms: list[str] = Field(description="what the question is about (for comparative: its sides)")
    style: str = Field(description="query style key")
    length: str = Field(description="query length key")
    seed: int = 0
    facts: list[Fact] = Field(
        default_factory=list, description="the statements the reference rests on, one per context"
    )
    scope: str = Field(default="", description="what the documentation is about")
    anchor: str = Field(default="", exclude=True, description="offline: the API or command to name")
    language: str = Field(default="en (English)", description="the language to write in")


class NearMissInput(KindInput):
    answer_context: str = Field(description="the passage that answers the question")
    near_miss: str = Field(description="a passage that shares words with the question, not its answer")


class PairInput(KindInput):
    contexts: list[str] = Field(description="the two passages, in the order of the reference's parts")
    labels: list[str] = Field(default_factory=list, description="their section titles")


ROLE = "You write evaluation questions for a retrieval-augmented assistant over technical documentation. "


def english_only(name: str, language: str) -> None:
    if label_code(language) != "en":
        raise ValueError(
            f"{name}: offline questions of this kind are written in English only (and zh, ja, de, fr, es "
            f"from their terms), not {language}"
        )


def how_fields(data: KindInput) -> dict[str, Any]:
    """How an offline question is written: for whom, in which style and length."""
    return {
        "persona": data.persona,
        "style": data.style,
        "length": data.length,
        "seed": data.seed,
        "scope": data.scope,
    }


def kind_fields(scenario: Scenario) -> dict[str, Any]:
    """The input fields every kind's prompt takes from its scenario (the contexts go in by their part)."""
    shared = {k: v for k, v in prompt_fields(scenario).items() if k not in ("contexts", "labels")}
    return {
        "kind": scenario.synthesizer,
        "task": kind_task(scenario.synthesizer, scenario.style, scenario.length),
        **shared,
    }


def pair_reference(facts: Sequence[Fact], term: str, contexts: Sequence[str]) -> str:
    """Both facts' sentences (one line each), or without facts each context's sentences about ``term``."""
    return fact_reference(facts) if facts else evidence_reference(term, contexts)


def evidence_reference(term: str, contexts: Sequence[str]) -> str:
    """One line per context: its sentences (verbatim) that mention ``term``."""
    lines = [" ".join(answer_sentences(term, context)) for context in contexts]
    return "\n".join(dict.fromkeys(line for line in lines if line.strip()))


def term_and_sides(terms: Sequence[str], labels: Sequence[str]) -> tuple[str, str, str]:
    """(term, side a, side b): the sides are terms[1:3] when given, else the contexts' labels."""
    sides = [*terms[1:3], *labels][:2]
    while len(sides) < 2:
        sides.append("the documentation" if not sides else "elsewhere in the documentation")
    return terms[0], sides[0], sides[1]


def finish_question(
    core: str, protect: Sequence[str], *, style: str, length: str, seed: int, scope: str, api: bool = False
) -> str:
    question = size_question(core, length, scope=scope, api=api)
    kept = [term for term in [*protect, scope] if term and term.lower() in question.lower()]
    return apply_style(question, style, seed=seed, protect=kept)


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


def offline_pair(
    data: PairInput,
    kind: str,
    local: Callable[[QuestionWording], tuple[str, str]],
    english: Callable[[], str],
) -> GeneratedSample:
    """A two-chunk kind's offline sample: the language's term-based question and reference when it has
    templates (``local``), else the English question (``english``) with one reference line per context."""
    words = local_wording(label_code(data.language))
    if words is not None:
        question, reference = local(words)
        return GeneratedSample(question=question, reference=reference)
    english_only(kind, data.language)
    return GeneratedSample(
        question=english(), reference=pair_reference(data.facts, data.terms[0], data.contexts)
    )
