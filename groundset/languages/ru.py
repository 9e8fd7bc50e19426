"""Russian (ru): the words groundset has in Russian so far; ``falls_back`` says
how every other part is done without its words (mostly in English). Adding a part is adding its field."""

from __future__ import annotations

from .language import ENGLISH_FALLBACKS, Language

LANGUAGE = Language(
    code="ru",
    name="Russian",
    refusal_form="В документации не сказано, {missing}.",
    falls_back={
        **ENGLISH_FALLBACKS,
        "negations": "none: nothing is read as a negation (spaCy's stop words drop some, the rest count "
        "as content words)",
    },
)
