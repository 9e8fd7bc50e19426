"""How many drafts are kept under way: after rejections more, so a rejection seldom costs another round."""

from __future__ import annotations

import pytest

from groundset.synthesizers.scenarios.scenario import Scenario
from groundset.synthesizers.scenarios.spread import ContextBudget, PassRates, drafts_for, take_waves


def queue(n: int) -> list[Scenario]:
    return [Scenario.model_construct(contexts=[f"context {i}"], nodes=[f"c{i}"]) for i in range(n)]


@pytest.mark.parametrize(("passed", "tried", "drafted"), [(0, 0, 4), (4, 4, 4), (3, 6, 11), (1, 10, 12)])
def test_a_wave_drafts_the_missing_count_over_the_pass_rate(passed, tried, drafted):
    rates = PassRates(1)
    for k in range(tried):
        rates.count(0, passed=k < passed)
    waves = take_waves("quota", [4], [0], [0], [queue(20)], 4, ContextBudget(4), rates.expected())
    assert [len(wave) for _, wave in waves] == [drafted]  # at most three times the missing count


def test_one_early_rejection_does_not_read_as_a_zero_pass_rate():
    rates = PassRates(2)
    rates.count(0, passed=False)
    assert 0.5 < rates.expected()[0] < 1.0 and rates.expected()[1] == 1.0


def test_drafts_under_way_count_with_the_margin():
    rates = PassRates(1)
    for k in range(8):
        rates.count(0, passed=k % 2 == 0)  # 4 of 8 passed: rate (4 + 2) / (8 + 2)
    wanted = drafts_for(4, 0.6)
    for under_way in (0, 3, wanted, wanted + 2):
        waves = take_waves(
            "quota", [5], [1], [under_way], [queue(40)], 5, ContextBudget(50), rates.expected()
        )
        assert sum(len(w) for _, w in waves) == max(0, wanted - under_way)


def test_fill_phases_draft_for_the_pass_rate_too():
    rates = PassRates(1)
    rates.count(0, passed=False)
    waves = take_waves("fill", [4], [0], [0], [queue(20)], 3, ContextBudget(50), rates.expected())
    assert [len(wave) for _, wave in waves] == [drafts_for(3, 2 / 3)] == [8]


@pytest.mark.parametrize("missing", [1, 2, 5, 30, 100])
@pytest.mark.parametrize("rate", [0.05, 0.4, 0.5, 0.75, 0.9, 1.0])
def test_drafts_cover_the_expected_passes_with_a_margin(missing, rate):
    drafts = drafts_for(missing, rate)
    assert missing <= drafts <= 3 * missing
    assert drafts == missing if rate == 1.0 else drafts > missing
    if rate >= 0.5:  # the expected passes exceed what is missing: another round is unlikely
        assert drafts * rate >= missing
