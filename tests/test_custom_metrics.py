"""Custom metrics: prompt templates, value checks and repairs, scoring of values, rankings, save/load,
and function metrics made with the decorators."""

from __future__ import annotations

import json
import math

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.core import ConfigError
from groundset.scoring import EvaluationDataset, EvaluationResult, SingleTurnSample, evaluate
from groundset.scoring.custom import DiscreteMetric, NumericMetric, RankingMetric, load_metric, value_scores
from groundset.scoring.custom_prompts import fill, template_fields
from groundset.scoring.decorators import discrete_metric, numeric_metric

from .openai_stub import Reply

SAMPLE = SingleTurnSample(
    user_input="What port does the node exporter use?",
    response="It listens on port 9100.",
    reference="The node exporter uses port 9100.",
    multi_responses=["Port 8080.", "Port 9100.", "The node exporter listens on 9100."],
)
PROMPT = "Does the answer {response} give the reference's port ({reference})? Say pass or fail."


def fake(*answers: dict | str) -> FakeListChatModel:
    return FakeListChatModel(responses=[a if isinstance(a, str) else json.dumps(a) for a in answers])


def choice(value: str, reason: str = "because") -> dict:
    return {"reason": reason, "value": value}


def sent_inputs(stub) -> list[dict]:
    found = []
    for request in stub.chat_requests:
        texts = [
            m["content"] for m in request.body["messages"] if str(m.get("content", "")).startswith("Input: ")
        ]
        found.append(json.loads(texts[0].removeprefix("Input: ")))
    return found


# -- templates ------------------------------------------------------------------------------


def test_placeholders_become_the_columns_and_are_filled_with_the_samples_text():
    metric = DiscreteMetric(name="port", prompt=PROMPT)
    assert metric.columns == ("response", "reference") and metric.required() == ["response", "reference"]
    contexts = SingleTurnSample(response="r", retrieved_contexts=["first", "second"])
    filled = fill(
        "Q: {response}\n{retrieved_contexts}",
        template_fields("{response}{retrieved_contexts}", "t"),
        contexts,
    )
    assert filled == "Q: r\n[1] first\n[2] second"


def test_braces_in_the_data_are_data_and_literal_braces_in_the_template_stay():
    tricky = SingleTurnSample(response="use {reference} or {0} or {response.__class__}", reference="ref")
    filled = fill("{{json}} {response} / {reference}", ("response", "reference"), tricky)
    assert filled == "{json} use {reference} or {0} or {response.__class__} / ref"


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("Is {answer} right?", r"placeholder 'answer' is not a sample field; valid fields: user_input, "),
        ("Is {respons} right?", r"did you mean 'response'\?"),
        ("Is {response.__class__} right?", r"placeholder \{response.__class__\} is not allowed"),
        ("Is {response[0]} right?", "is not allowed"),
        ("Is {} right?", "is not allowed"),
        ("Is {0} right?", "is not allowed"),
        ("Is {response!r} right?", "must be plain"),
        ("Is {response:>20} right?", "must be plain"),
        ("Is {response right?", "malformed"),
        ("Is it right?", "names no sample field"),
        ("  ", "non-empty template"),
    ],
)
def test_bad_templates_are_refused_at_construction(template, message):
    with pytest.raises(ConfigError, match=message):
        DiscreteMetric(name="m", prompt=template)


def test_every_sample_field_is_listed_for_an_unknown_placeholder():
    with pytest.raises(ConfigError) as caught:
        NumericMetric(name="m", prompt="{answer}")
    for field in ("user_input", "response", "reference", "retrieved_contexts", "multi_responses", "rubrics"):
        assert field in str(caught.value)
    assert "metadata" not in str(caught.value)


# -- DiscreteMetric ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("allowed", "expected"),
    [
        (["pass", "fail"], {"pass": 1.0, "fail": 0.0}),
        (["fail", "pass"], {"fail": 0.0, "pass": 1.0}),
        (["No", "Yes"], {"No": 0.0, "Yes": 1.0}),
        (["false", "true"], {"false": 0.0, "true": 1.0}),
        (["good", "ok", "bad"], {"good": 1.0, "ok": 0.5, "bad": 0.0}),
        (["a", "b", "c", "d", "e"], {"a": 1.0, "b": 0.75, "c": 0.5, "d": 0.25, "e": 0.0}),
    ],
)
def test_values_score_by_meaning_or_by_position(allowed, expected):
    assert value_scores(allowed, None, "m") == expected


def test_explicit_scores_win_and_must_cover_every_value():
    metric = DiscreteMetric(
        name="m", allowed_values=["ok", "bad"], prompt=PROMPT, scores={"ok": 0.8, "bad": 0.1}
    )
    assert metric.scores == {"ok": 0.8, "bad": 0.1}
    with pytest.raises(ConfigError, match="scores must give a number for each allowed value"):
        DiscreteMetric(name="m", allowed_values=["ok", "bad"], prompt=PROMPT, scores={"ok": 1})
    with pytest.raises(ConfigError, match="must be finite numbers"):
        DiscreteMetric(
            name="m", allowed_values=["ok", "bad"], prompt=PROMPT, scores={"ok": 1, "bad": math.nan}
        )


@pytest.mark.parametrize("allowed", [["pass"], "pass", ["pass", "Pass"], ["pass", ""], ["pass", 1]])
def test_bad_allowed_values_are_refused(allowed):
    with pytest.raises(ConfigError, match="allowed_values"):
        DiscreteMetric(name="m", allowed_values=allowed, prompt=PROMPT)


def test_a_discrete_verdict_through_the_stub(stub, chat):
    stub.always(Reply.json(choice("PASS ", "9100 matches")))
    result = DiscreteMetric(name="port", prompt=PROMPT, llm=chat).score(SAMPLE)
    assert result.value == 1.0 and result.reason == "pass: 9100 matches" and result.trace["value"] == "pass"
    (sent,) = sent_inputs(stub)
    assert sent["allowed_values"] == ["pass", "fail"]
    assert sent["task"] == PROMPT.format(response=SAMPLE.response, reference=SAMPLE.reference)


def test_a_value_not_allowed_gets_one_repair_then_nan(stub, chat):
    stub.push(Reply.json(choice("maybe")), Reply.json(choice("fail")))
    assert DiscreteMetric(name="port", prompt=PROMPT, llm=chat).score(SAMPLE).value == 0.0
    assert (
        "gave value 'maybe'; answer with exactly one of pass, fail"
        in stub.chat_requests[1].body["messages"][-1]["content"]
    )
    result = DiscreteMetric(
        name="port", prompt=PROMPT + " ", llm=fake(choice("maybe"), choice("perhaps"))
    ).score(SAMPLE)
    assert math.isnan(result.value) and "'perhaps'" in result.reason


def test_discrete_votes_tie_towards_the_lower_score():
    allowed = ["good", "ok", "bad"]
    answers = fake(choice("good"), choice("bad"), choice("ok"))
    result = DiscreteMetric(name="q", allowed_values=allowed, prompt=PROMPT, strictness=3, llm=answers).score(
        SAMPLE
    )
    assert result.trace["value"] == "bad" and result.value == 0.0
    majority = fake(choice("ok"), choice("good"), choice("ok"))
    result = DiscreteMetric(
        name="q", allowed_values=allowed, prompt=PROMPT, strictness=3, llm=majority
    ).score(SAMPLE)
    assert result.value == 0.5 and result.trace["agreement"] == pytest.approx(2 / 3)


def test_a_missing_placeholder_field_fails_before_any_call(stub, chat):
    metric = DiscreteMetric(name="port", prompt=PROMPT, llm=chat)
    with pytest.raises(ConfigError, match="metric port needs column 'reference'"):
        evaluate(EvaluationDataset([SingleTurnSample(response="9100")]), [metric], show_progress=False)
    assert stub.requests == []


# -- NumericMetric ---------------------------------------------------------------------------------


def test_a_number_in_range_is_kept_raw_and_one_outside_gets_a_repair(stub, chat):
    stub.push(Reply.json({"reason": "too high", "value": 12}), Reply.json({"reason": "ok", "value": 7.5}))
    metric = NumericMetric(name="detail", range=(1, 10), prompt="How detailed is {response}?", llm=chat)
    result = metric.score(SAMPLE)
    assert result.value == 7.5 and result.reason == "7.5 of 1-10: ok"
    assert (
        "gave 12.0; answer with a number from 1 to 10"
        in stub.chat_requests[1].body["messages"][-1]["content"]
    )
    assert sent_inputs(stub)[0]["lowest"] == 1 and metric.output_type == "continuous"


@pytest.mark.parametrize("bounds", [(1, 1), (2, 1), (0, math.inf), (0,), ("0", "1"), (False, 1)])
def test_a_bad_range_is_refused(bounds):
    with pytest.raises(ConfigError, match="range must be two finite numbers"):
        NumericMetric(name="m", range=bounds, prompt="{response}")


# -- RankingMetric ---------------------------------------------------------------------------------


def test_a_ranking_scores_the_pairs_kept_in_listed_order(stub, chat):
    stub.always(Reply.json({"reason": "3 is fullest, 1 is wrong", "ranking": [3, 2, 1]}))
    metric = RankingMetric(name="best", prompt="Rank the answers to {user_input} by correctness.", llm=chat)
    assert metric.columns == ("user_input", "multi_responses")
    result = metric.score(SAMPLE)
    assert result.value == 0.0 and result.trace == {"ranking": [3, 2, 1], "first_item_place": 3}
    (sent,) = sent_inputs(stub)
    assert sent["items"] == {"1": "Port 8080.", "2": "Port 9100.", "3": "The node exporter listens on 9100."}
    stub.always(Reply.json({"reason": "r", "ranking": [2, 1, 3]}))
    shuffled = RankingMetric(name="b2", prompt="Order them by length.", llm=chat).score(SAMPLE)
    assert shuffled.value == pytest.approx(2 / 3) and shuffled.trace["first_item_place"] == 2


def test_a_ranking_that_is_no_permutation_gets_a_repair_then_nan():
    metric = RankingMetric(
        name="best", prompt="Rank them.", llm=fake({"ranking": [1, 1, 2]}, {"ranking": [2, 3, 1]})
    )
    assert metric.score(SAMPLE).value == pytest.approx(1 / 3)
    broken = RankingMetric(
        name="best", prompt="Rank these.", llm=fake({"ranking": [1, 2]}, {"ranking": [1, 2, 3, 4]})
    )
    result = broken.score(SAMPLE)
    assert math.isnan(result.value) and "list each of the item numbers 1, 2, 3 once" in result.reason


def test_rankings_of_fewer_than_two_items_are_nan_and_bad_arguments_are_named():
    silent = FakeListChatModel(responses=[])
    one = SAMPLE.model_copy(update={"multi_responses": ["only"]})
    result = RankingMetric(name="r", prompt="Rank them.", llm=silent).score(one)
    assert math.isnan(result.value) and "1 item(s): nothing to rank" in result.reason
    contexts = RankingMetric(name="r", prompt="Rank them.", items="retrieved_contexts")
    assert contexts.required() == ["retrieved_contexts"]
    with pytest.raises(ConfigError, match="items must name a list field"):
        RankingMetric(name="r", prompt="Rank them.", items="response")
    with pytest.raises(ConfigError, match="'answers' is not a sample field"):
        RankingMetric(name="r", prompt="Rank them.", items="answers")
    with pytest.raises(ConfigError, match="strictness must be 1"):
        RankingMetric(name="r", prompt="Rank them.", strictness=3)


def test_prompt_metrics_are_nan_offline():
    metrics = [DiscreteMetric(name="d", prompt=PROMPT), NumericMetric(name="n", prompt="{response}")]
    metrics.append(RankingMetric(name="r", prompt="Rank them."))
    result = evaluate(EvaluationDataset([SAMPLE]), metrics, show_progress=False)
    for name in ("d", "n", "r"):
        assert (
            math.isnan(result.cells[0][name].value) and "needs an LLM judge" in result.cells[0][name].reason
        )
    assert DiscreteMetric.offline_summary() == "NaN (needs an LLM)"


# -- save and load ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "metric",
    [
        DiscreteMetric(name="d", allowed_values=["good", "ok", "bad"], prompt=PROMPT, strictness=3),
        NumericMetric(name="n", range=(1, 5), prompt="How clear is {response}?"),
        RankingMetric(name="r", prompt="Rank them for {user_input}.", items="retrieved_contexts"),
    ],
)
def test_prompt_metrics_round_trip_through_json(tmp_path, metric):
    path = metric.save(tmp_path / "sub" / "metric.json")
    saved = json.loads(path.read_text())
    assert saved["groundset_metric"] == 1 and saved["kind"] == metric.kind
    assert list(path.parent.iterdir()) == [path]  # no temp file left behind
    back = type(metric).load(path)
    assert type(back) is type(metric) and back.to_dict() == metric.to_dict()
    assert back.columns == metric.columns and load_metric(path).name == metric.name


def test_a_loaded_metric_takes_the_model_and_judges(tmp_path, stub, chat):
    DiscreteMetric(name="port", prompt=PROMPT).save(tmp_path / "m.json")
    stub.always(Reply.json(choice("fail")))
    assert load_metric(tmp_path / "m.json", llm=chat).score(SAMPLE).value == 0.0


def _write(tmp_path, content) -> str:
    path = tmp_path / "m.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


GOOD = {
    "groundset_metric": 1,
    "kind": "discrete",
    "name": "d",
    "prompt": PROMPT,
    "allowed_values": ["pass", "fail"],
}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a metric file"),
        ({"kind": "discrete"}, "no 'groundset_metric' field"),
        ({**GOOD, "groundset_metric": 2}, "field 'groundset_metric' is 2; this groundset reads format 1"),
        ({**GOOD, "kind": "fancy"}, "field 'kind' must be one of discrete, numeric, ranking"),
        ({**GOOD, "range": [0, 1]}, "unknown field\\(s\\) 'range' for kind 'discrete'"),
        ({k: v for k, v in GOOD.items() if k != "prompt"}, "field 'prompt' is missing"),
        ({**GOOD, "allowed_values": "pass"}, "allowed_values must be a list"),
        ({**GOOD, "name": "two words"}, "name must start with a letter"),
        ({**GOOD, "prompt": "{answer}"}, "placeholder 'answer' is not a sample field"),
        ({**GOOD, "strictness": 2}, "strictness must be an odd number"),
    ],
)
def test_loading_a_broken_file_names_the_file_and_the_field(tmp_path, content, message):
    path = _write(tmp_path, content)
    with pytest.raises(ConfigError, match=message) as caught:
        load_metric(path)
    assert str(caught.value).startswith(path)


def test_loading_the_wrong_kind_or_no_file_is_refused(tmp_path):
    NumericMetric(name="n", prompt="{response}").save(tmp_path / "n.json")
    with pytest.raises(ConfigError, match="field 'kind' is 'numeric', not 'discrete'"):
        DiscreteMetric.load(tmp_path / "n.json")
    with pytest.raises(ConfigError, match="no such metric file"):
        load_metric(tmp_path / "absent.json")


# -- decorators ------------------------------------------------------------------------------------


@numeric_metric(range=(0, 1))
def length_ratio(response: str, reference: str) -> float:
    return min(len(response), len(reference)) / max(len(response), len(reference), 1)


@discrete_metric(name="says_port", allowed_values=["yes", "no"])
async def says_port(response: str, user_input: str = "") -> tuple[str, str]:
    return ("yes" if "9100" in response else "no"), f"question was {user_input!r}"


def test_function_metrics_take_their_fields_from_the_signature():
    assert length_ratio.name == "length_ratio" and length_ratio.columns == ("response", "reference")
    assert says_port.required() == ["response"] and says_port.optional() == ["user_input"]
    assert length_ratio.runs_offline and not length_ratio.needs_llm
    assert length_ratio.score(SAMPLE).value == pytest.approx(len(SAMPLE.response) / len(SAMPLE.reference))
    result = says_port.score(SAMPLE)
    assert result.value == 1.0 and result.trace == {"value": "yes"} and "node exporter" in result.reason
    bare = says_port.score(SingleTurnSample(response="no port"))  # the default stands in for the field
    assert bare.value == 0.0 and bare.reason == "question was ''"


def test_function_metrics_run_in_evaluate_offline_and_round_trip(tmp_path):
    rows = [SAMPLE, SAMPLE.model_copy(update={"response": "Port 80."})]
    result = evaluate(EvaluationDataset(rows), [length_ratio, says_port], show_progress=False)
    assert result.scores("says_port") == [1.0, 0.0] and result.notes == {}
    result.to_jsonl(tmp_path / "run.jsonl")
    assert EvaluationResult.load(tmp_path / "run.jsonl").scores("says_port") == [1.0, 0.0]
    with pytest.raises(ConfigError, match="metric length_ratio needs column 'reference'"):
        evaluate(EvaluationDataset([SingleTurnSample(response="x")]), [length_ratio], show_progress=False)


def test_outputs_outside_the_allowed_values_or_range_are_nan_with_the_reason():
    cases = {
        numeric_metric(lambda response: 1.5, name="high"): "returned 1.5, outside the range 0-1",
        numeric_metric(lambda response: "0.5", name="text"): "returned '0.5', not a number",
        numeric_metric(lambda response: True, name="flag"): "returned True, not a number",
        numeric_metric(lambda response: math.nan, name="nan"): "the function returned NaN",
        discrete_metric(
            lambda response: "maybe", name="maybe"
        ): "returned 'maybe', not one of ['pass', 'fail']",
        discrete_metric(lambda response: True, name="bool"): "returned True, not one of",
    }
    for metric, message in cases.items():
        result = metric.score(SAMPLE)
        assert math.isnan(result.value) and message in result.reason, metric.name
    assert discrete_metric(lambda response: "PASS", name="upper").score(SAMPLE).value == 1.0


def test_bad_function_signatures_are_refused_listing_the_fields():
    with pytest.raises(
        ConfigError, match=r"parameter 'answer' is not a sample field.*valid fields: user_input"
    ):
        numeric_metric(lambda answer: 0.0, name="m")
    with pytest.raises(ConfigError, match="did you mean 'reference'"):
        numeric_metric(lambda refrence: 0.0, name="m")
    with pytest.raises(ConfigError, match=r"no \*args, \*\*kwargs"):
        numeric_metric(lambda **fields: 0.0, name="m")
    with pytest.raises(ConfigError, match="takes no sample field"):
        numeric_metric(lambda: 0.0, name="m")
    with pytest.raises(ConfigError, match="cannot name a metric; pass name="):
        numeric_metric(lambda response: 0.0)
    with pytest.raises(ConfigError, match="range must be two finite numbers"):
        numeric_metric(range=(1, 0))(length_ratio.function)


def test_a_bare_decorator_uses_pass_fail_and_an_exception_is_the_cells_error():
    @discrete_metric
    def has_port(response: str) -> str:
        if not response:
            raise RuntimeError("boom")
        return "pass" if "9100" in response else "fail"

    assert has_port.allowed_values == ["pass", "fail"] and has_port.score(SAMPLE).value == 1.0
    result = evaluate(EvaluationDataset([SingleTurnSample(response="")]), [has_port], show_progress=False)
    assert (
        math.isnan(result.scores("has_port")[0]) and "RuntimeError: boom" in result.cells[0]["has_port"].error
    )


def test_the_schema_sent_to_the_judge_carries_the_allowed_answers():
    """A server that follows JSON schemas (like ../shared/tools/mockllm) then cannot answer out of range."""
    from groundset.scoring.custom_prompts import (
        ChoicePrompt,
        ChoiceTask,
        NumberPrompt,
        NumberTask,
        RankingPrompt,
        RankingTask,
    )

    choice = ChoicePrompt().output_model_for(ChoiceTask(task="t", allowed_values=["pass", "fail"]))
    assert choice.model_json_schema()["properties"]["value"]["enum"] == ["pass", "fail"]
    assert choice.model_validate({"value": "PASS "}).value == "PASS "  # still read leniently, then matched
    number = NumberPrompt().output_model_for(NumberTask(task="t", lowest=1, highest=10))
    assert {k: number.model_json_schema()["properties"]["value"][k] for k in ("minimum", "maximum")} == {
        "minimum": 1,
        "maximum": 10,
    }
    ranking = RankingPrompt().output_model_for(RankingTask(task="t", items={"1": "a", "2": "b", "3": "c"}))
    schema = ranking.model_json_schema()["properties"]["ranking"]
    assert (schema["minItems"], schema["maxItems"], schema["uniqueItems"], schema["items"]["enum"]) == (
        3,
        3,
        True,
        [1, 2, 3],
    )
