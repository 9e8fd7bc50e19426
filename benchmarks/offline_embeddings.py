"""Offline embeddings compared: hashing vs WordLlama (prints figures, asserts nothing).

Corpus: the paragraphs (blank-line separated, code fences kept as text) of every ``.md`` file under
``../shared/corpora/prometheus-docs/docs``; with ``--chunk-chars N``, consecutive paragraphs of a file
are joined into chunks of up to N characters (1000 is about the graph's 256-token chunks).
Reported per model:

- speed: texts/second embedding all paragraphs (best of ``--repeat`` runs; WordLlama's one-off
  weight load is timed separately, as ``load``);
- paraphrase triples (``tests/data/paraphrase_pairs.jsonl``): how often the paraphrase is closer
  to the anchor than the unrelated sentence, and the mean cosine of each;
- cosine distributions that the similarity thresholds depend on: adjacent paragraphs of one file,
  random paragraph pairs from different files, and each paragraph's nearest neighbour (p10/p50/p90),
  plus the share of pairs at or above the thresholds used in the code base (0.3, 0.75, 0.9).

Run: .venv/bin/python benchmarks/offline_embeddings.py [--docs DIR] [--chunk-chars 0] [--repeat 3]
     [--write-docs]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.docs_section import recorded  # noqa: E402
from groundset.core.offline_embeddings import HashingEmbeddings, OfflineEmbeddings  # noqa: E402
from groundset.core.wordllama_embeddings import WordLlamaEmbeddings, shared_model  # noqa: E402

DOCS = ROOT.parent / "shared" / "corpora" / "prometheus-docs" / "docs"
TRIPLES = ROOT / "tests" / "data" / "paraphrase_pairs.jsonl"
HARD = ROOT / "tests" / "data" / "paraphrase_hard_negatives.jsonl"
THRESHOLDS = (0.3, 0.55, 0.75, 0.9, 0.95)  # the models' similar / duplicate cosines (cosine_thresholds)


def paragraphs(docs: Path, chunk_chars: int = 0) -> tuple[list[str], np.ndarray]:
    """Non-empty paragraphs (or chunks of them) of every markdown file, and each one's file index."""
    texts: list[str] = []
    owners: list[int] = []
    for number, path in enumerate(sorted(docs.rglob("*.md"))):
        chunk = ""
        for block in path.read_text(encoding="utf-8", errors="replace").split("\n\n"):
            if not any(c.isalnum() for c in block):
                continue
            if chunk and len(chunk) + len(block) > chunk_chars:
                texts.append(chunk)
                owners.append(number)
                chunk = ""
            chunk = f"{chunk}\n\n{block.strip()}" if chunk else block.strip()
        if chunk:
            texts.append(chunk)
            owners.append(number)
    return texts, np.asarray(owners)


def speed(model: OfflineEmbeddings, texts: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        model.embed_matrix(texts)
        best = min(best, time.perf_counter() - start)
    return len(texts) / best


def triples(model: OfflineEmbeddings, path: Path, rival: str) -> tuple[int, int, float, float]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    anchor, para, other = (model.embed_matrix([r[k] for r in rows]) for k in ("anchor", "paraphrase", rival))
    close, far = (anchor * para).sum(axis=1), (anchor * other).sum(axis=1)
    return int((close > far).sum()), len(rows), float(close.mean()), float(far.mean())


def cosines(vectors: np.ndarray, owners: np.ndarray, pairs: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Adjacent same-file pairs, random cross-file pairs, and nearest-neighbour cosines."""
    same = owners[1:] == owners[:-1]
    adjacent = (vectors[1:] * vectors[:-1]).sum(axis=1)[same]
    rng = np.random.default_rng(seed)
    i, j = rng.integers(0, len(vectors), (2, pairs))
    keep = owners[i] != owners[j]
    random = (vectors[i[keep]] * vectors[j[keep]]).sum(axis=1)
    usable = np.linalg.norm(vectors, axis=1) > 0
    unit = vectors[usable]
    nearest = np.empty(len(unit), dtype=np.float32)
    for start in range(0, len(unit), 1024):
        block = unit[start : start + 1024] @ unit.T
        block[np.arange(len(block)), np.arange(start, start + len(block))] = -np.inf
        nearest[start : start + len(block)] = block.max(axis=1)
    return {"adjacent": adjacent, "random": random, "nearest": nearest}


def describe(name: str, values: np.ndarray) -> str:
    p10, p50, p90 = np.percentile(values, [10, 50, 90])
    shares = "  ".join(f">={t:g}: {np.mean(values >= t):6.1%}" for t in THRESHOLDS)
    return f"    {name:<9} n={len(values):<6} p10 {p10:.3f}  p50 {p50:.3f}  p90 {p90:.3f}   {shares}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=DOCS)
    parser.add_argument("--chunk-chars", type=int, default=0, help="join paragraphs up to N chars")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=20_000)
    args = parser.parse_args()
    if not args.docs.is_dir():
        sys.exit(f"no corpus at {args.docs}: pass --docs DIR (a folder of .md files)")
    texts, owners = paragraphs(args.docs, args.chunk_chars)
    mean_chars = sum(map(len, texts)) / len(texts)
    unit = f"chunks of <= {args.chunk_chars} chars" if args.chunk_chars else "paragraphs"
    print(f"corpus: {len(texts)} {unit} from {owners.max() + 1} files, mean {mean_chars:.0f} chars")
    start = time.perf_counter()
    shared_model()
    print(f"wordllama load (once per process): {time.perf_counter() - start:.3f} s")
    for model in (HashingEmbeddings(), WordLlamaEmbeddings()):
        rate = speed(model, texts, args.repeat)
        print(f"\n{model.identity}")
        print(f"  speed: {rate:,.0f} texts/s")
        for path, rival in ((TRIPLES, "unrelated"), (HARD, "hard_negative")):
            right, total, close, far = triples(model, path, rival)
            print(
                f"  paraphrase vs {rival}: {right}/{total} ({right / total:.0%}) right; "
                f"mean cosine paraphrase {close:.3f}, {rival} {far:.3f}"
            )
        print("  cosine distributions:")
        for name, values in cosines(model.embed_matrix(texts), owners, args.pairs).items():
            print(describe(name, values))


if __name__ == "__main__":
    with recorded("offline_embeddings"):
        main()
