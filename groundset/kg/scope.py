"""What a corpus is about: the name most of its documents mention ("Prometheus", "FastAPI"), for questions
scoped to the product ("... in Prometheus?") and personas named after it ("FastAPI user")."""

from __future__ import annotations

from collections import Counter

from .graph import KnowledgeGraph, NodeKind

__all__ = ["corpus_scope"]

_SCOPE_SHARE = 0.4  # an entity named by this share of the documents is what the corpus is about
_SCOPE_MIN_DOCUMENTS = 3


def corpus_scope(kg: KnowledgeGraph) -> str:
    """The name most documents mention (e.g. "Prometheus"), or "" when no name stands out."""
    documents = kg.nodes(NodeKind.DOCUMENT)
    if len(documents) < _SCOPE_MIN_DOCUMENTS:
        return ""
    named: Counter[str] = Counter()
    spelling: dict[str, Counter[str]] = {}
    for document in documents:
        seen = set()
        for chunk in kg.chunks_of(document):
            for entity in kg.get(chunk).get("entities") or []:
                if entity[:1].isupper() and " " not in entity and entity.isalnum() and len(entity) >= 3:
                    seen.add(entity.casefold())
                    spelling.setdefault(entity.casefold(), Counter())[entity] += 1
        named.update(seen)
    if not named:
        return ""
    name, count = named.most_common(1)[0]
    if count < max(_SCOPE_MIN_DOCUMENTS, _SCOPE_SHARE * len(documents)):
        return ""
    return spelling[name].most_common(1)[0][0]
