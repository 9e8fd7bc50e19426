"""Model-free context matching by string similarity, CSV table comparison and quoted-span checks."""

from __future__ import annotations

import math
import random
import sys
import time

import pytest

from groundset.scoring import EvaluationDataset, SingleTurnSample, evaluate
from groundset.scoring.formulas import average_precision
from groundset.scoring.metrics.nonllm_contexts import NonLLMContextPrecisionWithReference, NonLLMContextRecall
from groundset.scoring.metrics.spans import QuotedSpansAlignment, quoted_spans
from groundset.scoring.metrics.tables import DataCompyScore
from groundset.scoring.metrics.text import NonLLMStringSimilarity

REF_KEEP = "The server keeps raw samples for fifteen days by default."
REF_COMPACT = "Older blocks are removed by the compactor once they expire."
REF_REMOTE = "Remote write sends every sample to a second system as it is scraped."


def contexts(retrieved: list[str], reference: list[str]) -> SingleTurnSample:
    return SingleTurnSample(user_input="q", retrieved_contexts=retrieved, reference_contexts=reference)


RETRIEVED = [
    REF_KEEP,  # verbatim
    "Grafana draws dashboards from many data sources.",  # unrelated
    "Older blocks are deleted by the compactor when they expire.",  # a near copy of REF_COMPACT
]
REFERENCES = [REF_KEEP, REF_COMPACT, REF_REMOTE]


def test_context_precision_and_recall_by_string_similarity():
    precision = NonLLMContextPrecisionWithReference().score(contexts(RETRIEVED, REFERENCES))
    assert precision.trace["verdicts"] == [1, 0, 1]
    assert precision.value == pytest.approx(average_precision([1, 0, 1])) == pytest.approx((1 + 2 / 3) / 2)
    recall = NonLLMContextRecall().score(contexts(RETRIEVED, REFERENCES))
    assert recall.trace["found"] == [True, True, False]
    assert recall.value == pytest.approx(2 / 3) and "2 of 3 reference contexts" in recall.reason
    # the relevant one first ranks better than the same contexts with it last
    later = NonLLMContextPrecisionWithReference().score(contexts(RETRIEVED[::-1], REFERENCES))
    assert later.trace["verdicts"] == [1, 0, 1] and later.value == precision.value
    swapped = NonLLMContextPrecisionWithReference().score(
        contexts([RETRIEVED[1], *RETRIEVED[::2]], REFERENCES)
    )
    assert swapped.value == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert swapped.value < precision.value


def test_threshold_and_distance_measure_share_the_string_similarity_code():
    strict = contexts(RETRIEVED, REFERENCES)
    assert NonLLMContextPrecisionWithReference(threshold=1.0).score(strict).trace["verdicts"] == [1, 0, 0]
    assert NonLLMContextRecall(threshold=1.0).score(strict).value == pytest.approx(1 / 3)
    for measure in ("levenshtein", "jaro_winkler", "hamming"):
        best = NonLLMContextRecall(distance_measure=measure).score(strict).trace["best_similarity"]
        pair = SingleTurnSample(user_input="q", response=RETRIEVED[2], reference=REF_COMPACT)
        same = NonLLMStringSimilarity(distance_measure=measure).score(pair).value
        assert best[1] == pytest.approx(same, abs=1e-4)  # the trace rounds to 4 places
    with pytest.raises(ValueError, match="threshold must be a number in \\[0, 1\\], got 1.5"):
        NonLLMContextRecall(threshold=1.5)
    with pytest.raises(ValueError, match="non_llm_context_recall: distance_measure must be one of"):
        NonLLMContextRecall(distance_measure="bm25")


def test_context_matching_edge_cases():
    precision, recall = NonLLMContextPrecisionWithReference(), NonLLMContextRecall()
    nothing_retrieved = contexts([], REFERENCES)
    assert math.isnan(precision.score(nothing_retrieved).value)
    assert recall.score(nothing_retrieved).value == 0.0
    for references in ([], ["  ", "\n"]):
        assert math.isnan(precision.score(contexts(RETRIEVED, references)).value)
        result = recall.score(contexts(RETRIEVED, references))
        assert math.isnan(result.value) and "no reference context" in result.reason
    # a blank retrieved context matches nothing: it is irrelevant at its rank, not skipped
    assert precision.score(contexts(["", REF_KEEP], [REF_KEEP])).value == pytest.approx(1 / 2)
    assert precision.score(contexts(RETRIEVED[1:2], REFERENCES)).value == 0.0


def test_long_contexts_are_scored_quickly():
    rng = random.Random(12)
    vocabulary = ["sample", "block", "series", "label", "query", "rule", "alert", "target", "scrape", "disk"]

    def text() -> str:
        return " ".join(rng.choice(vocabulary) for _ in range(900))[:5000]

    references = [text() for _ in range(5)]
    retrieved = [references[0], references[3].replace("alert", "alarm"), *(text() for _ in range(8))]
    start = time.perf_counter()
    result = NonLLMContextRecall().score(contexts(retrieved, references))
    assert time.perf_counter() - start < 5.0
    assert result.trace["found"] == [True, False, False, True, False]


REFERENCE_TABLE = """name,type,value
up,gauge,1
http_requests_total,counter,1027
process_cpu_seconds_total,counter,12.5
"""
# Columns and rows in another order, 1027 written as 1027.0; one wrong value.
RESPONSE_TABLE = """type,name,value
counter,http_requests_total,1027.0
gauge, up ,1
counter,process_cpu_seconds_total,13
"""


def table(response: str, reference: str = REFERENCE_TABLE) -> SingleTurnSample:
    return SingleTurnSample(user_input="q", response=response, reference=reference)


def compy(response: str, reference: str = REFERENCE_TABLE, **options: str) -> float:
    return DataCompyScore(**options).score(table(response, reference)).value


def test_rows_mode_counts_matching_rows_in_any_order():
    for metric in ("precision", "recall", "f1"):
        assert compy(RESPONSE_TABLE, metric=metric) == pytest.approx(2 / 3)
    extra = RESPONSE_TABLE + "gauge,go_goroutines,8\n"
    assert compy(extra, metric="precision") == pytest.approx(2 / 4)
    assert compy(extra, metric="recall") == pytest.approx(2 / 3)
    assert compy(extra) == pytest.approx(2 * 2 / (4 + 3))
    assert compy(REFERENCE_TABLE) == 1.0
    # a duplicated row pairs with one reference row only
    doubled = "name,type,value\nup,gauge,1\nup,gauge,1\n"
    assert compy(doubled, metric="precision") == pytest.approx(1 / 2)


def test_rows_compare_over_shared_columns_and_columns_mode():
    no_type = "name,value\nup,1\nhttp_requests_total,1027\n"
    result = DataCompyScore(metric="recall").score(table(no_type))
    assert result.value == pytest.approx(2 / 3) and "columns in only one table: type" in result.reason
    assert compy("metric,count\nup,1\n") == 0.0  # no shared column: nothing matches
    assert compy(RESPONSE_TABLE, mode="columns", metric="precision") == pytest.approx(2 / 3)  # name, type
    with_unit = (
        "name,type,value,unit\nup,gauge,1,\nhttp_requests_total,counter,1027,\n"
        "process_cpu_seconds_total,counter,12.5,s\n"
    )
    assert compy(with_unit, mode="columns", metric="precision") == pytest.approx(3 / 4)
    assert compy(with_unit, mode="columns", metric="recall") == 1.0


def test_tables_edge_cases():
    broken = DataCompyScore().score(table("name,value\nup,1\ndown,2,3\n"))
    assert math.isnan(broken.value) and "the response is not a CSV table" in broken.reason
    assert "Expected 2 fields in line 3, saw 3" in broken.reason
    unclosed = DataCompyScore().score(table(RESPONSE_TABLE, 'name,"value\nup,1\n'))
    assert math.isnan(unclosed.value) and "the reference is not a CSV table" in unclosed.reason
    repeated = DataCompyScore().score(table("name, name\nup,up\n"))
    assert math.isnan(repeated.value) and "repeated column names ['name']" in repeated.reason
    assert DataCompyScore().score(table("  ")).value == 0.0
    assert math.isnan(DataCompyScore().score(table(RESPONSE_TABLE, "")).value)
    headers = DataCompyScore().score(table("name,value\n", "name,value"))
    assert math.isnan(headers.value) and "both tables are empty" in headers.reason
    assert compy("name,type,value\n") == 0.0  # no rows against three: judged, and bad
    prose = "The up metric is a gauge with value 1."
    assert compy(prose) == 0.0  # reads as a header with no rows
    fenced = "Here is the result:\n```csv\n" + REFERENCE_TABLE + "```\n"
    assert compy(fenced) == 1.0  # the prose around a fence is ignored
    assert compy("~~~\n" + RESPONSE_TABLE + "~~~") == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="mode must be 'rows' or 'columns', got 'cells'"):
        DataCompyScore(mode="cells")
    with pytest.raises(ValueError, match="metric must be one of precision, recall, f1"):
        DataCompyScore(metric="accuracy")


def test_tables_without_pandas_name_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install 'groundset\[pandas\]'"):
        DataCompyScore().score(table(RESPONSE_TABLE))


CONTEXT_STORAGE = (
    "The server keeps raw samples for fifteen days by default.\n"
    "Older blocks are removed by the\ncompactor once they expire."
)
CONTEXT_COUNTER = (
    "A _counter_ only goes up; it resets to zero when the process restarts. "
    "Use a [gauge](/docs/gauge) for values that can fall."
)
CONTEXTS = [CONTEXT_STORAGE, CONTEXT_COUNTER]


def quotes(response: str, retrieved: list[str] = CONTEXTS, **options: int):
    sample = SingleTurnSample(user_input="q", response=response, retrieved_contexts=retrieved)
    return QuotedSpansAlignment(**options).score(sample)


def test_curly_quotes_across_lines_and_nested_punctuation():
    result = quotes("The docs say “Older blocks are removed by the compactor once they expire.”")
    assert result.value == 1.0 and result.trace["context_index"] == [0]  # split over two lines there
    nested = quotes(
        "As documented, “a counter only goes up; it resets to zero when the process restarts,” and "
        "‘use a gauge for values that can fall’."
    )
    assert nested.value == 1.0 and nested.trace["context_index"] == [1, 1]  # Markdown emphasis and link
    inner = quotes("“Older blocks are removed by the ‘compactor’ once they expire”")
    assert inner.trace["spans"] == ["Older blocks are removed by the ‘compactor’ once they expire"]
    assert inner.value == 1.0


def test_misquotes_score_below_one():
    result = quotes(
        'It says "The server keeps raw samples for thirty days" and '
        "'keeps raw samples for fifteen days'; also «OLDER BLOCKS ARE REMOVED».",
    )
    assert result.trace["context_index"] == [None, 0, 0]
    assert result.value == pytest.approx(2 / 3)
    assert "not found: “The server keeps raw samples for thirty days”" in result.reason
    # the end of one context and the start of the next
    across = quotes("“by default. A counter only goes up”")
    assert across.value == 0.0
    assert quotes("“keeps raw samples for fifteen days”", retrieved=[]).value == 0.0


def test_ellipsis_marks_an_omission_in_order():
    assert quotes("“The server keeps … by default”").value == 1.0
    assert quotes('"The server keeps [...] once they expire"').value == 1.0
    assert quotes("“once they expire ... The server keeps”").value == 0.0


def test_nothing_quoted_is_nan_and_apostrophes_are_not_quotes():
    for response in (
        "It's the server's job, isn't it? Don't delete 'raw' data.",
        "",
        'They call it "raw samples"',
    ):
        result = quotes(response)
        assert math.isnan(result.value) and "nothing quoted" in result.reason
    assert quotes('They call it "raw samples"', min_span_words=2).value == 1.0
    assert len(quoted_spans("“a b c d” and «e f g»", 4)) == 1
    with pytest.raises(ValueError, match="min_span_words must be an integer >= 1, got 0"):
        QuotedSpansAlignment(min_span_words=0)


def test_chinese_corner_brackets():
    retrieved = ["服务器默认保存原始样本十五天，之后压缩旧的数据块。"]
    assert quotes("文档写道：「默认保存原始样本十五天」。", retrieved=retrieved).value == 1.0
    assert quotes("文档写道：『默认保存原始样本三十天』。", retrieved=retrieved).value == 0.0


def test_offline_and_with_an_llm_give_the_same_scores_and_make_no_call(stub, chat):
    rows = [
        SingleTurnSample(
            user_input="How long are samples kept?",
            response="“The server keeps raw samples for fifteen days”",
            reference=REFERENCE_TABLE,
            retrieved_contexts=RETRIEVED,
            reference_contexts=REFERENCES,
        ),
        SingleTurnSample(
            user_input="Which metrics are there?",
            response=RESPONSE_TABLE,
            reference=REFERENCE_TABLE,
            retrieved_contexts=RETRIEVED[1:],
            reference_contexts=REFERENCES[:1],
        ),
    ]

    def metrics():
        return [
            NonLLMContextPrecisionWithReference(),
            NonLLMContextRecall(),
            DataCompyScore(),
            QuotedSpansAlignment(),
        ]

    offline = evaluate(EvaluationDataset(rows), metrics(), show_progress=False, cache=False)
    online = evaluate(EvaluationDataset(rows), metrics(), llm=chat, show_progress=False, cache=False)
    assert stub.requests == []
    expected = {
        "non_llm_context_precision_with_reference": [(1 + 2 / 3) / 2, 0.0],
        "non_llm_context_recall": [2 / 3, 0.0],
        "data_compy_score": [0.0, 2 / 3],
        "quoted_spans_alignment": [1.0, math.nan],
    }
    for name, values in expected.items():
        for result in (offline, online):
            assert result.scores(name) == pytest.approx(values, nan_ok=True), name
    assert all(cls.needs_llm is False for cls in (DataCompyScore, QuotedSpansAlignment, NonLLMContextRecall))
