"""One fact: an answer-bearing sentence, the subject it is about and the question it answers."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from .answer_patterns import Match, split_article

__all__ = ["Fact", "subject_key"]


class Fact(BaseModel):
    """One answer-bearing sentence and the question it answers (see ``answer_patterns.Match``).

    A prompt shows a model only the pattern, subject and reference; the rest is derived from them
    (and is left out of cache keys for that reason).
    """

    pattern: str
    subject: str = Field(description="the noun phrase as written, article included ('A counter')")
    reference: str = Field(description="the sentence made self-contained, plus its continuation")
    focus: str = Field(
        exclude=True, description="what the question is about ('counter', 'reload the configuration')"
    )
    answer: str = Field(exclude=True, description="the answer slot: the reference must contain it")
    plural: bool = Field(default=False, exclude=True)
    slots: dict[str, str] = Field(default_factory=dict, exclude=True)
    lowercase_words: list[str] = Field(
        default_factory=list, exclude=True, description="capitalised words the corpus writes in lower case"
    )
    lang: str = Field(default="en", exclude=True, description="the language of the sentence and its question")

    @classmethod
    def stated(cls, match: Match, focus: str, reference: str, **extra: Any) -> Fact:
        """The fact a sentence's ``match`` states, asked about ``focus`` and answered by ``reference``."""
        return cls(
            pattern=match.pattern,
            subject=match.subject.strip(),
            focus=focus.strip(),
            answer=match.answer.strip().rstrip("."),
            reference=reference,
            plural=match.plural,
            slots=dict(match.slots),
            **extra,
        )

    def key(self) -> str:
        """The subject as a lookup key: case-folded, no article, last word singular."""
        return subject_key(self.focus)

    def asked_about(self) -> str:
        """What the fact's question names: its subject, and its condition or goal when it has one."""
        return " ".join([self.subject, self.focus, self.slots.get("cond", ""), self.slots.get("goal", "")])

    def question_key(self) -> tuple[str, ...]:
        """Facts with the same question key are asked by the same question ("What is required of X?"):
        if the corpus has two, neither reference is *the* answer."""
        s = self.slots
        return (
            self.key(),
            self.pattern,
            s.get("form", ""),
            s.get("how", ""),
            s.get("verb", ""),
            s.get("modal", ""),
        )


def subject_key(phrase: str) -> str:
    """ "The Remote-Write protocols" and "remote write protocol" share the key "remote write protocol"."""
    words = split_article(" ".join(phrase.split()))[1].casefold().replace("-", " ").split()
    if words and len(words[-1]) > 3:
        last = words[-1]
        if last.endswith("ies"):
            words[-1] = last[:-3] + "y"
        elif last.endswith("s") and not last.endswith(("ss", "us", "is")):
            words[-1] = last[:-1]
    return " ".join(words)
