"""Incremental graph updates: equal to a full rebuild, paying only for what changed, safe to interrupt."""

from __future__ import annotations

import json
import logging
import os
import shutil

import numpy as np
import pytest

from groundset.cli import main
from groundset.core import CallEngine, ConfigError
from groundset.kg import (
    EmbeddingExtractor,
    KnowledgeGraph,
    NodeKind,
    build_knowledge_graph,
    update_kg,
)
from groundset.kg.graph import document_id

from .corpora import PROMETHEUS_DOCS
from .scripted_model import scripted

pytestmark = pytest.mark.skipif(not PROMETHEUS_DOCS.is_dir(), reason="needs the shared Prometheus corpus")

FILES = [
    "concepts/data_model.md",
    "concepts/jobs_instances.md",
    "concepts/metric_types.md",
    "guides/basic-auth.md",
    "guides/query-log.md",
    "guides/tls-encryption.md",
    "introduction/glossary.md",
    "practices/alerting.md",
    "practices/consoles.md",
    "practices/naming.md",
    "practices/pushing.md",
    "practices/remote_write.md",
    "practices/rules.md",
]
CHANGED, ADDED, REMOVED = "practices/rules.md", "guides/file-sd.md", "practices/consoles.md"
RENAMED = ("concepts/jobs_instances.md", "concepts/jobs_and_instances.md")
NEW_SECTION = (
    "\n\n## Rule group intervals\n\nEach rule group is evaluated at its own interval. A group that sets "
    "`interval` overrides the global `evaluation_interval` for the recording and alerting rules in it.\n"
)


def copy_corpus(root, files=FILES):
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PROMETHEUS_DOCS / name, root / name)
    return root


def edit_corpus(docs) -> None:
    """One document changed, one added, one removed and one renamed."""
    changed = docs / CHANGED
    changed.write_text(changed.read_text(encoding="utf-8") + NEW_SECTION, encoding="utf-8")
    shutil.copy(PROMETHEUS_DOCS / ADDED, docs / ADDED)
    (docs / REMOVED).unlink()
    (docs / RENAMED[0]).rename(docs / RENAMED[1])


def offline_engine() -> CallEngine:
    return CallEngine(cache=False)


def assert_same_graph(got: KnowledgeGraph, want: KnowledgeGraph) -> None:
    """Same node ids and properties (vectors allclose), same edges with scores within 1e-6."""
    assert set(got.graph.nodes) == set(want.graph.nodes)
    for node, data in want.graph.nodes(data=True):
        other = got.get(node)
        assert set(other) == set(data), (node, set(other) ^ set(data))
        for name, value in data.items():
            if isinstance(value, np.ndarray):
                assert np.allclose(other[name], value, atol=1e-6), (node, name)
            else:
                assert other[name] == value, (node, name)
    got_edges = {(s, t, k): d for s, t, k, d in got.edges()}
    want_edges = {(s, t, k): d for s, t, k, d in want.edges()}
    assert got_edges.keys() == want_edges.keys()
    for edge, data in want_edges.items():
        other = dict(got_edges[edge])
        assert abs(other.pop("score", 0.0) - data.get("score", 0.0)) <= 1e-6, edge
        assert other == {k: v for k, v in data.items() if k != "score"}, edge


def document_of(kg: KnowledgeGraph, source: str) -> str:
    return next(d for d in kg.nodes(NodeKind.DOCUMENT) if kg.get(d)["source"] == source)


def test_offline_update_equals_a_full_rebuild(tmp_path):
    docs = copy_corpus(tmp_path / "docs")
    old = build_knowledge_graph(docs, engine=offline_engine()).kg
    old_fingerprint = old.fingerprint()
    edit_corpus(docs)

    update = update_kg(old, docs, engine=offline_engine())
    diff = update.diff
    assert (diff.added, diff.changed, diff.removed, diff.renamed) == (
        [ADDED],
        [CHANGED],
        [REMOVED],
        [RENAMED],
    )
    assert sorted(diff.unchanged) == sorted(set(FILES) - {CHANGED, REMOVED, RENAMED[0]})
    assert diff.reprocessed == [] and update.changed
    assert update.report.total_usage().calls == 0 and not update.report.failures
    rebuilt = build_knowledge_graph(docs, engine=offline_engine()).kg
    assert_same_graph(update.kg, rebuilt)
    assert update.kg.fingerprint() == rebuilt.fingerprint()
    assert update.kg.graph.graph == rebuilt.graph.graph  # the models and options that built it

    added, removed = (
        set(update.kg.graph.nodes) - set(old.graph.nodes),
        set(old.graph.nodes) - set(update.kg.graph.nodes),
    )
    assert (update.nodes_added, update.nodes_removed) == (len(added), len(removed)) and added and removed
    assert old.fingerprint() == old_fingerprint  # the old graph is left as it was
    # an unchanged document keeps its ids; a renamed one gets ids derived from its new document id
    unchanged = document_of(old, "concepts/data_model.md")
    assert unchanged in update.kg and set(update.kg.chunks_of(unchanged)) == set(old.chunks_of(unchanged))
    renamed = document_of(update.kg, RENAMED[1])
    assert renamed == document_id(RENAMED[1], update.kg.get(renamed)["content_hash"])
    old_texts = [old.get(c)["text"] for c in old.chunks_of(document_of(old, RENAMED[0]))]
    assert [update.kg.get(c)["text"] for c in update.kg.chunks_of(renamed)] == old_texts
    assert all(update.kg.get(c)["document"] == renamed for c in update.kg.chunks_of(renamed))


def _asked(request) -> list[str]:
    """The texts a request asked about: one document, or a batch of passages."""
    data = json.loads(request.body["messages"][-1]["content"].removeprefix("Input: "))
    return [p["text"] for p in data["passages"].values()] if "passages" in data else [data["text"]]


def test_stub_update_asks_only_about_changed_and_added_documents(stub, chat, openai_embeddings, tmp_path):
    stub.on_chat(scripted)
    models = {"llm": chat, "embeddings": openai_embeddings}
    docs = copy_corpus(tmp_path / "docs")
    old = build_knowledge_graph(docs, engine=offline_engine(), enrich="eager", **models).kg
    edit_corpus(docs)

    chats, embeds = len(stub.chat_requests), len(stub.embedding_requests)
    update = update_kg(old, docs, engine=offline_engine(), **models)
    asked = stub.chat_requests[chats:]
    embedded = [text for r in stub.embedding_requests[embeds:] for text in r.body["input"]]
    kg = update.kg
    new_docs = [document_of(kg, CHANGED), document_of(kg, ADDED)]
    new_chunks = [c for d in new_docs for c in kg.chunks_of(d)]
    chunk_texts = {kg.get(c)["text"] for c in new_chunks}
    doc_texts = {kg.get(d)["text"] for d in new_docs}
    # every extraction request (chunk facts, summaries) is about the changed or the added document
    assert asked and all(text in chunk_texts | doc_texts for r in asked for text in _asked(r))
    assert {text for r in asked for text in _asked(r)} == chunk_texts | {
        kg.get(d)["text"] for d in new_docs if kg.get(d).get("summary")
    }
    summaries = {kg.get(d)["summary"] for d in new_docs if kg.get(d).get("summary")}
    assert embedded and set(embedded) <= chunk_texts | summaries
    assert update.report.total_usage().calls == len(asked) + len(stub.embedding_requests[embeds:])

    # no more calls than a full build of only those two documents (+20%)
    two = copy_corpus(tmp_path / "two", [ADDED])
    (two / CHANGED).parent.mkdir(parents=True)
    shutil.copy(docs / CHANGED, two / CHANGED)
    chats = len(stub.chat_requests)
    build_knowledge_graph(two, engine=offline_engine(), enrich="eager", **models)
    assert len(asked) <= 1.2 * (len(stub.chat_requests) - chats)

    rebuilt = build_knowledge_graph(docs, engine=offline_engine(), enrich="eager", **models).kg
    assert_same_graph(kg, rebuilt)


def test_unchanged_corpus_costs_nothing_and_rewrites_nothing(stub, chat, openai_embeddings, tmp_path, capsys):
    stub.on_chat(scripted)
    models = {"llm": chat, "embeddings": openai_embeddings}
    docs = copy_corpus(tmp_path / "docs", FILES[:5])
    old = build_knowledge_graph(docs, engine=offline_engine(), **models).kg
    before = len(stub.requests)
    update = update_kg(old, docs, engine=offline_engine(), **models)
    assert len(stub.requests) == before and update.report.total_usage().calls == 0
    assert not update.changed and not update.diff and (update.nodes_added, update.nodes_removed) == (0, 0)
    assert update.kg.fingerprint() == old.fingerprint()

    kg_dir = tmp_path / "kg"
    assert main(["kg", "build", str(docs), "--out", str(kg_dir), "--no-cache", "-q"]) == 0
    files = sorted(kg_dir.iterdir())
    stamps = [(f.stat().st_ino, f.stat().st_mtime_ns) for f in files]
    folder = kg_dir.stat().st_ino
    capsys.readouterr()
    assert main(["kg", "update", str(docs), "--kg", str(kg_dir), "--no-cache", "-q"]) == 0
    printed = capsys.readouterr().out
    assert "nothing changed" in printed and "0 added, 0 changed, 0 removed, 0 renamed, 5 unchanged" in printed
    assert "model calls 0" in printed
    assert sorted(kg_dir.iterdir()) == files and kg_dir.stat().st_ino == folder
    assert [(f.stat().st_ino, f.stat().st_mtime_ns) for f in files] == stamps


@pytest.mark.parametrize("fault", ["write", "swap", "transform"])
def test_interrupted_update_leaves_the_old_graph_and_a_rerun_finishes_it(
    tmp_path, capsys, monkeypatch, fault
):
    docs = copy_corpus(tmp_path / "docs")
    kg_dir = tmp_path / "kg"
    assert main(["kg", "build", str(docs), "--out", str(kg_dir), "--no-cache", "-q"]) == 0
    old = KnowledgeGraph.load(kg_dir)
    edit_corpus(docs)
    expected = update_kg(old, docs, engine=offline_engine()).kg  # an uninterrupted update

    with monkeypatch.context() as patch:
        if fault == "write":  # after graph.json is staged, before the vectors are
            patch.setattr("groundset.kg.persistence.np.save", _raise)
        elif fault == "swap":  # the old folder is moved aside, then the new one fails to take its place
            real_replace = os.replace

            def replace(src, dst):
                if str(dst) == str(kg_dir.resolve()) and str(src).endswith(".tmp"):  # not the restore
                    raise OSError("disk gone")
                real_replace(src, dst)

            patch.setattr(os, "replace", replace)
        else:  # a stage fails half way through the update
            patch.setattr(EmbeddingExtractor, "apply", _raise_async)
        capsys.readouterr()
        assert main(["kg", "update", str(docs), "--kg", str(kg_dir), "--no-cache", "-q"]) == 1
    assert "error" in capsys.readouterr().err
    on_disk = KnowledgeGraph.load(kg_dir)
    assert on_disk.fingerprint() == old.fingerprint()
    assert_same_graph(on_disk, old)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".kg")] == []  # no staging left

    assert main(["kg", "update", str(docs), "--kg", str(kg_dir), "--no-cache", "-q"]) == 0
    printed = capsys.readouterr().out
    assert f"added: {ADDED}" in printed and f"renamed: {RENAMED[0]} -> {RENAMED[1]}" in printed
    assert "saved to" in printed
    assert_same_graph(KnowledgeGraph.load(kg_dir), expected)


def _raise(*args, **kwargs):
    raise OSError("no space left on device")


async def _raise_async(*args, **kwargs):
    raise RuntimeError("interrupted")


def test_other_models_or_options_are_refused_with_the_fix(tmp_path, caplog):
    docs = copy_corpus(tmp_path / "docs", FILES[:3])
    old = build_knowledge_graph(docs, engine=offline_engine()).kg
    assert old.graph.graph["models"]["embeddings"]["identity"] == "offline:wordllama-256"
    with pytest.raises(ConfigError) as caught:
        update_kg(old, docs, embeddings="offline:hashing", engine=offline_engine())
    message = str(caught.value)
    assert "wordllama" in message and "hashing" in message
    assert "--embeddings" in message and "kg build" in message
    with pytest.raises(ConfigError, match="chunk_size=256"):
        update_kg(old, docs, chunk_size=128, engine=offline_engine())
    assert update_kg(old, docs, chunk_size=256, engine=offline_engine()).changed is False

    # a graph saved before models were recorded: accepted, with a warning, and recorded from now on
    del old.graph.graph["models"], old.graph.graph["options"]
    with caplog.at_level(logging.WARNING, logger="groundset.kg.update"):
        update = update_kg(old, docs, embeddings="offline:hashing", engine=offline_engine())
    assert "does not record which models built it" in caplog.text
    assert (
        update.changed and update.kg.graph.graph["models"]["embeddings"]["identity"] == "offline:hashing-1024"
    )


def test_graph_records_survive_save_and_old_saves_still_load(tmp_path):
    docs = copy_corpus(tmp_path / "docs", FILES[:2])
    kg = build_knowledge_graph(docs, engine=offline_engine(), chunk_size=128).kg
    kg.save(tmp_path / "kg")
    loaded = KnowledgeGraph.load(tmp_path / "kg")
    assert loaded.graph.graph == kg.graph.graph and loaded.graph.graph["options"]["chunk_size"] == 128
    # the recorded chunk size is the update's default
    edit = docs / FILES[0]
    edit.write_text(edit.read_text(encoding="utf-8") + NEW_SECTION, encoding="utf-8")
    assert update_kg(loaded, docs, engine=offline_engine()).kg.graph.graph["options"]["chunk_size"] == 128

    path = tmp_path / "kg" / "graph.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["graph"]
    path.write_text(json.dumps(document), encoding="utf-8")
    old = KnowledgeGraph.load(tmp_path / "kg")
    assert old.graph.graph == {} and old.fingerprint() == kg.fingerprint()


def test_a_rename_that_changes_the_title_is_processed_again(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    text = "Alertmanager groups alerts by their labels and sends one notification per group to a receiver.\n"
    (docs / "grouping_notes.txt").write_text(text, encoding="utf-8")
    (docs / "other.txt").write_text("Recording rules precompute expensive queries.\n", encoding="utf-8")
    old = build_knowledge_graph(docs, engine=offline_engine()).kg
    (docs / "grouping_notes.txt").rename(docs / "alert_grouping.txt")  # the title comes from the name
    update = update_kg(old, docs, engine=offline_engine())
    assert update.diff.renamed == [("grouping_notes.txt", "alert_grouping.txt")]
    assert update.diff.reprocessed == ["alert_grouping.txt"]
    assert_same_graph(update.kg, build_knowledge_graph(docs, engine=offline_engine()).kg)


def test_cli_update_errors(tmp_path, capsys):
    docs = copy_corpus(tmp_path / "docs", FILES[:1])
    assert main(["kg", "update", str(docs), "--kg", str(tmp_path / "nope")]) == 2
    assert "no knowledge graph at" in capsys.readouterr().err
    assert main(["kg", "update", str(docs), "--kg", str(docs)]) == 2
    assert "not a knowledge graph folder" in capsys.readouterr().err
    kg_dir = tmp_path / "kg"
    assert main(["kg", "build", str(docs), "--out", str(kg_dir), "--no-cache", "-q"]) == 0
    assert main(["kg", "update", str(tmp_path / "gone"), "--kg", str(kg_dir), "-q"]) == 1
    assert "not found" in capsys.readouterr().err
    assert main(["kg", "update", "--help"]) == 0
    assert "paying only for what changed" in capsys.readouterr().out


# -- issue 27, item 5: an update loads the files the build loaded ---------------------------------------

SIX = FILES[:6]  # three concepts/ pages, three guides/ pages
GUIDES = [name for name in SIX if name.startswith("guides/")]


def _recorded_filters(kg_dir) -> dict:
    return json.loads((kg_dir / "graph.json").read_text(encoding="utf-8"))["graph"]["filters"]


def test_an_update_keeps_the_build_filters_and_sends_no_excluded_document_to_the_model(
    stub, chat, openai_embeddings, tmp_path
):
    stub.on_chat(scripted)
    models = {"llm": chat, "embeddings": openai_embeddings, "engine": offline_engine()}
    docs = copy_corpus(tmp_path / "docs", SIX)
    built = build_knowledge_graph(docs, exclude=["guides/"], enrich="eager", **models)
    assert built.kg.graph.graph["filters"] == {"include": None, "exclude": ["guides/"]}
    built.kg.save(tmp_path / "kg")
    loaded = KnowledgeGraph.load(tmp_path / "kg")
    assert loaded.graph.graph["filters"] == {"include": None, "exclude": ["guides/"]}  # kept by save/load

    before = len(stub.requests)
    update = update_kg(loaded, docs, **models)
    assert update.diff.added == [] and not update.diff and not update.changed
    assert len(stub.requests) == before and update.report.total_usage().calls == 0
    filters = update.filters
    assert (filters.include, filters.exclude, filters.origin) == (None, ["guides/"], "recorded")

    # filters given to the update replace the recorded ones, and the graph records the new ones
    update = update_kg(loaded, docs, include=["*.md"], **models)
    assert sorted(update.diff.added) == GUIDES and update.filters.origin == "given"
    assert update.kg.graph.graph["filters"] == {"include": ["*.md"], "exclude": []}
    asked = {text for r in stub.chat_requests for text in _asked(r)}
    assert any("basic" in text.lower() for text in asked)  # the guides went to the model now


def test_cli_update_keeps_the_build_filters_and_says_when_they_are_replaced(tmp_path, capsys):
    docs = copy_corpus(tmp_path / "docs", SIX)
    kg_dir = tmp_path / "kg"
    build = ["kg", "build", str(docs), "--out", str(kg_dir), "--exclude", "guides/", "--no-cache", "-q"]
    assert main(build) == 0
    assert _recorded_filters(kg_dir) == {"include": None, "exclude": ["guides/"]}
    capsys.readouterr()
    assert main(["kg", "update", str(docs), "--kg", str(kg_dir), "--no-cache", "-q"]) == 0
    printed = capsys.readouterr().out
    assert "0 added, 0 changed, 0 removed, 0 renamed, 3 unchanged" in printed and "nothing changed" in printed
    assert "filters: exclude guides/ (recorded with the graph)" in printed

    update = ["kg", "update", str(docs), "--kg", str(kg_dir), "--include", "**", "--no-cache", "-q"]
    assert main(update) == 0
    printed = capsys.readouterr().out
    assert "3 added" in printed and "saved to" in printed
    assert "filters: include ** (given: they replace the recorded exclude guides/)" in printed
    assert _recorded_filters(kg_dir) == {"include": ["**"], "exclude": []}


def test_generate_save_kg_records_its_filters_for_the_update(tmp_path, capsys):
    docs = copy_corpus(tmp_path / "docs", SIX)
    kg_dir = tmp_path / "kg"
    args = ["generate", str(docs), "-n", "2", "--out", str(tmp_path / "t.jsonl"), "--no-cache", "-q"]
    assert main([*args, "--exclude", "guides/", "--save-kg", str(kg_dir)]) == 0
    assert _recorded_filters(kg_dir) == {"include": None, "exclude": ["guides/"]}
    capsys.readouterr()
    assert main(["kg", "update", str(docs), "--kg", str(kg_dir), "--no-cache", "-q"]) == 0
    assert "0 added" in capsys.readouterr().out


def test_a_graph_saved_before_filters_were_recorded_updates_unfiltered_with_a_note(tmp_path, capsys, caplog):
    docs = copy_corpus(tmp_path / "docs", SIX)
    kg_dir = tmp_path / "kg"
    build = ["kg", "build", str(docs), "--out", str(kg_dir), "--exclude", "guides/", "--no-cache", "-q"]
    assert main(build) == 0
    path = kg_dir / "graph.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["graph"]["filters"]
    path.write_text(json.dumps(document), encoding="utf-8")

    with caplog.at_level(logging.WARNING, logger="groundset.kg.update"):
        update = update_kg(KnowledgeGraph.load(kg_dir), docs, engine=offline_engine())
    assert sorted(update.diff.added) == GUIDES and update.filters.origin == "not recorded"
    assert "does not record the --include/--exclude" in caplog.text
    assert update.kg.graph.graph["filters"] == {"include": None, "exclude": []}

    capsys.readouterr()
    assert main(["kg", "update", str(docs), "--kg", str(kg_dir), "--no-cache", "-q"]) == 0
    printed = capsys.readouterr().out
    assert "3 added" in printed and "filters: none (this graph does not record" in printed
    assert _recorded_filters(kg_dir) == {"include": None, "exclude": []}


def test_same_graph_compares_every_edge_and_its_data_column_by_column():
    """An update tells whether anything changed by comparing the graphs; with a dict an edge for both
    graphs that comparison was the peak of updating a 105,000-chunk graph (2.1 GB). Columns decide the same:
    an edge more or less, another score or other shared items is a change; the order edges came in is not."""
    from groundset.kg.graph import EdgeKind
    from groundset.kg.update import same_graph

    def graph(*, order=(0, 1), score=0.5, shared=("Gamma",), extra=False) -> KnowledgeGraph:
        kg = KnowledgeGraph()
        doc = kg.add_document("alpha beta gamma", source="a.md")
        chunks = [kg.add_chunk(doc, text, position=i) for i, text in enumerate(["alpha", "beta", "gamma"])]
        kg.add_edge(chunks[0], chunks[1], EdgeKind.NEXT)
        overlap = {"score": score, "shared": list(shared)}
        pairs = [
            (chunks[0], chunks[2], EdgeKind.SIMILAR, {"score": 0.9}),
            (chunks[1], chunks[2], EdgeKind.ENTITY_OVERLAP, overlap),
        ]
        for i in order:
            source, target, kind, data = pairs[i]
            kg.add_edge(source, target, kind, **data)
        if extra:
            kg.add_edge(chunks[1], chunks[2], EdgeKind.NEXT)
        return kg

    assert same_graph(graph(), graph(order=(1, 0)))
    assert not same_graph(graph(), graph(score=0.6))
    assert not same_graph(graph(), graph(shared=("Gamma", "Beta")))
    assert not same_graph(graph(), graph(extra=True)) and not same_graph(graph(extra=True), graph())


def test_the_content_digest_sees_every_property_and_vector_but_not_the_order_nodes_came_in():
    """``changed`` compares the old graph's digest with the new one's (the graphs are not held together)."""

    def graph(*, order=(0, 1), text="beta", vector=(0.6, 0.8), dtype=np.float32) -> KnowledgeGraph:
        kg = KnowledgeGraph()
        doc = kg.add_document("alpha beta", source="a.md")
        pieces = [("alpha", (1.0, 0.0)), (text, vector)]
        for i in order:
            kg.add_chunk(doc, pieces[i][0], position=i, embedding=np.array(pieces[i][1], dtype=dtype))
        return kg

    assert graph().content_digest() == graph(order=(1, 0)).content_digest()
    assert (
        graph(vector=(0.5, 0.25)).content_digest()
        == graph(dtype=np.float64, vector=(0.5, 0.25)).content_digest()
    )
    assert graph().content_digest() != graph(vector=(0.8, 0.6)).content_digest()
    assert graph().content_digest() != graph(text="gamma").content_digest()
    changed = graph()
    changed.graph.graph["options"] = {"chunk_size": 100}
    assert changed.content_digest() != graph().content_digest()


def test_a_consuming_update_moves_the_old_graph_into_the_new_one_and_gives_the_same_graph(tmp_path):
    """``groundset kg update`` consumes the graph it loaded: at 105,000 chunks, holding the old graph beside
    the new one took the update to 20 KB a chunk. The result is the same as a copying update's, and a
    caller's graph that is not consumed is left as it was."""
    docs = copy_corpus(tmp_path / "docs")
    built = build_knowledge_graph(docs, engine=offline_engine()).kg
    kg_dir = tmp_path / "kg"
    built.save(kg_dir)
    edit_corpus(docs)
    kept = KnowledgeGraph.load(kg_dir)
    before = kept.content_digest()
    copying = update_kg(kept, docs, engine=offline_engine())
    assert kept.content_digest() == before  # not consumed: untouched
    old = KnowledgeGraph.load(kg_dir)
    consuming = update_kg(old, docs, engine=offline_engine(), consume=True)
    assert len(old.graph) == 0 and old.count_edges() == 0
    assert consuming.changed and copying.changed
    assert consuming.kg.content_digest() == copying.kg.content_digest()
    assert (consuming.nodes_added, consuming.nodes_removed) == (copying.nodes_added, copying.nodes_removed)
    # a folder is read here and consumed; nothing changed since is "unchanged"
    copying.kg.save(tmp_path / "kg2")
    again = update_kg(tmp_path / "kg2", docs, engine=offline_engine())
    assert not again.changed and again.kg.content_digest() == copying.kg.content_digest()
