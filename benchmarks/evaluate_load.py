"""Load: offline `evaluate` of many samples keeps peak memory bounded and its progress steady (issue 13).

Prints, per size (2,000 and 20,000 by default, each in its own process, since ``ru_maxrss`` is a
lifetime peak): peak RSS after the samples are built, after scoring, and after writing the run file;
wall times; and how the progress updates are spaced (first one, largest gap, share done at each tenth
of the scoring time). Samples are synthetic but realistic: sentences of the shared Prometheus corpus
make a question, a response, 3 retrieved contexts (one of them holding the reference) and a reference.

Run: .venv/bin/python benchmarks/evaluate_load.py [--sizes 2000,20000] [--cells-in-flight 64] [--write-docs]
     .venv/bin/python benchmarks/evaluate_load.py --one 20000   (one size, in this process)

--cells-in-flight W scores at most W (sample, metric) cells at a time: the fix proposed for
score_cells, which otherwise starts every cell at once (see the figures in issue 13's report).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.docs_section import recorded  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def current_mb() -> float:
    """Resident memory now (not the peak): what the process still holds."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def corpus_sentences() -> list[list[str]]:
    """Per page, its prose sentences (markup stripped, 40-300 characters)."""
    pages = []
    for page in sorted(CORPUS.rglob("*.md")):
        text = re.sub(r"\A---.*?\n---\n", "", page.read_text(encoding="utf-8", errors="replace"), flags=re.S)
        text = re.sub(r"```.*?```", " ", text, flags=re.S)
        text = re.sub(r"[#`*\[\]()>|]|https?://\S+", " ", text)
        found = (" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+|\n\s*\n", text))
        sentences = [s for s in found if 40 <= len(s) <= 300 and s[0].isalpha()]
        if len(sentences) >= 12:
            pages.append(sentences)
    return pages


def make_samples(n: int, seed: int = 0) -> list[dict]:
    """``n`` samples: the reference is two sentences of a page, the response one of them plus another
    sentence, and of the 3 retrieved contexts one holds the reference, the others are other passages."""
    pages = corpus_sentences()
    rng = random.Random(seed)
    rows = []
    for index in range(n):
        page = rng.choice(pages)
        at = rng.randrange(0, len(page) - 4)
        reference = page[at : at + 2]
        words = [w for w in re.findall(r"[A-Za-z][\w-]{4,}", reference[0])] or ["this"]
        other = rng.choice(pages)
        distractors = []
        for _ in range(2):
            start = rng.randrange(0, len(other) - 3)
            distractors.append(" ".join(other[start : start + 3]))
        contexts = [" ".join(page[max(at - 1, 0) : at + 3]), *distractors]
        rng.shuffle(contexts)
        rows.append(
            {
                "user_input": f"What do the docs say about {rng.choice(words)}? (case {index})",
                "response": f"{reference[0]} {rng.choice(page)}",
                "retrieved_contexts": contexts,
                "reference": " ".join(reference),
            }
        )
    return rows


class RecordingProgress:
    """Stands in for groundset's Progress: records when each scoring step finished."""

    times: list[float] = []
    total = 0

    def __init__(self, enabled: bool) -> None:
        pass

    @contextmanager
    def stage(self, name: str, total: int):
        RecordingProgress.total = total
        yield lambda: RecordingProgress.times.append(time.perf_counter())

    def __enter__(self) -> RecordingProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def bound_cells_in_flight(scoring, limit: int) -> None:
    """Score at most ``limit`` cells at a time (what score_cells does if issue 13's proposed fix is not
    in yet): its one gather over every cell becomes ``limit`` workers taking cells in order."""

    class Bounded:
        def __getattr__(self, name: str):
            return getattr(asyncio, name)

        @staticmethod
        async def gather(*cells):
            pending = iter(cells)

            async def worker() -> None:
                for cell in pending:
                    await cell

            await asyncio.gather(*(worker() for _ in range(min(limit, len(cells)))))

    scoring.asyncio = Bounded()


def one(n: int, cells_in_flight: int = 0) -> dict:
    """Build, score and write ``n`` samples in this process; return the figures."""
    from groundset.core import CallEngine
    from groundset.scoring import EvaluationDataset, default_metrics, evaluate

    scoring = importlib.import_module("groundset.scoring.evaluate")  # the module, not the function
    if cells_in_flight:
        bound_cells_in_flight(scoring, cells_in_flight)
    figures: dict = {"n": n, "cells_in_flight": cells_in_flight or "all", "rss_start_mb": peak_mb()}
    start = time.perf_counter()
    data = EvaluationDataset.from_list(make_samples(n), notify=False)
    figures.update(build_s=time.perf_counter() - start, rss_built_mb=peak_mb())
    scoring.Progress = RecordingProgress  # measure the progress updates, silently
    start = time.perf_counter()
    result = evaluate(data, default_metrics(), engine=CallEngine(cache=False), show_progress=True)
    figures.update(score_s=time.perf_counter() - start, rss_scored_mb=peak_mb(), held_mb=current_mb())
    figures.update(progress(start, time.perf_counter()))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.jsonl"
        start = time.perf_counter()
        result.to_jsonl(out)
        figures.update(
            write_s=time.perf_counter() - start, rss_written_mb=peak_mb(), file_mb=out.stat().st_size / 2**20
        )
    figures["means"] = {m: round(a["mean"], 4) for m, a in result.aggregate().items()}
    return figures


def progress(start: float, end: float) -> dict:
    """First update, largest gap between updates, and the share of steps done at each tenth of the time."""
    times = RecordingProgress.times
    if not times:
        return {"updates": 0}
    gaps = [b - a for a, b in zip([start, *times], times, strict=False)]
    span = end - start
    done = [sum(t - start <= span * k / 10 for t in times) / len(times) for k in range(1, 11)]
    return {
        "updates": len(times),
        "first_update_s": times[0] - start,
        "max_gap_s": max(gaps),
        "done_by_tenth": [round(d, 2) for d in done],
    }


def report(f: dict) -> None:
    print(
        f"n = {f['n']:,} samples x 4 default metrics (offline), cells in flight: {f['cells_in_flight']}, "
        f"{f['updates']:,} progress updates"
    )
    print(
        f"  peak RSS: {f['rss_start_mb']:.0f} MB at start, {f['rss_built_mb']:.0f} MB with the samples "
        f"built ({f['build_s']:.1f} s), {f['rss_scored_mb']:.0f} MB after scoring ({f['score_s']:.1f} s; "
        f"{f['held_mb']:.0f} MB still held), {f['rss_written_mb']:.0f} MB after writing the run file "
        f"({f['file_mb']:.1f} MB in {f['write_s']:.1f} s)"
    )
    if f["updates"]:
        print(
            f"  progress: first update after {f['first_update_s']:.2f} s, largest gap "
            f"{f['max_gap_s']:.2f} s; share done at each tenth of the time: {f['done_by_tenth']}"
        )
    print(f"  means: {f['means']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,20000", help="comma list; each runs in its own process")
    parser.add_argument("--one", type=int, help="run one size in this process and print its figures")
    parser.add_argument("--json", action="store_true", help="with --one: print the figures as JSON")
    parser.add_argument(
        "--cells-in-flight", type=int, default=0, help="score at most this many cells at once (0: as is)"
    )
    args = parser.parse_args()
    if args.one:
        figures = one(args.one, args.cells_in_flight)
        print(json.dumps(figures)) if args.json else report(figures)
        return
    for size in (int(s) for s in args.sizes.split(",")):
        command = [sys.executable, __file__, "--one", str(size), "--json"]
        command += ["--cells-in-flight", str(args.cells_in_flight)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        report(json.loads(done.stdout.strip().splitlines()[-1]))


if __name__ == "__main__":
    with recorded("evaluate_load"):
        main()
