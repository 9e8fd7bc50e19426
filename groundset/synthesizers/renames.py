"""Renamed documents: a sample follows its contexts to their new chunk ids.

A chunk's id depends on its document's path, so renaming a file gives its unchanged chunks new ids
(as a full build would). A sample whose every context is, word for word, a chunk of a document the
old graph did not have (the renamed file) is kept with those ids and sources; its own id and text do
not change, so a reviewed question survives a rename.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from ..kg.graph import KnowledgeGraph, NodeKind
from ..samples.testset import TestsetSample

__all__ = ["chunks_by_text", "follow_renames"]


def chunks_by_text(kg: KnowledgeGraph) -> dict[str, list[str]]:
    """Chunk ids by chunk text."""
    found: dict[str, list[str]] = defaultdict(list)
    for chunk in kg.nodes(NodeKind.CHUNK):
        found[kg.get(chunk)["text"]].append(chunk)
    return found


def follow_renames(
    sample: TestsetSample,
    kg: KnowledgeGraph,
    by_text: Mapping[str, list[str]],
    old_documents: Mapping[str, str] | None,
) -> TestsetSample | None:
    """``sample`` with its contexts' new ids and sources, or None when a context is not found exactly once
    in a document new to the graph (``old_documents``: the old graph's sources; None: unknown, no move)."""
    if old_documents is None:
        return None
    ids: list[str] = []
    for text in sample.reference_contexts:
        found = [c for c in by_text.get(text, []) if kg.get(c)["source"] not in old_documents]
        if len(found) != 1:
            return None
        ids.append(found[0])
    sources = list(dict.fromkeys(kg.get(c)["source"] for c in ids))
    record = sample.model_dump()
    record.update(reference_context_ids=ids, source_documents=sources)
    return TestsetSample.model_validate(record)
