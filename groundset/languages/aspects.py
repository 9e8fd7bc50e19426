"""Out-of-scope aspects: things users ask about a tool or a concept that technical documentation rarely
states (a licence price, a Windows installer, who created it), and how each language words them. Each
language module holds its table (``ASPECTS``); the out-of-scope kind fills the templates."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Aspect", "AspectWording", "cjk_words", "latin_words"]


@dataclass(frozen=True)
class AspectWording:
    """How one aspect is asked, declined and answered (made up) in one language."""

    questions: tuple[str, ...]  # templates: {term}; English also {a_term}, {be}/{Be}, {do}/{Do}
    missing: str  # completes a refusal form: "how much a commercial licence for {term} costs"
    candidate: str  # an answer an assistant might invent
    search: str = ""  # outside English: the web_search query ("{term} lizenz preis")


@dataclass(frozen=True)
class Aspect:
    """Something users ask about a tool or a concept that technical documentation rarely states."""

    key: str
    topic: str  # what it asks, in the table's language (an offline sample names it among its terms)
    answered_by: re.Pattern[str]  # words showing that a passage about the term answers it
    tool: AspectWording | None = None  # for a named piece of software ("Alertmanager")
    concept: AspectWording | None = (
        None  # for anything ("native histograms"); tools too, when no tool wording
    )

    def wording(self, tool: bool) -> AspectWording | None:
        return (self.tool or self.concept) if tool else self.concept


def latin_words(pattern: str) -> re.Pattern[str]:
    """Whole words of a spaced language; ``\\w*`` in an entry reaches into compounds ("Lizenzkosten")."""
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


def cjk_words(pattern: str) -> re.Pattern[str]:
    """Words of Chinese or Japanese text, which has no spaces to bound them."""
    return re.compile(pattern, re.IGNORECASE)
