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
        "elision": "none: the language shortens no word before a term",
        "questions": "English",
        "aspects": "English",
        "personas": "English",
        "refusals": "English",
        "sentences": "English",
    },
)
