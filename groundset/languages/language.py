"""What one language gives groundset: every part is optional, and a part a language leaves out is named
in ``falls_back`` with the reason (English is used instead, or the language's words live elsewhere)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from .aspects import Aspect
from .personas import PersonaWords
from .questions import QuestionWording
from .refusals import RefusalWords
from .sentences import SentenceWords

__all__ = ["ENGLISH_FALLBACKS", "PARTS", "Language"]


@dataclass(frozen=True)
class Language:
    """All of one language's words, by part (see ``PARTS``)."""

    code: str  # ISO 639-1
    name: str  # in English
    questions: QuestionWording | None = None  # offline term-based questions of every kind
    aspects: tuple[Aspect, ...] = ()  # out-of-scope aspects
    refusal_form: str = ""  # the reference of a question to decline: "{missing}" is what was asked
    # Words before a noun (a regular expression): a term found after one reads as a thing ("la condición").
    noun_articles: str = ""
    personas: PersonaWords | None = None  # offline persona names and roles
    refusals: RefusalWords | None = None  # phrases that decline to answer (refusal metrics)
    sentences: SentenceWords | None = None  # abbreviations a period does not end a sentence after
    negations: frozenset[str] = frozenset()  # words that negate (lexical support, beyond spaCy's)
    falls_back: Mapping[str, str] = field(default_factory=dict)  # part -> why it is not here

    def provides(self, part: str) -> bool:
        if part not in PARTS:
            raise ValueError(f"unknown language part {part!r}; the parts are: {', '.join(PARTS)}")
        return bool(getattr(self, part))


PARTS: tuple[str, ...] = tuple(
    f.name for f in fields(Language) if f.name not in ("code", "name", "falls_back")
)

# What happens to each part a language leaves out when it has little more than a refusal form (the
# ``falls_back`` of such a language; a language that provides one of these parts drops its entry).
ENGLISH_FALLBACKS: Mapping[str, str] = {
    "noun_articles": "none: every term is taken as a noun",
    "questions": "English templates for single-hop, multi-hop and situational questions offline; "
    "comparative, double and conversational questions are written only by a model",
    "aspects": "English aspects when a model writes the question; offline no out-of-scope question "
    "is written (no English question around text in another language)",
    "personas": "English",
    "refusals": "the phrases of every language that has them are tried, English first",
    "sentences": "English",
}
