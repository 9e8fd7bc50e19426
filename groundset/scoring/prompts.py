"""The scoring prompts shared by several metrics (same prompt, same input -> paid once per sample).

Statement support verdicts come from ``core.verdicts.SupportPrompt``, the prompt the test-set
quality gate uses too.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..core.prompts import Prompt
from ..judges.aligned import AlignedPrompt, KeyedVerdicts, Verdict, keyed, verdicts_of
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
    response: dict[str, str] = Field(description="statements of the response, keyed r1, r2, ...")
    reference: dict[str, str] = Field(description="statements of the reference, keyed g1, g2, ...")
    judge: list[str] | None = Field(default=None, description="the keys to judge now (all when absent)")


class CompareStatementsPrompt(AlignedPrompt[StatementsToCompare]):
    """Both directions in one call: what the response got right, and what of the reference it covered."""

    name = "scoring.compare_statements"
    version = 2
    instruction = (
        "Compare two lists of statements. For each response statement (keys r1, r2, ...) the verdict is "
        "true when the reference statements together support it. For each reference statement (keys g1, "
        "g2, ...) the verdict is true when the response statements together state it (the same fact, "
        "possibly in other words). Use only the two lists. Answer with one JSON object with one entry per "
        "key to judge, each holding the verdict and a short reason."
    )
    examples = [
        (
            StatementsToCompare(
                response={"r1": "Blocks are kept for 15 days.", "r2": "Blocks are stored on tape."},
                reference={"g1": "Blocks are kept for 15 days.", "g2": "Old blocks are deleted."},
            ),
            keyed(("r1", "r2", "g1", "g2")).model_validate(
                {
                    "r1": Verdict(verdict=True, reason="g1 says the same."),
                    "r2": Verdict(verdict=False, reason="No reference statement mentions tape."),
                    "g1": Verdict(verdict=True, reason="r1 says the same."),
                    "g2": Verdict(verdict=False, reason="The response does not mention deletion."),
                }
            ),
        )
    ]

    def keys(self, data: StatementsToCompare) -> tuple[str, ...]:
        return tuple(data.judge) if data.judge is not None else (*data.response, *data.reference)

    def batch(self, data: StatementsToCompare, keys: tuple[str, ...]) -> StatementsToCompare:
        return data.model_copy(update={"judge": list(keys)})

    def offline(self, data: StatementsToCompare) -> KeyedVerdicts:
        reference = LexicalContext("\n".join(data.reference.values()))
        response = LexicalContext("\n".join(data.response.values()))
        verdicts = {}
        for key in self.keys(data):
            side, against = (data.response, reference) if key in data.response else (data.reference, response)
            found = against.judge(side[key])
            verdicts[key] = Verdict(verdict=found.supported, reason=found.reason)
        return verdicts_of(self.keys(data), verdicts)


class ContextsToJudge(BaseModel):
    question: str
    answer: str = Field(description="the reference answer, or the response when there is no reference")
    contexts: dict[str, str] = Field(description="the retrieved contexts, by key, in rank order")


class ContextUsefulnessPrompt(AlignedPrompt[ContextsToJudge]):
    name = "scoring.context_usefulness"
    version = 2
    instruction = (
        "For each context, decide whether it was useful for arriving at the answer to the question: useful "
        "(true) means it states something the answer relies on. Answer with one JSON object with one entry "
        "per context key, each holding the verdict and a short reason."
    )
    examples = [
        (
            ContextsToJudge(
                question="Which port does the node exporter listen on?",
                answer="It listens on port 9100.",
                contexts={
                    "1": "The node exporter listens on port 9100 by default.",
                    "2": "Grafana draws dashboards.",
                },
            ),
            keyed(("1", "2")).model_validate(
                {
                    "1": Verdict(verdict=True, reason="It states the port."),
                    "2": Verdict(verdict=False, reason="Dashboards are not the question."),
                }
            ),
        )
    ]

    def keys(self, data: ContextsToJudge) -> tuple[str, ...]:
        return tuple(data.contexts)

    def batch(self, data: ContextsToJudge, keys: tuple[str, ...]) -> ContextsToJudge:
        return data.model_copy(update={"contexts": {k: data.contexts[k] for k in keys}})

    def offline(self, data: ContextsToJudge) -> KeyedVerdicts:
        verdicts = {}
        for key, context in data.contexts.items():
            share = lexical_support(data.answer, set(content_words(plain_text(context))))
            verdicts[key] = Verdict(
                verdict=share >= OFFLINE_USEFUL, reason=f"{share:.0%} of the answer's words"
            )
        return verdicts_of(self.keys(data), verdicts)


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
