"""One verdict prompt: are these statements supported by this context?

The test-set quality gate and the faithfulness-style metrics ask the same question, so they
share one prompt (and, through the call engine, one paid answer per identical question).
Statements are keyed ("1", "2", ...) and judged one verdict per key (see ``aligned``).
Offline, the lexical judge in ``text.lexical`` decides: content words, numbers, names and negation.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..text.lexical import LexicalContext
from .aligned import AlignedPrompt, KeyedVerdicts, Verdict, keyed, verdicts_of


class StatementsAndContext(BaseModel):
    statements: dict[str, str] = Field(description="the statements to judge, by key")
    context: str


class SupportPrompt(AlignedPrompt[StatementsAndContext]):
    name = "verdict.support"
    version = 2
    instruction = (
        "For each statement, decide whether the context supports it: supported (true) means a careful "
        "reader could confirm the statement from the context alone, without outside knowledge. A "
        "statement that adds details the context does not give, or contradicts it, is not supported "
        "(false). Answer with one JSON object that has one entry per statement key, each holding the "
        "verdict and a short reason."
    )
    examples = [
        (
            StatementsAndContext(
                statements={
                    "1": "The cache keeps entries for one hour.",
                    "2": "The cache is stored on disk.",
                },
                context="Entries stay in the in-memory cache for 60 minutes and are then evicted.",
            ),
            keyed(("1", "2")).model_validate(
                {
                    "1": Verdict(verdict=True, reason="60 minutes is one hour."),
                    "2": Verdict(verdict=False, reason="The context says the cache is in memory."),
                }
            ),
        )
    ]

    def keys(self, data: StatementsAndContext) -> tuple[str, ...]:
        return tuple(data.statements)

    def batch(self, data: StatementsAndContext, keys: tuple[str, ...]) -> StatementsAndContext:
        return data.model_copy(update={"statements": {k: data.statements[k] for k in keys}})

    def offline(self, data: StatementsAndContext) -> KeyedVerdicts:
        context = LexicalContext(data.context)
        verdicts = {}
        for key, statement in data.statements.items():
            found = context.judge(statement)
            verdicts[key] = Verdict(verdict=found.supported, reason=found.reason)
        return verdicts_of(self.keys(data), verdicts)
