"""An embeddings server failing during generation costs the samples of that moment, never the run."""

from __future__ import annotations

import pytest
from langchain_core.embeddings import Embeddings

from groundset.core.engine import CallEngine
from groundset.core.errors import ModelCallError
from groundset.core.offline_embeddings import HashingEmbeddings
from groundset.kg.build import build_knowledge_graph
from groundset.personas import Persona
from groundset.synthesizers import TestsetGenerator

from ..corpora import EXAMPLE_DOCS

PERSONAS = [
    Persona(name="Operator", role_description="runs the monitoring stack"),
    Persona(name="Developer", role_description="instruments services"),
]


class FailingEmbeddings(Embeddings):
    """Hashing vectors, but the calls numbered in ``fail`` (from 1) raise as a dead server would."""

    def __init__(self, fail: set[int]) -> None:
        self.inner, self.fail, self.calls = HashingEmbeddings(), fail, 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls in self.fail:
            raise RuntimeError("embeddings server went away")
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


@pytest.fixture(scope="module")
def graph():
    return build_knowledge_graph(EXAMPLE_DOCS, engine=CallEngine(cache=False)).kg


def generate(graph, fail: set[int]):
    embeddings = FailingEmbeddings(fail)
    generator = TestsetGenerator(
        embeddings=embeddings, personas=PERSONAS, engine=CallEngine(cache=False), duplicate_threshold=0.9
    )
    return generator.generate(graph, 6, seed=3), embeddings


def test_failed_persona_embeddings_draw_personas_at_random(graph):
    testset, embeddings = generate(graph, {1})
    assert len(testset) == 6 and embeddings.calls > 1
    assert any("persona embeddings failed" in note for note in testset.metadata["notes"])
    assert {s.persona for s in testset} <= {p.name for p in PERSONAS}


def test_a_failed_wave_is_counted_and_the_run_goes_on(graph):
    clean, _ = generate(graph, set())
    testset, _ = generate(graph, {2})  # call 1: personas; call 2: the first wave of drafted questions
    assert testset.metadata["rejections"].get("failed: embeddings", 0) >= 1
    assert any(" failed and w" in note for note in testset.metadata["notes"])
    assert len(testset) == len(clean)  # later waves made up for the lost drafts


def test_embeddings_failing_every_time_name_the_cause(graph):
    with pytest.raises(ModelCallError, match="embeddings server went away"):
        generate(graph, set(range(1, 1000)))
