"""Offline questions and references: grounded in real pages, styled, sized and deterministic."""

from __future__ import annotations

import re

import pytest

from groundset.synthesizers.questions.offline import (
    KINDS,
    answer_sentences,
    offline_question,
    offline_reference,
    term_pattern,
)
from groundset.synthesizers.questions.styles import LENGTHS, STYLES, agreement, apply_style
from groundset.text.plaintext import plain_text

from .corpora import PROMETHEUS_DOCS

DATA_MODEL = (PROMETHEUS_DOCS / "concepts" / "data_model.md").read_text(encoding="utf-8")
METRIC_TYPES = (PROMETHEUS_DOCS / "concepts" / "metric_types.md").read_text(encoding="utf-8")
NAMING = (PROMETHEUS_DOCS / "practices" / "naming.md").read_text(encoding="utf-8")
PAGES = {"data_model": DATA_MODEL, "metric_types": METRIC_TYPES, "naming": NAMING}


def words(text: str) -> int:
    return len(text.split())


def is_typo(original: str, changed: str) -> bool:
    """One adjacent swap, one dropped letter or one doubled letter."""
    if len(changed) == len(original):
        diff = [i for i, (a, b) in enumerate(zip(original, changed, strict=True)) if a != b]
        return len(diff) == 2 and diff[1] == diff[0] + 1 and original[diff[0]] == changed[diff[1]]
    if len(changed) == len(original) - 1:
        return any(original[:i] + original[i + 1 :] == changed for i in range(len(original)))
    if len(changed) == len(original) + 1:
        return any(
            original[: i + 1] + original[i] + original[i + 1 :] == changed for i in range(len(original))
        )
    return False


# --- answer_sentences -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "term", "needle"),
    [
        ("metric_types", "counter", "counter"),
        ("metric_types", "counters", "counter"),  # plural term, singular text
        ("metric_types", "gauge", "Gauges are typically used"),  # singular term, plural text
        ("data_model", "key value pairs", "key-value pairs"),  # space term, hyphenated text
        ("data_model", "time-series", "time series"),  # hyphenated term, spaced text
        ("naming", "namespace", "namespace"),  # only ever written as inline code
        ("metric_types", "`histogram_quantile()`", "histogram_quantile()"),
        ("naming", "base units", "base units"),
    ],
)
def test_answer_sentences_are_verbatim_and_mention_the_term(page: str, term: str, needle: str) -> None:
    plain = plain_text(PAGES[page])
    found = answer_sentences(term, PAGES[page])
    assert 1 <= len(found) <= 2
    assert sum(len(s) for s in found) + len(found) - 1 <= 400
    assert any(needle.lower() in s.lower() for s in found)
    pattern = term_pattern(term)
    assert pattern is not None
    positions = [plain.find(s) for s in found]
    assert all(p >= 0 for p in positions), found
    assert positions == sorted(positions)  # document order
    assert all(pattern.search(s) for s in found)


def test_answer_sentences_prefer_defining_prose_over_headings_and_lists() -> None:
    counter = answer_sentences("counter", METRIC_TYPES)
    assert counter[0].startswith("A counter is a cumulative metric")
    assert "Counter" not in counter  # the heading is only the term
    assert all(not s.endswith(":") for s in counter)  # "...documentation for counters:" is a lead-in
    assert answer_sentences("samples", DATA_MODEL) == ["Samples form the actual time series data."]
    histogram = answer_sentences("histogram", METRIC_TYPES)
    assert "A histogram records observations" in " ".join(histogram)
    summary = answer_sentences("summary", METRIC_TYPES)
    assert all(not s.startswith("See ") for s in summary)  # a cross-reference answers nothing


def test_answer_sentences_on_synthetic_markdown() -> None:
    markdown = (
        "# Scrape interval\n\n| Setting | Value |\n|---|---|\n| scrape interval | 15s |\n\n"
        "The scrape interval sets how often targets are scraped by the server.\n\n"
        "* scrape interval per job\n\nA `scrape_interval` key overrides it. Counting is unrelated.\n"
    )
    assert answer_sentences("scrape interval", markdown, max_sentences=3) == [
        "The scrape interval sets how often targets are scraped by the server."
    ]
    # Inline code loses its backticks in plain text; the underscore form is its own term.
    assert answer_sentences("`scrape_interval`", markdown) == ["A scrape_interval key overrides it."]
    assert answer_sentences("count", markdown) == []  # "Counting" is another word
    for heading in (
        "## How metric names are built in practice",
        "How metric names are built in practice\n---",
    ):
        page = f"{heading}\n\nThe rules for metric names are listed below.\n"
        assert answer_sentences("metric names", page) == ["The rules for metric names are listed below."]
    only_fragments = "# Relabeling\n\n## Relabeling rules\n\n* relabeling"
    assert answer_sentences("relabeling", only_fragments) == ["Relabeling rules"]  # better than nothing
    assert answer_sentences("", markdown) == []
    assert answer_sentences("absent", markdown) == []


def test_answer_sentences_limits() -> None:
    assert len(answer_sentences("label", DATA_MODEL, max_sentences=1)) == 1
    assert len(answer_sentences("label", DATA_MODEL, max_sentences=3)) == 3
    short = answer_sentences("label", DATA_MODEL, max_sentences=5, max_chars=150)
    assert short and len(" ".join(short)) <= 150
    cut = answer_sentences("native histograms", METRIC_TYPES, max_chars=60)
    assert len(cut) == 1 and len(cut[0]) <= 60 and cut[0].endswith("...")
    assert plain_text(METRIC_TYPES).find(cut[0][:-3]) >= 0
    late = answer_sentences("protobuf", METRIC_TYPES, max_chars=80)  # the term sits past the limit
    assert len(late[0]) <= 80 and "protobuf" in late[0] and late[0].startswith("...")
    assert plain_text(METRIC_TYPES).find(late[0].strip(".")) >= 0
    with pytest.raises(ValueError):
        answer_sentences("label", DATA_MODEL, max_sentences=0)


# --- styles ------------------------------------------------------------------------------------

QUESTION = "How does the scrape interval work in Prometheus, and what is the default value?"
PROTECT = ["scrape interval", "prometheus"]


def test_unknown_style_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="perfect_grammar, poor_grammar, web_search, misspelled"):
        apply_style(QUESTION, "shouting", seed=0)


def test_perfect_and_poor_grammar() -> None:
    assert apply_style(QUESTION, "perfect_grammar", seed=3, protect=PROTECT) == QUESTION
    for seed in range(10):
        poor = apply_style(QUESTION, "poor_grammar", seed=seed, protect=PROTECT)
        assert poor != QUESTION and poor[0].islower() and not poor.endswith("?")
        assert poor.startswith("how scrape interval work in Prometheus")  # auxiliary and article dropped
        assert "Prometheus" in poor  # protected: keeps its capital
    assert apply_style("Which metric is it?", "poor_grammar", seed=0) != "Which metric is it?"


def test_web_search_is_a_keyword_query() -> None:
    assert apply_style(QUESTION, "web_search", seed=0, protect=PROTECT) == (
        "scrape interval work prometheus default value"
    )
    query = apply_style("What is meant by a counter?", "web_search", seed=0, protect=["counter"])
    assert "?" not in query and query.startswith("counter") and words(query) == 2
    assert apply_style("What is it?", "web_search", seed=0)  # nothing but stop words: never empty
    long = "As an SRE, " + " ".join(f"word{i}" for i in range(30)) + " about the scrape interval?"
    assert words(apply_style(long, "web_search", seed=0, protect=PROTECT)) <= 11


def test_misspelled_makes_one_or_two_typos_outside_protected_terms() -> None:
    question = "Which requirements apply to metric names when exporters register collectors?"
    outputs = set()
    for seed in range(30):
        typo = apply_style(question, "misspelled", seed=seed, protect=["metric names", "exporters"])
        outputs.add(typo)
        assert "metric names" in typo and "exporters" in typo
        changed = [(a, b) for a, b in zip(question.split(), typo.split(), strict=True) if a != b]
        assert 1 <= len(changed) <= 2, typo
        for original, new in changed:
            assert len(original.strip("?")) >= 5 and is_typo(original, new)
    assert len(outputs) > 5  # the seed picks words and edits
    assert apply_style(question, "misspelled", seed=7, protect=["metric names"]) == apply_style(
        question, "misspelled", seed=7, protect=["metric names"]
    )
    # Case-insensitive protection keeps the text's own spelling of the term.
    assert "Prometheus" in apply_style(QUESTION, "misspelled", seed=1, protect=["prometheus"])


# --- offline_question --------------------------------------------------------------------------

COUNTER = answer_sentences("counter", METRIC_TYPES)
LABELS_A, LABELS_B = answer_sentences("labels", DATA_MODEL), answer_sentences("labels", NAMING)
CASES = {
    "single_hop_specific": (["counter"], COUNTER),
    "multi_hop_specific": (["labels", "Data model", "Metric and label naming"], LABELS_A + LABELS_B),
    "multi_hop_abstract": (["metric names", "Data model", "Metric types", "Naming"], LABELS_A + LABELS_B),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("style", STYLES)
def test_every_kind_style_and_length(kind: str, style: str) -> None:
    terms, evidence = CASES[kind]
    sized = {}
    for length in LENGTHS:
        question = offline_question(kind, terms, evidence, style=style, length=length, seed=2)
        assert question == offline_question(kind, terms, evidence, style=style, length=length, seed=2)
        assert all(term.lower() in question.lower() for term in terms), question
        assert style != "web_search" or "?" not in question
        sized[length] = question
    assert words(sized["short"]) <= 12 or kind == "multi_hop_abstract"
    assert words(sized["short"]) <= words(sized["medium"]) <= words(sized["long"])
    if style in ("perfect_grammar", "misspelled"):
        assert words(sized["long"]) >= words(sized["medium"]) and not sized["long"].startswith("As ")


def test_seeds_pick_different_templates_and_evidence_picks_the_family() -> None:
    by_seed = {offline_question("single_hop_specific", ["counter"], COUNTER, seed=s) for s in range(12)}
    assert len(by_seed) >= 3
    shorts = {
        offline_question("single_hop_specific", ["counter"], COUNTER, length="short", seed=s)
        for s in range(12)
    }
    definitions = {
        "What is meant by a counter?",
        "How is a counter defined?",
        "What exactly is a counter?",
        "How does the documentation define a counter?",
    }
    assert len(shorts) > 1 and shorts <= definitions  # "A counter is a ..." is a definition
    required = answer_sentences("metric names", DATA_MODEL)  # "Metric names SHOULD specify ..."
    question = offline_question("single_hop_specific", ["metric names"], required, length="short", seed=1)
    assert re.search(r"requir|rules|keep in mind", question), question
    default = ["The scrape interval defaults to one minute when it is not set."]
    assert "default" in offline_question("single_hop_specific", ["scrape interval"], default, length="short")
    duration = ["Blocks are compacted after 2h."]
    question = offline_question("single_hop_specific", ["blocks"], duration, length="short", seed=4)
    assert re.search(r"long|duration|hours", question), question


def test_multi_hop_labels_come_from_the_evidence_when_not_given() -> None:
    first, last = "Labels let you capture different instances.", "Avoid labels with high cardinality."
    question = offline_question("multi_hop_specific", ["labels"], [first, last], length="short", seed=0)
    assert "labels" in question and "different instances" in question and "high cardinality" in question
    lone = offline_question("multi_hop_specific", ["labels"], [], length="short", seed=0)
    assert "labels" in lone and "instances" not in lone
    abstract = offline_question("multi_hop_abstract", ["time series", "A", "B", "C"], [], length="short")
    assert all(label in abstract for label in ("A, B and C", "time series"))


def test_offline_question_rejects_bad_arguments() -> None:
    for kind, terms, options in [
        ("triple_hop", ["x"], {}),
        ("single_hop_specific", [""], {}),
        ("single_hop_specific", [], {}),
        ("single_hop_specific", ["x"], {"length": "huge"}),
        ("single_hop_specific", ["x"], {"style": "yelling"}),
    ]:
        with pytest.raises(ValueError):
            offline_question(kind, terms, ["x is y."], **options)


def test_grammar_helpers() -> None:
    assert agreement("counter") == {"be": "is", "do": "does", "a_term": "a counter"}
    assert agreement("histograms")["a_term"] == "histograms" and agreement("histograms")["be"] == "are"
    assert agreement("time series")["be"] == "is" and agreement("Prometheus")["a_term"] == "Prometheus"
    assert (
        agreement("exemplar")["a_term"] == "an exemplar" and agreement("relabeling")["a_term"] == "relabeling"
    )


# --- offline_reference -------------------------------------------------------------------------


def test_offline_reference_keeps_sentences_verbatim_in_order_without_duplicates() -> None:
    groups = [LABELS_A, [LABELS_A[0], *LABELS_B], ["  ", LABELS_B[-1]]]
    reference = offline_reference(groups)
    assert reference == "\n".join([*LABELS_A, *LABELS_B])
    assert all(reference.count(sentence) == 1 for sentence in LABELS_A + LABELS_B)
    assert offline_reference([]) == ""
