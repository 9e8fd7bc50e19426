"""What groundset writes is safe for the tools that read it: spreadsheets, strict JSON parsers."""

from __future__ import annotations

import csv
import json
import math

import pytest

from groundset.core.errors import ConfigError
from groundset.core.records import from_spreadsheet, json_problem, spreadsheet_safe
from groundset.samples.testset import Testset, TestsetSample
from groundset.scoring import EvaluationDataset, EvaluationResult, SingleTurnSample, evaluate
from groundset.scoring.metrics import ContextPrecision, Faithfulness

HOSTILE = ['=HYPERLINK("http://evil")', "+1+1", "-2", "@SUM(A1)", "\tTab", "'=already", "''x", "'plain"]


@pytest.mark.parametrize("cell", [*HOSTILE, "", "plain", "a=b", "'"])
def test_spreadsheet_cells_round_trip_exactly(cell):
    safe = spreadsheet_safe(cell)
    assert safe[:1] not in ("=", "+", "-", "@", "\t", "\r")
    assert from_spreadsheet(safe) == cell


def sample(question: str) -> TestsetSample:
    return TestsetSample(
        id=f"id-{abs(hash(question))}",
        user_input=question,
        reference="-5 degrees is the default.",
        reference_contexts=["The default is -5 degrees."],
        reference_context_ids=["c1"],
        source_documents=["a.md"],
        synthesizer="single_hop_specific",
    )


def test_testset_csv_neutralises_formulas_and_reads_back(tmp_path):
    testset = Testset([sample(q) for q in ("=cmd|' /C calc'!A0", "@SUM(1)", "+3 or -3?", "Plain?")])
    path = tmp_path / "t.csv"
    testset.to_csv(path)
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        for column in ("user_input", "reference"):
            assert row[column][:1] not in ("=", "+", "-", "@"), row[column]
    assert rows[0]["user_input"] == "'=cmd|' /C calc'!A0"
    assert Testset.from_csv(path) == testset
    assert [s.user_input for s in EvaluationDataset.from_csv(path)] == [s.user_input for s in testset]


def test_run_files_are_strict_json_with_null_and_the_reason(tmp_path):
    rows = [
        SingleTurnSample(user_input="q", response="", retrieved_contexts=["Blocks are kept for 15 days."]),
        SingleTurnSample(
            user_input="q", response="Blocks are kept for 15 days.", retrieved_contexts=["Blocks are kept."]
        ),
    ]
    result = evaluate(EvaluationDataset(rows), [Faithfulness()], show_progress=False, cache=False)
    assert math.isnan(result.cells[0]["faithfulness"].value)
    path = tmp_path / "run.jsonl"
    result.to_jsonl(path)

    def no_constants(name: str) -> None:
        raise AssertionError(f"bare {name} in a run file")

    records = [json.loads(line, parse_constant=no_constants) for line in path.read_text().splitlines()]
    cell = records[1]["cells"]["faithfulness"]
    assert cell["value"] is None and "no statement" in cell["reason"]
    back = EvaluationResult.load(path)
    assert math.isnan(back.cells[0]["faithfulness"].value)
    assert back.cells[1]["faithfulness"].value == result.cells[1]["faithfulness"].value


def test_run_files_with_bare_nan_from_older_versions_still_load(tmp_path):
    path = tmp_path / "old.jsonl"
    header = {"_groundset_run": 1, "metrics": ["context_precision"], "aggregate": {}, "usage": {}}
    record = {"sample": {"user_input": "q"}, "cells": {"context_precision": {"value": float("nan")}}}
    path.write_text(json.dumps(header) + "\n" + json.dumps(record) + "\n")  # json writes NaN bare
    assert "NaN" in path.read_text()
    back = EvaluationResult.load(path)
    assert math.isnan(back.cells[0]["context_precision"].value)
    assert ContextPrecision.name in back.metrics


def test_json_errors_do_not_say_at_at(tmp_path):
    for text in ('{"user_input": "unterminated', '{"user_input": '):
        try:
            json.loads(text)
        except json.JSONDecodeError as exc:
            assert " at at " not in json_problem(exc) and "column" in json_problem(exc)
    path = tmp_path / "bad.jsonl"
    path.write_text('{"user_input": "ok"}\n{"user_input": "unterminated\n')
    with pytest.raises(ConfigError) as caught:
        EvaluationDataset.from_jsonl(path)
    assert "line 2" in str(caught.value) and "at at" not in str(caught.value)
