"""The offline support judge: does a context state what a statement says? Word evidence, not a model.

Word overlap alone is fooled by the words it drops: "never", "not" and "no" are stop words, and
one wrong number among eight right words still overlaps 88%. So a statement is supported only if
(1) nearly all its content words occur in the context, (2) every number, date word and name in it
occurs there too, and (3) what it negates the context negates, and what it affirms the context does
not only negate ("not compressed" in the context refutes "blocks are compressed").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import snowballstemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

WORD = re.compile(r"[^\W_]+(?:[._-][^\W_]+)*", re.UNICODE)
# Contractions spelled out, so "doesn't" is "does not" and not the content words "doesn" and "t".
_CONTRACTIONS = (
    (re.compile(r"\bcan['\u2019]t\b", re.IGNORECASE), "cannot"),
    (re.compile(r"\bwon['\u2019]t\b", re.IGNORECASE), "will not"),
    (re.compile(r"n['\u2019]t\b", re.IGNORECASE), " not"),
    (re.compile(r"['\u2019](?:s|re|ll|ve|d|m)\b", re.IGNORECASE), ""),
)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NEGATIONS = _word_set("not no never none nobody nothing nowhere neither nor cannot without")
# A negation applies to the first word after it that is not one of these function words
# ("is not always kept" negates "kept"), looking at most this many words ahead.
_NEGATION_REACH = 4
_SKIPPED_AFTER_NEGATION = _word_set(
    "a an the be been being is are was were am do does did have has had to it its this that these "
    "those they them he she we you i any ever yet always currently longer more further also all"
)
_DATE_WORDS = _word_set(
    "january february march april may june july august september october november december monday "
    "tuesday wednesday thursday friday saturday sunday"
)
# scikit-learn's list lacks some auxiliaries; they carry no content ("does not keep" is about keeping).
STOP_WORDS = ENGLISH_STOP_WORDS | {"does", "did", "doing", "done", "shall", "will", "can", "may", "might"}
SUPPORT_RATIO = 0.85


def words(text: str) -> list[str]:
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return [m.group(0) for m in WORD.finditer(text)]


def content_words(text: str) -> list[str]:
    """Casefolded words that carry content (stop words, negations included, are left out)."""
    return [w for w in (word.casefold() for word in words(text)) if w not in STOP_WORDS]


def lexical_support(statement: str, context_words: set[str]) -> float:
    """The share of the statement's content words that occur in the context (1.0 for no content words)."""
    found = content_words(statement)
    if not found:
        return 1.0
    return sum(w in context_words for w in found) / len(found)


def critical_terms(statement: str) -> set[str]:
    """What must match exactly: numbers, date words, and names (capitalised or code-like words)."""
    terms = set(_NUMBER.findall(statement))
    for position, word in enumerate(words(statement)):
        folded = word.casefold()
        if folded in _DATE_WORDS and (word[0].isupper() or folded not in STOP_WORDS):  # "May", not "may"
            terms.add(folded)
            continue
        if folded in STOP_WORDS:
            continue
        code_like = any(c.isdigit() or c in "._" for c in word) or any(c.isupper() for c in word[1:])
        named = word[:1].isupper() and position > 0
        if code_like or named:
            terms.add(folded)
    return terms


def polarity(text: str) -> tuple[set[str], set[str]]:
    """(negated, affirmed): stems of content words under a negation ("does not keep" -> keep), and of
    those that occur at least once without one."""
    negated: set[str] = set()
    affirmed: set[str] = set()
    reach = 0
    for token in words(text):
        folded = token.casefold()
        if folded in _NEGATIONS:
            reach = _NEGATION_REACH
            continue
        if reach and folded in _SKIPPED_AFTER_NEGATION:
            reach -= 1
            continue
        if folded not in STOP_WORDS or reach:
            (negated if reach else affirmed).add(_stem(folded))
        reach = 0
    return negated, affirmed


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """Snowball stem: "keeps"/"keep" and "deleted"/"deletes" match."""
    return _STEMMER.stemWord(word)


_STEMMER = snowballstemmer.stemmer("english")


@dataclass(frozen=True)
class LexicalVerdict:
    supported: bool
    reason: str


class LexicalContext:
    """A context prepared once for judging many statements against it."""

    def __init__(self, text: str) -> None:
        self.stems = {_stem(w) for w in content_words(text)}
        self.terms = {w.casefold() for w in words(text)} | set(_NUMBER.findall(text))
        self.negated, self.affirmed = polarity(text)

    def judge(self, statement: str, ratio: float = SUPPORT_RATIO) -> LexicalVerdict:
        stems = {_stem(w): w for w in content_words(statement)}
        share = sum(stem in self.stems for stem in stems) / len(stems) if stems else 1.0
        if share < ratio:
            return LexicalVerdict(False, f"only {share:.0%} of its content words occur in the context")
        missing = sorted(critical_terms(statement) - self.terms)
        if missing:
            return LexicalVerdict(False, f"the context does not mention {', '.join(missing)}")
        negated, affirmed = polarity(statement)
        only_negated_here = self.negated - self.affirmed
        if unmatched := sorted(stems.get(w, w) for w in negated - self.negated):
            return LexicalVerdict(False, f"it negates {', '.join(unmatched)}; the context does not")
        if refuted := sorted(stems.get(w, w) for w in (affirmed - negated) & only_negated_here):
            return LexicalVerdict(False, f"the context negates {', '.join(refuted)}")
        return LexicalVerdict(True, f"{share:.0%} of its content words and every number and name occur in it")
