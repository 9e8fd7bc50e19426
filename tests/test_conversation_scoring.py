"""Conversations and out-of-scope questions through score_rag: follow-ups reach the target with their
earlier turns (as messages, or written out when the target takes none, with a note), the judges read
the last turn after the earlier ones, and every metric explains itself on a question with nothing to
retrieve."""

from __future__ import annotations

import html
import json
import math
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from langchain_core.runnables import RunnableLambda

from groundset.samples.dataset import EvaluationDataset
from groundset.samples.testset import Testset
from groundset.samples.testset_sample import TestsetSample
from groundset.samples.turns import Turn
from groundset.scoring.metrics import (
    MRR,
    NDCG,
    AnswerCorrectness,
    AnswerRelevancy,
    ContextPrecision,
    ContextRecall,
    ContextUtilization,
    FactualCorrectness,
    Faithfulness,
    HitRate,
    IDBasedContextPrecision,
    IDBasedContextRecall,
    NonLLMContextPrecisionWithReference,
    NonLLMContextRecall,
    RefusalCorrectness,
)
from groundset.scoring.report.breakdowns import all_breakdowns
from groundset.scoring.score_rag import score_rag
from groundset.scoring.targets import HISTORY_AS_TEXT, RagAnswer, conversation_text

from .openai_stub import Reply

PORT_FACT = "The node exporter listens on port 9100 by default."
BLACKBOX_FACT = "The blackbox exporter listens on port 9115 by default."
RETENTION_FACT = "Prometheus keeps samples for 15 days unless the retention flag says otherwise."
FIRST_QUESTION = "Which port does the node exporter listen on?"
FOLLOW_UP = "And the blackbox exporter?"
OUT_OF_SCOPE = "Which cloud vendor hosts the official Prometheus demo site?"
FACTS = {"c-port": PORT_FACT, "c-blackbox": BLACKBOX_FACT, "c-retention": RETENTION_FACT}


def conversation_set() -> Testset:
    """A plain question, a follow-up after one earlier turn, and a question the documents do not cover."""
    plain = TestsetSample.create(
        user_input="How long does Prometheus keep samples?",
        reference="15 days by default.",
        reference_contexts=[RETENTION_FACT],
        reference_context_ids=["c-retention"],
        synthesizer="single_hop_specific",
    )
    follow_up = TestsetSample.create(
        user_input=FOLLOW_UP,
        reference="The blackbox exporter listens on port 9115.",
        reference_contexts=[BLACKBOX_FACT],
        reference_context_ids=["c-blackbox"],
        synthesizer="conversational",
        history=[
            Turn(
                user_input=FIRST_QUESTION,
                reference="Port 9100.",
                reference_contexts=[PORT_FACT],
                reference_context_ids=["c-port"],
            )
        ],
    )
    refuse = TestsetSample.create(
        user_input=OUT_OF_SCOPE,
        reference="The documents do not say which vendor hosts the demo site.",
        reference_contexts=[],
        reference_context_ids=[],
        synthesizer="out_of_scope",
        expected_behaviour="refuse",
    )
    return Testset([plain, follow_up, refuse])


EARLIER = [
    {"role": "user", "content": FIRST_QUESTION},
    {"role": "assistant", "content": "Port 9100."},
]


def answer_from_facts(question: str) -> RagAnswer:
    """Retrieve the fact the (last) question is about and answer with it; decline the demo-site question."""
    if "demo site" in question:
        return RagAnswer(
            response="The documents do not say which vendor hosts the demo site.",
            retrieved_contexts=[RETENTION_FACT],
            retrieved_context_ids=["c-retention"],
        )
    last = question.rsplit("The question now:", 1)[-1]
    key = "c-blackbox" if "blackbox" in last else "c-retention" if "keep" in last else "c-port"
    return RagAnswer(response=FACTS[key], retrieved_contexts=[FACTS[key]], retrieved_context_ids=[key])


def declining_judge(body: dict) -> Reply | None:
    """The refusal judge declines; every other prompt gets the stub's schema-valid default."""
    if '"behaviour"' not in json.dumps(body):
        return None
    return Reply.json({"reason": "It says the documents are silent.", "behaviour": "declines"})


# -- the target gets the conversation ---------------------------------------------------------------


def test_a_callable_taking_history_gets_the_earlier_turns_as_messages():
    seen: list[tuple[str, object]] = []

    def rag(question: str, history: list[dict] | None = None) -> RagAnswer:
        seen.append((question, history))
        return answer_from_facts(question)

    result = score_rag(conversation_set(), rag, [Faithfulness()], show_progress=False)
    asked = dict(seen)
    assert asked[FOLLOW_UP] == EARLIER
    assert asked["How long does Prometheus keep samples?"] is None and asked[OUT_OF_SCOPE] is None
    assert "target" not in result.notes
    assert result.dataset[1].response == BLACKBOX_FACT


def test_a_callable_with_only_kwargs_gets_history_too():
    seen: dict[str, object] = {}

    async def rag(question: str, **options: object) -> RagAnswer:
        seen[question] = options.get("history")
        return answer_from_facts(question)

    result = score_rag(conversation_set(), rag, [Faithfulness()], show_progress=False)
    assert seen[FOLLOW_UP] == EARLIER and "target" not in result.notes


def test_a_callable_without_history_gets_the_conversation_as_one_text_and_the_run_says_so(capsys):
    seen: list[str] = []

    def rag(question: str) -> RagAnswer:
        seen.append(question)
        return answer_from_facts(question)

    result = score_rag(conversation_set(), rag, [Faithfulness()], show_progress=False)
    rendered = result.dataset[1].asked()
    assert rendered in seen and FOLLOW_UP not in seen
    assert rendered == conversation_text(FOLLOW_UP, EARLIER)
    assert FIRST_QUESTION in rendered and "Port 9100." in rendered and rendered.endswith(FOLLOW_UP)
    assert "How long does Prometheus keep samples?" in seen  # no history: asked as it is
    assert result.notes["target"] == HISTORY_AS_TEXT
    assert result.dataset[1].user_input == FOLLOW_UP  # what is scored is the test set's question
    from groundset.cli.summary import print_summary

    print_summary(result, 1.0)
    assert f"note: target: {HISTORY_AS_TEXT}" in capsys.readouterr().out


def test_a_test_set_without_conversations_gets_no_note():
    plain = Testset([conversation_set()[0]])
    result = score_rag(plain, lambda q: answer_from_facts(q), [Faithfulness()], show_progress=False)
    assert result.notes == {}


def test_a_runnable_with_an_input_key_gets_a_history_key_and_one_without_gets_text():
    from groundset.scoring.targets import RunnableTarget

    inputs: list[object] = []

    def chain(payload: object) -> RagAnswer:
        inputs.append(payload)
        return answer_from_facts(payload["input"] if isinstance(payload, dict) else str(payload))

    keyed = score_rag(
        conversation_set(),
        RunnableTarget(RunnableLambda(chain), input_key="input"),
        [Faithfulness()],
        show_progress=False,
    )
    assert {"input": FOLLOW_UP, "history": EARLIER} in inputs
    assert {"input": OUT_OF_SCOPE} in inputs and "target" not in keyed.notes
    inputs.clear()
    plain = score_rag(conversation_set(), RunnableLambda(chain), [Faithfulness()], show_progress=False)
    assert conversation_text(FOLLOW_UP, EARLIER) in inputs and plain.notes["target"] == HISTORY_AS_TEXT


def test_a_target_object_whose_answer_takes_no_history_gets_text():
    class Legacy:
        name = "legacy"

        def __init__(self) -> None:
            self.questions: list[str] = []

        async def answer(self, question: str) -> RagAnswer:
            self.questions.append(question)
            return answer_from_facts(question)

    target = Legacy()
    result = score_rag(conversation_set(), target, [Faithfulness()], show_progress=False)
    assert conversation_text(FOLLOW_UP, EARLIER) in target.questions
    assert result.notes["target"] == HISTORY_AS_TEXT


class _Recorder(BaseHTTPRequestHandler):
    bodies: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).bodies.append(body)
        answer = answer_from_facts(body["question"])
        payload = json.dumps(answer.model_dump()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def recording_server():
    _Recorder.bodies = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/rag"
    server.shutdown()
    server.server_close()


def test_an_http_body_has_history_only_for_the_follow_up(recording_server):
    result = score_rag(conversation_set(), recording_server, [Faithfulness()], show_progress=False)
    by_question = {body["question"]: body for body in _Recorder.bodies}
    assert by_question[FOLLOW_UP] == {"question": FOLLOW_UP, "history": EARLIER}
    assert by_question[OUT_OF_SCOPE] == {"question": OUT_OF_SCOPE}
    assert "history" not in by_question["How long does Prometheus keep samples?"]
    assert "target" not in result.notes and not any(call.error for call in result.target_calls)


def test_an_http_target_with_its_own_history_field_or_none(recording_server):
    from groundset.scoring.http_target import HttpTarget

    score_rag(
        conversation_set(),
        HttpTarget(recording_server, history_field="messages"),
        [Faithfulness()],
        show_progress=False,
    )
    assert {"question": FOLLOW_UP, "messages": EARLIER} in _Recorder.bodies
    _Recorder.bodies = []
    result = score_rag(
        conversation_set(),
        HttpTarget(recording_server, history_field=""),
        [Faithfulness()],
        show_progress=False,
    )
    assert {"question": conversation_text(FOLLOW_UP, EARLIER)} in _Recorder.bodies
    assert result.notes["target"] == HISTORY_AS_TEXT


# -- the judges read the last turn after the earlier ones -------------------------------------------


def _inputs(stub) -> list[dict]:
    return [json.loads(r.body["messages"][-1]["content"].removeprefix("Input: ")) for r in stub.chat_requests]


def test_faithfulness_and_answer_correctness_judges_see_the_earlier_turns(
    stub, chat, openai_embeddings, engine
):
    def rag(question: str, history: list[dict] | None = None) -> RagAnswer:
        return answer_from_facts(question)

    metrics = [Faithfulness(), AnswerCorrectness()]
    result = score_rag(
        conversation_set()[:2],
        rag,
        metrics,
        llm=chat,
        embeddings=openai_embeddings,
        engine=engine,
        show_progress=False,
    )
    assert not any(cell.error for row in result.cells for cell in row.values())
    decompositions = [data for data in _inputs(stub) if "question" in data and "atomicity" in data]
    questions = {data["question"] for data in decompositions}
    # The plain question reaches the judge as it is (its cache key is unchanged); the follow-up after
    # the earlier turn, so the statements of "It listens on 9115" can name the blackbox exporter.
    assert "How long does Prometheus keep samples?" in questions
    (conversation,) = [q for q in questions if FOLLOW_UP in q]
    assert FIRST_QUESTION in conversation and "Port 9100." in conversation
    assert conversation.index(FIRST_QUESTION) < conversation.index(FOLLOW_UP)


def test_the_other_judges_read_the_conversation_too(stub, chat, openai_embeddings, engine):
    from groundset.scoring.metrics import AnswerAccuracy, Coherence, ContextRelevance

    def rag(question: str, history: list[dict] | None = None) -> RagAnswer:
        return answer_from_facts(question)

    metrics = [ContextPrecision(), Coherence(), ContextRelevance(), AnswerAccuracy()]
    score_rag(
        conversation_set()[1:2],
        rag,
        metrics,
        llm=chat,
        embeddings=openai_embeddings,
        engine=engine,
        show_progress=False,
    )
    questions = [data["question"] for data in _inputs(stub) if "question" in data]
    assert len(questions) >= len(metrics)
    assert all(FIRST_QUESTION in q and q.endswith(FOLLOW_UP) for q in questions)


# -- out-of-scope questions ---------------------------------------------------------------------------


def test_default_metrics_add_refusal_correctness_when_a_sample_says_how_to_behave():
    result = score_rag(conversation_set(), answer_from_facts, show_progress=False)
    assert "refusal_correctness" in result.metrics
    assert result.scores("refusal_correctness")[2] == 1.0  # it declined the out-of-scope question
    assert result.scores("refusal_correctness")[:2] == [1.0, 1.0]  # and answered the others
    assert "id_context_recall" in result.metrics  # the refuse row's empty ids do not turn ID recall off
    plain = score_rag(Testset([conversation_set()[0]]), answer_from_facts, show_progress=False)
    assert "refusal_correctness" not in plain.metrics


ALL_RETRIEVAL_AND_ANSWER_METRICS = [
    Faithfulness,
    AnswerRelevancy,
    ContextPrecision,
    ContextUtilization,
    ContextRecall,
    AnswerCorrectness,
    FactualCorrectness,
    IDBasedContextRecall,
    IDBasedContextPrecision,
    HitRate,
    MRR,
    NDCG,
    NonLLMContextRecall,
    NonLLMContextPrecisionWithReference,
    RefusalCorrectness,
]


def _check_explained(result, index: int) -> dict[str, object]:
    cells = result.cells[index]
    for name, cell in cells.items():
        assert not cell.error, (name, cell.error)
        if math.isnan(cell.value):
            assert cell.reason, name
    return cells


@pytest.mark.parametrize("llm", ["offline", "stub"])
def test_every_metric_on_an_out_of_scope_sample_explains_its_nan_or_scores(llm, request):
    kwargs = {}
    if llm == "stub":
        request.getfixturevalue("stub").on_chat(declining_judge)
        kwargs = {
            "llm": request.getfixturevalue("chat"),
            "embeddings": request.getfixturevalue("openai_embeddings"),
            "engine": request.getfixturevalue("engine"),
        }
    metrics = [cls() for cls in ALL_RETRIEVAL_AND_ANSWER_METRICS]
    result = score_rag(conversation_set(), answer_from_facts, metrics, show_progress=False, **kwargs)
    cells = _check_explained(result, 2)
    for name in (
        "context_recall",
        "context_precision",
        "id_context_recall",
        "id_context_precision",
        "hit_rate",
        "mrr",
        "ndcg",
        "non_llm_context_recall",
        "non_llm_context_precision_with_reference",
    ):
        assert (
            math.isnan(cells[name].value) and "out-of-scope sample: nothing to retrieve" in cells[name].reason
        )
    for name in ("answer_correctness", "factual_correctness", "answer_relevancy"):
        assert math.isnan(cells[name].value) and cells[name].reason.startswith("out-of-scope sample"), name
    faithfulness = cells["faithfulness"]
    assert math.isnan(faithfulness.value) and "the response declines" in faithfulness.reason
    assert cells["refusal_correctness"].value == 1.0
    assert not math.isnan(cells["context_utilization"].value)  # judged against the response: a score
    if llm == "stub":  # faithfulness asked the refusal judge the very question refusal_correctness did
        stub = request.getfixturevalue("stub")
        assert sum('"behaviour"' in json.dumps(r.body) for r in stub.chat_requests) == 3  # once per sample
    for index in (0, 1):  # the answerable questions are scored as before
        scored = _check_explained(result, index)
        assert scored["id_context_recall"].value == 1.0


def test_faithfulness_still_checks_an_invented_answer_to_an_out_of_scope_question():
    def inventing(question: str) -> RagAnswer:
        return RagAnswer(
            response="The demo site is hosted on Google Cloud.", retrieved_contexts=[RETENTION_FACT]
        )

    result = score_rag(
        Testset([conversation_set()[2]]),
        inventing,
        [Faithfulness(), RefusalCorrectness()],
        show_progress=False,
    )
    (row,) = result.cells
    assert row["faithfulness"].value == 0.0 and not row["faithfulness"].error
    assert row["refusal_correctness"].value == 0.0
    assert row["refusal_correctness"].reason.startswith("invented an answer to an out-of-scope question")


def test_an_evaluation_dataset_with_an_empty_reference_context_list_and_no_behaviour_explains_itself():
    rows = [
        {
            "user_input": OUT_OF_SCOPE,
            "response": "It is hosted on AWS.",
            "retrieved_contexts": [RETENTION_FACT],
            "retrieved_context_ids": ["c-retention"],
            "reference_contexts": [],
            "reference_context_ids": [],
            "reference": "Unknown.",
        }
    ]
    result = score_rag(
        EvaluationDataset.from_list(rows),
        lambda q: RagAnswer(
            response="It is hosted on AWS.",
            retrieved_contexts=[RETENTION_FACT],
            retrieved_context_ids=["c-retention"],
        ),
        [IDBasedContextRecall(), NonLLMContextRecall(), HitRate()],
        show_progress=False,
    )
    cells = _check_explained(result, 0)
    assert "no reference context ids" in cells["id_context_recall"].reason
    assert "no reference context to recall" in cells["non_llm_context_recall"].reason


def test_the_report_breaks_scores_down_by_the_new_kinds():
    result = score_rag(conversation_set(), answer_from_facts, [RefusalCorrectness()], show_progress=False)
    metadatas = [sample.metadata for sample in result.dataset]
    found = {
        b.key: b
        for b in all_breakdowns(metadatas, {"refusal_correctness": result.scores("refusal_correctness")}, [])
    }
    labels = {group.label for group in found["synthesizer"].groups}
    assert labels == {"single_hop_specific", "conversational", "out_of_scope"}


def test_a_run_with_conversations_round_trips_and_reports(tmp_path):
    from groundset.scoring.result import EvaluationResult

    result = score_rag(conversation_set(), lambda q: answer_from_facts(q), show_progress=False)
    result.to_jsonl(tmp_path / "run.jsonl")
    loaded = EvaluationResult.load(tmp_path / "run.jsonl")
    assert loaded.notes["target"] == HISTORY_AS_TEXT
    assert loaded.dataset[1].history is not None and loaded.dataset[2].expected_behaviour == "refuse"
    assert "refusal_correctness" in loaded.metrics
    loaded.report(tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "out_of_scope" in page and "conversational" in page
    assert html.escape(HISTORY_AS_TEXT, quote=False) in page  # the target note is on the page too
    assert html.escape(FIRST_QUESTION, quote=False) in page  # a follow-up is shown after its earlier turns


def test_evaluate_adds_refusal_correctness_by_default_too():
    from groundset.scoring import evaluate

    answered = score_rag(conversation_set(), answer_from_facts, [Faithfulness()], show_progress=False).dataset
    result = evaluate(answered, show_progress=False)
    assert result.metrics[-1] == "refusal_correctness" and result.scores("refusal_correctness")[2] == 1.0
    plain = evaluate(EvaluationDataset([answered[0]]), show_progress=False)
    assert "refusal_correctness" not in plain.metrics


def test_a_callable_whose_history_has_no_default_gets_an_empty_one_for_single_questions():
    seen: dict[str, list] = {}

    def rag(question: str, history: list) -> RagAnswer:
        seen[question] = history
        return answer_from_facts(question)

    result = score_rag(conversation_set(), rag, [Faithfulness()], show_progress=False)
    assert not any(call.error for call in result.target_calls)
    assert seen[FOLLOW_UP] == EARLIER and seen[OUT_OF_SCOPE] == []
