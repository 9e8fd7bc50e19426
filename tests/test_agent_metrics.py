"""Agent goal accuracy (with and without reference) and topic adherence: judges on the stub, formulas,
majority votes, inputs that settle a score without a judge, and NaN offline."""

from __future__ import annotations

import json
import math

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from groundset.core import ConfigError
from groundset.scoring import EvaluationDataset, MultiTurnSample, evaluate
from groundset.scoring.metrics.agents import (
    AgentGoalAccuracyWithoutReference,
    AgentGoalAccuracyWithReference,
)
from groundset.scoring.metrics.topics import TopicAdherenceScore, adherence

from .openai_stub import Reply
from .verdicts import for_keys

BOOKING = [
    {"role": "user", "content": "Book the 10:30 train to Leeds tomorrow, window seat."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "book_train", "arguments": '{"time": "10:30", "to": "Leeds"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": '{"booking": "T-9", "seat": "aisle"}'},
    {"role": "assistant", "content": "Booked T-9 on the 10:30 to Leeds; only an aisle seat was left."},
]
OUTCOME = "The 10:30 train to Leeds is booked with a window seat."


def goal(achieved: bool, reason: str = "The seat differs from the request.") -> dict:
    return {
        "user_goal": "Book the 10:30 train to Leeds with a window seat.",
        "end_state": "Booking T-9 on the 10:30 to Leeds, aisle seat.",
        "reason": reason,
        "achieved": achieved,
    }


def judge_input(request) -> dict:
    return json.loads(request.body["messages"][-1]["content"].removeprefix("Input: "))


def test_goal_with_reference_on_the_stub(stub, chat):
    stub.always(Reply.json(goal(False)))
    sample = MultiTurnSample(user_input=BOOKING, reference=OUTCOME)
    result = AgentGoalAccuracyWithReference(llm=chat).score(sample)
    assert result.value == 0.0
    assert result.reason == "not achieved: The seat differs from the request."
    assert result.trace == {
        "user_goal": "Book the 10:30 train to Leeds with a window seat.",
        "end_state": "Booking T-9 on the 10:30 to Leeds, aisle seat.",
        "reason": "The seat differs from the request.",
    }
    (request,) = stub.chat_requests
    sent = judge_input(request)
    assert sent["reference"] == OUTCOME
    assert '[2] Assistant calls book_train (c1) with {"time": "10:30", "to": "Leeds"}' in sent["conversation"]
    assert '[3] Tool result for c1: {"booking": "T-9", "seat": "aisle"}' in sent["conversation"]
    assert "reference" in request.body["messages"][0]["content"]  # the instruction compares with it


def test_goal_without_reference_on_the_stub(stub, chat):
    stub.always(Reply.json(goal(True, "Everything asked for was booked.")))
    sample = MultiTurnSample(user_input=BOOKING)
    result = AgentGoalAccuracyWithoutReference(llm=chat).score(sample)
    assert result.value == 1.0 and result.reason == "achieved: Everything asked for was booked."
    assert result.trace["user_goal"].startswith("Book the 10:30")
    (request,) = stub.chat_requests
    assert set(judge_input(request)) == {"conversation"}
    # the two judges are different prompts
    stub.reset()
    stub.always(Reply.json(goal(True)))
    AgentGoalAccuracyWithReference(llm=chat).score(MultiTurnSample(user_input=BOOKING, reference=OUTCOME))
    assert stub.chat_requests[0].body["messages"][0]["content"] != request.body["messages"][0]["content"]


def test_goal_majority_of_three_votes():
    votes = [goal(True, "same"), goal(False, "other"), goal(True, "same")]
    model = FakeListChatModel(responses=[json.dumps(v) for v in votes])
    metric = AgentGoalAccuracyWithoutReference(llm=model, strictness=3)
    result = metric.score(MultiTurnSample(user_input=BOOKING))
    assert result.value == 1.0 and result.trace["agreement"] == pytest.approx(2 / 3)
    assert result.trace["reason"] == "same"


def test_goal_inputs_that_settle_it_make_no_call(stub, chat):
    both = (AgentGoalAccuracyWithReference(llm=chat), AgentGoalAccuracyWithoutReference(llm=chat))
    no_user = MultiTurnSample(user_input=[SystemMessage("Be brief."), AIMessage("Hello!")], reference=OUTCOME)
    no_reply = MultiTurnSample(user_input=[HumanMessage("Book a train.")], reference=OUTCOME)
    for metric in both:
        result = metric.score(no_user)
        assert math.isnan(result.value) and "no user message" in result.reason
        result = metric.score(no_reply)
        assert result.value == 0.0 and "never replied or acted" in result.reason
    blank = both[0].score(MultiTurnSample(user_input=BOOKING, reference="  "))
    assert math.isnan(blank.value) and "reference outcome is empty" in blank.reason
    assert stub.chat_requests == []
    with pytest.raises(ValueError, match="agent_goal_accuracy needs reference"):
        both[0].score(MultiTurnSample(user_input=BOOKING))


def test_goal_long_tool_results_are_cut_for_the_judge(stub, chat):
    stub.always(Reply.json(goal(True)))
    long = [*BOOKING[:2], {"role": "tool", "tool_call_id": "c1", "content": "x" * 10_000}, BOOKING[3]]
    AgentGoalAccuracyWithoutReference(llm=chat).score(MultiTurnSample(user_input=long))
    conversation = judge_input(stub.chat_requests[0])["conversation"]
    assert "[... 6000 more characters]" in conversation and "x" * 4001 not in conversation


def test_agent_and_topic_metrics_are_nan_offline_with_the_reason():
    rows = [{"user_input": BOOKING, "reference": OUTCOME, "reference_topics": ["train travel"]}]
    dataset = EvaluationDataset.from_list(rows)
    metrics = [AgentGoalAccuracyWithReference(), AgentGoalAccuracyWithoutReference(), TopicAdherenceScore()]
    result = evaluate(dataset, metrics, show_progress=False)
    for metric in metrics:
        cell = result.cells[0][metric.name]
        assert (
            math.isnan(cell.value)
            and cell.reason.startswith("offline: no score")
            and "needs an LLM" in cell.reason
        )
        assert result.notes[metric.name] == "offline: no score, this metric needs an LLM"
        assert metric.offline_summary() == "NaN (needs an LLM)"
    direct = AgentGoalAccuracyWithReference().score(dataset[0])  # outside evaluate too: NaN, not an error
    assert math.isnan(direct.value) and "no classical form" in direct.reason


# Topic adherence.


def test_adherence_formulas_by_hand():
    # (in topic, answered): TP TP FP TN FN FN -> precision 2/3, recall 2/4, f1 2*2 / (2*2 + 1 + 2)
    in_topic = [True, True, False, False, True, True]
    answered = [True, True, True, False, False, False]
    assert adherence(in_topic, answered) == pytest.approx({"precision": 2 / 3, "recall": 0.5, "f1": 4 / 7})
    assert adherence([True, False], [False, False]) == {"precision": None, "recall": 0.0, "f1": 0.0}
    assert adherence([False, False], [True, False]) == {"precision": 0.0, "recall": None, "f1": 0.0}
    assert adherence([False, False], [False, False]) == {"precision": None, "recall": None, "f1": 1.0}
    assert adherence([True], [True]) == {"precision": 1.0, "recall": 1.0, "f1": 1.0}


SUPPORT_CHAT = [
    {"role": "system", "content": "You answer questions about our phone plans."},
    {"role": "user", "content": "Which plan has unlimited data?"},
    {"role": "assistant", "content": "The Max plan."},
    {"role": "user", "content": "Does it include roaming? And what's a good pasta recipe?"},
    {"role": "assistant", "content": "Roaming is extra. Try carbonara."},
    {"role": "user", "content": "Who won the election?"},
    {"role": "assistant", "content": "I can only help with phone plans."},
    {"role": "user", "content": "How do I port my number?"},
    {"role": "assistant", "content": "Sorry, I can't help with that."},
]
REQUESTS = [
    "Which plan has unlimited data?",
    "Does the Max plan include roaming?",
    "What is a good pasta recipe?",
    "Who won the election?",
    "How do I port my number to the plan?",
]
# TP TP FP TN FN
VERDICTS = {"t1": 1, "a1": 1, "t2": 1, "a2": 1, "t3": 0, "a3": 1, "t4": 0, "a4": 0, "t5": 1, "a5": 0}


def topic_judge(requests: list[str], verdicts: dict[str, int]):
    def answer(body):
        data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        if "allowed_topics" not in data:
            return Reply.json({"requests": [{"question": q, "topic": "some topic"} for q in requests]})
        keys = data["judge"] if data.get("judge") is not None else list(verdicts)
        return Reply.json(for_keys(keys, {k: bool(v) for k, v in verdicts.items()}, reason="because"))

    return answer


@pytest.mark.parametrize(("mode", "expected"), [("precision", 2 / 3), ("recall", 2 / 3), ("f1", 2 / 3)])
def test_topic_adherence_on_the_stub(stub, chat, mode, expected):
    stub.on_chat(topic_judge(REQUESTS, VERDICTS))
    sample = MultiTurnSample(user_input=SUPPORT_CHAT, reference_topics=["phone plans", "billing"])
    result = TopicAdherenceScore(llm=chat, mode=mode).score(sample)
    assert result.value == pytest.approx(expected)  # TP 2, FP 1, FN 1
    assert result.trace["in_topic"] == [True, True, False, False, True]
    assert result.trace["answered"] == [True, True, True, False, False]
    assert result.trace["requests"] == REQUESTS and result.trace["reasons"]["a3"] == "because"
    assert "3 of 5 requests in topic; answered 3, 2 of them in topic" in result.reason
    extract, verdicts = stub.chat_requests
    assert set(judge_input(extract)) == {"conversation"}
    sent = judge_input(verdicts)
    assert sent["allowed_topics"] == ["phone plans", "billing"]
    assert sent["requests"] == {str(i): q for i, q in enumerate(REQUESTS, start=1)}


def support_chat(variant: str) -> MultiTurnSample:
    """The support chat with its own system line, so each scripted judge gets its own cache entries."""
    messages = [{"role": "system", "content": f"You answer questions about our phone plans ({variant})."}]
    return MultiTurnSample(user_input=messages + SUPPORT_CHAT[1:], reference_topics=["phone plans"])


def test_topic_adherence_modes_differ_and_undefined_modes_are_nan(stub, chat):
    sample = support_chat("refusing")
    refused_all = {"t1": 1, "a1": 0, "t2": 0, "a2": 0}
    stub.on_chat(topic_judge(REQUESTS[:2], refused_all))
    precision = TopicAdherenceScore(llm=chat, mode="precision").score(sample)
    assert math.isnan(precision.value) and "answered none of the 2 requests" in precision.reason
    assert precision.trace["recall"] == 0.0
    assert TopicAdherenceScore(llm=chat, mode="recall").score(sample).value == 0.0
    assert TopicAdherenceScore(llm=chat).score(sample).value == 0.0
    stub.reset()
    stub.on_chat(
        topic_judge(REQUESTS[:2], {"t1": 0, "a1": 0, "t2": 0, "a2": 0})
    )  # all off topic, all refused
    sample = support_chat("strict")
    assert TopicAdherenceScore(llm=chat).score(sample).value == 1.0
    recall = TopicAdherenceScore(llm=chat, mode="recall").score(sample)
    assert (
        math.isnan(recall.value) and "none of the 2 requests is within the reference topics" in recall.reason
    )
    stub.reset()
    stub.on_chat(topic_judge(REQUESTS[:3], {"t1": 1, "a1": 1, "t2": 1, "a2": 1, "t3": 0, "a3": 1}))
    sample = support_chat("chatty")
    scores = [
        TopicAdherenceScore(llm=chat, mode=m).score(sample).value for m in ("precision", "recall", "f1")
    ]
    assert scores == pytest.approx([2 / 3, 1.0, 0.8])


def test_topic_adherence_without_requests_or_topics(stub, chat):
    stub.on_chat(topic_judge([], {}))
    sample = MultiTurnSample(
        user_input=[HumanMessage("Thanks, bye!"), AIMessage("Bye!")], reference_topics=["x"]
    )
    result = TopicAdherenceScore(llm=chat).score(sample)
    assert math.isnan(result.value) and "makes no request" in result.reason
    assert len(stub.chat_requests) == 1  # no verdict call for no request
    no_topics = TopicAdherenceScore(llm=chat).score(sample.model_copy(update={"reference_topics": [" "]}))
    assert math.isnan(no_topics.value) and "reference_topics is empty" in no_topics.reason
    assert len(stub.chat_requests) == 1
    with pytest.raises(ValueError, match="mode must be one of precision, recall, f1, got 'accuracy'"):
        TopicAdherenceScore(mode="accuracy")


def test_topic_adherence_votes_and_evaluate(stub, chat):
    stub.on_chat(topic_judge(REQUESTS, VERDICTS))
    dataset = EvaluationDataset.from_list([{"user_input": SUPPORT_CHAT, "reference_topics": ["phone plans"]}])
    result = evaluate(dataset, [TopicAdherenceScore(strictness=3)], llm=chat, show_progress=False)
    cell = result.cells[0]["topic_adherence"]
    assert cell.value == pytest.approx(2 / 3) and cell.trace["agreement"]["t1"] == 1.0
    assert stub.chat_requests[-1].body.get("n") == 3


def test_single_turn_samples_are_refused():
    single = EvaluationDataset.from_list([{"user_input": "q", "response": "a", "reference": "r"}])
    for metric in (AgentGoalAccuracyWithReference(), TopicAdherenceScore()):
        with pytest.raises(ValueError, match=f"{metric.name} scores a MultiTurnSample, got SingleTurnSample"):
            metric.score(single[0])
    with pytest.raises(ConfigError, match="agent_goal_accuracy scores conversations"):
        evaluate(single, [AgentGoalAccuracyWithReference()], show_progress=False)
