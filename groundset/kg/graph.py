"""KnowledgeGraph: documents and chunks as nodes of a networkx MultiDiGraph, typed edges between them.

Node ids are content addressed (the same text from the same source gives the same id in every
run), so a rebuild, a cache and a test set all agree on what a chunk is. A chunk's id depends on its
document's path and its own text only, not on the rest of the document: an edit elsewhere in the page
leaves it, and every test-set sample grounded on it, as it was. The nodes and their properties are the
networkx graph, ``kg.graph``; the edges are columns in ``kg.relations`` (see relations.py), a few bytes
an edge where networkx takes about 520. Symmetric relations (similar, entity_overlap, theme_overlap) are
stored once, from the smaller id to the larger; structure edges (child, next) lead one way. Read edges
of every kind through ``edges``, ``edge`` and ``neighbours``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import Any

import networkx as nx
import numpy as np

from ..core.hashing import canonical_json, stable_hash
from .relations import Relations


class NodeKind(StrEnum):
    DOCUMENT = "document"
    CHUNK = "chunk"


class EdgeKind(StrEnum):
    CHILD = "child"  # document -> chunk
    NEXT = "next"  # chunk -> following chunk of the same document
    SIMILAR = "similar"  # embeddings cosine, with score
    ENTITY_OVERLAP = "entity_overlap"  # shared entities, with items and score
    THEME_OVERLAP = "theme_overlap"  # shared themes, with items and score


SYMMETRIC_ORDER = (EdgeKind.SIMILAR, EdgeKind.ENTITY_OVERLAP, EdgeKind.THEME_OVERLAP)
SYMMETRIC = frozenset(SYMMETRIC_ORDER)
STRUCTURE_ORDER = (EdgeKind.CHILD, EdgeKind.NEXT)  # directed, no properties
RELATION_PROPERTIES = frozenset({"score", "shared"})  # what a symmetric edge holds besides its kind
VECTOR_PROPERTIES = ("embedding", "summary_embedding")


def document_id(source: str, content_hash: str) -> str:
    return "doc-" + stable_hash(["document", source, content_hash], length=16)


def chunk_id(source: str, text: str, occurrence: int = 0) -> str:
    """The id of the ``occurrence``-th chunk (0: the first) with this text in the document at ``source``."""
    return "chunk-" + stable_hash(["chunk", source, text, occurrence], length=16)


class KnowledgeGraph:
    """A thin, typed view over ``networkx.MultiDiGraph`` (the nodes) and the edges' columns; algorithms
    stay plain functions over it."""

    def __init__(self, graph: nx.MultiDiGraph | None = None, relations: Relations | None = None) -> None:
        self.graph: nx.MultiDiGraph = graph if graph is not None else nx.MultiDiGraph()
        self.relations: Relations = (
            relations if relations is not None else Relations(directed=(k.value for k in STRUCTURE_ORDER))
        )

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
        doomed = list(node_ids)
        self.graph.remove_nodes_from(doomed)
        self.relations.remove_nodes(doomed)

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
        allowed = RELATION_PROPERTIES if kind in SYMMETRIC else frozenset()
        extra = sorted(set(properties) - allowed - {"kind", "symmetric"})
        if extra:
            holds = "only a score and shared items" if kind in SYMMETRIC else "no properties"
            raise ValueError(f"a {kind.value} edge holds {holds}, not {', '.join(extra)}")
        if kind in SYMMETRIC:
            source, target = sorted((source, target))
        self.relations.add(kind.value, source, target, properties.get("score"), properties.get("shared"))

    def add_relations(
        self,
        kind: EdgeKind | str,
        nodes: list[str],
        pairs: Iterable[tuple[int, int, float, Any]] = (),
        *,
        columns: tuple[Any, ...] | None = None,
    ) -> int:
        """Add symmetric edges at once: ``pairs`` of (i, j, score, shared items or None) over positions in
        ``nodes``, or ``columns``: arrays (i, j, score), with (shared, items) after them for edges with shared
        items (``shared``: each edge's number in the ``items`` tuples, as ``overlap_pair_arrays`` gives);
        returns how many."""
        kind = EdgeKind(kind)
        if kind not in SYMMETRIC:
            raise ValueError(f"add_relations takes similar or overlap edges, not {kind.value}")
        added = self.relations.add_many(kind.value, nodes, pairs)
        if columns is not None:
            added += self.relations.add_columns(kind.value, nodes, *columns)
        return added

    def edges(self, kind: EdgeKind | str | None = None) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
        """(source, target, kind, data) of every edge (of ``kind``): by source node, then as added."""
        wanted = None if kind is None else EdgeKind(kind)
        kinds = [k for k in STRUCTURE_ORDER + SYMMETRIC_ORDER if wanted is None or k == wanted]
        if any(self.relations.count(k.value) for k in kinds):
            places = {node: place for place, node in enumerate(self.graph)}
            for k in kinds:
                for source, target, data in self.relations.rows(k.value, places):
                    yield source, target, k.value, data

    def edge(self, source: str, target: str, kind: EdgeKind | str) -> dict[str, Any] | None:
        kind = EdgeKind(kind)
        if kind in SYMMETRIC:
            source, target = sorted((source, target))
        return self.relations.edge(kind.value, source, target)

    def neighbours(self, node_id: str, kind: EdgeKind | str | None = None) -> list[str]:
        """Nodes joined to ``node_id`` by an edge of ``kind``: successors, or either way if symmetric."""
        kinds = [EdgeKind(kind)] if kind is not None else list(EdgeKind)
        seen: dict[str, None] = {}
        for k in kinds:
            seen.update(dict.fromkeys(self.relations.neighbours(k.value, node_id)))
        return list(seen)

    def remove_edges(self, kind: EdgeKind | str, among: Iterable[str] | None = None) -> int:
        """Drop every edge of ``kind`` (with ``among``: those whose two ends are both in it), e.g. before
        rebuilding relationships; returns how many."""
        kind = EdgeKind(kind)
        if among is None:
            return self.relations.remove_kind(kind.value)
        return self.relations.remove_among(kind.value, among)

    def count_edges(self, kind: EdgeKind | str | None = None) -> int:
        kinds = list(EdgeKind) if kind is None else [EdgeKind(kind)]
        return sum(self.relations.count(k.value) for k in kinds)

    # -- views -----------------------------------------------------------------------------
    def subgraph(self, node_ids: Iterable[str]) -> KnowledgeGraph:
        """An independent copy holding only these nodes and the edges among them."""
        kept = list(node_ids)
        return KnowledgeGraph(self.graph.subgraph(kept).copy(), self.relations.copy_among(kept))

    def stats(self) -> dict[str, Any]:
        nodes = Counter(kind for _, kind in self.graph.nodes(data="kind"))
        coverage: dict[str, dict[str, int]] = {}
        for _, data in self.graph.nodes(data=True):
            kind_cov = coverage.setdefault(data["kind"], Counter())
            for name, value in data.items():
                if _present(value):
                    kind_cov[name] += 1
        return {
            "nodes": dict(sorted(nodes.items())),
            "edges": {kind.value: self.relations.count(kind.value) for kind in EdgeKind},
            "properties": {kind: dict(sorted(c.items())) for kind, c in sorted(coverage.items())},
        }

    def fingerprint(self) -> str:
        """A hash of the node ids and edges: equal graphs built from equal inputs share it.

        It is ``stable_hash([sorted node ids, sorted (source, target, kind) triples])``, written to the hash
        piece by piece from numbers, so a graph of a million edges needs no million tuples to be hashed."""
        nodes = sorted(self.graph.nodes)
        rank = {node: i for i, node in enumerate(nodes)}
        codes = {kind: i for i, kind in enumerate(sorted(k.value for k in EdgeKind))}
        names = sorted(codes)
        parts = [np.zeros((0, 3), dtype=np.int64)]
        number_rank = self.relations.places(rank)
        for kind in EdgeKind:
            source, target, _, _ = self.relations.columns(kind.value)
            column = np.full(len(source), codes[kind.value], dtype=np.int64)
            parts.append(np.stack([number_rank[source], number_rank[target], column], axis=1))
        triples = np.concatenate(parts)
        triples = triples[np.lexsort((triples[:, 2], triples[:, 1], triples[:, 0]))]
        digest = hashlib.sha256(("[" + canonical_json(nodes) + ",[").encode("utf-8"))
        for start in range(0, len(triples), 10_000):
            block = triples[start : start + 10_000].tolist()
            text = ",".join(canonical_json([nodes[s], nodes[t], names[k]]) for s, t, k in block)
            digest.update((("," if start else "") + text).encode("utf-8"))
        digest.update(b"]]")
        return digest.hexdigest()[:16]

    def content_digest(self) -> str:
        """A hash of all that makes two graphs the same: the graph-level records, each node's id and
        properties (vectors by value, whatever their dtype) and each edge with its score and shared
        items; the order nodes and edges came in aside. An update compares the old graph's digest with
        the new graph's, so it need not hold the two side by side."""
        digest = hashlib.sha256(canonical_json(self.graph.graph).encode("utf-8"))

        def add(data: bytes) -> None:
            digest.update(b"%d:" % len(data))
            digest.update(data)

        nodes = sorted(self.graph.nodes)
        for node in nodes:
            data = self.graph.nodes[node]
            vectors = sorted(name for name, value in data.items() if isinstance(value, np.ndarray))
            add(canonical_json([node, {k: v for k, v in data.items() if k not in vectors}]).encode("utf-8"))
            for name in vectors:
                value = np.asarray(data[name], dtype=np.float64)
                add(canonical_json([name, value.shape]).encode("utf-8"))
                add(value.tobytes())
        places = self.relations.places({node: i for i, node in enumerate(nodes)})
        for kind in EdgeKind:
            source, target, score, shared = self.relations.columns(kind.value)
            ends = np.stack([places[source], places[target]], axis=1).astype(np.int64)
            order = np.lexsort((ends[:, 1], ends[:, 0]))
            add(kind.value.encode("utf-8"))
            add(ends[order].tobytes())
            add(np.asarray(score[order], dtype=np.float64).tobytes())
            items = [self.relations.shared_items[i] if i >= 0 else None for i in shared[order].tolist()]
            add(canonical_json(items).encode("utf-8"))
        return digest.hexdigest()

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
