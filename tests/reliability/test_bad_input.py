"""Bad input through the CLI, as a user meets it: one clear line naming the file, the line and the field
(no traceback), or the input is processed correctly and the scores say so.

Each case runs ``groundset.cli.main`` the way the ``groundset`` command does, offline. Bad files put the
bad record on line 2 (row 3 of a CSV) after a good one, so the location in the message is checked too.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundset.cli import main
from groundset.core.errors import ConfigError
from groundset.samples.dataset import EvaluationDataset
from groundset.samples.testset import Testset
from groundset.scoring.compare import compare_runs
from groundset.scoring.result import Cell, EvaluationResult, TargetCall

from ..corpora import MESSY

OFFLINE = ["--no-cache", "--quiet"]
GOOD = {
    "user_input": "What is Prometheus?",
    "response": "Prometheus is a monitoring system.",
    "retrieved_contexts": ["Prometheus is an open-source monitoring system."],
    "reference": "A monitoring system.",
}
TOOL_TURN = [{"role": "user", "content": "Weather in Oslo?"}]
BAD_ARGS_CALL = {"type": "function", "function": {"name": "weather", "arguments": "{oops"}}


def cli(capsys, *args) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line_error(code: int, err: str, *names: str) -> str:
    """Exit 1 and one line on stderr, a groundset error (not "error (KeyError)" and a --debug hint)."""
    assert code == 1 and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for name in names:
        assert name in lines[0], (name, err)
    return lines[0]


def encode(line: object) -> bytes:
    if isinstance(line, bytes):
        return line
    return (line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)).encode("utf-8")


def write_jsonl(path, *lines: object):
    path.write_bytes(b"".join(encode(line) + b"\n" for line in lines))
    return path


def write_csv(path, rows: list[list[str]], encoding: str = "utf-8"):
    buffer = io.StringIO(newline="")
    csv.writer(buffer).writerows(rows)
    path.write_bytes(buffer.getvalue().encode(encoding))
    return path


# --- files that cannot be read: one line naming the file, the line and the field ----------------------

BAD_DATASET = [
    ("wrong type", {**GOOD, "response": 5}, "response: must be a string, got a number"),
    ("string for a list", {**GOOD, "retrieved_contexts": "abc"}, "retrieved_contexts: must be a list"),
    ("wrong list item", {**GOOD, "retrieved_contexts": ["a", 3]}, "retrieved_contexts: must be a list of "),
    ("not an object", [GOOD], "expected an object"),
    ("broken JSON", b'{"user_input": "q",', "not valid JSON"),
    ("misspelt field", {**GOOD, "responce": "x"}, "'responce', did you mean 'response'"),
    ("key given twice", b'{"user_input": "a", "user_input": "b"}', "'user_input' appears twice"),
    ("nested too deeply", b'{"user_input": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested too deeply"),
    ("huge integer", b'{"response": 1' + b"0" * 5000 + b"}", "4300 digits"),
    ("latin-1", json.dumps({**GOOD, "response": "café"}, ensure_ascii=False).encode("latin-1"), "not UTF-8"),
    ("invalid bytes", b'{"user_input": "a\xff\xfe"}', "not UTF-8 text (invalid start byte"),
    ("two kinds", {"user_input": TOOL_TURN}, "a multi-turn sample, but"),
    ("bad role", {"user_input": [{"role": "alien", "content": "hi"}]}, "user_input: item 0: role must be"),
    (
        "tool arguments",
        {"user_input": TOOL_TURN, "reference_tool_calls": [BAD_ARGS_CALL]},
        "arguments is not",
    ),
    ("rubrics", {**GOOD, "rubrics": ["x"]}, "rubrics: must be an object"),
    ("empty name", {**GOOD, "": "x"}, "names must be non-empty strings"),
    ("old and new name", {**GOOD, "question": "q"}, "'user_input' and 'question' are both given"),
]
LABEL = {**GOOD, "human_score": 1}
BAD_LABELS = [
    ("score not a number", {**GOOD, "human_score": "high"}, "human_score must be a finite number"),
    ("preference half", {"better": GOOD}, "'worse' is missing"),
    ("bad side", {"better": GOOD, "worse": {**GOOD, "response": [1]}}, "worse: response: must be a string"),
    ("latin-1", json.dumps({**LABEL, "x": "é"}, ensure_ascii=False).encode("latin-1"), "not UTF-8"),
    ("key given twice", b'{"human_score": 1, "human_score": 0}', "'human_score' appears twice"),
]
RECORD = {
    "id": "s-1",
    "user_input": "普罗米修斯是什么？",
    "reference": "一个监控系统。",
    "reference_contexts": ["普罗米修斯是一个开源监控系统。"],
    "reference_context_ids": ["c1"],
    "source_documents": ["zh.md"],
    "synthesizer": "single_hop_specific",
}
FRENCH = {**RECORD, "id": "s-2", "user_input": "Qu’est-ce ?", "reference": "Un système."}
FRENCH.update(reference_contexts=["Prometheus est un système de surveillance."], source_documents=["fr.md"])
BAD_TESTSET = [
    ("wrong type", {**RECORD, "id": "s-2", "user_input": 5}, "user_input: Input should be a valid string"),
    ("missing field", {k: v for k, v in RECORD.items() if k != "reference"}, "reference: Field required"),
    ("no contexts", {**RECORD, "id": "s-2", "reference_contexts": []}, "reference_contexts has 0"),
    ("same id", RECORD, "duplicate id 's-1' (first on line 1)"),
    ("cp1252", json.dumps(FRENCH, ensure_ascii=False).encode("cp1252"), "not UTF-8 text"),
]
FIRST = {"evaluate": GOOD, "calibrate": LABEL, "score": RECORD}
CASES = [
    pytest.param(command, bad, words, id=f"{command}: {name}")
    for command, table in (("evaluate", BAD_DATASET), ("calibrate", BAD_LABELS), ("score", BAD_TESTSET))
    for name, bad, words in table
]


@pytest.fixture
def target(tmp_path, monkeypatch):
    """A RAG target (module:function) that answers with the question itself and an emoji."""
    code = "def answer(q):\n    return {'response': q + ' 👍', 'retrieved_contexts': [q]}\n"
    (tmp_path / "bad_input_rag.py").write_text(code, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return "bad_input_rag:answer"


@pytest.mark.parametrize(("command", "bad", "words"), CASES)
def test_a_bad_record_is_one_line_naming_file_line_and_field(command, bad, words, target, tmp_path, capsys):
    path = write_jsonl(tmp_path / "in.jsonl", FIRST[command], bad)
    args = {"evaluate": [], "calibrate": ["--metric", "exact_match"], "score": ["--target", target]}[command]
    where = ["--testset", path] if command == "score" else [path]
    one_line_error(*cli(capsys, command, *where, *args, *OFFLINE)[::2], f"{path} line 2: ", words)


HEADER = ["user_input", "response", "retrieved_contexts", "reference"]
GOOD_ROW = [GOOD["user_input"], GOOD["response"], json.dumps(GOOD["retrieved_contexts"]), GOOD["reference"]]
BAD_CSV = {
    "bad JSON cell": (
        [HEADER, GOOD_ROW, ["q", "r", "[no", "x"]],
        "row 3: retrieved_contexts: not valid JSON",
    ),
    "missing cells": ([HEADER, GOOD_ROW, ["q", "r"]], "row 3: expected 4 cells, found 2"),
    "object for a list": (
        [HEADER, GOOD_ROW, ["q", "r", '{"a": 1}', "x"]],
        "row 3: retrieved_contexts: must be",
    ),
    "repeated column": ([["user_input", "user_input"], ["q", "r"]], "row 1: repeated column names"),
    "misspelt column": ([["user_input", "responce"], ["q", "r"]], "row 1: unknown field 'responce', did you"),
    "latin-1": ([["user_input", "response"], ["q", "réponse"]], "line 2: not UTF-8 text"),
}


@pytest.mark.parametrize("case", list(BAD_CSV))
def test_a_bad_csv_row_is_one_line_naming_file_row_and_column(case, tmp_path, capsys):
    rows, words = BAD_CSV[case]
    path = write_csv(tmp_path / "data.csv", rows, "latin-1" if case == "latin-1" else "utf-8")
    one_line_error(*cli(capsys, "evaluate", path, *OFFLINE)[::2], f"{path} {words}")


def test_missing_columns_are_listed_per_metric_before_any_call(tmp_path, capsys):
    """By design one line per metric and column (a summary line first), each naming the file line."""
    path = write_jsonl(tmp_path / "data.jsonl", GOOD, {"user_input": "q", "response": "r"})
    code, _, err = cli(capsys, "evaluate", path, "--metrics", "faithfulness,context_recall", *OFFLINE)
    assert code == 1 and "Traceback" not in err and err.startswith("error: the dataset cannot be scored")
    assert f"metric faithfulness needs column 'retrieved_contexts', missing in {path} line 2" in err
    assert f"metric context_recall needs column 'reference', missing in {path} line 2" in err


def test_rows_read_from_a_file_of_your_own_are_named_by_its_lines():
    """``from_list(where=...)``: what a run-file reader needs to name the line of a broken sample."""
    with pytest.raises(ConfigError, match=r"^run\.jsonl line 3: response: must be a string"):
        EvaluationDataset.from_list([GOOD, {"response": 5}], where=["run.jsonl line 2", "run.jsonl line 3"])
    assert EvaluationDataset.from_list([GOOD], where=["run.jsonl line 2"]).locations == ["run.jsonl line 2"]


def test_a_missing_dataset_file_is_one_line(tmp_path, capsys):
    one_line_error(*cli(capsys, "evaluate", tmp_path / "nope.jsonl", *OFFLINE)[::2], "nope.jsonl")


def test_score_asks_and_scores_a_unicode_test_set(target, tmp_path, capsys):
    rtl = {**RECORD, "id": "s-2", "user_input": "ما هو بروميثيوس؟ מה זה? e\u0301 👩\u200d💻"}
    path = write_jsonl(tmp_path / "t.jsonl", RECORD, rtl)
    args = ["score", "--testset", path, "--target", target, "--metrics", "string_presence", "-o", "run.jsonl"]
    code, out, err = cli(capsys, *args, *OFFLINE)
    assert code == 0 and "target: bad_input_rag:answer: 2 questions, 0 failed" in out, err
    result = EvaluationResult.load(tmp_path / "run.jsonl")
    assert [s.response for s in result.dataset] == [RECORD["user_input"] + " 👍", rtl["user_input"] + " 👍"]
    assert result.scores("string_presence") == [0.0, 0.0]


BAD_RUNS = {
    "truncated header": (lambda header: header[:60], "line 1: not a groundset run file"),
    "broken record": (lambda header: header + "\n[1]", "line 2: broken run record"),
}
# Each once escaped EvaluationResult.load as another exception, or named the record "row 0".
CELL = '"cells": {"exact_match": {"value": 1}}'
BROKEN_FIELDS = {
    "header not an object": (lambda header: "[1]", "line 1: not a groundset run file (no header line)"),
    "newer format": (lambda header: header.replace('_run": 1', '_run": 2'), "line 1: run file format 2"),
    "metrics not a list": (
        lambda header: header.replace('"metrics": [', '"metrics": 5, "x": ['),
        "line 1: metrics: must be a list of metric names, got a number",
    ),
    "empty file": (lambda header: "", "is not a groundset run file (it is empty)"),
    "cells not an object": (
        lambda header: header + '\n{"sample": {}, "cells": 5}',
        "line 2: cells: must be an object, got a number",
    ),
    "cell missing": (
        lambda header: header + '\n{"sample": {}, "cells": {}}',
        "line 2: cells: no cell for 'exact_match'",
    ),
    "score not a number": (
        lambda header: header + '\n{"sample": {}, "cells": {"exact_match": {"value": "high"}}}',
        "line 2: cells.exact_match.value: must be a number or null, got a string",
    ),
    "bad sample field": (
        lambda header: header + '\n{"sample": {"response": 5}, ' + CELL + "}",
        "line 2: response: must be a string, got a number",
    ),
    "not UTF-8": (
        lambda header: header + '\n{"sample": {"response": "caf\udce9"}, ' + CELL + "}",
        "line 2: not UTF-8 text",
    ),
}


@pytest.fixture
def run_header(tmp_path, capsys) -> str:
    path = write_jsonl(tmp_path / "data.jsonl", GOOD)
    assert (
        cli(capsys, "evaluate", path, "--metrics", "exact_match", "-o", tmp_path / "run.jsonl", *OFFLINE)[0]
        == 0
    )
    return (tmp_path / "run.jsonl").read_text(encoding="utf-8").split("\n")[0]


def check_run(make, words, run_header, tmp_path, capsys) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(make(run_header).encode("utf-8", errors="surrogateescape") + b"\n")
    for args in (["report", broken, "-o", tmp_path / "r.html"], ["compare", tmp_path / "run.jsonl", broken]):
        one_line_error(*cli(capsys, *args)[::2], f"{broken} {words}")


@pytest.mark.parametrize("case", list(BAD_RUNS))
def test_report_and_compare_name_the_line_of_a_broken_run(case, run_header, tmp_path, capsys):
    check_run(*BAD_RUNS[case], run_header, tmp_path, capsys)


@pytest.mark.parametrize("case", list(BROKEN_FIELDS))
def test_report_and_compare_name_every_broken_run_line(case, run_header, tmp_path, capsys):
    check_run(*BROKEN_FIELDS[case], run_header, tmp_path, capsys)


def test_report_and_compare_of_a_missing_run_are_one_line(run_header, tmp_path, capsys):
    missing = tmp_path / "nope.jsonl"
    one_line_error(*cli(capsys, "report", missing)[::2], "nope.jsonl")
    one_line_error(*cli(capsys, "compare", tmp_path / "run.jsonl", missing)[::2], "nope.jsonl")
    one_line_error(*cli(capsys, "compare", missing, tmp_path / "run.jsonl")[::2], "nope.jsonl")


RUN_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
SPOTS = [
    (0, ()),
    (0, ("metrics",)),
    (0, ("usage",)),
    (0, ("usage", "exact_match")),
    (0, ("usage", "exact_match", "calls")),
    (0, ("notes",)),
    (0, ("target",)),
    (0, ("target", "name")),
    (1, ()),
    (1, ("sample",)),
    (1, ("sample", "response")),
    (1, ("sample", "metadata")),
    (1, ("cells",)),
    (1, ("cells", "exact_match")),
    (1, ("cells", "exact_match", "value")),
    (1, ("cells", "exact_match", "trace")),
    (1, ("target",)),
    (1, ("target", "latency_s")),
]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SPOTS), RUN_JSON)
def test_a_run_file_with_any_field_spoiled_loads_whole_or_names_its_line(spot, value):
    """Whatever one field of a run file holds, loading gives a run that reports, compares and writes, or
    a one-line ConfigError naming the spoiled line (a header field may show on a record's line)."""
    line, keys = spot
    sample = {**GOOD, "metadata": {"id": "s-1"}}
    run = EvaluationResult(
        EvaluationDataset.from_list([sample, sample]),
        ["exact_match"],
        [{"exact_match": Cell(1.0, "same")}, {"exact_match": Cell(math.nan, error="x")}],
        {"exact_match": {"calls": 0.0}},
        {"exact_match": "offline"},
        target="rag",
        target_calls=[TargetCall(0.1), TargetCall(error="HTTP 500")],
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.jsonl"
        run.to_jsonl(path)
        records = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
        if keys:
            place = records[line]
            for key in keys[:-1]:
                place = place[key]
            place[keys[-1]] = value
        else:
            records[line] = value
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        try:
            back = EvaluationResult.load(path)
        except ConfigError as error:
            message = str(error)
            assert "\n" not in message and message.startswith(f"{path} line "), message
            assert line == 0 or message.startswith(f"{path} line {line + 1}: "), message
            return
        back.aggregate()
        back.report(Path(folder) / "r.html")
        back.to_jsonl(Path(folder) / "back.jsonl")
        with contextlib.suppress(ConfigError):  # a spoiled sample may leave nothing to pair: said in a line
            compare_runs(path, Path(folder) / "back.jsonl")


# --- input that is processed correctly ------------------------------------------------------------------


def evaluate(capsys, data, metrics: str, *extra) -> EvaluationResult:
    """Score ``data`` offline, write the run beside it, and read the run back."""
    run = data.with_name("run.jsonl")
    code, _, err = cli(capsys, "evaluate", data, "--metrics", metrics, "-o", run, *extra, *OFFLINE)
    assert code == 0 and "Traceback" not in err, err
    return EvaluationResult.load(run)


def test_empty_retrieved_contexts_are_judged_zero(tmp_path, capsys):
    path = write_jsonl(tmp_path / "data.jsonl", *[{**GOOD, "retrieved_contexts": []}] * 3)
    result = evaluate(capsys, path, "faithfulness,context_precision,context_recall")
    assert all(result.scores(name) == [0.0, 0.0, 0.0] for name in result.metrics)
    assert result.cells[0]["faithfulness"].reason.startswith("no retrieved contexts")


HUGE = "Prometheus is a monitoring system. " * 5715  # 200,025 characters


@pytest.mark.parametrize("form", ["jsonl", "csv"])  # csv: beyond the csv module's 131,072-character limit
def test_a_200000_character_response_is_scored(form, tmp_path, capsys):
    row = {**GOOD, "response": HUGE, "retrieved_contexts": json.dumps(GOOD["retrieved_contexts"])}
    if form == "jsonl":
        path = write_jsonl(tmp_path / "data.jsonl", {**GOOD, "response": HUGE})
    else:
        path = write_csv(tmp_path / "data.csv", [HEADER, [row[column] for column in HEADER]])
    result = evaluate(capsys, path, "faithfulness,string_presence,exact_match,chrf_score")
    assert result.scores("faithfulness") == [1.0] and result.scores("exact_match") == [0.0]
    assert result.scores("string_presence") == [0.0] and 0.0 < result.scores("chrf_score")[0] < 1.0
    assert len(result.dataset[0].response) == len(HUGE)


def test_csv_cells_keep_their_newlines_quotes_and_bom(tmp_path, capsys):
    text = 'Prometheus is a\r\nmonitoring "system",\nopen source.'
    rows = [["user_input", "response", "reference"], ["What is\nPrometheus?", text, text], ["q", "=1", "=1"]]
    result = evaluate(capsys, write_csv(tmp_path / "data.csv", rows, "utf-8-sig"), "exact_match")
    assert [s.response for s in result.dataset] == [text, "=1"] and result.scores("exact_match") == [1.0, 1.0]
    assert result.dataset[0].user_input == "What is\nPrometheus?"


UNICODE = [
    "普罗米修斯是一个开源的系统监控和警报工具包。",
    "بروميثيوس هو نظام مراقبة وتنبيه مفتوح المصدر.",
    "פרומתאוס היא מערכת ניטור והתראות בקוד פתוח.",
    "Alerts 🚨 go to the on-call 👩\u200d💻 via PagerDuty 📟 👍🏽.",
    "Cafe\u0301 Zu\u0308rich: combining marks and zero\u200bwidth\u200djoiners.",
]
TEXT_METRICS = "exact_match,string_presence,chrf_score,bleu_score,rouge_score,non_llm_string_similarity"


def test_unicode_everywhere_scores_reports_and_compares(tmp_path, capsys):
    rows = [{"user_input": t, "response": t, "reference": t, "retrieved_contexts": [t]} for t in UNICODE]
    rows.append({**rows[0], "response": UNICODE[1]})
    result = evaluate(
        capsys, write_jsonl(tmp_path / "data.jsonl", *rows), TEXT_METRICS, "--report", tmp_path / "a.html"
    )
    for name in result.metrics:
        assert result.scores(name)[:5] == [1.0] * 5, name  # each text against itself, whatever its script
        assert result.scores(name)[5] < 0.2, name  # Arabic against Chinese
    assert all(text in (tmp_path / "a.html").read_text(encoding="utf-8") for text in UNICODE[:4])
    assert cli(capsys, "report", tmp_path / "run.jsonl", "-o", tmp_path / "b.html")[0] == 0
    code, _, err = cli(
        capsys, "compare", tmp_path / "run.jsonl", tmp_path / "run.jsonl", "--report", tmp_path / "c.html"
    )
    assert code == 0 and "Traceback" not in err


def test_lone_surrogate_escapes_are_repaired_and_the_run_is_written(tmp_path, capsys):
    """JSON may spell half an emoji ("\\ud83d", a JavaScript slice through one): not Unicode, so it becomes
    U+FFFD on reading, and the run file can be written at the end."""
    line = (
        '{"user_input": "q \\ud83d", "response": "r", "retrieved_contexts": ["\\ud800 c"], "reference": "r"}'
    )
    sample = evaluate(capsys, write_jsonl(tmp_path / "data.jsonl", line), "faithfulness,exact_match").dataset[
        0
    ]
    assert sample.user_input == "q \ufffd" and sample.retrieved_contexts == ["\ufffd c"]


DOCS = {
    "zh.md": "# 普罗米修斯\n\n" + "普罗米修斯将指标收集并存储为时间序列数据。" * 3,
    "ar.md": "# بروميثيوس\n\nبروميثيوس هو نظام مراقبة وتنبيه مفتوح المصدر. "
    "يجمع بروميثيوس المقاييس ويخزنها كبيانات سلاسل زمنية.",
    "he.md": "# פרומתאוס\n\nפרומתאוס היא מערכת ניטור והתראות בקוד פתוח. "
    "פרומתאוס אוסף מדדים ושומר אותם כנתוני סדרות זמן.",
    "emoji.md": "# Alerting 🚨\n\nThe Alertmanager 🔔 handles alerts sent by client applications such as the "
    "Prometheus server 👩\u200d💻. It takes care of deduplicating, grouping, and routing them to the correct "
    "receiver integration such as email 📧.",
}


def test_unicode_documents_to_test_set_to_scores(tmp_path, capsys):
    (tmp_path / "docs").mkdir()
    for name, text in DOCS.items():
        (tmp_path / "docs" / name).write_text(text + "\n", encoding="utf-8")
    args = ["-n", "4", "-o", tmp_path / "t.jsonl", "--save-kg", tmp_path / "kg", *OFFLINE]
    code, out, err = cli(capsys, "generate", tmp_path / "docs", *args)
    assert code == 0 and "documents: 4 loaded" in out, err
    testset = Testset.from_jsonl(tmp_path / "t.jsonl")
    scripts = {re.sub(r"[^\u0600-\u06ff\u05d0-\u05ea\u4e00-\u9fff]", "", s.user_input)[:1] for s in testset}
    assert len(testset) >= 2 and len(scripts - {""}) >= 2
    args = [
        "-t",
        tmp_path / "t.jsonl",
        "--target",
        "baseline",
        "--kg",
        tmp_path / "kg",
        "--report",
        tmp_path / "r.html",
    ]
    code, out, err = cli(capsys, "score", *args, *OFFLINE)
    assert code == 0 and f"{len(testset)} questions, 0 failed" in out, err
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert all(sample.user_input.split()[0] in html for sample in testset)


needs_messy = pytest.mark.skipif(not MESSY.is_dir(), reason=f"messy corpus not found at {MESSY}")
BAD_FILES = {"empty.md", "whitespace_only.md", "binary_renamed.md", "frontmatter_only.md"}


@needs_messy
@pytest.mark.slow
def test_generate_on_the_messy_corpus_grounds_questions_in_good_files_only(tmp_path, capsys):
    args = ["generate", MESSY, "-n", "8", "-o", tmp_path / "t.jsonl", "--save-kg", tmp_path / "kg", *OFFLINE]
    code, out, err = cli(capsys, *args)
    assert code == 0 and "Traceback" not in err, err
    assert re.search(r"documents: \d+ loaded, [1-9]\d* repaired, [1-9]\d* skipped, [1-9]\d* duplicates", out)
    testset = Testset.from_jsonl(tmp_path / "t.jsonl")
    assert len(testset) == 8
    for sample in testset:
        assert not BAD_FILES & set(sample.source_documents)
        assert not any(re.search("[\x00-\x08\x0b-\x1f\x7f]", text) for text in sample.reference_contexts)


@needs_messy
def test_generate_names_each_skipped_and_repaired_file(tmp_path, capsys):
    excluded = ["--exclude", "huge_single_line.md", "--exclude", "good/**", "--exclude", "deep_headings.md"]
    code, out, err = cli(
        capsys, "generate", MESSY, "-n", "2", "-o", tmp_path / "t.jsonl", *excluded, *OFFLINE
    )
    assert code == 0, err
    assert "skipped empty.md: empty file" in out and "repaired latin1_encoded.md" in out
