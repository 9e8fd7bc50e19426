"""Refreshing a test set after the docs changed: keep what the change did not touch (byte for byte, human
edits included, samples on an edited page whose own chunks are unchanged too), drop the rest with a reason,
flag reviewed samples (merged into the needs-review file, put back on request), follow renamed files with
every context, replace preferring new content; the `generate --refresh` and `diff` commands; a refresh
through the stub asks the model only for new samples."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from groundset.cli import main
from groundset.core import CallEngine
from groundset.kg import KnowledgeGraph, build_knowledge_graph
from groundset.synthesizers import (
    RefreshResult,
    Testset,
    TestsetGenerator,
    TestsetSample,
    largest_remainder,
    needs_review_path,
    refresh_testset,
)
from groundset.synthesizers.refresh.run import _missing
from groundset.synthesizers.scenarios.fact_index import FactIndex

from .corpora import PROMETHEUS_DOCS
from .scripted_model import scripted

pytestmark = pytest.mark.skipif(
    not PROMETHEUS_DOCS.is_dir(), reason=f"shared corpora not at {PROMETHEUS_DOCS}"
)

DOCS = [
    "concepts/data_model.md",
    "concepts/metric_types.md",
    "concepts/jobs_instances.md",
    "introduction/overview.md",
    "introduction/first_steps.md",
    "practices/alerting.md",
    "practices/histograms.md",
    "practices/naming.md",
    "practices/pushing.md",
    "practices/rules.md",
    "practices/instrumentation.md",
]
ADDED = "practices/remote_write.md"
WEIGHTS = {"single_hop_specific": 0.9, "multi_hop_abstract": 0.05, "multi_hop_specific": 0.05}
EDIT = "\n\n## Retention\n\nThe retention period is the time that Prometheus keeps samples on local disk.\n"
N = 20
TARGETS = dict(zip(WEIGHTS, largest_remainder(list(WEIGHTS.values()), N), strict=True))  # 18, 1, 1


def _engine() -> CallEngine:
    return CallEngine(cache=False)


def _copy(docs: list[str], target: Path) -> Path:
    for page in docs:
        (target / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PROMETHEUS_DOCS / page, target / page)
    return target


def _lines(path: Path) -> dict[str, str]:
    """Sample id -> its JSONL line (the header line left out)."""
    return {json.loads(line)["id"]: line for line in path.read_text(encoding="utf-8").splitlines()[1:]}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


@dataclass
class Scene:
    kg1: KnowledgeGraph
    kg2: KnowledgeGraph
    old: Testset
    old_file: Path
    out_file: Path
    changed: str
    deleted: str
    reviewed_kept: TestsetSample  # reviewed and edited, on unchanged documents
    reviewed_changed: TestsetSample  # reviewed, on a chunk of the changed document that was edited
    edited: list[str]  # the texts of the chunks edited in the changed document
    result: RefreshResult


@pytest.fixture(scope="module")
def scene(tmp_path_factory) -> Scene:
    """20 samples from 11 docs; one sample reviewed and edited, one reviewed on a chunk that then changes;
    one document changed (two of its chunks edited, a section added), one deleted, one added; the graph
    rebuilt from scratch; refreshed."""
    root = tmp_path_factory.mktemp("refresh")
    v1 = _copy(DOCS, root / "v1")
    kg1 = build_knowledge_graph(v1, engine=_engine()).kg
    generated = TestsetGenerator(engine=_engine()).generate(kg1, N, WEIGHTS)
    assert generated.counts("synthesizer") == TARGETS
    # Change and delete documents that only single-hop samples come from (the corpus has few multi-hop
    # scenarios): the changed one has three samples at least on different chunks, so one can be reviewed,
    # one dropped and one kept.
    multi = {src for s in generated if s.synthesizer != "single_hop_specific" for src in s.source_documents}
    per_document = Counter(src for s in generated for src in s.source_documents if src not in multi)
    changed = max(per_document, key=lambda d: (per_document[d], d))
    deleted = min((d for d in per_document if d != changed), key=lambda d: (per_document[d], d))
    on_changed = [s for s in generated if changed in s.source_documents]
    edited = list(dict.fromkeys(s.reference_contexts[0] for s in on_changed))[:2]
    assert len(edited) == 2 and len(on_changed) >= 3
    on_edited = [s for s in on_changed if s.reference_contexts[0] in edited]
    assert len(on_edited) < len(on_changed)
    untouched = next(s for s in generated if not {changed, deleted} & set(s.source_documents))
    reviewed_changed = on_edited[0].model_copy(update={"reviewed": True})
    reviewed_kept = untouched.model_copy(
        update={
            "reviewed": True,
            "user_input": "Edited by a person: " + untouched.user_input,
            "review_note": "made the question self-contained",
        }
    )
    swap = {reviewed_changed.id: reviewed_changed, reviewed_kept.id: reviewed_kept}
    old_file = root / "old.jsonl"
    Testset([swap.get(s.id, s) for s in generated], generated.metadata).to_jsonl(old_file)

    v2 = root / "v2"
    shutil.copytree(v1, v2)
    page = (v2 / changed).read_text(encoding="utf-8")
    for chunk in edited:  # one word more at the end of each edited chunk
        line = chunk.rstrip().splitlines()[-1]
        assert page.count(line) == 1, line
        page = page.replace(line, line + " Edited.")
    (v2 / changed).write_text(page + EDIT, encoding="utf-8")
    (v2 / deleted).unlink()
    _copy([ADDED], v2)
    kg2 = build_knowledge_graph(v2, engine=_engine()).kg
    old = Testset.from_jsonl(old_file)
    result = refresh_testset(old, kg2, generator=TestsetGenerator(engine=_engine()))
    out_file = root / "new.jsonl"
    result.write(out_file)
    return Scene(
        kg1, kg2, old, old_file, out_file, changed, deleted, reviewed_kept, reviewed_changed, edited, result
    )


def _touched(scene: Scene, sample: TestsetSample) -> bool:
    """Whether the change touched one of the sample's chunks: edited, or in the deleted document."""
    texts = {text for _, text in sample.grounding()}
    return bool(texts & set(scene.edited)) or scene.deleted in sample.source_documents


def test_untouched_samples_are_kept_byte_identical(scene: Scene):
    old_lines, new_lines = _lines(scene.old_file), _lines(scene.out_file)
    untouched = [s.id for s in scene.old if not _touched(scene, s)]
    assert [s.id for s in scene.result.kept] == untouched  # all of them, in their old order, nothing else
    assert len(untouched) < N
    # The changed page's samples whose own chunks were not edited stay, though the page's text changed.
    assert any(scene.changed in s.source_documents for s in scene.result.kept)
    for sample_id in untouched:
        assert new_lines[sample_id] == old_lines[sample_id]
    assert list(new_lines)[: len(untouched)] == untouched
    assert Testset.from_jsonl(scene.out_file) == scene.result.testset
    assert len(scene.result.testset) == N and len(new_lines) == N


def test_dropped_samples_have_their_reason(scene: Scene):
    result = scene.result
    dropped = {d.sample.id: d for d in result.dropped}
    assert dropped and scene.reviewed_changed.id not in dropped
    for sample in scene.old:
        if sample.id in dropped:
            reason = "source removed" if scene.deleted in sample.source_documents else "source changed"
            assert dropped[sample.id].reason == reason
            assert dropped[sample.id].changed_context_ids == sample.reference_context_ids
    reasons = Counter(d.reason for d in result.dropped)
    assert reasons["source changed"] >= 1 and reasons["source removed"] >= 1
    assert result.dropped_by_reason()["source removed"] == {scene.deleted: reasons["source removed"]}
    assert result.dropped_by_reason()["source changed"] == {scene.changed: reasons["source changed"]}
    assert result.documents == {"new": [ADDED], "changed": [scene.changed], "removed": [scene.deleted]}


def test_reviewed_samples_are_kept_with_their_edit_or_flagged(scene: Scene):
    kept = {s.id: s for s in scene.result.kept}
    edited = kept[scene.reviewed_kept.id]
    assert edited == scene.reviewed_kept and edited.user_input.startswith("Edited by a person: ")
    assert edited.id != TestsetSample.make_id(edited.reference_contexts, edited.user_input)  # id kept
    assert _lines(scene.out_file)[edited.id] == _lines(scene.old_file)[edited.id]

    flagged = scene.reviewed_changed
    assert [d.sample for d in scene.result.needs_review] == [flagged]
    assert flagged.id not in _lines(scene.out_file)
    side = needs_review_path(scene.out_file)
    assert side.name == "new.needs-review.jsonl"
    (record,) = [json.loads(line) for line in side.read_text(encoding="utf-8").splitlines()]
    assert record["id"] == flagged.id and record["reason"] == "source changed"
    assert record["changed_documents"] == [scene.changed] and record["removed_documents"] == []
    assert record["changed_context_ids"] == flagged.reference_context_ids
    assert TestsetSample.model_validate(record["sample"]) == flagged


def test_new_samples_prefer_new_and_changed_documents(scene: Scene):
    new = scene.result.new
    assert len(new) == N - len(scene.result.kept) > 0
    index = FactIndex.of(scene.kg2)
    assert any(scene.kg2.get(chunk)["source"] == ADDED for chunk in index.facts)  # the added page has facts
    assert any(ADDED in s.source_documents for s in new)
    fresh = {ADDED, scene.changed}
    on_fresh = [bool(fresh & set(s.source_documents)) for s in new]
    # Without the preference a new sample would come from any of the 10 pages, most of them unchanged: here
    # the fresh pages' scenarios come first, and only what they cannot give comes from elsewhere.
    assert on_fresh == sorted(on_fresh, reverse=True), [s.source_documents for s in new]
    assert sum(on_fresh) >= 0.75 * len(new), [s.source_documents for s in new]
    assert all(node in scene.kg2 for s in new for node in s.reference_context_ids)


def test_distribution_follows_the_weights_and_nothing_is_asked_twice(scene: Scene):
    testset = scene.result.testset
    assert testset.counts("synthesizer") == TARGETS
    questions = [_norm(s.user_input) for s in testset]
    assert len(set(questions)) == len(questions)
    assert len({_norm(s.reference) for s in testset}) == len(testset)
    generator = TestsetGenerator(engine=_engine())
    vectors = np.asarray(generator.embeddings.embed_documents([s.user_input for s in testset]))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, 0)
    assert similarity.max() <= generator.duplicate_threshold


def test_metadata_records_the_refresh(scene: Scene):
    meta = scene.result.testset.metadata
    refresh = meta["refresh"]
    assert (
        refresh["from_graph_fingerprint"]
        == scene.kg1.fingerprint()
        == scene.old.metadata["graph_fingerprint"]
    )
    assert refresh["graph_fingerprint"] == meta["graph_fingerprint"] == scene.kg2.fingerprint()
    assert scene.kg1.fingerprint() != scene.kg2.fingerprint()
    assert refresh["kept"] == len(scene.result.kept) and refresh["new"] == len(scene.result.new)
    assert refresh["kept_reviewed"] == 1 and refresh["needs_review"] == 1
    assert refresh["dropped"] == dict(Counter(d.reason for d in scene.result.dropped))
    assert meta["distribution"] == WEIGHTS and meta["requested"] == meta["generated"] == N
    assert meta["by_synthesizer"] == scene.result.testset.counts("synthesizer")
    assert set(meta["documents"]) == {*DOCS, ADDED} - {scene.deleted}
    assert meta["personas"] == scene.old.metadata["personas"]  # the same readers, no new personas


def test_refresh_against_the_same_graph_keeps_everything(scene: Scene, tmp_path):
    result = refresh_testset(scene.old, scene.kg1)
    assert (
        result.kept == list(scene.old) and not result.dropped and not result.new and not result.needs_review
    )
    assert result.documents == {"new": [], "changed": [], "removed": []}
    assert result.write(tmp_path / "same.jsonl") is None
    assert _lines(tmp_path / "same.jsonl") == _lines(scene.old_file)
    bigger = refresh_testset(scene.old, scene.kg1, N + 1)  # the corpus has one sample more to give
    assert bigger.kept == list(scene.old) and len(bigger.new) == 1 and len(bigger.testset) == N + 1


def test_refresh_of_a_test_set_that_does_not_list_its_documents(scene: Scene):
    """Test sets written before the graph's documents were recorded: the samples tell what they can."""
    meta = {k: v for k, v in scene.old.metadata.items() if k != "documents"}
    result = refresh_testset(Testset(scene.old, meta), scene.kg2)
    assert [s.id for s in result.kept] == [s.id for s in scene.result.kept]
    assert {d.sample.id: d.reason for d in result.dropped} == {
        d.sample.id: d.reason for d in scene.result.dropped
    }
    assert result.documents["changed"] == [scene.changed] and result.documents["removed"] == [scene.deleted]
    assert ADDED in result.documents["new"]  # with the pages no sample came from
    assert any("does not list its graph's documents" in note for note in result.testset.metadata["notes"])


def test_a_graph_split_otherwise_drops_samples_as_chunks_changed(scene: Scene, tmp_path):
    kg = build_knowledge_graph(_copy(DOCS, tmp_path / "docs"), engine=_engine(), chunk_size=400).kg
    result = refresh_testset(scene.old, kg, generator=TestsetGenerator(engine=_engine()))
    assert result.documents == {"new": [], "changed": [], "removed": []}  # the same documents
    assert result.dropped and {d.reason for d in [*result.dropped, *result.needs_review]} == {
        "chunks changed"
    }
    assert len(result.testset) == N


def test_refresh_asks_each_synthesizer_for_what_it_misses(scene: Scene):
    asked: list[dict[str, float]] = []

    class Recording(TestsetGenerator):
        async def agenerate(self, kg, testset_size, query_distribution=None, **kwargs):
            names = [synth.name for synth, _ in query_distribution]
            asked.append(dict(zip(names, kwargs["per_synthesizer"], strict=True)))
            return await super().agenerate(kg, testset_size, query_distribution, **kwargs)

    halves = "single=0.5,multi_abstract=0.25,multi_specific=0.25"  # 11, 5, 5 of 21; 18, 1, 1 kept
    result = refresh_testset(scene.old, scene.kg1, N + 1, generator=Recording(), query_distribution=halves)
    # one sample to add, the kinds that miss most get it: none to single-hop (it has more than its half)
    assert asked == [{"single_hop_specific": 0, "multi_hop_abstract": 1, "multi_hop_specific": 0}]
    # this corpus has no other multi-hop question: single-hop fills in, so the size is met all the same
    assert len(result.testset) == N + 1 and len(result.new) == 1
    assert result.testset.metadata["distribution"] == {
        "single_hop_specific": 0.5,
        "multi_hop_abstract": 0.25,
        "multi_hop_specific": 0.25,
    }


def test_missing_counts_follow_the_weights_over_the_whole_set():
    from groundset.synthesizers import MultiHopAbstractQuerySynthesizer as Abstract
    from groundset.synthesizers import MultiHopSpecificQuerySynthesizer as Specific
    from groundset.synthesizers import SingleHopSpecificQuerySynthesizer as Single

    def kept(**counts: int) -> list[TestsetSample]:
        return [_sample(f"{name} {i}?", name) for name, n in counts.items() for i in range(n)]

    thirds = [(Single(), 1.0), (Abstract(), 1.0), (Specific(), 1.0)]  # targets 7, 7, 6 of 20
    assert _missing(thirds, kept(single_hop_specific=7, multi_hop_abstract=2), 20, 11) == [0, 5, 6]
    # more kept than a share (the weights changed): the shortfall is split by what each one misses
    assert _missing(thirds, kept(single_hop_specific=10, multi_hop_abstract=4), 20, 6) == [0, 2, 4]
    # kept samples of a synthesizer outside the distribution count toward the size
    assert _missing(thirds, kept(custom=6, single_hop_specific=7), 20, 7) == [0, 4, 3]


def test_prefer_puts_scenarios_on_preferred_chunks_first(scene: Scene):
    page = "introduction/overview.md"
    prefer = {c for c in scene.kg1.nodes("chunk") if scene.kg1.get(c)["source"] == page}
    generator = TestsetGenerator(engine=_engine())
    plain = generator.generate(scene.kg1, 3, "single=1")
    preferred = generator.generate(scene.kg1, 3, "single=1", prefer=prefer)
    assert any(page not in s.source_documents for s in plain)
    assert all(s.source_documents == [page] for s in preferred)
    again = generator.generate(scene.kg1, 3, "single=1", existing=list(plain))  # same seed as plain
    assert not {_norm(s.user_input) for s in again} & {_norm(s.user_input) for s in plain}
    assert not {tuple(s.reference_contexts) for s in again} & {tuple(s.reference_contexts) for s in plain}


def test_review_fields_keep_ids_and_old_lines(tmp_path):
    sample = _sample("What does rate() compute?")
    plain = tmp_path / "plain.jsonl"
    Testset([sample]).to_jsonl(plain)
    line = plain.read_text(encoding="utf-8").splitlines()[1]
    assert "reviewed" not in line and "review_note" not in line  # unreviewed lines are as before
    edited = sample.model_copy(update={"user_input": "What does rate() return?", "reviewed": True})
    path = tmp_path / "edited.jsonl"
    Testset([edited]).to_jsonl(path)
    loaded = Testset.from_jsonl(path)[0]
    assert loaded == edited and loaded.id == sample.id and loaded.reviewed
    Testset([loaded]).to_csv(tmp_path / "edited.csv")
    assert Testset.from_csv(tmp_path / "edited.csv")[0] == edited
    header, row = (tmp_path / "edited.csv").read_text(encoding="utf-8").splitlines()
    (tmp_path / "blank.csv").write_text(header + "\n" + row.replace(",true,", ",,"), encoding="utf-8")
    assert not Testset.from_csv(tmp_path / "blank.csv")[0].reviewed  # an emptied cell: not reviewed


def test_generate_refresh_command_and_diff(scene: Scene, tmp_path, capsys):
    kg_dir = tmp_path / "kg2"
    scene.kg2.save(kg_dir)
    out = tmp_path / "cli.jsonl"
    args = ["generate", "--kg", str(kg_dir), "--refresh", str(scene.old_file), "--no-cache", "-q"]
    assert main([*args, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"kept {len(scene.result.kept)} (1 reviewed)" in printed
    removed = sum(scene.deleted in s.source_documents for s in scene.old)
    assert f"dropped (source removed) {removed}: {scene.deleted} {removed}" in printed
    assert f"dropped (source changed) {len(scene.result.dropped) - removed}: {scene.changed}" in printed
    fresh = sum(bool({ADDED, scene.changed} & set(s.source_documents)) for s in scene.result.new)
    assert f"new {len(scene.result.new)} ({fresh} on new or changed documents)" in printed
    assert f"needs review: 1 sample(s) in {needs_review_path(out)} (1 sent by this refresh)" in printed
    assert f"samples: {N} of {N} requested" in printed
    assert out.read_bytes() == scene.out_file.read_bytes()  # the command writes what the API gives
    assert needs_review_path(out).read_bytes() == needs_review_path(scene.out_file).read_bytes()

    assert main(["diff", str(scene.old_file), str(out)]) == 0
    text = capsys.readouterr().out
    kept, dropped = len(scene.result.kept), N - len(scene.result.kept)
    assert (
        f"kept {kept} (0 edited, 0 following a renamed document, 0 with new chunk ids), dropped {dropped}, "
        f"added {len(scene.result.new)}"
    ) in text
    assert re.search(rf"{re.escape(scene.deleted)}\s+0\s+\d+\s+0\n", text)
    assert re.search(rf"{re.escape(ADDED)}\s+0\s+0\s+[1-9]", text)
    assert f"removed  {scene.deleted}" in text and f"new      {ADDED}" in text
    assert f"{scene.reviewed_changed.id} (reviewed) [{scene.changed}]" in text  # the one sent for review
    assert main(["diff", str(scene.old_file), str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    counts = {"old": N, "new": N, "kept": kept, "edited": 0, "followed": 0, "relinked": 0}
    assert report["counts"] == {**counts, "dropped": dropped, "added": len(scene.result.new)}
    assert sorted(report["kept"]) == sorted(s.id for s in scene.result.kept)
    assert {d["id"] for d in report["dropped"]} == {s.id for s in scene.old} - set(report["kept"])
    assert report["by_document"][scene.deleted]["dropped"] >= 1
    edited = tmp_path / "edited.jsonl"
    first = scene.old[0].model_copy(update={"reference": "Rewritten by a person.", "reviewed": True})
    Testset([first, *scene.old[1:]], scene.old.metadata).to_jsonl(edited)
    assert main(["diff", str(scene.old_file), str(edited), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["counts"]["kept"] == N and report["edited"] == [first.id] and not report["documents"]["new"]

    # -n, and --out the old file itself: replaced atomically, the rest of it as the API gives
    inplace = tmp_path / "inplace.jsonl"
    shutil.copy(scene.old_file, inplace)
    assert (
        main([*args[:3], "--refresh", str(inplace), "--out", str(inplace), "-n", "21", "--no-cache", "-q"])
        == 0
    )
    capsys.readouterr()
    refreshed = Testset.from_jsonl(inplace)
    assert len(refreshed) == 21 and refreshed.metadata["refresh"]["kept"] == len(scene.result.kept)
    assert needs_review_path(inplace).exists()


def test_refresh_command_errors(scene: Scene, tmp_path, capsys):
    missing = tmp_path / "nope.jsonl"
    assert main(["generate", "--refresh", str(scene.old_file), "--out", str(tmp_path / "x.jsonl")]) == 2
    assert "exactly one" in capsys.readouterr().err
    kg_dir = tmp_path / "kg"
    scene.kg1.save(kg_dir)
    assert main(["generate", "--kg", str(kg_dir), "--refresh", str(missing), "-q", "--no-cache"]) == 1
    assert f"cannot read the testset {missing}" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "s-1"}\n', encoding="utf-8")
    assert main(["generate", "--kg", str(kg_dir), "--refresh", str(broken), "-q", "--no-cache"]) == 1
    assert "broken.jsonl line 1" in capsys.readouterr().err
    assert main(["diff", str(scene.old_file), str(missing)]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_refresh_through_the_stub_calls_the_model_only_for_new_samples(stub, tmp_path):
    from langchain_openai import ChatOpenAI

    stub.on_chat(scripted)
    llm = ChatOpenAI(base_url=stub.base_url, api_key="sk-test-refresh", model="stub-model", max_retries=0)
    pages = [
        "concepts/data_model.md",
        "concepts/metric_types.md",
        "practices/naming.md",
        "practices/pushing.md",
    ]
    v1 = _copy(pages, tmp_path / "v1")
    kg1 = build_knowledge_graph(v1, engine=_engine()).kg  # offline graph: only generation talks to the stub
    old = TestsetGenerator(llm, engine=_engine()).generate(kg1, 8, seed=3)
    assert len(old) == 8 and any(_asks(r, {"summaries", "themes"}) for r in stub.chat_requests)

    before = len(stub.chat_requests)
    same = refresh_testset(old, kg1, generator=TestsetGenerator(llm, engine=_engine()))
    assert same.kept == list(old) and not same.new
    assert len(stub.chat_requests) == before  # nothing changed: no model call at all

    sample = next(s for s in old if len(s.source_documents) == 1)
    changed, line = sample.source_documents[0], sample.reference_contexts[0].rstrip().splitlines()[-1]
    page = (v1 / changed).read_text(encoding="utf-8")
    (v1 / changed).write_text(page.replace(line, line + " Edited.") + EDIT, encoding="utf-8")
    kg2 = build_knowledge_graph(v1, engine=_engine()).kg
    result = refresh_testset(old, kg2, generator=TestsetGenerator(llm, engine=_engine()))
    calls = stub.chat_requests[before:]
    drafts = [r for r in calls if _asks(r, {"contexts"})]
    rejected = sum(result.testset.metadata["rejections"].values())
    assert len(result.dropped) >= 1 and len(result.new) == len(result.dropped) and len(result.testset) == 8
    surplus = result.testset.metadata.get("surplus_drafts", 0)  # passed once the share was full
    assert len(drafts) == len(result.new) + rejected + surplus  # drafts only for the new samples
    assert surplus <= len(result.new)
    assert all(_asks(r, {"contexts"}) or _asks(r, {"statements"}) for r in calls)  # no personas, no graph
    kept_scenarios = {(tuple(s.reference_contexts), tuple(s.terms)) for s in result.kept}
    drafted = {(tuple(_data(r)["contexts"]), tuple(_data(r)["terms"])) for r in drafts}
    assert drafted and not drafted & kept_scenarios  # no kept question is written again
    assert all("ChatOpenAI" in s.generator_model for s in result.new)


def _data(request) -> dict:
    return json.loads(request.body["messages"][-1]["content"].removeprefix("Input: "))


def _asks(request, keys: set[str]) -> bool:
    return keys <= set(_data(request))


def _sample(question: str, synthesizer: str = "single_hop_specific") -> TestsetSample:
    return TestsetSample.create(
        user_input=question,
        reference="The per-second average rate of increase.",
        reference_contexts=["rate() computes the per-second average rate of increase."],
        reference_context_ids=["chunk-1"],
        source_documents=["docs/rate.md"],
        synthesizer=synthesizer,
    )


def test_samples_follow_a_renamed_document(tmp_path):
    v1 = _copy(DOCS, tmp_path / "v1")
    kg1 = build_knowledge_graph(v1, engine=_engine()).kg
    old = TestsetGenerator(engine=_engine()).generate(kg1, N, WEIGHTS)
    renamed = max(DOCS, key=lambda d: sum(d in s.source_documents for s in old))
    on_renamed = [s for s in old if renamed in s.source_documents]
    assert on_renamed
    v2 = _copy(DOCS, tmp_path / "v2")
    (v2 / renamed).rename(v2 / renamed.replace(".md", "_renamed.md"))
    kg2 = build_knowledge_graph(v2, engine=_engine()).kg
    result = refresh_testset(old, kg2, generator=TestsetGenerator(engine=_engine()))
    assert not result.dropped and len(result.testset) == N
    followed = {s.id: s for s in result.kept}
    for sample in on_renamed:
        moved = followed[sample.id]  # same id and text, new context ids and source
        assert moved.user_input == sample.user_input and moved.reference == sample.reference
        assert moved.reference_context_ids != sample.reference_context_ids
        assert all(
            kg2.get(c)["text"] == t
            for c, t in zip(moved.reference_context_ids, moved.reference_contexts, strict=True)
        )
        assert renamed.replace(".md", "_renamed.md") in moved.source_documents
    assert result.testset.metadata["refresh"]["kept_moved"] == len(on_renamed)
    assert any("renamed" in line for line in result.summary())
