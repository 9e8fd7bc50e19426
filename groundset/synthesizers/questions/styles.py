"""Query styles and lengths: say a well-formed question the way real users type it.

A RAG system is asked sloppy, keyword-only and misspelled questions too, so the test set should
contain them. The rewrites are rule based and seeded (same question, style and seed: same text),
and the protected terms (what the question is about) always survive, so a misspelled question
can still be answered from its contexts.
These are the English rules; other languages have theirs in ``languages`` (see ``questions.local``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Literal

from ...languages.en import PREPOSITIONS, QUERY_STOP_WORDS
from ...languages.words import word_set

__all__ = [
    "LENGTHS",
    "STYLES",
    "QueryLength",
    "QueryStyle",
    "agreement",
    "apply_style",
    "indefinite_article",
    "mask_terms",
    "size_question",
    "unmask_terms",
]

QueryStyle = Literal["perfect_grammar", "poor_grammar", "web_search", "misspelled"]
QueryLength = Literal["short", "medium", "long"]
STYLES: tuple[str, ...] = ("perfect_grammar", "poor_grammar", "web_search", "misspelled")
LENGTHS: tuple[str, ...] = ("short", "medium", "long")

_QUESTION_WORDS = word_set("what which who whom whose when where why how")
# A query of the term alone loses what was asked; one hint word from the question word keeps it.
_HINTS = {"what": "meaning", "how": "explained", "why": "reason", "which": "options", "when": "timing"}
_AUXILIARIES = "does|do|did|is|are|was|were|should|can|would|could"
_WH_AUX = re.compile(
    rf"\b(how|what|why|when|where|which|who)\s+(?:{_AUXILIARIES})\b(?!\s*(?:be|not)\b)\s*", re.IGNORECASE
)
_THE = re.compile(r"\bthe\s+", re.IGNORECASE)
_A_AN = re.compile(r"\b(?:a|an)\s+(?=\S)", re.IGNORECASE)
_YOU = re.compile(r"\byou\b", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_EDGE_PUNCTUATION = "\"'`()[]{}<>.,;:!?\u2018\u2019\u201c\u201d\u2026\u2013\u2014*"
_LONG_WORD = re.compile(r"(?<!\w)[A-Za-z]{5,}(?!\w)")
_SHORTER_WORD = re.compile(r"(?<!\w)[A-Za-z]{4,}(?!\w)")
_MAX_KEYWORDS = 10
_MASS_ENDINGS = ("ing", "tion", "sion", "ness", "ment", "ity", "ance", "ence", "ism", "age", "ware", "data")
# Protected terms are swapped for private-use characters while a style works on the text:
# they are neither letters nor spaces, so no rule can lower-case, drop or misspell them.
_MARK = 0xE000


def apply_style(question: str, style: str, *, seed: int, protect: Sequence[str] = ()) -> str:
    """``question`` rewritten in ``style``; protected terms (case-insensitive) stay verbatim.

    web_search may lower-case the protected terms; every other style keeps them as they were.
    """
    if style not in STYLES:
        raise ValueError(f"unknown query style {style!r}; expected one of: {', '.join(STYLES)}")
    text = _SPACES.sub(" ", question).strip()
    if not any(char.isalnum() for char in text):
        raise ValueError("question must contain at least one letter or digit")
    if style == "perfect_grammar":
        return text
    masked, originals = mask_terms(text, protect)
    if style == "poor_grammar":
        styled = _poor_grammar(masked, seed)
    elif style == "web_search":
        originals = [term.lower() for term in originals]
        styled = _web_search(masked, originals)
    else:
        styled = _misspelled(masked, seed, protect)
    result = styled if style == "web_search" else unmask_terms(styled, originals)
    result = result.strip()
    return result if any(char.isalnum() for char in result) else text


def mask_terms(text: str, protect: Sequence[str]) -> tuple[str, list[str]]:
    """Replace each occurrence of a protected term by one marker character (longest terms first)."""
    terms = sorted({term.strip() for term in protect if term.strip()}, key=len, reverse=True)
    if not terms:
        return text, []
    pattern = re.compile("|".join(re.escape(term) for term in terms), re.IGNORECASE)
    originals: list[str] = []

    def mark(match: re.Match[str]) -> str:
        originals.append(match.group(0))
        return chr(_MARK + len(originals) - 1)

    return pattern.sub(mark, text), originals


def unmask_terms(text: str, originals: Sequence[str]) -> str:
    for index, original in enumerate(originals):
        text = text.replace(chr(_MARK + index), original)
    return text


def _is_marker(char: str) -> bool:
    return _MARK <= ord(char) < _MARK + 0x1000


def _poor_grammar(text: str, seed: int) -> str:
    """Careless but readable: no capital, fewer articles and auxiliaries, no question mark."""
    rng = random.Random(f"poor_grammar:{seed}:{text}")
    out = _WH_AUX.sub(lambda match: match.group(1) + " ", text)
    out = _THE.sub("", out)
    if rng.random() < 0.5:
        out = _A_AN.sub("", out)
    if rng.random() < 0.5:
        out = out.replace(",", "")
    if rng.random() < 0.3:
        out = _YOU.sub("u", out)
    out = _SPACES.sub(" ", out).strip().rstrip("?.! ")
    if out and out[0].isupper() and not (len(out) > 1 and out[1].isupper()):
        out = out[0].lower() + out[1:]
    if not any(char.isalnum() or _is_marker(char) for char in out):
        out = text.rstrip("?")
    if out == text:
        out = "so " + out  # a rule must change something, or the style would be invisible
    return out


def _web_search(text: str, originals: Sequence[str]) -> str:
    """Keywords only: no question words, stop words or punctuation; at most ten of them."""
    keywords: list[tuple[str, bool]] = []  # (lower-cased keyword, holds a protected term)
    for chunk in text.split():
        word = chunk.strip(_EDGE_PUNCTUATION)
        if word.lower().endswith(("'s", "\u2019s")):
            word = word[:-2]
        protected = any(_is_marker(char) for char in word)
        key = unmask_terms(word, originals).lower()
        if not key or any(key == seen for seen, _ in keywords):
            continue
        if not protected and (
            key in QUERY_STOP_WORDS or key in _QUESTION_WORDS or not any(c.isalnum() for c in key)
        ):
            continue
        keywords.append((key, protected))
    room = _MAX_KEYWORDS - sum(protected for _, protected in keywords)
    plain = [key for key, protected in keywords if not protected]
    # The core question comes last in long questions; a lead-in matters less to a search box.
    dropped = set(plain[: max(len(plain) - max(room, 0), 0)])
    words = [key for key, protected in keywords if protected or key not in dropped]
    if words and all(protected for _, protected in keywords):
        first = text.split()[0].strip(_EDGE_PUNCTUATION).lower()
        words.append(_HINTS.get(first, "overview"))
    if not words:
        words = [chunk.strip(_EDGE_PUNCTUATION).lower() for chunk in unmask_terms(text, originals).split()]
    return " ".join(word for word in words if word)


def _misspelled(text: str, seed: int, protect: Sequence[str]) -> str:
    """One or two typos (swap, drop or double a letter) in long words outside protected terms."""
    rng = random.Random(f"misspelled:{seed}:{text}")
    protected_words = {word.lower() for term in protect for word in re.findall(r"[A-Za-z]+", term)}
    for pattern in (_LONG_WORD, _SHORTER_WORD):
        spans = [m.span() for m in pattern.finditer(text) if m.group(0).lower() not in protected_words]
        if spans:
            break
    else:
        return text
    chosen = sorted(rng.sample(spans, min(rng.choice((1, 2)), len(spans))), reverse=True)
    for start, end in chosen:  # right to left, so earlier spans keep their offsets
        text = text[:start] + _typo(text[start:end], rng) + text[end:]
    return text


def _typo(word: str, rng: random.Random) -> str:
    """A changed word that keeps its first letter (people rarely get that one wrong)."""
    swaps = [i for i in range(1, len(word) - 1) if word[i] != word[i + 1]]
    operation = rng.choice(("swap", "drop", "double") if swaps else ("drop", "double"))
    if operation == "swap":
        i = rng.choice(swaps)
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    i = rng.randrange(1, len(word) - 1)
    if operation == "drop":
        return word[:i] + word[i + 1 :]
    return word[: i + 1] + word[i] + word[i + 1 :]


_OTHER_NAME = re.compile(r"(?<=\w )(?!I\b)[A-Z][a-z]+[A-Z]\w*|(?<=\w )(?!I\b)[A-Z][a-z]{2,}(?:['\u2019]s)?\b")


def size_question(core: str, length: str, *, scope: str = "", api: bool = False) -> str:
    """short: ``core`` as is; medium and long: scoped to the product (``scope``, e.g. "Prometheus"), else
    as is (a template has no words to make a question longer that readers did not call filler; a model
    writes long questions). ``api``: ``scope`` is the API the question's sentence documents,
    said after any other name ("What happens if msg is a String in socket.send()?").

    No persona lead-in ("As an analyst, ..."): blind readers on four corpora kept 3 of 13 long questions
    that had one, against 28 of 45 medium ones, calling it a template's words; nor a stock purpose
    ("I keep getting this slightly wrong ..."). A model writes as the persona; templates cannot.
    """
    if length not in LENGTHS:
        raise ValueError(f"unknown query length {length!r}; expected one of: {', '.join(LENGTHS)}")
    core = core.strip()
    if length == "short":
        return core
    body = core.rstrip("?")
    # No "in Prometheus" after another product's name ("What is Kapacitor's scope in Prometheus?"): it
    # makes the question about the wrong thing.
    scoped = bool(scope) and scope.casefold() not in core.casefold() and (api or not _OTHER_NAME.search(core))
    ends_open = body.rsplit(" ", 1)[-1].lower() in PREPOSITIONS  # "... not result in": no "in in"
    if scoped:
        return f"In {scope}, {_lower_first(core)}" if ends_open else f"{body} in {scope}?"
    # No stock clause (", as the docs describe it"): blind readers on six corpora called it filler, 84 of the
    # 826 failed readings of questions that had one named it, and one reader of the Rust book failed 5 of 40
    # questions for it alone.
    return core


def agreement(term: str) -> dict[str, str]:
    """Template fillers that agree with ``term``: be (is/are), do (does/do), a_term ("a counter")."""
    last = term.split()[-1].lower() if term.split() else ""
    plural = last.isalpha() and _is_verb(last) and last not in ("series", "species", "news")
    common = all(word.isalpha() and word.islower() for word in term.split())
    bare = plural or not common or last.endswith(_MASS_ENDINGS)  # names, code, plurals, mass nouns
    return {
        "be": "are" if plural else "is",
        "do": "do" if plural else "does",
        "a_term": term if bare else f"{indefinite_article(term)} {term}",
    }


def _is_verb(word: str) -> bool:
    """An -s ending: a third-person verb in a role ("Reads ..."), a plural in a term ("histograms")."""
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


def _lower_first(text: str) -> str:
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


def indefinite_article(phrase: str) -> str:
    """'a' or 'an' for the first word of ``phrase``, by sound where it is easy to tell."""
    word = phrase.split()[0] if phrase.split() else phrase
    if word.isupper() and len(word) > 1:
        return "an" if word[0] in "AEFHILMNORSX" else "a"  # letters read aloud: "an SRE"
    vowel = word[:1].lower() in ("a", "e", "i", "o", "u")
    return "an" if vowel and not word.lower().startswith(("uni", "use", "usu", "eu", "one")) else "a"
