"""Prose to sentences, for the offline (no LLM) extractors, the judges and the generator.

Splits plain text (run ``plain_text`` first on markup); linear in the input size. The terminals are
``SENTENCE_TERMINALS``: . ! ? ‼ ⁇ and the CJK 。！？｡．. A CJK terminal always ends a sentence (the
full-width period not between digits); a Latin one needs whitespace after it, and a period is checked
against the language's abbreviations ("e.g.", "z. B.", "bzw.", "M.", "p. ej."), initials and numbers.
spaCy's sentencizer is not used: it would tokenise every text (seconds per megabyte) only to split
after every period, which these rules would then have to undo.
"""

from __future__ import annotations

import functools
import re

from ..languages import LANGUAGES
from ..languages.sentences import SentenceWords
from .language import detect_language, language_code
from .scripts import CJK

__all__ = ["SENTENCE_TERMINALS", "abbreviations", "split_sentences"]


# . ! ? ‼ ⁇ end a sentence only before whitespace (a period only after a real word), or, in CJK text,
# the marks ! ? ‼ ⁇ also right before a CJK character.
_MARKS = "!?\u203c\u2047"
_SPACED = "." + _MARKS
# CJK terminals end a sentence wherever they are: 。 ！ ？ ｡, and ． unless between digits (３．１４).
_CJK_ALWAYS = "\u3002\uff01\uff1f\uff61"
_FULL_STOP = "\uff0e"
SENTENCE_TERMINALS = tuple(_SPACED + _CJK_ALWAYS + _FULL_STOP)
_CLOSERS = "\"'\u2019\u201d)\\]\u300d\u300f\uff09\u3011\u300b"
# A boundary candidate: terminal punctuation, optional closing quotes/brackets, then whitespace.
_BOUNDARY = re.compile(rf"[{re.escape(_SPACED)}]+[{_CLOSERS}]*\s+")
# In a line with CJK text or terminals, also a CJK terminal (no space needed) or ! ? right before CJK.
_HAS_CJK = re.compile(rf"[{CJK}{_CJK_ALWAYS}{_FULL_STOP}]")
_CJK_BOUNDARY = re.compile(
    rf"(?P<cjk>(?:[{_CJK_ALWAYS}]|(?<![0-9\uff10-\uff19]){_FULL_STOP})+[{_CLOSERS}]*\s*"
    rf"|[{re.escape(_MARKS)}]+[{_CLOSERS}]*(?=[{CJK}]))"
    rf"|[{re.escape(_SPACED)}]+[{_CLOSERS}]*\s+"
)
_MAX_TOKEN = 40
_OPENING_CHARS = "\"'(\u2018\u201c\u201e\u00ab[`*_\u00bf\u00a1"


_RULES = {code: lang.sentences for code, lang in LANGUAGES.items() if lang.sentences}
_EN = _RULES["en"]


@functools.lru_cache(maxsize=64)
def abbreviations(lang: str) -> frozenset[str]:
    """Words the language abbreviates with a period ("bzw", "ej", "chap"), lowercase, without it."""
    rules = _RULES.get(language_code(lang), _EN)
    return frozenset(word[:-1] for word in rules.abbreviations | rules.soft)


def split_sentences(text: str, lang: str | None = None) -> list[str]:
    """Sentences of plain text; every line break is a boundary (run ``plain_text`` first on markdown).

    Splits after 。！？ always, and after . ! ? followed by whitespace except after the language's
    abbreviations ("e.g.", "vs.", "z. B.", "bzw.", "M.", "p. ej.") and initials; periods inside tokens
    (v2.0, prometheus.yml, 3.14, URLs) are never candidates because a boundary needs whitespace after
    them. ``lang=None`` detects the language (a bounded prefix: cheap; English when too short to tell).
    Linear time, no empty results.
    """
    rules = _RULES.get(language_code(lang) if lang else detect_language(text), _EN)
    sentences: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        start = 0
        boundaries = _CJK_BOUNDARY if _HAS_CJK.search(line) else _BOUNDARY
        for match in boundaries.finditer(line):
            end = match.end()
            if end >= len(line):
                break
            if match.lastgroup == "cjk" or _is_boundary(line, start, match.start(), end, rules):
                _keep(sentences, line[start:end])
                start = end
        _keep(sentences, line[start:])
    return sentences


def _is_boundary(
    line: str, segment_start: int, punct_start: int, next_start: int, rules: SentenceWords
) -> bool:
    """Decide whether the punctuation at ``punct_start`` really ends a sentence."""
    next_char = line[next_start]
    if line[punct_start] != ".":
        # "unwrap will call the panic! macro for us", "declarative macros with macro_rules! and ...": a Rust
        # macro's name, not an exclamation; a sentence after "!" or "?" opens with a capital or a digit
        return not (next_char.islower() and line[punct_start - 1 : punct_start].isalnum())
    next_char = line[next_start]
    window = max(segment_start, punct_start - _MAX_TOKEN)  # bounded look-back keeps this linear
    space = max(line.rfind(" ", window, punct_start), line.rfind("\t", window, punct_start))
    token = line[max(space + 1, window) : punct_start + 1].lstrip(_OPENING_CHARS).lower()
    if token in rules.abbreviations:
        return False
    if token in rules.soft:
        return next_char.isupper()
    word = token[:-1]
    if len(word) == 1 and word.isalpha():
        return False  # an initial ("J. Smith", "z. B.") or an enumerator ("a. first")
    pieces = word.split(".")
    if len(pieces) > 1 and len(word) <= 6 and all(len(p) <= 2 and p.isalpha() for p in pieces):
        return False  # dotted abbreviations like "u.s." or "a.m."
    if word.isdigit() and len(word) <= 3:
        return not (next_char.islower() or _next_word(line, next_start) in rules.ordinal_nouns)
    return True


def _next_word(line: str, start: int) -> str:
    """The word that follows, lowercased and without trailing punctuation (bounded: linear overall)."""
    piece = line[start : start + _MAX_TOKEN].split(maxsplit=1)
    return piece[0].rstrip(".,;:!?").lower() if piece else ""


def _keep(sentences: list[str], sentence: str) -> None:
    sentence = sentence.strip()
    if sentence and any(char.isalnum() for char in sentence):
        sentences.append(sentence)
