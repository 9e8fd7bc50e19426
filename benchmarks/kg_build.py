"""Knowledge-graph build figures (prints, asserts nothing).

1. Relationship building on synthetic data at 2k / 10k / 50k chunks (see kg_relationships.py).
2. Offline build of the shared Prometheus corpus end to end: seconds and RSS, split by stage.
3. Against the local stub server: LLM calls per chunk for the build of the same corpus.

Run: .venv/bin/python benchmarks/kg_build.py [--skip-relationships] [--sizes 2000,10000,50000] [--write-docs]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._stub_process import stub_models, stub_process  # noqa: E402
from benchmarks.docs_section import print_child_output, recorded  # noqa: E402
from groundset.core import CallEngine  # noqa: E402
from groundset.documents.loader import load_documents  # noqa: E402
from groundset.kg import KnowledgeGraph, NodeKind, add_documents, apply_transforms, default_transforms  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


Row = tuple[str, float, float, float, int]  # stage, seconds, RSS MB after, peak MB so far, calls


def staged_build(llm=None, embeddings=None, engine=None) -> tuple[KnowledgeGraph, list[Row]]:
    rows = []
    start = time.perf_counter()
    loaded = load_documents(CORPUS)
    kg = KnowledgeGraph()
    add_documents(kg, loaded.documents)
    rows.append(("load", time.perf_counter() - start, rss_mb(), peak_mb(), 0))
    for transform in default_transforms(kg, llm, embeddings):
        start = time.perf_counter()
        report = apply_transforms(kg, [transform], llm=llm, embeddings=embeddings, engine=engine)
        calls = report.total_usage().calls
        rows.append((transform.name, time.perf_counter() - start, rss_mb(), peak_mb(), calls))
    return kg, rows


def print_rows(rows) -> None:
    print(f"    {'stage':<26}{'seconds':>9}{'RSS MB':>9}{'peak MB':>9}{'calls':>7}")
    for name, seconds, rss, peak, calls in rows:
        print(f"    {name:<26}{seconds:>9.2f}{rss:>9.0f}{peak:>9.0f}{calls:>7}")
    print(
        f"    {'total':<26}{sum(r[1] for r in rows):>9.2f}{'':>9}{max(r[3] for r in rows):>9.0f}"
        f"{sum(r[4] for r in rows):>7}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-relationships", action="store_true")
    parser.add_argument("--sizes", default="2000,10000,50000")
    args = parser.parse_args()
    if not args.skip_relationships:
        print("1. relationship building on synthetic chunks (benchmarks/kg_relationships.py)", flush=True)
        script = ROOT / "benchmarks" / "kg_relationships.py"
        print_child_output([sys.executable, str(script), "--sizes", args.sizes])

    print(f"2. offline build of {CORPUS.relative_to(ROOT.parent)}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        kg, rows = staged_build(engine=CallEngine(cache=Path(tmp) / "c"))
    stats = kg.stats()
    print(f"    {stats['nodes']}, edges {stats['edges']}")
    print_rows(rows)

    print("3. the same build against the stub server (ChatOpenAI + OpenAIEmbeddings)", flush=True)
    with tempfile.TemporaryDirectory() as tmp, stub_process(latency=0.0) as url:
        llm, emb = stub_models(url)
        engine = CallEngine(cache=Path(tmp) / "c", max_concurrency=32)
        kg, rows = staged_build(llm, emb, engine)
        chunks = len(kg.nodes(NodeKind.CHUNK))
        usage = engine.usage
        llm_calls = sum(s.calls for name, s in usage.stages.items() if not name.startswith("kg.embed"))
        embed_calls = sum(s.calls for name, s in usage.stages.items() if name.startswith("kg.embed"))
        print_rows(rows)
        per_chunk = llm_calls / chunks
        print(
            f"    chunks {chunks}, LLM calls {llm_calls} = {per_chunk:.2f} per chunk (target <= 1.5); "
            f"embedding requests {embed_calls}"
        )


if __name__ == "__main__":
    with recorded("kg_build"):
        main()
