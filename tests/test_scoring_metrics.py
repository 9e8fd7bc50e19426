"""Metrics and evaluate(): formulas with scripted judges, NaN cases, validation, sharing, offline sanity."""

from __future__ import annotations

import json
import math

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.core import CallEngine, ConfigError
from groundset.scoring import (
    AnswerRelevancy,
    ContextPrecision,
    ContextRecall,
    EvaluationDataset,
    EvaluationResult,
    Faithfulness,
    SingleTurnSample,
    evaluate,
)
from groundset.scoring.formulas import average_precision
from groundset.scoring.metric import ScoringContext

from .corpora import EXAMPLE_DOCS
from .openai_stub import Reply
from .verdicts import compared, for_keys, judged_keys, keyed


def fake(*answers: dict) -> FakeListChatModel:
    return FakeListChatModel(responses=[json.dumps(a) for a in answers])


def agreeable_judge(body):
    """A stub judge that splits texts at full stops and finds every statement supported."""
    data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))

    def split(text: str) -> list[str]:
        return [s.strip() + "." for s in text.split(".") if s.strip()]

    if "atomicity" in data:
        return Reply.json({"response": split(data["response"]), "reference": split(data["reference"])})
    if "statements" in data or "judge" in data:
        return Reply.json(for_keys(judged_keys(data)))
    return None


SAMPLE = SingleTurnSample(
    user_input="How long are blocks kept?",
    response="Blocks are kept for 15 days. They are compressed. They live on the moon.",
    retrieved_contexts=[
        "Blocks are kept for 15 days and compressed.",
        "Grafana draws dashboards.",
        "Old blocks are deleted.",
        "Alerts are grouped.",
    ],
    reference="Blocks are kept for 15 days.",
)


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [([1, 1, 0, 0], 1.0), ([1, 0, 1, 0], 0.833), ([0, 1, 0, 1], 0.5), ([0, 0, 1, 1], 0.417)],
)
def test_context_precision_table(verdicts, expected):
    model = fake(keyed(verdicts))
    result = ContextPrecision(llm=model).score(SAMPLE)
    assert result.value == pytest.approx(expected, abs=1e-3)
    assert result.trace["useful"] == verdicts


def test_context_precision_zero_without_useful_context_and_error_on_wrong_count():
    """No useful context is judged and bad (0); NaN is kept for "cannot be judged"."""
    nothing_useful = ContextPrecision(llm=fake(keyed([False] * 4))).score(SAMPLE)
    assert nothing_useful.value == 0.0 and nothing_useful.reason == "no useful context"
    nothing_retrieved = ContextPrecision(llm=fake()).score(
        SAMPLE.model_copy(update={"retrieved_contexts": []})
    )
    assert nothing_retrieved.value == 0.0
    no_reference = ContextPrecision(llm=fake()).score(SAMPLE.model_copy(update={"reference": " "}))
    assert math.isnan(no_reference.value) and "empty" in no_reference.reason
    # A judge that answers item 1 only, then in its repair items 2 and 3: item 4 is still missing.
    stubborn = fake(keyed([True]), {k: v for k, v in keyed([True] * 3).items() if k != "1"})
    result = evaluate(
        EvaluationDataset([SAMPLE]), [ContextPrecision(llm=stubborn)], show_progress=False, cache=False
    )
    assert math.isnan(result.cells[0]["context_precision"].value)
    assert (
        "no usable verdict for item(s) 4 after one repair request"
        in result.cells[0]["context_precision"].error
    )
    assert result.aggregate()["context_precision"]["errors"] == 1
    # When the repair fills the gap, the merged verdicts score: first answer items 1-2, repair 3-4.
    healed = fake(keyed([True, False]), {"3": {"verdict": True}, "4": {"verdict": False}})
    assert ContextPrecision(llm=healed).score(SAMPLE).value == pytest.approx(average_precision([1, 0, 1, 0]))


def test_faithfulness_formula_and_trace():
    statements = ["Blocks are kept for 15 days.", "Blocks are compressed.", "Blocks live on the moon."]
    model = fake(
        {"response": statements, "reference": ["Blocks are kept for 15 days."]},
        keyed([True, True, False]),
    )
    result = Faithfulness(llm=model).score(SAMPLE)
    assert result.value == pytest.approx(2 / 3)
    assert result.trace == {"statements": statements, "supported": [True, True, False]}


def test_faithfulness_judges_the_sentences_when_the_model_lists_no_statement():
    """A small model's empty list for a response that has sentences is a failed answer, not an empty
    response: the sentences are judged instead, and the fallback is counted."""
    engine = CallEngine(cache=False)
    model = fake({"response": [], "reference": ["x"]}, keyed([True, True, False]))
    result = Faithfulness(llm=model).score(SAMPLE, ScoringContext(model, None, engine))
    assert result.value == pytest.approx(2 / 3)
    assert result.trace["statements"] == [
        "Blocks are kept for 15 days.",
        "They are compressed.",
        "They live on the moon.",
    ]
    assert engine.usage.total().fallbacks == 1
    empty = SAMPLE.model_copy(update={"response": " "})
    nothing = Faithfulness(llm=fake({"response": [], "reference": ["x"]})).score(empty)
    assert math.isnan(nothing.value) and "no statement" in nothing.reason


def test_statements_the_model_cannot_give_are_the_sentences():
    bad = "not json at all"
    model = FakeListChatModel(responses=[bad, bad, json.dumps(keyed([True, True, True]))])
    assert Faithfulness(llm=model).score(SAMPLE).value == 1.0


def test_context_recall_formula():
    model = fake(
        {"response": ["r"], "reference": ["a", "b"]},
        keyed([True, False]),
    )
    assert ContextRecall(llm=model).score(SAMPLE).value == 0.5


def test_answer_relevancy_noncommittal_and_n():
    committal = fake(*[{"question": "How long are blocks kept?", "noncommittal": False}] * 3)
    result = AnswerRelevancy(llm=committal, strictness=3).score(SAMPLE)
    assert 0.99 <= result.value <= 1.0 and len(result.trace["questions"]) == 3
    evasive = fake(*[{"question": "How long are blocks kept?", "noncommittal": True}] * 3)
    assert AnswerRelevancy(llm=evasive).score(SAMPLE).value == 0.0
    offline = AnswerRelevancy().score(SAMPLE.model_copy(update={"response": "I'm not sure, it depends."}))
    assert offline.value == 0.0 and offline.trace["offline"]


def test_missing_columns_fail_before_any_call(stub, chat):
    rows = [SAMPLE.model_dump(exclude_none=True), {"user_input": "q", "response": "r"}]
    dataset = EvaluationDataset.from_list(rows)
    with pytest.raises(ConfigError) as caught:
        evaluate(dataset, [Faithfulness(), ContextRecall()], llm=chat, show_progress=False, cache=False)
    message = str(caught.value)
    assert "metric faithfulness needs column 'retrieved_contexts', missing in row 1" in message
    assert "metric context_recall needs column 'reference', missing in row 1" in message
    assert stub.requests == []


def test_shared_steps_make_fewer_calls_together_than_alone(stub, chat, tmp_path):
    stub.on_chat(agreeable_judge)
    row = SAMPLE.model_copy(update={"reference": SAMPLE.response})  # same text decomposed by both metrics
    dataset = EvaluationDataset([row, row.model_copy(update={"user_input": "Where are blocks?"})])
    alone = 0
    for metric in (Faithfulness(), ContextRecall()):
        before = len(stub.chat_requests)
        evaluate(dataset, [metric], llm=chat, engine=CallEngine(cache=False), show_progress=False)
        alone += len(stub.chat_requests) - before
    before = len(stub.chat_requests)
    result = evaluate(
        dataset,
        [Faithfulness(), ContextRecall()],
        llm=chat,
        engine=CallEngine(cache=False),
        show_progress=False,
    )
    together = len(stub.chat_requests) - before
    assert together < alone
    saved = sum(u["shared"] + u["cache_hits"] for u in result.usage.values())
    assert together + saved == 2 * 2 * 2  # 2 metrics x 2 rows, each asking for statements and verdicts
    assert saved >= alone - together  # the usage summary shows the saving


def test_a_rerun_with_the_cache_repeats_no_call_and_results_round_trip(stub, chat, tmp_path):
    dataset = EvaluationDataset([SAMPLE])
    first = evaluate(dataset, [ContextPrecision()], llm=chat, cache=tmp_path / "c", show_progress=False)
    calls = len(stub.chat_requests)
    again = evaluate(dataset, [ContextPrecision()], llm=chat, cache=tmp_path / "c", show_progress=False)
    assert len(stub.chat_requests) == calls and again.usage["context_precision"]["calls"] == 0
    first.to_jsonl(tmp_path / "run.jsonl")
    back = EvaluationResult.load(tmp_path / "run.jsonl")
    assert back.metrics == ["context_precision"]
    assert back.cells[0]["context_precision"].trace == first.cells[0]["context_precision"].trace


@pytest.fixture(scope="module")
def grounded_samples():
    from groundset.synthesizers import TestsetGenerator

    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate_from_documents(
        EXAMPLE_DOCS, 12, seed=4
    )
    return list(testset)


def test_offline_sanity_on_real_text(grounded_samples):
    same = [
        SingleTurnSample(
            user_input=s.user_input,
            response=s.reference,
            reference=s.reference,
            retrieved_contexts=s.reference_contexts,
        )
        for s in grounded_samples
    ]
    result = evaluate(
        EvaluationDataset(same), [Faithfulness(), ContextRecall()], show_progress=False, cache=False
    )
    aggregate = result.aggregate()
    assert aggregate["faithfulness"]["mean"] >= 0.9 and aggregate["context_recall"]["mean"] >= 0.9
    unrelated = (
        "Sourdough needs a starter fed with flour and water. The loaf bakes for forty minutes at high heat."
    )
    off = [s.model_copy(update={"response": unrelated}) for s in same]
    faithfulness = evaluate(EvaluationDataset(off), [Faithfulness()], show_progress=False, cache=False)
    assert faithfulness.aggregate()["faithfulness"]["mean"] <= 0.3


def test_evaluate_and_metrics_commands(tmp_path, capsys, grounded_samples):
    from groundset.cli import main

    rows = [
        {
            "user_input": s.user_input,
            "response": s.reference,
            "reference": s.reference,
            "retrieved_contexts": s.reference_contexts,
        }
        for s in grounded_samples
    ]
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    code = main(
        [
            "evaluate",
            str(data),
            "--metrics",
            "faithfulness,context_recall",
            "--out",
            str(tmp_path / "run.jsonl"),
            "--no-cache",
            "-q",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "faithfulness" in printed and "95% CI" in printed and "model calls 0" in printed
    assert EvaluationResult.load(tmp_path / "run.jsonl").metrics == ["faithfulness", "context_recall"]
    assert main(["evaluate", str(data), "--metrics", "faithfulness,wisdom", "-q"]) == 2
    assert "unknown metric(s) wisdom" in capsys.readouterr().err
    assert main(["metrics"]) == 0
    listed = capsys.readouterr().out
    assert "context_precision" in listed and "retrieved_context_ids" in listed


def _verdicts(*flags: bool) -> dict:
    return keyed(flags)


def test_answer_correctness_blends_f1_and_similarity():
    from groundset.scoring import AnswerCorrectness

    sample = SingleTurnSample(response="A. B. C.", reference="A. B. D. E.")
    model = fake(
        {"response": ["A", "B", "C"], "reference": ["A", "B", "D", "E"]},
        # response statements vs reference: TP 2, FP 1; reference statements vs response: FN 2
        compared([True, True, False], [True, True, False, False]),
    )
    result = AnswerCorrectness(llm=model, weights=(1.0, 0.0)).score(sample)
    assert result.value == pytest.approx(2 * 2 / (2 * 2 + 1 + 2))  # F1 = 2TP / (2TP + FP + FN)
    assert result.trace["covered"] == [True, True, False, False]
    blended = AnswerCorrectness(
        llm=fake(
            {"response": ["A"], "reference": ["A"]},
            compared([True], [True]),
        )
    ).score(SingleTurnSample(response="same words here", reference="same words here"))
    assert blended.value == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize(("mode", "expected"), [("precision", 2 / 3), ("recall", 0.5), ("f1", 4 / 7)])
def test_factual_correctness_modes(mode, expected):
    from groundset.scoring import FactualCorrectness

    sample = SingleTurnSample(response="A. B. C.", reference="A. B. D. E.")
    answers = [
        {"response": ["A", "B", "C"], "reference": ["A", "B", "D", "E"]},
        compared([True, True, False], [True, True, False, False]),
    ]
    assert FactualCorrectness(llm=fake(*answers), mode=mode).score(sample).value == pytest.approx(expected)


def test_four_statement_metrics_together_make_fewer_calls_than_alone(stub, chat):
    from groundset.scoring import AnswerCorrectness, FactualCorrectness

    stub.on_chat(agreeable_judge)
    dataset = EvaluationDataset([SAMPLE, SAMPLE.model_copy(update={"user_input": "Where are blocks kept?"})])
    metrics = [Faithfulness, AnswerCorrectness, FactualCorrectness, ContextRecall]
    alone = 0
    for metric in metrics:
        before = len(stub.chat_requests)
        evaluate(
            dataset,
            [metric()],
            llm=chat,
            embeddings="offline",
            engine=CallEngine(cache=False),
            show_progress=False,
        )
        alone += len(stub.chat_requests) - before
    before = len(stub.chat_requests)
    result = evaluate(
        dataset,
        [m() for m in metrics],
        llm=chat,
        embeddings="offline",
        engine=CallEngine(cache=False),
        show_progress=False,
    )
    together = len(stub.chat_requests) - before
    assert together < alone, (together, alone)
    assert sum(u["calls"] for u in result.usage.values()) == together
    assert sum(u["shared"] + u["cache_hits"] for u in result.usage.values()) >= alone - together
    assert all(not row[m.name].error for row in result.cells for m in metrics)


NOISY = SingleTurnSample(
    user_input="How long are blocks kept?",
    response="Blocks are kept for 15 days. Blocks are stored on tape drives.",
    reference="Blocks are kept for 15 days.",
    retrieved_contexts=[
        "Blocks are kept for 15 days and compressed.",
        "Archived blocks are stored on tape drives in the basement.",
    ],
)


def test_noise_sensitivity_modes_offline():
    from groundset.scoring import NoiseSensitivity

    relevant = NoiseSensitivity().score(NOISY)
    assert relevant.value == 0.0 and relevant.trace["relevant_contexts"] == [True, False]
    irrelevant = NoiseSensitivity(mode="irrelevant").score(NOISY)
    assert irrelevant.value == 0.5 and irrelevant.trace["noisy"] == [False, True]
    with pytest.raises(ValueError, match="mode must be"):
        NoiseSensitivity(mode="loud")


def test_context_entity_recall():
    from groundset.scoring import ContextEntityRecall

    model = fake({"entities": ["TSDB", "15 days", "Thanos"]})
    result = ContextEntityRecall(llm=model).score(
        NOISY.model_copy(update={"retrieved_contexts": ["The TSDB keeps blocks for 15 days."]})
    )
    assert result.value == pytest.approx(2 / 3) and result.trace["present"] == ["TSDB", "15 days"]
    assert math.isnan(ContextEntityRecall(llm=fake({"entities": []})).score(NOISY).value)


async def test_an_interrupted_run_resumed_with_the_cache_repeats_no_finished_call(stub, chat, tmp_path):
    import asyncio

    stub.latency = 0.05
    stub.on_chat(lambda body: Reply.json(keyed([True, False, True, False])))
    rows = [SAMPLE.model_copy(update={"user_input": f"Question number {i}?"}) for i in range(40)]
    dataset = EvaluationDataset(rows)
    from groundset.scoring import aevaluate

    engine = CallEngine(cache=tmp_path / "cache", max_concurrency=4)
    task = asyncio.ensure_future(
        aevaluate(dataset, [ContextPrecision()], llm=chat, engine=engine, show_progress=False)
    )
    while len(engine.cache) < 8:  # let some cells finish, then interrupt the run
        await asyncio.sleep(0.005)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0.2)
    first = len(stub.chat_requests)
    stored = len(engine.cache)  # the cells that finished before the interruption
    assert stored >= 8 and first < 40  # the interruption stopped the queued calls
    result = await aevaluate(
        dataset, [ContextPrecision()], llm=chat, cache=tmp_path / "cache", show_progress=False
    )
    assert len(stub.chat_requests) - first == 40 - stored  # only unfinished cells are asked again
    assert result.usage["context_precision"]["cache_hits"] == stored
    assert not any(math.isnan(row["context_precision"].value) for row in result.cells)


def test_answer_relevancy_sends_n_exactly_under_concurrency(stub, chat):
    stub.on_chat(lambda body: Reply.json({"question": "How long are blocks kept?", "noncommittal": False}))
    rows = [SAMPLE.model_copy(update={"response": f"Blocks are kept for {i} days."}) for i in range(40)]
    result = evaluate(
        EvaluationDataset(rows),
        [AnswerRelevancy(strictness=3)],
        llm=chat,
        embeddings="offline",
        engine=CallEngine(cache=False, max_concurrency=32),
        show_progress=False,
    )
    assert len(stub.chat_requests) == 40 and all(r.body["n"] == 3 for r in stub.chat_requests)
    assert all(len(row["answer_relevancy"].trace["questions"]) == 3 for row in result.cells)


EMPTY_ANSWER = SingleTurnSample(
    user_input="How long are blocks kept?", response="  ", reference="Blocks are kept for 15 days."
)


def test_an_empty_response_scores_zero_for_answer_correctness_offline():
    """Judged and bad, not "cannot be judged": NaN would drop the row and lift the mean (issue 27)."""
    from groundset.scoring import AnswerCorrectness, FactualCorrectness, SemanticSimilarity

    result = evaluate(
        EvaluationDataset([EMPTY_ANSWER, SAMPLE]),
        [AnswerCorrectness(), FactualCorrectness(), SemanticSimilarity()],
        show_progress=False,
    )
    empty = result.cells[0]
    assert {name: cell.value for name, cell in empty.items()} == {
        "answer_correctness": 0.0,
        "factual_correctness": 0.0,
        "semantic_similarity": 0.0,
    }
    assert empty["answer_correctness"].trace["similarity"] == 0.0
    assert "empty" in empty["answer_correctness"].reason


def test_an_empty_response_scores_zero_for_answer_correctness_with_an_llm(stub, chat, openai_embeddings):
    """Through the stub: the empty response is not sent to the embedding model (whose vector for "" would
    give it a partial similarity), and the blend is 0 whatever the weights."""
    from groundset.scoring import AnswerCorrectness, FactualCorrectness

    from .scripted_model import scripted

    stub.on_chat(scripted)
    result = evaluate(
        EvaluationDataset([EMPTY_ANSWER]),
        [AnswerCorrectness(), FactualCorrectness(mode="precision")],
        llm=chat,
        embeddings=openai_embeddings,
        engine=CallEngine(cache=False),
        show_progress=False,
    )
    assert {name: cell.value for name, cell in result.cells[0].items()} == {
        "answer_correctness": 0.0,
        "factual_correctness": 0.0,
    }
    similarity_only = AnswerCorrectness(llm=chat, embeddings=openai_embeddings, weights=(0.0, 1.0))
    assert similarity_only.score(EMPTY_ANSWER).value == 0.0
    embedded = [text for r in stub.embedding_requests for text in r.body["input"]]
    assert not any(isinstance(text, str) and not text.strip() for text in embedded)
