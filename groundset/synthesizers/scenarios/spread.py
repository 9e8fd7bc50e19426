"""Spread: no context backs many samples, so a test set covers the corpus instead of one page.

In a test set of up to 100 samples a context backs at most 2 samples (proportionally more for a
larger set). Only when the corpus runs out of other scenarios does the generator relax the limit,
and it says so in the test set's notes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from ...core.hashing import stable_hash
from .scenario import Scenario

__all__ = ["ContextBudget", "PassRates", "drafts_for", "preferred_first", "take_waves"]

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

    def reserve(self, contexts: Sequence[str]) -> None:
        """Count ``contexts`` as backing one more sample, whatever the cap (a sample kept from before)."""
        self._used.update(_keys(contexts))

    def give_back(self, contexts: Sequence[str]) -> None:
        """The sample was not kept: its contexts are free again."""
        for key in _keys(contexts):
            if self._used[key] > 0:
                self._used[key] -= 1

    def overused(self) -> int:
        """How many contexts back more samples than ``cap`` (only after a relaxed round)."""
        return sum(1 for count in self._used.values() if count > self.cap)


PRIOR_DRAWS = 2


class PassRates:
    """The share of each synthesizer's drafts that passed the gate so far, for deciding how many to draft.
    At first exactly what is missing is drafted (no surplus when every draft passes); after rejections,
    more. Counted from results, not timing: the same inputs draft the same scenarios."""

    def __init__(self, synthesizers: int) -> None:
        self._prior = [1.0] * synthesizers
        self._tried = [0] * len(self._prior)
        self._passed = [0] * len(self._prior)

    def count(self, index: int, *, passed: bool) -> None:
        self._tried[index] += 1
        self._passed[index] += passed

    def judged(self, index: int) -> tuple[int, int]:
        """(drafts judged, drafts passed) of synthesizer ``index``."""
        return self._tried[index], self._passed[index]

    def expected(self) -> list[float]:
        """Each synthesizer's pass rate, with ``PRIOR_DRAWS`` imagined drafts at the prior: the first
        results, decided one at a time, then move it gradually (one early rejection is not a 0% rate)."""
        seen = zip(self._passed, self._tried, self._prior, strict=True)
        return [(passed + PRIOR_DRAWS * p) / (tried + PRIOR_DRAWS) for passed, tried, p in seen]


def _keys(contexts: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(stable_hash(" ".join(text.split()).casefold(), length=16) for text in contexts))


def take_waves(
    phase: str,
    counts: list[int],
    kept: Sequence[int],
    pending: Sequence[int],
    queues: list[list[Scenario]],
    size: int,
    budget: ContextBudget,
    rates: Sequence[float] | None = None,
) -> list[tuple[int, list[Scenario]]]:
    """The next scenarios to draft per synthesizer, for its missing count ("quota": its share less the
    samples it ``kept``) or for what the test set still misses ("fill", "reuse"); a scenario whose
    contexts already back their share of samples waits (see ``ContextBudget``). ``rates``: the share of
    each synthesizer's drafts expected to pass the gate; enough drafts are kept under way (``pending``
    counts those already are) to cover the missing count at that rate with a margin (``drafts_for``), so a
    rejection seldom costs another round trip."""
    waves: list[tuple[int, list[Scenario]]] = []
    room = size - sum(kept)
    under_way = sum(pending)
    if phase != "quota" and room <= 0:
        return []
    for i, queue in enumerate(queues):
        missing = counts[i] - kept[i] if phase == "quota" else room
        if missing <= 0 or not queue:
            continue
        wanted = drafts_for(missing, rates[i]) if rates is not None else missing
        need = wanted - (pending[i] if phase == "quota" else under_way)
        if need <= 0:
            continue
        taken: list[Scenario] = []
        waiting: list[Scenario] = []
        for scenario in queue:
            if len(taken) < need and budget.take(scenario.contexts):
                taken.append(scenario)
            else:
                waiting.append(scenario)
        queue[:] = waiting
        if taken:
            waves.append((i, taken))
            under_way += len(taken)
    return waves


def drafts_for(missing: int, rate: float) -> int:
    """How many drafts give ``missing`` passing samples with little chance of another round, at pass rate
    ``rate``: the expected count plus two binomial standard deviations (a round trip saved costs more
    wall time than the few surplus drafts cost calls), at most three times ``missing``. Exact at 1.0."""
    rate = min(max(rate, 1 / 3), 1.0)
    margin = 2 * math.sqrt(missing * (1 - rate))
    return min(3 * missing, math.ceil((missing + margin) / rate - 1e-9))


def preferred_first(
    found: list[Scenario], wanted: int, prefer: set[str], asked: set[tuple[tuple[str, ...], tuple[str, ...]]]
) -> list[Scenario]:
    """Scenarios an ``existing`` sample was written from go (asking again makes a duplicate); those on a
    preferred chunk come first, then up to ``wanted`` others, each group in its seeded order."""
    fresh = [s for s in found if (tuple(s.nodes), tuple(s.terms)) not in asked]
    if not prefer:
        return fresh[:wanted]
    first = [s for s in fresh if prefer.intersection(s.nodes)]
    return first + [s for s in fresh if not prefer.intersection(s.nodes)][:wanted]
