"""Wave sizing: after rejections the next wave drafts more, so a rejection seldom costs another round."""

from __future__ import annotations

import pytest

from groundset.synthesizers.scenarios import Scenario
from groundset.synthesizers.spread import ContextBudget, PassRates, take_waves


def queue(n: int) -> list[Scenario]:
    return [Scenario.model_construct(contexts=[f"context {i}"], nodes=[f"c{i}"]) for i in range(n)]


@pytest.mark.parametrize(("passed", "tried", "drafted"), [(0, 0, 4), (4, 4, 4), (3, 6, 8), (1, 10, 8)])
def test_a_wave_drafts_the_missing_count_over_the_pass_rate(passed, tried, drafted):
    rates = PassRates(1)
    for k in range(tried):
        rates.count(0, passed=k < passed)
    waves = take_waves("quota", [4], [0], [queue(20)], 4, ContextBudget(4), rates.expected())
    assert [len(wave) for _, wave in waves] == [drafted]  # at most twice the missing count


def test_fill_phases_are_not_oversized():
    rates = PassRates(1)
    rates.count(0, passed=False)
    waves = take_waves("fill", [4], [0], [queue(20)], 3, ContextBudget(50), rates.expected())
    assert [len(wave) for _, wave in waves] == [3]
