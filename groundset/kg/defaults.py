"""The default transform chain, chosen from the corpus.

Long documents (>= 400 tokens) get headlines (from their structure, or the LLM when they have
none), headline-aware splitting and a summary with themes; short documents are chunked
directly. Every chunk then gets entities, keyphrases and themes and an embedding; relationships
are built last, with no model calls. A lazy build (the default) takes the facts from the offline
extractors; an eager one asks the LLM (chunks in keyed batches, one call per long document).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.documents import Document

from ..core.errors import ConfigError
from ..core.models import resolve_embeddings
from ..core.offline_embeddings import cosine_thresholds
from .extractors import (
    LONG_DOCUMENT_TOKENS,
    ChunkFactsExtractor,
    EmbeddingExtractor,
    HeadlinesExtractor,
    SummaryExtractor,
    is_long,
)
from .graph import KnowledgeGraph, NodeKind
from .relationships import OverlapBuilder, SimilarityBuilder
from .splitters import ChunkSplitter, HeadlineSplitter
from .transform import Transform

ENRICH_MODES = ("lazy", "eager")


def default_transforms(
    documents: KnowledgeGraph | Iterable[Document],
    llm: Any = None,
    embeddings: Any = None,
    *,
    chunk_size: int = 256,
    chunk_overlap: int = 32,
    long_tokens: int = LONG_DOCUMENT_TOKENS,
    similarity_threshold: float | None = None,
    enrich: str = "lazy",
) -> list[Transform]:
    """The transforms for this corpus and these models, in order (see module docstring).

    ``enrich="lazy"`` (the default) builds the graph's facts (entities, keyphrases, themes, summaries)
    with the offline extractors even when an LLM is given: the structure a test set is drawn from
    costs no call, and the LLM is spent where questions are written (it reads each scenario's chunks
    itself). ``"eager"`` asks the LLM for every chunk's facts (batched) and every long document's
    summary; ``enrich_kg`` turns a lazy graph into an eager one later.
    """
    if enrich not in ENRICH_MODES:
        raise ConfigError(f"enrich must be one of {', '.join(ENRICH_MODES)}, got {enrich!r}")
    use_llm = enrich == "eager"
    texts = _texts(documents)
    any_long = any(is_long({"text": t}, long_tokens) for t in texts)
    if similarity_threshold is None:
        similarity_threshold, _ = cosine_thresholds(resolve_embeddings(embeddings).model)
    sizes = {"chunk_size": chunk_size, "chunk_overlap": chunk_overlap}
    chain: list[Transform] = []
    if any_long:
        chain += [
            HeadlinesExtractor(long_tokens, use_llm=use_llm),
            HeadlineSplitter(**sizes, where=lambda d: is_long(d, long_tokens)),
            ChunkSplitter(**sizes),
            SummaryExtractor(long_tokens, use_llm=use_llm),
        ]
    else:
        chain.append(ChunkSplitter(**sizes))
    chain += [ChunkFactsExtractor(use_llm=use_llm), EmbeddingExtractor(NodeKind.CHUNK, "text", "embedding")]
    if any_long:
        chain.append(EmbeddingExtractor(NodeKind.DOCUMENT, "summary", "summary_embedding"))
    chain += [
        SimilarityBuilder(NodeKind.CHUNK, "embedding", threshold=similarity_threshold),
        OverlapBuilder("entities"),
        OverlapBuilder("themes"),
    ]
    return chain


def _texts(documents: KnowledgeGraph | Iterable[Document]) -> Sequence[str]:
    if isinstance(documents, KnowledgeGraph):
        return [documents.get(d)["text"] for d in documents.nodes(NodeKind.DOCUMENT)]
    return [d.page_content for d in documents]
