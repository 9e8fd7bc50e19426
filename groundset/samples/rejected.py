"""The rejected file beside a test set: samples a person took out, never deleted.

``<testset>.rejected.jsonl`` holds one record per rejected sample: its ``id``, the ``reason`` the person
gave, when (``rejected_at``, UTC) and the ``sample`` as it was. ``groundset review`` writes it; a refresh
reads it so a rejected question does not come back when the same chunks give it again, and a person can
put a sample back from it (``groundset review``, filter "rejected", restore).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.records import sample_records, write_sample_records

__all__ = ["REJECTED_SUFFIX", "read_rejected", "rejected_ids", "rejected_path", "write_rejected"]

REJECTED_SUFFIX = ".rejected.jsonl"


def rejected_path(testset: str | Path) -> Path:
    """``testset.jsonl`` -> ``testset.rejected.jsonl``, beside it."""
    target = Path(testset)
    return target.with_name(target.stem + REJECTED_SUFFIX)


def read_rejected(path: str | Path) -> list[dict[str, Any]]:
    """The records of a rejected file (none when it does not exist); a broken record is an error naming
    its line."""
    return sample_records(path, "rejected file")


def rejected_ids(testset: str | Path) -> set[str]:
    """The ids a person rejected from ``testset`` (its rejected file beside it)."""
    return {record["id"] for record in read_rejected(rejected_path(testset))}


def write_rejected(path: str | Path, records: Iterable[dict[str, Any]]) -> bool:
    """Write the records atomically; with none, the file is removed. Whether it exists."""
    return write_sample_records(path, records)
