"""The question-writing prompt, shared by the three synthesizers, with its offline form.

Offline, the question comes from templates and the reference from the context sentences that
mention the term, so an offline test set is grounded by construction. ``language`` (the contexts'
language, "zh (Chinese)") says which language to write in: a model is told so, the offline form
picks that language's templates (``languages``; English ones for a language without templates).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...core.prompts import Prompt
from ...languages import wording
from ...personas.language import label_code
from ...text.textrank import textrank_summary
from ..scenarios.facts import Fact
from .answer_first import fact_question, fact_reference
from .local import local_question
from .offline import answer_sentences, offline_question, offline_reference

KIND_GUIDANCE = {
    "single_hop_specific": (
        "Write one specific question about the term that the context answers directly. The answer must "
        "come from this one context."
    ),
    "multi_hop_specific": (
        "The contexts come from different documents and all mention the term. Write one question that "
        "can only be answered by combining facts from every context, and that names the term."
    ),
    "multi_hop_abstract": (
        "The contexts come from different documents that share a theme. Write one broader question about "
        "that theme whose answer draws on every context: a comparison, a summary of how they relate, or "
        "what they say together."
    ),
}
STYLE_GUIDANCE = {
    "perfect_grammar": "Write it in correct, complete sentences.",
    "poor_grammar": "Write it the way a hurried user types: loose grammar, missing small words, still clear.",
    "web_search": "Write it as a search-engine query: a few keywords, no question mark.",
    "misspelled": (
        "Write it correctly but with one or two realistic typing slips of the language (a typo, or in "
        "Chinese or Japanese a wrong input-method character), never in the term."
    ),
}
LENGTH_GUIDANCE = {
    "short": "Keep it under 12 words (in Chinese or Japanese, under 25 characters).",
    "medium": "Use 10 to 20 words (in Chinese or Japanese, 20 to 40 characters).",
    "long": (
        "Use 20 to 40 words (in Chinese or Japanese, 40 to 80 characters), including a sentence of the "
        "persona's situation."
    ),
}


class QueryInput(BaseModel):
    kind: str
    task: str = Field(description="what to write, in which style and length")
    persona: str = Field(description="who is asking")
    terms: list[str]
    contexts: list[str]
    labels: list[str] = Field(default_factory=list, description="section titles of the contexts")
    style: str = Field(description="query style key")
    length: str = Field(description="query length key")
    seed: int = 0
    facts: list[Fact] = Field(
        default_factory=list, description="the statements the question must be answered by, one per context"
    )
    scope: str = Field(default="", description="what the documentation is about")
    anchor: str = Field(default="", exclude=True, description="offline: the API or command to name")
    language: str = Field(
        default="en (English)", description="the language to write the question and reference in"
    )


def task_text(kind: str, style: str, length: str) -> str:
    return f"{KIND_GUIDANCE[kind]} {STYLE_GUIDANCE[style]} {LENGTH_GUIDANCE[length]}"


class GeneratedSample(BaseModel):
    question: str
    reference: str = Field(description="the answer, using only facts stated in the contexts")


class QueryPrompt(Prompt[QueryInput, GeneratedSample]):
    name = "synth.query"
    instruction = (
        "You write evaluation questions for a retrieval-augmented assistant over technical documentation. "
        "Follow the task, write as the given persona would ask, and follow the requested style and length. "
        "The question must be answerable from the contexts and must not give the answer away. Then write "
        "the reference answer in 1 to 4 sentences, using only facts stated in the contexts (no outside "
        "knowledge); when the contexts disagree or say nothing about a part of the question, the question "
        "was not well chosen: ask something else. When facts are given, ask the question those facts answer "
        "(all of them together, when there are several) and base the reference on them; never put a section "
        "title, file name or markup in the question. Write the question and the reference in the language "
        "given as `language` (the language of the contexts), whatever the language of these instructions "
        "and of the example; keep names, code and quoted terms as the contexts write them."
    )
    examples = [
        (
            QueryInput(
                kind="single_hop_specific",
                task=task_text("single_hop_specific", "perfect_grammar", "short"),
                persona="Platform engineer: runs the monitoring stack for several teams.",
                terms=["retention period"],
                contexts=[
                    "Blocks older than the retention period are deleted. The retention period is "
                    "15 days unless --storage.tsdb.retention.time says otherwise."
                ],
                style="perfect_grammar",
                length="short",
            ),
            GeneratedSample(
                question="How long is the default retention period?",
                reference="The retention period is 15 days by default; --storage.tsdb.retention.time "
                "changes it, and older blocks are deleted.",
            ),
        )
    ]

    def offline(self, data: QueryInput) -> GeneratedSample:
        code = label_code(data.language)
        local = wording(code)  # None: English templates
        own = bool(data.facts) and data.facts[0].lang == code  # facts asked in their own language's templates
        if data.facts and not own and local is not None:  # facts asked in another language (a forced one)
            abstract = data.kind == "multi_hop_abstract"  # its terms: the theme, then each fact's subject
            question = local_question(
                local,
                data.kind,
                data.terms if abstract else [*data.terms[:1], *data.labels],
                [f.reference for f in data.facts],
                persona=data.persona,
                style=data.style,
                length=data.length,
                seed=data.seed,
                scope=data.scope,
            )
            return GeneratedSample(question=question, reference=fact_reference(data.facts))
        if own:
            question = fact_question(
                data.kind,
                data.facts,
                style=data.style,
                length=data.length,
                seed=data.seed,
                scope=data.scope,
                anchor=data.anchor,
            )
            return GeneratedSample(question=question, reference=fact_reference(data.facts))
        groups = evidence_groups(data.kind, data.terms[0], data.contexts, label_code(data.language))
        if local is not None:
            question = local_question(
                local,
                data.kind,
                data.terms[:1] if data.kind == "single_hop_specific" else [*data.terms[:1], *data.labels],
                [s for group in groups for s in group],
                persona=data.persona,
                style=data.style,
                length=data.length,
                seed=data.seed,
                scope=data.scope,
            )
            return GeneratedSample(question=question, reference=offline_reference(groups))
        question = offline_question(
            data.kind,
            data.terms[:1] if data.kind == "single_hop_specific" else [*data.terms[:1], *data.labels],
            [s for group in groups for s in group],
            style=data.style,
            length=data.length,
            seed=data.seed,
        )
        return GeneratedSample(question=question, reference=offline_reference(groups))


def evidence_groups(
    kind: str, term: str, contexts: list[str], language: str = "en", written: str | None = None
) -> list[list[str]]:
    """For each context, the sentences that ground an answer about ``term`` (empty when none). Outside
    English a heading alone grounds nothing ("Sonden einrichten" answers no question about probes).
    ``written``: the contexts' language when the graph tells it (else each context's is detected)."""
    groups = []
    for context in contexts:
        found = answer_sentences(term, context, prose_only=language != "en", lang=written)
        if not found and kind == "multi_hop_abstract":
            summary = textrank_summary(context, max_sentences=1, max_chars=300, lang=written)
            found = [summary] if summary else []
        groups.append(found)
    return groups
