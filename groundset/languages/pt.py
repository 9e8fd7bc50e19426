"""Portuguese (pt): the words groundset has in Portuguese so far; ``falls_back`` says
how every other part is done without its words (mostly in English). Adding a part is adding its field."""

from __future__ import annotations

from .language import ENGLISH_FALLBACKS, Language
from .words import word_set

LANGUAGE = Language(
    code="pt",
    name="Portuguese",
    refusal_form="A documentação não diz {missing}.",
    negations=word_set("não nunca jamais nenhum nenhuma nada ninguém sem nem"),
    falls_back=ENGLISH_FALLBACKS,
)
