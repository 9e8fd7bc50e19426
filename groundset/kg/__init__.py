"""Documents -> KnowledgeGraph (networkx): loading, transforms, relationships, persistence, updates."""

from ..documents.loader import LoadReport, LoadResult, load_documents
from .build import GraphBuild, abuild_knowledge_graph, add_documents, build_knowledge_graph
from .defaults import default_transforms
from .extractors import ChunkFactsExtractor, EmbeddingExtractor, HeadlinesExtractor, SummaryExtractor
from .graph import EdgeKind, KnowledgeGraph, NodeKind
from .relationships import OverlapBuilder, SimilarityBuilder
from .splitters import ChunkSplitter, HeadlineSplitter
from .transform import (
    BuildReport,
    StageReport,
    Transform,
    TransformError,
    aapply_transforms,
    apply_transforms,
)
from .update import CorpusDiff, GraphUpdate, aupdate_kg, update_kg

__all__ = [
    "BuildReport",
    "ChunkFactsExtractor",
    "ChunkSplitter",
    "CorpusDiff",
    "EdgeKind",
    "EmbeddingExtractor",
    "GraphBuild",
    "GraphUpdate",
    "HeadlineSplitter",
    "HeadlinesExtractor",
    "KnowledgeGraph",
    "LoadReport",
    "LoadResult",
    "NodeKind",
    "OverlapBuilder",
    "SimilarityBuilder",
    "StageReport",
    "SummaryExtractor",
    "Transform",
    "TransformError",
    "aapply_transforms",
    "abuild_knowledge_graph",
    "add_documents",
    "apply_transforms",
    "aupdate_kg",
    "build_knowledge_graph",
    "default_transforms",
    "load_documents",
    "update_kg",
]
