"""How `kg build` grows with the corpus: documents, chunks, wall time, peak RSS and KB per chunk at 1x, 4x and
16x a base corpus, and the growth rate between sizes (prints, asserts nothing).

The base corpus is every shared corpus (../shared/corpora: Prometheus, requests, FastAPI, the handbook, the
German Vite docs and the messy folder). Copy k > 0 of a text file has a fifth of its lower-case words (four
letters or more) replaced by other words of the corpus, drawn by a generator seeded with k and the path: the
Markdown structure, the sentence lengths and the vocabulary stay those of real docs, and no document, chunk
or summary repeats another, so nothing collapses as a duplicate. Files that are not UTF-8 are copied as they
are in copy 0 only.

Each size is built offline in its own process (the peak RSS is that build's alone), stage by stage as
``benchmarks/kg_build.py`` does, then saved; a fresh process loads the saved graph as `generate`, `refresh`
and `score --target baseline` do (with its fingerprint, which they compute) and reports its own peak RSS.
``--tracemalloc N`` also prints, for the first size, the N source lines that hold the most memory at the
end of the build (the graph as it is saved) and at the peak.

Run: .venv/bin/python benchmarks/kg_scale.py [--sizes 1,4,16] [--tracemalloc 15] [--keep DIR] [--write-docs]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.docs_section import recorded  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
_WORD = re.compile(r"\b[a-z]{4,}\b")
REPLACED = 0.2  # share of lower-case words replaced in each copy after the first


def vocabulary(files: list[Path]) -> list[str]:
    words: set[str] = set()
    for path in files:
        try:
            words.update(_WORD.findall(path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue
    return sorted(words)


def varied(text: str, rng: random.Random, words: list[str]) -> str:
    return _WORD.sub(lambda m: rng.choice(words) if rng.random() < REPLACED else m.group(0), text)


def assemble(target: Path, copies: int) -> int:
    """Write ``copies`` varied copies of the shared corpora under ``target``; the number of files."""
    files = sorted(p for p in CORPORA.rglob("*") if p.is_file() and ".git" not in p.parts)
    words = vocabulary(files)
    written = 0
    for k in range(copies):
        for path in files:
            out = target / f"copy-{k:02d}" / path.relative_to(CORPORA)
            out.parent.mkdir(parents=True, exist_ok=True)
            if k == 0:
                out.write_bytes(path.read_bytes())
                written += 1
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            rng = random.Random(f"{k}|{path.relative_to(CORPORA)}")
            out.write_text(varied(text, rng, words), encoding="utf-8")
            written += 1
    return written


def child(folder: Path, trace: int, backend_name: str = "local") -> dict:
    """One offline build, stage by stage (runs in its own process); ``backend_name``: local or ray (a Ray
    started here, or the cluster at RAY_ADDRESS; the driver's CPU time is then all that is counted)."""
    import resource
    import tracemalloc

    from groundset.core import CallEngine
    from groundset.core.backends import get_backend
    from groundset.documents.loader import load_documents
    from groundset.kg import KnowledgeGraph, NodeKind, add_documents, apply_transforms, default_transforms

    if trace:
        tracemalloc.start(1)
    stages = []
    backend = get_backend(backend_name)
    start, start_cpu = time.perf_counter(), _cpu(resource)
    with tempfile.TemporaryDirectory() as cache:
        engine = CallEngine(cache=Path(cache) / "c")
        loaded = load_documents(folder)
        kg = KnowledgeGraph()
        add_documents(kg, loaded.documents)
        stages.append(("load", time.perf_counter() - start, _peak_mb(resource), _cpu(resource) - start_cpu))
        for transform in default_transforms(kg):
            began, cpu = time.perf_counter(), _cpu(resource)
            apply_transforms(kg, [transform], engine=engine, backend=backend)
            stages.append(
                (transform.name, time.perf_counter() - began, _peak_mb(resource), _cpu(resource) - cpu)
            )
    saved = Path(tempfile.mkdtemp(prefix="kg_scale_"))
    began = time.perf_counter()
    kg.save(saved / "kg")
    save_seconds = time.perf_counter() - began
    result = {
        "saved": str(saved / "kg"),
        "save_seconds": save_seconds,
        "documents": len(kg.nodes(NodeKind.DOCUMENT)),
        "chunks": len(kg.nodes(NodeKind.CHUNK)),
        "edges": kg.count_edges(),
        "seconds": time.perf_counter() - start,
        "cpu_seconds": _cpu(resource),
        "peak_mb": _peak_mb(resource),
        "stages": stages,
    }
    if trace:
        snapshot = tracemalloc.take_snapshot()
        _, traced_peak = tracemalloc.get_traced_memory()
        result["traced_peak_mb"] = traced_peak / 2**20
        result["held_by_line"] = [
            (str(stat.traceback[0]), stat.size / 2**20, stat.count)
            for stat in snapshot.statistics("lineno")[:trace]
        ]
    return result


def load_child(folder: Path) -> dict:
    """Load a saved graph as `generate` does (with the same imports first) and take its fingerprint."""
    import resource

    from groundset.kg import KnowledgeGraph
    from groundset.synthesizers.pipeline import generator  # noqa: F401 - what generate has imported

    before = _peak_mb(resource)
    start = time.perf_counter()
    kg = KnowledgeGraph.load(folder)
    kg.fingerprint()
    return {
        "load_seconds": time.perf_counter() - start,
        "load_peak_mb": _peak_mb(resource),
        "imports_mb": before,
    }


def _peak_mb(resource) -> float:  # type: ignore[no-untyped-def]
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu(resource) -> float:  # type: ignore[no-untyped-def]
    """CPU seconds of this process so far, user and system, all threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# The offline extractors of the build (issue 32's target of 2 ms of CPU per chunk): headlines, the
# documents' phrases and TextRank summaries, the chunks' phrases and entity rules.
EXTRACTORS = ("headlines", "summaries", "chunk facts")


def _extractor_ms(row: dict) -> float:
    return 1000 * sum(stage[3] for stage in row["stages"] if stage[0] in EXTRACTORS) / row["chunks"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1,4,16", help="copies of the base corpus, comma-separated")
    parser.add_argument("--tracemalloc", type=int, default=0, help="top N memory lines for the first size")
    parser.add_argument("--keep", type=Path, help="assemble the corpora here and keep them")
    parser.add_argument(
        "--backend", default="local", choices=["local", "ray"], help="where per-text work runs"
    )
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--load-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.tracemalloc, args.backend)))
        return
    if args.load_child:
        print(json.dumps(load_child(args.load_child)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        for i, size in enumerate(sizes):
            folder = base / f"x{size}"
            if not folder.exists():
                files = assemble(folder, size)
                print(f"assembled {size}x: {files} files in {folder}", flush=True)
            trace = args.tracemalloc if i == 0 else 0
            command = [sys.executable, __file__, "--child", str(folder), "--tracemalloc", str(trace)]
            command += ["--backend", args.backend]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode:
                print(done.stderr[-3000:])
                raise SystemExit(f"the {size}x build failed")
            row = json.loads(done.stdout.strip().splitlines()[-1])
            row["size"] = size
            command = [sys.executable, __file__, "--load-child", row["saved"]]
            loaded = subprocess.run(command, capture_output=True, text=True, check=False)
            shutil.rmtree(Path(row["saved"]).parent, ignore_errors=True)
            if loaded.returncode:
                print(loaded.stderr[-3000:])
                raise SystemExit(f"loading the {size}x graph failed")
            row.update(json.loads(loaded.stdout.strip().splitlines()[-1]))
            rows.append(row)
            _print_row(row)
            if trace:
                print(f"    traced peak {row['traced_peak_mb']:.0f} MB; held at the end, by source line:")
                for where, mb, count in row["held_by_line"]:
                    print(f"      {mb:8.1f} MB {count:>9} blocks  {where}")
    print()
    print(
        f"{'size':>5}{'documents':>10}{'chunks':>9}{'edges':>10}{'seconds':>9}{'CPU ms/chunk':>13}"
        f"{'extractors':>11}{'peak MB':>9}{'KB/chunk':>9}{'save s':>8}{'load s':>8}{'load MB':>9}"
        f"{'KB/chunk':>9}"
    )
    for row in rows:
        print(
            f"{row['size']:>4}x{row['documents']:>10}{row['chunks']:>9}{row['edges']:>10}{row['seconds']:>9.1f}"
            f"{1000 * row['cpu_seconds'] / row['chunks']:>13.2f}{_extractor_ms(row):>11.2f}"
            f"{row['peak_mb']:>9.0f}"
            f"{1024 * row['peak_mb'] / row['chunks']:>9.1f}"
            f"{row['save_seconds']:>8.1f}{row['load_seconds']:>8.1f}"
            f"{row['load_peak_mb']:>9.0f}{1024 * row['load_peak_mb'] / row['chunks']:>9.1f}"
        )
    for a, b in zip(rows, rows[1:], strict=False):
        growth = math.log(b["chunks"] / a["chunks"])
        time_ratio, memory_ratio = b["seconds"] / a["seconds"], b["peak_mb"] / a["peak_mb"]
        added = 1024 * (b["peak_mb"] - a["peak_mb"]) / (b["chunks"] - a["chunks"])
        added_load = 1024 * (b["load_peak_mb"] - a["load_peak_mb"]) / (b["chunks"] - a["chunks"])
        print(
            f"{a['size']}x -> {b['size']}x: chunks x{b['chunks'] / a['chunks']:.2f}, "
            f"time x{time_ratio:.2f} (exponent {math.log(time_ratio) / growth:.2f}), "
            f"peak memory x{memory_ratio:.2f} (exponent {math.log(memory_ratio) / growth:.2f}); "
            f"each added chunk: {added:.1f} KB at the build's peak, {added_load:.1f} KB loaded"
        )


def _print_row(row: dict) -> None:
    per_chunk = 1024 * row["peak_mb"] / row["chunks"]
    print(
        f"  {row['size']}x: {row['documents']} documents, {row['chunks']} chunks, {row['edges']} edges, "
        f"{row['seconds']:.1f} s, peak {row['peak_mb']:.0f} MB = {per_chunk:.1f} KB per chunk",
        flush=True,
    )
    print(
        f"    saved in {row['save_seconds']:.1f} s; "
        f"loaded (with its fingerprint) in {row['load_seconds']:.1f} s, "
        f"peak {row['load_peak_mb']:.0f} MB ({row['imports_mb']:.0f} MB after the imports)",
        flush=True,
    )
    for name, seconds, peak, cpu in row["stages"]:
        print(f"    {name:<28}{seconds:>8.1f} s  CPU {cpu:>7.1f} s  peak {peak:>7.0f} MB", flush=True)
    print(f"    offline extractors: {_extractor_ms(row):.2f} ms of CPU per chunk", flush=True)


if __name__ == "__main__":
    if "--child" in sys.argv:
        main()
    else:
        with recorded("kg_scale"):
            main()
