"""What a reviewer needs to judge a sample at a glance: which sentences of a context the reference rests
on, and for a sample a refresh sent back, what changed in its contexts.

The highlight is lexical, so it works offline and for any model's reference: a context sentence is marked
when it is the closest one (by shared stemmed content words) to a sentence of the reference, and at least
half of that reference sentence's words are in it. Offline references are copied sentences, so they mark
exactly their source; a model's paraphrase marks what it paraphrased, most of the time.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..text.lexical import stemmed_words
from ..text.sentences import split_sentences

__all__ = ["Span", "resting_spans", "word_diff"]

MIN_SHARE = 0.5  # of a reference sentence's content words found in the context sentence it rests on


@dataclass(frozen=True)
class Span:
    """A stretch of a text, marked (it holds what the reference says) or not."""

    text: str
    marked: bool = False


def resting_spans(context: str, reference: str, lang: str | None = None) -> list[Span]:
    """``context`` cut into spans, the sentences ``reference`` rests on marked; the spans join back to
    ``context`` exactly."""
    sentences = _located(context, lang)
    if not sentences or not reference.strip():
        return [Span(context)]
    stems = [set(stemmed_words(text, lang)) for _, _, text in sentences]
    marked: set[int] = set()
    for claim in split_sentences(reference, lang):
        words = set(stemmed_words(claim, lang))
        if not words:
            continue
        scores = [len(words & s) / len(words) for s in stems]
        best = max(range(len(scores)), key=scores.__getitem__)
        if scores[best] >= MIN_SHARE:
            marked.add(best)
    spans: list[Span] = []
    at = 0
    for i, (start, end, _) in enumerate(sentences):
        if i in marked:
            if start > at:
                spans.append(Span(context[at:start]))
            spans.append(Span(context[start:end], marked=True))
            at = end
    if at < len(context):
        spans.append(Span(context[at:]))
    return spans


def _located(text: str, lang: str | None) -> list[tuple[int, int, str]]:
    """(start, end, sentence) of each sentence found in ``text`` as written, in order."""
    found = []
    at = 0
    for sentence in split_sentences(text, lang):
        start = text.find(sentence, at)
        if start < 0:
            continue
        found.append((start, start + len(sentence), sentence))
        at = start + len(sentence)
    return found


_TOKEN = re.compile(r"\s+|[^\s]+")


def word_diff(before: str, after: str) -> list[tuple[str, str]]:
    """(op, text) pieces from ``before`` to ``after`` word by word: op is "same", "removed" or "added"."""
    old, new = _TOKEN.findall(before), _TOKEN.findall(after)
    pieces: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.append(("same", "".join(old[i1:i2])))
            continue
        if i2 > i1:
            pieces.append(("removed", "".join(old[i1:i2])))
        if j2 > j1:
            pieces.append(("added", "".join(new[j1:j2])))
    return pieces
