"""The streaming run-file writer: the same bytes as the one-string writer, and never half a file.

`EvaluationResult.to_jsonl` streams its lines (a 20,000-sample run is never one string in memory);
these check that the bytes did not change, that a line source failing midway or a writer killed midway
leaves the previous file whole, and that a killed writer's temporary is removed by the next write.
"""

from __future__ import annotations

import json
import math
import os
import signal
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from groundset.core.atomic import atomic_directory, atomic_write_lines, atomic_write_text
from groundset.core.records import finite_or_none
from groundset.scoring import EvaluationDataset, SingleTurnSample
from groundset.scoring.result import HEADER_KEY, Cell, EvaluationResult, TargetCall

posix_only = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin", reason="needs fork")


def a_result(n: int = 40, *, target: bool = False) -> EvaluationResult:
    samples = [
        SingleTurnSample(
            user_input=f"Was ist ein Zähler Nr. {i}? 「計数」",
            response="A counter only goes up.\nIt resets on restart.",
            retrieved_contexts=["Counters go up.", "Gauges go up and down \u2014 both ways."],
            reference="A counter is cumulative.",
            metadata={"id": f"s{i}"},
        )
        for i in range(n)
    ]
    cells = [
        {
            "faithfulness": Cell(i / n, "2 of 2 statements supported", {"verdicts": [1, 0.5, float("nan")]}),
            "context_recall": Cell(float("nan"), error="TimeoutError: slow") if i % 7 == 0 else Cell(1.0),
        }
        for i in range(n)
    ]
    calls = [TargetCall(0.01 * i, "" if i % 5 else "HTTP 500") for i in range(n)] if target else None
    usage = {"faithfulness": {"calls": 3.0, "cache_hits": 1.0}}
    notes = {"faithfulness": "offline: lexical support"}
    data = EvaluationDataset(samples)
    return EvaluationResult(data, ["faithfulness", "context_recall"], cells, usage, notes, "bm25", calls)


def one_string_bytes(result: EvaluationResult) -> bytes:
    """What to_jsonl wrote before it streamed: every line joined into one string."""
    header = {
        HEADER_KEY: 1,
        "metrics": result.metrics,
        "aggregate": result.aggregate(),
        "usage": result.usage,
        "notes": result.notes,
    }
    if result.target_calls is not None:
        header["target"] = {"name": result.target, **result.target_summary()}
    calls = result.target_calls or [None] * len(result.cells)
    lines = [json.dumps(finite_or_none(header), sort_keys=True, allow_nan=False)]
    for sample, row, call in zip(result.dataset.to_list(), result.cells, calls, strict=True):
        record = {"sample": sample, "cells": {m: asdict(c) for m, c in row.items()}}
        if call is not None:
            record["target"] = asdict(call)
        lines.append(json.dumps(finite_or_none(record), ensure_ascii=False, allow_nan=False, default=str))
    return ("\n".join(lines) + "\n").encode("utf-8")


@pytest.mark.parametrize("target", [False, True])
def test_the_streamed_run_file_has_the_bytes_of_the_one_string_writer(tmp_path, target):
    result = a_result(target=target)
    result.to_jsonl(tmp_path / "run.jsonl")
    assert (tmp_path / "run.jsonl").read_bytes() == one_string_bytes(result)
    back = EvaluationResult.load(tmp_path / "run.jsonl")
    assert back.sample_ids() == result.sample_ids() and len(back.cells) == len(result.cells)
    assert math.isnan(back.cells[0]["context_recall"].value) and back.cells[0]["context_recall"].error
    assert os.listdir(tmp_path) == ["run.jsonl"]


def test_lines_are_written_as_the_joined_text_would_be(tmp_path):
    lines = ["", "plain", "ünïcödé 計数 \u2028", "carriage\rreturn", "  spaces  ", ""]
    atomic_write_lines(tmp_path / "lines.txt", iter(lines))
    atomic_write_text(tmp_path / "text.txt", "\n".join(lines) + "\n")
    assert (tmp_path / "lines.txt").read_bytes() == (tmp_path / "text.txt").read_bytes()
    atomic_write_lines(tmp_path / "empty.txt", [])
    assert (tmp_path / "empty.txt").read_bytes() == b""


def failing_after(count: int):
    for i in range(count):
        yield f'{{"line": {i}}}'
    raise RuntimeError("the line source broke midway")


def test_a_line_source_that_raises_midway_leaves_the_old_file_and_no_temporary(tmp_path):
    out = tmp_path / "run.jsonl"
    out.write_bytes(b"the previous run\n")
    # enough lines to pass the write buffer, so part of them did reach the temporary file
    with pytest.raises(RuntimeError, match="broke midway"):
        atomic_write_lines(out, failing_after(50_000))
    assert out.read_bytes() == b"the previous run\n" and os.listdir(tmp_path) == ["run.jsonl"]
    with pytest.raises(RuntimeError, match="broke midway"):
        atomic_write_lines(tmp_path / "new.jsonl", failing_after(3))
    assert os.listdir(tmp_path) == ["run.jsonl"]


def test_a_run_file_that_fails_midway_keeps_the_previous_run(tmp_path, monkeypatch):
    out = tmp_path / "run.jsonl"
    a_result(5).to_jsonl(out)
    before = out.read_bytes()
    import groundset.scoring.result as module

    calls = 0
    real_asdict = module.asdict

    def breaking_asdict(value):
        nonlocal calls
        calls += 1
        if calls > 30:
            raise MemoryError("out of memory at sample 15")
        return real_asdict(value)

    monkeypatch.setattr(module, "asdict", breaking_asdict)
    with pytest.raises(MemoryError):
        a_result(40).to_jsonl(out)
    assert out.read_bytes() == before and os.listdir(tmp_path) == ["run.jsonl"]


@posix_only
def test_a_killed_writer_leaves_the_old_file_and_the_next_write_removes_its_temporary(tmp_path):
    out = tmp_path / "run.jsonl"
    out.write_bytes(b"the previous run\n")
    pid = _writer_killed_midway(out)
    left = [p.name for p in tmp_path.iterdir() if p.name != "run.jsonl"]
    assert out.read_bytes() == b"the previous run\n"
    assert len(left) == 1 and left[0].startswith(f".run.jsonl.{pid}.") and left[0].endswith(".tmp")
    assert (tmp_path / left[0]).stat().st_size > 0  # it was killed with part of the lines written
    live = tmp_path / f".run.jsonl.{os.getppid()}.abcdefgh.tmp"  # a running writer's: kept
    live.write_bytes(b"in progress")
    atomic_write_lines(out, ["new"])
    assert out.read_bytes() == b"new\n"
    assert sorted(os.listdir(tmp_path)) == sorted([live.name, "run.jsonl"])


@posix_only
def test_a_folder_swap_killed_between_its_renames_gets_the_old_output_back(tmp_path):
    """Killed after moving the old output aside and before renaming the new one in: the next save of
    that folder puts the old one back first (here that save fails, so the old output stays)."""
    dead = _dead_pid()
    backup = tmp_path / f".kg.{dead}.x1y2z3_4.tmp.old"
    staged = tmp_path / f".kg.{dead}.x1y2z3_4.tmp"
    for folder, text in ((backup, "old"), (staged, "new")):
        folder.mkdir()
        (folder / "graph.json").write_text(text)
    with pytest.raises(RuntimeError), atomic_directory(tmp_path / "kg", marker="graph.json"):
        raise RuntimeError("this save fails too")
    assert os.listdir(tmp_path) == ["kg"] and (tmp_path / "kg" / "graph.json").read_text() == "old"


def _writer_killed_midway(out: Path) -> int:
    """Fork a process that streams lines to ``out``, SIGKILL it once part is on disk; return its pid."""
    ready, go = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(ready)

            def lines():
                for i in range(100_000):
                    yield json.dumps({"sample": i, "text": "x" * 50})
                    if i == 20_000:  # past the write buffer: part of the file is on disk
                        os.write(go, b"1")
                        signal.pause()

            atomic_write_lines(out, lines())
        finally:
            os._exit(0)
    os.close(go)
    try:
        assert os.read(ready, 1) == b"1"
    finally:
        os.close(ready)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return pid


def _dead_pid() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid
