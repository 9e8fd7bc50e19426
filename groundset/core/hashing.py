"""Stable content hashes: the same value gives the same hex digest in every process and run."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel


def _default(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return value.tolist()
    return repr(value)


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace, so equal values serialise identically."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default)


def stable_hash(value: Any, *, length: int = 64) -> str:
    """sha256 of the canonical JSON of ``value`` (hex, truncated to ``length``)."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()[:length]
