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
        "elision": "none: the language shortens no word before a term",
        "questions": "English",
        "aspects": "English",
        "personas": "English",
        "refusals": "English",
        "sentences": "English",
        "negations": "none beyond spaCy's stop words: a negation is read as any other word",
    },
)
