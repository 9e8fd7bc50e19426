"""Keeping the golden set through edits: a sample stays while the text of every chunk it rests on (its own,
its earlier turns', its distractors') stands in the same document; renamed files carry every context; a
refresh with nothing to do writes the same bytes; the needs-review file is merged, never overwritten, and
a reviewed sample marked ``restore`` comes back; `diff` tells a person's edits from a refresh's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from groundset.cli import main
from groundset.kg import KnowledgeGraph, build_knowledge_graph, update_kg
from groundset.kg.document_changes import graph_documents
from groundset.kg.graph import chunk_id
from groundset.samples.turns import Turn
from groundset.synthesizers import (
    Testset,
    TestsetGenerator,
    TestsetSample,
    kinds_distribution,
    needs_review_path,
    refresh_testset,
)
from groundset.synthesizers.refresh.relink import ContextFinder

from .corpora import PROMETHEUS_DOCS
from .test_refresh import EDIT as SECTION
from .test_refresh import _copy, _engine, _lines

needs_corpus = pytest.mark.skipif(
    not PROMETHEUS_DOCS.is_dir(), reason=f"shared corpora not at {PROMETHEUS_DOCS}"
)

PAGES = [
    "concepts/data_model.md",
    "concepts/metric_types.md",
    "concepts/jobs_instances.md",
    "introduction/overview.md",
    "practices/alerting.md",
    "practices/histograms.md",
    "practices/naming.md",
    "practices/pushing.md",
]


def _texts(sample: TestsetSample) -> set[str]:
    return {text for _, text in sample.grounding()}


def _grounded_in(kg: KnowledgeGraph, sample: TestsetSample) -> bool:
    return all(node in kg and kg.get(node)["text"] == text for node, text in sample.grounding())


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory):
    """A test set of every kind of question from 8 Prometheus pages, its folder and its graph."""
    root = tmp_path_factory.mktemp("every-kind")
    docs = _copy(PAGES, root / "docs")
    kg = build_knowledge_graph(docs, engine=_engine()).kg
    testset = TestsetGenerator(engine=_engine()).generate(kg, 30, kinds_distribution("all"), seed=3)
    kinds = testset.counts("synthesizer")
    assert {"distracting", "out_of_scope", "situational"} <= set(kinds), kinds
    path = root / "testset.jsonl"
    testset.to_jsonl(path)
    return root, docs, kg, testset, path


# -- an edit elsewhere in a page ---------------------------------------------------------------------


@needs_corpus
def test_a_section_added_to_a_page_keeps_every_sample_of_it(every_kind, tmp_path):
    """The issue's case: one section appended to a page; `kg update`, then refresh: nothing is dropped, every
    line is the same (the chunk ids of the untouched chunks did not change)."""
    _, docs, kg, testset, path = every_kind
    page = max(PAGES, key=lambda p: sum(p in s.source_documents for s in testset))
    on_page = [s for s in testset if page in s.source_documents]
    assert len(on_page) >= 3
    edited = shutil.copytree(docs, tmp_path / "docs")
    (edited / page).write_text((edited / page).read_text(encoding="utf-8") + SECTION, encoding="utf-8")
    updated = update_kg(kg, edited, engine=_engine())
    assert updated.diff.changed == [page]
    result = refresh_testset(testset, updated.kg)
    assert not result.dropped and not result.needs_review and not result.new
    assert result.kept == list(testset)  # the very samples, ids and context ids unchanged
    result.write(tmp_path / "refreshed.jsonl")
    assert _lines(tmp_path / "refreshed.jsonl") == _lines(path)
    assert all(_grounded_in(updated.kg, s) for s in result.testset)


@needs_corpus
def test_only_samples_whose_own_chunk_changed_are_dropped(every_kind, tmp_path):
    """One chunk edited: the samples resting on it (as reference, distractor or earlier turn) go, the other
    samples of the page stay."""
    _, docs, kg, testset, _ = every_kind

    def others_on_its_page(sample: TestsetSample) -> int:
        page = kg.get(sample.distractor_context_ids[0])["source"]
        near = sample.distractor_contexts[0]
        return sum(page in other.source_documents and near not in _texts(other) for other in testset)

    # the near-miss whose page has the most other samples: those must stay
    distracting = max((s for s in testset if s.synthesizer == "distracting"), key=others_on_its_page)
    near_miss = distracting.distractor_contexts[0]
    page = kg.get(distracting.distractor_context_ids[0])["source"]
    line = near_miss.rstrip().splitlines()[-1]
    edited = shutil.copytree(docs, tmp_path / "docs")
    text = (edited / page).read_text(encoding="utf-8")
    assert text.count(line) == 1
    (edited / page).write_text(text.replace(line, line + " Edited."), encoding="utf-8")
    kg2 = build_knowledge_graph(edited, engine=_engine()).kg
    result = refresh_testset(testset, kg2)
    on_chunk = {s.id for s in testset if near_miss in _texts(s)}
    assert distracting.id in on_chunk
    assert {d.sample.id for d in result.dropped} == on_chunk
    for dropped in result.dropped:
        assert dropped.reason == "source changed" and dropped.changed_documents == [page]
        assert dropped.changed_context_ids == [
            node for node, text in dropped.sample.grounding() if text == near_miss
        ]
    assert [s.id for s in result.kept] == [s.id for s in testset if s.id not in on_chunk]
    assert any(page in s.source_documents for s in result.kept)  # the page's other samples stay


# -- finding contexts: unit cases on a hand-made graph -----------------------------------------------


def _graph(pages: dict[str, list[str]]) -> KnowledgeGraph:
    kg = KnowledgeGraph()
    for source, chunks in pages.items():
        doc = kg.add_document("\n\n".join(chunks), source=source)
        for position, text in enumerate(chunks):
            kg.add_chunk(doc, text, position=position)
    return kg


def _on(kg: KnowledgeGraph, source: str, text: str, **fields) -> TestsetSample:
    """A sample grounded on the chunk of ``source`` with ``text``."""
    (node,) = [c for c in kg.nodes("chunk") if kg.get(c)["source"] == source and kg.get(c)["text"] == text]
    return TestsetSample.create(
        user_input=f"What about {text[:12]}?",
        reference=text,
        reference_contexts=[text],
        reference_context_ids=[node],
        source_documents=[source],
        synthesizer="single_hop_specific",
        **fields,
    )


def test_chunk_ids_depend_on_the_path_and_text_only():
    before = _graph({"a.md": ["Alpha one.", "Beta two.", "Alpha one."]})
    after = _graph({"a.md": ["New intro.", "Alpha one.", "Beta two.", "Gamma.", "Alpha one."]})
    ids = {(before.get(c)["text"], before.get(c)["position"]): c for c in before.nodes("chunk")}
    assert ids[("Beta two.", 1)] in after and after.get(ids[("Beta two.", 1)])["position"] == 2
    assert ids[("Alpha one.", 0)] == chunk_id("a.md", "Alpha one.", 0)
    assert ids[("Alpha one.", 2)] == chunk_id("a.md", "Alpha one.", 1)  # the second copy, its own id
    assert chunk_id("a.md", "Beta two.") != chunk_id("b.md", "Beta two.")
    doc = next(iter(before.nodes("document")))
    assert before.add_chunk(doc, "Beta two.", position=1) == ids[("Beta two.", 1)]  # adding again updates


def test_a_context_whose_text_left_its_document_is_missing_even_if_another_page_has_it():
    kg1 = _graph({"a.md": ["Shared words here.", "Other."], "b.md": ["Intro.", "More."]})
    sample = _on(kg1, "a.md", "Shared words here.")
    kg2 = _graph({"a.md": ["Rewritten words.", "Other."], "b.md": ["Intro.", "Shared words here.", "More."]})
    found = ContextFinder(kg2, graph_documents(kg1)).find(sample)
    assert found.missing == sample.reference_context_ids


def test_renamed_file_carries_reference_distractor_and_earlier_turn_contexts():
    kg1 = _graph({"a.md": ["Answer text.", "Earlier text."], "b.md": ["Near miss text.", "B two."]})
    earlier = kg1.nodes("chunk")[1]
    near = next(c for c in kg1.nodes("chunk") if kg1.get(c)["text"] == "Near miss text.")
    sample = _on(
        kg1,
        "a.md",
        "Answer text.",
        history=[Turn(user_input="First?", reference="Earlier.", reference_contexts=["Earlier text."],
                      reference_context_ids=[earlier])],
        distractor_contexts=["Near miss text."],
        distractor_context_ids=[near],
    )  # fmt: skip
    kg2 = _graph({"a2.md": ["Answer text.", "Earlier text."], "b2.md": ["Near miss text.", "B two."]})
    found = ContextFinder(kg2, graph_documents(kg1)).find(sample)
    assert found.complete
    moved = found.apply(sample)
    assert moved.id == sample.id and _grounded_in(kg2, moved)
    assert moved.source_documents == ["a2.md"]  # the distractor's page is not the sample's
    assert moved.history[0].reference_context_ids == [chunk_id("a2.md", "Earlier text.")]
    assert moved.distractor_context_ids == [chunk_id("b2.md", "Near miss text.")]
    again = ContextFinder(kg2, graph_documents(kg2)).find(moved)  # the next refresh: nothing to do
    assert again.complete and again.apply(moved) is moved


def test_ids_written_before_path_and_text_ids_are_found_by_text_in_their_documents():
    kg = _graph({"a.md": ["Answer text.", "Other."], "b.md": ["Near miss text."]})
    legacy = TestsetSample.create(
        user_input="Old?",
        reference="Answer text.",
        reference_contexts=["Answer text."],
        reference_context_ids=["chunk-0000000000000001"],
        source_documents=["a.md"],
        synthesizer="distracting",
        distractor_contexts=["Near miss text."],
        distractor_context_ids=["chunk-0000000000000002"],
    )
    found = ContextFinder(kg, graph_documents(kg)).find(legacy)
    assert found.complete and found.documents is None
    relinked = found.apply(legacy)
    assert _grounded_in(kg, relinked) and relinked.id == legacy.id


# -- renames and no-ops on the real pages -----------------------------------------------------------


@needs_corpus
def test_every_kind_follows_a_renamed_page_and_a_second_refresh_changes_nothing(every_kind, tmp_path):
    root, docs, kg, testset, path = every_kind
    kinds = {s.synthesizer for s in testset if s.synthesizer not in ("single_hop_specific", "out_of_scope")}
    page = max(PAGES, key=lambda p: sum(p in s.source_documents and s.synthesizer in kinds for s in testset))
    moved_to = page.replace(".md", "_moved.md")
    renamed = shutil.copytree(docs, tmp_path / "docs")
    (renamed / page).rename(renamed / moved_to)
    kg2 = update_kg(kg, renamed, engine=_engine()).kg
    result = refresh_testset(testset, kg2)
    assert not result.dropped and not result.needs_review and len(result.testset) == len(testset)
    followed = [s for s in result.kept if moved_to in s.source_documents]
    assert {s.synthesizer for s in followed} >= kinds & {
        s.synthesizer for s in testset if page in s.source_documents
    }
    assert len(followed) == sum(page in s.source_documents for s in testset) == result.moved
    assert all(_grounded_in(kg2, s) for s in result.testset)
    first = tmp_path / "first.jsonl"
    result.write(first)
    again = refresh_testset(Testset.from_jsonl(first), kg2)
    assert not again.dropped and not again.new and again.moved == again.relinked == 0
    again.write(tmp_path / "second.jsonl")
    assert (tmp_path / "second.jsonl").read_bytes() == first.read_bytes()


@needs_corpus
def test_a_refresh_against_the_same_graph_writes_the_same_bytes(every_kind, tmp_path):
    _, _, kg, testset, path = every_kind
    result = refresh_testset(Testset.from_jsonl(path), kg)
    assert result.write(tmp_path / "same.jsonl") is None
    assert (tmp_path / "same.jsonl").read_bytes() == path.read_bytes()
    kg_dir = tmp_path / "kg"
    kg.save(kg_dir)
    assert main(["generate", "--kg", str(kg_dir), "--refresh", str(path), "--out", str(path), "-q"]) == 0
    assert path.read_bytes() == (tmp_path / "same.jsonl").read_bytes()


# -- the needs-review file ----------------------------------------------------------------------------


def _edit_chunk_of(docs: Path, kg: KnowledgeGraph, sample: TestsetSample, word: str) -> None:
    """Change the last line of the sample's first context in its page."""
    page = docs / kg.get(sample.reference_context_ids[0])["source"]
    line = sample.reference_contexts[0].rstrip().splitlines()[-1]
    text = page.read_text(encoding="utf-8")
    assert text.count(line) == 1
    page.write_text(text.replace(line, f"{line} {word}"), encoding="utf-8")


@needs_corpus
def test_the_review_file_is_merged_and_a_restored_sample_comes_back(every_kind, tmp_path):
    _, docs, kg, testset, _ = every_kind
    single = [s for s in testset if s.synthesizer == "single_hop_specific"]
    first, second = single[0], next(s for s in single[1:] if not _texts(s) & _texts(single[0]))
    reviewed = {s.id: s.model_copy(update={"reviewed": True}) for s in (first, second)}
    out = tmp_path / "testset.jsonl"
    Testset([reviewed.get(s.id, s) for s in testset], testset.metadata).to_jsonl(out)
    side = needs_review_path(out)
    work = shutil.copytree(docs, tmp_path / "docs")

    # 1st change: the first reviewed sample's chunk; it goes to review, with the chunk now in its place.
    _edit_chunk_of(work, kg, first, "Edited once.")
    kg2 = update_kg(kg, work, engine=_engine()).kg
    refresh_testset(Testset.from_jsonl(out), kg2).write(out)
    (record,) = [json.loads(line) for line in side.read_text(encoding="utf-8").splitlines()]
    assert record["id"] == first.id and record["restore"] is False
    (suggested,) = record["current_contexts"]
    assert suggested["replaces"] == first.reference_context_ids[0]
    assert (
        suggested["text"].endswith("Edited once.") and kg2.get(suggested["id"])["text"] == suggested["text"]
    )
    # A person fixes the reference in the review file, and is not done yet.
    record["sample"]["reference"] = "Fixed by a person."
    side.write_text(json.dumps(record) + "\n", encoding="utf-8")

    # 2nd change: the other reviewed sample's chunk; the file keeps the first record and its edit.
    _edit_chunk_of(work, kg, second, "Edited twice.")
    kg3 = update_kg(kg2, work, engine=_engine()).kg
    result = refresh_testset(Testset.from_jsonl(out), kg3, review=side)
    assert [d.sample.id for d in result.needs_review] == [second.id] and not result.restored
    assert result.write(out) == side
    records = {r["id"]: r for r in map(json.loads, side.read_text(encoding="utf-8").splitlines())}
    assert list(records) == [first.id, second.id]
    assert records[first.id]["sample"]["reference"] == "Fixed by a person."

    # The person puts the first one back; the next refresh (nothing else changed) restores it.
    records[first.id]["restore"] = True
    side.write_text("".join(json.dumps(r) + "\n" for r in records.values()), encoding="utf-8")
    result = refresh_testset(Testset.from_jsonl(out), kg3, review=side)
    (back,) = result.restored
    assert back.id == first.id and back.reviewed and back.reference == "Fixed by a person."
    assert back.reference_contexts == [suggested["text"]] and _grounded_in(kg3, back)
    assert result.write(out) == side
    assert [json.loads(line)["id"] for line in side.read_text(encoding="utf-8").splitlines()] == [second.id]
    assert first.id in _lines(out) and Testset.from_jsonl(out).metadata["refresh"]["restored"] == 1


@needs_corpus
def test_a_sample_sent_to_review_again_keeps_the_persons_version(every_kind, tmp_path):
    _, docs, kg, testset, _ = every_kind
    sample = next(s for s in testset if s.synthesizer == "single_hop_specific").model_copy(
        update={"reviewed": True}
    )
    out = tmp_path / "testset.jsonl"
    Testset([sample], testset.metadata).to_jsonl(out)
    side = needs_review_path(out)
    edited = sample.model_dump(mode="json") | {"reference": "A person's version."}
    side.write_text(json.dumps({"id": sample.id, "reason": "source changed", "sample": edited}) + "\n")
    work = shutil.copytree(docs, tmp_path / "docs")
    _edit_chunk_of(work, kg, sample, "Edited.")
    kg2 = update_kg(kg, work, engine=_engine()).kg
    refresh_testset(Testset.from_jsonl(out), kg2, size=1).write(out)
    (record,) = [json.loads(line) for line in side.read_text(encoding="utf-8").splitlines()]
    assert record["sample"]["reference"] == sample.reference and record["reason"] == "source changed"
    assert record["earlier_samples"][0]["reference"] == "A person's version."


@needs_corpus
def test_a_restore_whose_context_is_gone_stays_with_the_problem(every_kind, tmp_path):
    _, _, kg, testset, _ = every_kind
    sample = next(s for s in testset if s.synthesizer == "single_hop_specific")
    out = tmp_path / "testset.jsonl"
    testset.to_jsonl(out)
    side = needs_review_path(out)
    orphan = sample.model_dump(mode="json") | {
        "id": "s-orphan",
        "reference_contexts": ["Nowhere in the docs."],
    }
    side.write_text(json.dumps({"id": "s-orphan", "sample": orphan, "restore": True}) + "\n")
    result = refresh_testset(Testset.from_jsonl(out), kg, review=side)
    assert not result.restored and "not in the graph" in result.review_problems["s-orphan"]
    assert any(line.startswith("not put back: s-orphan") for line in result.summary())
    result.write(out)
    (record,) = [json.loads(line) for line in side.read_text(encoding="utf-8").splitlines()]
    assert record["restore"] is True and "not in the graph" in record["restore_problem"]


# -- diff ---------------------------------------------------------------------------------------------


def test_diff_counts_a_followed_rename_apart_from_a_persons_edit(tmp_path, capsys):
    kg1 = _graph({"a.md": ["Answer text.", "Other."]})
    sample = _on(kg1, "a.md", "Answer text.")
    other = _on(kg1, "a.md", "Other.")
    kg2 = _graph({"b.md": ["Answer text.", "Other."]})
    moved = ContextFinder(kg2, graph_documents(kg1)).find(sample).apply(sample)
    edited = ContextFinder(kg2, graph_documents(kg1)).find(other).apply(other)
    edited = edited.model_copy(update={"reference": "Reworded.", "reviewed": True})
    Testset([sample, other]).to_jsonl(tmp_path / "old.jsonl")
    Testset([moved, edited]).to_jsonl(tmp_path / "new.jsonl")
    assert main(["diff", str(tmp_path / "old.jsonl"), str(tmp_path / "new.jsonl"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["edited"] == [other.id] and sorted(report["followed"]) == sorted([sample.id, other.id])
    assert report["counts"]["edited"] == 1 and report["counts"]["followed"] == 2


@needs_corpus
def test_a_restore_flag_that_is_not_a_boolean_is_named(every_kind, tmp_path):
    _, _, kg, testset, _ = every_kind
    out = tmp_path / "testset.jsonl"
    testset.to_jsonl(out)
    sample = testset[0].model_dump(mode="json") | {"id": "s-asked"}
    needs_review_path(out).write_text(
        json.dumps({"id": "s-asked", "sample": sample, "restore": "yes"}) + "\n"
    )
    result = refresh_testset(Testset.from_jsonl(out), kg, review=needs_review_path(out))
    assert not result.restored and "must be true or false, found 'yes'" in result.review_problems["s-asked"]
