"""The offline support judge: negation, numbers, dates and names must match, not just most words."""

from __future__ import annotations

import pytest

from groundset.judges.support import StatementsAndContext, SupportPrompt
from groundset.scoring import EvaluationDataset, SingleTurnSample, evaluate
from groundset.scoring.metrics import AnswerCorrectness, Faithfulness
from groundset.scoring.prompts import CompareStatementsPrompt, StatementsToCompare
from groundset.text.lexical import LexicalContext, content_words, critical_terms, polarity

CONTEXT = (
    "Prometheus keeps blocks for 15 days by default. Blocks are kept on local disk and are not "
    "compressed a second time. Alertmanager was released in March 2015."
)


@pytest.mark.parametrize(
    ("statement", "supported", "why"),
    [
        ("Prometheus keeps blocks for 15 days by default.", True, ""),
        ("Prometheus never keeps blocks for 15 days.", False, "negates"),
        ("Prometheus does not keep blocks for 15 days.", False, "negates"),
        ("Prometheus doesn't keep blocks for 15 days.", False, "negates"),
        ("Blocks are compressed a second time.", False, "context negates"),
        ("Blocks are not compressed a second time.", True, ""),
        ("Prometheus keeps blocks for 30 days by default.", False, ""),
        ("Prometheus keeps blocks for 15 days by default in Thanos.", False, ""),
        ("Alertmanager was released in May 2015.", False, ""),
        ("Alertmanager was released in March 2016.", False, ""),
        ("Alertmanager was released in March 2015.", True, ""),
    ],
)
def test_support_needs_matching_negation_numbers_dates_and_names(statement, supported, why):
    verdict = SupportPrompt().offline(StatementsAndContext(statements={"1": statement}, context=CONTEXT))
    (only,) = verdict.by_key().values()
    assert only.verdict is supported, only.reason
    assert why in only.reason


def test_one_wrong_number_among_many_right_words_is_not_support():
    """Eight of nine content words match (89% > the 85% ratio); the number alone must sink it."""
    context = "The remote write queue sends samples in shards of 2000 with exponential retry backoff."
    statement = "The remote write queue sends samples in shards of 500 with exponential retry backoff."
    verdict = LexicalContext(context).judge(statement)
    assert not verdict.supported and "500" in verdict.reason


def test_the_issue_example_scores_faithfulness_zero_offline():
    """'Prometheus never keeps blocks for 15 days' against a context saying it does scored 1.0."""
    sample = SingleTurnSample(
        user_input="How long does Prometheus keep blocks?",
        response="Prometheus never keeps blocks for 15 days.",
        retrieved_contexts=["Prometheus keeps blocks for 15 days."],
    )
    result = evaluate(EvaluationDataset([sample]), [Faithfulness()], show_progress=False, cache=False)
    assert result.cells[0]["faithfulness"].value == 0.0


def test_compare_statements_offline_uses_the_same_judge():
    judged = CompareStatementsPrompt().offline(
        StatementsToCompare(
            response={"r1": "Blocks are not kept for 15 days.", "r2": "Blocks are kept for 15 days."},
            reference={"g1": "Blocks are kept for 15 days."},
        )
    )
    assert {key: v.verdict for key, v in judged.by_key().items()} == {"r1": False, "r2": True, "g1": True}
    wrong = AnswerCorrectness(weights=(1.0, 0.0)).score(
        SingleTurnSample(
            response="Blocks are never kept for 15 days.", reference="Blocks are kept for 15 days."
        )
    )
    assert wrong.value == 0.0


def test_helpers():
    assert content_words("Prometheus's TSDB doesn't compress") == ["prometheus", "tsdb", "compress"]
    assert polarity("It is not always compressed, but it is kept") == ({"compress"}, {"kept"})
    assert {"15", "march", "api_http_requests_total", "tsdb"} <= critical_terms(
        "Counters like api_http_requests_total reset in March after 15 days in the TSDB"
    )
    assert "counters" not in critical_terms("Counters reset")  # a capital at the start is no name
