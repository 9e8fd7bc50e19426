"""One verdict prompt: are these statements supported by this context?

The test-set quality gate and the faithfulness-style metrics ask the same question, so they
share one prompt (and, through the call engine, one paid answer per identical question).
Offline, a statement is supported when its content words are (nearly all) in the context.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from .prompts import Prompt

_WORD = re.compile(r"[^\W_]+(?:[._-][^\W_]+)*", re.UNICODE)
_STOP = ENGLISH_STOP_WORDS
OFFLINE_SUPPORT_RATIO = 0.85


class StatementsAndContext(BaseModel):
    statements: list[str]
    context: str


class StatementVerdict(BaseModel):
    statement: str
    supported: bool
    reason: str = Field(default="", description="one short sentence")


class Verdicts(BaseModel):
    verdicts: list[StatementVerdict]


def content_words(text: str) -> list[str]:
    return [w for w in (m.group(0).casefold() for m in _WORD.finditer(text)) if w not in _STOP]


def lexical_support(statement: str, context_words: set[str]) -> float:
    """The share of the statement's content words that occur in the context (1.0 for no content words)."""
    words = content_words(statement)
    if not words:
        return 1.0
    return sum(w in context_words for w in words) / len(words)


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

    def offline(self, data: StatementsAndContext) -> Verdicts:
        words = set(content_words(data.context))
        verdicts = []
        for statement in data.statements:
            ratio = lexical_support(statement, words)
            verdicts.append(
                StatementVerdict(
                    statement=statement,
                    supported=ratio >= OFFLINE_SUPPORT_RATIO,
                    reason=f"{ratio:.0%} of its content words occur in the context",
                )
            )
        return Verdicts(verdicts=verdicts)
