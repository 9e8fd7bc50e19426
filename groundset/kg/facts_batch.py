"""Chunk facts for several chunks in one call, keyed per chunk, within a character budget.

One call per chunk made the graph the dearest part of a test set (1,180 of 1,356 calls for 30
samples). Passages go out numbered "p1", "p2", ...; the schema built for the call requires one
facts object per key, so a schema-following server cannot skip one, and any other answer is read
key by key: the passages it missed get one repair request for just those, and a passage still
missing after that fails alone, reported, while the rest of its batch is kept.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..core.prompts import Prompt
from ..judges.aligned import present_as
from .prompts import ChunkFacts, ChunkFactsPrompt, ChunkText

# A batch holds at most this many passages and this many characters of passage text (about 3,000
# tokens of input): small enough for any chat model's context and for a good answer per passage.
BATCH_PASSAGES = 8
BATCH_CHARS = 12_000
MISSING_REQUEST = (
    "Your answer has no usable facts for passage(s) {items}. Answer again for exactly these passages: "
    "one JSON object whose keys are {keys}, each holding that passage's entities, keyphrases and themes."
)


class ChunkBatch(BaseModel):
    passages: dict[str, ChunkText] = Field(description="the passages by key: p1, p2, ...")


class KeyedFacts(BaseModel):
    """One ChunkFacts per passage key; the model of a call has one required field per key."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    def by_key(self) -> dict[str, ChunkFacts]:
        return {info.alias or name: getattr(self, name) for name, info in type(self).model_fields.items()}


@functools.lru_cache(maxsize=256)
def keyed_facts(keys: tuple[str, ...]) -> type[KeyedFacts]:
    fields: dict[str, Any] = {f"item_{i}": (ChunkFacts, Field(alias=key)) for i, key in enumerate(keys)}
    return create_model(f"Facts{len(keys)}", __base__=KeyedFacts, **fields)


def _present(raw: str, keys: Sequence[str]) -> dict[str, ChunkFacts]:
    return present_as(raw, keys, ChunkFacts)


class ChunkFactsBatchPrompt(Prompt[ChunkBatch, KeyedFacts]):
    """The chunk-facts task for a numbered batch of passages (each judged on its own)."""

    name = "kg.chunk_facts_batch"
    output_model: ClassVar[type[BaseModel]] = KeyedFacts
    instruction = (
        ChunkFactsPrompt.instruction
        + " Several passages come at once, each under its own key (p1, p2, ...). Treat every passage on "
        "its own, as if it were the only one, and answer with one JSON object holding, under each "
        "passage's key, that passage's entities, keyphrases and themes. Answer for every key."
    )
    examples = [
        (
            ChunkBatch(
                passages={
                    "p1": ChunkText(
                        title="Storage",
                        section="Storage > Retention",
                        text="Blocks older than the retention period, 15 days by default, are deleted. "
                        "Set --storage.tsdb.retention.time to change it.",
                    ),
                    "p2": ChunkText(
                        title="Alerting",
                        section="Alerting > Grouping",
                        text="Alertmanager groups alerts with the same labels into one notification.",
                    ),
                }
            ),
            keyed_facts(("p1", "p2")).model_validate(
                {
                    "p1": {
                        "entities": ["--storage.tsdb.retention.time"],
                        "keyphrases": ["retention period", "block deletion", "15 days default"],
                        "themes": ["data retention", "storage"],
                    },
                    "p2": {
                        "entities": ["Alertmanager"],
                        "keyphrases": ["alert grouping", "notifications", "same labels"],
                        "themes": ["alerting"],
                    },
                }
            ),
        )
    ]

    def output_model_for(self, data: ChunkBatch) -> type[BaseModel]:
        return keyed_facts(tuple(data.passages))

    def offline(self, data: ChunkBatch) -> KeyedFacts:
        single = ChunkFactsPrompt()
        found = {key: single.offline(text) for key, text in data.passages.items()}
        return keyed_facts(tuple(found)).model_validate({k: v.model_dump() for k, v in found.items()})

    def _checked(self, data: ChunkBatch, raw: str) -> tuple[KeyedFacts | None, str]:
        keys = tuple(data.passages)
        found = _present(raw, keys)
        missing = [key for key in keys if key not in found]
        if missing:
            return None, f"no usable facts for passage(s) {', '.join(missing)}"
        return keyed_facts(keys).model_validate({k: found[k].model_dump() for k in keys}), ""

    def repair_request(self, data: ChunkBatch, raw: str, problem: str) -> tuple[str, type[BaseModel]]:
        found = _present(raw, tuple(data.passages))
        missing = tuple(key for key in data.passages if key not in found)
        request = MISSING_REQUEST.format(items=", ".join(missing), keys=", ".join(f'"{k}"' for k in missing))
        return request, keyed_facts(missing)

    def _checked_repair(self, data: ChunkBatch, first_raw: str, raw: str) -> tuple[KeyedFacts | None, str]:
        keys = tuple(data.passages)
        found = {**_present(first_raw, keys), **_present(raw, keys)}
        missing = [key for key in keys if key not in found]
        if missing:
            return None, f"no usable facts for passage(s) {', '.join(missing)} after one repair request"
        return keyed_facts(keys).model_validate({k: found[k].model_dump() for k in keys}), ""


def batches(sizes: Sequence[int], *, passages: int = BATCH_PASSAGES, chars: int = BATCH_CHARS) -> list[range]:
    """Consecutive index ranges of at most ``passages`` items and ``chars`` characters (an item longer
    than ``chars`` goes alone). Consecutive chunks share a document, so a batch reads as one text."""
    out: list[range] = []
    start, used = 0, 0
    for index, size in enumerate(sizes):
        if index > start and (index - start >= passages or used + size > chars):
            out.append(range(start, index))
            start, used = index, 0
        used += size
    if start < len(sizes):
        out.append(range(start, len(sizes)))
    return out
