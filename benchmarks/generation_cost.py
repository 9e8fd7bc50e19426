"""What generating a test set costs in model calls (prints, asserts nothing).

Against ../shared/tools/mockllm (schema-valid random answers) at 50 ms, keep-alive, concurrency 16:
  A. 30 samples from the 45 Prometheus pages over 3 KB (the set issue 16 measured ragas on: 709 calls);
  B. 30 samples from the whole Prometheus folder (58 pages);
each with `--enrich lazy` (the default) and `--enrich eager`. Printed per run: chat completions and
prompt characters from the server's /stats, embedding requests, samples kept, the `--estimate` made
before the run (calls and input tokens) and its error, and wall time against calls x latency /
concurrency. Usage: .venv/bin/python benchmarks/generation_cost.py [latency_ms] [lazy|eager ...] [A|B ...]
[n=SAMPLES] (30 by default) [--write-docs].
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._stub_process import mockllm_process, stub_models  # noqa: E402
from benchmarks.docs_section import recorded  # noqa: E402
from groundset.core import CallEngine, track  # noqa: E402
from groundset.core.estimate import Estimate  # noqa: E402
from groundset.kg import build_knowledge_graph  # noqa: E402
from groundset.synthesizers import TestsetGenerator  # noqa: E402
from groundset.synthesizers.pipeline.estimate import estimate_generation  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"
CONCURRENCY = 16
SIZE = 30


def stats(url: str) -> dict:
    with urllib.request.urlopen(f"{url.removesuffix('/v1')}/stats") as reply:
        return json.load(reply)


def large_pages(folder: Path) -> Path:
    """A copy of the pages over 3 KB, with their relative paths."""
    out = Path(tempfile.mkdtemp(prefix="prom-3kb-"))
    for path in sorted(CORPUS.rglob("*.md")):
        if path.stat().st_size > 3 * 1024:
            target = out / path.relative_to(CORPUS)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    return out


def run(label: str, docs: Path, latency_ms: int, enrich: str, size: int = SIZE) -> None:
    pages = sum(1 for _ in docs.rglob("*.md"))
    with tempfile.TemporaryDirectory() as tmp, mockllm_process(latency_ms) as url:
        if url is None:
            print("NOT RUN: ../shared/tools/mockllm is missing")
            return
        llm, emb = stub_models(url)
        engine = CallEngine(cache=Path(tmp) / "cache", max_concurrency=CONCURRENCY)
        guess = estimate_generation(
            docs, size, llm=llm, embeddings=emb, engine=engine, build_options={"enrich": enrich}, seed=0
        )
        before = stats(url)
        cpu, start = time.process_time(), time.perf_counter()
        with track() as usage:
            kg = build_knowledge_graph(docs, llm=llm, embeddings=emb, engine=engine, enrich=enrich).kg
            middle, middle_stats = time.perf_counter(), stats(url)
            testset = TestsetGenerator(llm, emb, engine=engine).generate(kg, size, seed=0)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        generation_wall = time.perf_counter() - middle
        after = stats(url)
    calls = after["chat_completions"] - before["chat_completions"]
    chars = after["prompt_chars"] - before["prompt_chars"]
    embeds = after["embedding_calls"] - before["embedding_calls"]
    chunks = len(kg.nodes("chunk"))
    build = [s.calls for name, s in usage.stages.items() if name.startswith("kg.") and "embed" not in name]
    build_calls = sum(build)
    generation_calls = after["chat_completions"] - middle_stats["chat_completions"]
    ideal = generation_calls * latency_ms / 1000 / CONCURRENCY
    by_stage = ", ".join(f"{name} {s.calls}" for name, s in sorted(usage.stages.items()) if s.calls)
    print(
        f"{label} [{enrich}]: {pages} pages, {chunks} chunks, kept {len(testset)} of {size}; "
        f"LLM calls {calls} (build {build_calls} = {build_calls / max(chunks, 1):.3f} per chunk), "
        f"prompt chars {chars:,}, embedding requests {embeds}; wall {wall:.1f} s; "
        f"client CPU {cpu * 1000 / max(calls, 1):.0f} ms per call (graph building included)"
    )
    print(
        f"    generation alone: {generation_calls} LLM calls, wall {generation_wall:.1f} s vs ideal "
        f"(calls x latency / concurrency) {ideal:.1f} s = {generation_wall / max(ideal, 1e-9):.2f}x"
    )
    print(f"    by stage: {by_stage}")
    measured = Estimate.from_usage(usage, llm=llm, embeddings=emb)
    print(f"    {guess.versus(measured)}")


def main() -> None:
    latency = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    words = sys.argv[2:]
    modes = [w for w in words if w in ("lazy", "eager")] or ["lazy", "eager"]
    runs = [w for w in words if w in ("A", "B")] or ["A", "B"]
    size = next((int(w[2:]) for w in words if w.startswith("n=")), SIZE)
    if not CORPUS.is_dir():
        print(f"NOT RUN: no shared corpus at {CORPUS}")
        return
    subset = large_pages(CORPUS)
    try:
        for enrich in modes:
            if "A" in runs:
                run("A. pages over 3 KB", subset, latency, enrich, size)
            if "B" in runs:
                run("B. whole folder", CORPUS, latency, enrich, size)
    finally:
        shutil.rmtree(subset, ignore_errors=True)


if __name__ == "__main__":
    with recorded("generation_cost"):
        main()
