"""Refusal correctness: out-of-scope questions declined score 1 and invented answers 0, in-scope ones the
other way round; offline by refusal phrases (English, German, Chinese), and through a judge on the stub."""

from __future__ import annotations

import json
import math

import pytest

from groundset.cli import main
from groundset.samples.dataset import EvaluationDataset
from groundset.samples.evaluation import SingleTurnSample
from groundset.scoring import evaluate
from groundset.scoring.metrics import METRICS, RefusalCorrectness, metric_class
from groundset.scoring.metrics.refusal_prompts import declines, find_refusal

from .openai_stub import Reply

CONTEXT = "Prometheus stores samples in its local time series database for 15 days by default."
OUT_OF_SCOPE_EN = "Which cloud vendor hosts the official Prometheus demo site?"
IN_SCOPE_EN = "How long does Prometheus keep samples by default?"

REFUSING_EN = [
    "The documents do not say which vendor hosts the demo site.",
    "I could not find anything about the demo site's hosting in the documentation.",
    "This is not covered in the provided documents. They only describe local storage and retention.",
    "I don't know: the docs don't mention where the demo site is hosted.",
    "There is no information about the demo site's hosting; the documentation covers storage instead.",
]
INVENTING_EN = [
    "The demo site runs on Google Cloud in the europe-west1 region.",
    "It is hosted on AWS, behind CloudFront.",
    "I could not find it in the docs, but it is probably hosted on DigitalOcean.",
]
ANSWERING_EN = [
    "Samples are kept for 15 days unless you change the retention flag.",
    "By default the local database holds 15 days of data.",
]

OUT_OF_SCOPE_DE = "Welcher Cloud-Anbieter betreibt die offizielle Prometheus-Demoseite?"
REFUSING_DE = [
    "Das wird in der Dokumentation nicht beschrieben.",
    "Die Unterlagen enthalten dazu keine Angaben; sie behandeln nur die lokale Speicherung.",
    "Ich konnte dazu in den Dokumenten nichts finden.",
]
INVENTING_DE = [
    "Die Demoseite läuft bei Hetzner in Falkenstein.",
    "Die Dokumentation beschreibt das nicht, aber vermutlich läuft sie bei AWS.",
]

OUT_OF_SCOPE_ZH = "Prometheus 官方演示站点托管在哪家云服务商？"
REFUSING_ZH = ["文档中没有提到演示站点托管在哪里。", "抱歉，我没有找到相关信息。"]
INVENTING_ZH = ["演示站点托管在阿里云的杭州区域。"]


def sample(question: str, response: str, behaviour: str | None = "refuse", **fields) -> SingleTurnSample:
    return SingleTurnSample(
        user_input=question,
        response=response,
        retrieved_contexts=[CONTEXT],
        expected_behaviour=behaviour,
        **fields,
    )


def scored(rows: list[SingleTurnSample], **options) -> list:
    result = evaluate(
        EvaluationDataset(rows), [RefusalCorrectness()], show_progress=False, cache=False, **options
    )
    return [row["refusal_correctness"] for row in result.cells]


# -- offline -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "refusing", "inventing"),
    [
        (OUT_OF_SCOPE_EN, REFUSING_EN, INVENTING_EN),
        (OUT_OF_SCOPE_DE, REFUSING_DE, INVENTING_DE),
        (OUT_OF_SCOPE_ZH, REFUSING_ZH, INVENTING_ZH),
    ],
    ids=["en", "de", "zh"],
)
def test_offline_an_out_of_scope_question_declined_scores_1_and_an_invented_answer_0(
    question, refusing, inventing
):
    cells = scored([sample(question, r) for r in refusing] + [sample(question, r) for r in inventing])
    declined, invented = cells[: len(refusing)], cells[len(refusing) :]
    for response, cell in zip(refusing, declined, strict=True):
        assert cell.value == 1.0, (response, cell.reason)
        assert cell.reason.startswith("declined an out-of-scope question: offline: the response says")
        assert cell.trace["offline"] is True and cell.trace["behaviour"] == "declines"
    for response, cell in zip(inventing, invented, strict=True):
        assert cell.value == 0.0, (response, cell.reason)
        assert cell.reason.startswith("invented an answer to an out-of-scope question")
        assert 0.0 <= cell.trace["context_support"] <= 1.0


def test_offline_an_in_scope_question_answered_scores_1_and_refused_0():
    rows = [sample(IN_SCOPE_EN, r, behaviour=None) for r in ANSWERING_EN]
    rows += [sample(IN_SCOPE_EN, r, behaviour="answer") for r in ANSWERING_EN]
    rows.append(sample(IN_SCOPE_EN, "The documents do not say how long samples are kept.", behaviour=None))
    rows.append(sample(IN_SCOPE_EN, "Ich weiß es nicht.", behaviour="answer"))
    cells = scored(rows)
    assert [c.value for c in cells] == [1.0] * 4 + [0.0, 0.0]
    assert all(c.reason.startswith("answered an answerable question") for c in cells[:4])
    assert all(c.reason.startswith("refused an answerable question") for c in cells[4:])
    assert "context_support" not in cells[0].trace  # only said for answers to out-of-scope questions


def test_the_trace_says_how_much_of_an_invented_answer_the_contexts_hold():
    stretched = "Prometheus keeps samples in its local database for 15 days."
    invented = "The demo site is hosted by Hetzner in Falkenstein."
    low, high = scored([sample(OUT_OF_SCOPE_EN, invented), sample(OUT_OF_SCOPE_EN, stretched)])
    assert low.value == high.value == 0.0
    assert high.trace["context_support"] > 0.8 > 0.2 > low.trace["context_support"]
    assert "of its words are in the retrieved contexts" in high.reason


def test_facts_stated_in_the_negative_are_not_refusals():
    for answer in (
        "The flag is not set by default, so samples are kept for 15 days.",
        "If no retention is given, Prometheus cannot find a limit and keeps 15 days.",
        "Wenn keine Angaben gemacht werden, gilt eine Aufbewahrung von 15 Tagen.",
        "Si no se especifica, se usan 15 días.",
    ):
        assert find_refusal(answer) is None, answer


@pytest.mark.parametrize(
    "response",
    [
        "I don't have enough information to answer that.",
        "Based on the provided context, it is not possible to determine which team owns it.",
        "The provided passages say nothing about BigQuery.",
        "No relevant information was found.",
        "This cannot be determined from the given documents.",
    ],
)
def test_common_assistant_refusals_are_found_offline(response):
    assert declines(response), response


def test_negative_facts_that_look_like_refusal_phrases_still_answer():
    for answer in (
        "The flag is not set by default; there is no data loss on restart.",
        "It is not possible to run two servers on one port.",
        "Nothing is written to disk until the head block is cut.",
        "Insufficient memory for the head block leads to an out-of-memory kill.",
    ):
        assert not declines(answer), answer


def test_an_empty_response_is_nan_with_a_reason():
    (cell,) = scored([sample(OUT_OF_SCOPE_EN, "  ")])
    assert math.isnan(cell.value) and "empty" in cell.reason and not cell.error


def test_a_dataset_without_expected_behaviour_is_scored_as_answerable():
    rows = [SingleTurnSample(user_input=IN_SCOPE_EN, response=ANSWERING_EN[0])]
    assert [c.value for c in scored(rows)] == [1.0]


# -- through a judge on the stub ------------------------------------------------------------------


def _judge_input(body: dict) -> dict:
    return json.loads(body["messages"][-1]["content"].removeprefix("Input: "))


def judging_by_marker(body: dict) -> Reply:
    """A judge that declines exactly the responses written with a refusal marker ("[no]")."""
    data = _judge_input(body)
    if "[no]" in data["response"]:
        return Reply.json({"reason": "It says the documents do not cover it.", "behaviour": "declines"})
    return Reply.json({"reason": "It gives an answer.", "behaviour": "answers"})


def test_through_the_judge_refusing_scores_1_and_inventing_0_on_out_of_scope(stub, chat):
    stub.on_chat(judging_by_marker)
    rows = [
        sample(OUT_OF_SCOPE_EN, "[no] Nothing in the sources names a host."),
        sample(OUT_OF_SCOPE_EN, "It runs on Google Cloud."),
        sample(IN_SCOPE_EN, "Fifteen days.", behaviour=None),
        sample(IN_SCOPE_EN, "[no] Sorry, that is beyond what I was given.", behaviour="answer"),
    ]
    cells = scored(rows, llm=chat)
    assert [c.value for c in cells] == [1.0, 0.0, 1.0, 0.0]
    assert cells[0].reason == "declined an out-of-scope question: It says the documents do not cover it."
    assert cells[1].reason == "invented an answer to an out-of-scope question: It gives an answer."
    assert cells[3].reason.startswith("refused an answerable question")
    assert "offline" not in cells[1].trace and "context_support" not in cells[1].trace
    sent = [_judge_input(r.body) for r in stub.chat_requests]
    assert len(sent) == 4
    # The judge classifies blind: it sees the question and the response, never the expected behaviour.
    assert all(set(data) == {"question", "response"} for data in sent)
    assert not any("refuse" in json.dumps(data) for data in sent)


def test_the_judge_of_a_follow_up_sees_the_earlier_turns(stub, chat):
    stub.on_chat(judging_by_marker)
    follow_up = sample(
        "And where is it hosted?",
        "[no] The documents do not say.",
        history=[
            {"role": "user", "content": "Is there an official demo site?"},
            {"role": "assistant", "content": "Yes, demo.do.prometheus.io."},
        ],
    )
    (cell,) = scored([follow_up], llm=chat)
    assert cell.value == 1.0
    (request,) = stub.chat_requests
    question = _judge_input(request.body)["question"]
    assert "Is there an official demo site?" in question and question.endswith("And where is it hosted?")


def test_strictness_takes_the_majority_of_the_votes(stub, chat):
    stub.always(Reply.json({"reason": "It declines.", "behaviour": "declines"}))
    result = RefusalCorrectness(strictness=3, llm=chat).score(sample(OUT_OF_SCOPE_EN, "No idea."))
    assert [r.body["n"] for r in stub.chat_requests] == [3]
    assert result.value == 1.0 and result.trace["votes"] == ["declines"] * 3
    assert "(3 of 3 votes)" in result.reason


# -- registration -----------------------------------------------------------------------------------


def test_it_is_registered_binary_higher_is_better_with_no_ragas_alias(capsys):
    assert METRICS["refusal_correctness"] is RefusalCorrectness is metric_class("refusal_correctness")
    assert RefusalCorrectness.higher_is_better and RefusalCorrectness.output_type.value == "binary"
    assert RefusalCorrectness.optional() == ["expected_behaviour"]
    assert main(["metrics"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("refusal_correctness "))
    assert "binary" in lines[at] and "expected_behaviour:optional" in lines[at]
    assert "offline: same measure" in lines[at + 1]
    assert "also accepted as" not in lines[at + 2]
