"""Out-of-scope questions outside English: the offline question of an aspect in a language (its templates
sized and styled by that language's own rules), and what the check needs to read such text (articles,
Latin words inside CJK text). The aspects' words are in each language's module (``groundset.languages``):
templates hold {term}, a name of software bare, any other term quoted as the language quotes terms
(„Sonde“, « sonde », «sonda», 「ブロック」), so no template needs the article or gender a term does not tell.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from ....languages import LANGUAGES
from ....languages import wording as language_wording
from ....languages.aspects import AspectWording
from ....text.scripts import CJK
from ...questions.local import local_size, local_style, padded, tidy, too_long

__all__ = ["after_article", "latin_spaced", "local_draft"]


_CJK_LATIN = re.compile(rf"(?<=[{CJK}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{CJK}])")


def latin_spaced(text: str) -> str:
    """CJK text with its Latin words set off by spaces ("在Windows上" -> "在 Windows 上"), so that word
    boundaries find them."""
    return _CJK_LATIN.sub(" ", text)


def after_article(term: str, texts: Iterable[str], code: str) -> bool:
    """Whether some text writes ``term`` right after an article of language ``code`` (``noun_articles``: a
    noun there); True for a language whose nouns need no such sign (German capitalises them; CJK terms are
    checked apart)."""
    articles = LANGUAGES[code].noun_articles if code in LANGUAGES else ""
    if not articles:
        return True
    pattern = re.compile(rf"(?<!\w)(?:{articles}){re.escape(term)}(?!\w)", re.IGNORECASE)
    return any(pattern.search(text) for text in texts)


def local_draft(
    code: str, wording: AspectWording, term: str, *, persona: str = "", style: str, length: str, seed: int
) -> tuple[str, str, str]:
    """(question, missing clause, invented answer) in language ``code``: the question is one of the
    templates, sized (medium: "as the documentation says"; long: a role lead-in and a purpose) and styled
    as that language does it; web_search is the aspect's query."""
    words = language_wording(code)
    if words is None:
        raise ValueError(f"no offline wording for language {code!r}")

    def fill(template: str) -> str:
        return tidy(words, template.format(term=padded(words, term)))

    missing, candidate = fill(wording.missing), fill(wording.candidate)
    if style == "web_search":
        return " ".join(wording.search.format(term=term).split()).lower(), missing, candidate
    rng = random.Random(f"out_of_scope|{code}|{seed}|{term}")
    cores = [fill(template) for template in wording.questions]
    core = rng.choice(cores)
    if length == "short" and too_long(words, core):
        core = min(cores, key=len)
    question = local_size(words, core, length, persona=persona, seed=seed)
    return local_style(words, question, style, seed=seed, protect=[term]), missing, candidate
