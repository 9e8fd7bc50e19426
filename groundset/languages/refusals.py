"""How a language says it cannot answer: the refusal claims the refusal metrics look for, and the marks
that put a match in a clause about something else (``groundset.scoring.metrics.refusal_phrases`` compiles
and applies them; held here as words, so reading a language costs no regex compilation)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["RefusalWords", "refusal_words"]


@dataclass(frozen=True)
class RefusalWords:
    """One language's refusal claims (regular expressions, any of which is one), and the marks that put a
    match in a clause about something else: ``subordinate`` searched in its clause before it, ``dangling``
    matched right after it. ``cue`` is a negation every claim holds: sentences without one are skipped
    unread (a long answer stays cheap). Claims, cue and guess are matched case-insensitively."""

    claims: tuple[str, ...]
    cue: str
    subordinate: re.Pattern[str]
    dangling: re.Pattern[str] | None = None
    set_phrases: re.Pattern[str] | None = None  # removed before the subordinate check
    guess: str = ""  # after a refusal, a guess that still supplies the asked fact


def refusal_words(
    found: list[str], cue: str, subordinate: re.Pattern[str], *, guess: str = "", **marks: re.Pattern[str]
) -> RefusalWords:
    return RefusalWords(tuple(found), cue, subordinate, guess=guess, **marks)
