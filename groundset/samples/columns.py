"""A user's own columns (label, ticket_id, ...): kept in each sample's metadata on read and written back
as top-level fields, so scores can be joined to the user's data. A near miss of a groundset field is
refused instead: kept silently, a typo would leave a metric without its input.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import OSA

from ..core.errors import ConfigError

# Only a slip of the keyboard counts as a typo: one edit (a transposition is one), two for long names.
_LONG_NAME = 10


@lru_cache(maxsize=4096)  # every row of a file repeats the same few names
def near_miss(name: str, known: frozenset[str]) -> str | None:
    """The known field ``name`` most likely misspells (case, '-' and ' ' ignored), or None."""
    spelled = name.strip().lower().replace("-", "_").replace(" ", "_")
    best: tuple[int, str] | None = None
    for field in sorted(known):
        limit = 2 if len(field) >= _LONG_NAME else 1
        distance = OSA.distance(spelled, field, score_cutoff=limit)
        if distance <= limit and (best is None or distance < best[0]):
            best = (distance, field)
    return best[1] if best else None


def check_names(names: Iterable[object], known: frozenset[str], where: str) -> None:
    """Refuse names that cannot be kept: not a string, blank, or a near miss of a known field."""
    problems = []
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"{where}: field and column names must be non-empty strings, got {name!r}")
        if name not in known and (match := near_miss(name, known)):
            problems.append(f"unknown field {name!r}, did you mean {match!r}?")
    if problems:
        hint = "(to keep a column of your own by that name, put it inside metadata)"
        raise ConfigError(f"{where}: {'; '.join(problems)} {hint}")


def keep_in_metadata(record: dict[str, Any], names: Iterable[str], where: str) -> None:
    """Move ``names`` from the top level of ``record`` into its metadata; a name in both is an error."""
    names = list(names)
    values = {name: record.pop(name) for name in names}
    metadata = record.get("metadata")
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, Mapping):
        return  # validation reports metadata's type; the kept columns have nowhere to go
    for name in names:
        if name in metadata:
            raise ConfigError(
                f"{where}: {name!r} is given both as a field and inside metadata; keep one of them"
            )
    record["metadata"] = {**metadata, **values}


def write_back(row: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """Lift the kept columns out of ``row["metadata"]`` to the top level, as the user's data had them."""
    metadata = row.get("metadata")
    if not metadata:
        return row
    for name in names:
        if name in metadata:
            row[name] = metadata.pop(name)
    if not metadata:
        del row["metadata"]
    return row


def check_extra_columns(names: Iterable[str], reserved: Collection[str]) -> list[str]:
    """The constructor's extra_columns: distinct strings that are not groundset's own field names."""
    names = list(names)
    for name in names:
        if not isinstance(name, str) or name in reserved:
            raise ValueError(f"extra_columns: {name!r} is not a column of your own (groundset reads it)")
    if len(set(names)) != len(names):
        raise ValueError(f"extra_columns repeats a name: {names}")
    return names


def kept_notice(source: str, names: list[str]) -> str:
    """The one notice per load, so the user knows where their columns went and that they come back."""
    return (
        f"{source}: kept {len(names)} column(s) groundset does not use ({', '.join(names)}) in each "
        "sample's metadata; they are written back to run files and to_pandas()"
    )
