"""Relationship builders: similar, entity_overlap and theme_overlap edges between nodes.

They rebuild their edge kind among the nodes they cover each time (no model calls, and the
pair search is sub-quadratic: see ``similarity`` and ``overlap``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .graph import EdgeKind, KnowledgeGraph, NodeKind
from .overlap import overlap_pair_arrays
from .similarity import similar_pair_arrays
from .transform import BuildContext, StageReport, Transform
from .vectors import rows_matrix


class SimilarityBuilder(Transform):
    """``similar`` edges: each node's top-k cosine neighbours above a threshold."""

    stage = "kg.similar"

    def __init__(
        self,
        kind: NodeKind = NodeKind.CHUNK,
        property: str = "embedding",
        k: int = 5,
        threshold: float = 0.75,
    ) -> None:
        self.kind, self.property, self.k, self.threshold = NodeKind(kind), property, k, threshold

    @property
    def name(self) -> str:
        return f"similar {self.kind.value}s"

    def select(self, kg: KnowledgeGraph) -> list[str]:
        return [n for n in kg.nodes(self.kind) if kg.get(n).get(self.property) is not None]

    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        report = self.report(nodes)
        with ctx.progress.stage(self.name, len(nodes)) as advance:
            kg.remove_edges(EdgeKind.SIMILAR, among=nodes)
            if len(nodes) > 1:
                matrix, copied = rows_matrix([kg.get(n)[self.property] for n in nodes])
                pairs = similar_pair_arrays(
                    matrix,
                    k=self.k,
                    threshold=self.threshold,
                    map_batches=ctx.backend.map_batches,
                    overwrite=copied,  # our own copy may be normalised in place; the graph's vectors not
                )
                del matrix  # before the edges are added: the peak of a big corpus's build is here
                kg.add_relations(EdgeKind.SIMILAR, list(nodes), columns=pairs)
            report.done = len(nodes)
            for _ in nodes:
                advance()
        return report


class OverlapBuilder(Transform):
    """``entity_overlap`` or ``theme_overlap`` edges: nodes that share items, with the items and a score."""

    def __init__(
        self,
        property: str = "entities",
        kind: NodeKind = NodeKind.CHUNK,
        min_score: float = 0.05,
        max_pairs_per_node: int = 10,
    ) -> None:
        edges = {"entities": EdgeKind.ENTITY_OVERLAP, "themes": EdgeKind.THEME_OVERLAP}
        if property not in edges:
            raise ValueError(f"OverlapBuilder: property must be 'entities' or 'themes', got {property!r}")
        self.property, self.edge_kind, self.kind = property, edges[property], NodeKind(kind)
        self.min_score, self.max_pairs_per_node = min_score, max_pairs_per_node

    @property
    def stage(self) -> str:  # type: ignore[override]
        return f"kg.{self.edge_kind.value}"

    @property
    def name(self) -> str:
        return f"shared {self.property}"

    def select(self, kg: KnowledgeGraph) -> list[str]:
        return [n for n in kg.nodes(self.kind) if kg.get(n).get(self.property)]

    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        report = self.report(nodes)
        with ctx.progress.stage(self.name, len(nodes)) as advance:
            kg.remove_edges(self.edge_kind, among=nodes)
            items = [list(kg.get(n)[self.property]) for n in nodes]
            pairs = overlap_pair_arrays(
                items,
                min_score=self.min_score,
                max_pairs_per_node=self.max_pairs_per_node,
                map_batches=ctx.backend.map_batches,
            )
            del items
            kg.add_relations(self.edge_kind, list(nodes), columns=pairs)
            report.done = len(nodes)
            for _ in nodes:
                advance()
        return report
