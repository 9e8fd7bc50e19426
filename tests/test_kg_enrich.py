"""Lazy graphs (the default) made eager later: same chunks and ids, LLM facts, overlap edges rebuilt."""

from __future__ import annotations

import pytest

from groundset.cli import main
from groundset.core import CallEngine
from groundset.core.errors import ConfigError
from groundset.kg import EdgeKind, KnowledgeGraph, NodeKind, build_knowledge_graph
from groundset.kg.enrich import enrich_kg

from .corpora import EXAMPLE_DOCS
from .openai_stub import Reply

PAGES = ["concepts/metric_types.md", "concepts/data_model.md"]


def facts_for_every_passage(body):
    """Chunk-fact batches get one answer per passage key; everything else the stub's default."""
    import json

    data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
    if "passages" not in data:
        return None
    return Reply.json(
        {
            key: {"entities": ["LLM-" + key], "keyphrases": ["llm phrase"], "themes": ["llm theme"]}
            for key in data["passages"]
        }
    )


def test_enriching_a_lazy_graph_asks_the_llm_and_keeps_chunks_and_ids(
    stub, chat, openai_embeddings, tmp_path
):
    models = {"llm": chat, "embeddings": openai_embeddings}
    lazy = build_knowledge_graph(EXAMPLE_DOCS, include=PAGES, engine=CallEngine(cache=False), **models).kg
    assert stub.chat_requests == []
    chunks = lazy.nodes(NodeKind.CHUNK)
    vectors = {c: lazy.get(c)["embedding"].tobytes() for c in chunks}
    stub.on_chat(facts_for_every_passage)
    result = enrich_kg(lazy, engine=CallEngine(cache=False), **models)
    kg = result.kg
    assert result.enriched and kg.graph.graph["options"]["enrich"] == "eager"
    assert kg.nodes(NodeKind.CHUNK) == chunks
    assert all(kg.get(c)["embedding"].tobytes() == vectors[c] for c in chunks)
    assert all(kg.get(c)["entities"][0].startswith("LLM-p") for c in chunks)
    assert all(kg.get(c)["themes"] == ["llm theme"] for c in chunks)
    assert sum(1 for _ in kg.edges(EdgeKind.THEME_OVERLAP)) > 0  # rebuilt from the new themes
    facts_calls = [s for s in result.report.stages if s.stage == "kg.chunk_facts"][0].usage.calls
    assert 0 < facts_calls < len(chunks)  # keyed batches, not one call per chunk
    again = enrich_kg(kg, engine=CallEngine(cache=False), **models)
    assert not again.enriched  # eager already: nothing asked


def test_enrich_needs_an_llm_and_the_same_embeddings(tmp_path, chat, openai_embeddings):
    lazy = build_knowledge_graph(EXAMPLE_DOCS, include=PAGES[:1], engine=CallEngine(cache=False)).kg
    lazy.graph.graph["options"]["enrich"] = "lazy"
    with pytest.raises(ConfigError, match="needs an LLM"):
        enrich_kg(lazy)
    with pytest.raises(ConfigError, match="same embeddings"):
        enrich_kg(lazy, llm=chat, embeddings=openai_embeddings)  # built with the offline embeddings


def test_cli_enrich_says_when_there_is_nothing_to_do(stub, chat, tmp_path, capsys, monkeypatch):
    kg_dir = tmp_path / "kg"
    build = [
        "kg",
        "build",
        str(EXAMPLE_DOCS),
        "--out",
        str(kg_dir),
        "--no-cache",
        "-q",
        "--include",
        PAGES[0],
    ]
    assert main(build) == 0
    graph = KnowledgeGraph.load(kg_dir)
    assert graph.graph.graph["options"]["enrich"] == "lazy"
    assert main(["kg", "enrich", str(kg_dir), "-q"]) == 1  # offline: no LLM to enrich with
    assert "needs an LLM" in capsys.readouterr().err
