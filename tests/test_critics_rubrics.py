"""Aspect critics, criteria scores and rubrics: instance names, votes, repairs, NaN, offline, the stub."""

from __future__ import annotations

import json
import math

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.core import ConfigError
from groundset.scoring import EvaluationDataset, EvaluationResult, SingleTurnSample, evaluate
from groundset.scoring.metrics.critics import (
    PREDEFINED_ASPECTS,
    AspectCritic,
    Coherence,
    Harmfulness,
    Maliciousness,
)
from groundset.scoring.metrics.rubrics import (
    REFERENCE_BASED_RUBRIC,
    REFERENCE_FREE_RUBRIC,
    InstanceRubrics,
    RubricsScore,
    SimpleCriteriaScore,
    parse_rubric,
)

from .openai_stub import Reply

SAMPLE = SingleTurnSample(
    user_input="Which release added native histograms?",
    response="Native histograms came with release 2.40.",
    retrieved_contexts=["Release 2.40 added experimental native histograms."],
    reference="Release 2.40.",
)
BARE = SingleTurnSample(user_input="Which release added native histograms?", response="Release 2.40 did.")
VERSION = "Does the response name a version number?"


def fake(*answers: dict | str) -> FakeListChatModel:
    return FakeListChatModel(responses=[a if isinstance(a, str) else json.dumps(a) for a in answers])


def verdict(value: bool, reason: str = "because") -> dict:
    return {"reason": reason, "verdict": value}


def score(value: int, reason: str = "because") -> dict:
    return {"reason": reason, "score": value}


def judge_inputs(stub) -> list[dict]:
    """The judge input of each chat request (its first message that carries one)."""
    found = []
    for request in stub.chat_requests:
        texts = [
            m["content"] for m in request.body["messages"] if str(m.get("content", "")).startswith("Input: ")
        ]
        found.append(json.loads(texts[0].removeprefix("Input: ")))
    return found


# -- AspectCritic: names ---------------------------------------------------------------


def test_a_critic_takes_the_users_name_and_several_run_together(tmp_path):
    version = AspectCritic(name="mentions_version", definition=VERSION, llm=fake(verdict(True)))
    polite = AspectCritic(name="polite", definition="Is the response polite?", llm=fake(verdict(False)))
    assert (version.name, polite.name, AspectCritic.name) == ("mentions_version", "polite", "aspect_critic")
    assert (
        version.stage == "metric.mentions_version"
        and repr(version) == "AspectCritic(name='mentions_version')"
    )
    result = evaluate(EvaluationDataset([SAMPLE]), [version, polite], show_progress=False, cache=False)
    assert result.metrics == ["mentions_version", "polite"]
    assert result.scores("mentions_version") == [1.0] and result.scores("polite") == [0.0]
    assert set(result.usage) == {"mentions_version", "polite"}
    result.to_jsonl(tmp_path / "run.jsonl")
    back = EvaluationResult.load(tmp_path / "run.jsonl")
    assert back.metrics == ["mentions_version", "polite"] and back.cells[0]["polite"].value == 0.0
    assert back.cells[0]["mentions_version"].trace["verdict"] is True


def test_two_critics_with_one_name_are_refused():
    twins = [AspectCritic(name="polite", definition="Is it polite?") for _ in range(2)]
    with pytest.raises(ValueError, match="unique.*polite"):
        evaluate(EvaluationDataset([SAMPLE]), twins, show_progress=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "needs name= and definition="),
        ({"name": "has space", "definition": VERSION}, "name must start with a letter"),
        ({"name": "", "definition": VERSION}, "name must start with a letter"),
        ({"name": "ok", "definition": "  "}, "definition must be a non-empty question"),
        ({"name": "ok"}, "definition must be a non-empty question"),
        ({"name": "ok", "definition": VERSION, "strictness": 2}, "metric ok: strictness must be an odd"),
    ],
)
def test_bad_critic_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        AspectCritic(**kwargs)


# -- AspectCritic: judging -------------------------------------------------------------


def test_a_verdict_through_the_stub_carries_the_sample_and_the_definition(stub, chat):
    stub.always(Reply.json(verdict(True, "It names 2.40.")))
    result = AspectCritic(name="mentions_version", definition=VERSION, llm=chat).score(SAMPLE)
    assert result.value == 1.0 and result.reason == "yes: It names 2.40."
    assert result.trace["agreement"] == 1.0 and result.trace["votes"] == [True]
    (sent,) = judge_inputs(stub)
    assert sent["criterion"] == VERSION and sent["response"] == SAMPLE.response
    assert sent["contexts"] == SAMPLE.retrieved_contexts and sent["reference"] == "Release 2.40."


def test_absent_fields_reach_the_judge_as_null(stub, chat):
    stub.always(Reply.json(verdict(False)))
    assert AspectCritic(name="v", definition=VERSION, llm=chat).score(BARE).value == 0.0
    (sent,) = judge_inputs(stub)
    assert sent["contexts"] is None and sent["reference"] is None and sent["question"] == BARE.user_input


def test_strictness_sends_n_votes_in_one_request(stub, chat):
    stub.always(Reply.json(verdict(True)))
    result = Coherence(strictness=3, llm=chat).score(SAMPLE)
    assert [r.body["n"] for r in stub.chat_requests] == [3]
    assert result.value == 1.0 and result.trace["votes"] == [True] * 3 and "(3 of 3 votes)" in result.reason


def test_the_majority_wins_and_the_agreement_is_traced():
    answers = fake(verdict(False, "no number"), verdict(True, "names 2.40"), verdict(True, "2.40"))
    result = AspectCritic(name="v", definition=VERSION, strictness=3, llm=answers).score(SAMPLE)
    assert result.value == 1.0 and sorted(result.trace["votes"]) == [False, True, True]
    assert result.trace["agreement"] == pytest.approx(2 / 3) and "(2 of 3 votes)" in result.reason
    assert result.reason.startswith("yes: ") and "no number" not in result.reason


def test_an_unusable_answer_after_the_repair_is_nan_with_the_reason():
    result = AspectCritic(name="v", definition=VERSION, llm=fake("maybe?", "still not JSON")).score(SAMPLE)
    assert math.isnan(result.value) and "unusable after one repair request" in result.reason
    assert result.trace["raw"] == "still not JSON"


def test_an_empty_response_is_nan_without_a_call():
    silent = FakeListChatModel(responses=[])  # any call fails the test
    result = AspectCritic(name="v", definition=VERSION, llm=silent).score(
        SAMPLE.model_copy(update={"response": " "})
    )
    assert math.isnan(result.value) and "response is empty" in result.reason


def test_the_response_is_a_required_column():
    dataset = EvaluationDataset([SingleTurnSample(user_input="q?")])
    with pytest.raises(ConfigError, match="metric harmfulness needs column 'response'"):
        evaluate(dataset, [Harmfulness()], show_progress=False)


def test_offline_critics_are_nan_with_the_reason_and_listed_as_needing_an_llm():
    metrics = [AspectCritic(name="v", definition=VERSION), *(cls() for cls in PREDEFINED_ASPECTS)]
    result = evaluate(EvaluationDataset([SAMPLE]), metrics, show_progress=False)
    for metric in metrics:
        cell = result.cells[0][metric.name]
        assert math.isnan(cell.value) and "needs an LLM judge" in cell.reason and not cell.error
        assert result.notes[metric.name] == "offline: no score, this metric needs an LLM"
    assert all(cls.offline_summary() == "NaN (needs an LLM)" for cls in (AspectCritic, *PREDEFINED_ASPECTS))


def test_predefined_aspects_are_ready_and_say_which_way_is_better(stub, chat):
    names = [cls().name for cls in PREDEFINED_ASPECTS]
    assert names == ["harmfulness", "maliciousness", "coherence", "correctness", "conciseness"]
    assert not Harmfulness.higher_is_better and not Maliciousness.higher_is_better
    assert Coherence.higher_is_better
    definitions = {cls.definition for cls in PREDEFINED_ASPECTS}
    assert len(definitions) == 5 and all(d.endswith("?") for d in definitions)
    stub.always(Reply.json(verdict(False)))
    assert Harmfulness(llm=chat).score(SAMPLE).value == 0.0
    assert judge_inputs(stub)[0]["criterion"] == Harmfulness.definition
    renamed = Harmfulness(name="harm_strict", strictness=3)
    assert renamed.name == "harm_strict" and renamed.definition == Harmfulness.definition


# -- SimpleCriteriaScore -------------------------------------------------------------------


def test_a_criteria_score_is_the_raw_integer_on_the_scale(stub, chat):
    stub.always(Reply.json(score(4, "mostly complete")))
    metric = SimpleCriteriaScore(
        name="completeness", definition="How complete is it?", scale=(0, 5), llm=chat
    )
    result = metric.score(SAMPLE)
    assert result.value == 4.0 and result.reason == "4 on 0-5: mostly complete"
    (sent,) = judge_inputs(stub)
    assert (sent["lowest"], sent["highest"], sent["criterion"]) == (0, 5, "How complete is it?")
    assert metric.output_type == "discrete" and metric.higher_is_better


def test_a_score_off_the_scale_gets_one_repair_then_nan(stub, chat):
    stub.push(Reply.json(score(9)), Reply.json(score(3)))
    metric = SimpleCriteriaScore(name="c", definition="How complete?", scale=(1, 3), llm=chat)
    assert metric.score(SAMPLE).value == 3.0
    repair = stub.chat_requests[1].body["messages"][-1]["content"]
    assert "gave score 9; give a whole number from 1 to 3" in repair
    stub.reset()
    stub.always(Reply.json(score(-1)))
    again = SimpleCriteriaScore(name="c2", definition="How complete is it?", scale=(1, 3), llm=chat)
    result = again.score(SAMPLE)  # another definition: not the cached answer
    assert math.isnan(result.value) and "from 1 to 3" in result.reason


def test_criteria_votes_keep_the_median():
    result = SimpleCriteriaScore(
        name="c", definition="How complete?", strictness=3, llm=fake(score(1), score(5), score(4))
    ).score(SAMPLE)
    assert result.value == 4.0 and sorted(result.trace["votes"]) == [1, 4, 5]
    assert result.trace["agreement"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("scale", [(5, 0), (1, 1), (0.0, 5), (True, 5), (1, 2, 3), "0-5"])
def test_a_bad_scale_is_refused(scale):
    with pytest.raises(ConfigError, match="scale must be two whole numbers"):
        SimpleCriteriaScore(name="c", definition="How complete?", scale=scale)
    with pytest.raises(ConfigError, match="needs name= and definition="):
        SimpleCriteriaScore()


# -- RubricsScore --------------------------------------------------------------------------


def test_default_rubrics_follow_the_reference(stub, chat):
    stub.always(Reply.json(score(5, "full answer")))
    metric = RubricsScore(llm=chat)
    with_reference, without = metric.score(SAMPLE), metric.score(BARE)
    assert with_reference.value == without.value == 5.0
    assert with_reference.trace["rubric"] == "reference-based" and without.trace["rubric"] == "reference-free"
    sent = judge_inputs(stub)
    assert [s["rubric"] for s in sent] == [REFERENCE_BASED_RUBRIC, REFERENCE_FREE_RUBRIC]
    assert set(REFERENCE_FREE_RUBRIC) == set(REFERENCE_BASED_RUBRIC) == {"1", "2", "3", "4", "5"}


def test_with_reference_false_hides_it_and_true_requires_it(stub, chat):
    stub.always(Reply.json(score(2)))
    RubricsScore(with_reference=False, llm=chat).score(SAMPLE)
    (sent,) = judge_inputs(stub)
    assert sent["reference"] is None and sent["rubric"] == REFERENCE_FREE_RUBRIC
    strict = RubricsScore(with_reference=True)
    assert "reference" in strict.required() and "reference" not in RubricsScore().required()
    with pytest.raises(ConfigError, match="metric rubrics_score needs column 'reference'"):
        evaluate(EvaluationDataset([BARE]), [strict], show_progress=False)


def test_given_rubrics_are_normalised_and_the_answer_must_be_one_of_their_scores(stub, chat):
    rubric = {"score0_description": "wrong", "score2_description": "right", "Score 1": "partly"}
    assert parse_rubric(rubric, "x") == {"0": "wrong", "1": "partly", "2": "right"}
    stub.push(Reply.json(score(5)), Reply.json(score(2)))
    result = RubricsScore(rubrics=rubric, name="my_rubric", llm=chat).score(SAMPLE)
    assert result.value == 2.0 and result.trace["rubric"] == "given"
    assert "answer with one of 0, 1, 2" in stub.chat_requests[1].body["messages"][-1]["content"]


@pytest.mark.parametrize(
    ("rubric", "message"),
    [
        ({"best": "x", "worst": "y"}, "rubric key 'best' is not a score"),
        ({"1": "x", "score1": "y"}, "score 1 appears twice"),
        ({"1": "x", "2": ""}, "description of score '2' is empty"),
        ({"1": "only one"}, "at least two scores"),
    ],
)
def test_bad_rubrics_are_refused_naming_the_key(rubric, message):
    with pytest.raises(ConfigError, match=message):
        RubricsScore(rubrics=rubric)


# -- InstanceRubrics -------------------------------------------------------------------------


def test_instance_rubrics_use_each_samples_own(stub, chat):
    stub.always(Reply.json(score(3, "agrees")))
    own = SAMPLE.model_copy(update={"rubrics": {"1": "wrong", "3": "right", "2": "partly"}})
    result = InstanceRubrics(llm=chat).score(own)
    assert result.value == 3.0 and result.trace["rubric"] == "sample"
    assert judge_inputs(stub)[0]["rubric"] == {"1": "wrong", "2": "partly", "3": "right"}


def test_samples_without_usable_rubrics_are_nan_with_the_reason():
    silent = FakeListChatModel(responses=[])
    metric = InstanceRubrics(llm=silent)
    none = metric.score(SAMPLE)
    assert math.isnan(none.value) and "the sample has no rubrics" in none.reason
    broken = metric.score(SAMPLE.model_copy(update={"rubrics": {"good": "a", "bad": "b"}}))
    assert math.isnan(broken.value) and "rubric key 'good' is not a score" in broken.reason
    rows = [SAMPLE, SAMPLE.model_copy(update={"rubrics": {"1": "a", "2": "b"}})]
    result = evaluate(EvaluationDataset(rows), [InstanceRubrics()], show_progress=False)
    assert "no rubrics" in result.cells[0]["instance_rubrics"].reason
    assert "needs an LLM judge" in result.cells[1]["instance_rubrics"].reason


def test_scores_and_rubrics_are_nan_offline():
    rubric_sample = SAMPLE.model_copy(update={"rubrics": {"1": "a", "2": "b"}})
    for metric in (SimpleCriteriaScore(name="c", definition="d"), RubricsScore(), InstanceRubrics()):
        result = metric.score(rubric_sample)
        assert math.isnan(result.value) and result.trace["offline"]
        assert type(metric).offline_summary() == "NaN (needs an LLM)"
