"""Russian (ru): the words groundset has in Russian so far; ``falls_back`` says
how every other part is done without its words (mostly in English). Adding a part is adding its field."""

from __future__ import annotations

from .language import Language

LANGUAGE = Language(
    code="ru",
    name="Russian",
    refusal_form="В документации не сказано, {missing}.",
    falls_back={
        "noun_articles": "none: every term is taken as a noun",
        "questions": "English templates for single-hop, multi-hop and situational questions offline; "
        "comparative, double and conversational questions are written only by a model",
        "aspects": "English aspects when a model writes the question; offline no out-of-scope question "
        "is written (no English question around text in another language)",
        "personas": "English",
        "refusals": "the phrases of every language that has them are tried, English first",
        "sentences": "English",
        "negations": "none: nothing is read as a negation (spaCy's stop words drop some, the rest count "
        "as content words)",
    },
)
