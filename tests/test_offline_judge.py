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


EINSTEIN = "Albert Einstein was born on 14 March 1879."
ULM_CONTEXT = ["Albert Einstein was born on 14 March 1879 in Ulm, in the Kingdom of Württemberg."]


def _offline_scores(response: str) -> dict[str, float]:
    from groundset.scoring import FactualCorrectness, NoiseSensitivity

    sample = SingleTurnSample(
        user_input="When was Einstein born?",
        response=response,
        reference=EINSTEIN,
        retrieved_contexts=ULM_CONTEXT,
    )
    metrics = [AnswerCorrectness(), FactualCorrectness(), NoiseSensitivity(), Faithfulness()]
    result = evaluate(EvaluationDataset([sample]), metrics, show_progress=False, cache=False)
    return {name: cell.value for name, cell in result.cells[0].items()}


def test_a_right_answer_with_an_extra_detail_keeps_its_shared_claim():
    """Issue 9: "born on 14 March 1879 in Ulm" against "born on 14 March 1879" scored answer correctness
    0.19, factual correctness 0 and noise sensitivity 1.0 offline; the extra detail is a precision cost."""
    right = _offline_scores("Albert Einstein was born on 14 March 1879 in Ulm.")
    assert right["answer_correctness"] >= 0.85 and right["factual_correctness"] >= 0.9
    assert right["noise_sensitivity"] == 0.0
    assert right["faithfulness"] == 1.0  # the context does say Ulm
    wrong = _offline_scores("Albert Einstein was born on 14 March 1880 in Ulm.")
    assert wrong["factual_correctness"] == 0.0 and wrong["answer_correctness"] < 0.3
    assert wrong["faithfulness"] == 0.0  # faithfulness stays strict on numbers
    invented = _offline_scores("Albert Einstein was born on 14 March 1879 in Munich.")
    assert invented["faithfulness"] == 0.0 and invented["factual_correctness"] > wrong["factual_correctness"]


def test_overlap_is_a_share_and_zero_on_disagreement():
    from groundset.text.lexical import LexicalContext

    reference = LexicalContext(EINSTEIN)
    assert reference.overlap("Albert Einstein was born on 14 March 1879.") == 1.0
    assert 0.8 < reference.overlap("Albert Einstein was born on 14 March 1879 in Ulm.") < 1.0
    assert reference.overlap("Albert Einstein was born on 14 March 1880.") == 0.0  # another number
    assert reference.overlap("Albert Einstein was not born on 14 March 1879.") == 0.0  # a negation


TWO_PART = "How does Prometheus collect metrics, and how long does it keep them by default?"
COMPLETE = (
    "Prometheus pulls metrics by scraping the HTTP endpoints of its targets at regular intervals. "
    "By default it keeps the samples for 15 days."
)


def _relevancy(response: str, question: str = TWO_PART) -> float:
    from groundset.scoring import AnswerRelevancy

    return AnswerRelevancy().score(SingleTurnSample(user_input=question, response=response)).value


def test_offline_answer_relevancy_ranks_a_complete_answer_above_refusals_partial_and_padded_ones():
    """A single cosine gave a refusal that repeats the question's words a higher score than a complete
    answer; now a refusal is 0, a skipped part lowers coverage, off-topic sentences lower focus."""
    complete = _relevancy(COMPLETE)
    refusal = _relevancy("I'm not sure how Prometheus collects metrics or how long it keeps them by default.")
    docs_silent = _relevancy("The documentation does not say how Prometheus collects metrics.")
    partial = _relevancy(COMPLETE.split(". ")[0] + ".")
    padded = _relevancy(
        COMPLETE + " The project logo is orange. Many companies sponsor conferences in Europe."
    )
    assert refusal == 0.0 and docs_silent == 0.0
    assert complete > partial and complete > padded and min(partial, padded) > 0


def test_question_parts():
    from groundset.scoring.offline_relevancy import question_parts

    assert question_parts(TWO_PART) == [
        "How does Prometheus collect metrics",
        "how long does it keep them by default",
    ]
    assert question_parts("What is a counter? When should I use a gauge?") == [
        "What is a counter",
        "When should I use a gauge",
    ]
    assert question_parts("What are labels and annotations?") == ["What are labels and annotations?"]


# ----------------------------------------------------------------------------------------------------------
# issue 9, item 2: rewordings are supported; numbers (also in words), names, dates and negations still veto


STARTED = "Prometheus was started in 2012 at SoundCloud. The api-server job has four replicated instances."


def test_a_reworded_faithful_statement_is_supported():
    """Only 'prometheus', 'soundcloud' and '2012' occur literally; 'began' is close to 'started'."""
    context = LexicalContext(STARTED)
    assert context.judge("Prometheus began at SoundCloud in 2012.").supported
    assert context.judge("Work on Prometheus began at SoundCloud in 2012.").supported  # "Work" is no name
    assert not context.judge("Prometheus began at SoundCloud in 2009.").supported
    added = context.judge(
        "Prometheus began at SoundCloud in 2012, and it restarts crashed targets by itself."
    )
    assert not added.supported and "restarts crashed targets" in added.reason


def test_a_number_word_must_match():
    context = LexicalContext(STARTED)
    assert context.judge("The api-server job has four replicated instances.").supported
    verdict = context.judge("The api-server job has three replicated instances.")
    assert not verdict.supported and "three" in verdict.reason
    hours = LexicalContext("For a job that runs every 4 hours, 10 hours would be a reasonable threshold.")
    assert hours.judge(
        "Ten hours would be a reasonable threshold for a job that runs every four hours."
    ).supported
    everest = LexicalContext("A 2020 survey measured the summit of Mount Everest at 8,848.86 metres.")
    assert everest.judge("A 2020 survey put the summit of Mount Everest at about 8,849 metres.").supported
    assert not everest.judge("A 2020 survey put the summit of Mount Everest at about 8,850 metres.").supported


def test_a_wrong_name_as_the_first_word_is_not_support():
    context = LexicalContext(
        "Kubernetes was the first project to graduate; Prometheus joined the CNCF in 2016."
    )
    verdict = context.judge("Envoy was the first project to graduate; Prometheus joined the CNCF in 2016.")
    assert not verdict.supported and "envoy" in verdict.reason
    assert context.judge(
        "Kubernetes was the first project to graduate; Prometheus joined the CNCF in 2016."
    ).supported
    assert "graphite" not in critical_terms("Graphite writes series the same way.")  # the context decides


def test_a_number_or_date_must_sit_beside_what_it_is_about():
    context = LexicalContext(
        "The Berlin Wall fell on 9 November 1989, when the border crossings opened. "
        "German reunification followed on 3 October 1990."
    )
    assert context.judge(
        "Reunification came on 3 October 1990, less than a year after the Wall fell."
    ).supported
    verdict = context.judge("Reunification came on 9 November 1989, the day the border crossings opened.")
    assert not verdict.supported and "1989" in verdict.reason
    release = LexicalContext("Prometheus 3.13 was released on 2026-07-01.")
    assert release.judge("Prometheus 3.13 came out on 1 July 2026.").supported
    assert not release.judge("Prometheus 3.13 came out on 1 July 2025.").supported


def test_paths_must_occur_as_written():
    context = LexicalContext(
        "Send an HTTP POST request to the /-/reload endpoint to reload the configuration."
    )
    assert context.judge("POST to the /-/reload endpoint to reload the configuration.").supported
    assert not context.judge("POST to the /-/rollback endpoint to reload the configuration.").supported


def test_a_negation_ends_with_its_clause_and_answer_particles_negate_nothing():
    assert polarity("It doesn't; they stay exposed until someone deletes them.")[0] == set()
    assert polarity("No, the server keeps them.") == (set(), {"server", "keep"})
    context = LexicalContext(
        "Its features include no reliance on distributed storage (single nodes are autonomous)."
    )
    assert context.judge(
        "No, each node works on its own and does not need a distributed storage layer."
    ).supported
    counter = LexicalContext("Do not use a counter for the number of running processes; use a gauge instead.")
    assert counter.judge("That number can go down, so it should be a gauge, not a counter.").supported


def test_overlap_credits_a_paraphrased_right_answer():
    reference = LexicalContext("Prometheus was started in 2012 at SoundCloud.")
    assert reference.overlap("Prometheus began at SoundCloud in 2012.") > 0.9
    assert reference.overlap("Prometheus began at SoundCloud in 2009.") == 0.0
    assert LexicalContext("Releases come every 6 weeks.").overlap("A release comes every six weeks.") == 1.0
    # the unit of a number is matched as written: "months" is close to "weeks", but not the same fact
    assert (
        LexicalContext("Releases come every 6 weeks.").overlap("A release comes every six months.") == 2 / 3
    )


def test_overlap_is_zero_for_a_contradiction():
    reference = LexicalContext("No. It is disabled by default and enabled with --web.enable-admin-api.")
    assert reference.overlap("Yes; it is enabled by default, and --web.enable-admin-api restricts it.") == 0.0
    assert reference.overlap("It stays disabled by default until --web.enable-admin-api enables it.") > 0.7

    def correctness(response: str) -> float:
        reference = "No. The admin API is disabled by default and enabled with --web.enable-admin-api."
        sample = SingleTurnSample(response=response, reference=reference)
        return AnswerCorrectness(weights=(1.0, 0.0)).score(sample).value

    assert (
        correctness("Yes; the admin API is enabled by default, and --web.enable-admin-api restricts it.")
        == 0.0
    )
    assert correctness("The admin API stays off by default; --web.enable-admin-api turns it on.") > 0.5


def test_a_response_without_the_key_fact_loses_recall():
    """'Who discovered penicillin?': a response that only repeats the year has not stated the answer."""
    from groundset.scoring import FactualCorrectness

    fact = "Alexander Fleming discovered penicillin in 1928."
    without = LexicalContext("Penicillin was discovered in 1928.")
    assert without.overlap(fact, key_facts=True) == pytest.approx(0.5 * without.overlap(fact))  # no Fleming

    def recall(response: str) -> float:
        sample = SingleTurnSample(response=response, reference=fact)
        return FactualCorrectness(mode="recall").score(sample).value

    assert recall("Alexander Fleming found it in 1928.") > recall("Penicillin was discovered in 1928.")


def test_an_answer_need_not_repeat_the_question():
    """Offline correctness leaves the question's own words out of reference coverage: an elliptical right
    answer covers the reference; an answer that repeats the question but lacks the fact asked for does not."""
    from groundset.scoring import FactualCorrectness

    def recall(response: str) -> float:
        sample = SingleTurnSample(
            user_input="Who discovered penicillin?",
            response=response,
            reference="Alexander Fleming discovered penicillin in 1928.",
        )
        return FactualCorrectness(mode="recall").score(sample).value

    assert recall("Alexander Fleming, in 1928.") > recall("Penicillin was discovered in 1928.")
    assert recall("Alexander Fleming, in 1928.") >= 0.9
