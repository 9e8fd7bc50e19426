"""The needs-review file beside a refreshed test set: reviewed samples whose sources changed wait there for a
person, and go back into the test set when that person says so.

``<out>.needs-review.jsonl`` holds one record per sample: why it left the test set (the reason, the
documents that changed or went, the ids of its contexts that changed), the chunks now standing where those
contexts were (``current_contexts``, the closest text in the same documents), the sample as it was, and
``"restore": false``. Every refresh merges into the file: a record it does not touch stays as it is (edits
included), and a sample sent again takes the newest reason while the earlier version, when it differs, is
kept under ``earlier_samples``. Nothing a person wrote there is ever lost.

To put a sample back, edit its ``sample`` (question, reference, and contexts if the suggested ones are
wrong) and set ``"restore": true``. The next refresh puts it into the test set, reviewed, with its id
unchanged, once every one of its contexts is a chunk of the graph (a context still missing takes the
chunk suggested in its place); it then leaves this file. One that cannot be put back stays, with a
``restore_problem`` saying which context is not in the graph.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError
from ...core.records import sample_records, write_sample_records
from ...samples.testset import TestsetSample, sample_record

__all__ = [
    "NEEDS_REVIEW_SUFFIX",
    "merge_records",
    "needs_review_path",
    "read_records",
    "restorable",
    "with_contexts",
    "write_records",
]

NEEDS_REVIEW_SUFFIX = ".needs-review.jsonl"


def needs_review_path(path: str | Path) -> Path:
    """``new.jsonl`` -> ``new.needs-review.jsonl``, beside it."""
    target = Path(path)
    return target.with_name(target.stem + NEEDS_REVIEW_SUFFIX)


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """The records of a needs-review file (none when it does not exist); a record without an ``id`` or a
    ``sample`` is an error naming its line."""
    return sample_records(path, "needs-review file")


def write_records(path: str | Path, records: Iterable[dict[str, Any]]) -> bool:
    """Write the records atomically (the file is removed when there are none); whether the file exists."""
    return write_sample_records(path, records)


def merge_records(existing: list[dict[str, Any]], sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The file's records with this refresh's merged in: an id already there takes the new reason, documents
    and contexts; its sample becomes the one sent, and the file's version, when it differs, joins
    ``earlier_samples`` (a person may have edited it there)."""
    merged = {r["id"]: dict(r) for r in existing}
    for record in sent:
        before = merged.get(record["id"])
        if before is None:
            merged[record["id"]] = record
            continue
        earlier = list(before.get("earlier_samples") or [])
        if before["sample"] != record["sample"] and before["sample"] not in earlier:
            earlier.append(before["sample"])
        before.update(record)
        if earlier:
            before["earlier_samples"] = earlier
    return list(merged.values())


def restorable(record: dict[str, Any]) -> tuple[TestsetSample, dict[str, tuple[str, str]]]:
    """The sample a record asks to put back (``restore: true``), marked reviewed, and the chunks suggested
    in place of its changed contexts (old id -> (id, text)); a sample that does not validate is an error
    naming the record and the field."""
    try:
        sample = TestsetSample.model_validate(record["sample"])
    except ValueError as exc:
        raise ConfigError(f"needs-review record {record['id']}: its sample is not valid: {exc}") from None
    suggested = {s["replaces"]: (s["id"], s["text"]) for s in record.get("current_contexts") or []}
    return sample.model_copy(update={"reviewed": True}), suggested


def with_contexts(sample: TestsetSample, replace: dict[str, tuple[str, str]]) -> TestsetSample:
    """``sample`` with each context whose id is a key of ``replace`` swapped for that (id, text); its own id
    stays."""
    if not replace:
        return sample
    record = sample_record(sample)

    def swap(ids: list[str], texts: list[str]) -> tuple[list[str], list[str]]:
        pairs = [replace.get(i, (i, t)) for i, t in zip(ids, texts, strict=True)]
        return [i for i, _ in pairs], [t for _, t in pairs]

    for owner, prefix in [
        (record, "reference"),
        (record, "distractor"),
        *((t, "reference") for t in record.get("history", [])),
    ]:
        ids, texts = owner.get(f"{prefix}_context_ids", []), owner.get(f"{prefix}_contexts", [])
        if ids:
            owner[f"{prefix}_context_ids"], owner[f"{prefix}_contexts"] = swap(ids, texts)
    return TestsetSample.model_validate(record)
