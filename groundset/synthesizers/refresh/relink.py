"""Finding an old sample's contexts in a new graph: the same chunk, the same text in the same document, or
the same text in the document a renamed file became.

A chunk's id is made from its document's path and its text (``kg.graph.chunk_id``), so an edit elsewhere
in a page leaves the id of an untouched chunk as it was, and so a context usually keeps its id. Where the id
is gone, a context is looked for by its text: a chunk with that text in a document whose path and text make
the old id (the same document; the text now occurs more than once there), or, when the id was made from a
document that is gone, the one chunk with that text in a document new to the graph (the file was renamed).
Context ids made before ids depended on path and text only (test sets written by an earlier groundset)
prove no document: such a context is found by its text in one of the sample's own documents, or in
the one chunk of the graph that has its text. A sample whose every context is found is kept; its own id and
text never change, only its context ids (and its source documents when it followed a rename).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from ...kg.graph import KnowledgeGraph, NodeKind, chunk_id
from ...samples.testset import TestsetSample

__all__ = ["ContextFinder", "Found"]

#: How many copies of one text a document may hold before an id is no longer recognised as its own.
_OCCURRENCES = 8
#: How close (rapidfuzz ratio, 0-100) a chunk must be to a changed context to be suggested in its place.
_SUGGEST_CUTOFF = 50.0


@dataclass
class Found:
    """Where an old sample's contexts are in the new graph (old id -> new id), which are not there any
    more, and, when some followed a renamed file, the sample's source documents now."""

    ids: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    documents: list[str] | None = None

    @property
    def complete(self) -> bool:
        return not self.missing

    def apply(self, sample: TestsetSample) -> TestsetSample:
        """``sample`` with its contexts' new ids (and, if it followed a rename, its new documents); the very
        same object when nothing changed, so its line is written byte for byte as before."""
        if all(old == new for old, new in self.ids.items()):
            return sample
        new = self.ids.get
        record = sample.model_dump()
        record["reference_context_ids"] = [new(c, c) for c in sample.reference_context_ids]
        record["distractor_context_ids"] = [new(c, c) for c in sample.distractor_context_ids]
        for turn in record["history"]:
            turn["reference_context_ids"] = [new(c, c) for c in turn["reference_context_ids"]]
        if self.documents is not None:
            record["source_documents"] = self.documents
        return TestsetSample.model_validate(record)


class ContextFinder:
    """Finds samples' contexts in ``kg``; ``old_documents``: the old graph's source -> document id (None
    when the old test set does not list them: then no context can be told to have followed a rename)."""

    def __init__(self, kg: KnowledgeGraph, old_documents: Mapping[str, str] | None) -> None:
        self.kg = kg
        self.old_documents = old_documents
        self.by_text: dict[str, list[str]] = defaultdict(list)
        self.by_source: dict[str, dict[str, str]] = defaultdict(dict)  # source -> {chunk: text}
        for chunk in kg.nodes(NodeKind.CHUNK):
            data = kg.get(chunk)
            self.by_text[data["text"]].append(chunk)
            self.by_source[data["source"]][chunk] = data["text"]
        self.sources = {kg.get(d)["source"] for d in kg.nodes(NodeKind.DOCUMENT)}
        self.removed = [s for s in old_documents or () if s not in self.sources]

    def find(self, sample: TestsetSample, *, by_text: bool = False) -> Found:
        """Each context of ``sample`` (its own, its earlier turns', its distractors') in the graph.
        ``by_text``: look for every context by its text in the sample's documents, whatever its id (a person
        edited the contexts, e.g. of a sample put back from review)."""
        legacy = by_text or not _ids_of_paths_and_texts(sample)
        found, moved_to = Found(), []
        # A distracting question's documents are those of its answer, not of its near misses.
        unlisted = set(sample.distractor_context_ids) if sample.reference_contexts else set()
        for node, text in sample.grounding():
            new, moved = self._context(node, text, sample.source_documents, legacy, by_text)
            if new is None:
                found.missing.append(node)
                continue
            found.ids[node] = new
            if moved and node not in unlisted:
                moved_to.append(self._source(new))
        if moved_to:  # the documents the contexts left give way to those they moved to
            documents = [[s] if s in self.sources else moved_to for s in sample.source_documents]
            found.documents = list(dict.fromkeys(s for group in documents for s in group))
        return found

    def closest(self, sample: TestsetSample, missing: list[str]) -> list[dict[str, str]]:
        """For each missing context, the chunk of the sample's documents whose text is now closest to it (a
        suggestion for a reviewer: ``{replaces, id, text}``); none where nothing comes close."""
        texts = dict(sample.grounding())
        pool = {c: t for source in sample.source_documents for c, t in self.by_source.get(source, {}).items()}
        suggestions = []
        for node in missing:
            best = process.extractOne(texts[node], pool, scorer=fuzz.ratio, score_cutoff=_SUGGEST_CUTOFF)
            if best is not None:
                suggestions.append({"replaces": node, "id": best[2], "text": best[0]})
        return suggestions

    def _context(
        self, node: str, text: str, documents: list[str], legacy: bool, anywhere: bool
    ) -> tuple[str | None, bool]:
        """(the chunk now holding this context, whether it moved to a renamed document) or (None, False).
        ``anywhere``: a text found in the sample's documents counts even if the document is new."""
        data = self.kg.graph.nodes.get(node)
        if data is not None and data.get("kind") == NodeKind.CHUNK.value and data.get("text") == text:
            return node, False
        chunks = self.by_text.get(text, [])
        source = self._source
        same = [c for c in chunks if node in _ids(source(c), text)]
        if legacy and not same:
            same = [c for c in chunks if source(c) in documents] or (chunks if len(chunks) == 1 else [])
            if not anywhere:  # a document new to the graph is a rename's, below
                same = [c for c in same if self.old_documents is None or source(c) in self.old_documents]
        if same:
            return same[0], False
        if self.old_documents is None:
            return None, False
        fresh = [c for c in chunks if source(c) not in self.old_documents]
        gone = legacy or any(node in _ids(s, text) for s in self.removed)
        return (fresh[0], True) if gone and len(fresh) == 1 else (None, False)

    def _source(self, chunk: str) -> str:
        return self.kg.get(chunk)["source"]


def _ids(source: str, text: str) -> set[str]:
    """The ids a chunk with ``text`` can have in the document at ``source``."""
    return {chunk_id(source, text, k) for k in range(_OCCURRENCES)}


def _ids_of_paths_and_texts(sample: TestsetSample) -> bool:
    """Whether the sample's context ids were made from their documents' paths and texts (as groundset makes
    them now): then an id tells which document a context came from."""
    return any(
        node in _ids(source, text) for node, text in sample.grounding() for source in sample.source_documents
    )
