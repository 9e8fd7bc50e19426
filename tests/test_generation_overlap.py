"""Generation keeps the model busy early: the first drafts go out while the other synthesizers' scenarios are
still searched, written personas need no embedding call, and the gate needs no language identifier when the
scenario knows the languages."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from langchain_openai import ChatOpenAI

from groundset.core import CallEngine
from groundset.core.aio import run_sync
from groundset.personas import Persona, acluster_documents
from groundset.synthesizers import TestsetGenerator
from groundset.synthesizers.kinds.multi_hop import MultiHopSpecificQuerySynthesizer

from .scripted_model import scripted


@pytest.fixture(scope="module")
def prometheus(prometheus_graph):
    return prometheus_graph


@pytest.fixture
def llm(stub):
    return ChatOpenAI(base_url=stub.base_url, api_key="sk-test-overlap", model="stub-model", max_retries=0)


def test_first_drafts_go_out_while_later_scenarios_are_searched(stub, llm, tmp_path, prometheus, monkeypatch):
    """The multi-hop search (the last synthesizer's) is held until a single-hop draft reaches the server:
    were the drafts sent only after every search, it would wait in vain. The gate reads the languages the
    scenarios know, so no language identifier is read on the way."""
    from groundset.text import language

    def refuse(*args, **kwargs):
        raise AssertionError("the language identifier was loaded")

    monkeypatch.setattr(language, "_loaded", [])
    monkeypatch.setattr("py3langid.langid.LanguageIdentifier.from_model_file", refuse)
    drafted = threading.Event()

    def answer(body):
        data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        if data.get("kind") == "single_hop_specific":
            drafted.set()
        return scripted(body)

    stub.on_chat(answer)
    search = MultiHopSpecificQuerySynthesizer.scenarios
    waited: list[bool] = []

    def held(self, *args):
        waited.append(drafted.wait(timeout=30))
        return search(self, *args)

    monkeypatch.setattr(MultiHopSpecificQuerySynthesizer, "scenarios", held)
    testset = TestsetGenerator(llm, engine=CallEngine(cache=tmp_path)).generate(prometheus, 6, seed=2)
    assert waited == [True]
    assert len(testset) == 6 and "multi_hop_specific" in testset.counts("synthesizer")
    asked = len(stub.chat_requests)
    monkeypatch.setattr(MultiHopSpecificQuerySynthesizer, "scenarios", search)  # no hold on the rerun
    again = TestsetGenerator(llm, engine=CallEngine(cache=tmp_path)).generate(prometheus, 6, seed=2)
    assert len(stub.chat_requests) == asked  # the same decisions, whatever the timing: all from the cache
    assert [s.user_input for s in again] == [s.user_input for s in testset]


def test_written_personas_are_matched_by_their_documents_without_an_embedding_call(
    stub, llm, openai_embeddings, tmp_path, prometheus
):
    stub.on_chat(scripted)
    generator = TestsetGenerator(llm, openai_embeddings, engine=CallEngine(cache=tmp_path), num_personas=3)
    testset = generator.generate(prometheus, 6, seed=4)
    personas = [Persona(**p) for p in testset.metadata["personas"]]
    embedded = {text for request in stub.embedding_requests for text in request.body["input"]}
    assert len(testset) == 6 and personas
    assert not {str(p) for p in personas} & embedded  # questions were embedded, persona descriptions not
    assert {s.persona for s in testset} <= {p.name for p in personas}


def test_a_persona_vector_is_the_centre_of_the_documents_it_was_written_for(prometheus):
    clusters = run_sync(acluster_documents(prometheus, 3))
    centres = np.vstack([c.centre for c in clusters])
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    checked = 0
    for index, cluster in enumerate(clusters):
        for member in cluster.ids:  # documents with a summary, else chunks: what was clustered
            data = prometheus.get(member)
            vector = np.asarray(data.get("summary_embedding", data.get("embedding")), dtype=np.float32)
            assert int(np.argmax(centres @ (vector / np.linalg.norm(vector)))) == index
            checked += 1
    assert checked == sum(len(c.ids) for c in clusters) > 3


def test_given_personas_are_still_matched_by_their_descriptions(
    stub, llm, openai_embeddings, tmp_path, prometheus
):
    stub.on_chat(scripted)
    given = [
        Persona(name="SRE on call", role_description="Keeps alerting useful at night."),
        Persona(name="Exporter author", role_description="Writes exporters for in-house services."),
    ]
    generator = TestsetGenerator(llm, openai_embeddings, given, engine=CallEngine(cache=tmp_path))
    assert len(generator.generate(prometheus, 3, seed=4)) == 3
    embedded = {text for request in stub.embedding_requests for text in request.body["input"]}
    assert {str(p) for p in given} <= embedded
