"""Mean scores per group of samples (by synthesizer, persona, query style, length, source document, and the
user's own columns), to show where a system is weak rather than only how it does overall."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# (metadata key, what a reader calls it). A list value (source documents) puts a sample in every group.
GROUPINGS = [
    ("synthesizer", "synthesizer"),
    ("persona", "persona"),
    ("style", "query style"),
    ("length", "length"),
    ("source_documents", "source document"),
]
NOT_SET = "(not set)"
# A user column with more distinct values than this is an identifier, not a grouping.
MAX_COLUMN_VALUES = 20


@dataclass
class Group:
    label: str
    n: int  # samples in the group
    means: dict[str, float] = field(default_factory=dict)  # per metric, over the group's scored samples
    scored: dict[str, int] = field(default_factory=dict)  # per metric, how many of them had a score


@dataclass
class Breakdown:
    key: str
    title: str
    groups: list[Group]  # largest first


def labels_of(metadata: Mapping[str, Any], key: str) -> list[str]:
    """The groups one sample belongs to under ``key``: one label, or one per list item."""
    value = metadata.get(key)
    if isinstance(value, list | tuple):
        items = list(dict.fromkeys(_label(v) for v in value))
        return items or [NOT_SET]
    return [_label(value)]


def _label(value: Any) -> str:
    if value is None or value == "":
        return NOT_SET
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return str(value)


def breakdown(
    metadatas: Sequence[Mapping[str, Any]],
    scores: Mapping[str, Sequence[float]],
    key: str,
    title: str,
) -> Breakdown | None:
    """Samples grouped by ``key`` with per-metric means; None when the data holds fewer than two groups."""
    members: dict[str, list[int]] = {}
    for index, metadata in enumerate(metadatas):
        for label in labels_of(metadata, key):
            members.setdefault(label, []).append(index)
    if len(members) < 2:
        return None
    groups = []
    for label, indices in members.items():
        group = Group(label, len(indices))
        for metric, values in scores.items():
            present = [values[i] for i in indices if not math.isnan(values[i])]
            group.scored[metric] = len(present)
            group.means[metric] = math.fsum(present) / len(present) if present else math.nan
        groups.append(group)
    groups.sort(key=lambda g: (-g.n, g.label))
    return Breakdown(key, title, groups)


def all_breakdowns(
    metadatas: Sequence[Mapping[str, Any]],
    scores: Mapping[str, Sequence[float]],
    extra_columns: Sequence[str],
) -> list[Breakdown]:
    """The generation groupings, then each user column that reads as a category (few distinct values)."""
    found = [breakdown(metadatas, scores, key, title) for key, title in GROUPINGS]
    for column in extra_columns:
        if column in dict(GROUPINGS):
            continue
        distinct = {_label(m.get(column)) for m in metadatas}
        if len(distinct) <= MAX_COLUMN_VALUES and len(distinct) < len(metadatas):
            found.append(breakdown(metadatas, scores, column, f"column {column}"))
    return [b for b in found if b is not None]
