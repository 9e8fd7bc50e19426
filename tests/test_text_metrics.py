"""Model-free text metrics: exact match, presence, string similarity, BLEU, chrF, ROUGE.

BLEU, chrF and ROUGE must give the reference libraries' own numbers: they are compared with sacrebleu and
rouge-score called directly on real documentation sentences.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest
import sacrebleu
from rapidfuzz.distance import Hamming, Jaro, JaroWinkler, Levenshtein
from rouge_score.rouge_scorer import RougeScorer

from groundset.scoring import EvaluationDataset, SingleTurnSample, evaluate
from groundset.scoring.metrics.overlap import BleuScore, ChrfScore, RougeScore, WordTokenizer
from groundset.scoring.metrics.text import ExactMatch, NonLLMStringSimilarity, StringPresence
from groundset.text.nlp import tokens

from .corpora import PROMETHEUS_DOCS

# Reference sentences copied from the Prometheus documentation (shared corpus prometheus-docs, files named
# below; https://github.com/prometheus/docs, Apache License 2.0, Copyright The Prometheus Authors), line
# breaks joined. The responses are paraphrases and partial answers written for these tests.
CORPUS_PAIRS = [
    (
        "introduction/overview.md",
        "Prometheus collects and stores its metrics as time series data, i.e. metrics information is stored "
        "with the timestamp at which it was recorded, alongside optional key-value pairs called labels.",
        "Prometheus stores metrics as time series: each value is stored with the timestamp when it was "
        "recorded and optional key-value labels.",
    ),
    (
        "introduction/overview.md",
        "Metrics are numerical measurements in layperson terms.",
        "In layperson terms, metrics are numerical measurements.",
    ),
    (
        "introduction/overview.md",
        "The term time series refers to the recording of changes over time.",
        "A time series records how something changes.",
    ),
    (
        "concepts/metric_types.md",
        "The Prometheus instrumentation libraries offer four core metric types.",
        "Prometheus client libraries offer four metric types.",
    ),
    (
        "concepts/metric_types.md",
        "Do not use a counter to expose a value that can decrease.",
        "Never use a counter for a value that can go down.",
    ),
    (
        "concepts/metric_types.md",
        "As such, a histogram is essentially a bucketed counter.",
        "A histogram is a bucketed counter.",
    ),
    (
        "concepts/data_model.md",
        "Every time series is uniquely identified by its metric name and optional key-value pairs called "
        "labels.",
        "A time series is identified by its metric name and its labels.",
    ),
    (
        "concepts/data_model.md",
        "Labels with an empty label value are considered equivalent to labels that do not exist.",
        "An empty label value is the same as a label that does not exist.",
    ),
    (
        "concepts/data_model.md",
        "The change of any label's value, including adding or removing labels, will create a new time "
        "series.",
        "Changing, adding or removing a label creates a new time series.",
    ),
    (
        "concepts/metric_types.md",
        "A _gauge_ is a metric that represents a single numerical value that can arbitrarily go up and down.",
        "Gauges represent single numerical values which can go up and down arbitrarily.",
    ),
]
PAIRS = [(reference, response) for _, reference, response in CORPUS_PAIRS]
TEXT_METRICS = [ExactMatch, StringPresence, NonLLMStringSimilarity, BleuScore, ChrfScore, RougeScore]


def sample(response: str, reference: str) -> SingleTurnSample:
    return SingleTurnSample(user_input="q", response=response, reference=reference)


def value(metric, response: str, reference: str) -> float:
    return metric.score(sample(response, reference)).value


@pytest.mark.skipif(not PROMETHEUS_DOCS.is_dir(), reason="shared corpus not present")
def test_reference_sentences_are_quoted_from_the_corpus():
    for path, reference, _ in CORPUS_PAIRS:
        source = " ".join((PROMETHEUS_DOCS / path).read_text(encoding="utf-8").split())
        assert reference in source, (path, reference)


@pytest.mark.parametrize(("reference", "response"), PAIRS)
def test_bleu_and_chrf_equal_sacrebleu(reference, response):
    bleu = value(BleuScore(), response, reference)
    assert bleu == sacrebleu.sentence_bleu(response, [reference]).score / 100
    chrf = value(ChrfScore(), response, reference)
    assert chrf == sacrebleu.sentence_chrf(response, [reference]).score / 100
    chrf_plus = value(ChrfScore(word_order=2), response, reference)
    assert chrf_plus == sacrebleu.sentence_chrf(response, [reference], word_order=2).score / 100
    assert 0.0 < chrf < 1.0 and 0.0 <= bleu < 1.0


@pytest.mark.parametrize(("reference", "response"), PAIRS)
@pytest.mark.parametrize("use_stemmer", [True, False])
def test_rouge_equals_rouge_score(reference, response, use_stemmer):
    for rouge_type in ("rouge1", "rouge2", "rougeL"):
        expected = RougeScorer([rouge_type], use_stemmer=use_stemmer).score(reference, response)[rouge_type]
        for mode in ("precision", "recall", "fmeasure"):
            metric = RougeScore(rouge_type=rouge_type, mode=mode, use_stemmer=use_stemmer)
            result = metric.score(sample(response, reference))
            assert result.value == getattr(expected, mode), (rouge_type, mode)
            assert result.trace["tokenizer"] == "rouge"


def test_overlap_scores_separate_good_and_poor_answers():
    scores = {
        cls: [value(cls(), resp, ref) for ref, resp in PAIRS] for cls in (BleuScore, ChrfScore, RougeScore)
    }
    for cls, values in scores.items():
        assert len(set(values)) > 5, cls  # real spread, not a constant
        assert all(value(cls(), ref, ref) == pytest.approx(1.0) for ref, _ in PAIRS[:3]), cls
    # the near-verbatim reordering scores above the loose paraphrase on every measure
    for values in scores.values():
        assert values[1] > values[2]


@pytest.mark.parametrize("cls", TEXT_METRICS)
def test_empty_reference_is_nan_and_empty_response_is_zero(cls):
    for reference in ("", "  \n"):
        result = cls().score(sample("Counters only go up.", reference))
        assert math.isnan(result.value) and "reference is empty" in result.reason
    for response in ("", " \t"):
        result = cls().score(sample(response, "Counters only go up."))
        assert result.value == 0.0 and "response is empty" in result.reason
    assert cls.needs_llm is False and cls.runs_offline


def test_exact_match_strips_outer_whitespace_only():
    metric = ExactMatch()
    assert value(metric, "  15 days\n", "15 days") == 1.0
    assert value(metric, "15  days", "15 days") == 0.0
    assert value(metric, "15 Days", "15 days") == 0.0
    assert ExactMatch.output_type == "binary"


def test_string_presence():
    metric = StringPresence()
    assert value(metric, "Blocks are kept for 15 days by default.", " 15 days ") == 1.0
    assert value(metric, "Blocks are kept for 15 days.", "15 Days") == 0.0
    assert value(metric, "15", "15 days") == 0.0


@pytest.mark.parametrize(
    ("measure", "function"),
    [("levenshtein", Levenshtein), ("hamming", Hamming), ("jaro", Jaro), ("jaro_winkler", JaroWinkler)],
)
def test_string_similarity_matches_rapidfuzz(measure, function):
    metric = NonLLMStringSimilarity(distance_measure=measure)
    for reference, response in PAIRS[:4]:
        expected = function.normalized_similarity(response, reference)
        assert value(metric, response, reference) == pytest.approx(expected, abs=1e-12)
    assert value(metric, " same text ", "same text") == 1.0


def test_string_similarity_defaults_and_hamming_on_unequal_lengths():
    assert NonLLMStringSimilarity().distance_measure == "levenshtein"
    assert value(NonLLMStringSimilarity(), "kitten", "sitting") == pytest.approx(1 - 3 / 7)
    hamming = NonLLMStringSimilarity(distance_measure="hamming")
    # positions from the start; each extra character of the longer text is a mismatch, over the longer length
    assert value(hamming, "abc", "abcdef") == 0.5
    assert value(hamming, "abcdef", "abc") == 0.5
    assert value(hamming, "xbc", "abcdef") == pytest.approx(2 / 6)
    with pytest.raises(ValueError, match="distance_measure must be one of levenshtein, hamming, jaro"):
        NonLLMStringSimilarity(distance_measure="cosine")


CHINESE_REFERENCE = "Prometheus 默认将数据在本地保存十五天，之后删除旧的数据块。"
CHINESE_RESPONSE = "Prometheus 在本地保存数据十五天。"


def test_bleu_tokenizes_chinese_by_character():
    result = BleuScore().score(sample(CHINESE_RESPONSE, CHINESE_REFERENCE))
    expected = sacrebleu.sentence_bleu(CHINESE_RESPONSE, [CHINESE_REFERENCE], tokenize="zh").score / 100
    assert result.trace["tokenize"] == "zh" and result.value == expected
    near = CHINESE_REFERENCE.replace("旧的", "旧")  # one character left out
    assert value(BleuScore(), near, CHINESE_REFERENCE) > 0.8 > 0.2 > result.value
    # 13a sees "Prometheus" and one word per clause: blind to the difference between the two answers
    as_13a = BleuScore(tokenize="13a")
    assert value(as_13a, near, CHINESE_REFERENCE) == value(as_13a, CHINESE_RESPONSE, CHINESE_REFERENCE)
    assert BleuScore().tokenizer_for("プロメテウスはデータを保存します。") == "char"
    with pytest.raises(ValueError, match="tokenize must be one of auto, none, zh, 13a"):
        BleuScore(tokenize="words")


def test_rouge_on_chinese_uses_words_not_rouge_scores_ascii_tokenizer():
    # rouge-score keeps ASCII only: both texts reduce to "prometheus" and score a meaningless 1.0
    raw = RougeScorer(["rouge1"]).score(CHINESE_REFERENCE, CHINESE_RESPONSE)["rouge1"]
    assert raw.fmeasure == 1.0
    forced = RougeScore(rouge_type="rouge1", tokenizer="rouge").score(sample("新数据", "保存十五天"))
    assert math.isnan(forced.value) and "no word" in forced.reason

    result = RougeScore(rouge_type="rouge1", mode="recall").score(sample(CHINESE_RESPONSE, CHINESE_REFERENCE))
    assert result.trace["tokenizer"] == "words (zh)"
    ref_words = [w.casefold() for w in tokens(CHINESE_REFERENCE, "zh")]
    resp_words = [w.casefold() for w in tokens(CHINESE_RESPONSE, "zh")]
    overlap = sum((Counter(ref_words) & Counter(resp_words)).values())
    assert result.value == pytest.approx(overlap / len(ref_words))
    assert 0.2 < result.value < 1.0
    same = RougeScore().score(sample(CHINESE_REFERENCE, CHINESE_REFERENCE))
    assert same.value == pytest.approx(1.0)


def test_rouge_on_accented_text_and_explicit_tokenizers():
    reference, response = "Les données sont conservées quinze jours.", "Les données restent quinze jours."
    auto = RougeScore(rouge_type="rouge1", mode="recall").score(sample(response, reference))
    assert auto.trace["tokenizer"] == "words (fr)"
    assert auto.value == pytest.approx(4 / 6)  # les, donné(es), quinz(e), jour(s) of six words
    rouge = RougeScore(rouge_type="rouge1", mode="recall", tokenizer="rouge").score(
        sample(response, reference)
    )
    assert rouge.trace["tokenizer"] == "rouge"  # "données" -> "donn", "es"
    english = RougeScore(tokenizer="words", language="en").score(sample(PAIRS[1][1], PAIRS[1][0]))
    assert english.trace["tokenizer"] == "words (en)" and 0.5 < english.value < 1.0
    custom = RougeScore(rouge_type="rouge1", tokenizer=WordTokenizer("en", stemmer=False))
    assert custom.score(sample("Counters go up", "counters go UP")).value == 1.0
    assert custom.score(sample("Counter goes up", "counters go up")).value == pytest.approx(1 / 3)


def test_rouge_nan_when_the_reference_has_no_ngram_of_the_order():
    result = RougeScore(rouge_type="rouge2").score(sample("Yes", "Yes"))
    assert math.isnan(result.value) and "fewer than 2 words" in result.reason
    assert RougeScore(rouge_type="rouge2").score(sample("No", "It is")).value == 0.0
    assert RougeScore(rouge_type="rouge1").score(sample("Yes", "Yes")).value == 1.0


def test_constructor_errors_name_the_field():
    with pytest.raises(ValueError, match="rouge_score: rouge_type must be one of rouge1, rouge2, rougeL"):
        RougeScore(rouge_type="rougeLsum")
    with pytest.raises(ValueError, match="mode must be one of precision, recall, fmeasure"):
        RougeScore(mode="f1")
    with pytest.raises(ValueError, match="tokenizer must be 'auto', 'rouge', 'words'"):
        RougeScore(tokenizer="jieba")
    with pytest.raises(ValueError, match="has no tokenize"):
        RougeScore(tokenizer=object())
    with pytest.raises(ValueError, match="chrf_score: char_order must be an integer >= 1"):
        ChrfScore(char_order=0)


def _dataset() -> EvaluationDataset:
    return EvaluationDataset([sample(response, reference) for reference, response in PAIRS[:4]])


def test_offline_and_with_an_llm_give_the_same_scores_and_make_no_call(stub, chat):
    metrics = lambda: [cls() for cls in TEXT_METRICS]  # noqa: E731
    offline = evaluate(_dataset(), metrics(), show_progress=False, cache=False)
    online = evaluate(_dataset(), metrics(), llm=chat, show_progress=False, cache=False)
    for cls in TEXT_METRICS:
        assert online.scores(cls.name) == offline.scores(cls.name), cls.name
        assert offline.notes.get(cls.name, "") == ""
    assert offline.scores("bleu_score")[0] == sacrebleu.sentence_bleu(PAIRS[0][1], [PAIRS[0][0]]).score / 100
    assert stub.requests == []
