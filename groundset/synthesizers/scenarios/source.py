"""Where a synthesizer's scenarios come from, and more of them when the first ones run out.

The generator first finds a few times as many scenarios per synthesizer as it needs. A strict gate (or
a sloppy model) can reject so many drafts that a queue runs dry while samples are still missing, though
a large corpus has plenty more to ask about: the source then looks further along the same seeded order,
twice as far each time, for scenarios not tried yet. The same seed finds the same scenarios in the same
order, so a rerun asks the same questions (and finds them in the cache).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass, field

from ...kg.graph import KnowledgeGraph
from ..base import Synthesizer
from .scenario import PersonaPool, Scenario
from .spread import preferred_first

__all__ = ["PREFER_LOOKAHEAD", "ScenarioSource"]

PREFER_LOOKAHEAD = 20_000  # with ``prefer``: how many scenarios to look through for preferred ones
Key = tuple[tuple[str, ...], tuple[str, ...]]


@dataclass
class ScenarioSource:
    """One synthesizer's scenarios in its seeded order; ``more()`` gives the next untried ones."""

    synthesizer: Synthesizer
    kg: KnowledgeGraph
    personas: PersonaPool
    seed: str
    language: str | None = None  # the language every scenario is written in (None: its chunks')
    looked: int = 0  # how far along the order the scenarios so far were found
    exhausted: bool = False  # the corpus has no further scenario for this synthesizer
    tried: set[Key] = field(default_factory=set)  # asked before (existing samples) or handed out
    found: int = 0  # the most scenarios one search found: all the corpus has, once ``exhausted``

    def first(self, wanted: int, asked: Collection[Key] = (), prefer: Collection[str] = ()) -> list[Scenario]:
        """Up to ``wanted`` scenarios, those of ``asked`` (existing samples) left out, and every one on a
        ``prefer`` chunk among the first ``PREFER_LOOKAHEAD`` put first (see ``preferred_first``)."""
        self.tried.update(asked)
        if not wanted:
            self.exhausted = True
            return []
        # look past the scenarios of existing samples (one seed finds them again) and for preferred ones
        look = max(wanted + len(asked), PREFER_LOOKAHEAD if prefer else 0)
        found = self._find(look)
        queue = preferred_first(found, wanted, set(prefer), set(asked))
        self.tried.update(key(s) for s in queue)
        return queue

    def more(self) -> list[Scenario]:
        """The scenarios not tried yet among the next stretch of the order (as long as all before it),
        or [] once the corpus has no more."""
        while not self.exhausted:
            found = self._find(2 * self.looked)
            new = [s for s in found if key(s) not in self.tried]
            if new:
                self.tried.update(key(s) for s in new)
                return new
        return []

    def _find(self, n: int) -> list[Scenario]:
        rng = random.Random(self.seed)  # the same order every time: a longer search extends a shorter one
        found = self.synthesizer.scenarios(self.kg, n, self.personas, rng)
        self.looked, self.exhausted = n, len(found) < n
        self.found = max(self.found, len(found))
        for scenario in found if self.language else ():  # a synthesizer given without the language
            scenario.language = self.language
        return found


def key(scenario: Scenario) -> Key:
    """What makes two scenarios the same question: their chunks and terms."""
    return tuple(scenario.nodes), tuple(scenario.terms)
