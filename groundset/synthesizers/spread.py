"""Spread: no context backs many samples, so a test set covers the corpus instead of one page.

In a test set of up to 100 samples a context backs at most 2 samples (proportionally more for a
larger set). Only when the corpus runs out of other scenarios does the generator relax the limit,
and it says so in the test set's notes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from ..core.hashing import stable_hash

__all__ = ["ContextBudget"]

PER_HUNDRED = 2


class ContextBudget:
    """Counts how many drafted or kept samples each context backs, by its text: a page copied into
    two files is one context to a reader."""

    def __init__(self, size: int) -> None:
        self.cap = max(PER_HUNDRED, math.ceil(PER_HUNDRED * size / 100))
        self.relaxed = False
        self._used: Counter[str] = Counter()

    def take(self, contexts: Sequence[str]) -> bool:
        """Reserve ``contexts`` for one sample; False (and nothing reserved) when one is used up."""
        keys = _keys(contexts)
        if not self.relaxed and any(self._used[key] >= self.cap for key in keys):
            return False
        self._used.update(keys)
        return True

    def give_back(self, contexts: Sequence[str]) -> None:
        """The sample was not kept: its contexts are free again."""
        for key in _keys(contexts):
            if self._used[key] > 0:
                self._used[key] -= 1

    def overused(self) -> int:
        """How many contexts back more samples than ``cap`` (only after a relaxed round)."""
        return sum(1 for count in self._used.values() if count > self.cap)


def _keys(contexts: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(stable_hash(" ".join(text.split()).casefold(), length=16) for text in contexts))
