"""The quality gate: a sample is kept only if its reference is supported by its contexts and answers its
question, its question does not give the answer away, and it is not a near-duplicate of a kept question.

With a model, one ``verdict.sample`` call judges support (one verdict per reference statement) and whether
the reference answers the question (the ``"answers"`` item). A reference whose every statement is copied
word for word from the contexts is supported without asking, so its call asks ``"answers"`` alone (and
sends no context). Offline nothing is called: questions are templates filled from answer-bearing sentences,
so the checks are structural (answer slots, the focus term, answer shape), then the lexical support judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.engine import CallEngine, get_engine
from ...core.errors import ConfigError
from ...core.models import ResolvedModel, is_offline, resolve_llm
from ...judges.aligned import judge, numbered
from ...judges.sample_check import ANSWERS, SampleCheckPrompt, SampleToCheck, answer_shape_problem
from ...samples.testset import TestsetSample
from ...text.language import detect_language, script_language
from ...text.lexical import content_words, lexical_support
from ...text.lexical import words as word_tokens
from ...text.sentences import split_sentences
from ..questions.offline import term_pattern

MAX_STATEMENTS = 8
EXTRACTIVE_SUPPORT = 1.0  # all content words present: the statement is copied from the contexts
UNSUPPORTED = "reference not supported by its contexts"
NOT_ANSWERING = "reference does not answer the question"
NOT_AN_ANSWER = "reference is not an answer (heading, list stub or markup)"
WRONG_LANGUAGE = "written in another language than asked"
ABSTRACT = "multi_hop_abstract"  # its terms[0] is a theme, not a word the reference must hold
_MIN_ANSWER_WORDS = 4
_CJK_TERMINALS = ("。", "！", "？", ".", "!", "?", "」", "』", "”")


@dataclass(frozen=True)
class Written:
    """The languages (ISO 639-1) a sample's texts are written in, where the caller knows them; None: the
    gate detects it. Known languages spare the detection, whose model takes most of a second to read."""

    question: str | None = None
    reference: str | None = None
    contexts: str | None = None


@dataclass
class QualityGate:
    """Checks one sample at a time (``check``) and a growing set of questions for duplicates (``Deduper``)."""

    llm: Any
    engine: CallEngine | None = None
    max_answer_leak: float = 0.7
    min_question_words: int = 3

    def __post_init__(self) -> None:
        self.prompt = SampleCheckPrompt()
        self.offline = _offline(self.llm)

    async def check(
        self, sample: TestsetSample, answer_slots: Sequence[str] = (), written: Written = Written()
    ) -> str | None:
        """None when the sample passes, else the rejection reason (a short label).

        The reference must look like an answer (a content word, not a heading, list stub or markup),
        whoever wrote it. Offline (no model), the other checks are structural too: it must hold every one
        of ``answer_slots`` (e.g. the subject and answer a
        templated question was written from) and the question's focus term (case-insensitive,
        whitespace-normalised, the last word singular or plural). With a model, ``answer_slots`` are not
        used (a model writes its own reference): the ``"answers"`` verdict decides. At most one model call
        per check, none offline. ``written``: the languages of the texts, where known."""
        question, reference = sample.user_input.strip(), sample.reference.strip()
        if not question or not reference:
            return "empty question or reference"
        if _word_count(question) < self.min_question_words:
            return "trivial: question too short"
        if not self.offline and _wrong_language(question, reference, written):
            return WRONG_LANGUAGE
        answer_words = set(content_words(reference, written.reference))
        if answer_words:
            leak = len(answer_words & set(content_words(question, written.question))) / len(answer_words)
            if leak > self.max_answer_leak:
                return "trivial: question contains its answer"
        # Whoever wrote it, a reference with no word or in the shape of markup ("{{", a heading) is no
        # answer: a small model's gate verdict may call it one.
        if not answer_words or shape_problem(reference):
            return NOT_AN_ANSWER
        slots_missing = not all(mentions(reference, slot) for slot in answer_slots)
        if self.offline and (slots_missing or not mentions_focus(sample)):
            return NOT_ANSWERING
        statements = split_sentences(reference, written.reference)[:MAX_STATEMENTS] or [reference]
        context_words = set(content_words(" ".join(sample.reference_contexts), written.contexts))
        extractive = all(
            lexical_support(s, context_words, written.reference) >= EXTRACTIVE_SUPPORT for s in statements
        )
        if self.offline and extractive:
            return None  # copied word for word: supported; the checks above stand for "answers"
        items = {} if extractive else numbered(statements)
        if not self.offline:
            items = {ANSWERS: reference, **items}  # "answers" first: judged once, in the first batch
        data = SampleToCheck(
            question=question,
            statements=items,
            context="" if extractive else "\n\n".join(sample.reference_contexts),
        )
        judged = await judge(
            self.prompt, self.llm, data, engine=self.engine or get_engine(), stage="quality.check"
        )
        if not all(judged.verdicts[key].verdict for key in items if key != ANSWERS):
            return UNSUPPORTED
        if ANSWERS in items and not judged.verdicts[ANSWERS].verdict:
            return NOT_ANSWERING
        return None


def _wrong_language(question: str, reference: str, written: Written) -> bool:
    """Whether a model wrote the sample in a language other than the one asked (small models answer
    German documents in English). Only a language told with confidence counts: a short or mixed text
    whose language cannot be told passes."""
    asked = written.question
    if not asked:
        return False
    text = f"{question}\n{reference}" if written.reference == asked else question
    told = detect_language(text, default="")
    return bool(told) and told != asked


def mentions_focus(sample: TestsetSample) -> bool:
    """Whether the reference mentions what the question is about: its focus term (``terms[0]``); for
    multi_hop_abstract, whose first term is a theme, any of the other terms (none given: nothing to check)."""
    terms = [term for term in sample.terms if term.strip()]
    if sample.synthesizer == ABSTRACT:
        return len(terms) < 2 or any(mentions(sample.reference, term) for term in terms[1:])
    return not terms or mentions(sample.reference, terms[0])


def mentions(reference: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``reference``: case-insensitive, whitespace-normalised, the last word
    singular or plural. An empty phrase is always there."""
    pattern = term_pattern(re.sub(r"\s+", " ", phrase))
    return pattern is None or bool(pattern.search(re.sub(r"\s+", " ", reference)))


def shape_problem(reference: str) -> str | None:
    """``answer_shape_problem``, with Chinese and Japanese measured in segmented words and ended by "。"."""
    text = reference.strip()
    if not script_language(text):
        return answer_shape_problem(text)
    markup = answer_shape_problem(text + " .")  # a sentence end: only markup is left to find
    if markup:
        return markup
    if text.endswith((":", "：")):
        return "it ends with a colon: a list introduction without its list"
    if _word_count(text) < _MIN_ANSWER_WORDS and not text.endswith(_CJK_TERMINALS):
        return "it is a heading-like fragment, not a sentence"
    return None


def _word_count(question: str) -> int:
    """Words of a question: its spaced words, or its segmented ones in Chinese and Japanese."""
    return len(word_tokens(question)) if script_language(question) else len(question.split())


def _offline(llm: Any) -> bool:
    """Whether prompts given ``llm`` run their offline form (as ``Prompt.run`` decides)."""
    if isinstance(llm, str):
        try:
            llm = resolve_llm(llm)
        except ConfigError:
            return False  # not offline; the first call raises the same error, where it always did
    if isinstance(llm, ResolvedModel):
        llm = llm.model
    return is_offline(llm)


class Deduper:
    """Kept question vectors and references: a question whose cosine to a kept one exceeds ``threshold``
    is a duplicate, and so is a sample with a kept sample's reference (one answer asked twice).
    ``within``: a deduper whose kept items count too (a wave screened against what is already kept)."""

    def __init__(self, threshold: float, within: Deduper | None = None) -> None:
        self.threshold = threshold
        self._kept: list[np.ndarray] = list(within._kept) if within else []
        self._references: set[str] = set(within._references) if within else set()

    def is_duplicate(self, vector: np.ndarray) -> bool:
        norm = float(np.linalg.norm(vector))
        unit = vector / norm if norm else vector
        return bool(self._kept) and float(np.max(np.vstack(self._kept) @ unit)) > self.threshold

    def seen_reference(self, reference: str) -> bool:
        return _norm(reference) in self._references

    def screen(self, vector: np.ndarray, reference: str) -> str | None:
        """The duplicate reason, or None after remembering the sample (so later ones are screened too)."""
        if self.is_duplicate(vector):
            return "near-duplicate question"
        if self.seen_reference(reference):
            return "same reference as a kept sample"
        self.keep(vector, reference)
        return None

    def keep(self, vector: np.ndarray, reference: str = "") -> None:
        norm = float(np.linalg.norm(vector))
        self._kept.append(vector / norm if norm else vector)
        if reference:
            self._references.add(_norm(reference))


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()
