"""Every language's words, one module per language (``de``, ``fr``, ...), and the registry of what each
provides (``LANGUAGES``; the parts: ``PARTS``). A language module defines ``LANGUAGE``, a ``Language`` whose
parts are its question templates, out-of-scope aspects and refusal form, persona words, refusal phrases,
sentence abbreviations and negations; a part it leaves out is named in ``falls_back`` (English is used).
Adding a language is adding its module: every module here that defines ``LANGUAGE`` is registered.

English is the reference: its question words are the generator's answer patterns and templates (English
has answer-first facts), its persona words the role nouns of ``groundset.personas.roles``; the rest of its
words are in ``en``.
"""

from __future__ import annotations

import importlib
import pkgutil

from .language import PARTS, Language
from .questions import CASES, FORMS, Cues, QuestionWording

__all__ = [
    "CASES",
    "FORMS",
    "LANGUAGES",
    "PARTS",
    "WORDINGS",
    "Cues",
    "Language",
    "QuestionWording",
    "wording",
]

# The registry's order, and so the order a refusal is looked for in after the answer's own language: these
# first (the order they were added in), then any other language by code.
_FIRST = ("en", "zh", "ja", "de", "fr", "es")


def _registered() -> dict[str, Language]:
    found: dict[str, Language] = {}
    for module in pkgutil.iter_modules(__path__):
        language = getattr(importlib.import_module(f"{__name__}.{module.name}"), "LANGUAGE", None)
        if isinstance(language, Language):
            if language.code != module.name:
                raise ValueError(
                    f"groundset/languages/{module.name}.py defines language {language.code!r}: "
                    f"name the file {language.code}.py"
                )
            found[language.code] = language
    ranked = sorted(found, key=lambda code: (_FIRST.index(code) if code in _FIRST else len(_FIRST), code))
    return {code: found[code] for code in ranked}


LANGUAGES: dict[str, Language] = _registered()
# Languages with term-based offline question templates (English writes answer first from facts).
WORDINGS: dict[str, QuestionWording] = {
    code: language.questions for code, language in LANGUAGES.items() if language.questions is not None
}


def wording(code: str) -> QuestionWording | None:
    """The question wording of language ``code``; None for English and for languages without templates
    (those are written with the English templates offline)."""
    return WORDINGS.get(code)
