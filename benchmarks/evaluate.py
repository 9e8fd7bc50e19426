"""Scoring figures (prints, asserts nothing).

1. Offline: 1,000 samples x (faithfulness, answer relevancy, context precision, context recall,
   answer correctness): seconds and peak RSS.
2. Stub at 50 ms latency, max_concurrency 32, 200 samples with 3 retrieved contexts each, the
   same 5 metrics: LLM calls per sample, the share of asked calls saved by sharing, and wall
   time against the ideal calls * 0.05 / 32.
3. ../shared/tools/mockllm at 0 ms (schema-valid JSON, random list lengths and verdicts), 100
   samples x 3 contexts x the same 5 metrics: NaN cells and LLM calls per row (repairs included).

Samples are built from an offline test set of the shared Prometheus corpus: the response is the
reference plus one sentence of an unrelated chunk, the retrieved contexts are the reference
contexts plus other chunks.

Run: .venv/bin/python benchmarks/evaluate.py [--write-docs]
"""

from __future__ import annotations

import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._stub_process import mockllm_process, stub_models, stub_process  # noqa: E402
from benchmarks.docs_section import recorded  # noqa: E402
from groundset.core import CallEngine  # noqa: E402
from groundset.kg import build_knowledge_graph  # noqa: E402
from groundset.scoring import (  # noqa: E402
    AnswerCorrectness,
    AnswerRelevancy,
    ContextPrecision,
    ContextRecall,
    EvaluationDataset,
    Faithfulness,
    SingleTurnSample,
    evaluate,
)
from groundset.synthesizers import TestsetGenerator  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"


def metrics():
    return [Faithfulness(), AnswerRelevancy(), ContextPrecision(), ContextRecall(), AnswerCorrectness()]


def samples(n: int, contexts: int, seed: int = 0) -> list[SingleTurnSample]:
    kg = build_knowledge_graph(CORPUS, engine=CallEngine(cache=False)).kg
    testset = TestsetGenerator(engine=CallEngine(cache=False)).generate(kg, 100, seed=seed)
    chunks = [kg.get(c)["text"] for c in kg.nodes("chunk")]
    rng = random.Random(seed)
    out = []
    for i in range(n):
        base = testset[i % len(testset)]
        distractors = rng.sample(chunks, contexts)
        retrieved = (list(base.reference_contexts) + distractors)[:contexts]
        rng.shuffle(retrieved)
        # The response: the reference plus one sentence of a distractor chunk, so that it differs.
        extra = distractors[0].strip().split(". ")[0][:200]
        out.append(
            SingleTurnSample(
                user_input=f"{base.user_input} (variant {i})",
                response=f"{base.reference}\n{extra}.",
                reference=base.reference,
                retrieved_contexts=retrieved,
            )
        )
    return out


def main() -> None:
    data = EvaluationDataset(samples(1000, 3))
    start = time.perf_counter()
    result = evaluate(data, metrics(), engine=CallEngine(cache=False), show_progress=False)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    means = ", ".join(f"{m} {a['mean']:.3f}" for m, a in result.aggregate().items())
    print(f"1. offline, 1,000 samples x 5 metrics: {seconds:.1f} s, peak RSS {peak:.0f} MB; {means}")

    latency, concurrency, n = 0.05, 32, 200
    small = EvaluationDataset(list(data)[:n])
    with tempfile.TemporaryDirectory() as tmp, stub_process(latency, scripted=True) as url:
        llm, emb = stub_models(url)
        engine = CallEngine(cache=Path(tmp) / "c", max_concurrency=concurrency)
        start = time.perf_counter()
        run = evaluate(small, metrics(), llm=llm, embeddings=emb, engine=engine, show_progress=False)
        wall = time.perf_counter() - start
    usage = run.usage
    llm_usage = [u for m, u in usage.items() if not m.endswith(".embed")]
    calls = sum(u["calls"] for u in llm_usage)
    saved = sum(u["shared"] + u["cache_hits"] for u in llm_usage)
    embed_calls = sum(u["calls"] for m, u in usage.items() if m.endswith(".embed"))
    errors = sum(a["errors"] for a in run.aggregate().values())
    ideal = calls * latency / concurrency
    print(
        f"2. stub at {latency * 1000:.0f} ms, max_concurrency {concurrency}, "
        f"{n} samples x 3 contexts x 5 metrics"
    )
    print(
        f"    LLM calls {calls} = {calls / n:.2f} per sample (target <= 6); saved by sharing {saved} of "
        f"{calls + saved} asked ({saved / max(calls + saved, 1):.0%}); "
        f"embedding requests {embed_calls}; errors {errors}"
    )
    print(f"    wall {wall:.2f} s vs ideal {ideal:.2f} s = {wall / ideal:.2f}x (target <= 1.5x)")
    print("    by metric: " + ", ".join(f"{m} {u['calls']:.0f}" for m, u in usage.items()))
    mockllm(EvaluationDataset(list(data)[:100]))
    at_latency(EvaluationDataset(list(data)[:100]), 300, 16)


def at_latency(data: EvaluationDataset, latency_ms: int, concurrency: int) -> None:
    """Wall time against calls x latency / concurrency at a realistic latency, and client CPU per call."""
    with mockllm_process(latency_ms) as url:
        if url is None:
            print("4. mockllm: ../shared/tools/mockllm not found, skipped")
            return
        llm, emb = stub_models(url)
        engine = CallEngine(cache=False, max_concurrency=concurrency)
        cpu, start = time.process_time(), time.perf_counter()
        run = evaluate(data, metrics(), llm=llm, embeddings=emb, engine=engine, show_progress=False)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    calls = sum(u["calls"] for m, u in run.usage.items() if not m.endswith(".embed"))
    embeds = sum(u["calls"] for m, u in run.usage.items() if m.endswith(".embed"))
    ideal = calls * latency_ms / 1000 / concurrency
    print(f"4. mockllm at {latency_ms} ms, max_concurrency {concurrency}, {len(data)} samples x 5 metrics")
    print(
        f"    LLM calls {calls} (and {embeds} embedding requests); wall {wall:.1f} s vs ideal (LLM calls x "
        f"latency / concurrency) {ideal:.1f} s = {wall / ideal:.2f}x (target <= 1.3x); "
        f"client CPU {cpu * 1000 / max(calls, 1):.1f} ms per call"
    )


def mockllm(data: EvaluationDataset) -> None:
    with mockllm_process(0) as url:
        if url is None:
            print("3. mockllm: ../shared/tools/mockllm not found, skipped")
            return
        llm, emb = stub_models(url)
        run = evaluate(
            data, metrics(), llm=llm, embeddings=emb, engine=CallEngine(cache=False), show_progress=False
        )
    cells = len(data) * len(run.metrics)
    nan = sum(a["nan"] for a in run.aggregate().values())
    llm_usage = [u for m, u in run.usage.items() if not m.endswith(".embed")]
    calls = sum(u["calls"] for u in llm_usage)
    repairs = sum(u.get("repairs", 0) for u in llm_usage)
    print(f"3. mockllm at 0 ms, {len(data)} samples x 3 contexts x 5 metrics")
    print(
        f"    NaN cells {nan} of {cells}; LLM calls {calls} = {calls / len(data):.2f} per row "
        f"(target <= 6.5), of which repairs {repairs:.0f}"
    )


if __name__ == "__main__":
    with recorded("evaluate"):
        main()
