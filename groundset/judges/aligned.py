"""Verdicts keyed by item: a judge of N items answers with exactly N keyed verdicts, or says which it missed.

A prompt that judges a list numbers its items ("1", "2", ... or "r1", "g1", ...) and asks for one
object whose keys are those item keys, with a schema built for that call that requires every key:
a strict JSON-schema server cannot leave one out, and any other answer is checked key by key. Items
the answer misses get one repair request that asks for just those, and are merged in; an item still
missing after that is an error naming it. Long lists go out in batches of ``BATCH_SIZE`` items
(each its own cached call), and ``strictness=k`` asks for k votes per item in one request (n=k),
the majority winning.
"""

from __future__ import annotations

import asyncio
import functools
from abc import abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from ..core.engine import CallEngine
from ..core.prompts import Prompt
from ..core.structured import load_json

In = TypeVar("In", bound=BaseModel)
M = TypeVar("M", bound=BaseModel)
BATCH_SIZE = 20
MISSING_REQUEST = (
    "Your answer has no usable verdict for item(s) {items}. Answer again for exactly these items: one "
    "JSON object whose keys are {keys}, each with its verdict and a short reason, and nothing else."
)


class Verdict(BaseModel):
    verdict: bool = Field(description="true or false, as the instruction defines it")
    reason: str = Field(default="", description="one short sentence")


class KeyedVerdicts(BaseModel):
    """One verdict per item key. The model for a call has one required field per key (see ``keyed``)."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    def by_key(self) -> dict[str, Verdict]:
        return {info.alias or name: getattr(self, name) for name, info in type(self).model_fields.items()}


@functools.lru_cache(maxsize=512)
def keyed(keys: tuple[str, ...]) -> type[KeyedVerdicts]:
    """The output model for these item keys: every key a required property holding a ``Verdict``."""
    if len(set(keys)) != len(keys):
        raise ValueError(f"item keys must be unique, got {keys!r}")
    fields: dict[str, Any] = {f"item_{i}": (Verdict, Field(alias=key)) for i, key in enumerate(keys)}
    return create_model(f"Verdicts{len(keys)}", __base__=KeyedVerdicts, **fields)


def verdicts_of(keys: tuple[str, ...], values: dict[str, Verdict]) -> KeyedVerdicts:
    return keyed(keys).model_validate({key: values[key] for key in keys})


def present(raw: str, keys: tuple[str, ...]) -> dict[str, Verdict]:
    """The verdicts in ``raw`` for ``keys`` that parse; missing, extra or broken items are left out."""
    return present_as(raw, keys, Verdict)


def present_as(raw: str, keys: Sequence[str], model: type[M]) -> dict[str, M]:
    """The items of a keyed answer ``raw`` that parse as ``model``, by key; the rest are left out, so
    a caller can ask again for exactly the keys that are missing."""
    data, _ = load_json(raw)
    if not isinstance(data, dict):
        return {}
    found = {}
    for key in keys:
        try:
            found[key] = model.model_validate(data[key])
        except (KeyError, ValidationError):
            continue
    return found


class AlignedPrompt(Prompt[In, KeyedVerdicts]):
    """A prompt that judges keyed items; subclasses say which items an input holds and how to batch."""

    output_model: ClassVar[type[BaseModel]] = KeyedVerdicts

    @abstractmethod
    def keys(self, data: In) -> tuple[str, ...]:
        """The keys of the items this input asks to judge, in order."""

    @abstractmethod
    def batch(self, data: In, keys: tuple[str, ...]) -> In:
        """The same input asking only about ``keys`` (for lists longer than ``BATCH_SIZE``)."""

    def output_model_for(self, data: In) -> type[BaseModel]:
        return keyed(self.keys(data))

    def _checked(self, data: In, raw: str) -> tuple[KeyedVerdicts | None, str]:
        keys = self.keys(data)
        found = present(raw, keys)
        missing = [key for key in keys if key not in found]
        if missing:
            return None, f"no usable verdict for item(s) {', '.join(missing)}"
        return verdicts_of(keys, found), ""

    def repair_request(self, data: In, raw: str, problem: str) -> tuple[str, type[BaseModel]]:
        keys = self.keys(data)
        found = present(raw, keys)
        missing = tuple(key for key in keys if key not in found)
        request = MISSING_REQUEST.format(items=", ".join(missing), keys=", ".join(f'"{k}"' for k in missing))
        return request, keyed(missing)

    def _checked_repair(self, data: In, first_raw: str, raw: str) -> tuple[KeyedVerdicts | None, str]:
        keys = self.keys(data)
        found = {**present(first_raw, keys), **present(raw, keys)}
        missing = [key for key in keys if key not in found]
        if missing:
            return None, f"no usable verdict for item(s) {', '.join(missing)} after one repair request"
        return verdicts_of(keys, found), ""


@dataclass(frozen=True)
class Judged:
    """Verdicts by key, with how many of the ``strictness`` votes agreed with each."""

    verdicts: dict[str, Verdict]
    agreement: dict[str, float]

    def flags(self, keys: list[str] | tuple[str, ...]) -> list[bool]:
        return [self.verdicts[key].verdict for key in keys]


async def judge(
    prompt: AlignedPrompt[Any],
    model: Any,
    data: BaseModel,
    *,
    engine: CallEngine,
    stage: str,
    strictness: int = 1,
    guidance: str = "",
) -> Judged:
    """Judge every item of ``data``: batches of ``BATCH_SIZE`` keys in parallel, ``strictness`` votes each;
    ``guidance`` (people's judgements of similar samples) is appended to the instruction."""
    if strictness < 1 or strictness % 2 == 0:
        raise ValueError(f"strictness must be an odd number >= 1, got {strictness}")
    prompt = prompt.with_guidance(guidance)  # type: ignore[assignment]
    keys = prompt.keys(data)
    if not keys:
        return Judged({}, {})
    parts = [keys[i : i + BATCH_SIZE] for i in range(0, len(keys), BATCH_SIZE)]
    inputs = [data if len(parts) == 1 else prompt.batch(data, part) for part in parts]
    answers = await asyncio.gather(
        *(prompt.run(model, item, n=strictness, engine=engine, stage=stage) for item in inputs)
    )
    verdicts: dict[str, Verdict] = {}
    agreement: dict[str, float] = {}
    for answer in answers:
        votes = answer if isinstance(answer, list) else [answer]
        for key in votes[0].by_key():
            ballot = [vote.by_key()[key] for vote in votes]
            (winner, count), *_ = Counter(v.verdict for v in ballot).most_common(1)
            verdicts[key] = next(v for v in ballot if v.verdict == winner)
            agreement[key] = count / len(ballot)
    return Judged(verdicts, agreement)


def numbered(items: list[str], prefix: str = "") -> dict[str, str]:
    """``["a", "b"]`` -> ``{"1": "a", "2": "b"}`` (keys 1-based, as a person counts)."""
    return {f"{prefix}{i}": item for i, item in enumerate(items, start=1)}
