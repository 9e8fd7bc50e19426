"""The default transform chain, chosen from the corpus.

Long documents (>= 400 tokens) get headlines (from their structure, or the LLM when they have
none), headline-aware splitting and a summary with themes; short documents are chunked
directly. Every chunk then gets entities, keyphrases and themes (one call) and an embedding;
relationships are built last, with no model calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.documents import Document

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


def default_transforms(
    documents: KnowledgeGraph | Iterable[Document],
    llm: Any = None,
    embeddings: Any = None,
    *,
    chunk_size: int = 256,
    chunk_overlap: int = 32,
    long_tokens: int = LONG_DOCUMENT_TOKENS,
    similarity_threshold: float | None = None,
) -> list[Transform]:
    """The transforms for this corpus and these models, in order (see module docstring)."""
    texts = _texts(documents)
    any_long = any(is_long({"text": t}, long_tokens) for t in texts)
    if similarity_threshold is None:
        similarity_threshold, _ = cosine_thresholds(resolve_embeddings(embeddings).model)
    sizes = {"chunk_size": chunk_size, "chunk_overlap": chunk_overlap}
    chain: list[Transform] = []
    if any_long:
        chain += [
            HeadlinesExtractor(long_tokens),
            HeadlineSplitter(**sizes, where=lambda d: is_long(d, long_tokens)),
            ChunkSplitter(**sizes),
            SummaryExtractor(long_tokens),
        ]
    else:
        chain.append(ChunkSplitter(**sizes))
    chain += [ChunkFactsExtractor(), EmbeddingExtractor(NodeKind.CHUNK, "text", "embedding")]
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
