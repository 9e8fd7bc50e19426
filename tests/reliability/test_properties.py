"""Property-based tests (hypothesis): what any input may do to the loaders and the model-free metrics.

The document loader accounts for every file (loaded, skipped with a reason, or a duplicate) and never
raises; the dataset parsers give a dataset or a ConfigError naming the row or line, never another
exception; every model-free score is in its declared range or NaN. Examples are few and small (the
whole module runs in seconds): these tests look for crashes on odd input, not for statistics.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import math
import os
import re
import string
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from groundset.core.errors import ConfigError
from groundset.documents import load_documents
from groundset.samples.dataset import EvaluationDataset
from groundset.samples.evaluation import KNOWN_NAMES, MultiTurnSample, SingleTurnSample
from groundset.scoring import formulas, retrieval
from groundset.scoring.metrics import METRICS
from groundset.scoring.metrics.text import DistanceMeasure

# GROUNDSET_HYPOTHESIS_EXAMPLES=2000 hunts longer, by hand; CI keeps the default, a few seconds in all.
EXAMPLES = int(os.environ.get("GROUNDSET_HYPOTHESIS_EXAMPLES", "40"))
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(FAST, max_examples=max(1, EXAMPLES // 2))

# Characters that break naive text code: CJK, right-to-left scripts and marks, emoji with ZWJ and skin
# tones, combining marks, zero-width characters, odd whitespace and line separators, quotes, controls.
TRICKY = list(
    "普罗米修斯监控日本語한국어 بروميثيوس מערכת \u200f\u200e\u202e 👩\u200d💻👍🏽🇳🇴 e\u0301\u0308 "
    "\u200b\u200c\u200d\u2060\ufeff \u00a0\u2028\u2029\u0085\t\n\r\x00\x0b\x1f\x7f \"'“”«»「」…*_[]()#`"
)
CHARS = st.one_of(st.sampled_from(TRICKY), st.characters(), st.sampled_from(string.ascii_letters + " .,"))
TEXT = st.text(CHARS, max_size=60)
WORDS = ["the", "metric", "普罗米修斯", "données", "مراقبة", "👍", "a.", ","]
SENTENCE = st.one_of(TEXT, st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join))
# Lone surrogates: JSON can spell them ("\ud83d"), Python rows can hold them; they are not Unicode.
LONE = st.sampled_from(["\ud800", "\udfff", "\ud83d"])
TEXT_WITH_LONE = st.one_of(TEXT, st.tuples(TEXT, LONE, TEXT).map("".join))


def finite_json(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(st.lists(children, max_size=3), st.dictionaries(TEXT, children, max_size=3))


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), TEXT_WITH_LONE
)
JSON = st.recursive(JSON_SCALARS, finite_json, max_leaves=8)
FIELD_NAMES = st.one_of(
    st.sampled_from(sorted(KNOWN_NAMES)),
    st.sampled_from(["responce", "User_Input", "label", "ticket_id", "", " ", "id", "synthesizer"]),
    TEXT,
)
STRINGS = st.lists(TEXT_WITH_LONE, max_size=3)
TOOL_NAMES = st.sampled_from(["search", "weather", "查询", "👍"])
ARGS = st.dictionaries(st.sampled_from(["city", "n", "q", "文", ""]), JSON, max_size=3)
CALL = st.fixed_dictionaries({"name": TOOL_NAMES, "args": ARGS})
obj = st.fixed_dictionaries
FUNCTION = obj({"name": TOOL_NAMES, "arguments": st.one_of(ARGS.map(json.dumps), TEXT)})
OPENAI_CALL = obj({"id": TEXT, "type": st.just("function"), "function": FUNCTION})
MESSAGE = st.one_of(
    obj({"role": st.sampled_from(["user", "system", "developer"]), "content": TEXT_WITH_LONE}),
    obj({"type": st.just("human"), "content": TEXT_WITH_LONE}),
    obj(
        {"role": st.just("assistant"), "content": st.one_of(st.none(), TEXT)},
        optional={"tool_calls": st.lists(OPENAI_CALL, max_size=2)},
    ),
    obj({"type": st.just("ai"), "content": TEXT, "tool_calls": st.lists(CALL, max_size=2)}),
    obj({"role": st.just("tool"), "content": TEXT, "tool_call_id": TEXT}),
)
LISTS = ["retrieved_contexts", "retrieved_context_ids", "reference_contexts", "multi_responses"]
SINGLE_ROW = obj(
    {},
    optional={
        **dict.fromkeys(["user_input", "response", "reference"], TEXT_WITH_LONE),
        **dict.fromkeys(LISTS, STRINGS),
        "rubrics": st.dictionaries(TEXT, TEXT, max_size=2),
        "metadata": st.dictionaries(TEXT, JSON, max_size=2),
        "label": JSON,
    },
)
MULTI_ROW = obj(
    {"user_input": st.lists(MESSAGE, min_size=1, max_size=4)},
    optional={
        "reference": TEXT_WITH_LONE,
        "reference_tool_calls": st.lists(st.one_of(CALL, OPENAI_CALL), max_size=3),
        "reference_topics": STRINGS,
        "ticket_id": JSON,
    },
)
PLAUSIBLE = st.one_of(SINGLE_ROW, MULTI_ROW)
# A plausible row with one field spoiled: the value of any shape, under any name.
SPOILED = st.tuples(PLAUSIBLE, FIELD_NAMES, JSON).map(lambda t: {**t[0], t[1]: t[2]})
ROW = st.one_of(PLAUSIBLE, PLAUSIBLE, SPOILED, JSON)
ROWS = st.lists(ROW, max_size=4)


def run(metric, sample):
    return asyncio.run(metric.ascore(sample)).value


def in_range(value: float, low: float = 0.0, high: float = 1.0) -> bool:
    return math.isnan(value) or low <= value <= high


# --- the document loader ------------------------------------------------------------------------------

NAMES = ["a.md", "b.txt", "c.html", "d.rst", "e.markdown", "sub/f.md", "sub/g.htm", "h.MD"]
CONTENT = st.one_of(
    st.binary(max_size=300),
    TEXT.map(lambda text: text.encode("utf-8", errors="surrogatepass")),
    st.tuples(
        TEXT, st.sampled_from(["utf-16", "utf-8-sig", "cp1252", "latin-1", "gb18030", "shift_jis"])
    ).map(lambda pair: pair[0].encode(pair[1], errors="replace")),
    st.tuples(TEXT, st.binary(max_size=8), TEXT).map(
        lambda t: t[0].encode(errors="surrogatepass") + t[1] + t[2].encode(errors="surrogatepass")
    ),
    st.sampled_from(
        [b"\x1f\x8b\x08\x00", b"%PDF-1.4\n", b"---\ntitle: x\n---\n", b"<html><script>x</script>"]
    ),
)
FOLDERS = st.dictionaries(st.sampled_from(NAMES), CONTENT, min_size=1, max_size=5)


def check_accounting(result, expected: set[str]) -> None:
    """Every file exactly once: loaded, skipped with a reason, or a duplicate of a loaded one."""
    report = result.report
    outcomes = [*report.loaded, *(item.path for item in [*report.skipped, *report.duplicates])]
    assert sorted(outcomes) == sorted(expected)
    assert all(item.reason for item in report.skipped)
    assert {item.path for item in report.repaired} <= set(report.loaded)
    assert {item.duplicate_of for item in report.duplicates} <= set(report.loaded)
    assert [d.metadata["source"] for d in result.documents] == report.loaded
    for document in result.documents:
        text = document.page_content
        text.encode("utf-8")  # valid Unicode: no lone surrogate survives
        assert text.strip() and not re.search("[\x00-\x08\x0b-\x1f\x7f]", text)


@FAST
@given(FOLDERS)
def test_loader_accounts_for_every_file_of_any_bytes(files):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, data in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(data)
        check_accounting(load_documents(root), set(files))


@FAST
@given(st.lists(st.one_of(TEXT_WITH_LONE, st.tuples(TEXT, st.sampled_from(TRICKY)).map("".join)), max_size=4))
def test_loader_takes_any_document_text(texts):
    documents = [
        Document(page_content=text, metadata={"source": f"doc{i}.md"}) for i, text in enumerate(texts)
    ]
    check_accounting(load_documents(documents), {f"doc{i}.md" for i in range(len(texts))})


# --- dataset parsing ----------------------------------------------------------------------------------


def check_row_error(error: ConfigError, prefix: str) -> int:
    """The message starts with the row's place, and that place exists."""
    match = re.match(rf"{re.escape(prefix)}(\d+)\b", str(error))
    assert match, str(error)
    assert "\n" not in str(error)
    return int(match.group(1))


@FAST
@given(ROWS)
def test_from_list_gives_a_dataset_or_names_the_row(rows):
    try:
        dataset = EvaluationDataset.from_list(rows, notify=False)
    except ConfigError as error:
        assert check_row_error(error, "row ") < len(rows)
        return
    assert len(dataset) == len(rows)
    # What loads can be written and read back: no lone surrogate is left to break the UTF-8 writer.
    json.dumps(dataset.to_list(), ensure_ascii=False).encode("utf-8")
    assert EvaluationDataset.from_list(dataset.to_list(), notify=False) == dataset


@FAST
@given(ROWS, st.booleans(), st.lists(st.sampled_from([b"", b"  ", b"\t", b"\xff{", b"\xc3"]), max_size=2))
def test_from_jsonl_gives_a_dataset_or_names_the_line(rows, ascii_only, odd_lines):
    """Rows as JSON (lone surrogates raw, which is not UTF-8, or escaped), then blank or broken lines."""
    lines = [json.dumps(row, ensure_ascii=ascii_only).encode(errors="surrogatepass") for row in rows]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "data.jsonl"
        path.write_bytes(b"\n".join([*lines, *odd_lines]))
        try:
            dataset = EvaluationDataset.from_jsonl(path)
        except ConfigError as error:
            assert 1 <= check_row_error(error, f"{path} line ") <= len(lines) + len(odd_lines)
            return
        out = Path(folder) / "back.jsonl"
        dataset.to_jsonl(out)  # writable, whatever was read
        assert EvaluationDataset.from_jsonl(out) == dataset


CSV_COLUMNS = st.lists(
    st.sampled_from(["user_input", "response", "reference", "retrieved_contexts", "label", "metadata"]),
    min_size=1,
    max_size=4,
    unique=True,
)
CELL = st.one_of(TEXT, STRINGS.map(lambda items: json.dumps(items, ensure_ascii=False)))


@FAST
@given(CSV_COLUMNS, st.lists(st.lists(CELL, min_size=1, max_size=5), max_size=3))
def test_from_csv_gives_a_dataset_or_names_the_row(columns, rows):
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(columns)
    writer.writerows(rows)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "data.csv"
        path.write_bytes(buffer.getvalue().encode("utf-8", errors="surrogatepass"))
        try:
            dataset = EvaluationDataset.from_csv(path)
        except ConfigError as error:
            assert re.match(rf"{re.escape(str(path))} (row|line) \d+: ", str(error)), str(error)
            return
        assert len(dataset) <= len(rows)
        json.dumps(dataset.to_list(), ensure_ascii=False).encode("utf-8")


# --- formulas and ID-based retrieval ------------------------------------------------------------------

COUNT = st.integers(min_value=0, max_value=10**6)
SCORE = st.floats(min_value=0.0, max_value=1.0)
IDS = st.lists(st.sampled_from(["c1", "c2", "c3", "c4", "c5", "", "文", "👍"]), max_size=8)
FLOATS = st.floats(allow_nan=False, allow_infinity=False)


@FAST
@given(st.lists(st.sampled_from([0, 1, True, False]), max_size=20), COUNT, COUNT, COUNT)
def test_count_formulas_stay_in_range(verdicts, tp, fp, fn):
    precision = formulas.average_precision(verdicts)
    assert in_range(precision) and (math.isnan(precision) == (not verdicts))
    for value in (
        formulas.precision_from_counts(tp, fp, fn),
        formulas.recall_from_counts(tp, fp, fn),
        formulas.f1_from_counts(tp, fp, fn),
    ):
        assert in_range(value)
        assert math.isnan(value) == (tp == fp == fn == 0)
    assert in_range(formulas.ratio(min(tp, fp), max(tp, fp)))


@FAST
@given(st.lists(st.tuples(SCORE, st.floats(min_value=0, max_value=1e6)), min_size=1, max_size=6))
def test_weighted_blend_stays_in_range(pairs):
    scores, weights = [s for s, _ in pairs], [w for _, w in pairs]
    if sum(weights) == 0:
        with pytest.raises(ValueError):
            formulas.weighted_blend(scores, weights)
        return
    assert 0.0 <= formulas.weighted_blend(scores, weights) <= 1.0 + 1e-12


@FAST
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(*[st.lists(FLOATS, min_size=n, max_size=n)] * 2)))
def test_cosine_is_in_range_and_nan_only_without_direction(vectors):
    a, b = vectors
    value = formulas.cosine(a, b)
    no_direction = not any(a) or not any(b)
    assert math.isnan(value) == no_direction
    assert in_range(value, -1.0, 1.0)


@FAST
@given(st.lists(st.one_of(SCORE, st.just(math.nan)), max_size=30), st.integers(min_value=0, max_value=10))
def test_bootstrap_intervals_hold_the_mean_within_the_scores(values, min_n):
    mean, low, high = formulas.bootstrap_ci(values, resamples=50, min_n=min_n)
    finite = [v for v in values if not math.isnan(v)]
    assert math.isnan(mean) == (not finite)
    if not math.isnan(low):
        assert min(finite) - 1e-12 <= low <= mean <= high <= max(finite) + 1e-12
    diff, low, high = formulas.paired_bootstrap_diff(values, list(reversed(values)), resamples=50)
    assert in_range(diff, -1.0, 1.0) and in_range(low, -1.0, 1.0) and in_range(high, -1.0, 1.0)


@FAST
@given(IDS, IDS, st.one_of(st.none(), st.integers(min_value=1, max_value=10)))
def test_id_retrieval_metrics_stay_in_range(retrieved, relevant, k):
    values = [
        retrieval.id_precision(retrieved, relevant),
        retrieval.id_recall(retrieved, relevant),
        retrieval.hit_rate(retrieved, relevant, k),
        retrieval.reciprocal_rank(retrieved, relevant),
        retrieval.ndcg_at_k(retrieved, relevant, k),
    ]
    for value in values:
        assert in_range(value)
        assert math.isnan(value) == (not relevant)


# --- model-free metrics on any valid sample -----------------------------------------------------------

TEXT_METRICS = [METRICS[name]() for name in ("exact_match", "string_presence", "bleu_score", "chrf_score")]
TEXT_METRICS += [METRICS["chrf_score"](word_order=2)]  # chrF++
TEXT_METRICS += [METRICS["non_llm_string_similarity"](distance_measure=m) for m in DistanceMeasure]
ROUGE_METRICS = [
    METRICS["rouge_score"](rouge_type=kind, mode=mode, tokenizer=tokenizer)
    for kind, mode, tokenizer in [("rouge1", "fmeasure", "auto"), ("rouge2", "precision", "words")]
    + [("rougeL", "recall", "rouge"), ("rougeL", "fmeasure", "words")]
]
TOOL_METRICS = [METRICS["tool_call_accuracy"](strict_order=order) for order in (True, False)]
TOOL_METRICS += [METRICS["tool_call_accuracy"](arg_comparison="string_similarity"), METRICS["tool_call_f1"]()]


@FAST
@given(SENTENCE, SENTENCE)
def test_text_metrics_stay_in_range(response, reference):
    sample = SingleTurnSample(response=response, reference=reference)
    for metric in TEXT_METRICS:
        value = run(metric, sample)
        assert in_range(value), (metric, value)
        assert math.isnan(value) == (not reference.strip()), (metric, value)


@FEWER
@given(SENTENCE, SENTENCE)
@example(response="0", reference="\ud800")  # a lone surrogate: spaCy's tokenizer cannot encode it
def test_rouge_stays_in_range(response, reference):
    sample = SingleTurnSample(response=response, reference=reference)
    for metric in ROUGE_METRICS:
        value = run(metric, sample)
        assert in_range(value), (metric, value)
        if not reference.strip():
            assert math.isnan(value)


CONTEXTS = st.lists(SENTENCE, max_size=4)


@FAST
@given(CONTEXTS, CONTEXTS, st.sampled_from(list(DistanceMeasure)), st.floats(min_value=0, max_value=1))
def test_context_matching_stays_in_range(retrieved, references, measure, threshold):
    sample = SingleTurnSample(retrieved_contexts=retrieved, reference_contexts=references)
    options = {"distance_measure": measure, "threshold": threshold}
    precision = run(METRICS["non_llm_context_precision_with_reference"](**options), sample)
    recall = run(METRICS["non_llm_context_recall"](**options), sample)
    has_reference = any(text.strip() for text in references)
    assert in_range(precision) and math.isnan(precision) == (not retrieved or not has_reference)
    assert in_range(recall) and math.isnan(recall) == (not has_reference)


QUOTED = st.tuples(SENTENCE, st.sampled_from(['"', "'", "“", "«", "「", "„"]), SENTENCE, SENTENCE).map(
    lambda t: f"{t[0]} {t[1]}{t[2]}{ {'“': '”', '«': '»', '「': '」', '„': '“'}.get(t[1], t[1]) } {t[3]}"
)


@FAST
@given(st.one_of(QUOTED, SENTENCE), CONTEXTS, st.integers(min_value=1, max_value=4))
def test_quoted_spans_stay_in_range(response, contexts, min_words):
    value = run(
        METRICS["quoted_spans_alignment"](min_span_words=min_words),
        SingleTurnSample(response=response, retrieved_contexts=contexts),
    )
    assert in_range(value)


def conversation(calls: list[dict]) -> list:
    messages = [HumanMessage("question 普罗米修斯 👩\u200d💻")]
    for index, call in enumerate(calls):
        messages.append(AIMessage("", tool_calls=[{**call, "id": f"call-{index}"}]))
        messages.append(ToolMessage("result", tool_call_id=f"call-{index}"))
    return [*messages, AIMessage("done")]


@FAST
@given(st.lists(CALL, max_size=4), st.lists(CALL, max_size=4))
def test_tool_call_metrics_stay_in_range(made, reference):
    sample = MultiTurnSample(user_input=conversation(made), reference_tool_calls=reference)
    for metric in TOOL_METRICS:
        value = run(metric, sample)
        assert in_range(value), (metric, value)
        assert math.isnan(value) == (not made and not reference)
