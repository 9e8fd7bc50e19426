"""Formula tests chosen so that a plausible wrong formula fails: each docstring names the mutant it kills.

The older tests used weights (1, 0), F1 = similarity = 1, or all-or-nothing judges, under which a
wrong formula gives the same number as the right one.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.scoring import (
    AnswerCorrectness,
    AnswerRelevancy,
    FactualCorrectness,
    NoiseSensitivity,
    SingleTurnSample,
)

from .verdicts import compared


def fake(*answers: dict) -> FakeListChatModel:
    return FakeListChatModel(responses=[json.dumps(a) for a in answers])


class TableEmbeddings(Embeddings):
    """Vectors looked up by text, so a test sets every cosine it needs."""

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.table[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.table[text]


def unit_at(cosine: float) -> list[float]:
    """A 2-d unit vector whose cosine with (1, 0) is ``cosine``."""
    return [cosine, math.sqrt(1 - cosine**2)]


RESPONSE, REFERENCE = "A. B. C.", "A. D. E."


def correctness(weights: tuple[float, float]) -> float:
    """TP 1 (A), FP 0, FN 2 (D, E): precision 1, recall 1/3, F1 0.5; similarity 0.8."""
    llm = fake(
        {"response": ["A"], "reference": ["A", "D", "E"]},
        compared([True], [True, False, False]),
    )
    embeddings = TableEmbeddings({RESPONSE: [1.0, 0.0], REFERENCE: unit_at(0.8)})
    metric = AnswerCorrectness(weights=weights, llm=llm, embeddings=embeddings)
    return metric.score(SingleTurnSample(response=RESPONSE, reference=REFERENCE)).value


def test_answer_correctness_blends_f1_and_similarity_by_weight():
    """Kills `score = f1` (0.5), `score = similarity` (0.8), swapped weights (0.725), precision or
    recall in place of F1 (0.85 / 0.45) and an unnormalised sum (2.6 for weights (2, 2))."""
    assert correctness((0.75, 0.25)) == pytest.approx(0.75 * 0.5 + 0.25 * 0.8)
    assert correctness((2.0, 2.0)) == pytest.approx(0.65)
    assert correctness((0.0, 1.0)) == pytest.approx(0.8)


def relevancy(noncommittal: list[bool]) -> float:
    question = "How long are blocks kept?"
    generated = ["g1", "g2", "g3"]
    llm = fake(
        *[{"question": g, "noncommittal": flag} for g, flag in zip(generated, noncommittal, strict=True)]
    )
    table = {question: [1.0, 0.0], "g1": unit_at(0.2), "g2": unit_at(0.5), "g3": unit_at(0.8)}
    metric = AnswerRelevancy(strictness=3, llm=llm, embeddings=TableEmbeddings(table))
    sample = SingleTurnSample(user_input=question, response="Blocks are kept for 15 days.")
    return metric.score(sample).value


def test_answer_relevancy_is_the_mean_cosine_and_any_noncommittal_zeroes_it():
    """Kills max (0.8), min or first (0.2) in place of the mean (0.5), and "0 only when every
    generation is noncommittal" (0.5 instead of 0 when one of three is, as ragas defines it)."""
    assert relevancy([False, False, False]) == pytest.approx(0.5)
    assert relevancy([False, True, False]) == 0.0


NOISE = SingleTurnSample(
    user_input="How long are blocks kept?",
    response="Blocks are kept for 15 days. Blocks are stored on tape drives.",
    reference="Blocks are kept for 15 days.",
)
RELEVANT_AND_NOISY = "Blocks are kept for 15 days. Blocks are stored on tape drives."
IRRELEVANT_AND_NOISY = "Blocks are stored on tape drives in the basement."
IRRELEVANT_QUIET = "Grafana draws dashboards."


def noise(mode: str, contexts: list[str]) -> float:
    sample = NOISE.model_copy(update={"retrieved_contexts": contexts})
    return NoiseSensitivity(mode=mode).score(sample).value


def test_noise_sensitivity_irrelevant_mode_excludes_what_a_relevant_context_backs():
    """The wrong statement ("stored on tape") is backed by a relevant context and an irrelevant one.
    Kills the mutant without the rule "irrelevant excludes relevant" (it gives 0.5, not 0), and a
    mode that ignores which context backs the statement (same 0.5 in both modes)."""
    both = [RELEVANT_AND_NOISY, IRRELEVANT_AND_NOISY]
    assert noise("relevant", both) == 0.5  # 1 of 2 statements wrong and backed by a relevant context
    assert noise("irrelevant", both) == 0.0  # ... so it does not count as noise from irrelevant ones
    only_irrelevant = ["Blocks are kept for 15 days.", IRRELEVANT_AND_NOISY]
    assert noise("irrelevant", only_irrelevant) == 0.5
    assert noise("relevant", only_irrelevant) == 0.0
    assert noise("irrelevant", ["Blocks are kept for 15 days.", IRRELEVANT_QUIET]) == 0.0


def test_factual_precision_of_an_empty_answer_is_zero_not_nan():
    """Kills dropping the reference in precision mode (NaN for a response that claims nothing, which
    the mean then skips, rewarding the empty answer)."""
    llm = fake({"response": [], "reference": ["A"]}, compared([], [False]))
    result = FactualCorrectness(mode="precision", llm=llm).score(
        SingleTurnSample(response="", reference="A.")
    )
    assert result.value == 0.0
    assert np.isnan(
        FactualCorrectness(mode="precision", llm=fake({"response": [], "reference": []}))
        .score(SingleTurnSample(response="", reference=""))
        .value
    )
