"""`groundset review` as a user runs it: a process that prints its URL, serves the page, and says where the
review stands when it is stopped with Ctrl+C; a bad file or a taken port is one clear line."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from groundset.cli import main
from groundset.review import ReviewStore
from groundset.samples.testset import Testset, TestsetSample


def _testset(path: Path) -> Path:
    samples = [
        TestsetSample.create(
            user_input=f"What is the retention of block {n}?",
            reference=f"Block {n} is kept for {n + 1} days.",
            reference_contexts=[f"Block {n} is kept for {n + 1} days. It is then compacted."],
            reference_context_ids=[f"c{n}"],
            source_documents=["docs/storage.md"],
            synthesizer="single_hop_specific",
        )
        for n in range(3)
    ]
    Testset(samples, {}).to_jsonl(path)
    return path


def test_the_command_serves_the_page_and_prints_the_state_when_stopped(tmp_path):
    path = _testset(tmp_path / "golden.jsonl")
    ReviewStore(path).keep(Testset.from_jsonl(path)[0].id)
    command = [
        sys.executable,
        "-c",
        "from groundset.cli import run; run()",
        "review",
        str(path),
        "--no-browser",
    ]
    environment = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment
    )
    try:
        lines = [process.stdout.readline() for _ in range(2)]
        assert lines[0].startswith("review: 3 samples: 2 pending, 1 kept; kept 100% of 1 decided"), lines
        url = lines[1].split(" at ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        for _ in range(100):
            try:
                with urllib.request.urlopen(url, timeout=5) as reply:
                    page = reply.read().decode("utf-8")
                break
            except OSError:
                time.sleep(0.1)
        assert "What is the retention of block 0?" in page and "1 of 3" in page
    finally:
        process.send_signal(signal.SIGINT)
        rest, errors = process.communicate(timeout=30)
    assert "review: 3 samples" in rest, (rest, errors)


def test_a_missing_file_and_a_taken_port_are_one_clear_line(tmp_path, capsys):
    assert main(["review", str(tmp_path / "none.jsonl"), "--no-browser"]) == 1
    assert "no test set at" in capsys.readouterr().err
    path = _testset(tmp_path / "golden.jsonl")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["review", str(path), "--no-browser", "--port", str(port)]) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_a_csv_test_set_is_reviewed_in_place(tmp_path):
    path = tmp_path / "golden.csv"
    Testset.from_jsonl(_testset(tmp_path / "golden.jsonl")).to_csv(path)
    store = ReviewStore(path)
    first = store.items()[0].sample
    store.tag(first.id, add=["critical"])
    store.reject(store.items()[1].sample.id, "duplicate")
    again = Testset.from_csv(path)
    assert len(again) == 2 and again[0].tags == ["critical"] and again[0].id == first.id


@pytest.mark.parametrize("argv", [["review", "--help"]])
def test_help_names_every_action_and_key(argv, capsys):
    with pytest.raises(SystemExit):
        from groundset.cli import app

        app(argv, prog_name="groundset")
    text = capsys.readouterr().out
    for word in ("keep", "edit", "reject", "tag", "--kg", "--port", "--no-browser", "rejected.jsonl"):
        assert word in text
