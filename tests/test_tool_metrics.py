"""Tool-call accuracy and tool-call F1: hand-computed cases, alignment in and out of order, edge cases."""

from __future__ import annotations

import math
import random

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from groundset.core import ConfigError
from groundset.scoring import EvaluationDataset, MultiTurnSample, evaluate
from groundset.scoring.metrics.tools import (
    ToolCallAccuracy,
    ToolCallF1,
    canonical_json,
    exact_match,
    string_similarity,
)

SEARCH = {"name": "search_flights", "args": {"to": "OSL", "day": "fri"}}
WEATHER = {"name": "get_weather", "args": {"city": "Oslo"}}
BOOK = {"name": "book", "args": {"flight": "SK 123"}}
LOG = {"name": "log", "args": {}}


def sample(reference: list[dict] | None, *turns: list[dict]) -> MultiTurnSample:
    """A conversation whose AI messages make ``turns`` (one list of calls per AI message)."""
    messages: list = [HumanMessage("Get me to Oslo on Friday.")]
    number = 0
    for calls in turns:
        ids = [f"c{number + i}" for i in range(len(calls))]
        messages.append(AIMessage("", tool_calls=[{**c, "id": i} for c, i in zip(calls, ids, strict=True)]))
        messages += [ToolMessage("ok", tool_call_id=i) for i in ids]
        number += len(calls)
    messages.append(AIMessage("Done."))
    return MultiTurnSample(user_input=messages, reference_tool_calls=reference)


def accuracy(reference, *turns, **options) -> float:
    return ToolCallAccuracy(**options).score(sample(reference, *turns)).value


def f1(reference, *turns) -> float:
    return ToolCallF1().score(sample(reference, *turns)).value


def call(name: str, **args) -> dict:
    return {"name": name, "args": args}


# ToolCallAccuracy: score = sum of paired argument scores / max(reference calls, calls made).


@pytest.mark.parametrize("strict", [True, False])
def test_identical_calls_score_1_across_ai_messages(strict):
    assert accuracy([SEARCH, WEATHER, BOOK], [SEARCH, WEATHER], [BOOK], strict_order=strict) == 1.0
    assert f1([SEARCH, WEATHER, BOOK], [SEARCH, WEATHER], [BOOK]) == 1.0


def test_extra_and_missing_calls_cost_the_same_way():
    extra = ToolCallAccuracy().score(sample([SEARCH], [SEARCH, WEATHER]))
    assert extra.value == 0.5  # 1 / max(1, 2)
    assert extra.trace["extra"] == [1] and extra.trace["missing"] == []
    missing = ToolCallAccuracy().score(sample([SEARCH, WEATHER], [SEARCH]))
    assert missing.value == 0.5  # 1 / max(2, 1)
    assert missing.trace["missing"] == [1] and missing.trace["extra"] == []
    assert "1 of 2 reference calls matched in order by the 1 made" in missing.reason
    assert f1([SEARCH], [SEARCH, WEATHER]) == pytest.approx(2 / 3)  # 2 TP / (2 made + 1 reference)
    assert f1([SEARCH, WEATHER], [SEARCH]) == pytest.approx(2 / 3)


def test_wrong_order_costs_only_in_strict_mode():
    assert accuracy([SEARCH, BOOK], [BOOK, SEARCH]) == 0.5  # one call kept in order, of 2
    assert accuracy([SEARCH, BOOK], [BOOK, SEARCH], strict_order=False) == 1.0
    assert f1([SEARCH, BOOK], [BOOK, SEARCH]) == 1.0  # F1 ignores order
    # reference a b c, made a c b d: in order a-b (or a-c) = 2 pairs, in any order 3; max(3, 4) = 4
    assert accuracy([SEARCH, WEATHER, BOOK], [SEARCH, BOOK, WEATHER, LOG]) == 0.5
    assert accuracy([SEARCH, WEATHER, BOOK], [SEARCH, BOOK, WEATHER, LOG], strict_order=False) == 0.75


def test_argument_mismatch_scores_the_share_of_reference_arguments_matched():
    wrong_day = call("search_flights", to="OSL", day="sat")
    assert accuracy([SEARCH], [wrong_day]) == 0.5  # 1 of 2 arguments
    result = ToolCallAccuracy().score(sample([SEARCH], [call("search_flights", to="BGO")]))
    assert result.value == 0.0  # "to" wrong, "day" missing: a same-name pair that scores 0 still pairs
    assert result.trace["pairs"] == [{"reference": 0, "made": 0, "name": "search_flights", "arg_score": 0.0}]
    extra_argument = call("search_flights", to="OSL", day="fri", seat="aisle")
    assert accuracy([SEARCH], [extra_argument]) == 1.0  # arguments the reference does not name are free
    assert f1([SEARCH], [extra_argument]) == 0.0  # F1 compares whole calls
    assert accuracy([LOG], [call("log", level="debug")]) == 1.0  # a reference without arguments asks for none


def test_the_best_same_name_pairing_is_chosen():
    # reference a(x=1), made a(x=2), a(x=1): pairing the second call scores 1, not 0
    result = ToolCallAccuracy().score(sample([call("a", x=1)], [call("a", x=2), call("a", x=1)]))
    assert result.value == 0.5 and result.trace["pairs"][0]["made"] == 1
    # in order: reference a(x=1) log, made log a(x=1): either single pair gives 1 of 2
    assert accuracy([call("a", x=1), LOG], [LOG, call("a", x=1)]) == 0.5
    # partial pairs: reference a(x=1,y=1) a(x=2,y=2), made a(x=2,y=2) a(x=1,y=9); any order pairs crosswise
    reference = [call("a", x=1, y=1), call("a", x=2, y=2)]
    made = [call("a", x=2, y=2), call("a", x=1, y=9)]
    assert accuracy(reference, made) == pytest.approx(0.5)  # in order the best is a(2,2)-a(2,2) alone: 1 / 2
    assert accuracy(reference, made, strict_order=False) == pytest.approx(0.75)  # (1 + 0.5) / 2


def test_string_similarity_and_custom_comparisons():
    reference = [call("search_flights", to="Oslo", day="friday")]
    made = [call("search_flights", to="Olso", day=" Friday")]
    assert accuracy(reference, made) == 0.0
    assert accuracy(reference, made, arg_comparison="string_similarity") == pytest.approx((0.75 + 1.0) / 2)
    assert string_similarity("Oslo", "Olso") == pytest.approx(0.75)
    assert string_similarity(3, "3") == 1.0 and string_similarity("", "") == 1.0

    def same_letters(expected, actual):
        return 1.0 if str(expected).lower() == str(actual).lower() else 0.0

    assert accuracy([call("f", to="OSL")], [call("f", to="osl")], arg_comparison=same_letters) == 1.0
    with pytest.raises(
        ValueError, match=r"returned 2 for argument 'to' of 'f'; it must return a number in \[0, 1\]"
    ):
        accuracy([call("f", to="OSL")], [call("f", to="osl")], arg_comparison=lambda e, a: 2)
    with pytest.raises(ValueError, match="arg_comparison must be one of exact, string_similarity"):
        ToolCallAccuracy(arg_comparison="fuzzy")
    with pytest.raises(ValueError, match="strict_order must be true or false"):
        ToolCallAccuracy(strict_order="yes")


def test_exact_comparison_is_json_equality():
    assert exact_match(1, 1.0) == 1.0 and exact_match(True, 1) == 0.0 and exact_match("1", 1) == 0.0
    assert exact_match({"a": [1, {"b": 2}], "c": None}, {"c": None, "a": [1.0, {"b": 2}]}) == 1.0
    assert canonical_json({"b": 1, "a": (2.0, "é")}) == '{"a":[2,"é"],"b":1}'
    assert f1([call("f", a=1, b=[1, 2])], [call("f", b=[1.0, 2], a=1)]) == 1.0
    assert f1([call("f", a=[1, 2])], [call("f", a=[2, 1])]) == 0.0  # list order is data


def test_nothing_to_judge_is_nan_and_one_sided_calls_score_0():
    for metric in (ToolCallAccuracy(), ToolCallF1()):
        nothing = metric.score(sample([]))
        assert math.isnan(nothing.value) and "nothing to judge" in nothing.reason
        assert metric.score(sample([SEARCH])).value == 0.0  # calls expected, none made
        assert metric.score(sample([], [SEARCH])).value == 0.0  # none expected, one made
    none_made = ToolCallAccuracy().score(sample([SEARCH, WEATHER]))
    assert none_made.reason == "no tool call made; the reference expects 2"


def test_f1_counts_distinct_calls():
    result = ToolCallF1().score(sample([SEARCH, WEATHER], [SEARCH, SEARCH, BOOK]))
    # made {SEARCH, BOOK}, reference {SEARCH, WEATHER}: TP 1, precision 1/2, recall 1/2
    assert result.value == pytest.approx(0.5)
    assert result.trace["precision"] == 0.5 and result.trace["recall"] == 0.5
    assert result.trace["extra"] == ['book({"flight":"SK 123"})']
    assert result.trace["missing"] == ['get_weather({"city":"Oslo"})']
    assert ToolCallF1().score(sample([SEARCH])).trace["precision"] is None  # undefined, not 0
    assert accuracy([SEARCH], [SEARCH, SEARCH]) == 0.5  # accuracy counts the repeated call


def test_random_cases_stay_in_range_and_in_any_order_never_scores_lower():
    rng = random.Random(7)
    for _ in range(300):

        def calls(n: int) -> list[dict]:
            return [call(rng.choice("abc"), x=rng.randint(0, 2), y=rng.randint(0, 1)) for _ in range(n)]

        reference, made = calls(rng.randint(1, 5)), calls(rng.randint(1, 5))
        strict = accuracy(reference, made)
        loose = accuracy(reference, made, strict_order=False)
        assert 0.0 <= strict <= loose + 1e-9 <= 1.0 + 1e-9
        assert (strict == 1.0) == (reference == made)
        assert 0.0 <= f1(reference, made) <= 1.0


def test_evaluate_runs_them_offline_and_with_a_model_without_calling_it(stub, chat):
    rows = [
        {
            "user_input": sample(None, [SEARCH, BOOK]).to_dict()["user_input"],
            "reference_tool_calls": [SEARCH],
        },
        {"user_input": [{"role": "user", "content": "hi"}], "reference_tool_calls": []},
    ]
    dataset = EvaluationDataset.from_list(rows)
    metrics = [ToolCallAccuracy(), ToolCallF1()]
    offline = evaluate(dataset, metrics, show_progress=False)
    assert offline.scores("tool_call_accuracy")[0] == 0.5
    assert offline.scores("tool_call_f1")[0] == pytest.approx(2 / 3)
    assert all(math.isnan(offline.scores(name)[1]) for name in ("tool_call_accuracy", "tool_call_f1"))
    assert not offline.notes  # the same measure offline
    online = evaluate(dataset, metrics, llm=chat, show_progress=False)
    assert online.scores("tool_call_accuracy")[0] == 0.5 and stub.requests == []
    assert not ToolCallAccuracy.needs_llm and not ToolCallF1.needs_llm


def test_the_reference_calls_column_is_required():
    dataset = EvaluationDataset.from_list(
        [{"user_input": [{"role": "user", "content": "hi"}], "reference": "r"}]
    )
    with pytest.raises(ConfigError, match="metric tool_call_accuracy needs column 'reference_tool_calls'"):
        evaluate(dataset, [ToolCallAccuracy()], show_progress=False)


def test_single_turn_samples_are_refused_with_the_reason():
    single = EvaluationDataset.from_list([{"user_input": "q", "response": "a"}])
    with pytest.raises(
        ConfigError, match="metric tool_call_f1 scores conversations .* this dataset is single-turn"
    ):
        evaluate(single, [ToolCallF1()], show_progress=False)
    with pytest.raises(ValueError, match="tool_call_accuracy scores a MultiTurnSample, got SingleTurnSample"):
        ToolCallAccuracy().score(single[0])
