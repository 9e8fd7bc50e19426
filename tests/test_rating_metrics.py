"""Two-judge rating metrics: averaging and mapping, one judge failing, empty inputs, offline forms, calls."""

from __future__ import annotations

import json
import math

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.cli import main
from groundset.scoring import (
    AnswerAccuracy,
    ContextRelevance,
    EvaluationDataset,
    ResponseGroundedness,
    SingleTurnSample,
    evaluate,
)

SAMPLE = SingleTurnSample(
    user_input="How long does Prometheus keep TSDB blocks?",
    response="Prometheus keeps TSDB blocks for 15 days by default.",
    retrieved_contexts=["Prometheus keeps TSDB blocks for 15 days by default; a flag changes it."],
    reference="By default Prometheus keeps blocks for 15 days.",
)
RATED = [ContextRelevance, ResponseGroundedness, AnswerAccuracy]


def fake(*answers: dict | str) -> FakeListChatModel:
    """A judge answering in order; a str is sent as written (e.g. an unusable answer)."""
    return FakeListChatModel(responses=[a if isinstance(a, str) else json.dumps(a) for a in answers])


def rating(value: int, reason: str = "because") -> dict:
    return {"reason": reason, "rating": value}


@pytest.mark.parametrize("metric", RATED)
@pytest.mark.parametrize(
    ("first", "second", "expected"), [(2, 1, 0.75), (0, 0, 0.0), (2, 2, 1.0), (1, 0, 0.25)]
)
def test_two_ratings_are_averaged_and_mapped(metric, first, second, expected):
    result = metric(llm=fake(rating(first, "one"), rating(second, "two"))).score(SAMPLE)
    assert result.value == pytest.approx(expected)
    ratings = result.trace["ratings"]
    assert set(ratings) == {"reviewer", "reader"} and sorted(ratings.values()) == sorted([first, second])
    assert sorted(result.trace["reasons"].values()) == ["one", "two"]
    assert "failed" not in result.trace and "offline" not in result.trace
    assert "reviewer rated" in result.reason and "reader rated" in result.reason


@pytest.mark.parametrize("metric", RATED)
def test_one_unusable_judge_leaves_the_other_rating_alone_and_says_so(metric):
    # Whichever judge asks first gets the 2; the other gets a rating out of range, and again after its
    # repair request, so its answer is unusable (the two judges run concurrently, in either order).
    result = metric(llm=fake(rating(2), rating(5), rating(7))).score(SAMPLE)
    assert result.value == 1.0
    (failed,) = result.trace["failed"]
    assert result.trace["ratings"][failed] is None
    (kept,) = {"reviewer", "reader"} - {failed}
    assert result.trace["ratings"][kept] == 2
    assert f"{failed}'s answer was unusable" in result.reason and f"{kept} rated 2" in result.reason


def test_both_judges_unusable_is_nan_with_the_error_kept():
    model = fake("no JSON here", "still none", "nothing", "nope")
    result = evaluate(
        EvaluationDataset([SAMPLE]), [ResponseGroundedness(llm=model)], show_progress=False, cache=False
    )
    cell = result.cells[0]["response_groundedness"]
    assert math.isnan(cell.value)
    assert "no judge gave a usable rating" in cell.error
    assert "reviewer:" in cell.error and "reader:" in cell.error
    assert result.aggregate()["response_groundedness"]["errors"] == 1


def test_empty_inputs_are_settled_without_a_call():
    silent = FakeListChatModel(responses=[])  # any call would fail the test

    def score(metric, **update):
        return metric(llm=silent).score(SAMPLE.model_copy(update=update))

    no_question = score(ContextRelevance, user_input="  ")
    assert math.isnan(no_question.value) and "question is empty" in no_question.reason
    assert score(ContextRelevance, retrieved_contexts=[]).value == 0.0
    assert score(ContextRelevance, retrieved_contexts=[" ", ""]).value == 0.0
    no_response = score(ResponseGroundedness, response="")
    assert math.isnan(no_response.value) and "cannot be judged" in no_response.reason
    assert score(ResponseGroundedness, retrieved_contexts=[]).value == 0.0
    assert score(AnswerAccuracy, response=" ").value == 0.0
    no_reference = score(AnswerAccuracy, reference="", response="")
    assert math.isnan(no_reference.value) and "reference is empty" in no_reference.reason


def test_missing_columns_are_named():
    with pytest.raises(ValueError, match="answer_accuracy needs reference"):
        AnswerAccuracy(llm=fake()).score(SAMPLE.model_copy(update={"reference": None}))


QUESTION = "How long does Prometheus keep TSDB blocks before deleting them?"
FOCUSED = ["Prometheus keeps TSDB blocks for 15 days by default, then deletes them during compaction."]
OFF_TOPIC = ["Sourdough needs a starter fed with flour and water, and bakes for forty minutes."]
CONTEXTS = ["Prometheus keeps TSDB blocks for 15 days by default. Old blocks are deleted by compaction."]
GROUNDED = "Prometheus keeps TSDB blocks for 15 days by default. Old blocks are deleted by compaction."
INVENTED = "Blocks are copied to magnetic tape every night. The tapes are mailed to a vault in Geneva."
REFERENCE = "By default Prometheus keeps TSDB blocks for 15 days."
RIGHT = "Prometheus keeps TSDB blocks for 15 days by default."
WRONG = "Prometheus keeps TSDB blocks for 90 days by default."


def offline(metric, **fields):
    result = metric().score(SingleTurnSample(**fields))
    assert result.trace["offline"] and "shared by both judges" in result.reason
    assert result.trace["ratings"]["reviewer"] == result.trace["ratings"]["reader"]
    return result.value


def test_offline_context_relevance_ranks_the_focused_context_higher():
    focused = offline(ContextRelevance, user_input=QUESTION, retrieved_contexts=FOCUSED)
    off_topic = offline(ContextRelevance, user_input=QUESTION, retrieved_contexts=OFF_TOPIC)
    assert (focused, off_topic) == (1.0, 0.0)
    mixed = offline(ContextRelevance, user_input=QUESTION, retrieved_contexts=OFF_TOPIC + FOCUSED)
    # The contexts are judged together: one good one earns the rating, the unrelated one costs a little.
    assert 0.8 <= mixed < 1.0


def test_offline_groundedness_ranks_the_grounded_response_higher():
    grounded = offline(ResponseGroundedness, response=GROUNDED, retrieved_contexts=CONTEXTS)
    invented = offline(ResponseGroundedness, response=INVENTED, retrieved_contexts=CONTEXTS)
    half = offline(
        ResponseGroundedness, response=f"{RIGHT} {INVENTED.split('. ')[0]}.", retrieved_contexts=CONTEXTS
    )
    assert (grounded, half, invented) == (1.0, 0.5, 0.0)


def test_offline_accuracy_ranks_the_right_answer_higher():
    right = offline(AnswerAccuracy, user_input=QUESTION, response=RIGHT, reference=REFERENCE)
    wrong = offline(AnswerAccuracy, user_input=QUESTION, response=WRONG, reference=REFERENCE)
    padded = offline(AnswerAccuracy, user_input=QUESTION, response=f"{RIGHT} {INVENTED}", reference=REFERENCE)
    assert (right, padded, wrong) == (1.0, 0.5, 0.0)


def test_two_requests_per_sample_and_none_on_a_cached_rerun(stub, chat, tmp_path):
    other = {
        "user_input": "Where are blocks stored?",
        "response": "On disk.",
        "retrieved_contexts": ["Disk."],
    }
    rows = [SAMPLE, SAMPLE.model_copy(update=other)]
    metrics = [ContextRelevance(), ResponseGroundedness(), AnswerAccuracy()]
    first = evaluate(EvaluationDataset(rows), metrics, llm=chat, cache=tmp_path / "c", show_progress=False)
    assert len(stub.chat_requests) == 2 * 3 * 2  # 2 judges x 3 metrics x 2 samples
    systems = {r.body["messages"][0]["content"] for r in stub.chat_requests}
    assert len(systems) == 6  # two differently worded judges per metric
    for row in first.cells:
        for name in ("context_relevance", "response_groundedness", "answer_accuracy"):
            assert row[name].value == 0.5  # the stub's schema-valid answer rates 1
            assert row[name].trace["ratings"] == {"reviewer": 1, "reader": 1}
    calls = len(stub.chat_requests)
    again = evaluate(EvaluationDataset(rows), metrics, llm=chat, cache=tmp_path / "c", show_progress=False)
    assert len(stub.chat_requests) == calls
    assert all(again.usage[m.name]["calls"] == 0 for m in metrics)
    assert [r["answer_accuracy"].value for r in again.cells] == [0.5, 0.5]


def test_offline_context_relevance_prefers_a_passage_without_sentences_padded_into_it():
    """Both hold the answer and rate 2; the one with unrelated sentences written into it scores lower."""
    padded = [FOCUSED[0] + " " + OFF_TOPIC[0] + " Tulips flower in spring and are planted in autumn."]
    clean = offline(ContextRelevance, user_input=QUESTION, retrieved_contexts=FOCUSED)
    assert clean == 1.0 > offline(ContextRelevance, user_input=QUESTION, retrieved_contexts=padded) >= 0.8


def test_metrics_command_lists_the_ratings(capsys):
    assert main(["metrics"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name in ("context_relevance", "response_groundedness", "answer_accuracy"):
        at = next(i for i, line in enumerate(lines) if line.startswith(name + " "))
        assert "discrete" in lines[at] and "needs llm" in lines[at]
    relevance = next(i for i, line in enumerate(lines) if line.startswith("context_relevance "))
    assert "DIFFERENT measure" in lines[relevance + 1]


UNRELATED = [
    *OFF_TOPIC,
    "A marathon is 42.195 kilometres long and most runners finish in four to five hours.",
    "Tulips flower in spring and their bulbs are planted in autumn, before the first frost.",
]


@pytest.mark.parametrize("at", [0, 1, 3])
def test_offline_context_relevance_rates_a_set_mostly_padding_a_step_lower(at):
    focused = offline(ContextRelevance, user_input=QUESTION, retrieved_contexts=FOCUSED)
    padded_set = UNRELATED[:at] + FOCUSED + UNRELATED[at:]  # wherever the answering passage sits
    padded = offline(ContextRelevance, user_input=QUESTION, retrieved_contexts=padded_set)
    assert focused == 1.0
    assert 0.3 <= padded < 0.5  # a step lower, and less for the unrelated sentences
    only_padding = offline(ContextRelevance, user_input=QUESTION, retrieved_contexts=UNRELATED)
    assert only_padding == 0.0


def test_offline_context_relevance_does_not_rate_a_shared_name_fully_relevant():
    question = "When was Albert Einstein born?"
    answer = ["Albert Einstein was born on 14 March 1879 in Ulm, in the Kingdom of Württemberg."]
    assert offline(ContextRelevance, user_input=question, retrieved_contexts=answer) == 1.0
    # The second passage is close enough in meaning to pass on cosine alone; the words it shares decide.
    for name_only in (
        "Einstein Bros. Bagels is an American chain of bagel shops with several hundred stores.",
        "Einstein rings form when light from a distant galaxy is bent around a massive object on its way.",
    ):
        assert 0.3 <= offline(ContextRelevance, user_input=question, retrieved_contexts=[name_only]) <= 0.5
