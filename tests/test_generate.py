"""The test-set generator end to end: offline on the real corpus, through the stub, on tiny corpora."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from groundset.cli import main
from groundset.core import CallEngine, resolve_embeddings
from groundset.core.offline_embeddings import cosine_thresholds
from groundset.kg import build_knowledge_graph
from groundset.synthesizers import Testset, TestsetGenerator
from groundset.text.plaintext import plain_text

from .corpora import EXAMPLE_DOCS, PROMETHEUS_DOCS
from .openai_stub import Reply
from .scripted_model import scripted
from .verdicts import for_keys

EXAMPLES = str(EXAMPLE_DOCS)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


@pytest.fixture(scope="module")
def real_graph():
    return build_knowledge_graph(PROMETHEUS_DOCS, engine=CallEngine(cache=False)).kg


@pytest.fixture(scope="module")
def offline_testset(real_graph):
    return TestsetGenerator(engine=CallEngine(cache=False)).generate(real_graph, 60, seed=7)


@pytest.mark.slow
def test_offline_testset_of_60_on_the_real_corpus(real_graph, offline_testset):
    """The issue's must-show properties, on the full Prometheus docs, offline."""
    testset = offline_testset
    assert len(testset) == 60
    counts = testset.counts("synthesizer")
    assert set(counts) == {"single_hop_specific", "multi_hop_abstract", "multi_hop_specific"}
    # the Prometheus docs hold few comparable definitions and few pairs of facts whose questions each name
    # what they ask ("What header must receivers use?", not "What must receivers use?"): the multi-hop kinds
    # keep those, the single-hop kind fills in, and the test set's notes name each shortfall
    assert counts["single_hop_specific"] >= 19
    for kind in ("multi_hop_abstract", "multi_hop_specific"):
        assert 1 <= counts[kind] <= 20
        if counts[kind] < 19:
            assert any(kind in note for note in testset.metadata["notes"]), testset.metadata["notes"]
    for sample in testset:
        assert all(node in real_graph for node in sample.reference_context_ids)
        assert [real_graph.get(n)["text"] for n in sample.reference_context_ids] == sample.reference_contexts
        if sample.synthesizer != "single_hop_specific":
            assert len(set(sample.reference_context_ids)) >= 2  # two chunks (of one or two documents)
            assert len(sample.reference.split("\n")) >= 2  # one answer line from each
        if sample.synthesizer == "multi_hop_specific":
            entity = sample.terms[0].casefold()
            assert all(entity.split()[0] in context.casefold() for context in sample.reference_contexts)
        grounding = _norm(" ".join(plain_text(c) for c in sample.reference_contexts))
        for sentence in sample.reference.split("\n"):
            # copied from the contexts; a leading "It"/"They" may be replaced by what it stands for
            words = re.findall(r"\w+", _norm(sentence))
            assert sum(w in grounding for w in words) / len(words) >= 0.9, (sample.id, sentence)
            tail = _norm(sentence).strip(".")[len(sentence) // 3 :]
            assert tail in grounding, (sample.id, sentence)  # copied: all but the opening words verbatim
    default = resolve_embeddings(None).model  # what the generator deduplicated with
    vectors = default.embed_matrix([s.user_input for s in testset])
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, 0)
    assert similarity.max() <= cosine_thresholds(default)[1]
    assert len({s.id for s in testset}) == 60


def test_generation_is_reproducible_with_a_seed(real_graph, offline_testset):
    again = TestsetGenerator(engine=CallEngine(cache=False)).generate(real_graph, 60, seed=7)
    assert [s.model_dump() for s in again] == [s.model_dump() for s in offline_testset]
    other = TestsetGenerator(engine=CallEngine(cache=False)).generate(real_graph, 60, seed=8)
    assert [s.id for s in other] != [s.id for s in offline_testset]


def test_distribution_and_styles(real_graph):
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate(
        real_graph, 12, "single=0.5,multi_abstract=0.25,multi_specific=0.25", seed=1
    )
    counts = testset.counts("synthesizer")
    assert counts["multi_hop_specific"] == 3
    # Offline the Prometheus docs list one pair of defined counterparts (counters and gauges): abstract
    # runs short, says why, and single-hop fills in.
    assert 1 <= counts["multi_hop_abstract"] <= 3
    assert counts["single_hop_specific"] == 12 - 3 - counts["multi_hop_abstract"]
    if counts["multi_hop_abstract"] < 3:
        notes = " ".join(testset.metadata["notes"])
        assert "too few good scenarios for multi_hop_abstract" in notes and "list side by side" in notes
    assert len(testset.counts("style")) >= 2


def test_one_document_corpus_yields_a_testset_with_a_warning(tmp_path, caplog):
    doc = tmp_path / "docs"
    doc.mkdir()
    (doc / "data_model.md").write_text((PROMETHEUS_DOCS / "concepts" / "data_model.md").read_text())
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate_from_documents(doc, 6)
    assert 0 < len(testset) <= 6
    assert set(testset.counts("synthesizer")) == {"single_hop_specific"}
    assert any("no grounded scenario" in note for note in testset.metadata["notes"])


def test_a_corpus_too_small_says_so(tmp_path):
    doc = tmp_path / "docs"
    doc.mkdir()
    (doc / "note.md").write_text(
        "# Alerting\nAlertmanager groups alerts by their labels before it sends them.\n"
    )
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate_from_documents(doc, 20)
    assert len(testset) < 20
    assert any("gave" in note for note in testset.metadata["notes"])


def test_generate_command_through_the_stub_then_from_the_cache(stub, tmp_path, monkeypatch, capsys):
    stub.on_chat(scripted)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-generate")
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    docs = tmp_path / "docs"
    docs.mkdir()
    for page in (
        "concepts/data_model.md",
        "concepts/metric_types.md",
        "concepts/jobs_instances.md",
        "practices/naming.md",
        "practices/histograms.md",
    ):
        (docs / page.replace("/", "_")).write_text((PROMETHEUS_DOCS / page).read_text())
    args = [
        "generate",
        str(docs),
        "-n",
        "8",
        "--llm",
        "openai:stub-model",
        "--embeddings",
        "openai:stub-embed",
        "--cache",
        str(tmp_path / "cache"),
        "--quiet",
        "--seed",
        "3",
    ]
    assert main([*args, "--out", str(tmp_path / "a.jsonl")]) == 0
    first = capsys.readouterr().out
    assert "per kept sample" in first and "samples: 8 of 8" in first
    requests = len(stub.requests)
    assert requests > 0
    assert main([*args, "--out", str(tmp_path / "b.jsonl")]) == 0
    assert len(stub.requests) == requests  # everything came from the cache
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    testset = Testset.from_jsonl(tmp_path / "a.jsonl")
    assert len(testset) == 8 and all("ChatOpenAI" in s.generator_model for s in testset)


def test_unsupported_references_are_rejected_and_regenerated(stub, real_graph, tmp_path):
    from langchain_openai import ChatOpenAI

    def picky(body):
        """References get a paraphrased tail (so only the LLM verdict can judge them); some are refused."""
        data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        if "statements" in data and "prometheus" in " ".join(data["statements"].values()).casefold():
            return Reply.json(for_keys(data["statements"], False, "no"))
        reply = scripted(body)
        if "contexts" in data:
            answer = json.loads(reply.content)
            reply = Reply.json({**answer, "reference": answer["reference"] + " In brief, that is the gist."})
        return reply

    stub.on_chat(picky)
    llm = ChatOpenAI(base_url=stub.base_url, api_key="sk-test-picky", model="stub-model", max_retries=0)
    testset = TestsetGenerator(llm, engine=CallEngine(cache=False)).generate(real_graph, 10, seed=2)
    assert len(testset) == 10
    assert testset.metadata["rejections"].get("reference not supported by its contexts", 0) >= 1
    verdicts = [r for r in stub.chat_requests if '"statements"' in r.body["messages"][-1]["content"]]
    assert len(verdicts) >= 10  # paraphrased references are judged by the model, one call each


REPEATED = "Which settings decide how long Prometheus keeps its samples on local disk?"


def test_a_duplicate_draft_costs_no_verdict_call(stub, real_graph):
    from langchain_openai import ChatOpenAI

    drafted = []

    def repeating(body):
        """The first three drafted questions are the same question: two of them are duplicates."""
        reply = scripted(body)
        data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        if "contexts" in data:
            drafted.append(data)
            if len(drafted) <= 3:
                answer = json.loads(reply.content)
                reply = Reply.json({**answer, "question": REPEATED})
        return reply

    stub.on_chat(repeating)
    llm = ChatOpenAI(base_url=stub.base_url, api_key="sk-test-dup", model="stub-model", max_retries=0)
    testset = TestsetGenerator(llm, engine=CallEngine(cache=False)).generate(real_graph, 6, seed=4)
    rejections = testset.metadata["rejections"]
    assert rejections.get("near-duplicate question", 0) >= 2, rejections
    verdicts = [r for r in stub.chat_requests if '"statements"' in r.body["messages"][-1]["content"]]
    duplicates = rejections["near-duplicate question"] + rejections.get("same reference as a kept sample", 0)
    # Duplicates are dropped before their verdict call: the repeated question is judged once. (A draft still
    # in flight when the set is full is dropped unjudged too, so on a loaded machine there may be fewer.)
    judged = [r for r in verdicts if REPEATED in r.body["messages"][-1]["content"]]
    assert len(judged) == 1
    assert len(verdicts) <= len(drafted) - duplicates


def test_a_corpus_without_entity_overlaps_hands_the_share_over(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    topics = {
        "bread.md": "# Sourdough\nA sourdough starter needs flour and water every day. The dough rests for "
        "twelve hours before baking. Bakers score the loaf so steam can escape in the oven.",
        "sailing.md": "# Knots\nA bowline makes a fixed loop at the end of a rope. Sailors tie a cleat hitch "
        "to secure a line to a cleat. A reef knot joins two ropes of equal thickness.",
    }
    for name, text in topics.items():
        (docs / name).write_text(text)
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate_from_documents(docs, 4)
    assert len(testset) >= 1
    assert "multi_hop_specific" not in testset.counts("synthesizer")
    assert any(
        "no grounded scenario" in note and "multi_hop_specific" in note for note in testset.metadata["notes"]
    )


def test_generate_from_a_saved_graph_with_user_personas_and_personas_command(tmp_path, capsys):
    kg_dir, personas = tmp_path / "kg", tmp_path / "personas.yaml"
    assert main(["kg", "build", EXAMPLES, "--out", str(kg_dir), "--no-cache", "-q"]) == 0
    assert main(["personas", str(kg_dir), "-n", "3", "--out", str(personas), "--no-cache"]) == 0
    assert "role description" in capsys.readouterr().out
    personas.write_text("- name: On-call SRE\n  role_description: Keeps alerts quiet and useful at night.\n")
    out = tmp_path / "t.csv"
    code = main(
        [
            "generate",
            "--kg",
            str(kg_dir),
            "-n",
            "6",
            "--out",
            str(out),
            "--personas",
            str(personas),
            "--distribution",
            "single=1",
            "--no-cache",
            "-q",
        ]
    )
    assert code == 0, capsys.readouterr()
    testset = Testset.from_csv(out)
    assert len(testset) == 6 and testset.counts("persona") == {"On-call SRE": 6}
    assert testset.counts("synthesizer") == {"single_hop_specific": 6}


def test_generate_argument_errors(tmp_path, capsys):
    assert main(["generate", "-n", "3", "--out", str(tmp_path / "x.jsonl")]) == 2
    assert "exactly one" in capsys.readouterr().err
    assert main(["generate", EXAMPLES, "--distribution", "single=1,triple=2", "-q"]) == 2  # a usage error
    assert "bad distribution entry 'triple=2'" in capsys.readouterr().err
    assert main(["generate", EXAMPLES, "--kinds", "single,triple", "-q"]) == 2
    assert "unknown kind(s) triple; choose among all, default" in capsys.readouterr().err
    assert main(["generate", EXAMPLES, "--kinds", "all", "--distribution", "single=1", "-q"]) == 2
    assert "not both" in capsys.readouterr().err


def test_every_kind_in_one_offline_test_set(real_graph):
    """--kinds all: every kind of question comes out of one run, tagged, and scores with no error."""
    from groundset.scoring import BaselineRAG, score_rag
    from groundset.synthesizers import ALL_KINDS, kinds_distribution

    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate(
        real_graph, 27, kinds_distribution("all"), seed=5
    )
    counts = testset.counts("synthesizer")
    assert set(counts) == set(ALL_KINDS) and sum(counts.values()) == 27
    # every kind its 3, but offline comparisons of two defined subjects the docs list side by side: the
    # Prometheus docs have one such pair (counters and gauges), and the other kinds fill in for the others
    short = {kind for kind, n in counts.items() if n < 3}
    assert short <= {"multi_hop_abstract"} and counts["multi_hop_abstract"] >= 1
    refuse = [s for s in testset if s.expected_behaviour == "refuse"]
    assert {s.synthesizer for s in refuse} == {"out_of_scope"}
    assert not any(s.reference_contexts for s in refuse)
    assert all(s.history for s in testset if s.synthesizer == "conversational")
    result = score_rag(testset, BaselineRAG(real_graph, top_k=3), show_progress=False)
    aggregate = result.aggregate()
    assert "refusal_correctness" in result.metrics and not any(m["errors"] for m in aggregate.values())
    declined = [result.scores("refusal_correctness")[i] for i, s in enumerate(testset) if s in refuse]
    assert len(declined) == 3 and not any(math.isnan(v) for v in declined)


def test_a_model_whose_every_answer_is_unusable_ends_with_none_kept_and_says_why(stub, real_graph):
    """A 135M model may answer nothing usable: that is no broken setup (unlike a bad key), so the run
    ends with an empty test set and the reason, instead of stopping with the first error."""
    from langchain_openai import ChatOpenAI

    stub.always(Reply.text("I cannot produce JSON."))
    llm = ChatOpenAI(base_url=stub.base_url, api_key="sk-test-mute", model="stub-model", max_retries=0)
    testset = TestsetGenerator(llm, engine=CallEngine(cache=False)).generate(real_graph, 2, seed=1)
    assert len(testset) == 0
    assert any(
        "failed and were skipped" in note and "PromptOutputError" in note
        for note in testset.metadata["notes"]
    )
