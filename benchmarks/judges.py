"""Offline judges against a labelled development set: pairwise agreement (prints, asserts nothing).

tests/data/judges/ holds four JSONL files of pairs, each a ``better`` and a ``worse`` sample that a person
would clearly rank in that order on one metric's question (see tests/data/judges/README.md). Every sample
is scored with groundset's offline metrics (no LLM), and for each metric this prints

    agreement = (pairs where better > worse + 0.5 * ties) / pairs

where a pair with a NaN on either side counts as a tie (the judge expressed no preference) and is also
counted in the NaN columns. Beside it: the target, the split by the pair's ``kind`` (and ``better_kind``
where present), and the failing pairs (worse >= better), largest inversions first, spread over kinds.

Targets: >= 0.90 for faithfulness and correctness, >= 0.75 for answer relevancy and context relevance.

Context relevance is scored with ``METRICS["context_relevance"]``; where that metric does not exist (older
trees) the nearest ones stand in, ContextPrecision (usefulness for the reference) and ContextUtilization
(usefulness for the response), with a note: both are rank-weighted average precision, which does not move
when irrelevant passages are appended after the useful one. The samples carry every column these need.

Run: .venv/bin/python benchmarks/judges.py [--show 5] [--embeddings offline] [--only faithfulness]
     [--with-fallbacks] [--write-docs]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.docs_section import recorded  # noqa: E402
from groundset.scoring import (  # noqa: E402
    METRICS,
    AnswerCorrectness,
    AnswerRelevancy,
    ContextPrecision,
    ContextUtilization,
    EvaluationDataset,
    FactualCorrectness,
    Faithfulness,
    Metric,
    SingleTurnSample,
    evaluate,
)

DATA = ROOT / "tests" / "data" / "judges"
TIE = 1e-9


def context_metrics(*, with_fallbacks: bool = False) -> tuple[list[Metric], str]:
    cls = METRICS.get("context_relevance")
    if cls is not None and with_fallbacks:
        return [cls(), ContextPrecision(), ContextUtilization()], (
            "context_precision and context_utilization shown for comparison (--with-fallbacks)"
        )
    if cls is not None:
        return [cls()], ""
    return [ContextPrecision(), ContextUtilization()], (
        "no 'context_relevance' metric in groundset.scoring.METRICS: measured with context_precision and "
        "context_utilization (rank-weighted usefulness; padding after the useful passage does not lower them)"
    )


def suites(*, with_fallbacks: bool = False) -> list[tuple[str, list[Metric], float, str]]:
    """(file, metrics, target, note) per development file."""
    context, note = context_metrics(with_fallbacks=with_fallbacks)
    return [
        ("faithfulness", [Faithfulness()], 0.90, ""),
        ("answer_relevancy", [AnswerRelevancy()], 0.75, ""),
        ("context_relevance", context, 0.75, note),
        ("answer_correctness", [AnswerCorrectness(), FactualCorrectness()], 0.90, ""),
    ]


def load(name: str) -> list[dict[str, Any]]:
    path = DATA / f"{name}.jsonl"
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            row = json.loads(line)
            row["_line"] = number
            rows.append(row)
    return rows


def outcome(better: float, worse: float) -> str:
    """'win' (better > worse), 'tie' (equal, or a NaN on either side) or 'loss'."""
    if math.isnan(better) or math.isnan(worse):
        return "nan"
    if better > worse + TIE:
        return "win"
    if worse > better + TIE:
        return "loss"
    return "tie"


def agreement(outcomes: list[str]) -> float:
    if not outcomes:
        return math.nan
    wins = outcomes.count("win")
    ties = outcomes.count("tie") + outcomes.count("nan")
    return (wins + 0.5 * ties) / len(outcomes)


def fmt(value: float) -> str:
    return "  nan" if math.isnan(value) else f"{value:.3f}"


def pick_failures(failures: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """Largest inversions first (among ties, those where the worse sample scored highest: the judge
    accepted it), taking one per kind in turn so the examples span the kinds."""
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for failure in sorted(failures, key=lambda f: (-f["margin"], -f["worse_value"], f["id"])):
        by_kind[failure["kind"]].append(failure)
    order = sorted(by_kind, key=lambda k: -by_kind[k][0]["margin"])
    picked: list[dict[str, Any]] = []
    while len(picked) < n and any(by_kind.values()):
        for kind in order:
            if by_kind[kind] and len(picked) < n:
                picked.append(by_kind[kind].pop(0))
    return picked


def short(text: str, limit: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def run_suite(
    name: str, metrics: list[Metric], target: float, note: str, *, embeddings: str, show: int
) -> dict[str, float]:
    rows = load(name)
    samples = [SingleTurnSample(**row[side]) for row in rows for side in ("better", "worse")]
    start = time.perf_counter()
    result = evaluate(
        EvaluationDataset(samples),
        metrics,
        llm="offline",
        embeddings=embeddings,
        show_progress=False,
        cache=False,
    )
    seconds = time.perf_counter() - start
    print(f"\n== {name}.jsonl: {len(rows)} pairs, {len(metrics)} metric(s), {seconds:.1f} s")
    if note:
        print(f"   note: {note}")
    for metric, run_note in result.notes.items():
        print(f"   {metric}: {run_note}")
    figures = {}
    for metric in result.metrics:
        cells = [(result.cells[2 * i][metric], result.cells[2 * i + 1][metric]) for i in range(len(rows))]
        outcomes = [outcome(b.value, w.value) for b, w in cells]
        score = agreement(outcomes)
        figures[metric] = score
        nan_cells = sum(math.isnan(c.value) for pair in cells for c in pair)
        errors = sum(bool(c.error) for pair in cells for c in pair)
        verdict = "ok" if score >= target else "BELOW"
        print(
            f"\n   {metric:<22} agreement {fmt(score)}  target >= {target:.2f} [{verdict}]   "
            f"better>worse {outcomes.count('win')}  ties {outcomes.count('tie')}  "
            f"worse>better {outcomes.count('loss')}  NaN pairs {outcomes.count('nan')} "
            f"(NaN cells {nan_cells}, errors {errors})"
        )
        for field in ("kind", "better_kind"):
            groups: dict[str, list[str]] = defaultdict(list)
            for row, result_of_pair in zip(rows, outcomes, strict=True):
                if field in row:
                    groups[row[field]].append(result_of_pair)
            if not groups:
                continue
            print(f"     by {field}:")
            for kind, group in sorted(groups.items()):
                print(
                    f"       {kind:<20} n={len(group):<3} agreement {fmt(agreement(group))}  "
                    f"(win {group.count('win')}, tie {group.count('tie')}, loss {group.count('loss')}, "
                    f"nan {group.count('nan')})"
                )
        failures = []
        for row, (b, w), result_of_pair in zip(rows, cells, outcomes, strict=True):
            if result_of_pair == "win":
                continue
            margin = (w.value - b.value) if result_of_pair != "nan" else -1.0
            worse_value = w.value if not math.isnan(w.value) else -1.0
            failures.append(
                {"id": row["id"], "kind": row["kind"], "margin": margin, "worse_value": worse_value}
                | {"row": row, "b": b, "w": w}
            )
        if show and failures:
            print(f"     failing pairs ({len(failures)}; showing {min(show, len(failures))}):")
            for failure in pick_failures(failures, show):
                b, w, row = failure["b"], failure["w"], failure["row"]
                print(
                    f"       {failure['id']} [{failure['kind']}] better {fmt(b.value)} worse {fmt(w.value)}"
                    f"  | {short(row['made'])}"
                )
                print(f"         better: {short(b.reason or b.error, 100)}")
                print(f"         worse:  {short(w.reason or w.error, 100)}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", type=int, default=5, help="failing pairs to print per metric")
    parser.add_argument("--embeddings", default="offline", help="offline embeddings spec (default: offline)")
    parser.add_argument("--only", action="append", help="run only this file (repeatable), e.g. faithfulness")
    parser.add_argument(
        "--with-fallbacks",
        action="store_true",
        help="also score context relevance with context_precision and context_utilization",
    )
    args = parser.parse_args()
    summary = []
    for name, metrics, target, note in suites(with_fallbacks=args.with_fallbacks):
        if args.only and name not in args.only:
            continue
        figures = run_suite(name, metrics, target, note, embeddings=args.embeddings, show=args.show)
        summary.extend((name, metric, score, target) for metric, score in figures.items())
    print(
        "\n== summary (pairwise agreement with the labelled pairs; offline llm, embeddings "
        f"{args.embeddings!r})"
    )
    for name, metric, score, target in summary:
        mark = "ok" if score >= target else "BELOW"
        print(f"   {name:<20} {metric:<22} {fmt(score)}  target >= {target:.2f}  {mark}")


if __name__ == "__main__":
    with recorded("judges"):
        main()
