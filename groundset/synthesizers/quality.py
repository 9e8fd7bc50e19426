"""The quality gate: a sample is kept only if its reference is supported by its contexts, its
question does not give the answer away, and it is not a near-duplicate of a kept question."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.engine import CallEngine, get_engine
from ..judges.aligned import judge, numbered
from ..judges.support import StatementsAndContext, SupportPrompt
from ..samples.testset import TestsetSample
from ..text.lexical import content_words, lexical_support
from ..text.sentences import split_sentences

MAX_STATEMENTS = 8
EXTRACTIVE_SUPPORT = 1.0  # all content words present: the statement is copied from the contexts


@dataclass
class QualityGate:
    """Checks one sample at a time (``check``) and a growing set of questions for duplicates (``Deduper``)."""

    llm: Any
    engine: CallEngine | None = None
    max_answer_leak: float = 0.7
    min_question_words: int = 3

    def __post_init__(self) -> None:
        self.prompt = SupportPrompt()

    async def check(self, sample: TestsetSample) -> str | None:
        """None when the sample passes, else the rejection reason (a short label)."""
        question, reference = sample.user_input.strip(), sample.reference.strip()
        if not question or not reference:
            return "empty question or reference"
        if len(question.split()) < self.min_question_words:
            return "trivial: question too short"
        answer_words = set(content_words(reference))
        if answer_words:
            leak = len(answer_words & set(content_words(question))) / len(answer_words)
            if leak > self.max_answer_leak:
                return "trivial: question contains its answer"
        statements = split_sentences(reference)[:MAX_STATEMENTS] or [reference]
        context_words = set(content_words(" ".join(sample.reference_contexts)))
        if all(lexical_support(s, context_words) >= EXTRACTIVE_SUPPORT for s in statements):
            return (
                None  # every statement is (nearly) word for word in the contexts: supported, no call needed
            )
        data = StatementsAndContext(
            statements=numbered(statements), context="\n\n".join(sample.reference_contexts)
        )
        judged = await judge(
            self.prompt, self.llm, data, engine=self.engine or get_engine(), stage="quality.support"
        )
        if not all(judged.flags(tuple(data.statements))):
            return "reference not supported by its contexts"
        return None


class Deduper:
    """Kept question vectors; a question whose cosine to a kept one exceeds ``threshold`` is a duplicate."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._kept: list[np.ndarray] = []

    def is_duplicate(self, vector: np.ndarray) -> bool:
        norm = float(np.linalg.norm(vector))
        unit = vector / norm if norm else vector
        return bool(self._kept) and float(np.max(np.vstack(self._kept) @ unit)) > self.threshold

    def keep(self, vector: np.ndarray) -> None:
        norm = float(np.linalg.norm(vector))
        self._kept.append(vector / norm if norm else vector)
