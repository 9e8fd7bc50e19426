"""Model-free comparisons of the response with the reference: exact match, presence, string similarity.

The names and meanings are those users know from ragas. One rule for empty texts across these metrics
(and the overlap ones in ``overlap.py``): an empty reference leaves nothing to compare with (NaN); an
empty response against a non-empty reference is judged, and scores 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

import numpy as np
import numpy.typing as npt
from rapidfuzz import process
from rapidfuzz.distance import Hamming, Jaro, JaroWinkler, Levenshtein

from ...samples.evaluation import SingleTurnSample
from ..metric import Metric, MetricResult, OutputType, ScoringContext

__all__ = [
    "DistanceMeasure",
    "ExactMatch",
    "NonLLMStringSimilarity",
    "StringPresence",
    "empty_texts",
    "parse_measure",
    "similarity_matrix",
]


class DistanceMeasure(StrEnum):
    """rapidfuzz's normalized similarities, each in [0, 1] (1 = identical).

    ``hamming`` on texts of unequal length compares positions from the start and counts every extra
    character of the longer text as a mismatch (rapidfuzz's ``pad=True``), over the longer length:
    "abc" vs "abcdef" scores 0.5.
    """

    LEVENSHTEIN = "levenshtein"
    HAMMING = "hamming"
    JARO = "jaro"
    JARO_WINKLER = "jaro_winkler"


_SCORERS = {
    DistanceMeasure.LEVENSHTEIN: Levenshtein.normalized_similarity,
    DistanceMeasure.HAMMING: Hamming.normalized_similarity,
    DistanceMeasure.JARO: Jaro.normalized_similarity,
    DistanceMeasure.JARO_WINKLER: JaroWinkler.normalized_similarity,
}


def parse_measure(value: str | DistanceMeasure, owner: str) -> DistanceMeasure:
    """``value`` as a DistanceMeasure, or a ValueError naming the metric and the accepted values."""
    try:
        return DistanceMeasure(str(value).lower())
    except ValueError:
        accepted = ", ".join(m.value for m in DistanceMeasure)
        raise ValueError(f"{owner}: distance_measure must be one of {accepted}, got {value!r}") from None


def similarity_matrix(
    queries: Sequence[str], choices: Sequence[str], measure: DistanceMeasure
) -> npt.NDArray[np.float64]:
    """(len(queries), len(choices)) similarities in [0, 1], computed in one vectorised rapidfuzz call.

    The single code path for every string-similarity metric, so a pair scores the same in each.
    """
    if not queries or not choices:
        return np.zeros((len(queries), len(choices)), dtype=np.float64)
    matrix = process.cdist(list(queries), list(choices), scorer=_SCORERS[measure], dtype=np.float64)
    return np.clip(matrix, 0.0, 1.0)


def empty_texts(response: str, reference: str) -> MetricResult | None:
    """The shared empty-text rule: NaN with no reference, 0 for an empty response, else None."""
    if not reference.strip():
        return MetricResult.nan("the reference is empty: nothing to compare the response with")
    if not response.strip():
        return MetricResult(0.0, "the response is empty")
    return None


class _TextMetric(Metric):
    columns = ("response", "reference")

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        response, reference = sample.response or "", sample.reference or ""
        return empty_texts(response, reference) or self.compare(response, reference)

    def compare(self, response: str, reference: str) -> MetricResult:
        """Score two non-empty texts."""
        raise NotImplementedError


class ExactMatch(_TextMetric):
    """1.0 when the response equals the reference, outer whitespace stripped (case counts), else 0.0."""

    name = "exact_match"
    output_type = OutputType.BINARY

    def compare(self, response: str, reference: str) -> MetricResult:
        same = response.strip() == reference.strip()
        return MetricResult(float(same), "identical" if same else "the response differs from the reference")


class StringPresence(_TextMetric):
    """1.0 when the reference (outer whitespace stripped) occurs verbatim in the response, else 0.0."""

    name = "string_presence"
    output_type = OutputType.BINARY

    def compare(self, response: str, reference: str) -> MetricResult:
        found = reference.strip() in response
        reason = "the reference occurs in the response" if found else "the reference is not in the response"
        return MetricResult(float(found), reason)


class NonLLMStringSimilarity(_TextMetric):
    """rapidfuzz normalized similarity of the response and the reference (outer whitespace stripped)."""

    name = "non_llm_string_similarity"

    def __init__(
        self, *, distance_measure: str | DistanceMeasure = DistanceMeasure.LEVENSHTEIN, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.distance_measure = parse_measure(distance_measure, self.name)

    def compare(self, response: str, reference: str) -> MetricResult:
        score = float(similarity_matrix([response.strip()], [reference.strip()], self.distance_measure)[0, 0])
        return MetricResult(score, f"{self.distance_measure.value} similarity {score:.3f}")

    def __repr__(self) -> str:
        return f"NonLLMStringSimilarity(distance_measure={self.distance_measure.value!r})"
