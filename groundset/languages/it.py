"""Italian (it): the words groundset has in Italian so far; ``falls_back`` says
how every other part is done without its words (mostly in English). Adding a part is adding its field."""

from __future__ import annotations

from .language import ENGLISH_FALLBACKS, Language
from .words import word_set

LANGUAGE = Language(
    code="it",
    name="Italian",
    refusal_form="La documentazione non dice {missing}.",
    negations=word_set("non mai nessuno nessuna niente nulla senza né"),
    falls_back=ENGLISH_FALLBACKS,
)
