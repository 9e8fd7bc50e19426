"""Dutch (nl): the words groundset has in Dutch so far; ``falls_back`` says
how every other part is done without its words (mostly in English). Adding a part is adding its field."""

from __future__ import annotations

from .language import ENGLISH_FALLBACKS, Language
from .words import word_set

LANGUAGE = Language(
    code="nl",
    name="Dutch",
    refusal_form="De documentatie zegt niet {missing}.",
    negations=word_set("niet geen nooit niets niemand zonder noch"),
    falls_back=ENGLISH_FALLBACKS,
)
