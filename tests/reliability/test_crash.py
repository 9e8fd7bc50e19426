"""SIGKILL mid-run: outputs stay whole, the call cache stays sound, and a rerun pays for no finished call.

`groundset generate` and `groundset evaluate` run as real processes against the in-process stub (slowed
so a run is caught half-way), and are killed with SIGKILL once some answers are cached. Then: the --out
file is untouched (absent, or its old bytes) with nothing left beside it; the SQLite cache passes
`PRAGMA integrity_check` and `groundset cache info` reads it; a rerun finishes, and its requests plus the
answers cached before the kill are exactly the requests of an uninterrupted run (same output too).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from groundset.cli import main
from groundset.core.cache import FILENAME
from groundset.samples.testset import Testset
from groundset.scoring.result import EvaluationResult

from ..conftest import FAKE_KEY
from ..corpora import EXAMPLE_DOCS
from ..scripted_model import scripted

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)"),
]

CLI = [sys.executable, "-c", "from groundset.cli import run; run()"]
MODELS = ["--llm", "openai:gpt-4o-mini", "--embeddings", "openai:text-embedding-3-small"]
CONCURRENCY = 2  # few requests in flight, so at most this many are sent again after the kill
LATENCY = 0.25  # seconds per stub answer: a run lasts seconds, long enough to be caught half-way
KILL_AT = 5  # cached chat answers before the kill
# seconds; only a hung run gets near it, or one starved of CPU: beside the real_model tier a niced
# worker gets little of it (a run took over 180 s to cache 5 answers while a benchmark shared the cores)
DEADLINE = 900.0


def test_generate_killed_midway_resumes_from_the_cache(stub, tmp_path, monkeypatch):
    out = tmp_path / "out" / "testset.jsonl"
    args = ["generate", str(EXAMPLE_DOCS), "-n", "8", "--seed", "3", "--out"]
    _crash_resume_and_compare(stub, tmp_path, monkeypatch, args, out, old=None)
    assert len(Testset.from_jsonl(out)) == 8


def test_evaluate_killed_midway_keeps_the_old_run_and_resumes(stub, tmp_path, monkeypatch):
    data = tmp_path / "samples.jsonl"
    data.write_text("".join(json.dumps(s) + "\n" for s in _samples(12)), encoding="utf-8")
    out = tmp_path / "out" / "run.jsonl"
    args = ["evaluate", str(data), "--out"]
    old = b'{"an": "old run, kept whole until the new one is complete"}\n'
    _crash_resume_and_compare(stub, tmp_path, monkeypatch, args, out, old=old)
    result = EvaluationResult.load(out)
    assert len(result.cells) == 12 and result.metrics


# -- the scenario -----------------------------------------------------------------------------------


class Run:
    """The chat requests one run sent (as body hashes) and, for a killed run, the answers it had cached."""

    def __init__(self, chat: list[str], cached: int = 0) -> None:
        self.chat, self.cached = chat, cached


def _crash_resume_and_compare(stub, tmp_path, monkeypatch, args, out, *, old):
    stub.on_chat(scripted)
    stub.latency = LATENCY
    cache = tmp_path / "cache"
    out.parent.mkdir()
    if old is not None:
        out.write_bytes(old)
    command = [*CLI, *args, str(out), *MODELS, "--max-concurrency", str(CONCURRENCY), "-q"]
    env = {**os.environ, "OPENAI_BASE_URL": stub.base_url, "OPENAI_API_KEY": FAKE_KEY}
    env["GROUNDSET_CACHE_DIR"] = str(cache)

    # 1. killed once KILL_AT answers are cached
    proc = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    cached = _kill_when_cached(proc, cache / FILENAME, KILL_AT)
    killed = Run(_chat_hashes(stub), cached)
    assert cached >= KILL_AT
    # nothing half-written: the old bytes or no file, and no temporary left beside it
    expected = {out.name} if old is not None else set()
    assert {p.name for p in out.parent.iterdir()} == expected
    if old is not None:
        assert out.read_bytes() == old
    _assert_cache_sound(cache)

    # 2. the rerun finishes and asks again only what was in flight at the kill
    stub.latency = 0.0
    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 0, done.stdout + done.stderr
    rerun = Run(_chat_hashes(stub)[len(killed.chat) :])
    assert {p.name for p in out.parent.iterdir()} == {out.name}  # the new output, no temporaries
    repeated = set(rerun.chat) & set(killed.chat)
    seen = f"killed run: {len(killed.chat)} sent, {killed.cached} cached; rerun: {len(rerun.chat)} sent"
    assert len(repeated) <= len(set(killed.chat)) - killed.cached, seen
    assert len(repeated) <= CONCURRENCY, seen  # only requests in flight at the kill are sent again
    _assert_cache_sound(cache)

    # 3. an uninterrupted run (fresh cache) asks exactly for what the two runs asked between them
    before = len(stub.chat_requests)
    clean_out = tmp_path / "clean" / out.name
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("GROUNDSET_CACHE_DIR", str(tmp_path / "clean-cache"))
    clean_args = [*args, str(clean_out), *MODELS, "--max-concurrency", str(CONCURRENCY), "-q"]
    assert main(clean_args) == 0
    clean = Run(_chat_hashes(stub)[before:])
    seen += f"; clean run: {len(clean.chat)} sent, {len(set(clean.chat))} distinct"
    assert len(clean.chat) == len(set(clean.chat)), seen  # a clean run never asks the same twice
    assert len(rerun.chat) + killed.cached == len(clean.chat), seen
    assert set(killed.chat) | set(rerun.chat) == set(clean.chat), seen
    assert killed.cached < len(clean.chat), seen  # it really was killed half-way
    difference = _difference(_records(out), _records(clean_out))
    assert difference is None, f"the resumed run's output differs from a clean run's at {difference}"


def _kill_when_cached(proc: subprocess.Popen, cache_file: Path, at_least: int) -> int:
    """SIGKILL ``proc`` once the cache holds ``at_least`` chat answers; return how many it held then."""
    end = time.monotonic() + DEADLINE
    try:
        while time.monotonic() < end:
            if proc.poll() is not None:
                output = proc.stdout.read().decode(errors="replace")
                pytest.fail(f"the run ended (exit {proc.returncode}) before it could be killed:\n{output}")
            if _chat_entries(cache_file) >= at_least:
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
                return _chat_entries(cache_file)
            time.sleep(0.02)
        pytest.fail(f"no {at_least} cached answers within {DEADLINE:.0f} s")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        proc.stdout.close()


def _chat_entries(cache_file: Path) -> int:
    if not cache_file.exists():
        return 0
    conn = sqlite3.connect(cache_file, timeout=30)
    try:
        return conn.execute("SELECT COUNT(*) FROM calls WHERE kind = 'chat'").fetchone()[0]
    except sqlite3.OperationalError:  # the table is not created yet
        return 0
    finally:
        conn.close()


def _assert_cache_sound(cache: Path) -> None:
    conn = sqlite3.connect(cache / FILENAME)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()
    assert main(["cache", "info", "--cache", str(cache)]) == 0


def _chat_hashes(stub) -> list[str]:
    return [
        hashlib.sha256(json.dumps(r.body, sort_keys=True).encode()).hexdigest() for r in stub.chat_requests
    ]


def _records(path: Path) -> list[dict]:
    """The file's records, less a run file's header (its usage counts cache hits, which differ)."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in records if "_groundset_run" not in r]


def _difference(a: object, b: object, path: str = "") -> str | None:
    """Where ``a`` and ``b`` first differ, or None. Floats may differ in float32 rounding: an embedding
    product's last bits depend on the memory alignment BLAS meets, which changes between processes."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        found = (_difference(a[k], b[k], f"{path}.{k}") for k in a)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        found = (_difference(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b, strict=True)))
    elif isinstance(a, float) and isinstance(b, float):
        return None if math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9) else f"{path}: {a!r} != {b!r}"
    else:
        return None if a == b else f"{path}: {a!r} != {b!r}"
    return next((d for d in found if d is not None), None)


def _samples(n: int) -> list[dict]:
    """Evaluation samples made of the example docs' sentences: a response, 3 contexts, a reference."""
    sentences = []
    for page in sorted(EXAMPLE_DOCS.rglob("*.md")):
        text = re.sub(r"\A---.*?\n---\n", "", page.read_text(encoding="utf-8"), flags=re.S)
        text = re.sub(r"[#`*\[\]()>|]|https?://\S+", " ", text)
        found = (" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+", text))
        sentences += [s for s in found if 60 < len(s) < 300]
    rows = []
    for i in range(n):
        picked = sentences[i * 5 : i * 5 + 5]
        rows.append(
            {
                "user_input": f"What do the docs say about {picked[0].split()[1]}?",
                "response": f"{picked[0]} {picked[4]}",
                "retrieved_contexts": picked[:3],
                "reference": f"{picked[0]} {picked[3]}",
            }
        )
    return rows
