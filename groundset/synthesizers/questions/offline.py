"""Offline (no LLM) questions and references, grounded by construction.

The reference of an offline sample is made of sentences copied verbatim from its contexts, and
the question is a template filled with the term those sentences mention, so every answer is
in the contexts by construction. Templates are chosen by what the evidence looks like (a
definition, a default, a requirement, a quantity), so the question asks what the text answers.
The templates here are English; ``questions.local`` writes the same questions in other languages.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Sequence

from ...languages.en import QUERY_STOP_WORDS
from ...languages.words import word_set
from ...text.plaintext import plain_text
from ...text.scripts import CJK
from ...text.sentences import split_sentences
from .styles import LENGTHS, STYLES, agreement, apply_style, size_question

__all__ = ["KINDS", "answer_sentences", "offline_question", "offline_reference", "term_pattern"]

KINDS: tuple[str, ...] = ("single_hop_specific", "multi_hop_specific", "multi_hop_abstract")

_TERMINAL = re.compile(r"[.!。！][\"')\]\u2019\u201d」』）]*$")
_CJK_CHAR = re.compile(rf"[{CJK}]")
_INVARIANT_PLURALS = frozenset({"series", "species", "news", "status", "chassis"})
_TERM_EDGES = " \t.,:;!?\"'()`*"
_MIN_PROSE_WORDS = 5
_FOCUS_CHARS = 12  # "A ", "The ", "Each ": the term opens the sentence
_CUT_MARK = "..."
_ATX = re.compile(r" {0,3}#{1,6}[ \t]+(.+?)[ \t#]*")
_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*")

_DEFINITION = r"\s+(?:is|are|refers\s+to|means|represents|describes)\b"
_DEFAULT = re.compile(r"\bdefault(?:s|ed)?\b", re.IGNORECASE)
_REQUIREMENT = re.compile(r"\b(?:must|should|required|requires|needs?\s+to|ha(?:s|ve)\s+to)\b", re.IGNORECASE)
_QUANTITY = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s?(ms|s|m|h|d|w|y|milliseconds?|seconds?|minutes?|hours?|days?|weeks?|years?"
    r"|bytes?|[kmgt]i?b|kilobytes?|megabytes?|gigabytes?|%|percent)(?!\w)",
    re.IGNORECASE,
)
_UNIT_NAMES = {
    "ms": "milliseconds", "s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks",
    "y": "years", "%": "percent", "kb": "kilobytes", "mb": "megabytes", "gb": "gigabytes",
    "tb": "terabytes", "kib": "kibibytes", "mib": "mebibytes", "gib": "gibibytes", "tib": "tebibytes",
}  # fmt: skip
_TIME_UNITS = word_set("milliseconds seconds minutes hours days weeks years")

# Every template starts with a question word and holds {term}; {be}/{do} agree with the term.
# fmt: off
_SINGLE: dict[str, tuple[str, ...]] = {
    "definition": ("What is meant by {a_term}?", "How {be} {a_term} defined?",
                   "How does the documentation define {a_term}?", "What exactly {be} {a_term}?"),
    "default": ("What is the default for {term}?", "What default value applies to {term}?",
                "Which default {do} {term} fall back to?",
                "What happens to {term} when it is left at its default?"),
    "duration": ("How long is the time period given for {term}?", "What duration applies to {term}?",
                 "How many {unit} are specified for {term}?"),
    "amount": ("How many {unit} are given for {term}?", "What amount in {unit} applies to {term}?",
               "How much is specified for {term}, in {unit}?"),
    "requirement": ("What is required of {term}?", "Which rules must {term} follow?",
                    "What should you keep in mind when using {term}?", "Which requirements apply to {term}?"),
    "generic": ("What does the documentation say about {term}?", "How {do} {a_term} work?",
                "What {be} {a_term} used for?", "What should I know about {term}?",
                "What role {do} {term} play?"),
}
_MULTI_TWO = ("How {do} {term} relate to {a} and to {b}?",
              "What do the sections on {a} and {b} say about {term}?",
              "How {be} {term} connected to both {a} and {b}?",
              "What role {do} {term} play in {a} and in {b}?", "How {do} {term} connect {a} and {b}?")
_MULTI_ONE = ("How {do} {term} relate to {a}, and what else is said about that elsewhere?",
              "What do different parts of the documentation say about {term} and {a}?")
_MULTI_NONE = ("What do two different parts of the documentation say about {term}?",
               "How do the different descriptions of {term} in the documentation fit together?")
_ABSTRACT = ("How {be} {term} handled across {labels}?",
             "What should someone know about {term} when working with {labels}?",
             "What common ideas about {term} come up in {labels}?",
             "How do {labels} differ in the way they treat {term}?")
_ABSTRACT_NONE = ("How {be} {term} handled across different parts of the documentation?",
                  "What are the main points about {term} across the documentation?",
                  "What should someone know about {term} in general?")
# fmt: on
_SHORT_WORDS = 12
# A word right after these is likely a verb ("let you capture", "used to store").
_VERB_CONTEXT = word_set("you to can cannot will would may might must should we they it not also")
_LIKELY_VERBS = word_set(
    "use uses used using make makes provide provides allow allows represent represents record records "
    "contain contains include includes describe describes call called require requires support supports "
    "create creates work works keep keeps let lets get gets see"
)


def term_words(term: str) -> list[str]:
    """The words of ``term`` as ``term_pattern`` joins them (split at spaces and hyphens, no backquotes)."""
    return [word for word in re.split(r"[\s-]+", term.strip().strip("`")) if word]


@functools.lru_cache(maxsize=16_384)  # a large corpus asks for thousands of terms, again and again
def term_pattern(term: str) -> re.Pattern[str] | None:
    """A case-insensitive pattern for ``term`` and its simple plural/singular and hyphen/space forms."""
    words = term_words(term)
    if not words:
        return None
    body = r"[\s-]*".join([*(re.escape(word) for word in words[:-1]), _number_forms(words[-1])])
    # CJK is written without spaces: a CJK edge of the term needs no word boundary.
    head = r"(?<!\w)" if re.match(r"\w", words[0]) and not _CJK_CHAR.match(words[0]) else ""
    tail = r"(?!\w)" if re.search(r"\w$", words[-1]) and not _CJK_CHAR.match(words[-1][-1]) else ""
    return re.compile(head + body + tail, re.IGNORECASE)


def _number_forms(word: str) -> str:
    lower = word.lower()
    if not word.isalpha() or len(word) < 3 or lower in _INVARIANT_PLURALS or _CJK_CHAR.search(word):
        return re.escape(word)
    if lower.endswith("ies") and len(word) > 4:
        return re.escape(word[:-3]) + "(?:y|ies)"
    if lower.endswith("y") and lower[-2] not in "aeiou":
        return re.escape(word[:-1]) + "(?:y|ies)"
    if lower.endswith(("sses", "xes", "ches", "shes", "zes")):
        return re.escape(word[:-2]) + "(?:es)?"
    if lower.endswith(("ss", "us", "is", "x", "z", "ch", "sh")):
        return re.escape(word) + "(?:es)?"
    stem = word[:-1] if lower.endswith("s") else word
    return re.escape(stem) + "(?:s|es)?"


def answer_sentences(
    term: str,
    text: str,
    *,
    max_sentences: int = 2,
    max_chars: int = 400,
    prose_only: bool = False,
    lang: str | None = None,
) -> list[str]:
    """Sentences of markdown ``text`` that mention ``term``, best prose first, in document order.

    Each is a verbatim substring of ``plain_text(text)``, except that a single sentence longer
    than ``max_chars`` is cut at a word boundary and marked with "...". ``prose_only``: nothing when
    only headings, fragments or table rows mention the term. ``lang``: the text's language when the
    caller knows it (the graph does), else detected.
    """
    if max_sentences < 1 or max_chars < 20:
        raise ValueError("max_sentences must be >= 1 and max_chars >= 20")
    pattern = term_pattern(term)
    if pattern is None or not text.strip():
        return []
    headings = _headings(text)
    candidates: list[tuple[int, bool, int, str, re.Match[str]]] = []
    for position, sentence in enumerate(split_sentences(plain_text(text), lang)):
        match = pattern.search(sentence)
        if match and not pattern.fullmatch(sentence.strip(_TERM_EDGES)):
            # A sentence that opens with the term is about it; a passing mention ranks lower.
            aside = match.start() > _FOCUS_CHARS and not re.match(_DEFINITION, sentence[match.end() :])
            tier = 2 if sentence in headings else _tier(sentence)
            candidates.append((tier, aside, position, sentence, match))
    if not candidates:
        return []
    best = min(tier for tier, *_ in candidates)
    if prose_only and best == 2:
        return []
    pool = sorted(c for c in candidates if c[0] <= max(best, 1))
    chosen: dict[int, str] = {}
    used = 0
    for _, _, position, sentence, _ in pool:
        if len(chosen) == max_sentences:
            break
        cost = len(sentence) + (1 if chosen else 0)
        if sentence not in chosen.values() and used + cost <= max_chars:
            chosen[position] = sentence
            used += cost
    if not chosen:
        _, _, position, sentence, match = pool[0]
        chosen[position] = _cut(sentence, match, max_chars)
    return [chosen[position] for position in sorted(chosen)]


def _headings(markdown: str) -> set[str]:
    """Heading texts (ATX and setext): a long heading would otherwise pass for a clause."""
    lines = markdown.split("\n")
    found = {m.group(1) for line in lines if (m := _ATX.fullmatch(line))}
    found.update(above for above, line in zip(lines, lines[1:], strict=False) if _UNDERLINE.fullmatch(line))
    return {plain_text(heading) for heading in found if heading.strip()}


def _tier(sentence: str) -> int:
    """0: prose; 1: clause or question; 2: heading, fragment, table row, cross-reference ("See ...")."""
    row = sentence.count("; ") >= 2 or ("; " in sentence and not _TERMINAL.search(sentence))
    short = len(sentence.split()) + len(_CJK_CHAR.findall(sentence)) // 2 < _MIN_PROSE_WORDS  # 2 CJK ~ 1 word
    if row or short or sentence.endswith(":") or sentence.startswith("See "):
        return 2
    return 0 if _TERMINAL.search(sentence) else 1


def _cut(sentence: str, match: re.Match[str], limit: int) -> str:
    """An over-long sentence cut at word boundaries to ``limit`` characters, keeping the term."""
    if match.end() <= limit - len(_CUT_MARK):
        piece = sentence[: limit - len(_CUT_MARK)]
        piece = piece.rsplit(" ", 1)[0] if " " in piece[match.end() :] else piece
        return piece.rstrip(" ,;:-") + _CUT_MARK
    start = sentence.rfind(" ", 0, max(match.start() - 30, 0)) + 1
    piece = sentence[start : start + limit - 2 * len(_CUT_MARK)]
    if " " in piece[match.end() - start :]:
        piece = piece.rsplit(" ", 1)[0]
    return _CUT_MARK + piece.rstrip(" ,;:-") + _CUT_MARK


def offline_reference(evidence_groups: Sequence[Sequence[str]]) -> str:
    """The reference answer: every evidence sentence once, verbatim, in group then sentence order, one per
    line (so each line can be checked against the contexts)."""
    seen: dict[str, None] = {}
    for group in evidence_groups:
        for sentence in group:
            if sentence.strip():
                seen.setdefault(sentence.strip(), None)
    return "\n".join(seen)


def offline_question(
    kind: str,
    terms: Sequence[str],
    evidence: Sequence[str],
    *,
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
) -> str:
    """A templated question about ``terms[0]`` that ``evidence`` answers, styled and sized.

    multi_hop_specific reads terms[1:3] as the labels of its two contexts, multi_hop_abstract
    terms[1:5]; missing labels are taken from the first and last evidence sentences.
    """
    names = checked_terms(kind, length, style, terms)
    term = names[0]
    rng = random.Random(f"{kind}|{seed}|{'|'.join(names)}")
    fill = {"term": term, **agreement(term)}
    if kind == "single_hop_specific":
        case, unit = _evidence_case(term, evidence)
        templates, fill["unit"] = _SINGLE[case], unit
    else:
        limit = 2 if kind == "multi_hop_specific" else 4
        labels = _labels(term, names[1 : 1 + limit], evidence)
        fill.update(a=labels[0] if labels else "", b=labels[1] if len(labels) > 1 else "")
        fill["labels"] = _listing(labels)
        if kind == "multi_hop_specific":
            templates = (_MULTI_NONE, _MULTI_ONE, _MULTI_TWO)[min(len(labels), 2)]
        else:
            templates = _ABSTRACT if len(labels) >= 2 else _ABSTRACT_NONE
    cores = [template.format(**fill) for template in templates]
    core = rng.choice(cores)
    if length == "short" and len(core.split()) > _SHORT_WORDS:
        core = min(cores, key=lambda text: len(text.split()))
    question = size_question(core, length)
    protect = [name for name in names if name and name.lower() in question.lower()]
    return apply_style(question, style, seed=seed, protect=protect)


def _evidence_case(term: str, evidence: Sequence[str]) -> tuple[str, str]:
    """Which template family fits the evidence, and the unit of its first quantity."""
    text = " ".join(evidence)
    if _DEFAULT.search(text):
        return "default", ""
    quantity = _QUANTITY.search(text)
    if quantity:
        raw = quantity.group(1).lower()
        unit = _UNIT_NAMES.get(raw, raw if raw.endswith("s") else raw + "s")
        return ("duration" if unit in _TIME_UNITS else "amount"), unit
    pattern = term_pattern(term)
    if pattern:
        definition = re.compile(pattern.pattern + _DEFINITION, re.IGNORECASE)
        if any((m := definition.search(s)) and m.start() <= _FOCUS_CHARS for s in evidence):
            return "definition", ""
    return ("requirement" if _REQUIREMENT.search(text) else "generic"), ""


def _labels(term: str, given: Sequence[str], evidence: Sequence[str]) -> list[str]:
    """Distinct context labels: the given ones, else short phrases from first and last evidence."""
    labels: list[str] = []
    for label in given:
        if label and label.lower() != term.lower() and label.lower() not in {x.lower() for x in labels}:
            labels.append(label)
    if len(labels) < 2 and evidence:
        exclude = {word.lower() for word in re.findall(r"[A-Za-z]+", " ".join([term, *labels]))}
        for sentence in dict.fromkeys([evidence[0], evidence[-1]]):
            phrase = _phrase(sentence, exclude)
            if phrase and len(labels) < 2:
                labels.append(phrase)
                exclude.update(word.lower() for word in phrase.split())
    return labels


def _phrase(sentence: str, exclude: set[str]) -> str:
    """A short noun-phrase-like run of content words (first two- or three-word run wins)."""
    runs: list[list[str]] = [[]]
    previous = ""
    for token in re.findall(r"[A-Za-z][\w'-]*|[^\sA-Za-z]", sentence):
        low = token.lower()
        content = token[0].isalpha() and len(low) > 2 and low not in QUERY_STOP_WORDS and low not in exclude
        verb = low in _LIKELY_VERBS or low.endswith("ly") or (previous in _VERB_CONTEXT and not runs[-1])
        if content and not verb:
            runs[-1].append(token)
        elif runs[-1]:
            runs.append([])
        previous = low
    runs = [run[1:] if len(run) > 1 and run[0].lower().endswith("ing") else run for run in runs if run]
    longer = [run for run in runs if len(run) >= 2]
    if longer:
        return " ".join(longer[0][-3:])
    singles = [run[-1] for run in runs if len(run[-1]) >= 5]
    return singles[0] if singles else ""


def _listing(labels: Sequence[str]) -> str:
    return ", ".join(labels[:-1]) + " and " + labels[-1] if len(labels) > 1 else "".join(labels)


def checked_terms(kind: str, length: str, style: str, terms: Sequence[str]) -> list[str]:
    """The question's terms with whitespace collapsed, after checking kind, length and style: the one
    argument check of the English and the other languages' templates."""
    if kind not in KINDS:
        raise ValueError(f"unknown question kind {kind!r}; expected one of: {', '.join(KINDS)}")
    if length not in LENGTHS:
        raise ValueError(f"unknown query length {length!r}; expected one of: {', '.join(LENGTHS)}")
    if style not in STYLES:
        raise ValueError(f"unknown query style {style!r}; expected one of: {', '.join(STYLES)}")
    names = [re.sub(r"\s+", " ", t).strip() for t in terms]
    if not names or not names[0]:
        raise ValueError("terms[0] (what the question is about) must be a non-empty string")
    return names
