"""Refresh a test set after the documents changed: keep what the change did not touch, replace the rest.

A sample is kept while every chunk it rests on (its reference contexts, its earlier turns' and its
distractors') is still in the new graph with the same text in the same document (see ``relink``): an
edit elsewhere in the page does not touch it. It is carried over unchanged, same id, the same JSONL line,
or with new context ids where a chunk's id changed (it moved within its page, or the file was renamed and
the sample followed it). Every other sample is dropped with a reason: ``source changed`` (its document is
still there, with other text), ``source removed`` (the document is gone; this wins when a sample has one of
each) or ``chunks changed`` (the documents are the same, the graph split them differently, e.g. another
chunk size). A reviewed sample (``reviewed: true``, a person checked or edited it) is never dropped
silently: when its sources changed it goes to the needs-review file next to the output (see
``review_file``), merged with what is already there, and it does not count toward the size; one a person
marked there with ``"restore": true`` comes back.

Replacements fill the test set back to its size, per synthesizer so the final mix follows the weights,
trying scenarios on new or changed documents first, and never asking again a kept question or one that
waits for review (a person may put it back). The old test set's personas are reused, so a refresh calls a
model only for the new samples. A refresh that changes nothing (the same graph, nothing to add) returns
the old test set as it was, so its file is written byte for byte as before.
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...core.aio import run_sync
from ...core.errors import ConfigError
from ...kg.document_changes import document_changes, graph_documents
from ...kg.graph import KnowledgeGraph, NodeKind
from ...personas import Persona
from ...samples.rejected import read_rejected
from ...samples.testset import Testset, TestsetSample, sample_record
from ..pipeline.generator import TestsetGenerator
from ..scenarios.scenario import largest_remainder
from .relink import ContextFinder, Found
from .review_file import (
    NEEDS_REVIEW_SUFFIX,
    merge_records,
    needs_review_path,
    read_records,
    restorable,
    with_contexts,
    write_records,
)

__all__ = [
    "NEEDS_REVIEW_SUFFIX",
    "DroppedSample",
    "RefreshResult",
    "arefresh_testset",
    "needs_review_path",
    "refresh_testset",
]

SOURCE_CHANGED = "source changed"
SOURCE_REMOVED = "source removed"
CHUNKS_CHANGED = "chunks changed"


@dataclass(frozen=True)
class DroppedSample:
    """An old sample the change touched: why, which of its documents changed or went, which contexts."""

    sample: TestsetSample
    reason: str
    changed_documents: list[str]
    removed_documents: list[str]
    changed_context_ids: list[str]
    #: For a sample sent to review: the chunks now standing where its changed contexts were.
    current_contexts: list[dict[str, str]] = field(default_factory=list)

    @property
    def documents(self) -> list[str]:
        return [*self.changed_documents, *self.removed_documents]

    def to_dict(self) -> dict[str, Any]:
        """The needs-review record: the reason first, then the sample as its JSONL line holds it."""
        return {
            "id": self.sample.id,
            "reason": self.reason,
            "changed_documents": self.changed_documents,
            "removed_documents": self.removed_documents,
            "changed_context_ids": self.changed_context_ids,
            "current_contexts": self.current_contexts,
            "sample": sample_record(self.sample),
            "restore": False,
        }


@dataclass
class RefreshResult:
    """The refreshed test set (kept samples in their old order, those put back from review, then the new
    ones) and what happened.

    ``documents``: source paths that are ``new``, ``changed`` or ``removed`` since the old graph.
    ``restored``: samples a person put back from the needs-review file; ``review_problems``: record id ->
    why one marked ``restore`` could not go back (it stays in the file with that reason)."""

    testset: Testset
    kept: list[TestsetSample]
    dropped: list[DroppedSample]
    needs_review: list[DroppedSample]
    new: list[TestsetSample]
    documents: dict[str, list[str]] = field(default_factory=dict)
    restored: list[TestsetSample] = field(default_factory=list)
    review_problems: dict[str, str] = field(default_factory=dict)
    #: Kept samples that followed a renamed file, and those whose contexts only got new chunk ids.
    moved: int = 0
    relinked: int = 0

    def dropped_by_reason(self) -> dict[str, dict[str, int]]:
        """reason -> {source document: dropped samples from it}, most common first (a sample on two
        documents counts under each)."""
        return _by_reason(self.dropped)

    def summary(self) -> list[str]:
        """A few readable lines: kept, dropped by reason and document, needs review, put back, new."""
        reviewed = sum(s.reviewed for s in self.kept)
        moved, relinked = self.moved, self.relinked
        lines = [
            f"kept {len(self.kept)}"
            + (f" ({reviewed} reviewed)" if reviewed else "")
            + (f", {moved} following a renamed document" if moved else "")
            + (f", {relinked} with new chunk ids (their text moved within its document)" if relinked else "")
        ]
        dropped = Counter(d.reason for d in self.dropped)
        flagged = Counter(d.reason for d in self.needs_review)
        for reason, per_document in self.dropped_by_reason().items():
            lines.append(f"dropped ({reason}) {dropped[reason]}: {_listed(per_document)}")
        if not self.dropped:
            lines.append("dropped 0")
        for reason, per_document in _by_reason(self.needs_review).items():
            lines.append(f"needs review ({reason}) {flagged[reason]} reviewed: {_listed(per_document)}")
        if self.restored:
            lines.append(f"put back from review {len(self.restored)}")
        for sample_id, problem in self.review_problems.items():
            lines.append(f"not put back: {sample_id}: {problem}")
        fresh = set(self.documents.get("new", [])) | set(self.documents.get("changed", []))
        on_fresh = sum(1 for s in self.new if fresh.intersection(s.source_documents))
        lines.append(f"new {len(self.new)} ({on_fresh} on new or changed documents)")
        if self.documents:
            lines.append("documents: " + ", ".join(f"{k} {len(v)}" for k, v in self.documents.items()))
        return lines

    def write(self, path: str | Path) -> Path | None:
        """Write the test set to ``path`` (.jsonl, or .csv) and merge the samples that need a review into
        ``<stem>.needs-review.jsonl`` beside it (returned when it holds any record). Every write is atomic and
        no sample is ever in neither file: the review file first (with this refresh's records merged in),
        then the test set, then the review file again without the samples put back into the test set.
        ``path`` may be the old test set's file."""
        target = Path(path)
        side = needs_review_path(target)
        records = read_records(side)
        for record in records:
            if record["id"] in self.review_problems:
                record["restore_problem"] = self.review_problems[record["id"]]
        records = merge_records(records, [d.to_dict() for d in self.needs_review])
        pending = side.exists()
        if self.needs_review or self.review_problems:
            pending = write_records(side, records)
        if target.suffix.lower() == ".csv":
            self.testset.to_csv(target)
        else:
            self.testset.to_jsonl(target)
        back = {s.id for s in self.restored}
        if back & {r["id"] for r in records}:
            pending = write_records(side, [r for r in records if r["id"] not in back])
        return side if pending else None


async def arefresh_testset(
    old: Testset,
    kg: KnowledgeGraph,
    size: int | None = None,
    *,
    generator: TestsetGenerator | None = None,
    seed: int = 0,
    query_distribution: Any = None,
    show_progress: bool = False,
    review: str | Path | None = None,
    rejected: Sequence[str | Path] = (),
) -> RefreshResult:
    """Refresh ``old`` against ``kg``, the graph of the changed documents (see the module docstring).

    ``size``: samples in the refreshed test set (default: as many as ``old`` has); kept samples are
    never removed to reach it. ``query_distribution``: the weights per synthesizer (default: the old
    test set's). ``generator``: its models, personas (default: the old test set's) and settings write
    the new samples (default: offline). ``review``: the needs-review file whose records marked
    ``"restore": true`` go back into the test set (the CLI reads the one beside ``--out``; write the
    result to the test set that file belongs to). ``rejected``: rejected files (``groundset review``) whose
    samples are never asked again nor kept (the CLI reads those beside ``--refresh`` and ``--out``)."""
    size = len(old) if size is None else size
    if size < 1:
        raise ValueError(
            f"size must be >= 1, got {size}" if len(old) else "the old test set is empty: give a size"
        )
    new_docs = graph_documents(kg)
    old_docs = old.metadata.get("documents")
    old_docs = old_docs if isinstance(old_docs, dict) else None
    kept: list[TestsetSample] = []
    dropped: list[DroppedSample] = []
    needs_review: list[DroppedSample] = []
    finder = ContextFinder(kg, old_docs)
    moved = relinked = 0
    refused = _rejected_samples(rejected)
    refused_ids = {s.id for s in refused}
    for sample in old:
        if sample.id in refused_ids:
            continue  # rejected in a review since this test set was written: it stays out
        found = finder.find(sample)
        if found.complete:
            kept.append(found.apply(sample))
            moved += found.documents is not None
            relinked += kept[-1] is not sample and found.documents is None
        elif sample.reviewed:
            verdict = _dropped(sample, found, kg, old_docs, new_docs)
            needs_review.append(replace(verdict, current_contexts=finder.closest(sample, found.missing)))
        else:
            dropped.append(_dropped(sample, found, kg, old_docs, new_docs))
    restored, problems = _restore(read_records(review) if review else [], finder, kept)
    documents = _document_changes(old, old_docs, new_docs, [*dropped, *needs_review])
    if (
        not (dropped or needs_review or restored or problems)
        and size == len(old) == len(kept)
        and all(now is before for now, before in zip(kept, old, strict=True))
        and old_docs == new_docs
        and old.metadata.get("graph_fingerprint") == kg.fingerprint()
    ):  # nothing changed: the old file stays as it is, byte for byte
        return RefreshResult(Testset(kept, old.metadata), kept, [], [], [], documents)
    notes: list[str] = []
    if old_docs is None:
        notes.append(
            "the old test set does not list its graph's documents (written before groundset recorded "
            "them): documents none of its samples came from count as new"
        )
    if old and not kept and all(d.reason == SOURCE_REMOVED for d in [*dropped, *needs_review]):
        notes.append(
            "no source document of the old test set is in this graph: was it built from the same folder? "
            "(sources are paths relative to the folder the graph was built from)"
        )
    staying = [*kept, *restored]
    generator = generator or TestsetGenerator()
    distribution = _weights(generator, old, query_distribution)
    fresh_sources = set(documents["new"]) | set(documents["changed"])
    used = {node for s in staying for node, _ in s.grounding()}
    prefer = {c for c in kg.nodes(NodeKind.CHUNK) if kg.get(c)["source"] in fresh_sources and c not in used}
    need = size - len(staying)
    made: Testset | None = None
    if need > 0:
        counts = _missing(distribution, staying, size, need)
        worker = copy.copy(generator)
        worker.personas = generator.personas or _personas(old) or None
        waiting = [d.sample for d in needs_review]  # no question asked again, nor one in review or rejected
        made = await worker.agenerate(
            kg,
            need,
            distribution,
            seed=seed,
            show_progress=show_progress,
            prefer=prefer,
            existing=[*staying, *waiting, *refused],
            per_synthesizer=counts,
        )
        notes += made.metadata.get("notes", [])
    elif need < 0:
        notes.append(
            f"kept {len(staying)} samples, more than the {size} asked for: none removed or generated"
        )
    ids = {s.id for s in staying}
    new = [s for s in (made or []) if s.id not in ids and s.id not in refused_ids]
    if made is not None and len(new) < len(made):
        notes.append(f"{len(made) - len(new)} new sample(s) had a kept sample's id and were left out")
    samples = [*staying, *new]
    metadata = _metadata(old, kg, samples, distribution, made, size, seed, notes)
    metadata["documents"] = new_docs
    metadata["refresh"] = {
        "from_graph_fingerprint": str(
            old.metadata.get("graph_fingerprint") or next((s.graph_fingerprint for s in old), "")
        ),
        "graph_fingerprint": metadata["graph_fingerprint"],
        "kept": len(kept),
        "kept_moved": moved,
        "kept_relinked": relinked,
        "kept_reviewed": sum(s.reviewed for s in kept),
        "dropped": dict(Counter(d.reason for d in dropped)),
        "needs_review": len(needs_review),
        "restored": len(restored),
        "rejected_left_out": len(refused_ids),  # rejected in a review: never kept nor asked again
        "new": len(new),
        "documents": documents,
    }
    testset = Testset(samples, metadata)
    return RefreshResult(
        testset, kept, dropped, needs_review, new, documents, restored, problems, moved, relinked
    )


def refresh_testset(
    old: Testset,
    kg: KnowledgeGraph,
    size: int | None = None,
    *,
    generator: TestsetGenerator | None = None,
    seed: int = 0,
    query_distribution: Any = None,
    show_progress: bool = False,
    review: str | Path | None = None,
    rejected: Sequence[str | Path] = (),
) -> RefreshResult:
    """The sync twin of ``arefresh_testset`` (works inside a running event loop too)."""
    options = {"generator": generator, "seed": seed, "query_distribution": query_distribution}
    options |= {"show_progress": show_progress, "review": review, "rejected": rejected}
    return run_sync(arefresh_testset(old, kg, size, **options))


def _rejected_samples(paths: Sequence[str | Path]) -> list[TestsetSample]:
    """The samples of the rejected files, each once."""
    found: dict[str, TestsetSample] = {}
    for path in paths:
        for record in read_rejected(path):
            try:
                found[record["id"]] = TestsetSample.model_validate(record["sample"])
            except ValueError as exc:
                problem = f"{path}: rejected record {record['id']}: its sample is not valid: {exc}"
                raise ConfigError(problem) from None
    return list(found.values())


def _dropped(
    sample: TestsetSample,
    found: Found,
    kg: KnowledgeGraph,
    old_docs: Mapping[str, str] | None,
    new_docs: Mapping[str, str],
) -> DroppedSample:
    """Why ``sample`` cannot stay: a document of it is gone, changed, or (neither) chunked otherwise."""
    intact = {kg.get(node)["source"] for node in found.ids.values()}
    removed = [src for src in sample.source_documents if src not in new_docs]
    changed = [
        src
        for src in sample.source_documents
        if src in new_docs
        and (old_docs.get(src) != new_docs[src] if old_docs is not None else src not in intact)
    ]
    if not removed and not changed and old_docs is not None:  # a near-miss on a page of its own changed
        edited = [src for src in new_docs if src in old_docs and old_docs[src] != new_docs[src]]
        lost = [text for node, text in sample.grounding() if node in found.missing]
        changed = _pages_holding(lost, kg, edited)
    reason = SOURCE_REMOVED if removed else SOURCE_CHANGED if changed else CHUNKS_CHANGED
    return DroppedSample(sample, reason, changed, removed, found.missing)


def _pages_holding(texts: list[str], kg: KnowledgeGraph, sources: list[str]) -> list[str]:
    """Which of the changed pages ``sources`` the lost contexts ``texts`` were on: the one still holding
    most of each text's lines (an edit changes a line or two of a chunk, the rest stays on its page)."""
    if not texts or not sources:
        return []
    documents = {kg.get(d)["source"]: kg.get(d).get("text", "") for d in kg.nodes(NodeKind.DOCUMENT)}
    pages = []
    for text in texts:
        lines = [line.strip() for line in text.splitlines() if len(line.strip()) > 20]
        held = {src: sum(line in documents.get(src, "") for line in lines) for src in sources}
        best = max(held, key=lambda src: (held[src], src))
        if held[best]:
            pages.append(best)
    return sorted(set(pages))


def _restore(
    records: list[dict[str, Any]], finder: ContextFinder, kept: list[TestsetSample]
) -> tuple[list[TestsetSample], dict[str, str]]:
    """The samples of the review records marked ``restore`` whose contexts are all in the graph (a context
    still missing takes the chunk suggested in its place), and why each other one cannot go back."""
    restored: list[TestsetSample] = []
    problems: dict[str, str] = {}
    present = {s.id: s for s in kept}
    for record in records:
        if record.get("restore") not in (True, False, None):
            problems[record["id"]] = f'"restore" must be true or false, found {record["restore"]!r}'
        if record.get("restore") is not True:
            continue
        try:
            sample, suggested = restorable(record)
        except ConfigError as exc:
            problems[record["id"]] = str(exc)
            continue
        found = finder.find(sample, by_text=True)
        if found.missing:
            sample = with_contexts(sample, {m: suggested[m] for m in found.missing if m in suggested})
            found = finder.find(sample, by_text=True)
        if found.missing:
            problems[record["id"]] = (
                f"context(s) {', '.join(found.missing)} are not in the graph: edit the sample's contexts to "
                "text the documents hold now (current_contexts suggests chunks)"
            )
        elif sample.id not in present:
            restored.append(found.apply(sample))
        elif present[sample.id] != found.apply(sample):
            problems[record["id"]] = "a sample with this id is already in the test set: remove one of the two"
    return restored, problems


def _document_changes(
    old: Testset,
    old_docs: Mapping[str, str] | None,
    new_docs: Mapping[str, str],
    touched: list[DroppedSample],
) -> dict[str, list[str]]:
    """Sources new, changed and removed since the old graph: exact when the old test set lists its graph's
    documents; otherwise as far as its samples show (documents without a sample count as new)."""
    if old_docs is not None:
        return document_changes(old_docs, new_docs)
    seen = {src for sample in old for src in sample.source_documents}
    return {
        "new": sorted(s for s in new_docs if s not in seen),
        "changed": sorted({src for d in touched for src in d.changed_documents}),
        "removed": sorted(s for s in seen if s not in new_docs),
    }


def _weights(generator: TestsetGenerator, old: Testset, given: Any) -> list[tuple[Any, float]]:
    """The distribution asked for, else the old test set's, else the generator's default."""
    if given is not None:
        return generator.distribution(given)
    recorded = old.metadata.get("distribution")
    if not isinstance(recorded, dict) or not recorded:
        return generator.default_distribution()
    try:
        return generator.distribution({str(k): float(v) for k, v in recorded.items()})
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(
            f"the old test set's distribution {recorded} names a synthesizer this groundset does not "
            f"have ({exc}); pass query_distribution (--distribution) to refresh it"
        ) from None


def _missing(
    distribution: list[tuple[Any, float]], kept: list[TestsetSample], size: int, need: int
) -> list[int]:
    """New samples per synthesizer (``need`` in all) so that kept + new follows the weights over ``size``.
    What each one misses adds up to ``need`` or more (when some synthesizer kept more than its share, the
    weights changed, or kept samples come from a synthesizer outside the distribution): then ``need`` is
    split in proportion to what each one misses."""
    have = Counter(s.synthesizer for s in kept)
    targets = largest_remainder([w for _, w in distribution], size)
    missing = [max(0, t - have[synth.name]) for (synth, _), t in zip(distribution, targets, strict=True)]
    return missing if sum(missing) == need else largest_remainder(missing, need)


def _personas(old: Testset) -> list[Persona]:
    """The old test set's personas (a refresh writes for the same readers and asks no model for them)."""
    found = []
    for item in old.metadata.get("personas") or []:
        try:
            found.append(Persona.model_validate(item))
        except ValueError:
            return []
    return found


def _metadata(
    old: Testset,
    kg: KnowledgeGraph,
    samples: list[TestsetSample],
    distribution: list[tuple[Any, float]],
    made: Testset | None,
    size: int,
    seed: int,
    notes: list[str],
) -> dict[str, Any]:
    """The old metadata brought up to date: counts, weights, graph, the new run's models and rejections."""
    metadata = {k: v for k, v in old.metadata.items() if k != "surplus_drafts"}  # the old run's figure
    metadata.update(
        requested=size,
        generated=len(samples),
        seed=seed,
        distribution={synth.name: w for synth, w in distribution},
        by_synthesizer=dict(Counter(s.synthesizer for s in samples)),
        rejections=dict(made.metadata.get("rejections", {})) if made is not None else {},
        graph_fingerprint=kg.fingerprint(),
        notes=notes,
    )
    if made is not None:
        models = ("personas", "llm", "embeddings", "surplus_drafts")
        metadata.update({k: made.metadata[k] for k in models if k in made.metadata})
    return metadata


def _by_reason(items: list[DroppedSample]) -> dict[str, dict[str, int]]:
    grouped: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        grouped[item.reason].update(item.documents or item.sample.source_documents)
    return {
        reason: dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))
        for reason, counter in sorted(grouped.items())
    }


def _listed(per_document: Mapping[str, int], limit: int = 8) -> str:
    shown = [f"{doc} {n}" for doc, n in list(per_document.items())[:limit]]
    more = len(per_document) - limit
    return ", ".join(shown) + (f", and {more} more document(s)" if more > 0 else "")
