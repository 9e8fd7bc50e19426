"""Korean (ko): the words groundset has in Korean so far; ``falls_back`` says
how every other part is done without its words (mostly in English). Adding a part is adding its field."""

from __future__ import annotations

from .language import Language

LANGUAGE = Language(
    code="ko",
    name="Korean",
    refusal_form="문서에는 {missing}에 대한 내용이 없습니다.",
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
