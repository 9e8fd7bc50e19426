"""Summary score: the formula by hand, edge cases, keyed answers a sloppy judge cannot miscount, offline."""

from __future__ import annotations

import json
import math

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.scoring import EvaluationDataset, SingleTurnSample, evaluate
from groundset.scoring.metrics.summarization import SummarizationScore, blend, conciseness

from .openai_stub import Reply
from .verdicts import keyed

SOURCE = (
    "The city council approved a cycling plan on Tuesday. It adds 40 km of protected bike lanes by "
    "2027. A grant of 12 million euros pays for it. Parking is removed on three central streets."
)
SUMMARY = "The council approved a 12 million euro plan for 40 km of bike lanes by 2027."
PHRASES = ["cycling plan approved", "40 km of bike lanes", "12 million euro grant", "parking removed"]
QUESTIONS = [
    "Did the council approve a cycling plan?",
    "Does the plan add 40 km of bike lanes?",
    "Is the plan paid for by a 12 million euro grant?",
    "Is parking removed on central streets?",
]


def fake(*answers: dict) -> FakeListChatModel:
    return FakeListChatModel(responses=[json.dumps(a) for a in answers])


def scripted(answers: list[bool]) -> FakeListChatModel:
    """Keyphrases, then questions, then one keyed answer per question (the three calls run in turn)."""
    return fake({"keyphrases": PHRASES}, {"questions": QUESTIONS}, keyed(answers))


def sample(summary: str = SUMMARY, contexts: list[str] | None = None) -> SingleTurnSample:
    return SingleTurnSample(reference_contexts=[SOURCE] if contexts is None else contexts, response=summary)


def test_three_of_four_questions_and_known_lengths_by_hand():
    result = SummarizationScore(llm=scripted([True, True, True, False])).score(sample())
    concise = 1 - len(SUMMARY) / len(SOURCE)
    assert result.trace["qa_score"] == 0.75
    assert result.trace["conciseness_score"] == pytest.approx(concise)
    assert result.value == pytest.approx(0.75 * 0.5 + concise * 0.5)
    assert result.trace["answers"] == [True, True, True, False]
    assert result.trace["keyphrases"] == PHRASES and result.trace["questions"] == QUESTIONS
    assert result.reason.startswith("the summary answers yes to 3 of 4 of the source's questions (0.75)")


def test_coefficient_weights_conciseness_and_length_penalty_turns_it_off():
    concise = 1 - len(SUMMARY) / len(SOURCE)
    weighted = SummarizationScore(llm=scripted([True, False, False, False]), coefficient=0.2).score(sample())
    assert weighted.value == pytest.approx(0.25 * 0.8 + concise * 0.2)
    plain = SummarizationScore(llm=scripted([True, False, False, False]), length_penalty=False).score(
        sample()
    )
    assert plain.value == 0.25 and "conciseness" not in plain.reason
    assert plain.trace["coefficient"] == 0.0


def test_conciseness_and_blend_formulas():
    assert conciseness("", "abcd") == 1.0
    assert conciseness("ab", "abcd") == pytest.approx(0.5)
    assert conciseness("abcd", "abcd") == pytest.approx(0.0, abs=1e-9)
    assert conciseness("abcdefgh", "abcd") == pytest.approx(
        0.0, abs=1e-9
    )  # longer than the source: 0, never < 0
    assert blend(1.0, 0.0, 0.5) == 0.5 and blend(0.6, 0.2, 0.25) == pytest.approx(0.5)


def test_source_is_the_reference_contexts_joined_by_newlines():
    parts = ["First part of the source text.", "  ", "Second part of it."]
    result = SummarizationScore(llm=scripted([True] * 4)).score(sample("Short.", parts))
    source_length = len(parts[0]) + 1 + len(parts[2])  # the blank context is left out
    assert result.trace["conciseness_score"] == pytest.approx(1 - len("Short.") / source_length)


def test_empty_summary_scores_zero_and_empty_source_is_nan_without_a_call():
    no_calls = FakeListChatModel(responses=[])
    empty = SummarizationScore(llm=no_calls).score(sample(summary="  "))
    assert empty.value == 0.0 and "empty" in empty.reason
    no_source = SummarizationScore(llm=no_calls).score(sample(contexts=[" ", ""]))
    assert math.isnan(no_source.value) and "reference contexts are empty" in no_source.reason
    none_given = SummarizationScore(llm=no_calls).score(sample(contexts=[]))
    assert math.isnan(none_given.value)


def test_no_keyphrases_is_nan_not_zero():
    result = SummarizationScore(llm=fake({"keyphrases": [" "]})).score(sample())
    assert math.isnan(result.value) and "no keyphrases" in result.reason


def test_a_judge_that_skips_a_question_is_asked_for_it_again():
    """Keyed answers: the judge leaves out question 4, is asked for exactly that one, and it is merged in."""
    partial = {k: v for k, v in keyed([True, False, True, True]).items() if k != "4"}
    repair = {"4": {"verdict": False, "reason": "not said"}}
    model = fake({"keyphrases": PHRASES}, {"questions": QUESTIONS}, partial, repair)
    result = SummarizationScore(llm=model, length_penalty=False).score(sample())
    assert result.trace["answers"] == [True, False, True, False]
    assert result.value == 0.5


def test_coefficient_is_checked():
    for bad in (-0.1, 1.5, "half", True):
        with pytest.raises(ValueError, match="coefficient must be a number from 0 to 1"):
            SummarizationScore(coefficient=bad)


def test_offline_is_keyphrase_coverage_and_says_so():
    metric = SummarizationScore()
    assert metric.offline_summary().startswith("DIFFERENT measure: keyphrase coverage")
    covering = metric.score(sample(summary=SOURCE))
    assert covering.trace["qa_score"] == 1.0 and covering.value == pytest.approx(0.5)
    assert all(q.startswith('Does the summary mention "') for q in covering.trace["questions"])
    assert covering.reason.startswith("the summary mentions 10 of 10 of the source's keyphrases")
    unrelated = metric.score(sample(summary="Rain is expected over the weekend."))
    assert unrelated.trace["qa_score"] == 0.0
    assert unrelated.value == pytest.approx(
        0.5 * (1 - len("Rain is expected over the weekend.") / len(SOURCE))
    )
    partial = metric.score(sample())
    found = dict(zip(partial.trace["keyphrases"], partial.trace["answers"], strict=True))
    # half or more of a phrase's words (by stem: "euros" is "euro") count as a mention; none does not
    assert found["protected bike lanes"] and found["city council"] and found["million euros pays"]
    assert not found["three central streets"] and not found["Tuesday"]
    assert partial.trace["qa_score"] == sum(found.values()) / len(found) < 1


def test_offline_answers_match_by_stem():
    metric = SummarizationScore(length_penalty=False)
    text = "Protected bike lanes are built along the river. Protected bike lanes reduce accidents."
    result = metric.score(sample(summary="A protected bike lane was built.", contexts=[text]))
    found = dict(zip(result.trace["keyphrases"], result.trace["answers"], strict=True))
    assert found.get("Protected bike lanes") is True  # "lane" and "lanes" share a stem


def test_llm_path_through_the_stub(stub, chat):
    seen = {}

    def judge(body):
        data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        if "summary" in data:
            seen["answers"] = (data, body["response_format"]["json_schema"]["schema"])
            return Reply.json(keyed([True, True, False, False]))
        if "keyphrases" in data:
            seen["questions"] = data
            return Reply.json({"questions": QUESTIONS})
        return Reply.json({"keyphrases": PHRASES})

    stub.on_chat(judge)
    result = evaluate(
        EvaluationDataset.from_list([{"reference_contexts": [SOURCE], "response": SUMMARY}]),
        [SummarizationScore(coefficient=0.0)],
        llm=chat,
        show_progress=False,
    )
    assert result.scores("summary_score") == [0.5]
    assert len(stub.chat_requests) == 3
    assert seen["questions"] == {"text": SOURCE, "keyphrases": PHRASES}
    data, schema = seen["answers"]
    assert data["summary"] == SUMMARY and data["questions"] == {str(i): q for i, q in enumerate(QUESTIONS, 1)}
    assert sorted(schema["required"]) == ["1", "2", "3", "4"]  # every question must get its verdict
