"""Relationship builders at scale: ``similar_pairs`` and ``overlap_pairs`` (prints figures, asserts nothing).

Synthetic corpus per size n: clustered 384-d float32 embeddings (n/400 topics, n/20 cluster centres
around them, Gaussian noise, normalised) and entity sets (3-12 items per node from a Zipf(1.0)
vocabulary of n/2 made-up names, 5% written as variants - plural, hyphenated, re-cased - plus three
items present in 60-90% of nodes). Every (size, builder) runs in a fresh subprocess so peaks do not
mix. Reported per run: wall time, number of pairs, peak Python allocations (tracemalloc, numpy
buffers included; measured in a second, untimed run because tracing slows Python code) and growth
of the process max RSS (``ru_maxrss``) over the run. Growth exponent 10k -> 50k = log(t50/t10)/log(5).
Targets: 10k chunks under 10 s for both builders together; exponents clearly below 2.

Run: .venv/bin/python benchmarks/kg_relationships.py [--sizes 2000,10000,50000] [--quick]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from groundset.kg import overlap, similarity  # noqa: E402
from groundset.kg.overlap import overlap_pairs  # noqa: E402
from groundset.kg.similarity import similar_pairs  # noqa: E402

SYLLABLES = [c + v for c in "bdfgklmnprtvz" for v in "aeiou"] + ["ban", "dor", "fen", "gil"]
SUFFIXES = ["server", "exporter", "operator", "api", "gateway", "agent", "proxy", "controller"]
DEFAULT_NPROBE = similarity.IVF_NPROBE
FREQUENT = {"Prometheus": 0.9, "Kubernetes": 0.75, "Grafana": 0.6}


def embeddings(n: int, seed: int = 0, dim: int = 384, noise: float = 0.025) -> np.ndarray:
    """Topics -> cluster centres -> points; with noise 0.025 cluster mates have cosine ~0.8."""
    rng = np.random.default_rng(seed)
    topics = rng.standard_normal((max(1, n // 400), dim), dtype=np.float32)
    topics /= np.linalg.norm(topics, axis=1, keepdims=True)
    centres = topics[rng.integers(0, len(topics), max(1, n // 20))]
    centres += 0.6 / math.sqrt(dim) * rng.standard_normal(centres.shape, dtype=np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    points = centres[rng.integers(0, len(centres), n)]
    for start in range(0, n, 8192):  # in slices, so generating the data never sets the RSS peak
        points[start : start + 8192] += noise * rng.standard_normal(
            (len(points[start : start + 8192]), dim), dtype=np.float32
        )
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    return points


def entity_sets(n: int, seed: int = 0) -> list[list[str]]:
    rng = np.random.default_rng(seed + 1)
    names: set[str] = set()
    while len(names) < max(10, n // 2):
        word = "".join(rng.choice(SYLLABLES, rng.integers(2, 5))).capitalize()
        names.add(f"{word} {rng.choice(SUFFIXES)}" if rng.random() < 0.3 else word)
    vocab = sorted(names)
    rng.shuffle(vocab)
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    sizes = rng.integers(3, 13, n)
    picks = rng.choice(len(vocab), size=int(sizes.sum()), p=weights / weights.sum())
    variant = rng.random(picks.size) < 0.05
    out: list[list[str]] = []
    at = 0
    for size in sizes.tolist():
        items = []
        for p, v in zip(picks[at : at + size].tolist(), variant[at : at + size].tolist(), strict=True):
            name = vocab[p]
            items.append([name + "s", name.lower(), name[:3] + "-" + name[3:]][p % 3] if v else name)
        items += [item for item, share in FREQUENT.items() if rng.random() < share]
        out.append(items)
        at += size
    return out


def rss_now_kb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


def run_builder(mode: str, n: int, exact_below: int | None) -> dict[str, float | int]:
    """Best of two timed runs in this fresh process, RSS peak over the first, then a traced run."""
    import sklearn.cluster  # noqa: F401  (one-off import, ~0.5 s, is not the builder's cost)

    vectors = embeddings(n) if mode in ("similar", "both") else None
    items = entity_sets(n) if mode in ("overlap", "both") else None
    kwargs = {} if exact_below is None else {"exact_below": exact_below}

    def call() -> tuple[int, int]:
        sims = len(similar_pairs(vectors, **kwargs)) if vectors is not None else 0
        overlaps = len(overlap_pairs(items)) if items is not None else 0
        return sims, overlaps

    gc.collect()
    rss0, max0 = rss_now_kb(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = []
    for _ in range(2):
        start = time.perf_counter()
        sims, overlaps = call()
        times.append(time.perf_counter() - start)
        if len(times) == 1:
            max1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        gc.collect()
    tracemalloc.start()
    call()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out = {"s": min(times), "similar": sims, "overlap": overlaps, "peak_mb": peak / 2**20}
    out["rss_mb"] = (max1 - rss0) / 1024 if max1 > max0 else -1.0  # -1: no new peak over the data's
    if items is not None:
        prep = overlap._prepare(items, 90.0, 0.05, 50, 500)
        df = np.diff(prep.incidence.tocsc().indptr).astype(np.int64)
        out["stop"] = len(prep.stop_items)
        out["candidates"] = int((df * (df - 1)).sum())  # directed (node, node) entries, with multiplicity
    return out


def recall(n: int, k: int = 5) -> dict[str, float]:
    """IVF vs exact pairs: default threshold, pure top-k, and an nprobe sweep on two datasets."""
    out: dict[str, float] = {}
    lists = round(similarity.IVF_LISTS_PER_SQRT_N * math.sqrt(n))
    for data, noise in (("bench", 0.025), ("noisy", 0.07)):
        unit, _ = similarity.normalise_rows(embeddings(n, noise=noise))
        for label, threshold in (("thr0.75", 0.75), ("topk", -1.0)):
            if data == "noisy" and label == "thr0.75":
                continue
            start = time.perf_counter()
            exact = set(similar_pairs(unit, k=k, threshold=threshold, exact_below=n))
            out[f"{data}_exact_s_{label}"] = time.perf_counter() - start
            out[f"{data}_pairs_{label}"] = len(exact)
            probes = (1, 2, 4, 8, 16) if label == "topk" else (similarity.IVF_NPROBE,)
            for nprobe in probes:
                similarity.IVF_NPROBE = nprobe
                start = time.perf_counter()
                approx = set(similar_pairs(unit, k=k, threshold=threshold, exact_below=0))
                out[f"{data}_approx_s_{label}_{nprobe}"] = time.perf_counter() - start
                keys = {(i, j) for i, j, _ in approx}
                out[f"{data}_recall_{label}_{nprobe}"] = len({(i, j) for i, j, _ in exact} & keys) / len(
                    exact
                )
            similarity.IVF_NPROBE = DEFAULT_NPROBE
    out["lists"] = lists
    return out


def in_subprocess(*args: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", *args], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,10000,50000", help="comma-separated node counts")
    parser.add_argument("--quick", action="store_true", help="2,000 nodes only")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        if args.worker[0] == "recall":
            print(json.dumps(recall(int(args.worker[1]))))
        else:
            exact_below = int(args.worker[2]) if len(args.worker) > 2 else None
            print(json.dumps(run_builder(args.worker[0], int(args.worker[1]), exact_below)))
        return
    sizes = [2000] if args.quick else [int(s) for s in args.sizes.split(",")]
    lists = f"{similarity.IVF_LISTS_PER_SQRT_N:g}*sqrt(n)"
    print(f"similar_pairs: exact up to 20,000 vectors, then IVF with lists={lists}, nprobe={DEFAULT_NPROBE}")
    print("time = best of 2 runs, wall s, fresh process per row; peak = tracemalloc peak of Python + numpy")
    print("allocations (third, untimed run); rss+ = ru_maxrss after the first run minus RSS before it")
    header = f"{'n':>7} {'builder':<13} {'time s':>7} {'pairs':>15} {'peak MB':>8} {'rss+ MB':>8}  note"
    print(header)
    print("-" * len(header))
    times: dict[tuple[str, int], float] = {}
    runs = [("similar", ()), ("similar[ivf]", ("0",)), ("overlap", ()), ("both", ())]
    for n in sizes:
        for label, extra in runs:
            mode = label.split("[")[0]
            r = in_subprocess(mode, str(n), *extra)
            times[(label, n)] = r["s"]
            pairs = f"{r['similar']}+{r['overlap']}" if mode == "both" else str(r["similar"] + r["overlap"])
            note = {
                "similar[ivf]": "approximate path forced (exact_below=0)",
                "both": "similar + overlap",
            }.get(label, "exact" if n <= 20_000 else "approximate (IVF)")
            if mode == "overlap":
                note = f"{r['stop']} stop items, {r['candidates']:,} candidate entries"
            rss = f"{r['rss_mb']:>8.1f}" if r["rss_mb"] >= 0 else f"{'n/a':>8}"
            print(f"{n:>7} {label:<13} {r['s']:>7.2f} {pairs:>15} {r['peak_mb']:>8.1f} {rss}  {note}")
    if 10_000 in sizes:
        r = in_subprocess("recall", "10000")
        print(f"\nrecall@5 of the IVF path vs exact at n=10,000 ({r['lists']} lists):")
        p = DEFAULT_NPROBE
        print(
            f"  benchmark data, threshold 0.75, nprobe={p}: {r[f'bench_recall_thr0.75_{p}']:.4f} of "
            f"{r['bench_pairs_thr0.75']} pairs (exact {r['bench_exact_s_thr0.75']:.2f} s, "
            f"IVF {r[f'bench_approx_s_thr0.75_{p}']:.2f} s)"
        )
        for data, what in (("bench", "benchmark data (cluster cos ~0.8)"), ("noisy", "noisier (cos ~0.35)")):
            sweep = ", ".join(
                f"{p}: {r[f'{data}_recall_topk_{p}']:.3f} ({r[f'{data}_approx_s_topk_{p}']:.2f} s)"
                for p in (1, 2, 4, 8, 16)
            )
            print(f"  {what}, no threshold, by nprobe: {sweep}; exact {r[f'{data}_exact_s_topk']:.2f} s")
    if 10_000 in sizes and 50_000 in sizes:
        print()
        for label, _ in runs:
            t10, t50 = times[(label, 10_000)], times[(label, 50_000)]
            print(f"growth exponent 10k->50k {label:<13}: {math.log(t50 / t10) / math.log(5):.2f}")
    if 10_000 in sizes:
        print(f"10,000 chunks, both builders: {times[('both', 10_000)]:.2f} s (target < 10 s)")


if __name__ == "__main__":
    main()
