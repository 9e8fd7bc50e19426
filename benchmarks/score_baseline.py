"""End-to-end scoring figures (prints, asserts nothing).

1. Offline on the shared Prometheus corpus: generate 30 samples, then score the shipped baseline
   at top_k 1, 3, 5 and 10: the mean of each metric, the baseline's latency and the wall time of
   each `score` run; then compare top_k=1 against top_k=5 (the CI of the ID recall difference).
2. ../shared/tools/mockllm at 50 ms (schema-valid random JSON), the same 30 questions answered by
   the baseline through the LLM: LLM calls per question (answers + the default metrics), rows
   with a target error or a NaN cell, and wall time.

Run: .venv/bin/python benchmarks/score_baseline.py [--write-docs]
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._stub_process import mockllm_process, stub_models  # noqa: E402
from benchmarks.docs_section import recorded  # noqa: E402
from groundset.core import CallEngine  # noqa: E402
from groundset.kg import build_knowledge_graph  # noqa: E402
from groundset.scoring import BaselineRAG, compare_runs, score_rag  # noqa: E402
from groundset.synthesizers import TestsetGenerator  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"


def main() -> None:
    if not CORPUS.is_dir():
        print(f"NOT RUN: no shared corpus at {CORPUS}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        engine = CallEngine(cache=Path(tmp) / "cache")
        kg = build_knowledge_graph(CORPUS, engine=engine, show_progress=False).kg
        testset = TestsetGenerator(engine=engine).generate(kg, 30, seed=0, show_progress=False)
        print(f"offline: {len(kg.nodes('chunk'))} chunks, {len(testset)} samples")
        runs = {}
        for k in (1, 3, 5, 10):
            start = time.perf_counter()
            result = score_rag(testset, BaselineRAG(kg, top_k=k), engine=engine, show_progress=False)
            seconds = time.perf_counter() - start
            runs[k] = result
            means = ", ".join(f"{m} {a['mean']:.3f}" for m, a in result.aggregate().items())
            target = result.target_summary()
            print(
                f"  top_k={k:<2} {means}; baseline p50 {target['p50_s'] * 1000:.0f} ms, "
                f"p95 {target['p95_s'] * 1000:.0f} ms; score run {seconds:.1f} s"
            )
        recall = compare_runs(runs[5], runs[1]).metrics["id_context_recall"]
        wtl = f"{recall.wins}/{recall.ties}/{recall.losses}"
        print(
            f"  compare top_k=5 -> 1: id_context_recall {recall.diff:+.3f} "
            f"(95% CI {recall.ci_low:+.3f} to {recall.ci_high:+.3f}), W/T/L {wtl}"
        )
        with mockllm_process(50) as url:
            llm, emb = stub_models(url)
            stub_engine = CallEngine(cache=Path(tmp) / "stub-cache", max_concurrency=16)
            start = time.perf_counter()
            result = score_rag(
                testset,
                BaselineRAG(kg, top_k=5, llm=llm, engine=stub_engine),
                llm=llm,
                embeddings=emb,
                engine=stub_engine,
                show_progress=False,
            )
            seconds = time.perf_counter() - start
        calls = sum(stage.get("calls", 0) for stage in result.usage.values())
        nan_rows = sum(any(math.isnan(c.value) for c in row.values()) for row in result.cells)
        errors = result.target_summary()["errors"]
        print(
            f"mockllm 50 ms: {calls} LLM calls for {len(result.cells)} questions "
            f"({calls / len(result.cells):.2f} per question, answers included), "
            f"{errors} target errors, {nan_rows} rows with a NaN cell, {seconds:.1f} s"
        )


if __name__ == "__main__":
    with recorded("score_baseline"):
        main()
