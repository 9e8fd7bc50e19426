"""Offline test-set quality figures (prints, asserts nothing).

1. The rated sample: the share of usable samples in tests/data/ratings/prometheus-offline-60.jsonl
   (60 offline samples of the Prometheus docs, each read and rated by a person; see its README), by
   synthesizer and by criterion, and how many of those samples the current code still generates
   word for word (``--seed 17``). Samples that changed need rating again.
2. Lints over 200 offline samples of each shared corpus (what tests/test_offline_testset_quality.py
   checks), counted instead of asserted, plus the most samples one context backs in a 100-sample set.

Run: .venv/bin/python benchmarks/offline_quality.py [--write-sample PATH] [--write-docs]
  --write-sample writes the current 60-sample set (seed 17) as JSONL for rating.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.docs_section import recorded  # noqa: E402
from groundset.core import CallEngine  # noqa: E402
from groundset.kg import build_knowledge_graph  # noqa: E402
from groundset.synthesizers import TestsetGenerator  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
PROMETHEUS = CORPORA / "prometheus-docs" / "docs"
MESSY = CORPORA / "messy"
RATINGS = ROOT / "tests" / "data" / "ratings" / "prometheus-offline-60.jsonl"
RATED_SEED = 17
MARKUP = re.compile(r"<[A-Za-z/!][^>]*>|\{\{|\}\}|\{%|%\}|\]\(|\{#|<!--")
DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
FILLER = re.compile(r"\b(?:documentation|docs|according|described|based on|in practice|production)\b", re.I)


def generate(kg, size: int, seed: int):
    return TestsetGenerator(engine=CallEngine(cache=False)).generate(kg, size, seed=seed)


def rated_figures(kg) -> None:
    rows = [json.loads(line) for line in RATINGS.open(encoding="utf-8")]
    usable = [r for r in rows if r["rating"]["usable"]]
    print(f"1. rated sample ({RATINGS.relative_to(ROOT)}): {len(usable)} of {len(rows)} usable "
          f"= {len(usable) / len(rows):.0%}")  # fmt: skip
    for synthesizer in sorted({r["synthesizer"] for r in rows}):
        group = [r for r in rows if r["synthesizer"] == synthesizer]
        ok = sum(r["rating"]["usable"] for r in group)
        print(f"   {synthesizer:<20} {ok:>2} of {len(group)}")
    for criterion in ("plausible", "answers", "grounded", "needs_both"):
        relevant = [r for r in rows if criterion != "needs_both" or r["synthesizer"] != "single_hop_specific"]
        ok = sum(bool(r["rating"][criterion]) for r in relevant)
        print(f"   {criterion:<20} {ok:>2} of {len(relevant)}")
    current = {(s.user_input, s.reference) for s in generate(kg, 60, RATED_SEED)}
    same = sum((r["user_input"], r["reference"]) in current for r in rows)
    print(f"   still generated word for word by this code: {same} of {len(rows)}")


def lint_figures(name: str, kg) -> None:
    testset = generate(kg, 200, seed=11)
    counts: Counter[str] = Counter()
    for s in testset:
        counts["markup"] += bool(MARKUP.search(s.user_input) or MARKUP.search(s.reference))
        counts["list stub"] += any(line.rstrip().endswith(":") for line in s.reference.split("\n"))
        counts["doubled word"] += bool(DOUBLED.search(s.user_input))
        counts["search filler"] += s.style == "web_search" and bool(FILLER.search(s.user_input))
    print(f"2. {name}: {len(testset)} of 200 samples; problems: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))  # fmt: skip
    print(f"   rejections: {dict(testset.metadata['rejections'])}")
    hundred = generate(kg, 100, seed=5)
    uses = Counter(" ".join(c.split()) for s in hundred for c in s.reference_contexts)
    print(
        f"   100-sample set: {len(hundred)} samples, most samples backed by one context: {max(uses.values())}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write-sample", type=Path, help="write the 60-sample set to rate to this path")
    args = parser.parse_args()
    prometheus = build_knowledge_graph(PROMETHEUS, engine=CallEngine(cache=False)).kg
    if args.write_sample:
        generate(prometheus, 60, RATED_SEED).to_jsonl(args.write_sample)
        print(f"wrote {args.write_sample}")
        return
    rated_figures(prometheus)
    lint_figures("prometheus-docs", prometheus)
    lint_figures("messy", build_knowledge_graph(MESSY, engine=CallEngine(cache=False)).kg)


if __name__ == "__main__":
    with recorded("offline_quality"):
        main()
