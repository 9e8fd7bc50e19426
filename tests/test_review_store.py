"""The review's files: every action written at once and atomically, two tabs merge rather than overwrite,
a rejected sample is never lost (nor asked again by a refresh), an edited sample keeps its id, and a
refresh after a review keeps every kept and edited sample whose sources did not change."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from groundset.cli import main
from groundset.core.errors import ConfigError
from groundset.kg import build_knowledge_graph, update_kg
from groundset.review import ReviewConflict, ReviewStore, UnknownSample, summarise
from groundset.review.evidence import resting_spans, word_diff
from groundset.samples.rejected import read_rejected, rejected_ids, rejected_path
from groundset.synthesizers import (
    Testset,
    TestsetGenerator,
    TestsetSample,
    needs_review_path,
    refresh_testset,
)
from groundset.synthesizers.refresh.review_file import read_records, write_records

from .corpora import PROMETHEUS_DOCS
from .test_refresh import _copy, _engine

needs_corpus = pytest.mark.skipif(
    not PROMETHEUS_DOCS.is_dir(), reason=f"shared corpora not at {PROMETHEUS_DOCS}"
)


def _sample(n: int, **fields) -> TestsetSample:
    return TestsetSample.create(
        user_input=f"What does option {n} do?",
        reference=f"Option {n} sets the retention of block {n}.",
        reference_contexts=[f"## Options\n\nOption {n} sets the retention of block {n}. It is optional."],
        reference_context_ids=[f"c{n}"],
        source_documents=[f"docs/page{n % 2}.md"],
        synthesizer="single_hop_specific" if n % 2 else "multi_hop_specific",
        **fields,
    )


@pytest.fixture
def testset_file(tmp_path: Path) -> Path:
    path = tmp_path / "golden.jsonl"
    Testset([_sample(n) for n in range(4)], {"seed": 1}).to_jsonl(path)
    return path


def _on_disk(path: Path) -> dict[str, dict]:
    return {s.id: s.model_dump() for s in Testset.from_jsonl(path)}


def test_keep_edit_tag_note_are_written_at_once_and_keep_the_id(testset_file):
    store = ReviewStore(testset_file)
    first, second = (s.id for s in Testset.from_jsonl(testset_file)[:2])
    store.keep(first)
    assert _on_disk(testset_file)[first]["reviewed"] is True
    store.edit(
        second,
        question="Which block does option 1 retain?",
        reference="Option 1 sets the retention of block 1.",
        base={"question": "What does option 1 do?", "reference": "Option 1 sets the retention of block 1."},
    )
    edited = _on_disk(testset_file)[second]  # same id, new text, reviewed and marked edited
    assert edited["user_input"] == "Which block does option 1 retain?"
    assert edited["reviewed"] and edited["edited"]
    store.tag(second, add=["critical", "retention"])
    store.tag(second, remove=["retention"])
    store.note(second, "asks for the block, not the option", base="")
    after = _on_disk(testset_file)[second]
    assert after["tags"] == ["critical"] and after["review_note"] == "asks for the block, not the option"
    assert Testset.from_jsonl(testset_file).metadata == {"seed": 1}  # the header survives every write
    store.keep(first, keep=False)
    assert _on_disk(testset_file)[first]["reviewed"] is False
    with pytest.raises(ConfigError, match="one word"):
        store.tag(first, add=["two words"])
    with pytest.raises(ConfigError, match="needs a question and a reference"):
        store.edit(first, question=" ", reference="x", base={})
    with pytest.raises(UnknownSample, match="no sample 's-nope'"):
        store.keep("s-nope")


def test_two_tabs_merge_and_a_stale_edit_is_refused(testset_file):
    tab_a, tab_b = ReviewStore(testset_file), ReviewStore(testset_file)
    sample = Testset.from_jsonl(testset_file)[0]
    shown = {"question": sample.user_input, "reference": sample.reference}  # what both pages loaded
    tab_a.edit(sample.id, question="Edited in tab A?", reference=sample.reference, base=shown)
    tab_b.tag(sample.id, add=["critical"])  # another field: merges with A's edit
    now = _on_disk(testset_file)[sample.id]
    assert now["user_input"] == "Edited in tab A?" and now["tags"] == ["critical"]
    with pytest.raises(ReviewConflict, match="changed elsewhere"):
        tab_b.edit(sample.id, question="Edited in tab B?", reference=sample.reference, base=shown)
    assert _on_disk(testset_file)[sample.id]["user_input"] == "Edited in tab A?"  # A's text stands
    tab_b.note(sample.id, "first", base="")
    with pytest.raises(ReviewConflict):
        tab_a.note(sample.id, "second", base="")


def test_concurrent_actions_from_many_threads_lose_nothing(testset_file):
    store = ReviewStore(testset_file)
    ids = [s.id for s in Testset.from_jsonl(testset_file)]
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            store.tag(ids[n % len(ids)], add=[f"t{n}"])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    tags = [t for s in Testset.from_jsonl(testset_file) for t in s.tags]
    assert sorted(tags) == sorted(f"t{n}" for n in range(16))


def test_reject_moves_the_sample_with_its_reason_and_restore_brings_it_back(testset_file):
    store = ReviewStore(testset_file)
    sample = Testset.from_jsonl(testset_file)[2]
    with pytest.raises(ConfigError, match="needs a reason"):
        store.reject(sample.id, "  ")
    item = store.reject(sample.id, "reference wrong")
    assert item.status == "rejected" and sample.id not in _on_disk(testset_file)
    (record,) = read_rejected(rejected_path(testset_file))
    assert record["reason"] == "reference wrong" and record["sample"]["user_input"] == sample.user_input
    assert rejected_ids(testset_file) == {sample.id}
    assert store.reject(sample.id, "again").status == "rejected"  # twice: one record
    assert len(read_rejected(rejected_path(testset_file))) == 1
    store.restore(sample.id)
    assert sample.id in _on_disk(testset_file) and not rejected_path(testset_file).exists()


def test_a_crash_between_the_two_writes_of_a_reject_loses_nothing(testset_file, monkeypatch):
    """The rejected file is written first; a server killed before the test set is rewritten leaves the
    sample in both files, which reads as rejected, and the next action tidies up."""
    store = ReviewStore(testset_file)
    sample = Testset.from_jsonl(testset_file)[1]

    def killed(self, edit):
        raise KeyboardInterrupt

    monkeypatch.setattr(ReviewStore, "_write_testset", killed)
    with pytest.raises(KeyboardInterrupt):
        store.reject(sample.id, "duplicate")
    monkeypatch.undo()
    assert sample.id in _on_disk(testset_file) and rejected_ids(testset_file) == {sample.id}
    assert store.item(sample.id).status == "rejected"  # in both: rejected, shown once
    assert [i.sample.id for i in store.items()].count(sample.id) == 1
    store.restore(sample.id)
    assert [s.id for s in Testset.from_jsonl(testset_file)].count(sample.id) == 1


def test_needs_review_samples_are_kept_by_marking_them_for_restore(testset_file):
    store = ReviewStore(testset_file)
    waiting = _sample(9, reviewed=True)
    write_records(
        needs_review_path(testset_file),
        [
            {
                "id": waiting.id,
                "reason": "source changed",
                "sample": waiting.model_dump(mode="json"),
                "restore": False,
            }
        ],
    )
    item = store.item(waiting.id)
    assert item.status == "needs review" and not item.restoring
    assert store.keep(waiting.id).restoring
    (record,) = read_records(needs_review_path(testset_file))
    assert record["restore"] is True
    store.reject(waiting.id, "obsolete")
    assert not needs_review_path(testset_file).exists()
    back = store.restore(waiting.id)  # back where it came from, with its reason
    assert back.status == "needs review" and read_records(needs_review_path(testset_file))[0]["reason"]


def test_summary_counts_statuses_per_kind_and_the_kept_share(testset_file):
    store = ReviewStore(testset_file)
    ids = [s.id for s in Testset.from_jsonl(testset_file)]
    store.keep(ids[0])
    store.edit(ids[1], question="Changed?", reference="Option 1 sets it.", base={})
    store.reject(ids[2], "unclear")
    summary = summarise(store.items())
    assert summary.total == {"kept": 1, "edited": 1, "rejected": 1, "pending": 1}
    assert summary.kept_share() == pytest.approx(2 / 3)
    assert summary.rejected_reasons == {"unclear": 1}
    assert sum(summary.by_kind["single_hop_specific"].values()) == 2
    assert "kept 67% of 3 decided" in summary.lines()[0]


def test_a_missing_or_broken_file_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="no test set at"):
        ReviewStore(tmp_path / "missing.jsonl")
    path = tmp_path / "t.jsonl"
    Testset([_sample(1)], {}).to_jsonl(path)
    rejected_path(path).write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="line 1: a rejected file record"):
        ReviewStore(path).items()


def test_the_highlight_marks_the_sentences_the_reference_copies():
    context = "## Retention\n\nBlocks are compacted. The retention period is 15 days by default. Logs rotate."
    spans = resting_spans(context, "The retention period is 15 days by default.")
    assert "".join(s.text for s in spans) == context  # nothing lost or reordered
    assert [s.text for s in spans if s.marked] == ["The retention period is 15 days by default."]
    assert not any(s.marked for s in resting_spans(context, "Something unrelated entirely."))
    pieces = word_diff("keeps samples for 15 days", "keeps samples for 30 days")
    assert ("removed", "15") in pieces and ("added", "30") in pieces


@pytest.fixture(scope="module")
def reviewed_corpus(tmp_path_factory):
    """Five Prometheus pages, their graph, and a 12-sample offline test set of them."""
    root = tmp_path_factory.mktemp("reviewed")
    pages = [
        "concepts/data_model.md",
        "concepts/metric_types.md",
        "practices/naming.md",
        "practices/histograms.md",
        "practices/instrumentation.md",  # facts to spare: a refresh fills a rejected sample's gap
    ]
    docs = _copy(pages, root / "docs")
    kg = build_knowledge_graph(docs, engine=_engine()).kg
    return docs, kg, TestsetGenerator(engine=_engine()).generate(kg, 12, seed=3)


def _scenario(sample: TestsetSample) -> tuple:
    return tuple(sample.reference_context_ids), tuple(sample.terms)


@needs_corpus
def test_a_refresh_after_a_review_keeps_kept_and_edited_samples(reviewed_corpus, tmp_path):
    docs_before, kg, testset = reviewed_corpus
    docs = tmp_path / "docs"
    shutil.copytree(docs_before, docs)
    path = tmp_path / "testset.jsonl"
    testset.to_jsonl(path)
    store = ReviewStore(path)
    edited_page = "practices/naming.md"  # an edit of another page: kept and edited samples stay
    untouched = [s for s in testset if edited_page not in s.source_documents]
    assert len(untouched) >= 2, [s.source_documents for s in testset]
    kept, edited = untouched[:2]
    store.keep(kept.id)
    shown = {"question": edited.user_input, "reference": edited.reference}
    question = edited.user_input.rstrip("?") + ", in short?"
    store.edit(edited.id, question=question, reference=edited.reference, base=shown)
    store.tag(edited.id, add=["critical"])
    with (docs / edited_page).open("a", encoding="utf-8") as page:
        page.write("\n\n## Units\n\nA metric name should carry its unit as a suffix, in plural form.\n")
    new_kg = update_kg(kg, docs, engine=_engine()).kg
    result = refresh_testset(Testset.from_jsonl(path), new_kg, len(testset), rejected=[rejected_path(path)])
    after = {s.id: s for s in result.testset}
    assert after[kept.id].reviewed and not after[kept.id].edited
    assert after[edited.id].edited and after[edited.id].tags == ["critical"]
    assert after[edited.id].user_input == question  # same id, the person's words
    assert result.documents["changed"] == [edited_page]


@needs_corpus
def test_a_refresh_never_asks_a_rejected_sample_again(reviewed_corpus, tmp_path):
    """A rejected sample leaves a gap that a refresh fills: without the rejected file it asks the same
    scenario again (same contexts and terms, reworded); with it, never."""
    _, kg, testset = reviewed_corpus
    path = tmp_path / "testset.jsonl"
    testset.to_jsonl(path)
    rejected = next(s for s in testset if s.synthesizer == "single_hop_specific")
    ReviewStore(path).reject(rejected.id, "not a question a user would ask")
    old = Testset.from_jsonl(path)
    assert len(old) == len(testset) - 1
    blind = refresh_testset(old, kg, len(testset), seed=3)
    assert _scenario(rejected) in {_scenario(s) for s in blind.new}  # what the rejected file prevents
    result = refresh_testset(old, kg, len(testset), seed=3, rejected=[rejected_path(path)])
    assert len(result.testset) == len(testset)
    assert _scenario(rejected) not in {_scenario(s) for s in result.testset}
    assert rejected.id not in {s.id for s in result.testset}
    assert result.testset.metadata["refresh"]["rejected_left_out"] == 1


def test_generate_refresh_reads_the_rejected_file_beside_the_test_set(tmp_path, monkeypatch):
    """The CLI passes the rejected files beside --refresh and --out to the refresh."""
    import groundset.synthesizers as synthesizers

    seen = {}

    def fake_refresh(old, kg, size, **options):
        seen.update(options)
        raise SystemExit(0)

    monkeypatch.setattr(synthesizers, "refresh_testset", fake_refresh)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nThe retention period is fifteen days by default.\n", encoding="utf-8")
    old = tmp_path / "old.jsonl"
    Testset([_sample(1)], {}).to_jsonl(old)
    with pytest.raises(SystemExit):
        main(["generate", str(docs), "--refresh", str(old), "-o", str(tmp_path / "new.jsonl"), "--quiet"])
    assert seen["rejected"] == [rejected_path(old), rejected_path(tmp_path / "new.jsonl")]
