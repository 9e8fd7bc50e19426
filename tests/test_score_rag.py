"""score_rag: targets of every kind, failures on single rows, HTTP endpoints, the baseline, the CLI gate."""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from langchain_core.documents import Document
from langchain_core.runnables import RunnableLambda

from groundset.cli import main
from groundset.core.errors import ConfigError
from groundset.samples.dataset import EvaluationDataset
from groundset.scoring.metrics import Faithfulness, IDBasedContextRecall
from groundset.scoring.result import EvaluationResult
from groundset.scoring.score_rag import score_rag
from groundset.scoring.targets import RagAnswer, as_answer
from groundset.testing import assert_scores

FACTS = {
    "What port does the node exporter listen on?": "The node exporter listens on port 9100.",
    "How long does Prometheus keep data by default?": "Prometheus keeps data for 15 days by default.",
    "What does a counter do?": "A counter is a metric that only goes up or resets to zero.",
}


def questions(n: int) -> EvaluationDataset:
    items = list(FACTS.items())
    rows = []
    for i in range(n):
        question, fact = items[i % len(items)]
        rows.append(
            {
                "user_input": f"{question} ({i})",
                "reference": fact,
                "reference_contexts": [fact],
                "reference_context_ids": [f"c{i % len(items)}"],
                "metadata": {"id": f"s{i}"},
            }
        )
    return EvaluationDataset.from_list(rows)


def knowing(question: str) -> tuple[str, list[str]]:
    """A sync target that answers from the fact it retrieves."""
    fact = FACTS[question.rsplit(" (", 1)[0]]
    return fact, [fact]


def test_a_sync_function_returning_a_tuple_is_scored():
    result = score_rag(questions(6), knowing, [Faithfulness()], show_progress=False)
    assert result.target == "knowing"
    assert result.scores("faithfulness") == [1.0] * 6
    assert result.dataset[0].response == FACTS["What port does the node exporter listen on?"]
    summary = result.target_summary()
    assert summary["calls"] == 6 and summary["errors"] == 0
    assert 0 <= summary["p50_s"] <= summary["p95_s"]


def test_async_function_dict_and_langchain_documents():
    async def answer(question: str) -> dict:
        fact = FACTS[question.rsplit(" (", 1)[0]]
        return {
            "answer": fact,
            "context": [
                Document(
                    page_content=fact, id=f"c{list(FACTS).index(fact[:0] or question.rsplit(' (', 1)[0])}"
                )
            ],
        }

    result = score_rag(questions(3), answer, show_progress=False)
    assert "id_context_recall" in result.metrics  # the target gave ids, the test set has reference ids
    assert result.scores("id_context_recall") == [1.0, 1.0, 1.0]
    assert result.dataset[1].retrieved_context_ids == ["c1"]


def test_a_langchain_runnable_is_a_target():
    chain = RunnableLambda(lambda q: RagAnswer(response=knowing(q)[0], retrieved_contexts=knowing(q)[1]))
    result = score_rag(questions(3), chain, [Faithfulness()], show_progress=False)
    assert result.scores("faithfulness") == [1.0, 1.0, 1.0]


def test_a_target_failing_on_one_question_in_ten_never_stops_the_run():
    calls = []

    def flaky(question: str) -> tuple[str, list[str]]:
        calls.append(question)
        if question.endswith("(3)") or question.endswith("(13)"):
            raise RuntimeError("index shard unavailable")
        return knowing(question)

    result = score_rag(questions(20), flaky, [Faithfulness()], show_progress=False)
    assert len(calls) == 20
    failed = [i for i, call in enumerate(result.target_calls) if call.error]
    assert failed == [3, 13]
    assert "index shard unavailable" in result.target_calls[3].error
    for i in failed:
        cell = result.cells[i]["faithfulness"]
        assert math.isnan(cell.value) and cell.error.startswith("target failed: RuntimeError")
        assert result.dataset[i].response is None
    aggregate = result.aggregate()["faithfulness"]
    assert aggregate["n"] == 18 and aggregate["errors"] == 2 and aggregate["mean"] == 1.0
    assert result.target_summary()["errors"] == 2


def test_wrong_return_types_fail_their_row_with_a_readable_error():
    def odd(question: str) -> object:
        return {"contexts": ["x"]} if "(0)" in question else ("answer", "one string, not a list")

    result = score_rag(questions(2), odd, [Faithfulness()], show_progress=False)
    assert "without a response" in result.target_calls[0].error
    assert "one string" in result.target_calls[1].error


def test_as_answer_reads_the_documented_shapes():
    assert as_answer(("a", ["c"], ["i"])) == RagAnswer(
        response="a", retrieved_contexts=["c"], retrieved_context_ids=["i"]
    )
    assert as_answer(
        {"response": "a", "retrieved_contexts": [{"text": "c", "id": 7}]}
    ).retrieved_context_ids == ["7"]
    with pytest.raises(TypeError, match="tuple of 4"):
        as_answer(("a", [], [], 1))


def test_a_slow_async_target_times_out_on_its_row_only():
    async def slow(question: str) -> tuple[str, list[str]]:
        if "(1)" in question:
            await asyncio.sleep(5)
        return knowing(question)

    start = time.perf_counter()
    result = score_rag(questions(3), slow, [Faithfulness()], target_timeout=0.3, show_progress=False)
    assert time.perf_counter() - start < 5  # the run did not wait for the slow question
    assert "timed out after 0.3 s" in result.target_calls[1].error
    assert result.scores("faithfulness")[0] == 1.0


def test_a_metric_the_test_set_cannot_feed_fails_before_any_question_is_asked():
    asked = []
    data = EvaluationDataset.from_list([{"user_input": "q"}])
    with pytest.raises(ConfigError, match="reference"):
        score_rag(data, lambda q: asked.append(q) or ("a", []), show_progress=False)
    assert asked == []


def test_no_ids_from_the_target_gives_id_metrics_a_reason_not_an_error():
    result = score_rag(questions(2), knowing, [IDBasedContextRecall()], show_progress=False)
    cell = result.cells[0]["id_context_recall"]
    assert math.isnan(cell.value) and "returned no retrieved_context_ids" in cell.reason and not cell.error


def test_run_file_keeps_target_latency_and_errors(tmp_path):
    def flaky(question: str):
        if "(0)" in question:
            raise ValueError("boom")
        return knowing(question)

    result = score_rag(questions(5), flaky, [Faithfulness()], show_progress=False)
    result.to_jsonl(tmp_path / "run.jsonl")
    header = json.loads((tmp_path / "run.jsonl").read_text().splitlines()[0])
    assert header["target"]["errors"] == 1 and header["target"]["name"] == "flaky"
    loaded = EvaluationResult.load(tmp_path / "run.jsonl")
    assert loaded.target == "flaky" and loaded.target_calls[0].error == "ValueError: boom"
    assert loaded.target_summary()["calls"] == 5


def test_assert_scores_names_each_failing_metric():
    result = score_rag(questions(6), knowing, [Faithfulness()], show_progress=False)
    assert_scores(result, faithfulness=0.9)
    with pytest.raises(AssertionError, match=r"faithfulness: 1.000 < 1.1 \(95% CI 1.000 - 1.000, n=6\)"):
        assert_scores(result, faithfulness=1.1)
    with pytest.raises(Exception, match="not scored in this run"):
        assert_scores(result, context_recall=0.5)


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        question = body.get("query", "")
        if self.path == "/slow":
            time.sleep(1.5)
        if self.path == "/broken" or "(2)" in question:
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"internal error")
            return
        fact = FACTS.get(question.rsplit(" (", 1)[0], "unknown")
        reply = {"data": {"text": fact, "sources": [{"content": fact, "id": "c0"}]}}
        payload = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that timed out closed its socket: expected in the timeout test


@pytest.fixture
def rag_server():
    server = _QuietServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_http_target_with_its_own_field_names(rag_server):
    from groundset.scoring.http_target import HttpTarget

    target = HttpTarget(
        f"{rag_server}/rag",
        question_field="query",
        response_field="data.text",
        contexts_field="data.sources",
        timeout=5,
    )
    result = score_rag(questions(4), target, [Faithfulness()], show_progress=False)
    assert result.dataset[0].response == FACTS["What port does the node exporter listen on?"]
    assert result.dataset[0].retrieved_context_ids == ["c0"]
    assert "HTTP 500" in result.target_calls[2].error and not result.target_calls[3].error
    assert result.scores("faithfulness")[0] == 1.0


def test_a_slow_http_target_hits_the_timeout(rag_server):
    from groundset.scoring.http_target import HttpTarget

    target = HttpTarget(f"{rag_server}/slow", question_field="query", response_field="data.text", timeout=0.3)
    result = score_rag(questions(2), target, [Faithfulness()], target_timeout=10, show_progress=False)
    assert all("did not answer within 0.3 s" in call.error for call in result.target_calls)


def test_a_missing_reply_field_names_what_is_there(rag_server):
    from groundset.scoring.http_target import HttpTarget

    target = HttpTarget(f"{rag_server}/rag", question_field="query", response_field="data.answer")
    result = score_rag(questions(1), target, [Faithfulness()], show_progress=False)
    assert (
        "no 'data.answer'" in result.target_calls[0].error and "text, sources" in result.target_calls[0].error
    )


def test_cli_scores_a_module_function_and_gates(tmp_path, monkeypatch, capsys):
    (tmp_path / "my_rag.py").write_text(
        "def answer(question):\n    return {'response': 'The node exporter listens on port 9100.', "
        "'retrieved_contexts': ['The node exporter listens on port 9100.']}\n"
    )
    questions(4).to_jsonl(tmp_path / "t.jsonl")
    monkeypatch.chdir(tmp_path)
    args = ["score", "--testset", "t.jsonl", "--target", "my_rag:answer", "--metrics", "faithfulness", "-q"]
    assert main([*args, "--out", "run.jsonl", "--fail-under", "faithfulness=0.5"]) == 0
    printed = capsys.readouterr().out
    assert (
        "target: my_rag:answer: 4 questions, 0 failed" in printed and "pass: faithfulness >= 0.5" in printed
    )
    assert EvaluationResult.load(tmp_path / "run.jsonl").target == "my_rag:answer"
    assert main([*args, "--fail-under", "faithfulness=1.01"]) == 1
    assert "FAIL faithfulness: 1.000 < 1.01" in capsys.readouterr().err
    assert main([*args, "--fail-under", "faithfulnes=0.5"]) == 1
    assert "faithfulnes unknown" in capsys.readouterr().err
    assert main(["score", "--testset", "t.jsonl", "--target", "my_rag:nothing", "-q"]) == 1
    assert "has no attribute 'nothing'" in capsys.readouterr().err
    assert main(["score", "--testset", "t.jsonl", "--target", "baseline", "-q"]) == 1
    assert "--target baseline needs --kg" in capsys.readouterr().err


def test_your_columns_come_back_in_the_run_file_and_to_pandas(tmp_path):
    rows = [
        {
            "user_input": f"{q} ({i})",
            "reference": fact,
            "label": ["easy", "hard"][i % 2],
            "ticket_id": 1000 + i,
        }
        for i, (q, fact) in enumerate(FACTS.items())
    ]
    (tmp_path / "data.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    result = score_rag(tmp_path / "data.jsonl", knowing, [Faithfulness()], show_progress=False)
    result.to_jsonl(tmp_path / "run.jsonl")
    records = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()[1:]]
    assert [(r["sample"]["label"], r["sample"]["ticket_id"]) for r in records] == [
        (row["label"], row["ticket_id"]) for row in rows
    ]
    loaded = EvaluationResult.load(tmp_path / "run.jsonl")
    assert loaded.dataset.extra_columns == ["label", "ticket_id"]
    frame = loaded.to_pandas()
    assert list(frame["label"]) == ["easy", "hard", "easy"] and list(frame["ticket_id"]) == [1000, 1001, 1002]
    assert list(frame["faithfulness"]) == [1.0, 1.0, 1.0] and list(frame["target_error"]) == ["", "", ""]


def test_a_lower_is_better_metric_fails_its_bar_from_above():
    from groundset.scoring.thresholds import below_thresholds

    aggregate = {"noise_sensitivity": {"mean": 0.4}, "faithfulness": {"mean": 0.4}}
    assert below_thresholds(aggregate, {"noise_sensitivity": 0.3, "faithfulness": 0.3}) == [
        "noise_sensitivity: 0.400 > 0.3 (lower is better)"
    ]
    assert below_thresholds(aggregate, {"noise_sensitivity": 0.5, "faithfulness": 0.5}) == [
        "faithfulness: 0.400 < 0.5"
    ]


def test_a_named_target_labels_the_run_and_the_comparison():
    from groundset.scoring.compare import compare_runs

    one = score_rag(questions(6), knowing, [Faithfulness()], name="top-1", show_progress=False)
    two = score_rag(questions(6), knowing, [Faithfulness()], name="top-5", show_progress=False)
    assert one.target == "top-1"
    comparison = compare_runs(one, two)
    assert (comparison.label_a, comparison.label_b) == ("top-1", "top-5")


def _tiny_graph():
    from groundset.kg.graph import KnowledgeGraph

    kg = KnowledgeGraph()
    doc = kg.add_document("x", source="exporters.md")
    texts = [
        "The node exporter listens on port 9100 and exposes host metrics.",
        "Alertmanager groups alerts and routes them to receivers.",
        "Prometheus keeps data for 15 days by default.",
    ]
    ids = [kg.add_chunk(doc, text, position=i) for i, text in enumerate(texts)]
    return kg, ids


def test_the_baseline_retrieves_by_bm25_and_answers_offline_from_the_retrieved_sentences():
    from groundset.scoring.baseline import NOT_FOUND, BaselineRAG

    kg, ids = _tiny_graph()
    rag = BaselineRAG(kg, top_k=2)
    assert rag.retrieve("Which port does the node exporter listen on?")[0] == ids[0]
    answer = asyncio.run(rag.answer("Which port does the node exporter listen on?"))
    assert "9100" in answer.response and answer.retrieved_context_ids[0] == ids[0]
    assert asyncio.run(rag.answer("zebra giraffe")).response == NOT_FOUND


def test_the_baseline_answers_through_a_real_chat_model_on_the_stub(chat, stub, engine):
    from groundset.scoring.baseline import BaselineRAG

    from .openai_stub import Reply

    stub.always(Reply.json({"answer": "It listens on port 9100."}))
    kg, ids = _tiny_graph()
    rag = BaselineRAG(kg, top_k=1, llm=chat, engine=engine)
    assert rag.name.startswith("baseline (BM25 top_k=1, answered by")
    data = EvaluationDataset.from_list(
        [{"user_input": "What port does the node exporter use?", "reference": "9100"}]
    )
    result = score_rag(data, rag, [Faithfulness()], engine=engine, show_progress=False)
    assert result.dataset[0].response == "It listens on port 9100."
    assert result.dataset[0].retrieved_context_ids == [ids[0]]
    sent = [
        m["content"]
        for r in stub.requests
        for m in r.body["messages"]
        if "node exporter" in str(m["content"])
    ]
    assert any(
        "9100 and exposes host metrics" in str(c) for c in sent
    )  # the retrieved chunk went to the model
    assert result.usage["target"]["calls"] == 1


def test_a_fake_chat_model_behind_a_runnable_target():
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    model = FakeListChatModel(responses=["The node exporter listens on port 9100."])
    chain = RunnableLambda(lambda q: {"question": q}) | (lambda d: model.invoke(d["question"]))
    result = score_rag(questions(1), chain, [Faithfulness()], show_progress=False)
    assert result.dataset[0].response == "The node exporter listens on port 9100."
    assert result.dataset[0].retrieved_contexts == []


def test_ragas_metric_names_are_accepted(tmp_path, capsys):
    from groundset.scoring.metrics import ALIASES, METRICS, LLMContextRecall, metric_class

    assert all(target in METRICS for target in ALIASES.values())
    assert metric_class("llm_context_recall") is LLMContextRecall is METRICS["context_recall"]
    questions(2).to_jsonl(tmp_path / "t.jsonl")
    (tmp_path / "rag.py").write_text(
        "def answer(q):\n    return 'The node exporter listens on port 9100.', []\n"
    )
    args = ["score", "--testset", str(tmp_path / "t.jsonl"), "--target", "rag:answer", "-q"]
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        assert main([*args, "--metrics", "llm_context_recall,response_relevancy"]) == 0
    finally:
        sys.path.remove(str(tmp_path))
    assert "context_recall" in capsys.readouterr().out


def test_the_baseline_reads_a_follow_up_with_its_earlier_turns(chat, stub, engine):
    from groundset.scoring.baseline import BaselineRAG
    from groundset.scoring.targets import takes_history

    from .openai_stub import Reply

    kg, ids = _tiny_graph()
    history = [
        {"role": "user", "content": "What does the node exporter expose?"},
        {"role": "assistant", "content": "Host metrics."},
    ]
    offline = BaselineRAG(kg, top_k=1)
    assert takes_history(offline)
    assert offline.retrieve("And what about its address?") != [ids[0]]  # alone it names nothing
    answer = asyncio.run(offline.answer("And what about its address?", history=history))
    assert answer.retrieved_context_ids == [ids[0]] and "9100" in answer.response
    stub.always(Reply.json({"answer": "Port 9100."}))
    model = BaselineRAG(kg, top_k=1, llm=chat, engine=engine)
    assert asyncio.run(model.answer("And what about its address?", history=history)).response == "Port 9100."
    prompt = stub.requests[-1].body["messages"][-1]["content"]
    assert "What does the node exporter expose?" in prompt and "And what about its address?" in prompt
