"""What a corpus is about: the name most of its documents mention ("Prometheus", "FastAPI", "llama.cpp"), for
questions scoped to the product ("... in Prometheus?") and personas named after it ("FastAPI user")."""

from __future__ import annotations

import re
from collections import Counter

from .graph import KnowledgeGraph, NodeKind

__all__ = ["corpus_scope"]

_SCOPE_SHARE = 0.4  # an entity named by this share of the documents is what the corpus is about
_SCOPE_MIN_DOCUMENTS = 3
# A product named like a source file of its language ("llama.cpp", "Node.js", "socket.io"): not a data or
# config file ("package.json", "CMakeLists.txt") nor a host ("github.com"). Such a name is also a file name
# now and then, so it must be named by half the documents, not 40%.
_DOTTED_PRODUCT = re.compile(r"^[A-Za-z][A-Za-z0-9]+\.(?:cpp|js|io|rs|jl|net)$")
_DOTTED_SHARE = 0.5


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
                if _names_a_product(entity):
                    seen.add(entity.casefold())
                    spelling.setdefault(entity.casefold(), Counter())[entity] += 1
        named.update(seen)
    if not named:
        return ""
    name, count = named.most_common(1)[0]
    share = _DOTTED_SHARE if _DOTTED_PRODUCT.match(name) else _SCOPE_SHARE
    if count < max(_SCOPE_MIN_DOCUMENTS, share * len(documents)):
        return ""
    return spelling[name].most_common(1)[0][0]


def _names_a_product(entity: str) -> bool:
    """A capitalised word ("Prometheus"), or a name written like a source file ("llama.cpp"): in the
    llama.cpp docs "CMake" (named by 21 of 52 pages) would otherwise win over "llama.cpp" (38 of 52)."""
    if _DOTTED_PRODUCT.match(entity):
        return True
    return entity[:1].isupper() and " " not in entity and entity.isalnum() and len(entity) >= 3
