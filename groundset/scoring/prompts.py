"""The scoring prompts shared by several metrics (same prompt, same input -> paid once per sample).

Statement support verdicts come from ``core.verdicts.SupportPrompt``, the prompt the test-set
quality gate uses too.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..core.prompts import Prompt
from ..core.verdicts import content_words, lexical_support
from ..kg.sentences import plain_text, split_sentences

OFFLINE_USEFUL = 0.35


class TextToSplit(BaseModel):
    question: str = Field(default="", description="the question the text answers, for context")
    text: str
    atomicity: str = Field(
        default="standard", description="'high': one fact per statement; 'standard' otherwise"
    )
    coverage: str = Field(
        default="standard", description="'high': keep every detail; 'standard': main points"
    )


class Statements(BaseModel):
    statements: list[str] = Field(description="short statements that each stand on their own")


class StatementsPrompt(Prompt[TextToSplit, Statements]):
    name = "scoring.statements"
    instruction = (
        "Break the text into short factual statements. Each statement must make sense on its own: replace "
        "pronouns and vague references with the names they stand for, keep numbers and conditions, and "
        "leave out greetings, hedges and filler. Do not add anything the text does not say. With atomicity "
        "'high' split until each statement holds exactly one fact; with coverage 'high' keep every detail, "
        "with coverage 'standard' keep the main points."
    )
    examples = [
        (
            TextToSplit(
                question="What does the exporter do?",
                text="It exposes host metrics on port 9100. It is written in Go and runs on Linux.",
            ),
            Statements(
                statements=[
                    "The exporter exposes host metrics on port 9100.",
                    "The exporter is written in Go.",
                    "The exporter runs on Linux.",
                ]
            ),
        )
    ]

    def offline(self, data: TextToSplit) -> Statements:
        sentences = split_sentences(plain_text(data.text))
        return Statements(statements=[s for s in sentences if content_words(s)])


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
        from ..kg.entities import EntityExtractor

        return Entities(entities=EntityExtractor().extract(data.text))
