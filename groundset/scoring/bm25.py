"""BM25 (Okapi) over stemmed content words: the baseline's retriever, language-aware and model-free.

The weights of every (text, term) pair are computed once into a sparse matrix, so a query is one
column sum: fast enough for thousands of chunks and thousands of questions.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
from scipy.sparse import csc_matrix

from ..text.lexical import stemmed_words


class BM25Index:
    """Rank ``texts`` for a query. ``k1`` saturates term frequency; ``b`` normalises by length."""

    def __init__(
        self,
        texts: Sequence[str],
        languages: Sequence[str | None] | None = None,
        *,
        k1: float = 1.5,
        b: float = 0.75,
    ) -> None:
        languages = list(languages) if languages is not None else [None] * len(texts)
        if len(languages) != len(texts):
            raise ValueError(f"{len(languages)} languages for {len(texts)} texts")
        self.vocabulary: dict[str, int] = {}
        rows, cols, counts, lengths = [], [], [], []
        for row, (text, lang) in enumerate(zip(texts, languages, strict=True)):
            terms = Counter(stemmed_words(text, lang))
            lengths.append(sum(terms.values()))
            for term, count in terms.items():
                rows.append(row)
                cols.append(self.vocabulary.setdefault(term, len(self.vocabulary)))
                counts.append(count)
        n = len(texts)
        self.size = n
        tf = np.asarray(counts, dtype=np.float64)
        length = np.asarray(lengths, dtype=np.float64)
        average = float(length.mean()) if n and length.sum() else 1.0
        df = np.bincount(np.asarray(cols, dtype=np.int64), minlength=len(self.vocabulary))
        idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        row_index = np.asarray(rows, dtype=np.int64)
        norm = k1 * (1.0 - b + b * length[row_index] / average) if rows else np.zeros(0)
        weights = idf[np.asarray(cols, dtype=np.int64)] * tf * (k1 + 1.0) / (tf + norm) if rows else tf
        self._weights = csc_matrix((weights, (rows, cols)), shape=(n, len(self.vocabulary)))
        self.idf = idf

    def scores(self, query: str, lang: str | None = None) -> np.ndarray:
        """The BM25 score of every text for ``query`` (0 where no query term occurs)."""
        wanted = dict.fromkeys(stemmed_words(query, lang))
        terms = [self.vocabulary[t] for t in wanted if t in self.vocabulary]
        if not terms or not self.size:
            return np.zeros(self.size)
        return np.asarray(self._weights[:, terms].sum(axis=1)).ravel()

    def search(self, query: str, k: int, lang: str | None = None) -> list[tuple[int, float]]:
        """The ``k`` best (index, score) pairs with a score above 0, best first (ties by position)."""
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        scores = self.scores(query, lang)
        order = np.lexsort((np.arange(self.size), -scores))[:k]
        return [(int(i), float(scores[i])) for i in order if scores[i] > 0 and math.isfinite(scores[i])]
