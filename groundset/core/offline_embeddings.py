"""Offline embeddings: hashed word uni+bigrams, no model, no download, no state.

Deterministic across processes (scikit-learn's HashingVectorizer uses a fixed murmurhash
seed), fast, and good enough for lexical similarity: near-duplicate detection, similar-chunk
edges and relevancy on an offline run.
"""

from __future__ import annotations

import numpy as np
from langchain_core.embeddings import Embeddings
from sklearn.feature_extraction.text import HashingVectorizer

DEFAULT_DIMENSION = 1024


class HashingEmbeddings(Embeddings):
    """A LangChain ``Embeddings`` over scikit-learn's HashingVectorizer (L2-normalised float32)."""

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

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_matrix(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_matrix([text])[0].tolist()

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        return self.embed_query(text)

    def __repr__(self) -> str:
        return f"HashingEmbeddings(dimension={self.dimension})"
