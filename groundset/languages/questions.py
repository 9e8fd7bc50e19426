"""What an offline question needs from a language: templates, evidence cues and style rewrites.

One ``QuestionWording`` per language (see the sibling modules); ``questions.local`` fills it. Templates hold
{term}; multi-hop ones {a}, {b} (section labels, already quoted) or {labels} (a quoted listing). Style
rewrites receive the question with the protected terms masked (private-use characters), so no rule can
change the term. The helpers below are the rewrites Latin-script languages share.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["CASES", "Cues", "QuestionWording", "drop_accents", "drop_words", "letter_typos"]

# Evidence cases of a single-hop question, as in the English templates (``synthesizers.questions.offline``).
CASES = ("definition", "default", "duration", "amount", "requirement", "generic")
# Multi-hop forms: two labels, one, none; abstract with two or more labels, or none.
FORMS = ("two", "one", "none", "abstract", "abstract_none")
Rewrite = Callable[[str, random.Random], str]


@dataclass(frozen=True)
class Cues:
    """Patterns that tell which question the evidence answers (searched in the evidence sentences)."""

    default: re.Pattern[str]
    requirement: re.Pattern[str]
    duration: re.Pattern[str]  # a number with a time unit
    amount: re.Pattern[str]  # a number with any other unit
    definition: re.Pattern[str]  # right after the term: "是", "とは", "ist", "est", "es"


@dataclass(frozen=True)
class QuestionWording:
    """Everything language-specific of a term-based offline question."""

    code: str
    single: Mapping[str, tuple[str, ...]]  # by case (CASES)
    multi: Mapping[str, tuple[str, ...]]  # by form (FORMS)
    search: Mapping[str, str]  # web_search query templates by case or form
    cues: Cues
    quote: str  # how a section label is quoted: "“{}”"
    conjunction: str  # the last joint of a listing: "和", " und "
    separator: str  # the other joints: "、", ", "
    scoped: str  # a medium question in the product: {scope}, {core}, {body} (core without "?")
    clauses: tuple[str, ...]  # a medium question without a product: {core}, {body}
    long: str  # {lead} (a role phrase), {purpose}, {core}
    leads: tuple[str, ...]  # neutral role phrases, when the persona's name is not a role in this language
    purposes: tuple[str, ...]
    poor_grammar: Rewrite  # careless or colloquial
    misspelled: Rewrite  # the language's typing slips
    spaced: bool = True  # words are separated by spaces
    # The persona's own name leads a long question when it contains one of these (case-insensitive).
    role_words: tuple[str, ...] = ()
    terminal: str = "?"
    document_word: str = "documentation"  # a core that names the documentation needs no "according to it"
    lower_lead: bool = False  # a persona's name inside a sentence starts in lower case (fr, es)
    # ``scoped`` and ``clauses`` put before a question that a suffix would split ("…, wenn man nichts
    # ändert in Orbiscope?"): {scope}, {core}; empty: the suffix forms are used anyway.
    scoped_lead: str = ""
    clause_lead: str = ""
    # The kinds built on two chunks or several turns (``term_based``); empty: none offline.
    joined: str = ""  # two questions in one: {a}, {b} (each without its question mark)
    joined_apart: str = ""  # the same when a half does not join mid-sentence (a "…吗" yes/no question)
    closed_endings: tuple[str, ...] = ()  # the endings of such halves
    compare: tuple[str, ...] = ()  # one term as two documents put it: {term}, {a}, {b} (quoted titles)
    contrast: tuple[str, ...] = ()  # two terms compared: {term}, {other}
    search_compare: str = ""  # a comparison as a search query: {term}, {a}, {b}
    # Later turns of a conversation by evidence case (CASES): they lean back, never name the term.
    follow_ups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    back_words: tuple[str, ...] = ()  # words a later turn refers back with ("dafür", "cela")
    back_marks: tuple[str, ...] = ()  # the same in a language without spaces, found anywhere ("它")
    openers: tuple[str, ...] = ()  # how a follow-up opens ("und", "那"): regular expressions
    situations: tuple[str, ...] = ()  # what the asker is working on: {lead}, {topic} (situational questions)
    # Words shortened before a vowel ("que ingénieur" -> "qu'ingénieur"): group 1 is kept, then an apostrophe.
    elision: re.Pattern[str] | None = None
    # Words before a noun: a one-word term never after one reads as no thing ("collectées").
    articles: tuple[str, ...] = ()

    def body(self, core: str) -> str:
        """The question without its question mark (and the space French puts before it)."""
        return core.rstrip().removesuffix(self.terminal).rstrip("?？ \u00a0\u202f")

    def listing(self, items: list[str]) -> str:
        if len(items) < 2:
            return "".join(items)
        return self.separator.join(items[:-1]) + self.conjunction + items[-1]


def drop_words(text: str, words: re.Pattern[str], rng: random.Random, chance: float = 0.5) -> str:
    """Each match of ``words`` removed with probability ``chance`` (spaces tidied afterwards)."""
    out = words.sub(lambda m: "" if rng.random() < chance else m.group(0), text)
    return re.sub(r"\s{2,}", " ", out).strip()


def drop_accents(text: str) -> str:
    """Letters without their accents ("é" -> "e", "ü" -> "u"): typed on a keyboard without them.
    Private-use markers (masked terms) and "ß" are kept."""
    out = []
    for char in text:
        plain = unicodedata.normalize("NFD", char)
        out.append(plain[0] if plain[0].isascii() and plain[0].isalpha() else char)
    return "".join(out)


_LONG_WORD = re.compile(r"(?<!\w)[^\W\d_]{5,}(?!\w)")


def letter_typos(text: str, rng: random.Random) -> str:
    """One or two letters swapped, dropped or doubled in words of five letters or more; the first
    letter of a word stays (people rarely get that one wrong). Masked terms are not letters."""
    spans = [m.span() for m in _LONG_WORD.finditer(text)]
    if not spans:
        return text
    for start, end in sorted(rng.sample(spans, min(rng.choice((1, 2)), len(spans))), reverse=True):
        word = text[start:end]
        i = rng.randrange(1, len(word) - 1)
        operation = rng.choice(("swap", "drop", "double"))
        if operation == "swap" and word[i] != word[i + 1]:
            word = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        elif operation == "drop":
            word = word[:i] + word[i + 1 :]
        else:
            word = word[: i + 1] + word[i] + word[i + 1 :]
        text = text[:start] + word + text[end:]
    return text
