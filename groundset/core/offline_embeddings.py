"""Offline embeddings: computed in-process from files already on disk, no call, no download.

``OfflineEmbeddings`` marks the classes the engine runs inline (no cache, no network) and that
``is_offline`` recognises. ``HashingEmbeddings`` (hashed word uni+bigrams, scikit-learn's
HashingVectorizer, fixed murmurhash seed) is the dependency-free, purely lexical member:
deterministic across processes and good enough for near-duplicates. The semantic member,
``WordLlamaEmbeddings``, lives in ``wordllama_embeddings``.
"""

from __future__ import annotations

from abc import abstractmethod

import numpy as np
from langchain_core.embeddings import Embeddings
from sklearn.feature_extraction.text import HashingVectorizer

DEFAULT_DIMENSION = 1024


class OfflineEmbeddings(Embeddings):
    """Embeddings computed locally and deterministically; subclasses only provide ``embed_matrix``.

    Empty (or, for hashing, word-less) text embeds to the zero vector: it has no direction, so
    similarity code skips it (no graph edge) or reports NaN rather than inventing a score.
    """

    @property
    @abstractmethod
    def identity(self) -> str:
        """A stable name of the model and its settings (``offline:...``), used in cache keys."""

    @abstractmethod
    def embed_matrix(self, texts: list[str]) -> np.ndarray:
        """Embed many texts at once as an (n, dimension) L2-normalised float32 matrix."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_matrix(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_matrix([text])[0].tolist()

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        return self.embed_query(text)


class HashingEmbeddings(OfflineEmbeddings):
    """A LangChain ``Embeddings`` over scikit-learn's HashingVectorizer (L2-normalised float32)."""

    similarity_threshold = 0.3  # see cosine_thresholds(): ~1.3% of random chunk pairs pass
    duplicate_threshold = 0.9

    def __init__(self, dimension: int = DEFAULT_DIMENSION) -> None:
        if not isinstance(dimension, int) or dimension < 16:
            raise ValueError(f"HashingEmbeddings: dimension must be an int >= 16, got {dimension!r}")
        self.dimension = dimension
        self._vectorizer = HashingVectorizer(
            n_features=dimension,
            ngram_range=(1, 2),
            lowercase=True,
            stop_words="english",
            alternate_sign=False,
            norm="l2",
            dtype=np.float32,
        )

    @property
    def identity(self) -> str:
        return f"offline:hashing-{self.dimension}"

    def embed_matrix(self, texts: list[str]) -> np.ndarray:
        """Embed many texts at once as an (n, dimension) float32 matrix."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return self._vectorizer.transform(texts).toarray().astype(np.float32, copy=False)

    def __repr__(self) -> str:
        return f"HashingEmbeddings(dimension={self.dimension})"


# For models that do not say (any LangChain Embeddings): about right for API embedding models.
MODEL_SIMILARITY = 0.75
MODEL_DUPLICATE = 0.9


def cosine_thresholds(model: object) -> tuple[float, float]:
    """(similar, duplicate): the cosine above which two chunks are "similar" (a graph edge) and two
    questions near-duplicates. Each offline model sets its own, measured on real docs so that about
    1% of random chunk pairs count as similar (benchmarks/offline_embeddings.py); others get defaults."""
    return (
        float(getattr(model, "similarity_threshold", MODEL_SIMILARITY)),
        float(getattr(model, "duplicate_threshold", MODEL_DUPLICATE)),
    )
