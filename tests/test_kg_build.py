"""Building graphs end to end: offline on the real corpus, through the stub server, on messy input."""

from __future__ import annotations

import shutil

import pytest

from groundset.cli import main
from groundset.core import CallEngine, RetryPolicy
from groundset.kg import EdgeKind, KnowledgeGraph, NodeKind, build_knowledge_graph
from groundset.kg.extractors import is_long
from groundset.kg.facts_batch import batches

from .corpora import MESSY, PROMETHEUS_DOCS
from .openai_stub import Reply

SUBSET = ["concepts/*.md", "introduction/overview.md", "practices/naming.md"]


def multi_hop_pairs(kg: KnowledgeGraph) -> int:
    """Chunk pairs from different documents joined by a similar or overlap edge."""
    kinds = (EdgeKind.SIMILAR, EdgeKind.ENTITY_OVERLAP, EdgeKind.THEME_OVERLAP)
    return sum(
        1 for kind in kinds for s, t, _, _ in kg.edges(kind) if kg.get(s)["document"] != kg.get(t)["document"]
    )


@pytest.fixture(scope="module")
def offline_build(tmp_path_factory):
    engine = CallEngine(cache=tmp_path_factory.mktemp("cache"))
    return build_knowledge_graph(PROMETHEUS_DOCS, engine=engine)


@pytest.mark.slow
def test_offline_build_of_the_real_corpus(offline_build, tmp_path):
    kg, report = offline_build.kg, offline_build.report
    documents, chunks = kg.nodes(NodeKind.DOCUMENT), kg.nodes(NodeKind.CHUNK)
    # 71 pages, of which 13 section index pages hold only front matter and are skipped
    assert len(documents) == 58 and len(chunks) > 300
    assert len(offline_build.load.report.skipped) == 13
    for chunk in chunks:
        data = kg.get(chunk)
        assert data["embedding"] is not None and data["embedding"].shape == (256,)  # WordLlama
        assert data["entities"] and data["keyphrases"], chunk
    long_docs = [d for d in documents if is_long(kg.get(d))]
    assert len(long_docs) > 40
    for doc in long_docs:
        assert kg.get(doc)["summary"] and kg.get(doc)["themes"], kg.get(doc)["source"]
        assert kg.get(doc)["summary_embedding"] is not None
    stats = kg.stats()["edges"]
    assert stats["similar"] > 0 and stats["entity_overlap"] > 0 and stats["theme_overlap"] > 0
    assert stats["child"] == len(chunks) and stats["next"] == len(chunks) - len(documents)
    assert multi_hop_pairs(kg) > 0
    assert report.total_usage().calls == 0 and not report.failures
    kg.save(tmp_path / "kg")
    assert KnowledgeGraph.load(tmp_path / "kg").fingerprint() == kg.fingerprint()


def test_offline_build_is_deterministic(tmp_path):
    one = build_knowledge_graph(PROMETHEUS_DOCS, include=SUBSET, engine=CallEngine(cache=False)).kg
    two = build_knowledge_graph(PROMETHEUS_DOCS, include=SUBSET, engine=CallEngine(cache=False)).kg
    assert one.fingerprint() == two.fingerprint()
    chunk = one.nodes(NodeKind.CHUNK)[3]
    assert one.get(chunk)["entities"] == two.get(chunk)["entities"]


def test_stub_build_calls_per_stage_match_the_nodes_that_needed_them(stub, chat, openai_embeddings, tmp_path):
    llm, emb = chat, openai_embeddings
    engine = CallEngine(cache=tmp_path / "cache")
    first = build_knowledge_graph(
        PROMETHEUS_DOCS, include=SUBSET, llm=llm, embeddings=emb, engine=engine, enrich="eager"
    )
    kg, stages = first.kg, {s.stage: s for s in first.report.stages}
    chunks, documents = kg.nodes(NodeKind.CHUNK), kg.nodes(NodeKind.DOCUMENT)
    long_docs = [d for d in documents if is_long(kg.get(d))]
    assert stages["kg.headlines"].usage.calls == 0  # markdown pages: headlines from their structure
    assert stages["kg.summary"].usage.calls == stages["kg.summary"].selected == len(long_docs) > 0
    facts = stages["kg.chunk_facts"]
    assert facts.selected == facts.done == len(chunks)
    # Chunks go out in keyed batches of up to 8 passages (12,000 characters): a few calls, not one each.
    sizes = [min(len(kg.get(c)["text"]), 6000) for c in chunks]
    assert facts.usage.calls == len(batches(sizes)) <= -(-len(chunks) // 8) * 2
    embed = stages["kg.embed.chunk.text"]
    assert embed.selected == len(chunks) and embed.usage.calls == -(
        -len(chunks) // engine.embedding_batch_size
    )
    chat_requests = len(stub.chat_requests)
    assert chat_requests == len(long_docs) + facts.usage.calls
    # 5 long documents' summaries weigh on 39 chunks; on the whole folder it is 0.16 (benchmarks/).
    assert chat_requests / len(chunks) <= 0.3
    assert all(kg.get(c)["entities"] and kg.get(c)["embedding"].shape == (64,) for c in chunks)
    assert all(kg.get(d)["summary"] for d in long_docs)

    before = len(stub.requests)
    again = build_knowledge_graph(
        PROMETHEUS_DOCS,
        include=SUBSET,
        llm=llm,
        embeddings=emb,
        engine=CallEngine(cache=tmp_path / "cache"),
        enrich="eager",
    )
    assert len(stub.requests) == before and again.report.total_usage().calls == 0
    assert again.kg.fingerprint() == kg.fingerprint()
    assert kg.graph.graph["options"]["enrich"] == "eager"


def test_a_lazy_build_asks_the_llm_nothing_and_keeps_the_offline_facts(stub, chat, openai_embeddings):
    """The default: the structure costs no call; only embeddings are requested."""
    models = {"llm": chat, "embeddings": openai_embeddings}
    lazy = build_knowledge_graph(PROMETHEUS_DOCS, include=SUBSET, engine=CallEngine(cache=False), **models)
    assert stub.chat_requests == [] and lazy.report.total_usage().calls > 0  # the embedding requests
    assert lazy.kg.graph.graph["options"]["enrich"] == "lazy"
    offline = build_knowledge_graph(PROMETHEUS_DOCS, include=SUBSET, engine=CallEngine(cache=False)).kg
    for a, b in zip(lazy.kg.nodes(NodeKind.CHUNK), offline.nodes(NodeKind.CHUNK), strict=True):
        assert lazy.kg.get(a)["entities"] == offline.get(b)["entities"]
        assert lazy.kg.get(a)["keyphrases"] == offline.get(b)["keyphrases"]


def test_a_batch_answer_missing_a_passage_gets_one_repair_for_just_that_passage(stub, chat, tmp_path):
    from groundset.kg.facts_batch import ChunkBatch, ChunkFactsBatchPrompt
    from groundset.kg.prompts import ChunkText

    facts = {"entities": ["X"], "keyphrases": ["x"], "themes": ["t"]}
    stub.push(Reply.json({"p1": facts}), Reply.json({"p2": {**facts, "entities": ["Y"]}}))
    batch = ChunkBatch(passages={k: ChunkText(title="t", text=f"passage {k}") for k in ("p1", "p2")})
    engine = CallEngine(cache=tmp_path / "c")
    answer = ChunkFactsBatchPrompt().run_sync(chat, batch, engine=engine)
    assert {k: v.entities for k, v in answer.by_key().items()} == {"p1": ["X"], "p2": ["Y"]}
    repair = stub.chat_requests[-1].body["messages"][-1]["content"]
    assert "p2" in repair and "p1" not in repair


def test_batches_respect_the_passage_and_character_budgets():
    found = [list(r) for r in batches([10] * 10, passages=4, chars=1000)]
    assert found == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert [list(r) for r in batches([600, 600, 100, 5000], passages=8, chars=1000)] == [[0], [1, 2], [3]]
    assert batches([]) == []


def test_failed_nodes_are_reported_and_later_stages_still_run(stub, chat, openai_embeddings, tmp_path):
    llm, emb = chat, openai_embeddings

    def flaky(body):  # chunk-fact requests about histograms are refused
        system, text = body["messages"][0]["content"], body["messages"][-1]["content"]
        refused = "Extract (1) entities" in system and "histogram" in text.lower()
        return Reply.error(400, message="rejected") if refused else None

    stub.on_chat(flaky)
    engine = CallEngine(cache=False, retry=RetryPolicy(max_retries=0))
    result = build_knowledge_graph(
        PROMETHEUS_DOCS, include=SUBSET, llm=llm, embeddings=emb, engine=engine, enrich="eager"
    )
    facts = next(s for s in result.report.stages if s.stage == "kg.chunk_facts")
    assert facts.failures and facts.done and facts.done + len(facts.failures) == facts.selected
    kg = result.kg
    missing = [c for c in kg.nodes(NodeKind.CHUNK) if "entities" not in kg.get(c)]
    assert len(missing) == len(facts.failures)
    assert all(kg.get(c).get("embedding") is not None for c in kg.nodes(NodeKind.CHUNK))
    assert "HTTP 400" in facts.failures[0][1]


def test_messy_corpus_builds_and_cli_lists_bad_files(tmp_path, capsys):
    code = main(["kg", "build", str(MESSY), "--out", str(tmp_path / "kg"), "--no-cache", "--quiet"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    for name in (
        "empty.md",
        "whitespace_only.md",
        "binary_renamed.md",
        "invalid_utf8.md",
        "frontmatter_only.md",
        "data_model_copy.md",
    ):
        assert name in printed, name
    kg = KnowledgeGraph.load(tmp_path / "kg")
    sources = {kg.get(d)["source"] for d in kg.nodes(NodeKind.DOCUMENT)}
    assert "good/concepts/metric_types.md" in sources and "empty.md" not in sources
    data_model = [d for d in kg.nodes(NodeKind.DOCUMENT) if kg.get(d)["title"].lower() == "data model"]
    assert len(data_model) == 1  # four identical copies, one document
    assert all(kg.get(c)["text"].strip() for c in kg.nodes(NodeKind.CHUNK))
    assert main(["kg", "show", str(tmp_path / "kg")]) == 0
    shown = capsys.readouterr().out
    assert "top entities" in shown and "entity_overlap" in shown and "sample chunk" in shown


def test_cli_build_errors(tmp_path, capsys):
    assert main(["kg", "build", str(tmp_path / "nope"), "--out", str(tmp_path / "kg")]) == 1
    assert "not found" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.pdf").write_bytes(b"%PDF-1.4")
    assert main(["kg", "build", str(empty), "--out", str(tmp_path / "kg"), "--quiet"]) == 2
    assert not (tmp_path / "kg").exists()
    assert main(["kg", "show", str(empty)]) == 1


def test_single_small_document_builds(tmp_path):
    doc = tmp_path / "one.md"
    shutil.copy(PROMETHEUS_DOCS / "introduction" / "overview.md", doc)
    result = build_knowledge_graph(doc, engine=CallEngine(cache=False))
    assert len(result.kg.nodes(NodeKind.DOCUMENT)) == 1 and result.kg.nodes(NodeKind.CHUNK)


def test_headlines_are_asked_of_the_llm_only_for_long_documents_without_structure(
    stub, chat, openai_embeddings, tmp_path
):
    llm, emb = chat, openai_embeddings
    docs = tmp_path / "docs"
    docs.mkdir()
    prose = " ".join(f"Sentence {i} explains how the scraper handles target number {i}." for i in range(80))
    (docs / "plain.txt").write_text("Scraping\n" + prose + "\nStorage\n" + prose)
    shutil.copy(PROMETHEUS_DOCS / "concepts" / "data_model.md", docs / "data_model.md")
    (docs / "short.txt").write_text("A short note about alerting rules and their labels.")
    stub.on_chat(
        lambda body: (
            Reply.json({"headlines": ["Storage"]})
            if "formatted headings" in body["messages"][0]["content"]
            else None
        )
    )
    result = build_knowledge_graph(
        docs, llm=llm, embeddings=emb, engine=CallEngine(cache=False), enrich="eager"
    )
    headlines = next(s for s in result.report.stages if s.stage == "kg.headlines")
    assert headlines.selected == 3 and headlines.usage.calls == 1
    kg = result.kg
    plain = next(d for d in kg.nodes(NodeKind.DOCUMENT) if kg.get(d)["source"] == "plain.txt")
    assert kg.get(plain)["headlines"] == ["Storage"]
    assert {kg.get(c)["section"] for c in kg.chunks_of(plain)} == {"", "Storage"}


def test_chunks_the_model_cannot_describe_take_the_offline_facts(stub, chat, openai_embeddings, tmp_path):
    """A small model's chunk-facts answers can be cut off or broken on every batch: the build still
    ends, those chunks get the offline extractors' facts, and the fallbacks are counted."""
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(PROMETHEUS_DOCS / "concepts" / "data_model.md", docs / "data_model.md")
    stub.on_chat(
        lambda body: (
            Reply.text('{"p1": {"entities": ["cut') if "p1" in body["messages"][-1]["content"] else None
        )
    )
    engine = CallEngine(cache=False)
    result = build_knowledge_graph(
        docs, llm=chat, embeddings=openai_embeddings, engine=engine, enrich="eager"
    )
    facts = next(s for s in result.report.stages if s.stage == "kg.chunk_facts")
    chunks = result.kg.nodes(NodeKind.CHUNK)
    assert facts.done == len(chunks) and not facts.failures
    assert facts.usage.fallbacks == len(chunks)
    assert all(result.kg.get(c)["keyphrases"] for c in chunks)


def test_documents_the_model_cannot_summarise_take_the_offline_summary(
    stub, chat, openai_embeddings, tmp_path
):
    """Seen with SmolLM2-135M at max_tokens=128: every summary cut off mid-string, the repair too. The
    build ends; those documents get the TextRank summary and corpus themes, counted as fallbacks. A
    long page without headings whose headlines answer is broken keeps none, as offline."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for page in ("data_model.md", "jobs_instances.md"):
        shutil.copy(PROMETHEUS_DOCS / "concepts" / page, docs / page)
    long_plain = (PROMETHEUS_DOCS / "concepts" / "data_model.md").read_text(encoding="utf-8")
    plain = "\n\n".join(line.lstrip("#").strip() for line in long_plain.splitlines() if line.strip())
    (docs / "plain.txt").write_text(plain, encoding="utf-8")
    cut = '{\n  "summary": "The document explains how the'
    stub.on_chat(
        lambda body: (
            Reply.cut_off(cut)
            if "Summarise the document" in body["messages"][0]["content"]
            or "formatted headings" in body["messages"][0]["content"]
            else None
        )
    )
    result = build_knowledge_graph(
        docs, llm=chat, embeddings=openai_embeddings, engine=CallEngine(cache=False), enrich="eager"
    )
    stages = {s.stage: s for s in result.report.stages}
    summary, headlines = stages["kg.summary"], stages["kg.headlines"]
    assert summary.selected >= 2 and summary.done == summary.selected and not summary.failures
    assert summary.usage.fallbacks == summary.selected and summary.usage.repairs == summary.selected
    kg = result.kg
    for doc in kg.nodes(NodeKind.DOCUMENT):
        data = kg.get(doc)
        assert data["summary"] and "explains how the" not in data["summary"] and "themes" in data
    assert headlines.usage.fallbacks == 1 and not headlines.failures
    page = next(d for d in kg.nodes(NodeKind.DOCUMENT) if kg.get(d)["source"] == "plain.txt")
    assert kg.get(page)["headlines"] == []
