"""Offline answer relevancy: does the response answer every part of the question, and only that?

A single cosine of question and response rewards a refusal that repeats the question's words and
barely notices padding. This form reads the response sentence by sentence instead:
- a refusal or a noncommittal answer scores 0 (as the LLM form's noncommittal flag does);
- each part of a multi-part question ("what ... and how ...") must be answered by some sentence:
  its best sentence cosine, averaged over parts, is the *coverage*;
- each sentence should be about the question: the share of sentences close to it (relative to the
  best one, so the scale of the embedding model does not matter) is the *focus*.
The score is coverage x focus, in 0..1.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..text.plaintext import plain_text
from ..text.sentences import split_sentences

_NONCOMMITTAL = re.compile(
    r"\b(?:i (?:do not|don't|cannot|can't|am unable to|am not able to|could not|couldn't) "
    r"(?:know|say|tell|answer|help|find|determine|be sure|confirm)"
    r"|i'?m (?:not sure|unsure|unable to|not able to)|not sure|no idea|hard to say|unable to "
    r"(?:answer|determine|find|say|tell)|it depends|cannot be determined|(?:no|not enough) information"
    r"|not (?:mentioned|specified|covered|stated|described|documented) in"
    r"|(?:the )?(?:documents?|docs|documentation|context|sources?) (?:do|does) not (?:say|mention|cover|"
    r"contain|specify|describe|explain)|i (?:would|'d) (?:need|have) to (?:check|look)|sorry,? (?:but )?i)\b",
    re.IGNORECASE,
)
# A question's parts: separate questions, or clauses joined by "and"/";" that start a new question.
_PART_BREAK = re.compile(
    r"\?\s*|;\s*|,?\s+(?:and|also|as well as|plus)\s+(?=(?:how|what|why|when|where|which|who|whom|whose|"
    r"does|do|is|are|can|could|should|would|will|did|has|have)\b)",
    re.IGNORECASE,
)
MIN_PART_WORDS = 3
ON_TOPIC = 0.5  # a sentence is on topic when its cosine to the question is at least half the best one's

Embed = Callable[[Sequence[str]], Awaitable[np.ndarray]]


def is_noncommittal(response: str) -> bool:
    """Evasive, vague or refusing answers ("I'm not sure", "the docs do not say"): 0 offline."""
    return bool(_NONCOMMITTAL.search(response))


def question_parts(question: str) -> list[str]:
    """The sub-questions of a multi-part question; the whole question when it has one part."""
    parts = [p.strip(" ,") for p in _PART_BREAK.split(question) if p and p.strip(" ,")]
    parts = [p for p in parts if len(p.split()) >= MIN_PART_WORDS]
    return parts if len(parts) > 1 else [question.strip()]


@dataclass(frozen=True)
class Relevancy:
    score: float
    coverage: float
    focus: float
    parts: list[str]
    sentences: list[str]

    def reason(self) -> str:
        return (
            f"coverage {self.coverage:.3f} of {len(self.parts)} question part(s) x focus {self.focus:.3f} "
            f"({len(self.sentences)} sentence(s))"
        )


async def offline_relevancy(question: str, response: str, embed: Embed) -> Relevancy | None:
    """Coverage x focus (see the module docstring); None when the response is noncommittal."""
    if is_noncommittal(response):
        return None
    sentences = split_sentences(plain_text(response)) or [response.strip()]
    parts = question_parts(question)
    vectors = await embed([question, *parts, *sentences])
    whole, part_vectors, sentence_vectors = vectors[0], vectors[1 : 1 + len(parts)], vectors[1 + len(parts) :]
    by_part = _cosines(part_vectors, sentence_vectors)  # (parts, sentences)
    coverage = float(np.mean(np.clip(by_part.max(axis=1), 0.0, 1.0)))
    to_question = _cosines(whole[None, :], sentence_vectors)[0]
    best = float(to_question.max())
    focus = float(np.mean(to_question >= ON_TOPIC * best)) if best > 0 else 0.0
    return Relevancy(coverage * focus, coverage, focus, parts, sentences)


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise cosines of rows; a zero vector (no words) has cosine 0 with everything."""
    na = np.linalg.norm(a, axis=1, keepdims=True)
    nb = np.linalg.norm(b, axis=1, keepdims=True)
    na[na == 0], nb[nb == 0] = 1.0, 1.0
    return (a / na) @ (b / nb).T
