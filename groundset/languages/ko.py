"""Korean (ko): the words groundset has in Korean so far; ``falls_back`` says
how every other part is done without its words (mostly in English). Adding a part is adding its field."""

from __future__ import annotations

from .language import ENGLISH_FALLBACKS, Language

LANGUAGE = Language(
    code="ko",
    name="Korean",
    refusal_form="문서에는 {missing}에 대한 내용이 없습니다.",
    falls_back={
        **ENGLISH_FALLBACKS,
        "negations": "none: nothing is read as a negation (spaCy's stop words drop some, the rest count "
        "as content words)",
    },
)
