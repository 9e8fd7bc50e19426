"""Prose to sentences, for the offline (no LLM) extractors, the judges and the generator.

Splits plain text (run ``plain_text`` first on markup); linear in the input size.
"""

from __future__ import annotations

import re

__all__ = ["split_sentences", "word_set"]


def word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# A boundary candidate: terminal punctuation, optional closing quotes/brackets, then whitespace.
_BOUNDARY = re.compile(r"[.!?]+[\"'\u2019\u201d)\]]*\s+")
# Never sentence ends, whatever follows ("e.g. Grafana", "vs. Graphite").
_ABBREVIATIONS = word_set(
    "e.g. i.e. eg. ie. vs. v. cf. approx. incl. esp. viz. resp. al. fig. figs. no. nos. nr. "
    "mr. mrs. ms. dr. prof. st. jr. sr. ca. inc. ltd. co. corp. dept. est. ver. sec. ref. refs. "
    "eq. ex. pp. vol. p."
)
# Sentence ends only when the next word is capitalised ("..., etc. Then" vs "etc. and").
_SOFT_ABBREVIATIONS = word_set("etc. min. max. e.t.c.")
_MAX_TOKEN = 40
_OPENING_CHARS = "\"'(\u2018\u201c[`*_"


def split_sentences(text: str) -> list[str]:
    """Sentences of plain text; every line break is a boundary (run ``plain_text`` first on markdown).

    Splits after . ! ? followed by whitespace, except after abbreviations ("e.g.", "vs.") and
    initials. Periods inside tokens (v2.0, prometheus.yml, 3.14, URLs) are never candidates
    because a boundary needs whitespace after the punctuation. Linear time, no empty results.
    """
    sentences: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        start = 0
        for match in _BOUNDARY.finditer(line):
            end = match.end()
            if end >= len(line):
                break
            if _is_boundary(line, start, match.start(), line[end]):
                _keep(sentences, line[start:end])
                start = end
        _keep(sentences, line[start:])
    return sentences


def _is_boundary(line: str, segment_start: int, punct_start: int, next_char: str) -> bool:
    """Decide whether the punctuation at ``punct_start`` really ends a sentence."""
    if line[punct_start] != ".":
        return True
    window = max(segment_start, punct_start - _MAX_TOKEN)  # bounded look-back keeps this linear
    space = max(line.rfind(" ", window, punct_start), line.rfind("\t", window, punct_start))
    token = line[max(space + 1, window) : punct_start + 1].lstrip(_OPENING_CHARS).lower()
    if token in _ABBREVIATIONS:
        return False
    if token in _SOFT_ABBREVIATIONS:
        return next_char.isupper()
    word = token[:-1]
    if len(word) == 1 and word.isalpha():
        return False  # an initial ("J. Smith") or an enumerator ("a. first")
    pieces = word.split(".")
    if len(pieces) > 1 and len(word) <= 6 and all(len(p) <= 2 and p.isalpha() for p in pieces):
        return False  # dotted abbreviations like "u.s." or "a.m."
    return not (next_char.islower() and word.isdigit() and len(word) <= 3)


def _keep(sentences: list[str], sentence: str) -> None:
    sentence = sentence.strip()
    if sentence and any(char.isalnum() for char in sentence):
        sentences.append(sentence)
