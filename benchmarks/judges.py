"""Judges against labelled pairs: agreement on the development and the test half (prints, asserts nothing).

Two labelled sets, both pairs of a ``better`` and a ``worse`` sample that a person ranks in that order on
one metric's question:

- ``corpora`` (tests/data/judges/corpora/{dev,test}/): made by rules from the pages of the shared corpora
  (benchmarks/judge_sets.py says how; a blind reader's check of the labels is in that folder's README).
  The half is fixed by page. Judges are tuned on ``dev``; ``test`` is the report.
- ``hand-written`` (tests/data/judges/*.jsonl): written by hand, and the offline judges were tuned while
  looking at it, so its figures are optimistic. Shown as half ``tuned``.

For every file and metric this prints the pairwise agreement that ``groundset calibrate`` prints for the
same file (the same code: ``calibration.agreement_of``):

    agreement = (pairs where better > worse + 0.5 * ties) / pairs scored on both sides

with its 95% percentile-bootstrap interval, how many pairs a NaN kept out, and the target. ``--kinds``
adds the split by how the pairs were made; ``--show N`` prints failing pairs of the halves one may tune on
(never of ``test``).

Targets (issue 30): faithfulness >= 0.90, answer relevancy >= 0.75, context relevance >= 0.70,
answer correctness >= 0.80.

Run: .venv/bin/python benchmarks/judges.py [--half dev] [--kinds] [--show 5] [--llm openai:<model>]
     [--only faithfulness] [--write-docs]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.docs_section import recorded  # noqa: E402
from groundset.scoring import (  # noqa: E402
    AnswerCorrectness,
    AnswerRelevancy,
    ContextRelevance,
    FactualCorrectness,
    Faithfulness,
    Metric,
    evaluate,
)
from groundset.scoring.calibration import Labels, agreement_of, load_labels, preference_outcomes  # noqa: E402

DATA = ROOT / "tests" / "data" / "judges"
TARGETS = {
    "faithfulness": 0.90,
    "answer_relevancy": 0.75,
    "context_relevance": 0.70,
    "answer_correctness": 0.80,
}
FILES = ("faithfulness", "answer_relevancy", "context_relevance", "answer_correctness")


def metrics_for(name: str, offline_form: bool) -> list[Metric]:
    """The judges a file measures (factual correctness beside answer correctness, for comparison)."""
    options = {"offline_form": True} if offline_form else {}
    return {
        "faithfulness": lambda: [Faithfulness(**options)],
        "answer_relevancy": lambda: [AnswerRelevancy(**options)],
        "context_relevance": lambda: [ContextRelevance(**options)],
        "answer_correctness": lambda: [AnswerCorrectness(**options), FactualCorrectness(**options)],
    }[name]()


def halves(half: str) -> list[tuple[str, str, Path]]:
    """(set, half, folder) to read, in print order."""
    out = []
    if half in ("all", "tuned"):
        out.append(("hand-written", "tuned", DATA))
    for name in ("dev", "test"):
        if half in ("all", name):
            out.append(("corpora", name, DATA / "corpora" / name))
    return out


def fmt(value: float) -> str:
    return "  nan" if math.isnan(value) else f"{value:.3f}"


def short(text: str, limit: int = 110) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def notes_of(path: Path) -> list[dict]:
    """The people's notes of each pair (kind, made), in file order, for the breakdowns."""
    import json

    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run_file(
    set_name: str, half: str, path: Path, name: str, args: argparse.Namespace
) -> list[tuple[str, str, str, str, object]]:
    labels: Labels = load_labels(path)
    rows = notes_of(path)
    if args.limit:  # the first N pairs: a slow model measured on a part of each file
        labels.pairs, rows = labels.pairs[: args.limit], rows[: args.limit]
    metrics = metrics_for(name, args.offline_form)
    start = time.perf_counter()
    result = evaluate(
        labels.dataset(),
        metrics,
        llm=args.llm,
        embeddings=args.embeddings,
        show_progress=False,
        cache=args.cache,
        max_concurrency=args.max_concurrency,
    )
    seconds = time.perf_counter() - start
    out = []
    for metric in metrics:
        agreement = agreement_of(labels, metric, result)
        out.append((name, metric.name, set_name, half, agreement))
        if not (args.kinds or args.show):
            continue
        figure = agreement.preference_accuracy
        print(
            f"\n== {set_name}/{half}/{name}.jsonl {metric.name}: {fmt(figure.value)} over "
            f"{figure.n} of {len(labels.pairs)} pairs ({seconds:.1f} s)"
        )
        k = len(labels.pairs)
        cells = [row[metric.name] for row in result.cells]
        pairs = list(zip(cells[:k], cells[k:], strict=True))
        if args.kinds:
            groups: dict[str, list[float]] = defaultdict(list)
            for row, (b, w) in zip(rows, pairs, strict=True):
                if not (math.isnan(b.value) or math.isnan(w.value)):
                    value = float(preference_outcomes(b.value, w.value))
                    groups[row.get("kind", "?")].append(value)
                    if "corpus" in row:
                        groups["corpus " + row["corpus"]].append(value)
            for kind, values in sorted(groups.items()):
                print(f"     {kind:<28} n={len(values):<4} agreement {sum(values) / len(values):.3f}")
        if args.show and half != "test":
            failing = [(row, b, w) for row, (b, w) in zip(rows, pairs, strict=True) if not b.value > w.value]
            failing.sort(key=lambda f: -(f[2].value - f[1].value) if not math.isnan(f[2].value) else 1)
            for row, b, w in failing[: args.show]:
                print(f"     {row['id']} [{row.get('kind')}] better {fmt(b.value)} worse {fmt(w.value)}")
                print(f"       q: {short(row['better'].get('user_input', ''))}")
                print(f"       better: {short(b.reason or b.error, 150)}")
                print(f"       worse:  {short(w.reason or w.error, 150)}")
    return out


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--half", default="all", choices=("all", "tuned", "dev", "test"))
    parser.add_argument("--only", action="append", choices=FILES, help="this file only (repeatable)")
    parser.add_argument("--kinds", action="store_true", help="agreement by kind of pair and by corpus")
    parser.add_argument("--show", type=int, default=0, help="failing pairs to print (never of the test half)")
    parser.add_argument("--llm", default="offline", help="judge model spec (default: offline)")
    parser.add_argument("--embeddings", default="offline", help="embeddings spec (default: offline)")
    parser.add_argument("--cache", action="store_true", help="use the call cache (LLM runs)")
    parser.add_argument(
        "--max-concurrency", type=int, default=16, help="model requests in flight (2 for a local server)"
    )
    parser.add_argument(
        "--limit", type=int, default=0, help="only the first N pairs of each file (slow models)"
    )
    parser.add_argument(
        "--offline-form",
        action="store_true",
        help="score offline forms that are switched off for disagreeing with people (to measure them)",
    )
    return parser.parse_args(argv)


def measure(args: argparse.Namespace) -> list[tuple[str, str, str, str, object]]:
    """(file, metric, set, half, Agreement) for every file and half asked for."""
    figures = []
    for set_name, half, folder in halves(args.half):
        for name in FILES:
            if args.only and name not in args.only:
                continue
            figures.extend(run_file(set_name, half, folder / f"{name}.jsonl", name, args))
    return figures


def report(figures: list[tuple[str, str, str, str, object]], args: argparse.Namespace) -> None:
    print(
        f"\n== agreement with people (llm {args.llm!r}, embeddings {args.embeddings!r}"
        f"{', offline forms switched off are measured' if args.offline_form else ''})"
    )
    print(f"   {'metric':<20} {'set':<13} {'half':<6} {'pairs':>5} {'NaN':>4}  agreement [95% CI]     target")
    for name, metric, set_name, half, agreement in figures:
        figure = agreement.preference_accuracy
        target = TARGETS.get(name if metric == name else "", math.nan)
        mark = "" if math.isnan(target) else ("ok" if figure.value >= target else "BELOW")
        shown = "" if math.isnan(target) else f">= {target:.2f} {mark}"
        interval = f"[{fmt(figure.ci_low)}, {fmt(figure.ci_high)}]"
        print(
            f"   {metric:<20} {set_name:<13} {half:<6} {agreement.pairs:>5} {len(agreement.skipped):>4}  "
            f"{fmt(figure.value)} {interval:<16} {shown}"
        )
    print("   (NaN: pairs with a NaN on either side, left out of the agreement, as calibrate does)")


def main() -> None:
    args = parse()
    report(measure(args), args)


if __name__ == "__main__":
    with recorded("judges"):
        main()
