"""KnowledgeGraph API, persistence round trip, GraphML, headings and splitters."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest

from groundset.core import ConfigError
from groundset.kg.graph import EdgeKind, KnowledgeGraph, NodeKind
from groundset.kg.splitters import ChunkSplitter, HeadlineSplitter, count_tokens
from groundset.text.markdown import markdown_headings, rst_headings


def small_graph() -> KnowledgeGraph:
    kg = KnowledgeGraph()
    a = kg.add_document("# A\nalpha text", source="a.md", title="A", headlines=["A"])
    b = kg.add_document("beta text", source="b.md", title="B")
    c1 = kg.add_chunk(a, "alpha text", position=0, section="A", entities=["Alpha", "Gamma"], score=0.1 + 0.2)
    c2 = kg.add_chunk(a, "more alpha", position=1, keyphrases=["more"], nested={"k": [1, 2.5, None]})
    c3 = kg.add_chunk(b, "beta text", position=0, entities=["Gamma"])
    kg.add_edge(c1, c2, EdgeKind.NEXT)
    kg.add_edge(c3, c1, EdgeKind.ENTITY_OVERLAP, score=0.5, shared=["Gamma"])
    kg.add_edge(c2, c3, EdgeKind.SIMILAR, score=0.812345)
    rng = np.random.default_rng(7)
    for node in (c1, c2, c3):
        kg.set(node, embedding=rng.standard_normal(8).astype(np.float32))
    kg.set(a, summary="about alpha", summary_embedding=rng.standard_normal(8).astype(np.float32))
    return kg


def test_ids_are_content_addressed_and_stable():
    one, two = small_graph(), small_graph()
    assert one.nodes() == two.nodes() and one.fingerprint() == two.fingerprint()
    other = KnowledgeGraph()
    doc = other.add_document("# A\nalpha text!", source="a.md")
    assert doc not in one


def test_api_kinds_neighbours_and_symmetric_edges():
    kg = small_graph()
    docs, chunks = kg.nodes(NodeKind.DOCUMENT), kg.nodes(NodeKind.CHUNK)
    assert len(docs) == 2 and len(chunks) == 3
    c1, c2, c3 = chunks
    assert kg.chunks_of(docs[0]) == [c1, c2]
    assert kg.neighbours(c1, EdgeKind.ENTITY_OVERLAP) == [c3] and kg.neighbours(
        c3, EdgeKind.ENTITY_OVERLAP
    ) == [c1]
    assert kg.neighbours(c1, EdgeKind.NEXT) == [c2] and kg.neighbours(c2, EdgeKind.NEXT) == []
    assert kg.edge(c1, c3, "entity_overlap")["shared"] == ["Gamma"]
    assert kg.edge(c3, c1, "entity_overlap")["symmetric"] is True
    kg.add_edge(c1, c3, EdgeKind.ENTITY_OVERLAP, score=0.7, shared=["Gamma"])  # update, not a second edge
    assert sum(1 for _ in kg.edges(EdgeKind.ENTITY_OVERLAP)) == 1
    stats = kg.stats()
    assert stats["nodes"] == {"chunk": 3, "document": 2}
    assert stats["edges"]["child"] == 3 and stats["edges"]["similar"] == 1
    assert stats["properties"]["chunk"]["embedding"] == 3
    sub = kg.subgraph([c1, c3])
    assert len(sub) == 2 and sum(1 for _ in sub.edges()) == 1 and len(kg) == 5
    assert kg.remove_edges(EdgeKind.SIMILAR) == 1
    with pytest.raises(KeyError, match="no node"):
        kg.add_edge(c1, "chunk-missing", EdgeKind.NEXT)
    with pytest.raises(ValueError):
        kg.add_edge(c1, c2, "friendship")


def test_save_load_round_trip_is_exact(tmp_path):
    kg = small_graph()
    kg.save(tmp_path / "kg")
    back = KnowledgeGraph.load(tmp_path / "kg")
    assert back.nodes() == kg.nodes()
    for node in kg.nodes():
        a, b = kg.get(node), back.get(node)
        assert a.keys() == b.keys()
        for key, value in a.items():
            if isinstance(value, np.ndarray):
                assert b[key].dtype == np.float32 and np.array_equal(b[key], value)
            else:
                assert b[key] == value and type(b[key]) is type(value), key
    assert sorted((s, t, k, json.dumps(d, sort_keys=True)) for s, t, k, d in kg.edges()) == sorted(
        (s, t, k, json.dumps(d, sort_keys=True)) for s, t, k, d in back.edges()
    )
    assert back.fingerprint() == kg.fingerprint()
    back.save(tmp_path / "kg")  # overwrite in place, atomically
    assert KnowledgeGraph.load(tmp_path / "kg").fingerprint() == kg.fingerprint()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_relationship_edges_are_columns_that_behave_like_graph_edges():
    """Similar and overlap edges live in ``kg.relations`` as arrays; through the graph's API they read as
    networkx edges did: one per pair, the last write's data, removed with their nodes, kept by subgraph."""
    kg = small_graph()
    c1, c2, c3 = kg.nodes(NodeKind.CHUNK)
    assert kg.graph.number_of_edges() == 0  # networkx holds the nodes only
    assert kg.count_edges(EdgeKind.ENTITY_OVERLAP) == 1 and kg.count_edges() == 6
    pairs = [(0, 2, 0.9, ["Gamma"]), (2, 1, 0.4, None), (0, 2, 0.95, ["Gamma", "Alpha"])]  # (0, 2) twice
    assert kg.add_relations(EdgeKind.THEME_OVERLAP, [c1, c2, c3], pairs) == 3
    assert kg.count_edges(EdgeKind.THEME_OVERLAP) == 2
    assert kg.edge(c3, c1, EdgeKind.THEME_OVERLAP) == {
        "kind": "theme_overlap",
        "score": 0.95,
        "shared": ["Gamma", "Alpha"],
        "symmetric": True,
    }
    assert kg.edge(c2, c3, EdgeKind.THEME_OVERLAP) == {
        "kind": "theme_overlap",
        "score": 0.4,
        "symmetric": True,
    }
    stored = [tuple(sorted(pair)) for pair in ((c1, c3), (c3, c2))]  # smaller id first, in order added
    as_source = [t for s, t in stored if s == c3]
    assert kg.neighbours(c3, EdgeKind.THEME_OVERLAP) == as_source + [s for s, t in stored if t == c3]
    assert set(kg.neighbours(c3)) == {c1, c2}
    with pytest.raises(ValueError, match="only a score and shared items, not weight"):
        kg.add_edge(c1, c2, EdgeKind.SIMILAR, weight=2)
    as_columns = small_graph()  # arrays, as the similarity builder adds a million pairs: the same edges
    i, j, score = np.array([0, 2]), np.array([2, 1]), np.array([0.95, 0.4])
    assert as_columns.add_relations(EdgeKind.THEME_OVERLAP, [c1, c2, c3], columns=(i, j, score)) == 2
    assert as_columns.edge(c2, c3, EdgeKind.THEME_OVERLAP) == kg.edge(c2, c3, EdgeKind.THEME_OVERLAP)
    assert sorted(as_columns.neighbours(c3, EdgeKind.THEME_OVERLAP)) == sorted([c1, c2])
    assert kg.remove_edges(EdgeKind.THEME_OVERLAP, among=[c1, c3]) == 1
    assert kg.neighbours(c1, EdgeKind.THEME_OVERLAP) == []
    kg.remove_nodes([c3])
    assert kg.count_edges(EdgeKind.ENTITY_OVERLAP) == 0 and kg.count_edges(EdgeKind.THEME_OVERLAP) == 0
    assert kg.neighbours(c2, EdgeKind.SIMILAR) == []
    again = small_graph()
    back = again.add_chunk(again.nodes(NodeKind.DOCUMENT)[1], "beta text", position=0)
    again.remove_nodes([back])
    again.add_chunk(again.nodes(NodeKind.DOCUMENT)[1], "beta text", position=0)
    assert again.neighbours(back, EdgeKind.ENTITY_OVERLAP) == []  # the id came back without its edges
    sub = small_graph().subgraph([c1, c3])
    assert [(s, t, k) for s, t, k, _ in sub.edges()] == [(min(c1, c3), max(c1, c3), "entity_overlap")]


def test_structure_edges_are_directed_columns_without_properties(tmp_path):
    """Child and next edges are columns too (about 530 bytes an edge less than networkx): they lead one
    way, hold nothing but their kind, keep their order, and come back from a save as they were."""
    kg = small_graph()
    doc_a, doc_b = kg.nodes(NodeKind.DOCUMENT)
    c1, c2, c3 = kg.nodes(NodeKind.CHUNK)
    assert kg.neighbours(c2, EdgeKind.NEXT) == [] and kg.neighbours(c1, EdgeKind.NEXT) == [c2]
    assert kg.neighbours(c1, EdgeKind.CHILD) == []  # not back to its document
    assert kg.edge(c1, c2, EdgeKind.NEXT) == {"kind": "next"} and kg.edge(c2, c1, EdgeKind.NEXT) is None
    assert [(s, t) for s, t, _, _ in kg.edges(EdgeKind.CHILD)] == [(doc_a, c1), (doc_a, c2), (doc_b, c3)]
    assert [k for _, _, k, _ in kg.edges()][:4] == ["child", "child", "child", "next"]
    kg.add_chunk(doc_a, "alpha text", position=0)  # the same chunk again: no second child edge
    assert kg.count_edges(EdgeKind.CHILD) == 3 and kg.count_edges() == 6
    with pytest.raises(ValueError, match="a next edge holds no properties, not weight"):
        kg.add_edge(c1, c2, EdgeKind.NEXT, weight=1)
    kg.save(tmp_path / "kg")
    edges_file = (tmp_path / "kg" / "edges.jsonl").read_text().splitlines()
    assert json.loads(edges_file[-1]) == {"source": c1, "target": c2, "kind": "next"}
    back = KnowledgeGraph.load(tmp_path / "kg")
    assert list(back.edges()) == list(kg.edges()) and back.fingerprint() == kg.fingerprint()
    assert back.chunks_of(doc_a) == [c1, c2] and back.graph.number_of_edges() == 0
    kg.remove_nodes([c2])
    assert kg.neighbours(c1, EdgeKind.NEXT) == [] and kg.chunks_of(doc_a) == [c1]
    (tmp_path / "kg" / "edges.jsonl").write_text(
        edges_file[0] + "\n" + json.dumps({"source": c1, "target": "chunk-gone", "kind": "next"}) + "\n"
    )
    with pytest.raises(ConfigError, match="edge 2: it names a node that nodes.jsonl does not hold"):
        KnowledgeGraph.load(tmp_path / "kg")
    (tmp_path / "kg" / "edges.jsonl").write_text(json.dumps({"source": c1, "target": c2, "kind": "similar"}))
    with pytest.raises(ConfigError, match="edge 1: 'similar' is not a structure edge"):
        KnowledgeGraph.load(tmp_path / "kg")


def test_a_graph_saved_in_version_1_still_loads(tmp_path):
    """Before relationship edges became columns a graph was one JSON file with every edge in it."""
    kg = small_graph()
    vectors = ("embedding", "summary_embedding")
    nodes = [
        {"id": n, **{k: v for k, v in d.items() if k not in vectors}} for n, d in kg.graph.nodes(data=True)
    ]
    edges = [{"source": s, "target": t, **d} for s, t, _, d in kg.edges()]
    (tmp_path / "graph.json").write_text(
        json.dumps({"format": "groundset-kg", "version": 1, "nodes": nodes, "edges": edges, "vectors": {}})
    )
    back = KnowledgeGraph.load(tmp_path)
    assert back.fingerprint() == kg.fingerprint()
    c1, _, c3 = kg.nodes(NodeKind.CHUNK)
    assert back.edge(c1, c3, EdgeKind.ENTITY_OVERLAP) == kg.edge(c1, c3, EdgeKind.ENTITY_OVERLAP)


def test_load_errors_are_clear(tmp_path):
    with pytest.raises(ConfigError, match="not a groundset knowledge graph"):
        KnowledgeGraph.load(tmp_path)
    (tmp_path / "graph.json").write_text('{"format": "other"}')
    with pytest.raises(ConfigError, match="rebuild it"):
        KnowledgeGraph.load(tmp_path)


def test_graphml_export(tmp_path):
    kg = small_graph()
    kg.to_graphml(tmp_path / "kg.graphml")
    read = nx.read_graphml(tmp_path / "kg.graphml")
    assert read.number_of_nodes() == 5 and read.number_of_edges() == 6
    some_chunk = kg.nodes(NodeKind.CHUNK)[0]
    assert json.loads(read.nodes[some_chunk]["entities"]) == ["Alpha", "Gamma"]
    assert "embedding" not in read.nodes[some_chunk]


def test_markdown_headings_follow_commonmark():
    text = "\n".join(
        [
            "# Title",
            "text",
            "####### seven hashes",
            "#NoSpace",
            "  ## Indented two",
            "    # code",
            "Setext one",
            "==========",
            "Setext two",
            "----------",
            "```",
            "# not a heading",
            "```",
            "## Closing ##",
            "### `code` and [link](http://x)",
        ]
    )
    found = [(h.level, h.title) for h in markdown_headings(text)]
    assert found == [
        (1, "Title"),
        (2, "Indented two"),
        (1, "Setext one"),
        (2, "Setext two"),
        (2, "Closing"),
        (3, "code and link"),
    ]


def test_rst_headings():
    text = "=====\nTitle\n=====\n\nIntro\n\nSection\n-------\n\nBody\n\nSub\n~~~\n"
    assert [(h.level, h.title) for h in rst_headings(text)] == [(1, "Title"), (2, "Section"), (3, "Sub")]


def _doc(text: str, fmt: str = "markdown", **extra) -> dict:
    return {"text": text, "format": fmt, **extra}


def test_headline_splitter_sections_carry_their_path():
    body = " ".join(["word"] * 40)
    text = f"# Guide\n{body}\n## Install\n{body}\n### On Linux\n{body}\n## Tiny\nshort\n## Use\n{body}"
    pieces = HeadlineSplitter(chunk_size=400, chunk_overlap=0).split(_doc(text))
    assert [p for p, _ in pieces] == ["Guide", "Guide > Install", "Guide > Install > On Linux", "Guide > Use"]
    assert pieces[3][1].startswith("## Tiny\nshort")  # a near-empty section travels with the next one


def test_headline_splitter_uses_llm_headlines_when_there_is_no_structure():
    body = " ".join(["text"] * 30)
    text = f"Overview\n{body}\nDetails\n{body}"
    pieces = HeadlineSplitter(chunk_size=400, chunk_overlap=0).split(
        _doc(text, "text", headlines=["Details"])
    )
    assert [p for p, _ in pieces] == ["", "Details"]


def test_chunks_are_size_bounded_even_on_one_huge_line():
    line = ". ".join(f"sentence number {i} says something" for i in range(20_000))
    splitter = ChunkSplitter(chunk_size=128, chunk_overlap=16)
    pieces = splitter.split(_doc(line, "text"))
    assert len(pieces) > 100
    assert max(count_tokens(t) for _, t in pieces) <= 128
    by_chars = ChunkSplitter(chunk_size=500, chunk_overlap=50, unit="chars").split(_doc(line, "text"))
    assert max(len(t) for _, t in by_chars) <= 500


def test_splitter_drops_wordless_chunks_and_checks_settings():
    assert ChunkSplitter().split(_doc("---\n\n***\n")) == []
    with pytest.raises(ValueError, match="chunk_overlap"):
        ChunkSplitter(chunk_size=100, chunk_overlap=100)


def test_a_subgraph_of_a_built_graph_keeps_every_edge_among_its_nodes_and_no_other(prometheus_graph):
    """The copy is made column by column; it must hold what the edges among the nodes are, row for row."""
    kg = prometheus_graph
    chunks = kg.nodes(NodeKind.CHUNK)
    kept = set(chunks[::3]) | set(kg.nodes(NodeKind.DOCUMENT)[:5])
    sub = kg.subgraph(kept)
    assert set(sub.nodes()) == kept
    for kind in (EdgeKind.SIMILAR, EdgeKind.ENTITY_OVERLAP, EdgeKind.THEME_OVERLAP):
        among = sorted(
            (s, t, json.dumps(d, sort_keys=True))
            for s, t, k, d in kg.edges()
            if k == kind.value and s in kept and t in kept
        )
        copied = sorted(
            (s, t, json.dumps(d, sort_keys=True)) for s, t, k, d in sub.edges() if k == kind.value
        )
        assert copied == among and among  # each kind has edges among a third of the chunks
    assert set(sub.relations.ids) <= kept  # the copy numbers only its own nodes
    assert kg.count_edges(EdgeKind.SIMILAR) > sub.count_edges(EdgeKind.SIMILAR)


def test_a_long_document_is_known_long_without_counting_all_of_it():
    text = "word, " * 5000
    assert count_tokens(text, up_to=400) == 400
    assert count_tokens("a b c", up_to=400) == 3 == count_tokens("a b c")
    assert count_tokens(text) == 10_000


def test_a_graph_holds_each_fact_string_once_whether_built_or_loaded(prometheus_graph, tmp_path):
    """An entity named in a thousand chunks is one string, not a thousand (about 0.7 KB a chunk at scale)."""

    def copies(kg: KnowledgeGraph) -> dict[str, int]:
        objects: dict[str, set[int]] = {}
        for node in kg.nodes(NodeKind.CHUNK):
            for name in ("entities", "keyphrases", "themes"):
                for text in kg.get(node).get(name, []):
                    objects.setdefault(text, set()).add(id(text))
        return {text: len(ids) for text, ids in objects.items()}

    built = copies(prometheus_graph)
    assert max(built.values()) == 1 and len(built) > 100
    prometheus_graph.save(tmp_path / "kg")
    loaded = copies(KnowledgeGraph.load(tmp_path / "kg"))
    assert loaded.keys() == built.keys() and max(loaded.values()) == 1
