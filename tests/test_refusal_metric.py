"""Refusal correctness: out-of-scope questions declined score 1 and invented answers 0, in-scope ones the
other way round; offline by refusal claims (six languages; facts stated in the negative are answers,
measured on the labelled set in tests/data/refusals), and through a judge on the stub."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path

import pytest

from groundset.cli import main
from groundset.samples.dataset import EvaluationDataset
from groundset.samples.evaluation import SingleTurnSample
from groundset.scoring import evaluate
from groundset.scoring.metrics import METRICS, RefusalCorrectness, metric_class
from groundset.scoring.metrics.refusal_phrases import declines, find_refusal

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


FACTS_IN_THE_NEGATIVE = [
    # issue 27: a fact about the subject in a subordinate clause
    "Alertmanager drops an alert when there is not enough information in its labels to route it.",
    # the same fact as a main clause: the information is missing from the labels, not from the documents
    "There is not enough information in the labels to route the alert, so Alertmanager drops it.",
    "The scrape fails because the target does not provide enough information to identify the series.",
    "In that case Prometheus has no information about the target's labels and keeps the defaults.",
    "It is not possible to determine the number of series in advance, because labels are added at runtime.",
    "The request context does not specify a deadline, so the call can block forever.",
    "The rate cannot be determined from a single sample, so rate() needs at least two.",
    'Alertmanager logs "not enough information to route" and drops the notification.',
    "Q. What if I am not sure about signing up to be a mentor?",
    "We can't see which URL we probed.",
    "Alertmanager verwirft einen Alarm, wenn seine Labels nicht genug Informationen enthalten.",
    "Prometheus gibt keine Informationen über gelöschte Serien aus.",
    "Optionen, die in der Konfiguration nicht beschrieben sind, behalten ihren Standardwert.",
    "Der Exporter weiß nicht, welche URL geprüft wurde.",
    "Le serveur ne renvoie aucune information sur l'erreur.",
    "La spécification ne précise pas l'ordre des familles de métriques.",
    "Les métriques dont le nom n'est pas mentionné dans la configuration sont ignorées.",
    # "la documentation" alone is no claim, wherever a negation stands in the sentence
    "La documentation explique que Prometheus ne supprime pas les séries.",
    "Prometheus ne garde pas les données au-delà de 15 jours, selon la documentation.",
    "No hay información de depuración en el binario compilado.",
    "El archivo no se encuentra en el directorio de datos, así que Prometheus crea uno nuevo.",
    "Alertmanager descarta una alerta cuando sus etiquetas no contienen suficiente información.",
    "程序找不到配置文件，于是退出。",
    "文档中没有提到的选项会被忽略。",
    "Prometheus 找不到目标时会把 up 设为 0。",
    "该指标没有相关的标签信息。",
    "設定ファイルが見つからない場合、Prometheus は起動しません。",
    "記載されていないラベルは削除されます。",
    "このメトリクスにはラベル情報がありません。",
]


@pytest.mark.parametrize("fact", FACTS_IN_THE_NEGATIVE)
def test_a_refusal_phrase_about_the_subject_is_not_a_refusal(fact):
    """A subordinate or relative clause, a subject or place other than the answerer and its material, an
    impersonal claim not tied to answering, a question or a quotation: the answer states a fact."""
    assert find_refusal(fact) is None, find_refusal(fact)


REFUSALS_IN_SIX_LANGUAGES = [
    "Based on the documents provided, there is no information about who maintains the Windows installer.",
    "Since the documentation does not describe a graphical installer, I can't tell you whether one exists.",
    "There is not enough information in the provided documents to say who sells support.",
    "That is outside the scope of the provided documentation.",
    "In den bereitgestellten Dokumenten gibt es keine Informationen über einen Supportvertrag.",
    "Leider kann ich diese Frage anhand der Dokumentation nicht beantworten.",
    "Il n'y a aucune information sur les brevets dans la documentation.",
    "Les documents fournis ne mentionnent pas le prix d'une licence commerciale.",
    "Cela sort du cadre de la documentation.",
    "No hay información sobre patentes en la documentación.",
    "Los documentos proporcionados no mencionan el precio de una licencia.",
    "根据提供的资料，我无法回答这个问题。",
    "很抱歉，文档里找不到这个问题的答案。",
    "申し訳ありませんが、提供された資料には該当する情報が見つかりません。",
    "ドキュメントにはその点について記載されていません。",
    "ドキュメントには記載なし。",
]


@pytest.mark.parametrize("response", REFUSALS_IN_SIX_LANGUAGES)
def test_a_refusal_claim_about_the_answerer_or_its_documents_declines(response):
    assert declines(response), response


def test_the_issue_sentence_answers_an_answerable_question():
    """Issue 27: a real answer with "not enough information" in it scored 0 as a refusal."""
    question = "When does Alertmanager drop an alert?"
    (cell,) = scored([sample(question, FACTS_IN_THE_NEGATIVE[0], behaviour="answer")])
    assert cell.value == 1.0 and cell.reason.startswith("answered an answerable question"), cell.reason


LABELLED = Path(__file__).parent / "data" / "refusals" / "refusals.jsonl"


def test_the_offline_detector_on_the_labelled_set():
    """Precision and recall of the refusal detector on the labelled set (sources in its README), overall
    and per language; docs/benchmarks.md gives the figures."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # found and right, found, refusals
    for line in LABELLED.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        found = declines(row["text"])
        for group in ("all", row["language"]):
            counts[group][0] += found and row["declines"]
            counts[group][1] += found
            counts[group][2] += row["declines"]
    assert set(counts) == {"all", "en", "de", "fr", "es", "zh", "ja"}
    for group, (right, found, refusals) in counts.items():
        precision, recall = right / found, right / refusals
        assert precision >= (0.98 if group == "all" else 0.95), (group, precision)
        assert recall >= (0.97 if group == "all" else 0.95), (group, recall)


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
