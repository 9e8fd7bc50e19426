"""How far a review has come, and what it says about the generator: counts by status per kind and per
document, and the share of decided samples a person kept.

The kept share (kept as generated, plus kept after an edit, over every sample a person decided on) is a
measure of generation quality on the user's own documents, which no benchmark corpus gives.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .store import EDITED, KEPT, NEEDS_REVIEW, REJECTED, STATUSES, Item

__all__ = ["ReviewSummary", "summarise"]


@dataclass
class ReviewSummary:
    total: Counter[str] = field(default_factory=Counter)
    by_kind: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    by_document: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    rejected_reasons: Counter[str] = field(default_factory=Counter)

    @property
    def decided(self) -> int:
        return decided(self.total)

    def kept_share(self, counts: Mapping[str, int] | None = None) -> float | None:
        """Kept (as generated or edited) over decided; None before any decision."""
        counts = self.total if counts is None else counts
        done = decided(counts)
        return (counts[KEPT] + counts[EDITED]) / done if done else None

    def lines(self) -> list[str]:
        """The summary as a terminal prints it."""
        parts = ", ".join(f"{self.total[s]} {s}" for s in STATUSES if self.total[s])
        share = self.kept_share()
        kept = f"; kept {share:.0%} of {self.decided} decided" if share is not None else ""
        return [f"review: {sum(self.total.values())} samples: {parts or 'none'}{kept}"]


def decided(counts: Mapping[str, int]) -> int:
    return counts[KEPT] + counts[EDITED] + counts[REJECTED]


def summarise(items: Iterable[Item]) -> ReviewSummary:
    summary = ReviewSummary()
    for item in items:
        status = KEPT if item.status == NEEDS_REVIEW and item.restoring else item.status
        summary.total[status] += 1
        summary.by_kind[item.sample.synthesizer][status] += 1
        for document in item.sample.source_documents or ["(no document)"]:
            summary.by_document[document][status] += 1
        if status == REJECTED:
            summary.rejected_reasons[str(item.record.get("reason", "")).strip() or "(no reason)"] += 1
    return summary
