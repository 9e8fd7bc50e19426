"""What a period after a word means in a language: the abbreviations it never ends a sentence after, the
ones it ends a sentence after only before a capital, and the nouns a numbered period belongs to."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SentenceWords"]


@dataclass(frozen=True)
class SentenceWords:
    """What a period after a word means in one language."""

    abbreviations: frozenset[str]  # never sentence ends, whatever follows (lowercase, with the period)
    soft: frozenset[str]  # end a sentence only when the next word is capitalised ("etc. Then")
    ordinal_nouns: frozenset[str] = frozenset()  # "1. Januar", "19. Jahrhundert": a number, not an end
