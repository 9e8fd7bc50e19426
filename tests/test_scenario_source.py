"""More scenarios when the first ones run out (``ScenarioSource``), in the same seeded order."""

from __future__ import annotations

import json
import random
import zlib

import numpy as np
import pytest

from groundset.core import CallEngine
from groundset.synthesizers import TestsetGenerator
from groundset.synthesizers.scenarios.scenario import Scenario
from groundset.synthesizers.scenarios.source import ScenarioSource

from .openai_stub import Reply
from .scripted_model import scripted
from .verdicts import for_keys


class CountingSynthesizer:
    """Scenarios c0, c1, ... in an order drawn from the rng (like a real synthesizer), ``total`` in all."""

    name = "counting"

    def __init__(self, total: int) -> None:
        self.total, self.searches = total, []

    def scenarios(self, kg, n, personas, rng):
        self.searches.append(n)
        order = list(range(self.total))
        rng.shuffle(order)
        return [Scenario.model_construct(nodes=[f"c{i}"], terms=["t"], language="en") for i in order[:n]]


def names(scenarios):
    return [s.nodes[0] for s in scenarios]


def test_more_scenarios_continue_the_seeded_order_without_repeats():
    synth = CountingSynthesizer(50)
    source = ScenarioSource(synth, kg=None, personas=None, seed="7:0:counting")
    first = source.first(5)
    more = source.more()  # looks twice as far: the next five of the same order
    again = source.more()
    everything = names(CountingSynthesizer(50).scenarios(None, 50, None, random.Random("7:0:counting")))
    assert names(first) == everything[:5] and names(more) == everything[5:10]
    assert names(again) == everything[10:20] and synth.searches == [5, 10, 20]
    rest = source.more() + source.more()  # 20 -> 40 -> 80: the corpus has 50
    assert names(rest) == everything[20:] and source.exhausted and source.more() == []


def test_scenarios_of_existing_samples_are_never_handed_out():
    source = ScenarioSource(CountingSynthesizer(12), kg=None, personas=None, seed="s")
    asked = {(("c3",), ("t",)), (("c4",), ("t",))}
    handed = names(source.first(4, asked)) + names(source.more()) + names(source.more())
    assert len(handed) == len(set(handed)) == 10 and not {"c3", "c4"} & set(handed)


@pytest.fixture(scope="module")
def prometheus(prometheus_graph):
    return prometheus_graph


def test_finding_scenarios_reads_the_graphs_languages_instead_of_loading_the_identifier(
    prometheus, monkeypatch
):
    """The language identifier takes most of a second of CPU to read, and scenarios are found while the
    first drafts go out: finding them must not need it (the graph knows each chunk's language)."""
    from langchain_core.language_models import FakeListChatModel

    from groundset.personas import Persona
    from groundset.synthesizers.scenarios.scenario import PersonaPool
    from groundset.text import language

    def refuse(*args, **kwargs):
        raise AssertionError("the language identifier was loaded")

    monkeypatch.setattr(language, "_loaded", [])
    monkeypatch.setattr("py3langid.langid.LanguageIdentifier.from_model_file", refuse)
    generator = TestsetGenerator(FakeListChatModel(responses=["{}"]), engine=CallEngine(cache=False))
    pool = PersonaPool([Persona(name="SRE", role_description="runs Prometheus")], np.zeros((1, 0)))
    for synthesizer, _ in generator.default_distribution():
        assert synthesizer.writes_with_model
        assert synthesizer.scenarios(prometheus, 60, pool, random.Random(1))


def test_a_strict_judge_on_a_large_corpus_still_gets_the_whole_test_set(stub, tmp_path, prometheus):
    """Six drafts in seven fail the gate: the first scenarios (three per sample) are not enough, so the
    generator looks further instead of stopping short; a rerun from the cache asks the same questions."""
    from langchain_openai import ChatOpenAI

    kg = prometheus
    drafts = []

    def strict(body):
        data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        if "statements" in data and zlib.crc32(json.dumps(data["statements"]).encode()) % 7:
            return Reply.json(for_keys(data["statements"], False, "no"))
        if "contexts" in data:
            drafts.append(data)
        return scripted(body)

    stub.on_chat(strict)
    llm = ChatOpenAI(base_url=stub.base_url, api_key="sk-test-strict", model="stub-model", max_retries=0)
    testset = TestsetGenerator(llm, engine=CallEngine(cache=tmp_path)).generate(kg, 6, seed=3)
    assert len(testset) == 6, testset.metadata["notes"]
    assert len(drafts) > 3 * 7  # more than the first scenarios (max(3 x 2, 2 + 5) per synthesizer)
    assert not any("the corpus gave" in note for note in testset.metadata["notes"])
    asked = len(stub.chat_requests)
    again = TestsetGenerator(llm, engine=CallEngine(cache=tmp_path)).generate(kg, 6, seed=3)
    assert len(stub.chat_requests) == asked  # every call found in the cache: the same scenarios, in order
    assert [s.user_input for s in again] == [s.user_input for s in testset]
