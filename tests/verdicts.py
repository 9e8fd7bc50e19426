"""Judge answers in the keyed-verdict format (one entry per item key), for fakes and stub judges."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def keyed(flags: Iterable[bool], prefix: str = "", reason: str = "") -> dict:
    """``[True, False]`` -> ``{"1": {"verdict": true, ...}, "2": {"verdict": false, ...}}``."""
    return {f"{prefix}{i}": {"verdict": bool(f), "reason": reason} for i, f in enumerate(flags, start=1)}


def compared(response: Iterable[bool], reference: Iterable[bool]) -> dict:
    """A both-ways comparison: response statements keyed r1.., reference statements g1..."""
    return {**keyed(response, "r"), **keyed(reference, "g")}


def for_keys(keys: Iterable[str], verdict: bool | Mapping[str, bool] = True, reason: str = "") -> dict:
    """The same verdict (or a verdict per key) for every key of an input's items."""
    pick = (lambda k: verdict[k]) if isinstance(verdict, Mapping) else (lambda k: verdict)
    return {key: {"verdict": bool(pick(key)), "reason": reason} for key in keys}


def judged_keys(data: dict) -> list[str]:
    """The keys a judge input asks about: statements, contexts, or a comparison's (``judge`` subset)."""
    if "statements" in data:
        return list(data["statements"])
    if "contexts" in data and isinstance(data["contexts"], dict):
        return list(data["contexts"])
    if data.get("judge") is not None:
        return list(data["judge"])
    return [*data.get("response", {}), *data.get("reference", {})]
