"""The out_of_scope kind: questions near the corpus's topics whose answer is not in it, offline on the real
Prometheus docs and through a model (the stub), with the check that no likely chunk answers them."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from groundset.core import CallEngine
from groundset.kg import build_knowledge_graph
from groundset.personas import Persona
from groundset.personas.nouns import cjk_share
from groundset.samples.testset import Testset, TestsetSample
from groundset.synthesizers import QualityGate, TestsetGenerator
from groundset.synthesizers.out_of_scope import (
    ANSWER_FOUND,
    OutOfScopeQuerySynthesizer,
    supporting_chunks,
)
from groundset.synthesizers.out_of_scope_prompts import (
    ASPECTS,
    OutOfScopeInput,
    OutOfScopePrompt,
    is_refusal,
    refusal_reference,
)
from groundset.synthesizers.scenarios import PersonaPool

from .corpora import PROMETHEUS_DOCS
from .openai_stub import Reply

ZH_DOCS = Path(__file__).parent / "data" / "zh-docs"
SIZE = 10
IN_CORPUS = {
    "question": "Which port does Prometheus listen on by default?",
    "missing": "which port Prometheus listens on by default",
    "candidate_answer": "Prometheus listens on port 9090 by default.",
}
PERSONA = Persona(
    name="SRE running alerting for several teams",
    role_description="Keeps the alerting pipeline healthy and answers the pages it sends.",
)


@pytest.fixture(scope="module")
def graph():
    return build_knowledge_graph(PROMETHEUS_DOCS, engine=CallEngine(cache=False)).kg


@pytest.fixture(scope="module")
def offline_set(graph):
    engine = CallEngine(cache=False)
    synth = OutOfScopeQuerySynthesizer("offline", engine=engine)
    return TestsetGenerator(llm="offline", engine=engine).generate(graph, SIZE, [(synth, 1.0)], seed=0)


@pytest.fixture(scope="module")
def zh_graph():
    return build_knowledge_graph(ZH_DOCS, exclude=["README.md"]).kg


def _data(body: dict) -> dict:
    return json.loads(body["messages"][-1]["content"].removeprefix("Input: "))


def _states(candidate: str, passage: str) -> bool:
    """The scripted judge: a passage supports a candidate answer when it holds every number of it."""
    numbers = re.findall(r"\d+", candidate)
    return bool(numbers) and all(number in passage for number in numbers)


def scripted_model(in_corpus_once: bool = False):
    """Writes an out-of-scope question about the term (in Chinese when asked for Chinese), or once the
    in-corpus question; judges each passage by ``_states``."""
    used = threading.Event()
    if not in_corpus_once:
        used.set()

    def answer(body: dict) -> Reply | None:
        data = _data(body)
        if "refusal_form" in data:
            term = data["term"]
            if not used.is_set():
                used.set()
                return Reply.json(IN_CORPUS)
            if data["language"].startswith("zh"):
                return Reply.json(
                    {
                        "question": f"{term}有没有官方的安卓手机应用？",
                        "missing": f"{term}是否有官方的安卓手机应用",
                        "candidate_answer": f"有，{term}的官方应用支持安卓手机。",
                    }
                )
            return Reply.json(
                {
                    "question": f"Is there an official Android app for {term}?",
                    "missing": f"whether there is an official Android app for {term}",
                    "candidate_answer": f"Yes, the official {term} app for Android shows its alerts.",
                }
            )
        if "passages" in data:
            candidate = data["candidate_answer"]
            return Reply.json(
                {
                    key: {"verdict": _states(candidate, text), "reason": "scripted"}
                    for key, text in data["passages"].items()
                }
            )
        return None

    return answer


def assert_declinable(sample: TestsetSample, graph) -> None:
    assert sample.synthesizer == "out_of_scope"
    assert sample.expected_behaviour == "refuse"
    assert sample.reference_contexts == [] and sample.reference_context_ids == []
    assert len(sample.distractor_context_ids) >= 1
    assert [graph.get(n)["text"] for n in sample.distractor_context_ids] == sample.distractor_contexts
    assert sample.source_documents == list(
        dict.fromkeys(graph.get(n)["source"] for n in sample.distractor_context_ids)
    )
    assert is_refusal(sample.reference)


# -- offline -------------------------------------------------------------------------------------------


def test_offline_gives_ten_questions_to_decline_that_no_chunk_answers(graph, offline_set):
    assert len(offline_set) == SIZE
    assert offline_set.counts("synthesizer") == {"out_of_scope": SIZE}
    topics = {aspect.topic for aspect in ASPECTS}
    for sample in offline_set:
        assert_declinable(sample, graph)
        assert sample.reference.startswith("The documentation does not say ")
        term = sample.terms[0]
        assert term.casefold() in sample.user_input.casefold(), (term, sample.user_input)
        assert term.casefold() in sample.reference.casefold()  # the reference names what was asked
        assert sample.terms[1] in topics
        # a corpus term: one of the entities or key phrases of a chunk the question stays near
        named = {
            t.casefold()
            for node in sample.distractor_context_ids
            for t in [*graph.get(node).get("entities", []), *graph.get(node).get("keyphrases", [])]
        }
        assert term.casefold() in named
        assert supporting_chunks(graph, sample.user_input, terms=sample.terms) == [], sample.user_input
    assert len({s.terms[0].casefold() for s in offline_set}) == SIZE  # ten different terms
    assert len({s.terms[1] for s in offline_set}) >= 4  # and several aspects


def test_offline_samples_round_trip_and_become_refusals_to_score(offline_set, tmp_path):
    path = tmp_path / "testset.jsonl"
    offline_set.to_jsonl(path)
    again = Testset.from_jsonl(path)
    assert again == offline_set
    dataset = again.to_evaluation_dataset()
    assert len(dataset) == SIZE
    for item, sample in zip(dataset, again, strict=True):
        assert item.expected_behaviour == "refuse"
        assert item.user_input == sample.user_input and item.reference == sample.reference
        assert item.metadata["distractor_context_ids"] == sample.distractor_context_ids


def test_supporting_chunks_finds_what_the_corpus_does_answer(graph):
    found = supporting_chunks(graph, IN_CORPUS["question"], terms=["Prometheus"])
    assert any("9090" in graph.get(node)["text"] for node in found)
    # an installer question about a term whose chunks speak of Windows: the aspect's words give it away
    windows = supporting_chunks(graph, "Is there a Windows installer for Prometheus?", terms=["Prometheus"])
    assert windows and all(re.search(r"(?i)windows|installer", graph.get(n)["text"]) for n in windows)
    # who created Prometheus: the overview says it (SoundCloud, 2012), by words the question never uses
    created = "Who originally created Prometheus, and in which year did its development start?"
    found = supporting_chunks(graph, created, terms=["Prometheus"])
    assert any("SoundCloud" in graph.get(node)["text"] for node in found)
    # and what it does not answer
    question = "How much does a commercial licence for the Pushgateway cost per server?"
    assert supporting_chunks(graph, question, terms=["Pushgateway"]) == []


async def test_the_check_rejects_trivial_and_answered_questions_offline(graph):
    synth = OutOfScopeQuerySynthesizer("offline")
    pool = PersonaPool([PERSONA], np.zeros((1, 0), dtype=np.float32))
    scenario = synth.scenarios(graph, 1, pool, random.Random(3))[0]
    sample = await synth.generate(scenario)
    gate = QualityGate(None)
    assert await synth.check(gate, sample, scenario) is None
    short = sample.model_copy(update={"user_input": "Alertmanager price?"})
    assert await synth.check(gate, short, scenario) == "trivial: question too short"
    answered = sample.model_copy(update={"user_input": IN_CORPUS["question"], "terms": ["Prometheus"]})
    assert await synth.check(gate, answered, scenario) == ANSWER_FOUND


def test_offline_writes_no_english_question_around_chinese_text(zh_graph):
    synth = OutOfScopeQuerySynthesizer("offline")
    pool = PersonaPool([PERSONA], np.zeros((1, 0), dtype=np.float32))
    assert synth.scenarios(zh_graph, 5, pool, random.Random(0)) == []


def test_the_offline_prompt_names_the_term_and_what_was_asked():
    data = OutOfScopeInput(
        task="",
        persona="SRE: runs alerting",
        term="Alertmanager",
        contexts=["The Alertmanager groups alerts."],
        refusal_form="",
        aspect="licence_price",
        tool=True,
        style="perfect_grammar",
        length="short",
    )
    draft = OutOfScopePrompt().offline(data)
    assert "Alertmanager" in draft.question and draft.question.endswith("?")
    assert draft.missing.startswith(("how much", "whether", "what")) and "Alertmanager" in draft.missing
    assert refusal_reference(draft.missing, "en") == f"The documentation does not say {draft.missing}."
    assert refusal_reference("超时时间的收费标准", "zh") == "文档没有说明超时时间的收费标准。"
    assert is_refusal("文档没有说明超时时间的收费标准。") and not is_refusal("The default is 15 days.")


# -- through a model (the stub) --------------------------------------------------------------------------


def test_a_model_writes_ten_and_the_judge_rejects_an_answer_in_the_corpus(
    graph, stub, chat, openai_embeddings, engine
):
    stub.on_chat(scripted_model(in_corpus_once=True))
    synth = OutOfScopeQuerySynthesizer(chat, engine=engine)
    testset = TestsetGenerator(chat, openai_embeddings, personas=[PERSONA], engine=engine).generate(
        graph, SIZE, [(synth, 1.0)], seed=0
    )
    assert len(testset) == SIZE
    assert testset.metadata["rejections"].get(ANSWER_FOUND) == 1
    for sample in testset:
        assert_declinable(sample, graph)
        assert sample.user_input != IN_CORPUS["question"]
        asked = f"whether there is an official Android app for {sample.terms[0]}"
        assert sample.reference == f"The documentation does not say {asked}."
    bodies = [_data(r.body) for r in stub.chat_requests]
    drafts = [b for b in bodies if "refusal_form" in b]
    verdicts = [b for b in bodies if "passages" in b]
    assert len(drafts) == len(verdicts) >= SIZE + 1  # one judge call per draft
    assert all(d["language"] == "en (English)" and d["idea"] for d in drafts)
    assert any("9090" in text for b in verdicts for text in b["passages"].values())


async def test_the_check_rejects_a_scripted_candidate_that_the_corpus_states(graph, stub, chat, engine):
    stub.on_chat(scripted_model())
    synth = OutOfScopeQuerySynthesizer(chat, engine=engine)
    pool = PersonaPool([PERSONA], np.zeros((1, 0), dtype=np.float32))
    scenario, other = synth.scenarios(graph, 2, pool, random.Random(5))
    gate = QualityGate(chat, engine)
    stub.push(Reply.json(IN_CORPUS))
    answered = await synth.generate(scenario)
    assert answered.user_input == IN_CORPUS["question"]
    assert await synth.check(gate, answered, scenario) == ANSWER_FOUND
    declined = await synth.generate(other)  # the handler's out-of-scope question
    assert "Android" in declined.user_input
    assert await synth.check(gate, declined, other) is None


def test_a_chinese_folder_is_asked_in_chinese_through_the_model(
    zh_graph, stub, chat, openai_embeddings, engine
):
    stub.on_chat(scripted_model())
    synth = OutOfScopeQuerySynthesizer(chat, engine=engine)
    testset = TestsetGenerator(chat, openai_embeddings, personas=[PERSONA], engine=engine).generate(
        zh_graph, 3, [(synth, 1.0)], seed=1
    )
    assert len(testset) == 3
    for sample in testset:
        assert_declinable(sample, zh_graph)
        assert cjk_share(sample.user_input) >= 0.5, sample.user_input
        assert sample.reference.startswith("文档没有说明") and sample.reference.endswith("。")
    requests = [r.body for r in stub.chat_requests if "refusal_form" in _data(r.body)]
    assert requests and all("`language`" in body["messages"][0]["content"] for body in requests)
    for data in map(_data, requests):
        assert data["language"] == "zh (Chinese)" and data["refusal_form"] == "文档没有说明{missing}。"
        assert cjk_share(data["term"]) >= 0.5, data["term"]  # asked about a term in the text's own script
