"""HTML reports of runs with huge answers: size, time and peak memory (issue 27, item 13).

Two run files of two samples each, every answer 10 MB (10,485,760 characters), scored by the four
default metrics, faithfulness keeping the answer as a statement in its trace (what `groundset score`
writes for such a target). Each report is made in its own process, as `groundset report` and
`groundset compare --report` make it (load the run files, render, write), since ``ru_maxrss`` is a
lifetime peak. Prints, per report: its size, wall time and the process's peak RSS; asserts nothing.

Run: .venv/bin/python benchmarks/report_size.py [--write-docs]
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.docs_section import print_child_output, recorded  # noqa: E402
from groundset.samples.dataset import EvaluationDataset  # noqa: E402
from groundset.scoring import compare_runs  # noqa: E402
from groundset.scoring.result import Cell, EvaluationResult, TargetCall  # noqa: E402

ANSWER_CHARS = 10 * 2**20
METRICS = ["faithfulness", "answer_relevancy", "context_precision", "context_recall"]


def run_file(path: Path, seed: int) -> None:
    """A run of two samples whose answers are 10 MB each, written as `score --out` writes it."""
    answers = [(f"answer {seed}-{n} " + "word " * (ANSWER_CHARS // 5))[:ANSWER_CHARS] for n in range(2)]
    rows = [
        {
            "user_input": f"Question {n}?",
            "response": answers[n],
            "retrieved_contexts": ["Prometheus scrapes targets.", "Alertmanager routes alerts."],
            "reference": "It scrapes targets.",
            "metadata": {"id": f"s{n}"},
        }
        for n in range(2)
    ]
    cells = [
        {
            m: Cell(0.1 * (n + seed), "why", {"statements": [answers[n]]} if m == "faithfulness" else {})
            for m in METRICS
        }
        for n in range(2)
    ]
    calls = [TargetCall(0.001), TargetCall(0.001)]
    result = EvaluationResult(
        EvaluationDataset.from_list(rows), METRICS, cells, target="big", target_calls=calls
    )
    result.to_jsonl(path)


def one(kind: str, out: Path, runs: list[Path]) -> None:
    """Make one report in this process and print its figures."""
    start = time.perf_counter()
    if kind == "run":
        EvaluationResult.load(runs[0]).report(out)
    else:
        compare_runs(runs[0], runs[1]).report(out)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB
    print(f"{kind} report: {out.stat().st_size:,} bytes, {seconds:.1f} s, peak RSS {peak:.0f} MB", flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        runs = [Path(tmp) / "a.jsonl", Path(tmp) / "b.jsonl"]
        for seed, path in enumerate(runs):
            run_file(path, seed)
        print(f"run files: {runs[0].stat().st_size:,} and {runs[1].stat().st_size:,} bytes")
        for kind in ("run", "compare"):
            args = [sys.executable, __file__, "--one", kind, str(Path(tmp) / f"{kind}.html"), *map(str, runs)]
            print_child_output(args)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        one(sys.argv[2], Path(sys.argv[3]), [Path(p) for p in sys.argv[4:]])
    else:
        with recorded("report_size"):
            main()
