"""KnowledgeGraph: documents and chunks as nodes of a networkx MultiDiGraph, typed edges between them.

Node ids are content addressed (the same text from the same source gives the same id in every
run), so a rebuild, a cache and a test set all agree on what a chunk is. A chunk's id depends on its
document's path and its own text only, not on the rest of the document: an edit elsewhere in the page
leaves it, and every test-set sample grounded on it, as it was. Symmetric relations
(similar, entity_overlap, theme_overlap) are stored once, from the smaller id to the larger.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import Any

import networkx as nx

from ..core.hashing import stable_hash


class NodeKind(StrEnum):
    DOCUMENT = "document"
    CHUNK = "chunk"


class EdgeKind(StrEnum):
    CHILD = "child"  # document -> chunk
    NEXT = "next"  # chunk -> following chunk of the same document
    SIMILAR = "similar"  # embeddings cosine, with score
    ENTITY_OVERLAP = "entity_overlap"  # shared entities, with items and score
    THEME_OVERLAP = "theme_overlap"  # shared themes, with items and score


SYMMETRIC = frozenset({EdgeKind.SIMILAR, EdgeKind.ENTITY_OVERLAP, EdgeKind.THEME_OVERLAP})
VECTOR_PROPERTIES = ("embedding", "summary_embedding")


def document_id(source: str, content_hash: str) -> str:
    return "doc-" + stable_hash(["document", source, content_hash], length=16)


def chunk_id(source: str, text: str, occurrence: int = 0) -> str:
    """The id of the ``occurrence``-th chunk (0: the first) with this text in the document at ``source``."""
    return "chunk-" + stable_hash(["chunk", source, text, occurrence], length=16)


class KnowledgeGraph:
    """A thin, typed view over ``networkx.MultiDiGraph``; algorithms stay plain functions over ``.graph``."""

    def __init__(self, graph: nx.MultiDiGraph | None = None) -> None:
        self.graph: nx.MultiDiGraph = graph if graph is not None else nx.MultiDiGraph()

    # -- nodes ---------------------------------------------------------------------------
    def add_node(self, node_id: str, kind: NodeKind | str, **properties: Any) -> str:
        kind = NodeKind(kind)
        if node_id in self.graph and self.graph.nodes[node_id]["kind"] != kind:
            raise ValueError(f"node {node_id!r} already exists as a {self.graph.nodes[node_id]['kind']}")
        self.graph.add_node(node_id, kind=kind.value, **properties)
        return node_id

    def add_document(
        self, text: str, *, source: str, content_hash: str | None = None, **properties: Any
    ) -> str:
        content_hash = content_hash or stable_hash(text)
        node = document_id(source, content_hash)
        return self.add_node(
            node, NodeKind.DOCUMENT, text=text, source=source, content_hash=content_hash, **properties
        )

    def add_chunk(self, document: str, text: str, *, position: int, **properties: Any) -> str:
        """Add a chunk of ``document`` and the child edge to it (the same chunk again updates it). A text
        the document already holds in another chunk gets the next occurrence's id."""
        parent = self.get(document)
        occurrence = 0
        while (node := chunk_id(parent["source"], text, occurrence)) in self.graph and (
            self.graph.nodes[node].get("document"),
            self.graph.nodes[node].get("position"),
        ) != (document, position):
            occurrence += 1
        self.add_node(
            node,
            NodeKind.CHUNK,
            text=text,
            source=parent["source"],
            document=document,
            position=position,
            **properties,
        )
        self.add_edge(document, node, EdgeKind.CHILD)
        return node

    def get(self, node_id: str) -> dict[str, Any]:
        """The node's live property dict (changes to it change the graph)."""
        try:
            return self.graph.nodes[node_id]
        except KeyError:
            raise KeyError(f"no node {node_id!r} in the knowledge graph") from None

    def set(self, node_id: str, **properties: Any) -> None:
        self.get(node_id).update(properties)

    def nodes(self, kind: NodeKind | str | None = None) -> list[str]:
        """Node ids (of one kind), in insertion order."""
        if kind is None:
            return list(self.graph.nodes)
        kind = NodeKind(kind).value
        return [n for n, k in self.graph.nodes(data="kind") if k == kind]

    def chunks_of(self, document: str) -> list[str]:
        """The document's chunks in reading order."""
        children = self.neighbours(document, EdgeKind.CHILD)
        return sorted(children, key=lambda n: self.graph.nodes[n].get("position", 0))

    def remove_nodes(self, node_ids: Iterable[str]) -> None:
        self.graph.remove_nodes_from(list(node_ids))

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.graph

    def __len__(self) -> int:
        return self.graph.number_of_nodes()

    # -- edges ---------------------------------------------------------------------------
    def add_edge(self, source: str, target: str, kind: EdgeKind | str, **properties: Any) -> None:
        """Add (or update) the edge of this kind; symmetric kinds are stored once, smaller id first."""
        kind = EdgeKind(kind)
        for node in (source, target):
            if node not in self.graph:
                raise KeyError(f"cannot add a {kind.value} edge: no node {node!r}")
        if kind in SYMMETRIC:
            source, target = sorted((source, target))
            properties["symmetric"] = True
        self.graph.add_edge(source, target, key=kind.value, kind=kind.value, **properties)

    def edges(self, kind: EdgeKind | str | None = None) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
        wanted = None if kind is None else EdgeKind(kind).value
        for source, target, key, data in self.graph.edges(keys=True, data=True):
            if wanted is None or key == wanted:
                yield source, target, key, data

    def edge(self, source: str, target: str, kind: EdgeKind | str) -> dict[str, Any] | None:
        kind = EdgeKind(kind)
        if kind in SYMMETRIC:
            source, target = sorted((source, target))
        return self.graph.get_edge_data(source, target, key=kind.value)

    def neighbours(self, node_id: str, kind: EdgeKind | str | None = None) -> list[str]:
        """Nodes joined to ``node_id`` by an edge of ``kind``: successors, or either way if symmetric."""
        kinds = [EdgeKind(kind)] if kind is not None else list(EdgeKind)
        seen: dict[str, None] = {}
        for k in kinds:
            for _, target, key in self.graph.out_edges(node_id, keys=True):
                if key == k.value:
                    seen[target] = None
            if k in SYMMETRIC:
                for source, _, key in self.graph.in_edges(node_id, keys=True):
                    if key == k.value:
                        seen[source] = None
        return list(seen)

    def remove_edges(self, kind: EdgeKind | str) -> int:
        """Drop every edge of ``kind`` (e.g. before rebuilding relationships); returns how many."""
        doomed = [(s, t, k) for s, t, k, _ in self.edges(kind)]
        self.graph.remove_edges_from(doomed)
        return len(doomed)

    # -- views -----------------------------------------------------------------------------
    def subgraph(self, node_ids: Iterable[str]) -> KnowledgeGraph:
        """An independent copy holding only these nodes and the edges among them."""
        return KnowledgeGraph(self.graph.subgraph(list(node_ids)).copy())

    def stats(self) -> dict[str, Any]:
        nodes = Counter(kind for _, kind in self.graph.nodes(data="kind"))
        edges = Counter(key for _, _, key in self.graph.edges(keys=True))
        coverage: dict[str, dict[str, int]] = {}
        for _, data in self.graph.nodes(data=True):
            kind_cov = coverage.setdefault(data["kind"], Counter())
            for name, value in data.items():
                if _present(value):
                    kind_cov[name] += 1
        return {
            "nodes": dict(sorted(nodes.items())),
            "edges": {kind.value: edges.get(kind.value, 0) for kind in EdgeKind},
            "properties": {kind: dict(sorted(c.items())) for kind, c in sorted(coverage.items())},
        }

    def fingerprint(self) -> str:
        """A hash of the node ids and edges: equal graphs built from equal inputs share it."""
        edges = sorted((s, t, k) for s, t, k, _ in self.edges())
        return stable_hash([sorted(self.graph.nodes), edges], length=16)

    def __repr__(self) -> str:
        stats = self.stats()
        edges = {k: v for k, v in stats["edges"].items() if v}
        return f"KnowledgeGraph(nodes={stats['nodes']}, edges={edges})"

    # -- persistence (see persistence.py) ----------------------------------------------------
    def save(self, directory: Any, *, force: bool = False) -> None:
        """Save to ``directory`` (new, empty or a saved graph; ``force=True`` replaces any other folder)."""
        from .persistence import save_graph

        save_graph(self, directory, force=force)

    @classmethod
    def load(cls, directory: Any) -> KnowledgeGraph:
        from .persistence import load_graph

        return load_graph(directory)

    def to_graphml(self, path: Any) -> None:
        from .persistence import write_graphml

        write_graphml(self, path)


def _present(value: Any) -> bool:
    if value is None:
        return False
    if hasattr(value, "size") and not isinstance(value, str | bytes):
        return bool(value.size)
    if isinstance(value, str | list | tuple | dict | set):
        return len(value) > 0
    return True
