"""Italian (it): the words groundset has in Italian so far; ``falls_back`` says
how every other part is done without its words (mostly in English). Adding a part is adding its field."""

from __future__ import annotations

from .language import Language
from .words import word_set

LANGUAGE = Language(
    code="it",
    name="Italian",
    refusal_form="La documentazione non dice {missing}.",
    negations=word_set("non mai nessuno nessuna niente nulla senza né"),
    falls_back={
        "noun_articles": "none: every term is taken as a noun",
        "questions": "English templates for single-hop, multi-hop and situational questions offline; "
        "comparative, double and conversational questions are written only by a model",
        "aspects": "English aspects when a model writes the question; offline no out-of-scope question "
        "is written (no English question around text in another language)",
        "personas": "English",
        "refusals": "the phrases of every language that has them are tried, English first",
        "sentences": "English",
    },
)
