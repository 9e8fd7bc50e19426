"""How a language says it cannot answer: the refusal claims the refusal metrics look for, and the marks
that put a match in a clause about something else (see ``groundset.scoring.metrics.refusal_phrases``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["RefusalWords", "refusal_words"]


@dataclass(frozen=True)
class RefusalWords:
    """One language's refusal claims, and the marks that put a match in a clause about something else:
    ``subordinate`` searched in its clause before it, ``dangling`` matched right after it. ``cue`` is a
    negation every claim holds: sentences without one are skipped unread (a long answer stays cheap)."""

    claims: re.Pattern[str]
    cue: re.Pattern[str]
    subordinate: re.Pattern[str]
    dangling: re.Pattern[str] | None = None
    set_phrases: re.Pattern[str] | None = None  # removed before the subordinate check
    guess: str = ""  # after a refusal, a guess that still supplies the asked fact (a regular expression)


def refusal_words(
    found: list[str], cue: str, subordinate: re.Pattern[str], *, guess: str = "", **marks: re.Pattern[str]
) -> RefusalWords:
    claims = re.compile("|".join(found), re.IGNORECASE)
    return RefusalWords(claims, re.compile(cue, re.IGNORECASE), subordinate, guess=guess, **marks)
