"""One verdict prompt: are these statements supported by this context?

The test-set quality gate and the faithfulness-style metrics ask the same question, so they
share one prompt (and, through the call engine, one paid answer per identical question).
Offline, the lexical judge in ``lexical`` decides: content words, numbers, names and negation.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..core.prompts import Prompt
from ..text.lexical import LexicalContext


class StatementsAndContext(BaseModel):
    statements: list[str]
    context: str


class StatementVerdict(BaseModel):
    statement: str
    supported: bool
    reason: str = Field(default="", description="one short sentence")


class Verdicts(BaseModel):
    verdicts: list[StatementVerdict]


class SupportPrompt(Prompt[StatementsAndContext, Verdicts]):
    name = "verdict.support"
    instruction = (
        "For each statement, decide whether the context supports it: supported means a careful reader "
        "could confirm the statement from the context alone, without outside knowledge. A statement that "
        "adds details the context does not give, or contradicts it, is not supported. Return one verdict "
        "per statement, in the same order, with the statement copied and a short reason."
    )
    examples = [
        (
            StatementsAndContext(
                statements=["The cache keeps entries for one hour.", "The cache is stored on disk."],
                context="Entries stay in the in-memory cache for 60 minutes and are then evicted.",
            ),
            Verdicts(
                verdicts=[
                    StatementVerdict(
                        statement="The cache keeps entries for one hour.",
                        supported=True,
                        reason="60 minutes is one hour.",
                    ),
                    StatementVerdict(
                        statement="The cache is stored on disk.",
                        supported=False,
                        reason="The context says the cache is in memory.",
                    ),
                ]
            ),
        )
    ]

    def validate(self, data: StatementsAndContext, output: Verdicts) -> str | None:
        """One verdict per statement: a short list would be misread as all-supported or as NaN."""
        given, wanted = len(output.verdicts), len(data.statements)
        if given == wanted:
            return None
        return (
            f"gave {given} verdicts for {wanted} statements; give exactly one verdict per statement, in order"
        )

    def offline(self, data: StatementsAndContext) -> Verdicts:
        context = LexicalContext(data.context)
        verdicts = []
        for statement in data.statements:
            verdict = context.judge(statement)
            verdicts.append(
                StatementVerdict(statement=statement, supported=verdict.supported, reason=verdict.reason)
            )
        return Verdicts(verdicts=verdicts)
