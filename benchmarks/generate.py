"""Test-set generation figures (prints, asserts nothing).

1. Offline: 100 samples from the shared Prometheus corpus, graph build included: seconds and peak RSS.
2. Stub at 50 ms latency (or the latencies given), max_concurrency 16 (ChatOpenAI + OpenAIEmbeddings,
   scripted answers): LLM calls per kept sample (quality gate included) and wall time for 100 samples,
   against the ideal calls x latency / 16. The graph is built first through the same stub and cache, so
   the generation run is measured on its own.

Run: .venv/bin/python benchmarks/generate.py [latency_ms ...] [--stub-only] [--write-docs]
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._stub_process import stub_models, stub_process  # noqa: E402
from benchmarks.docs_section import recorded  # noqa: E402
from groundset.core import CallEngine, track  # noqa: E402
from groundset.kg import build_knowledge_graph  # noqa: E402
from groundset.synthesizers import TestsetGenerator  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"
SIZE = 100


def main() -> None:
    latencies = [int(a) / 1000 for a in sys.argv[1:] if a.isdigit()] or [0.05]
    if "--stub-only" not in sys.argv:
        offline()
    for latency in latencies:
        through_stub(latency)


def offline() -> None:
    start = time.perf_counter()
    built = build_knowledge_graph(CORPUS, engine=CallEngine(cache=False))
    graph_seconds = time.perf_counter() - start
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate(built.kg, SIZE, seed=0)
    total = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"1. offline, {SIZE} samples from {CORPUS.relative_to(ROOT.parent)}")
    print(
        f"    graph {graph_seconds:.1f} s + generation {total - graph_seconds:.1f} s = {total:.1f} s "
        f"(target < 60 s); peak RSS {peak:.0f} MB; kept {len(testset)}; "
        f"rejected {sum(testset.metadata['rejections'].values())} {testset.metadata['rejections']}"
    )


def through_stub(latency: float) -> None:
    concurrency = 16
    with tempfile.TemporaryDirectory() as tmp, stub_process(latency, scripted=True) as url:
        llm, emb = stub_models(url)
        engine = CallEngine(cache=Path(tmp) / "c", max_concurrency=concurrency)
        build_start = time.perf_counter()
        kg = build_knowledge_graph(CORPUS, llm=llm, embeddings=emb, engine=engine).kg
        build_seconds = time.perf_counter() - build_start
        with track() as usage:
            start = time.perf_counter()
            testset = TestsetGenerator(llm, emb, engine=engine).generate(kg, SIZE, seed=0)
            wall = time.perf_counter() - start
        llm_calls = sum(s.calls for name, s in usage.stages.items() if "embed" not in name)
        embed_calls = sum(s.calls for name, s in usage.stages.items() if "embed" in name)
        ideal = llm_calls * latency / concurrency
        by_stage = ", ".join(f"{name} {s.calls}" for name, s in sorted(usage.stages.items()) if s.calls)
        print(
            f"2. stub at {latency * 1000:.0f} ms latency, max_concurrency {concurrency} "
            f"(graph built first in {build_seconds:.1f} s)"
        )
        per_sample = llm_calls / max(len(testset), 1)
        print(
            f"    kept {len(testset)}; LLM calls {llm_calls} = {per_sample:.2f} per kept sample (target <= 2)"
            "; "
            f"embedding requests {embed_calls}; by stage: {by_stage}"
        )
        print(f"    rejected {dict(testset.metadata['rejections'])}")
        ratio = wall / ideal if ideal else float("nan")
        print(f"    wall {wall:.2f} s vs ideal {ideal:.2f} s = {ratio:.2f}x (target at 300 ms: <= 1.3x)")


if __name__ == "__main__":
    with recorded("generate"):
        main()
