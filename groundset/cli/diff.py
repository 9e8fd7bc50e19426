"""`groundset diff OLD NEW`: which samples two test sets share (same id), which went and which came."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import out

if TYPE_CHECKING:
    from ..samples.testset import Testset, TestsetSample

NO_SOURCE = "(no source document)"
STATUSES = ("kept", "dropped", "added")


def diff(
    old_file: Annotated[Path, typer.Argument(metavar="OLD", help="The earlier test set (.jsonl or .csv).")],
    new_file: Annotated[Path, typer.Argument(metavar="NEW", help="The later test set (.jsonl or .csv).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")] = False,
    list_samples: Annotated[
        bool, typer.Option("--samples/--no-samples", help="List the dropped and added questions.")
    ] = True,
) -> None:
    """Compare two test sets, e.g. before and after `generate --refresh`: samples kept (same id; "edited"
    when a person changed it: its question, reference, review fields or any other field a refresh never
    touches; "followed a rename" or "relinked" when a refresh only gave its contexts new ids), dropped and
    added, with counts per source document
    (a sample on two documents counts under each) and, when both files record their graph's documents,
    which documents are new, changed or removed."""
    report = diff_testsets(_load(old_file), _load(new_file))
    if as_json:
        out.print(json.dumps(report, ensure_ascii=False, indent=2), soft_wrap=True)
        return
    counts = report["counts"]
    out.print(f"{old_file}: {counts['old']} samples; {new_file}: {counts['new']} samples")
    out.print(
        f"kept {counts['kept']} ({counts['edited']} edited, {counts['followed']} following a renamed "
        f"document, {counts['relinked']} with new chunk ids), dropped {counts['dropped']}, "
        f"added {counts['added']}"
    )
    documents = report["documents"]
    if documents:
        out.print("documents: " + ", ".join(f"{k} {len(v)}" for k, v in documents.items()))
        for status, sources in documents.items():
            for source in sources:
                out.print(f"  {status:<8} {source}")
    rows = report["by_document"]
    if rows:
        width = max(len("source document"), *(len(source) for source in rows))
        out.print(f"{'source document':<{width}}  {'kept':>5} {'dropped':>8} {'added':>6}")
        for source, row in rows.items():
            out.print(f"{source:<{width}}  {row['kept']:>5} {row['dropped']:>8} {row['added']:>6}")
    if list_samples:
        for status in ("dropped", "added"):
            if report[status]:
                out.print(f"{status}:")
            for item in report[status]:
                mark = " (reviewed)" if item["reviewed"] else ""
                out.print(
                    f"  {item['id']}{mark} [{', '.join(item['source_documents'])}] {item['user_input']}"
                )


def diff_testsets(old: Testset, new: Testset) -> dict[str, Any]:
    """The diff as JSON data: counts, per-document counts, the dropped and added samples, kept ids."""
    old_by_id = {s.id: s for s in old}
    new_ids = {s.id for s in new}
    kept = [s for s in new if s.id in old_by_id]
    dropped = [s for s in old if s.id not in new_ids]
    added = [s for s in new if s.id not in old_by_id]
    edited = [s.id for s in kept if _as_written(s) != _as_written(old_by_id[s.id])]
    followed = [s.id for s in kept if s.source_documents != old_by_id[s.id].source_documents]
    relinked = [s.id for s in kept if s != old_by_id[s.id] and s.id not in {*edited, *followed}]
    per_document: dict[str, Counter[str]] = {}
    for status, samples in zip(STATUSES, (kept, dropped, added), strict=True):
        for sample in samples:
            for source in sample.source_documents or [NO_SOURCE]:
                per_document.setdefault(source, Counter())[status] += 1
    return {
        "counts": {
            "old": len(old),
            "new": len(new),
            "kept": len(kept),
            "edited": len(edited),
            "followed": len(followed),
            "relinked": len(relinked),
            "dropped": len(dropped),
            "added": len(added),
        },
        "documents": _documents(old.metadata.get("documents"), new.metadata.get("documents")),
        "by_document": {
            source: {status: counter[status] for status in STATUSES}
            for source, counter in sorted(per_document.items())
        },
        "kept": [s.id for s in kept],
        "edited": edited,
        "followed": followed,
        "relinked": relinked,
        "dropped": [_brief(s) for s in dropped],
        "added": [_brief(s) for s in added],
    }


def _as_written(sample: TestsetSample) -> dict[str, Any]:
    """The sample without what a refresh changes by itself (its context ids and source documents, when its
    contexts moved or followed a renamed file): what differs here a person edited."""
    record = sample.model_dump(
        exclude={"reference_context_ids", "distractor_context_ids", "source_documents"}
    )
    for turn in record["history"]:
        del turn["reference_context_ids"]
    return record


def _documents(old: Any, new: Any) -> dict[str, list[str]]:
    """Sources new, changed and removed between the two graphs, when both test sets list them."""
    from ..kg.document_changes import document_changes

    if not isinstance(old, dict) or not isinstance(new, dict):
        return {}
    return document_changes(old, new)


def _brief(sample: TestsetSample) -> dict[str, Any]:
    return {
        "id": sample.id,
        "synthesizer": sample.synthesizer,
        "source_documents": sample.source_documents,
        "user_input": sample.user_input,
        "reviewed": sample.reviewed,
    }


def _load(path: Path) -> Testset:
    from ..samples.testset import Testset

    return Testset.from_csv(path) if path.suffix.lower() == ".csv" else Testset.from_jsonl(path)
