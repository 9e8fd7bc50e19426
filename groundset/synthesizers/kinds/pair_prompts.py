"""The prompts of the kinds built on two chunks: distracting, double and comparative.

Each asks a model for one question and its reference, with the contexts labelled by the part they
play (the passage that answers and the near-miss; the two passages of a double question; the two sides
of a comparison), and has an offline form: distracting writes the single-hop question (``QueryPrompt``'s
offline form, in every language it has templates for), double and comparative the English templates of
``pair_templates`` or, in Chinese, Japanese, German, French and Spanish, the term-based ones of
``term_based``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ...core.prompts import Prompt
from ...personas.language import label_code
from ..questions.prompts import LENGTH_GUIDANCE, STYLE_GUIDANCE, GeneratedSample, QueryInput, QueryPrompt
from ..scenarios.facts import Fact
from ..scenarios.scenario import Scenario, prompt_fields
from .pair_templates import comparison_question, double_question, pair_reference
from .term_based import local_comparison, local_double, local_wording

__all__ = [
    "ComparativePrompt",
    "DistractingPrompt",
    "DoublePrompt",
    "KindInput",
    "NearMissInput",
    "PairInput",
    "kind_fields",
    "kind_task",
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
_LANGUAGE_RULE = (
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
    language: str = Field(default="en (English)", description="the language to write in")


class NearMissInput(KindInput):
    answer_context: str = Field(description="the passage that answers the question")
    near_miss: str = Field(description="a passage that shares words with the question, not its answer")


class PairInput(KindInput):
    contexts: list[str] = Field(description="the two passages, in the order of the reference's parts")
    labels: list[str] = Field(default_factory=list, description="their section titles")


_ROLE = "You write evaluation questions for a retrieval-augmented assistant over technical documentation. "


class DistractingPrompt(Prompt[NearMissInput, GeneratedSample]):
    name = "synth.distracting"
    instruction = (
        _ROLE + "This question tests whether the assistant is misled by a look-alike passage: "
        "`answer_context` holds the answer, `near_miss` comes from elsewhere in the documentation and "
        "shares some of its vocabulary without holding that answer. Follow the task, write as the persona "
        "would ask, and do not give the answer away. Then write the reference answer in 1 to 4 sentences "
        "from `answer_context` alone: nothing taken from `near_miss`, no outside knowledge. When facts are "
        "given, ask what they answer and base the reference on them. " + _LANGUAGE_RULE
    )
    examples = [
        (
            NearMissInput(
                kind="distracting",
                task=kind_task("distracting", "perfect_grammar", "short"),
                persona="Platform engineer: runs the monitoring stack for several teams.",
                terms=["scrape timeout"],
                style="perfect_grammar",
                length="short",
                answer_context="The scrape timeout bounds how long one scrape may take. It defaults to 10 "
                "seconds and must not exceed the scrape interval.",
                near_miss="Remote write batches samples and sends them with its own timeout; a batch that "
                "times out is retried with backoff.",
            ),
            GeneratedSample(
                question="What is the default scrape timeout?",
                reference="The scrape timeout defaults to 10 seconds, and it must not exceed the scrape "
                "interval.",
            ),
        )
    ]

    def offline(self, data: NearMissInput) -> GeneratedSample:
        """The single-hop question of the answer context, in any language with offline templates."""
        single = QueryInput(
            kind="single_hop_specific",
            task="",
            persona=data.persona,
            terms=data.terms,
            contexts=[data.answer_context],
            style=data.style,
            length=data.length,
            seed=data.seed,
            facts=data.facts,
            scope=data.scope,
            language=data.language,
        )
        return QueryPrompt().offline(single)


class DoublePrompt(Prompt[PairInput, GeneratedSample]):
    name = "synth.double"
    instruction = (
        _ROLE + "This question asks two things in one message, as users often do. Follow the task and write "
        "as the persona would ask; each part must be answerable from its own context alone and must not "
        "give its answer away. Then write the reference answer in two parts on two lines: the first line "
        "answers the first part from the first context only, the second line the second part from the "
        "second context only (1 or 2 sentences each, no outside knowledge). When facts are given, ask what "
        "they answer, in their order, and base each part on its fact. " + _LANGUAGE_RULE
    )
    examples = [
        (
            PairInput(
                kind="double",
                task=kind_task("double", "perfect_grammar", "medium"),
                persona="Backend developer: adds metrics to a payments service.",
                terms=["histogram", "label values"],
                style="perfect_grammar",
                length="medium",
                contexts=[
                    "A histogram samples observations and counts them in configurable buckets.",
                    "Label values should have a bounded set of values; an unbounded user ID makes a new "
                    "series per user.",
                ],
            ),
            GeneratedSample(
                question="What does a histogram do with observations, and what should I avoid in label "
                "values?",
                reference="A histogram samples observations and counts them in configurable buckets.\n"
                "Label values should come from a bounded set: an unbounded value such as a user ID makes a "
                "new series per user.",
            ),
        )
    ]

    def offline(self, data: PairInput) -> GeneratedSample:
        words = local_wording(label_code(data.language))
        if words is not None:
            question, reference = local_double(words, data.facts, data.terms, data.contexts, **_how(data))
            return GeneratedSample(question=question, reference=reference)
        _english_only(self.name, data.language)
        question = double_question(
            data.facts,
            terms=data.terms,
            labels=data.labels,
            persona=data.persona,
            style=data.style,
            length=data.length,
            seed=data.seed,
            scope=data.scope,
        )
        return GeneratedSample(
            question=question, reference=pair_reference(data.facts, data.terms[0], data.contexts)
        )


class ComparativePrompt(Prompt[PairInput, GeneratedSample]):
    name = "synth.comparative"
    instruction = (
        _ROLE + "This question asks for a comparison. The terms name the sides: two subjects (one per "
        "context), or one subject followed by the two documents that describe it. Follow the task and write "
        "as the persona would ask; the question must name both sides and need both contexts. Then write the "
        "reference answer in two parts on two lines, one per context in their order, each saying what that "
        "context states about its side (1 or 2 sentences each, no outside knowledge, no claim that neither "
        "context makes). When facts are given, base each part on its fact. " + _LANGUAGE_RULE
    )
    examples = [
        (
            PairInput(
                kind="comparative",
                task=kind_task("comparative", "perfect_grammar", "short"),
                persona="SRE: keeps alerting healthy for an on-call rotation.",
                terms=["counter", "gauge"],
                style="perfect_grammar",
                length="short",
                contexts=[
                    "A counter is a cumulative metric whose value can only increase or be reset to zero.",
                    "A gauge is a metric that represents a single value that can go up and down.",
                ],
            ),
            GeneratedSample(
                question="How does a counter differ from a gauge?",
                reference="A counter is cumulative: it only increases or resets to zero.\n"
                "A gauge holds a single value that can go up and down.",
            ),
        )
    ]

    def offline(self, data: PairInput) -> GeneratedSample:
        words = local_wording(label_code(data.language))
        if words is not None:
            question, reference = local_comparison(
                words, data.facts, data.terms, data.contexts, data.labels, **_how(data)
            )
            return GeneratedSample(question=question, reference=reference)
        _english_only(self.name, data.language)
        question = comparison_question(
            data.facts,
            terms=data.terms,
            persona=data.persona,
            style=data.style,
            length=data.length,
            seed=data.seed,
            scope=data.scope,
        )
        return GeneratedSample(
            question=question, reference=pair_reference(data.facts, data.terms[0], data.contexts)
        )


def _english_only(name: str, language: str) -> None:
    if label_code(language) != "en":
        raise ValueError(
            f"{name}: offline questions of this kind are written in English only (and zh, ja, de, fr, es "
            f"from their terms), not {language}"
        )


def _how(data: KindInput) -> dict[str, Any]:
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
