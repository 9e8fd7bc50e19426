"""Incremental graph update figures (prints, asserts nothing).

The whole shared Prometheus corpus is copied to a temp dir and built; then one document is changed
(a section appended) and the graph is updated (``update_kg``) and, for comparison, built again in full.

1. Offline: full build seconds vs update seconds (update and rebuild: best of 3, warm). Offline, the
   update recomputes the corpus-level TF-IDF facts of every node (see groundset/kg/update.py), so it
   saves the splitting and embedding of unchanged documents, not most of the time.
2. Stub at 50 ms latency, max_concurrency 16 (ChatOpenAI + OpenAIEmbeddings, scripted answers, no
   cache): model calls and wall time of the full build vs the update, as ratios (target < 10% of both).

Run: .venv/bin/python benchmarks/incremental.py [--write-docs]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._stub_process import stub_models, stub_process  # noqa: E402
from benchmarks.docs_section import recorded  # noqa: E402
from groundset.core import CallEngine  # noqa: E402
from groundset.kg import build_knowledge_graph, update_kg  # noqa: E402
from groundset.kg.update import same_graph  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"
CHANGED = "practices/rules.md"
LATENCY, CONCURRENCY = 0.05, 16
SECTION = (
    "\n\n## Rule group intervals\n\nEach rule group is evaluated at its own interval. A group that sets "
    "`interval` overrides the global `evaluation_interval` for the recording and alerting rules in it.\n"
)


def counts(report) -> tuple[int, int, int]:
    """(LLM calls, embedding requests, texts embedded) of a build or update report."""
    embed = [s for s in report.stages if s.stage.startswith("kg.embed")]
    llm = sum(s.usage.calls for s in report.stages if not s.stage.startswith("kg.embed"))
    return llm, sum(s.usage.calls for s in embed), sum(s.selected for s in embed)


def engine() -> CallEngine:
    return CallEngine(cache=False, max_concurrency=CONCURRENCY)


def timed(work, repeat: int):
    """(best seconds, last result) of ``repeat`` runs of ``work()``."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def run(docs: Path, repeat: int = 1, **models) -> dict[str, object]:
    """Build, change one document, update, rebuild; the figures of each step (best of ``repeat``)."""
    original = (docs / CHANGED).read_text(encoding="utf-8")
    figures: dict[str, object] = {}
    seconds, built = timed(lambda: build_knowledge_graph(docs, engine=engine(), **models), 1)
    figures["build"] = (seconds, *counts(built.report))
    (docs / CHANGED).write_text(original + SECTION, encoding="utf-8")
    try:
        seconds, update = timed(lambda: update_kg(built.kg, docs, engine=engine(), **models), repeat)
        figures["update"] = (seconds, *counts(update.report))
        seconds, rebuilt = timed(lambda: build_knowledge_graph(docs, engine=engine(), **models), repeat)
        figures["rebuild"] = (seconds, *counts(rebuilt.report))
    finally:
        (docs / CHANGED).write_text(original, encoding="utf-8")
    figures["equal"] = same_graph(update.kg, rebuilt.kg)
    figures["diff"] = update.diff.summary()
    figures["nodes"] = (update.nodes_added, update.nodes_removed, len(update.kg))
    return figures


def show(figures: dict[str, object]) -> None:
    added, removed, total = figures["nodes"]
    print(f"    diff: {figures['diff']}; nodes +{added} -{removed} of {total}")
    print(f"    {'':<26}{'seconds':>9}{'LLM calls':>11}{'embed req':>11}{'texts embedded':>16}")
    labels = {
        "build": "full build (before)",
        "update": "update (1 doc changed)",
        "rebuild": "full rebuild (after)",
    }
    for name, label in labels.items():
        seconds, llm, requests, texts = figures[name]
        print(f"    {label:<26}{seconds:>9.2f}{llm:>11}{requests:>11}{texts:>16}")
    full, up = figures["rebuild"], figures["update"]

    def ratio(i: int) -> str:
        return f"{up[i] / full[i]:.1%}" if full[i] else "-"

    print(
        f"    update / rebuild: wall {ratio(0)}, LLM calls {ratio(1)}, embedding requests {ratio(2)}, "
        f"texts embedded {ratio(3)} (target < 10%); update equals the rebuild: {figures['equal']}"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        shutil.copytree(CORPUS, docs)
        print(f"1. offline, {CORPUS.relative_to(ROOT.parent)} copied, {CHANGED} changed", flush=True)
        show(run(docs, repeat=3))

        print(
            f"2. stub at {LATENCY * 1000:.0f} ms latency, max_concurrency {CONCURRENCY}, scripted answers, "
            "no cache",
            flush=True,
        )
        with stub_process(LATENCY, scripted=True) as url:
            llm, emb = stub_models(url)
            show(run(docs, llm=llm, embeddings=emb))


if __name__ == "__main__":
    with recorded("incremental"):
        main()
