"""The scoring prompts shared by several metrics (same prompt, same input -> paid once per sample).

Statement support verdicts come from ``core.verdicts.SupportPrompt``, the prompt the test-set
quality gate uses too.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..core.prompts import Prompt
from ..text.lexical import LexicalContext, content_words, lexical_support
from ..text.plaintext import plain_text
from ..text.sentences import split_sentences

OFFLINE_USEFUL = 0.35


class SampleTexts(BaseModel):
    question: str = Field(default="", description="the question both texts answer, for context")
    response: str = Field(default="", description="the system's answer (may be empty)")
    reference: str = Field(default="", description="the reference answer (may be empty)")
    atomicity: str = Field(
        default="standard", description="'high': one fact per statement; 'standard' otherwise"
    )
    coverage: str = Field(
        default="standard", description="'high': keep every detail; 'standard': main points"
    )


class SampleStatements(BaseModel):
    response: list[str] = Field(description="statements of the response")
    reference: list[str] = Field(description="statements of the reference")


class StatementsPrompt(Prompt[SampleTexts, SampleStatements]):
    """Both texts of a sample in one call, so every metric that needs either shares it."""

    name = "scoring.statements"
    version = 2
    instruction = (
        "Break the response and the reference each into short factual statements. Each statement must make "
        "sense on its own: replace pronouns and vague references with the names they stand for, keep "
        "numbers and conditions, and leave out greetings, hedges and filler. Do not add anything a text "
        "does not say; an empty text gives no statements. With atomicity 'high' split until each statement "
        "holds exactly one fact; with coverage 'high' keep every detail, with 'standard' the main points."
    )
    examples = [
        (
            SampleTexts(
                question="What does the exporter do?",
                response="It exposes host metrics on port 9100 and is written in Go.",
                reference="The node exporter exposes host metrics on port 9100.",
            ),
            SampleStatements(
                response=[
                    "The exporter exposes host metrics on port 9100.",
                    "The exporter is written in Go.",
                ],
                reference=["The node exporter exposes host metrics on port 9100."],
            ),
        )
    ]

    def offline(self, data: SampleTexts) -> SampleStatements:
        return SampleStatements(response=_sentences(data.response), reference=_sentences(data.reference))


def _sentences(text: str) -> list[str]:
    return [s for s in split_sentences(plain_text(text)) if content_words(s)] if text.strip() else []


class StatementsToCompare(BaseModel):
    response: list[str] = Field(description="statements of the response")
    reference: list[str] = Field(description="statements of the reference")


class Comparison(BaseModel):
    response_supported: list[bool] = Field(
        description="per response statement: does the reference support it?"
    )
    reference_covered: list[bool] = Field(description="per reference statement: does the response state it?")


class CompareStatementsPrompt(Prompt[StatementsToCompare, Comparison]):
    """Both directions in one call: what the response got right, and what of the reference it covered."""

    name = "scoring.compare_statements"
    instruction = (
        "Compare two lists of statements. For each response statement, in order, say whether the reference "
        "statements together support it. For each reference statement, in order, say whether the response "
        "statements together state it (the same fact, possibly in other words). Use only the two lists."
    )
    examples = [
        (
            StatementsToCompare(
                response=["Blocks are kept for 15 days.", "Blocks are stored on tape."],
                reference=["Blocks are kept for 15 days.", "Old blocks are deleted."],
            ),
            Comparison(response_supported=[True, False], reference_covered=[True, False]),
        )
    ]

    def validate(self, data: StatementsToCompare, output: Comparison) -> str | None:
        """One verdict per statement on each side, or the counts behind the scores are wrong."""
        problems = [
            f"gave {len(verdicts)} verdicts for {len(statements)} {side} statements"
            for side, verdicts, statements in (
                ("response", output.response_supported, data.response),
                ("reference", output.reference_covered, data.reference),
            )
            if len(verdicts) != len(statements)
        ]
        if not problems:
            return None
        return " and ".join(problems) + "; give exactly one true or false per statement, in order"

    def offline(self, data: StatementsToCompare) -> Comparison:
        reference = LexicalContext("\n".join(data.reference))
        response = LexicalContext("\n".join(data.response))
        return Comparison(
            response_supported=[reference.judge(s).supported for s in data.response],
            reference_covered=[response.judge(s).supported for s in data.reference],
        )


class ContextsToJudge(BaseModel):
    question: str
    answer: str = Field(description="the reference answer, or the response when there is no reference")
    contexts: list[str]


class Usefulness(BaseModel):
    useful: list[bool] = Field(description="one verdict per context, in order")


class ContextUsefulnessPrompt(Prompt[ContextsToJudge, Usefulness]):
    name = "scoring.context_usefulness"
    instruction = (
        "For each numbered context, in order, decide whether it was useful for arriving at the answer to "
        "the question: useful means it states something the answer relies on. Return exactly one true or "
        "false per context."
    )
    examples = [
        (
            ContextsToJudge(
                question="Which port does the node exporter listen on?",
                answer="It listens on port 9100.",
                contexts=["The node exporter listens on port 9100 by default.", "Grafana draws dashboards."],
            ),
            Usefulness(useful=[True, False]),
        )
    ]

    def validate(self, data: ContextsToJudge, output: Usefulness) -> str | None:
        """One verdict per context: precision is computed by rank, so a missing verdict shifts them all."""
        if len(output.useful) == len(data.contexts):
            return None
        return (
            f"gave {len(output.useful)} verdicts for {len(data.contexts)} contexts; "
            "give exactly one true or false per context, in order"
        )

    def offline(self, data: ContextsToJudge) -> Usefulness:
        verdicts = []
        for context in data.contexts:
            words = set(content_words(plain_text(context)))
            verdicts.append(lexical_support(data.answer, words) >= OFFLINE_USEFUL)
        return Usefulness(useful=verdicts)


class ResponseToQuestion(BaseModel):
    response: str


class GeneratedQuestion(BaseModel):
    question: str = Field(description="a question this response would answer")
    noncommittal: bool = Field(description="true if the response is evasive or vague, e.g. 'I don't know'")


class ResponseQuestionPrompt(Prompt[ResponseToQuestion, GeneratedQuestion]):
    name = "scoring.response_question"
    instruction = (
        "Write the question that the response answers, as a user would ask it. Also say whether the "
        "response is noncommittal: evasive, vague or a refusal such as 'I am not sure' or 'it depends'."
    )
    examples = [
        (
            ResponseToQuestion(
                response="Blocks are kept for 15 days unless the retention flag says otherwise."
            ),
            GeneratedQuestion(question="How long are blocks kept?", noncommittal=False),
        ),
        (
            ResponseToQuestion(response="I can't say for certain how long blocks are kept."),
            GeneratedQuestion(question="How long are blocks kept?", noncommittal=True),
        ),
    ]


class TextForEntities(BaseModel):
    text: str


class Entities(BaseModel):
    entities: list[str] = Field(description="named things in the text, written as in the text")


class EntitiesPrompt(Prompt[TextForEntities, Entities]):
    name = "scoring.entities"
    instruction = (
        "List the named things the text mentions: people, organisations, products, components, places, "
        "dates, numbers with units, code identifiers and standards. Copy each as written; no duplicates."
    )
    examples = [
        (
            TextForEntities(text="Alertmanager 0.27 sends alerts to PagerDuty every 5 minutes."),
            Entities(entities=["Alertmanager 0.27", "PagerDuty", "5 minutes"]),
        )
    ]

    def offline(self, data: TextForEntities) -> Entities:
        from ..text.entities import EntityExtractor

        return Entities(entities=EntityExtractor().extract(data.text))
