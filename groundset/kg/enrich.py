"""enrich_kg(): turn a lazy graph (offline facts) into an eager one (LLM facts), later, when wanted.

A lazy build spends no LLM call on the graph's facts; a user who later wants LLM-written entities,
keyphrases, themes and summaries (for `kg show`, or their own use of the graph) enriches it instead
of rebuilding: chunks, ids and embeddings stay, so test sets drawn from the graph stay valid.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.aio import run_sync
from ..core.engine import CallEngine
from ..core.errors import ConfigError
from ..core.models import describe_model, is_offline, model_identity, resolve_embeddings, resolve_llm
from .extractors import (
    LONG_DOCUMENT_TOKENS,
    ChunkFactsExtractor,
    EmbeddingExtractor,
    SummaryExtractor,
    is_long,
)
from .graph import EdgeKind, KnowledgeGraph, NodeKind
from .relationships import OverlapBuilder
from .transform import BuildReport, aapply_transforms

CHUNK_FACTS = ("entities", "keyphrases", "themes")
DOCUMENT_FACTS = ("summary", "themes", "summary_embedding")


@dataclass
class Enrichment:
    kg: KnowledgeGraph
    report: BuildReport
    enriched: bool  # False: the graph was eager already, nothing was asked


async def aenrich_kg(
    kg: KnowledgeGraph | str | Path,
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    show_progress: bool = False,
) -> Enrichment:
    """Ask ``llm`` for every chunk's facts (keyed batches) and every long document's summary, then
    rebuild the entity and theme overlap edges. Chunks, ids, chunk embeddings and similarity edges stay."""
    graph = kg if isinstance(kg, KnowledgeGraph) else KnowledgeGraph.load(kg)
    llm = resolve_llm(llm).model
    embeddings = resolve_embeddings(embeddings).model
    if is_offline(llm):
        raise ConfigError("enriching a graph needs an LLM: pass --llm openai:<model> (or set GROUNDSET_LLM)")
    options = dict(graph.graph.graph.get("options") or {})
    if options.get("enrich", "eager") != "lazy":
        return Enrichment(graph, BuildReport(), enriched=False)
    _check_embeddings(graph, embeddings)
    long_tokens = int(options.get("long_tokens") or LONG_DOCUMENT_TOKENS)
    for chunk in graph.nodes(NodeKind.CHUNK):
        for name in CHUNK_FACTS:
            graph.get(chunk).pop(name, None)
    for document in graph.nodes(NodeKind.DOCUMENT):
        if is_long(graph.get(document), long_tokens):
            for name in DOCUMENT_FACTS:
                graph.get(document).pop(name, None)
    for kind in (EdgeKind.ENTITY_OVERLAP, EdgeKind.THEME_OVERLAP):
        graph.remove_edges(kind)
    chain = [
        SummaryExtractor(long_tokens),
        ChunkFactsExtractor(),
        EmbeddingExtractor(NodeKind.DOCUMENT, "summary", "summary_embedding"),
        OverlapBuilder("entities"),
        OverlapBuilder("themes"),
    ]
    report = await aapply_transforms(
        graph, chain, llm=llm, embeddings=embeddings, engine=engine, show_progress=show_progress
    )
    graph.graph.graph["options"] = {**options, "enrich": "eager"}
    models = dict(graph.graph.graph.get("models") or {})
    models["llm"] = {"name": describe_model(llm), "identity": model_identity(llm)}
    graph.graph.graph["models"] = models
    return Enrichment(graph, report, enriched=True)


def enrich_kg(kg: KnowledgeGraph | str | Path, **options: Any) -> Enrichment:
    """The sync twin of ``aenrich_kg``."""
    return run_sync(aenrich_kg(kg, **options))


def _check_embeddings(kg: KnowledgeGraph, embeddings: Any) -> None:
    """The graph's vectors stay, so new summary vectors must come from the same embeddings model."""
    recorded = (kg.graph.graph.get("models") or {}).get("embeddings") or {}
    identity = recorded.get("identity")
    if identity and identity != model_identity(embeddings):
        raise ConfigError(
            f"this graph's vectors come from {recorded.get('name', 'another model')}; enrich it with the "
            f"same embeddings (--embeddings), not {describe_model(embeddings)}"
        )
