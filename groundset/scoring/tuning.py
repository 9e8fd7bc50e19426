"""Tune a judge with the user's labels, and show whether it helped: the labels are split, one part becomes
the metric's demonstrations (few-shot guidance for its LLM judges), and agreement on the held-out part is
measured without and with them.

Scores of any scale are mapped to 0..1 by the labels' own range; a preference pair gives its better
sample 1 and its worse sample 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..samples.evaluation import SingleTurnSample
from .calibration import Agreement, Labels, calibrate
from .demonstrations import Demonstration
from .metric import Metric


@dataclass(frozen=True)
class BeforeAfter:
    before: Agreement
    after: Agreement
    demonstrations: int
    held_out: int


def split_labels(labels: Labels, holdout: float, seed: int = 0) -> tuple[Labels, Labels]:
    """(train, held out): a seeded split of the scored samples and of the pairs, each part non-empty
    when it can be."""
    if not 0.0 < holdout < 1.0:
        raise ValueError(f"holdout must be a share between 0 and 1, got {holdout}")
    rng = random.Random(seed)
    scored = list(range(len(labels.samples)))
    pairs = list(range(len(labels.pairs)))
    rng.shuffle(scored)
    rng.shuffle(pairs)
    cut_s, cut_p = _cut(len(scored), holdout), _cut(len(pairs), holdout)
    return _subset(labels, scored[cut_s:], pairs[cut_p:]), _subset(labels, scored[:cut_s], pairs[:cut_p])


def demonstrations_from(labels: Labels) -> list[Demonstration]:
    """Each scored sample with its score mapped to 0..1; each pair as a 1 (better) and a 0 (worse)."""
    scores = labels.human_scores
    low, high = (min(scores), max(scores)) if scores else (0.0, 1.0)
    span = high - low or 1.0
    demos = [
        Demonstration(one, (score - low) / span)
        for sample, score in zip(labels.samples, scores, strict=True)
        if (one := single_turn(sample)) is not None
    ]
    for pair in labels.pairs:
        better, worse = single_turn(pair.better), single_turn(pair.worse)
        if better is not None and worse is not None:
            demos += [Demonstration(better, 1.0), Demonstration(worse, 0.0)]
    return demos


def before_after(
    labels: Labels,
    metric: type[Metric],
    *,
    k: int = 3,
    holdout: float = 0.5,
    seed: int = 0,
    **options: Any,
) -> BeforeAfter:
    """Agreement on the held-out labels of ``metric`` as it is, and of ``metric`` guided by the k nearest
    demonstrations from the other labels (``options`` go to ``calibrate``: llm, engine, ...)."""
    train, held_out = split_labels(labels, holdout, seed)
    demos = demonstrations_from(train)
    before = calibrate(held_out, metric(), seed=seed, **options)
    after = calibrate(held_out, metric(demonstrations=demos, demonstrations_k=k), seed=seed, **options)
    return BeforeAfter(before, after, len(demos), len(held_out.samples) + len(held_out.pairs))


def single_turn(sample: object) -> SingleTurnSample | None:
    """Demonstrations show single-turn samples; conversations are left out."""
    return sample if isinstance(sample, SingleTurnSample) else None


def _cut(n: int, holdout: float) -> int:
    if n < 2:
        return n  # a lone item is held out: there is nothing to learn from and something to measure
    return min(max(1, round(n * holdout)), n - 1)


def _subset(labels: Labels, scored: list[int], pairs: list[int]) -> Labels:
    keep = sorted(scored)
    return Labels(
        samples=[labels.samples[i] for i in keep],
        human_scores=[labels.human_scores[i] for i in keep],
        locations=[labels.locations[i] for i in keep],
        pairs=[labels.pairs[i] for i in sorted(pairs)],
    )
