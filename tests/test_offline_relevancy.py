"""Offline answer relevancy agrees with people: refusals and hedges score 0, restating the question earns
nothing, the kind of answer a question asks for must be there, and what counts is what the answer adds."""

from __future__ import annotations

import pytest

from groundset.scoring import AnswerRelevancy, SingleTurnSample
from groundset.scoring.answer_types import NAME, NUMBER, PLACE, POLAR, SPAN, STEPS, TIME, expected_kinds
from groundset.scoring.offline_relevancy import NO_ANSWER, is_noncommittal, question_parts


def _scored(question: str, response: str) -> tuple[float, str, dict]:
    result = AnswerRelevancy().score(SingleTurnSample(user_input=question, response=response))
    return result.value, result.reason, result.trace or {}


def _relevancy(question: str, response: str) -> float:
    return _scored(question, response)[0]


@pytest.mark.parametrize(
    ("question", "response"),
    [
        (
            "What does the up metric mean?",
            "It means different things, so I'd rather not guess what it means.",
        ),
        (
            "Who started the Prometheus project?",
            "It's hard to tell who started the project; many contributed.",
        ),
        ("When was Albert Einstein born?", "I can't be certain when Albert Einstein was born."),
        (
            "What is the capital of Australia?",
            "I'd prefer not to say which city is the capital of Australia.",
        ),
        ("Which port does Grafana use?", "There is no way to know which port Grafana uses on your machine."),
        ("How do I enable the admin API?", "I would need more context about your deployment to answer that."),
    ],
)
def test_a_hedged_refusal_scores_zero(question, response):
    assert is_noncommittal(response)
    assert _relevancy(question, response) == 0.0


@pytest.mark.parametrize(
    ("question", "response"),
    [
        (
            "When does Alertmanager drop an alert?",
            "Alertmanager drops an alert when there is not enough information in its labels to route it.",
        ),
        ("What does the server log about dropped samples?", "The server logs no information about them."),
        (
            "Which retention applies?",
            "The value is not specified in the config file, so the default applies.",
        ),
        ("Who decides my level?", "Your manager decides it. If you're not sure, consult your manager."),
    ],
)
def test_a_fact_about_missing_information_is_an_answer_not_a_refusal(question, response):
    """A refusal or ignorance phrase counts only as the answer's claim about itself (as in
    ``refusal_correctness``), not in a clause about something else."""
    assert not is_noncommittal(response)
    assert _relevancy(question, response) > 0.0


def test_a_response_that_only_restates_the_question_or_hedges_scores_zero():
    """No content word beyond the question's, or "depends on" with nothing concrete: not an answer."""
    restating = _scored("What port does the Node Exporter listen on?", "The Node Exporter listens on a port.")
    assert restating[0] == 0.0 and restating[1] == NO_ANSWER
    vague = "How to name a metric that counts requests is up to you, and it depends on what you prefer."
    assert _relevancy("How should I name a metric that counts requests?", vague) == 0.0


def test_a_hedge_with_a_concrete_detail_still_answers():
    question = "How long does Prometheus keep data?"
    answer = _relevancy(question, "It depends on --storage.tsdb.retention.time, which defaults to 15d.")
    assert answer > 0.0


def test_a_hedge_clause_beside_an_answer_lowers_the_score():
    question = "What is the difference between a counter and a gauge?"
    direct = _relevancy(question, "A counter only goes up or resets to zero; a gauge can also go down.")
    hedged = _relevancy(
        question,
        "Counters and gauges are both metric types, and the difference depends on what you want to measure.",
    )
    assert direct > hedged


def test_a_when_question_answered_without_a_time_scores_below_one_with_a_date():
    question = "When was Albert Einstein born?"
    dated = _scored(question, "He was born on 14 March 1879.")
    undated = _scored(question, "Albert Einstein was born in Ulm, in the Kingdom of Wurttemberg.")
    assert dated[0] > undated[0] > 0.0
    assert undated[2]["missing"] == [TIME] and "no time" in undated[1]
    assert dated[2]["missing"] == []


def test_an_answer_to_a_nearby_question_loses_to_the_asked_kind():
    """ "Released on a date" is on topic for "how long is it supported", but no span of time."""
    question = "How long is Prometheus 3.5 supported?"
    right = _relevancy(question, "As an LTS release, 3.5 gets bug and security fixes until 31 July 2026.")
    wrong = _relevancy(question, "Prometheus 3.5 was released on 14 July 2025.")
    assert right > wrong


def test_a_short_direct_answer_beats_a_long_one_that_restates_the_question():
    question = "Who discovered penicillin, and in what year?"
    short = _relevancy(question, "Alexander Fleming, in 1928.")
    restating = _relevancy(
        question,
        "Penicillin was discovered by Alexander Fleming, and the discovery of penicillin is famous; "
        "penicillin was a great discovery.",
    )
    assert short > restating


def test_what_a_sentence_adds_counts_not_the_question_words_it_repeats():
    """The brief's failing pair: the answer with the year asked for beats the one echoing "penicillin"."""
    question = "Who discovered penicillin, and in what year?"
    assert _relevancy(question, "Alexander Fleming discovered it in 1928.") > _relevancy(
        question, "Alexander Fleming discovered penicillin."
    )


def test_off_topic_sentences_lower_focus():
    question = "What is a job in Prometheus?"
    answer = "A job is a collection of instances with the same purpose, such as replicas of one process."
    padded = (
        answer + " In everyday English a job can also mean paid work, and job interviews often ask about "
        "strengths. Many people change jobs every few years."
    )
    assert _relevancy(question, answer) > _relevancy(question, padded)


def test_question_parts_split_a_trailing_prepositional_question():
    assert question_parts("Who discovered penicillin, and in what year?") == [
        "Who discovered penicillin",
        "in what year",
    ]


@pytest.mark.parametrize(
    ("part", "kinds"),
    [
        ("When was Albert Einstein born?", [TIME]),
        ("When and where was Albert Einstein born?", [TIME, PLACE]),
        ("in what year", [TIME]),
        ("How long is Prometheus 3.5 supported?", [SPAN]),
        ("How many bytes are in a kilobyte?", [NUMBER]),
        ("What is the default port of Grafana?", [NUMBER]),
        ("Who painted the Mona Lisa?", [NAME]),
        ("How do I reload the configuration?", [STEPS]),
        ("Can Prometheus be made highly available?", [POLAR]),
        ("What happens when a label's value changes?", []),  # "when" opens no question here
        ("When should I use a gauge?", []),  # a condition, not a time
        ("What is an exporter?", []),
        ("How does Prometheus collect metrics?", []),
    ],
)
def test_expected_kinds(part, kinds):
    assert expected_kinds(part) == kinds


def test_english_rules_leave_other_languages_alone():
    """A German answer with no English time word is not marked as missing a time; a German answer that
    only restates the question still earns nothing (that rule needs no English)."""
    value, reason, trace = _scored(
        "Wann wurde Albert Einstein geboren?", "Er kam am 14. März 1879 in Ulm zur Welt."
    )
    assert value > 0.0 and trace["missing"] == [] and "no " not in reason
    question = "Wie viele Tage speichert Prometheus die Daten?"
    assert _relevancy(question, "Prometheus speichert die Daten.") == 0.0
    assert _relevancy(question, "Standardmäßig fünfzehn Tage lang.") > 0.0


def test_an_unrelated_answer_earns_no_base_credit():
    """The base credit is for clauses about the question: no shared word, no asked-for kind, no cosine."""
    question = "What is the weather like in Paris today?"
    unrelated = _relevancy(question, "Prometheus scrapes metrics from its targets over HTTP.")
    related = _relevancy(question, "It is sunny and mild, around 18 degrees, with a light wind.")
    assert unrelated < 0.25 < related


def test_kinds_accept_answers_phrased_without_the_obvious_marker():
    """Lenient on purpose: a command answers "how do I", a group of people answers "who", "yes" a yes/no."""
    command = _scored("How do I validate my configuration?", "promtool check config prometheus.yml")
    team = _scored("Who maintains Prometheus?", "The Prometheus team, maintainers from several companies.")
    yes = _scored("Can Prometheus be made highly available?", "Yes, by running two identical servers.")
    assert [command[2]["missing"], team[2]["missing"], yes[2]["missing"]] == [[], [], []]
    off = _scored("Does Prometheus support remote write?", "Prometheus is written in Go.")
    assert off[2]["missing"] == [POLAR]


def test_an_answer_that_never_names_the_subject_scores_lower():
    """Another section's answer on the same page is on topic by embedding and shares the product's name,
    but names nothing the question asks about: the subject factor halves it at most."""
    question = "How do I send a request with a timeout in Requests?"
    right = _relevancy(
        question, "Pass timeout=5 to requests.get; Requests stops waiting for a response after 5 seconds."
    )
    other = _relevancy(question, "Requests can verify SSL certificates for HTTPS, just like a web browser.")
    assert right > other
    assert (
        "x subject 0.833"
        in _scored(question, "Requests can verify SSL certificates, just like a web browser.")[1]
    )


def test_german_ignorance_and_hedges_do_not_answer():
    question = "Wie lange speichert Prometheus Daten standardmäßig?"
    answer = "Prometheus speichert Daten standardmäßig 15 Tage lang."
    assert _scored(question, "Da bin ich mir nicht sicher, das steht in der Dokumentation.")[0] == 0.0
    hedge = "Das hängt ganz von Ihrer Umgebung ab, und die Dauer ist von Fall zu Fall verschieden."
    assert _relevancy(question, answer) > _relevancy(question, hedge)
    # A condition about the reader is not the answer's ignorance.
    assert _relevancy(question, "Wenn Sie nicht sicher sind, prüfen Sie den Wert 15d im Flag.") > 0.0
