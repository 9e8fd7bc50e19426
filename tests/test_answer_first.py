# ruff: noqa: E501  (tables of sentences and expected questions read best one per line)
"""Answer-first offline generation: facts, topics, templates, multi-hop pairs and spread."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from groundset.core.engine import CallEngine
from groundset.kg import build_knowledge_graph
from groundset.synthesizers.questions.answer_first import answer_slots, fact_question, fact_reference
from groundset.synthesizers.questions.templates import follow_up, pair_question, single_question
from groundset.synthesizers.scenarios.answer_patterns import invert
from groundset.synthesizers.scenarios.fact_index import FactIndex
from groundset.synthesizers.scenarios.fact_pairs import comparable_pairs, same_subject_pairs
from groundset.synthesizers.scenarios.facts import facts_of, subject_key
from groundset.synthesizers.scenarios.passages import passages
from groundset.synthesizers.scenarios.spread import ContextBudget
from groundset.synthesizers.scenarios.topics import worth_asking


def one_fact(text: str, **kwargs):
    found = facts_of(text, **kwargs)
    assert len(found) == 1, found
    return found[0]


def ask(text: str, seed: int = 0) -> str:
    return single_question(one_fact(text), random.Random(seed))


# --- patterns: the question each kind of sentence answers ----------------------------------------
@pytest.mark.parametrize(
    ("sentence", "pattern", "question"),
    [
        ("A counter is a cumulative metric that only goes up.", "definition", r"^(What (exactly )?is a counter|Can you explain what a counter is)\?$"),
        ("The Pushgateway is used to push metrics from batch jobs.", "purpose", r"^(What is the Pushgateway used for|Why would I use the Pushgateway)\?$"),
        ("The default retention time is 15 days.", "default", r"^What is the default retention time\?$"),
        ("The scrape interval defaults to one minute for every job.", "default", r"^(What does the scrape interval default to|What is the default for the scrape interval)\?$"),
        ("A GaugeHistogram sample MUST contain the gcount and gsum values.", "constraint", r"^What must a GaugeHistogram sample contain\?$"),
        ("The request payload must be encoded as a set of protobuf messages.", "constraint", r"^How must the request payload be encoded\?$"),
        ("To reload the configuration, send SIGHUP to the server process.", "procedure", r"^How (do you|can I|do I) reload the configuration\?$"),
        # requests-docs, prometheus-docs and handbook sentences: the parameter, the tool, the use
        ("You can tell Requests to stop waiting for a response after a given number of seconds with the timeout parameter.", "procedure", r"^How (do you|can I|do I) tell Requests to stop waiting for a response after a given number of seconds\?$"),
        ("You can use both summaries and histograms to calculate so-called quantiles.", "procedure", r"^(What should you use to|How do you) calculate so-called quantiles\?$"),
        ("Paid parental leave can be used for the birth, adoption, or foster care placement of a child.", "purpose", r"^What can [Pp]aid parental leave be used for\?$"),
        ("If the Alertmanager is down, Prometheus keeps retrying the notifications.", "cause", r"^What happens if the Alertmanager is down\?$"),
        ("Unlike gauges, counters can never decrease during a process lifetime.", "comparison", r"^(How do counters differ from gauges|What is the difference between counters and gauges)\?$"),
        ("Recording rules are limited to 5000 series per group.", "value", r"^(What are Recording rules limited to|How large can Recording rules be)\?$"),
    ],
)  # fmt: skip
def test_each_pattern_asks_what_its_sentence_answers(sentence, pattern, question):
    fact = one_fact(sentence)
    assert fact.pattern == pattern
    for seed in range(4):
        assert re.match(question, single_question(fact, random.Random(seed))), single_question(
            fact, random.Random(seed)
        )
    # the reference answers by construction: it holds the subject and the answer slot
    assert all(slot in fact.reference for slot in answer_slots([fact]))


@pytest.mark.parametrize(
    "sentence",
    [
        "This is a good idea.",  # no subject worth asking about
        "The following flags are supported:",  # a list stub
        "You can do it like this: run the binary.",  # points at a listing
        "See the configuration page for details.",
        "The result is a list of values.",  # generic subject, weak definition
        "It is used for that.",  # answer only points elsewhere
        "Info MetricFamilies are designed for this.",
        "guess is a variable that holds the input.",  # starts mid-sentence / local name
        "Labels are the new hierarchies of metrics.",  # "the new": not a definition
    ],
)
def test_sentences_that_answer_nothing_give_no_fact(sentence):
    assert facts_of(sentence) == []


def test_a_condition_must_name_a_topic():
    assert facts_of("If the meeting is over, everyone goes home early.") == []
    fact = one_fact(
        "If the data disk fills up, the server stops ingesting new samples.", topics=frozenset({"data disk"})
    )
    assert single_question(fact, random.Random(0)) == "What happens if the data disk fills up?"
    # "the event" of a single noun is the one the page set up, even when the chunk's topics hold the word
    assert (
        facts_of("If the event isn't recurring, plan the next one early.", topics=frozenset({"event"})) == []
    )


def test_invert_makes_a_question_body_of_a_clause():
    assert invert("counters are reset on restart") == "are counters reset on restart"
    assert (
        invert("the server should be restarted after an upgrade")
        == "should the server be restarted after an upgrade"
    )
    assert invert("nothing to invert here at all") == ""


# --- passages: what may become a reference ---------------------------------------------------------
MARKDOWN = """\
# Storage

Prometheus stores its data on the local disk. It keeps two hours of data in memory.

```yaml
retention: 15d
```

| flag | meaning |
|------|---------|
| `--storage.tsdb.path` | Where the database lives. |

- `--storage.tsdb.retention.time`: Defaults to 15 days.
- The following options exist:

<!-- internal note: keep in sync -->
<div class="note">Compaction is a background process that merges blocks.</div>
"""


def test_passages_are_prose_only():
    found = [p.sentence for p in passages(MARKDOWN)]
    assert "Prometheus stores its data on the local disk." in found
    assert not any("retention: 15d" in s or "Where the database lives" in s for s in found)  # code, tables
    assert not any(s.endswith(":") or "internal note" in s or "<" in s for s in found)
    labelled = [p for p in passages(MARKDOWN) if p.label]
    assert [p.label for p in labelled] == ["--storage.tsdb.retention.time"]


def test_a_leading_pronoun_is_resolved_from_the_previous_sentence():
    # one fact per sentence: the first is a definition, the second a purpose about the same subject
    facts = facts_of(
        "The Pushgateway is a small service for batch jobs. It is used to push metrics from short jobs."
    )
    assert [f.pattern for f in facts] == ["definition", "purpose"]
    purpose = facts[1]
    assert purpose.reference.startswith("The Pushgateway is used to push metrics")
    assert single_question(purpose, random.Random(0)) in (
        "What is the Pushgateway used for?",
        "Why would I use the Pushgateway?",
    )


def test_an_unresolvable_pronoun_gives_no_fact():
    assert facts_of("It is used to push metrics from short-lived batch jobs.") == []
    assert facts_of("This is a cumulative metric that only goes up.") == []


def test_a_labelled_list_item_is_a_fact_about_its_label():
    fact = one_fact("- `--storage.tsdb.retention.time`: Defaults to 15 days.\n")
    assert fact.pattern == "default" and fact.focus == "--storage.tsdb.retention.time"
    assert fact.reference == "--storage.tsdb.retention.time: Defaults to 15 days."
    assert single_question(fact, random.Random(1)).startswith(
        ("What does --storage", "What is the default for --storage")
    )


def test_a_continuing_sentence_joins_the_reference():
    fact = facts_of(
        "A histogram is a metric that samples observations. It also provides a sum of all values."
    )[0]
    assert (
        fact.reference
        == "A histogram is a metric that samples observations. It also provides a sum of all values."
    )


def test_a_heading_line_of_a_plain_text_file_is_not_part_of_the_subject():
    fact = one_fact("Counter\nA counter is a cumulative metric that only goes up.\n")
    assert fact.focus == "counter" and fact.reference.startswith("A counter")


# --- topics ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("subject", "codes", "expected"),
    [
        ("retention period", (), True),
        ("Prometheus", (), True),
        ("scrape_interval", ("scrape_interval",), True),
        ("Box<T>", ("Box<T>",), True),
        ("guess", ("guess",), False),  # a local variable in a listing
        ("main.rs", (), False),  # a file name alone
        ("<Listing>", (), False),
        ("value", (), False),
        ("the following", (), False),
        ("Counter A counter", (), False),
        ("Prometheus usually", (), False),
        ("higher values", (), False),
    ],
)
def test_only_subjects_a_user_would_ask_about(subject, codes, expected):
    assert worth_asking(subject, "subject", frozenset(codes)) is expected


def test_procedure_goals_need_a_real_object():
    assert worth_asking("reload the configuration", "procedure")
    assert not worth_asking("do this", "procedure")
    assert not worth_asking("continue learning about it", "procedure")


def test_subject_keys_merge_spellings_of_one_subject():
    assert subject_key("The Remote-Write protocols") == subject_key("remote write protocol")
    assert subject_key("client libraries") == subject_key("A client library")


# --- questions from facts ----------------------------------------------------------------------------
def test_agreement_and_follow_up_pronouns():
    plural = facts_of("Counters must start at zero when the process starts. Each counter is a number.")[0]
    assert single_question(plural, random.Random(0)) == "What must counters start at?"
    assert follow_up(plural) == "what must they start at"
    assert follow_up(plural, plural=False) == "what must it start at"


def test_pair_question_asks_for_both_facts():
    what = one_fact("A gauge is a metric that can go up and down.")
    rule = one_fact("Gauges must never be reset by the client library.")
    question = pair_question(what, rule, random.Random(0))
    assert question.endswith("and how must it be reset?") or ", and " in question
    assert question.count("?") == 1 and "gauge" in question.lower()


@pytest.mark.parametrize("style", ["perfect_grammar", "poor_grammar", "web_search", "misspelled"])
@pytest.mark.parametrize("length", ["short", "medium", "long"])
def test_styles_and_lengths_keep_the_subject_and_add_no_filler(style, length):
    fact = one_fact("The Pushgateway is used to push metrics from batch jobs.")
    question = fact_question("single_hop_specific", [fact], style=style, length=length, seed=3)
    assert "pushgateway" in question.lower()
    assert not re.search(r"\b(\w+)\s+\1\b", question, re.IGNORECASE)
    if style == "web_search":
        assert "?" not in question and len(question.split()) <= 6
        assert not re.search(r"documentation|docs|according|practice|production|team", question)
    if length == "long" and style != "web_search":
        assert not question.lower().startswith("as ")  # no persona lead-in: readers take it for a template


def test_medium_questions_are_scoped_to_the_product():
    fact = one_fact("The default retention time is 15 days.")
    question = fact_question("single_hop_specific", [fact], length="medium", scope="Prometheus")
    assert question == "What is the default retention time in Prometheus?"


def test_reference_is_every_fact_once_per_line():
    a = one_fact("A gauge is a metric that can go up and down.")
    assert fact_reference([a, a]) == a.reference


# --- multi-hop pairs: a shared word is not a shared subject --------------------------------------
def _graph(tmp_path: Path, files: dict[str, str]):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return build_knowledge_graph(tmp_path, engine=CallEngine(cache=False)).kg


DIAGRAMS = """# Drawing flow charts

A box is a rectangle drawn around each step of a flow chart. Boxes are joined by arrows that show the order of the steps.
"""
HEAP = """# Values on the heap

A box must own exactly one value that lives on the heap. When the box goes out of scope, the heap memory is freed.
"""
RETENTION = """# Retention

The retention period is the time for which the server keeps samples on disk before compaction deletes them.
"""
RETENTION_FLAG = """# Storage flags

The retention period must be set with the storage flag when the server starts, and it applies to every block on disk.
"""


def test_a_word_with_two_meanings_does_not_link_two_chunks(tmp_path):
    kg = _graph(tmp_path, {"a/diagrams.md": DIAGRAMS, "b/heap.md": HEAP})
    index = FactIndex.of(kg)
    assert sum(len(f) for f in index.facts.values()) >= 2  # both sides state a fact about "box"
    assert list(same_subject_pairs(kg, index, random.Random(0))) == []


def test_two_facts_about_one_subject_make_a_pair_that_needs_both(tmp_path):
    kg = _graph(tmp_path, {"a/retention.md": RETENTION, "b/flags.md": RETENTION_FLAG})
    index = FactIndex.of(kg)
    pairs = list(same_subject_pairs(kg, index, random.Random(0)))
    assert len(pairs) == 1
    (chunk_a, first), (chunk_b, second) = pairs[0]
    assert first.pattern == "definition" and second.pattern == "constraint"
    assert second.answer.casefold() not in kg.get(chunk_a)["text"].casefold()  # needs both contexts
    question = pair_question(first, second, random.Random(0))
    assert "retention period" in question and ", and " in question


def test_comparisons_join_two_defined_subjects_the_corpus_relates(tmp_path):
    counter = "# Counter\n\nA counter is a cumulative metric whose value only goes up.\n"
    gauge = "# Gauge\n\nA gauge is a metric whose value can go up and down.\n"
    related = " Pick a counter or a gauge by asking whether the value can ever go down.\n"
    kg = _graph(
        tmp_path / "related", {"types/counter.md": counter + related, "types/gauge.md": gauge + related}
    )
    pairs = list(comparable_pairs(kg, FactIndex.of(kg), random.Random(0)))
    assert len(pairs) == 1
    _, (_, a), (_, b) = pairs[0]
    assert {a.focus, b.focus} == {"counter", "gauge"}
    # the same two definitions, but nothing in the corpus names the two together: no comparison
    kg = _graph(tmp_path / "apart", {"types/counter.md": counter, "types/gauge.md": gauge})
    assert list(comparable_pairs(kg, FactIndex.of(kg), random.Random(0))) == []


# --- spread --------------------------------------------------------------------------------------------
def test_a_context_backs_at_most_two_samples_per_hundred():
    budget = ContextBudget(100)
    assert budget.take(["ctx a"]) and budget.take(["ctx a", "ctx b"])
    assert not budget.take(["ctx a"])  # used up
    assert not budget.take(["CTX  A"])  # the same text, however it is spaced or cased
    budget.give_back(["ctx a"])
    assert budget.take(["ctx a"])
    assert ContextBudget(300).cap == 6
    budget.relaxed = True
    assert budget.take(["ctx a"]) and budget.overused() == 1
