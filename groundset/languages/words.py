"""How word lists are written down in the language modules: one string, words separated by spaces."""

from __future__ import annotations

__all__ = ["word_set"]


def word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())
