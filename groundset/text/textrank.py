"""Extractive TextRank summaries: the offline stand-in for an LLM summary.

Sentences are nodes, TF-IDF cosine similarity is the edge weight, and PageRank picks the
sentences most central to the text; its random jumps favour early sentences, because technical
pages state their topic first. For long texts the similarity matrix is never built: with
unit-norm TF-IDF rows ``X``, ``S = X X^T - I``, so each power-iteration step costs two sparse
products. That keeps a 2 MB text (tens of thousands of sentences) linear in memory and time.

Words and stop words follow the text's language: English keeps scikit-learn's stop words and its
tuned regexes; other languages written with spaces use Unicode words and spaCy's stop words; Chinese
and Japanese sentences are tokenised by their spaCy pipeline (one pass over all sentences).
"""

from __future__ import annotations

import math
import re

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from .language import detect_language, language_code
from .nlp import UNSEGMENTED, stop_words, token_lists
from .plaintext import plain_text
from .sentences import split_sentences

__all__ = ["summary_of_plain", "textrank_summary"]

_DAMPING = 0.85
_MAX_ITERATIONS = 100
_TOLERANCE = 1e-10
_NEAR_DUPLICATE = 0.85
_DENSE_LIMIT = 1000  # up to this many sentences the similarity matrix is built; beyond, it is factored
_SCAN_FACTOR = 20  # look this many times max_sentences down the ranking for a fitting, fresh sentence
_MIN_WORDS = 4
_FRAGMENT_WORDS = 8  # a line without end punctuation must be at least this long (headings are not)
_TERMINALS = ".!?\"'\u201d)\u3002\uff01\uff1f\u300d\u300f\uff09"
_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*")
_TERM = re.compile(r"\b[a-z][\w.-]*[a-z0-9]\b")
_ANY_WORD = re.compile(r"[^\W\d_][^\W\d_'\u2019-]*")  # the same for every alphabet
_ANY_TERM = re.compile(r"\b[^\W\d_][\w.-]*[^\W_]\b")
_CODE_CHARS = frozenset("{}[]()<>=;$|\\/\"'`*#&%@^~")
_CODE_START = re.compile(r"^(?:\$ |# |//|/\*|<\?|import |from \S+ import |def |func |package |curl |sudo )")


def textrank_summary(
    text: str, *, max_sentences: int = 3, max_chars: int = 600, lang: str | None = None
) -> str:
    """Up to ``max_sentences`` central sentences of ``text`` in original order, at most ``max_chars``.

    Sentences are returned verbatim (after markdown stripping) and joined by spaces (Chinese and
    Japanese: by nothing). When even the best sentence is longer than ``max_chars`` it is cut at a
    word boundary and ends with an ellipsis, so the limit always holds. Deterministic: ties go to
    the earlier sentence. ``lang=None`` detects the language (once per text, on a bounded prefix).
    """
    return summary_of_plain(plain_text(text), max_sentences=max_sentences, max_chars=max_chars, lang=lang)


def summary_of_plain(
    plain: str, *, max_sentences: int = 3, max_chars: int = 600, lang: str | None = None
) -> str:
    """``textrank_summary`` of a text already made plain (``plain_text``): a build has it from the
    document's phrases, and a document of two million characters is not parsed twice."""
    if max_sentences < 1 or max_chars < 1:
        raise ValueError("textrank_summary: max_sentences and max_chars must be >= 1")
    code = language_code(lang) if lang else detect_language(plain)
    sentences = split_sentences(plain, lang=code)
    if not sentences:
        return ""
    joiner = "" if code in UNSEGMENTED else " "
    if len(sentences) <= max_sentences:
        return _fit_in_order(sentences, list(range(len(sentences))), max_chars, joiner)
    words = _words(sentences, code)
    candidates = _candidates(sentences, max_sentences, words)
    if len(candidates) <= max_sentences:
        return _fit_in_order(sentences, candidates, max_chars, joiner)
    terms = [_terms(sentences[i], words[i], code) for i in candidates]
    matrix = _tfidf_rows(terms)
    if matrix is None:
        return _fit_in_order(sentences, candidates[:max_sentences], max_chars, joiner)
    scores = _pagerank(matrix)
    # Round before sorting so float noise across platforms cannot reorder near-ties.
    ranked = sorted(range(len(candidates)), key=lambda j: (-round(float(scores[j]), 12), j))
    lengths = [len(sentences[i]) for i in candidates]
    chosen = _select(ranked, matrix, lengths, max_sentences, max_chars, len(joiner))
    if not chosen:
        return _truncate(sentences[candidates[ranked[0]]], max_chars)
    return joiner.join(sentences[candidates[j]] for j in sorted(chosen))


def _words(sentences: list[str], lang: str) -> list[list[str]]:
    """The words of each sentence: English and alphabetic regexes, or the spaCy tokens (CJK)."""
    if lang in UNSEGMENTED:
        return token_lists(sentences, lang)
    pattern = _WORD if lang == "en" else _ANY_WORD
    return [pattern.findall(sentence) for sentence in sentences]


def _terms(sentence: str, words: list[str], lang: str) -> list[str]:
    """The content terms of one sentence, for its TF-IDF row."""
    if lang == "en":
        return [term for term in _TERM.findall(sentence.lower()) if term not in ENGLISH_STOP_WORDS]
    stop = stop_words(lang)
    found = (
        [word.casefold() for word in words] if lang in UNSEGMENTED else _ANY_TERM.findall(sentence.casefold())
    )
    return [term for term in found if term not in stop]


def _candidates(sentences: list[str], max_sentences: int, words: list[list[str]]) -> list[int]:
    """Indices worth ranking: complete prose sentences, then prose fragments, then anything."""
    prose = [i for i, sentence in enumerate(sentences) if _is_prose(sentence, words[i])]
    complete = [i for i in prose if sentences[i][-1] in _TERMINALS]
    if len(complete) >= max_sentences:
        return complete
    return prose or list(range(len(sentences)))


def _is_prose(sentence: str, words: list[str]) -> bool:
    """Enough words, not a heading-like fragment, not a line of code."""
    if len(words) < _MIN_WORDS:
        return False
    if sentence[-1] not in _TERMINALS and sentence[-1] != ":" and len(words) < _FRAGMENT_WORDS:
        return False
    if _CODE_START.match(sentence):
        return False
    symbols = sum(map(_CODE_CHARS.__contains__, sentence))  # map: no Python frame a character
    letters = sum(map(str.isalpha, sentence))
    tokens = len(sentence.split())
    return symbols <= 0.1 * len(sentence) and letters >= 0.5 * len(sentence) and len(words) >= 0.5 * tokens


def _tfidf(sentences: list[str]) -> sparse.csr_matrix | None:
    """``_tfidf_rows`` of English sentences."""
    return _tfidf_rows([_terms(sentence, [], "en") for sentence in sentences])


def _tfidf_rows(rows: list[list[str]]) -> sparse.csr_matrix | None:
    """Unit-norm TF-IDF rows (sublinear tf, smoothed idf), or None when no sentence has a content word.

    The same weighting as scikit-learn's ``TfidfVectorizer(sublinear_tf=True)``, built directly:
    a summary is one small matrix, and the vectorizer's per-call overhead would dominate.
    """
    vocabulary: dict[str, int] = {}
    indptr, indices, data = [0], [], []
    for terms in rows:
        counts: dict[int, int] = {}
        for term in terms:
            column = vocabulary.setdefault(term, len(vocabulary))
            counts[column] = counts.get(column, 0) + 1
        indices.extend(counts)
        data.extend(1.0 + math.log(count) for count in counts.values())
        indptr.append(len(indices))
    if not vocabulary:
        return None
    n = len(rows)
    idf = np.log((1.0 + n) / (1.0 + np.bincount(indices, minlength=len(vocabulary)))) + 1.0
    values = np.asarray(data) * idf[indices]
    matrix = sparse.csr_matrix((values, indices, indptr), shape=(n, len(vocabulary)))
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    return sparse.csr_matrix(sparse.diags(np.divide(1.0, norms, out=np.zeros(n), where=norms > 0)) @ matrix)


def _pagerank(matrix: sparse.csr_matrix) -> np.ndarray:
    """Personalised PageRank on S = X X^T - I by power iteration; S is built only when it is small."""
    n = matrix.shape[0]
    row_norms = np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel()
    if n <= _DENSE_LIMIT:
        dense = (matrix @ matrix.T).toarray()
        np.fill_diagonal(dense, 0.0)

        def spread(x: np.ndarray) -> np.ndarray:
            return dense @ x

    else:
        transposed = matrix.T.tocsr()

        def spread(x: np.ndarray) -> np.ndarray:
            return matrix @ (transposed @ x) - row_norms * x

    degree = spread(np.ones(n))
    degree[degree < 1e-12] = 0.0
    dangling = degree == 0.0
    inverse = np.divide(1.0, degree, out=np.zeros(n), where=~dangling)
    # Lead bias: random jumps favour early sentences (1 / position), where documents state their topic.
    teleport = 1.0 / np.arange(1, n + 1)
    teleport /= teleport.sum()
    scores = teleport.copy()
    for _ in range(_MAX_ITERATIONS):
        updated = _DAMPING * (spread(scores * inverse) + scores[dangling].sum() * teleport)
        updated += (1.0 - _DAMPING) * teleport
        if np.abs(updated - scores).sum() < _TOLERANCE:
            return updated
        scores = updated
    return scores


def _select(
    ranked: list[int],
    matrix: sparse.csr_matrix,
    lengths: list[int],
    max_sentences: int,
    max_chars: int,
    gap: int = 1,
) -> list[int]:
    """Take sentences in rank order while they fit the budget and do not repeat a chosen one."""
    window = ranked[: _SCAN_FACTOR * max_sentences]
    rows = matrix[window]
    similar = (rows @ rows.T).toarray()
    chosen: list[int] = []
    used = 0
    for position, j in enumerate(window):
        cost = lengths[j] + (gap if chosen else 0)
        if used + cost > max_chars:
            continue
        if chosen and similar[position, chosen].max() > _NEAR_DUPLICATE:
            continue
        chosen.append(position)
        used += cost
        if len(chosen) == max_sentences:
            break
    return [window[position] for position in chosen]


def _fit_in_order(sentences: list[str], indices: list[int], max_chars: int, joiner: str = " ") -> str:
    """Sentences in document order, dropping those that would overflow ``max_chars``."""
    kept: list[str] = []
    used = 0
    for i in indices:
        cost = len(sentences[i]) + (len(joiner) if kept else 0)
        if used + cost <= max_chars:
            kept.append(sentences[i])
            used += cost
    return joiner.join(kept) if kept else _truncate(sentences[indices[0]], max_chars)


def _truncate(sentence: str, max_chars: int) -> str:
    """Cut one over-long sentence at a word boundary, marking the cut with an ellipsis."""
    if len(sentence) <= max_chars:
        return sentence
    if max_chars < 2:
        return sentence[:max_chars]
    cut = sentence[: max(max_chars - 1, 0)]
    space = cut.rfind(" ")
    if space > max_chars // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "\u2026"
