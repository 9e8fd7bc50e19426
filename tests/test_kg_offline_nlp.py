"""Offline (no LLM) extractors on handwritten text and on the real Prometheus docs corpus."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import spacy
import spacy.util
from scipy import sparse
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

from groundset.text import entities as entities_module
from groundset.text import mdparse
from groundset.text import plaintext as plaintext_module
from groundset.text import sentences as sentences_module
from groundset.text import textrank as textrank_module
from groundset.text.entities import EntityExtractor
from groundset.text.phrases import PhraseModel
from groundset.text.plaintext import plain_text
from groundset.text.sentences import split_sentences
from groundset.text.textrank import _pagerank, _tfidf, textrank_summary

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "prometheus-docs" / "docs"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="Prometheus docs corpus not present")


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    if not CORPUS.is_dir():
        pytest.skip("Prometheus docs corpus not present")
    return {
        str(path.relative_to(CORPUS)): path.read_text(encoding="utf-8")
        for path in sorted(CORPUS.rglob("*.md"))
    }


@pytest.fixture(scope="module")
def model(pages: dict[str, str]) -> PhraseModel:
    return PhraseModel().fit(list(pages.values()))


def _chunks(texts: list[str], size: int = 500) -> list[str]:
    """Paragraph-packed pieces of about ``size`` characters, like a splitter would make."""
    chunks: list[str] = []
    for text in texts:
        current = ""
        for paragraph in text.split("\n\n"):
            if current and len(current) + len(paragraph) > size:
                chunks.append(current)
                current = ""
            current = f"{current}\n\n{paragraph}" if current else paragraph
        if current:
            chunks.append(current)
    return chunks


def _count_markdown_parses(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often ``plain_text`` hands each text to the Markdown parser (its memo answers repeats)."""
    parse = plaintext_module.parse
    parsed: Counter[str] = Counter()

    def counting_parse(text: str, *args: object, **kwargs: object) -> object:
        parsed[text] += 1
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(plaintext_module, "parse", counting_parse)
    return parsed


# ----------------------------------------------------------------------------------------------------------
# plain_text / split_sentences


MARKDOWN = """---
title: "Data model"
sort_rank: 1
---

# Storage *overview* #

Prometheus stores **time series** in a local [TSDB](https://example.com/tsdb_(db) "title"),
written to `data/` by the `prometheus` binary. See <https://prometheus.io/docs/>.

```yaml
scrape_configs:
  - job_name: secret_fenced_job
```

    indented_code_block_line

* first item
  continues here
* second item

| Flag | Meaning |
|------|---------|
| `--storage.tsdb.path` | where data lives |

<!-- hidden_comment_text -->
![diagram](img/arch.png) Done &amp; dusted.
"""


def test_plain_text_strips_markup_and_keeps_prose() -> None:
    text = plain_text(MARKDOWN)
    lines = text.split("\n")
    assert lines[0] == "Data model"  # the front matter title becomes the first heading
    assert "sort_rank" not in text
    assert "Storage overview" in lines
    assert (
        "Prometheus stores time series in a local TSDB, written to data/ by the prometheus binary. "
        "See https://prometheus.io/docs/." in lines
    )
    for gone in (
        "secret_fenced_job",
        "indented_code_block_line",
        "hidden_comment_text",
        "example.com",
        "arch.png",
    ):
        assert gone not in text
    assert "first item continues here\n\nsecond item" in text  # list items: one line each, wraps joined
    assert "Flag; Meaning\n\n--storage.tsdb.path; where data lives" in text
    assert "|" not in text and "**" not in text and "#" not in text and "`" not in text
    assert "Done & dusted." in text
    assert "\n\n\n" not in text and all(line.strip() for line in text.split("\n\n"))
    assert plain_text(text) == text  # stable on its own output


def test_plain_text_code_spans_flag_keeps_backticks() -> None:
    text = plain_text("Use `http_requests_total` and `rate()` in **PromQL**.", code_spans=True)
    assert text == "Use `http_requests_total` and `rate()` in PromQL."
    # Markup inside code is code: underscores and stars survive.
    assert plain_text("The `__name__` label and `a*b*c`.") == "The __name__ label and a*b*c."


def test_plain_text_blank_and_code_only() -> None:
    assert plain_text("") == ""
    assert plain_text("  \n\n ") == ""
    assert plain_text("```\nprint('x')\n```\n") == ""


def test_split_sentences_technical_text() -> None:
    text = (
        "Use a dashboard tool, e.g. Grafana, to graph it. Prometheus v2.0 was released, i.e. the new "
        "storage landed. Edit prometheus.yml now. The ratio is 0.75 here. Compare Prometheus vs. Graphite "
        "first. See https://prometheus.io/docs/introduction/overview/ for details. Really? Yes!\n"
        "List item without period\n\nNew paragraph."
    )
    assert split_sentences(text) == [
        "Use a dashboard tool, e.g. Grafana, to graph it.",
        "Prometheus v2.0 was released, i.e. the new storage landed.",
        "Edit prometheus.yml now.",
        "The ratio is 0.75 here.",
        "Compare Prometheus vs. Graphite first.",
        "See https://prometheus.io/docs/introduction/overview/ for details.",
        "Really?",
        "Yes!",
        "List item without period",
        "New paragraph.",
    ]


def test_split_sentences_version_at_sentence_end_and_abbreviations() -> None:
    assert split_sentences("Upgrade to v3.0.0. It is faster.") == ["Upgrade to v3.0.0.", "It is faster."]
    assert split_sentences("Lists, tables, etc. are fine. Tools etc. Then more.") == [
        "Lists, tables, etc. are fine.",
        "Tools etc.",
        "Then more.",
    ]
    assert split_sentences("") == []
    assert split_sentences(" \n \n... \n") == []
    assert all(sentence.strip() for sentence in split_sentences("a.\n\n\n. b. ?\n!"))


class _ReadMeter:
    """Stands in for the line inside ``sentences._is_boundary``: counts the characters one boundary
    decision reads (indexing, slicing, ``find``/``rfind`` ranges), failing once it exceeds ``limit``."""

    def __init__(self, line: str, limit: int) -> None:
        self._line, self._limit, self.read = line, limit, 0

    def _count(self, start: int | None, stop: int | None) -> None:
        low, high, _ = slice(start, stop).indices(len(self._line))
        self.read += max(0, high - low)
        assert self.read <= self._limit, f"one boundary decision read {self.read} characters of the line"

    def __len__(self) -> int:
        return len(self._line)

    def __getitem__(self, key: int | slice) -> str:
        if isinstance(key, slice):
            self._count(key.start, key.stop)
        else:
            self.read += 1
        return self._line[key]

    def find(self, sub: str, start: int | None = None, end: int | None = None) -> int:
        self._count(start, end)
        return self._line.find(sub, start, end)

    def rfind(self, sub: str, start: int | None = None, end: int | None = None) -> int:
        self._count(start, end)
        return self._line.rfind(sub, start, end)


def test_split_sentences_two_megabyte_line_and_bounded_look_back(monkeypatch: pytest.MonkeyPatch) -> None:
    line = ("Prometheus scrapes e.g. node_exporter v1.8.2 at 0.5 s via prometheus.yml. " * 30_000)[:2_000_000]
    assert "\n" not in line
    sentences = split_sentences(line)
    assert len(sentences) == line.count("prometheus.yml. ") + 1
    assert sentences[0] == "Prometheus scrapes e.g. node_exporter v1.8.2 at 0.5 s via prometheus.yml."
    assert sentences[-1] == line[line.rindex("prometheus.yml. ") + len("prometheus.yml. ") :]
    # Every period of "x. x. ..." is a candidate and none ends a sentence (initials), so the sentence start
    # never moves: a look-back to it would make each decision, and the whole split, grow with the line.
    decide = sentences_module._is_boundary
    reads: list[int] = []

    def metered(text: str, *args: object) -> bool:
        meter = _ReadMeter(text, limit=256)
        try:
            return decide(meter, *args)
        finally:
            reads.append(meter.read)

    monkeypatch.setattr(sentences_module, "_is_boundary", metered)
    pathological = "x. " * 100_000
    assert split_sentences(pathological) == [pathological.strip()]
    assert 0 < len(reads) <= pathological.count(". ")  # at most one decision per candidate
    numbered = "1. " * 20_000  # each "1." ends a sentence after a look at the next word
    assert split_sentences(numbered) == ["1."] * 20_000
    assert len(reads) <= pathological.count(". ") + numbered.count(". ")
    assert max(reads) <= 256  # each decision reads a bounded window, however long the line


def test_plain_text_pathological_markup_gets_bounded_parser_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """markdown-it spends microseconds per markup character (tens on an unclosed "["): its inline parser
    may only see bounded slices, and markup-dense text past the document's budget is read as text, so
    the parser's work on such a document does not grow with its size."""
    monkeypatch.setattr(plaintext_module, "_prose", plaintext_module._prose.__wrapped__)  # no memo
    inline = type(mdparse._MD.inline)  # markdown-it's ParserInline
    parse_inline = inline.parse
    pieces: list[int] = []

    def spy(self: object, src: str, *args: object) -> object:
        assert len(src) <= 4096, f"the inline parser got {len(src)} characters at once"
        pieces.append(len(src))
        # Only markup-dense text below: the budget caps it (a whole document would be 500k-1M characters).
        assert sum(pieces) <= 200_000, "markup-dense text past the budget went to the full inline parser"
        return parse_inline(self, src, *args)

    monkeypatch.setattr(inline, "parse", spy)
    for unit in ("*_`[", "[a](", "<a "):
        parsed = []
        for size in (500_000, 1_000_000):
            pieces.clear()
            text = unit * (size // len(unit))
            plain = plain_text(text)
            assert plain and set(plain) <= set(unit + " ") - {"`"}, unit  # no backtick survives
            assert plain.count("a") == text.count("a"), unit  # the text is kept, only markup may go
            parsed.append(sum(pieces))
        small, large = parsed
        assert small > 0, unit  # the parser did read the start of the document
        assert large <= small + 4096, (unit, parsed)  # twice the text, no more parser work


# ----------------------------------------------------------------------------------------------------------
# textrank_summary

HANDWRITTEN = (
    "Prometheus scrapes metrics from instrumented targets over HTTP. "
    "The scraped metrics are stored as time series in the local Prometheus database. "
    "Bananas are yellow and taste sweet when ripe. "
    "Alerting rules in Prometheus evaluate stored time series and fire alerts. "
    "Recording rules precompute expensive time series queries in Prometheus. "
    "Short one here. "
    "Grafana can query Prometheus time series for dashboards."
)


def _sentences_of(markdown: str) -> list[str]:
    return split_sentences(plain_text(markdown))


def _assert_in_order(summary: str, sentences: list[str]) -> None:
    position = 0
    rest = summary
    while rest:
        match = next((i for i in range(position, len(sentences)) if rest.startswith(sentences[i])), None)
        assert match is not None, f"not a sentence of the input (in order): {rest[:80]!r}"
        rest = rest[len(sentences[match]) :].removeprefix(" ")
        position = match + 1


def test_textrank_picks_central_sentences_in_order() -> None:
    summary = textrank_summary(HANDWRITTEN, max_sentences=3)
    sentences = _sentences_of(HANDWRITTEN)
    _assert_in_order(summary, sentences)
    assert "Bananas" not in summary  # off-topic sentence is not central
    assert "Short one here." not in summary  # under four words: never a candidate
    assert summary.count(". ") + 1 == 3
    assert textrank_summary(HANDWRITTEN, max_sentences=3) == summary


def test_textrank_short_empty_and_code_only() -> None:
    assert textrank_summary("") == ""
    assert textrank_summary("   \n") == ""
    assert textrank_summary("```python\nx = 1\n```") == ""
    short = "Prometheus is a monitoring system. It stores time series."
    assert textrank_summary(short) == short
    assert textrank_summary("# Heading\n\nOne sentence only here.") == "Heading One sentence only here."


def test_textrank_respects_max_chars() -> None:
    for max_chars in (40, 120, 200, 600):
        summary = textrank_summary(HANDWRITTEN, max_sentences=3, max_chars=max_chars)
        assert 0 < len(summary) <= max_chars
    single = "word " * 200 + "end."
    cut = textrank_summary(single, max_chars=50)
    assert len(cut) <= 50 and cut.endswith("\u2026") and single.startswith(cut[:-1])
    with pytest.raises(ValueError):
        textrank_summary(HANDWRITTEN, max_sentences=0)


def test_tfidf_matches_scikit_learn() -> None:
    sentences = _sentences_of(HANDWRITTEN)
    ours = _tfidf(sentences)
    expected = TfidfVectorizer(
        sublinear_tf=True, stop_words="english", token_pattern=r"(?u)\b[A-Za-z][\w.-]*[A-Za-z0-9]\b"
    ).fit_transform(sentences)
    assert ours is not None and ours.shape == expected.shape
    # Column order differs; the cosine matrix and each row's weights do not.
    assert np.allclose((ours @ ours.T).toarray(), (expected @ expected.T).toarray())
    for row in range(len(sentences)):
        assert np.allclose(np.sort(ours[row].data), np.sort(expected[row].data))
    assert _tfidf(["the and of", "a an"]) is None


@pytest.mark.parametrize("dense_limit", [1000, 0])
def test_pagerank_matches_networkx(monkeypatch: pytest.MonkeyPatch, dense_limit: int) -> None:
    monkeypatch.setattr(textrank_module, "_DENSE_LIMIT", dense_limit)  # 0: the factored path
    sentences = [sentence for sentence in _sentences_of(HANDWRITTEN) if len(sentence.split()) >= 4]
    sentences.append("Unrelated zebra okapi giraffe.")  # a dangling node: no similarity to anything
    matrix = _tfidf(sentences)
    assert matrix is not None
    dense = (matrix @ matrix.T).toarray()
    np.fill_diagonal(dense, 0.0)
    lead_bias = {i: 1.0 / (i + 1) for i in range(len(sentences))}
    expected = nx.pagerank(
        nx.from_numpy_array(dense), alpha=0.85, personalization=lead_bias, dangling=lead_bias, tol=1e-12
    )
    assert np.allclose(_pagerank(matrix), [expected[i] for i in range(len(sentences))], atol=1e-6)


@needs_corpus
def test_textrank_on_real_pages(pages: dict[str, str]) -> None:
    for name in ("concepts/data_model.md", "introduction/overview.md", "guides/cadvisor.md"):
        summary = textrank_summary(pages[name], max_sentences=3, max_chars=600)
        assert summary and len(summary) <= 600
        _assert_in_order(summary, _sentences_of(pages[name]))
        assert "```" not in summary and "](" not in summary
    overview = textrank_summary(pages["introduction/overview.md"])
    assert "Prometheus" in overview and "time series" in overview


def test_textrank_two_megabyte_line_never_builds_the_similarity_matrix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sentence = "Prometheus scrapes metrics from targets and stores them as time series locally."
    line = (f"{sentence} " * 25_000)[:2_000_000]
    products: list[tuple[int, ...]] = []

    class WatchedRows(sparse.csr_matrix):
        """TF-IDF rows that check every product taken with them before it is computed."""

        def __matmul__(self, other: object) -> object:
            shape = (self.shape[0], *getattr(other, "shape", np.shape(other))[1:])
            products.append(shape)
            assert math.prod(shape) <= 1_000_000, f"a {shape} product: the sentence similarity matrix"
            return super().__matmul__(other)

    tfidf_rows = textrank_module._tfidf_rows

    def watched_tfidf_rows(rows: list[list[str]]) -> sparse.csr_matrix | None:
        matrix = tfidf_rows(rows)
        return None if matrix is None else WatchedRows(matrix)

    monkeypatch.setattr(textrank_module, "_tfidf_rows", watched_tfidf_rows)
    summary = textrank_summary(line)
    assert summary == sentence  # its repeats are near-duplicates; the cut-off tail is no candidate
    # PageRank ran over every sentence with matrix-vector products only, in a bounded number of steps.
    assert (line.count(f"{sentence} "),) in products
    assert len(products) <= 200


# ----------------------------------------------------------------------------------------------------------
# PhraseModel

SMALL_CORPUS = [
    "Alerting rules fire alerts. Alerting rules live in rule files. The Alertmanager routes alerts.",
    "Recording rules precompute queries. Recording rules live in rule files too.",
    "Service discovery finds scrape targets. Kubernetes service discovery watches pods.",
    "Remote write sends samples to remote storage. Remote write queues use shards.",
]


def _redundant(phrases: list[str]) -> list[tuple[str, str]]:
    lowered = [f" {phrase.lower()} " for phrase in phrases]
    return [(b, a) for i, a in enumerate(lowered) for b in lowered[i + 1 :] if b in a]


def test_phrase_model_small_corpus() -> None:
    model = PhraseModel().fit(SMALL_CORPUS)
    assert model.n_texts == 4
    keyphrases = model.keyphrases(SMALL_CORPUS[0], k=5)
    assert keyphrases[0] == "Alerting rules"
    assert "rule files" in keyphrases
    assert not any(word in {"the", "The"} for phrase in keyphrases for word in phrase.split())
    assert _redundant(keyphrases) == []
    assert "remote write" in [phrase.lower() for phrase in model.keyphrases(SMALL_CORPUS[3], k=3)]
    # Themes are phrases in 2 of the 4 texts (max(2, 30%)): they link texts 0 and 1, and text 2 has none.
    first, second = model.themes(SMALL_CORPUS[0]), model.themes(SMALL_CORPUS[1])
    assert "rule files" in first and "rule files" in second
    assert set(first) == set(second)
    assert "Alerting rules" not in first and "Recording rules" not in second
    assert model.themes(SMALL_CORPUS[2]) == []


@pytest.mark.parametrize("corpus", [SMALL_CORPUS, SMALL_CORPUS[:2], ["Schreibe Regeln in Regeldateien."] * 3])
def test_fit_rank_gives_what_fit_then_rank_give(corpus: list[str]) -> None:
    """The build's one pass (candidates found once) equals fit, keyphrases_many and themes_many, on all
    texts or on some (an update), in a corpus too small for themes too."""
    separate = PhraseModel().fit(corpus)
    for rank in (None, [len(corpus) - 1, 0]):
        texts = corpus if rank is None else [corpus[i] for i in rank]
        keyphrases, themes = PhraseModel().fit_rank(corpus, keyphrases=3, themes=2, rank=rank)
        assert keyphrases == separate.keyphrases_many(texts, k=3)
        assert themes == separate.themes_many(texts, k=2)
    assert PhraseModel().fit_rank(corpus, keyphrases=0)[0] == [[] for _ in corpus]


def test_phrase_model_unseen_text_single_text_and_empty() -> None:
    model = PhraseModel().fit(SMALL_CORPUS)
    assert model.keyphrases("Zebra giraffe okapi.") == []  # unseen words are ignored
    unseen = model.keyphrases("A zebra reads rule files and remote write docs.", k=3)
    assert [phrase.lower() for phrase in unseen] == ["remote write", "rule files"]
    single = PhraseModel().fit([SMALL_CORPUS[0]])
    assert single.keyphrases(SMALL_CORPUS[0], k=3)[0] == "Alerting rules"
    assert single.themes(SMALL_CORPUS[0], k=3) == single.keyphrases(SMALL_CORPUS[0], k=3)  # fallback
    empty = PhraseModel().fit([])
    assert empty.keyphrases("Alerting rules") == [] and empty.themes_many(["x", "y"]) == [[], []]
    blank = PhraseModel().fit(["", "```\ncode\n```"])
    assert blank.keyphrases_many(["Alerting rules"]) == [[]]
    assert model.keyphrases(SMALL_CORPUS[0], k=0) == []
    assert model.keyphrases_many([]) == []


def test_phrase_model_plural_folding_keeps_readable_surface() -> None:
    model = PhraseModel().fit(["Metric names matter.", "A metric name is a label.", "Metric names again."])
    assert model.keyphrases("The metric name and metric names.", k=1) == ["Metric names"]


@needs_corpus
def test_keyphrases_and_themes_on_real_pages(pages: dict[str, str], model: PhraseModel) -> None:
    data_model = pages["concepts/data_model.md"]
    keyphrases = model.keyphrases(data_model, k=8)
    assert len(keyphrases) == 8
    lowered = [phrase.lower() for phrase in keyphrases]
    assert "metric name" in lowered and "label names" in lowered and "time series" in lowered
    assert _redundant(keyphrases) == []
    themes = model.themes(data_model, k=5)
    assert themes and "metric name" in [theme.lower() for theme in themes]
    remote_write = [phrase.lower() for phrase in model.keyphrases(pages["practices/remote_write.md"])]
    assert "remote write" in remote_write and "max shards" in remote_write
    grafana = [phrase.lower() for phrase in model.keyphrases(pages["visualization/grafana.md"])]
    assert "data source" in grafana
    for name, text in pages.items():
        if len(plain_text(text)) > 1000:
            assert model.keyphrases(text), name
            assert model.themes(text), name


@needs_corpus
def test_themes_are_shared_by_a_few_corpus_texts(pages: dict[str, str], model: PhraseModel) -> None:
    plains = [plain_text(text).lower() for text in pages.values()]
    checked = 0
    for text in list(pages.values())[::7]:
        for theme in model.themes(text, k=5):
            words = [re.escape(word.removesuffix("s")) for word in theme.lower().split()]
            pattern = re.compile(r"\b" + r"\s+".join(word + r"(?:s|es)?" for word in words) + r"\b")
            holders = sum(1 for plain in plains if pattern.search(plain))
            assert 2 <= holders <= int(0.3 * len(plains)) + 2, (theme, holders)
            checked += 1
    assert checked >= 20


@needs_corpus
def test_phrase_model_vectorised_equals_single(pages: dict[str, str], model: PhraseModel) -> None:
    texts = list(pages.values())[:12]
    assert model.keyphrases_many(texts, 6) == [model.keyphrases(text, 6) for text in texts]
    assert model.themes_many(texts, 4) == [model.themes(text, 4) for text in texts]


@needs_corpus
def test_phrase_model_on_corpus_and_chunks_works_in_batches(
    pages: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = list(pages.values())
    chunks = _chunks(texts)
    assert len(chunks) >= 1200
    transform = CountVectorizer.transform
    batches: list[int] = []

    def counting_transform(self: CountVectorizer, raw_documents: list[list[str]]) -> object:
        batches.append(len(raw_documents))
        return transform(self, raw_documents)

    top = PhraseModel._top
    rows: list[tuple[int, int]] = []

    def counting_top(
        self: PhraseModel, columns: np.ndarray, values: np.ndarray, counts: dict, k: int
    ) -> list:
        rows.append((len(columns), len(counts)))
        return top(self, columns, values, counts, k)

    monkeypatch.setattr(CountVectorizer, "transform", counting_transform)
    monkeypatch.setattr(PhraseModel, "_top", counting_top)
    parsed = _count_markdown_parses(monkeypatch)
    model = PhraseModel().fit(texts)
    model.keyphrases_many(texts)
    model.themes_many(texts)
    keyphrases = model.keyphrases_many(chunks)
    themes = model.themes_many(chunks)
    assert len(keyphrases) == len(themes) == len(chunks)
    assert sum(1 for found in keyphrases if found) > 0.9 * len(chunks)
    # One sparse transform per call for all its texts (fit, then the four batches), never one per text;
    assert batches == [len(texts)] * 3 + [len(chunks)] * 2
    # each text's markdown parsed at most once across the five passes;
    assert all(count == 1 for count in parsed.values()), max(parsed.values())
    # and ranking reads only each text's own phrases, not a row over the whole vocabulary.
    assert len(rows) == 2 * len(texts) + 2 * len(chunks)
    assert all(columns <= phrases for columns, phrases in rows)


# ----------------------------------------------------------------------------------------------------------
# EntityExtractor

RULES = EntityExtractor("rules")


def test_entity_rules_on_handwritten_sentences() -> None:
    text = (
        "The Prometheus Operator deploys Prometheus on Kubernetes. This setup uses PromQL over HTTP and "
        "TLS. Edit `prometheus.yml` and graph `http_requests_total` with `rate()` in Grafana. "
        "Blocks can go to Google Cloud Storage, and process_cpu_seconds_total is exported by `http.Handler`. "
        "Alertmanager's routing is documented. Also the Alertmanager sends alerts."
    )
    found = RULES.extract(text)
    for expected in (
        "Prometheus Operator",
        "Prometheus",
        "Kubernetes",
        "PromQL",
        "HTTP",
        "TLS",
        "prometheus.yml",
        "http_requests_total",
        "rate()",
        "Grafana",
        "Google Cloud Storage",
        "process_cpu_seconds_total",
        "http.Handler",
        "Alertmanager",
    ):
        assert expected in found, (expected, found)
    assert found.index("Prometheus Operator") < found.index("Kubernetes") < found.index("prometheus.yml")
    for noise in ("The", "This", "Also", "Edit", "Blocks", ""):
        assert noise not in found
    assert len({entity.lower() for entity in found}) == len(found)


def test_entity_rules_sentence_initial_and_noise_words() -> None:
    assert RULES.extract("Grafana draws graphs.") == []  # sentence-initial only: no evidence
    assert "Grafana" in RULES.extract("Grafana draws graphs. We like Grafana a lot.")
    found = RULES.extract(
        "Metric names MUST NOT use colons. NOTE: I think it is OK. See Chapter II. In OpenMetrics, "
        "TSDBs use the WAL."
    )
    assert found == ["OpenMetrics", "TSDB", "WAL"]
    assert RULES.extract("") == [] and RULES.extract("```\ncode_only_identifier = 1\n```") == []


def test_entity_rules_dedupe_keeps_most_frequent_surface_and_caps_at_25() -> None:
    found = RULES.extract("We use AlertManager, then Alertmanager, then Alertmanager again.")
    assert found == ["Alertmanager"]
    many = " ".join(f"We saw metric_{i}_total here." for i in range(40))
    assert len(RULES.extract(many)) == 25
    assert RULES.extract_many(["We run Prometheus.", ""]) == [["Prometheus"], []]


def test_entity_backend_never_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("must not load or download a pipeline")

    monkeypatch.setattr(spacy.util, "is_package", lambda name: False)
    monkeypatch.setattr(spacy, "load", refuse)
    monkeypatch.setattr(spacy.cli, "download", refuse)
    assert EntityExtractor().backend == "rules"
    assert EntityExtractor("en_core_web_sm").backend == "rules"


def test_entity_spacy_backend_merges_ner_with_code_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_pipeline(name: str, **_kwargs: object) -> spacy.language.Language:
        assert name == "fake_core_web"
        nlp = spacy.blank("en")
        ruler = nlp.add_pipe("entity_ruler")
        ruler.add_patterns(
            [
                {"label": "ORG", "pattern": "SoundCloud"},
                {"label": "PERSON", "pattern": "Julius Volz"},
                {"label": "DATE", "pattern": "2012"},
            ]
        )
        return nlp

    monkeypatch.setattr(spacy.util, "is_package", lambda name: name == "fake_core_web")
    monkeypatch.setattr(spacy, "load", fake_pipeline)
    extractor = EntityExtractor("fake_core_web")
    assert extractor.backend == "spacy:fake_core_web"
    text = (
        "In 2012 Julius Volz worked at SoundCloud. Edit `prometheus.yml` for http_requests_total over HTTP."
    )
    assert extractor.extract(text) == [
        "Julius Volz",
        "SoundCloud",
        "prometheus.yml",
        "http_requests_total",
        "HTTP",
    ]
    assert extractor.extract_many([text, ""]) == [extractor.extract(text), []]


def test_entity_pipeline_without_ner_falls_back_to_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spacy.util, "is_package", lambda name: True)
    monkeypatch.setattr(spacy, "load", lambda name, **_: spacy.blank("en"))
    assert EntityExtractor("blank_like").backend == "rules"
    assert entities_module.MAX_ENTITIES == 25


@needs_corpus
def test_entities_on_real_pages(pages: dict[str, str]) -> None:
    data_model = RULES.extract(pages["concepts/data_model.md"])
    for expected in ("Prometheus", "PromQL", "http_requests_total", "HTTP", "UTF-8", "OpenTSDB"):
        assert expected in data_model, (expected, data_model)
    overview = RULES.extract(pages["introduction/overview.md"])
    for expected in ("SoundCloud", "Cloud Native Computing Foundation", "Kubernetes", "PromQL"):
        assert expected in overview, (expected, overview)
    alerting = RULES.extract(pages["tutorials/alerting_based_on_metrics.md"])
    assert {"Alertmanager", "alertmanager.yml", "prometheus.yml", "rule_files"} <= set(alerting)
    for name, text in pages.items():
        found = RULES.extract(text)
        assert len(found) <= 25, name
        assert all(entity and entity == entity.strip() for entity in found), name
        assert not {"The", "This", "A", "I", "MUST", "SHOULD", "NOTE"} & set(found), (name, found)


@needs_corpus
def test_entities_on_chunks_read_each_sentence_once(
    pages: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    chunks = _chunks(list(pages.values()))

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the rules backend must not run a spaCy pipeline")

    monkeypatch.setattr(spacy, "load", refuse)
    monkeypatch.setattr(spacy, "blank", refuse)
    split, tokenise = entities_module.split_sentences, entities_module._tokenise
    split_calls: list[int] = []
    sentences: list[str] = []
    tokenised: list[str] = []

    def counting_split(text: str, *args: object, **kwargs: object) -> list[str]:
        found = split(text, *args, **kwargs)
        split_calls.append(len(found))
        sentences.extend(found)
        return found

    def counting_tokenise(sentence: str, *args: object) -> list:
        tokenised.append(sentence)
        return tokenise(sentence, *args)

    monkeypatch.setattr(entities_module, "split_sentences", counting_split)
    monkeypatch.setattr(entities_module, "_tokenise", counting_tokenise)
    parsed = _count_markdown_parses(monkeypatch)
    found = RULES.extract_many(chunks)
    assert sum(1 for entities in found if entities) > 0.7 * len(chunks)
    # The work is one pass per text: one markdown parse (at most), one sentence split, and one
    # tokenisation of each of its sentences.
    assert len(split_calls) == len(chunks) and sum(split_calls) > len(chunks)
    assert tokenised == sentences
    assert all(count == 1 for count in parsed.values()), max(parsed.values())


# ----------------------------------------------------------------------------------------------------------
# Determinism across processes

_SNIPPET = """
import json, sys
from pathlib import Path
from groundset.text.entities import EntityExtractor
from groundset.text.phrases import PhraseModel
from groundset.text.textrank import textrank_summary
texts = [p.read_text(encoding="utf-8") for p in sorted(Path(sys.argv[1]).rglob("*.md"))][::8]
model = PhraseModel().fit(texts)
print(json.dumps({
    "summaries": [textrank_summary(t) for t in texts],
    "keyphrases": model.keyphrases_many(texts),
    "themes": model.themes_many(texts),
    "entities": EntityExtractor("rules").extract_many(texts),
}))
"""


@needs_corpus
def test_outputs_are_identical_across_processes(pages: dict[str, str]) -> None:
    sample = list(pages.values())[::8]
    sample_model = PhraseModel().fit(sample)
    here = {
        "summaries": [textrank_summary(text) for text in sample],
        "keyphrases": sample_model.keyphrases_many(sample),
        "themes": sample_model.themes_many(sample),
        "entities": RULES.extract_many(sample),
    }
    assert all(here.values()) and any(here["themes"])
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    result = subprocess.run(
        [sys.executable, "-c", _SNIPPET, str(CORPUS)], capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(result.stdout) == here


def test_accented_words_stay_whole_and_no_fragment_names_the_corpus():
    """ "Prüfziel" is one word, not the name "Pr" (the corpus scope was once "Pr" on German docs)."""
    from groundset.core.engine import CallEngine
    from groundset.kg.build import build_knowledge_graph
    from groundset.synthesizers.scenarios.fact_index import corpus_scope

    text = "Jede Sonde überwacht genau ein Prüfziel. Die Prüfung läuft in Abständen über Orbiscope."
    found = RULES.extract(text, "de")
    assert {"Prüfziel", "Prüfung", "Abständen"} <= set(found) and not {"Pr", "Abst"} & set(found)
    kg = build_knowledge_graph(Path(__file__).parent / "data" / "de-docs", engine=CallEngine(cache=False)).kg
    assert corpus_scope(kg) == "Orbiscope"
