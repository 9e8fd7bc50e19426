"""A stratified sample of a corpus's documents: a test set of a huge corpus from a graph of part of it.

Strata are the documents' top folders crossed with their topics (k-means clusters of offline WordLlama
vectors of each document's opening, whatever models the build uses: sampling costs no call). Each stratum
gets its share of the sample (largest remainders), and within a stratum documents are taken in an order
fixed by the seed and their paths, so the same corpus and seed give the same sample. The sample is written
down as anchored ``include`` globs (``literal_globs``): a graph records them, and ``kg update`` and a
refresh load the same documents again.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from langchain_core.documents import Document

from ..core.errors import ConfigError
from ..core.hashing import stable_hash

__all__ = ["literal_globs", "sample_documents"]

_OPENING_CHARS = 2000  # what a document's topic is read from
_MAX_TOPICS = 12


def sample_documents(documents: Sequence[Document], n: int, *, seed: int = 0) -> list[Document]:
    """``n`` of ``documents`` (all of them when there are no more), stratified by top folder and topic, in
    their original order."""
    if n < 1:
        raise ConfigError(f"--sample-docs must be at least 1, got {n}")
    if n >= len(documents):
        return list(documents)
    sources = [
        str(doc.metadata.get("source", i)).replace("\\", "/").lstrip("/") for i, doc in enumerate(documents)
    ]
    folders = _top_folders(sources)
    topics = _topics([doc.page_content[:_OPENING_CHARS] for doc in documents], n, seed)
    strata: dict[tuple[str, int], list[int]] = defaultdict(list)
    for index, (folder, topic) in enumerate(zip(folders, topics, strict=True)):
        strata[(folder, topic)].append(index)
    chosen: list[int] = []
    for key, quota in _quotas({key: len(members) for key, members in strata.items()}, n).items():
        members = sorted(strata[key], key=lambda i: stable_hash(f"{seed}:{sources[i]}"))
        chosen += members[:quota]
    return [documents[i] for i in sorted(chosen)]


def literal_globs(sources: Sequence[str]) -> list[str]:
    """Include globs that match exactly these relative paths: anchored at the root ("/a/b.md"), with the
    glob characters in them taken literally."""
    return ["/" + "".join(f"[{c}]" if c in "*?[" else c for c in source.lstrip("/")) for source in sources]


def _top_folders(sources: list[str]) -> list[str]:
    """Each path's first folder below the folders all paths share ("docs/guides/x.md" -> "guides" when
    every path starts "docs/"); "" for a file directly there."""
    parts = [source.split("/")[:-1] for source in sources]
    shared = 0
    while parts and all(len(p) > shared and p[shared] == parts[0][shared] for p in parts):
        shared += 1
    return [p[shared] if len(p) > shared else "" for p in parts]


def _topics(openings: list[str], n: int, seed: int) -> list[int]:
    """A topic cluster per document: k-means over normalised offline vectors, k about the square root of
    the sample (at least 2, at most 12)."""
    from sklearn.cluster import KMeans

    from ..core.models import resolve_embeddings

    k = min(_MAX_TOPICS, max(2, round(math.sqrt(n))), len(openings))
    if k < 2:
        return [0] * len(openings)
    vectors = np.asarray(resolve_embeddings("offline").model.embed_documents(openings), dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.where(norms == 0, 1.0, norms)
    return [int(label) for label in KMeans(n_clusters=k, n_init=4, random_state=seed).fit_predict(vectors)]


def _quotas(sizes: dict[tuple[str, int], int], n: int) -> dict[tuple[str, int], int]:
    """Each stratum's share of ``n`` by its size: whole parts first, then the largest remainders (ties by
    the stratum's name, so the split is the same every time)."""
    total = sum(sizes.values())
    exact = {key: n * size / total for key, size in sizes.items()}
    quotas = {key: math.floor(value) for key, value in exact.items()}
    left = n - sum(quotas.values())
    for key in sorted(exact, key=lambda k: (quotas[k] - exact[k], k))[:left]:
        quotas[key] += 1
    return quotas
