"""Words, numbers, names and negations for the offline support judge (``text.support``).

Word overlap alone is fooled by the words it drops: "never", "not" and "no" are stop words, and
one wrong number among eight right words still overlaps 88%. So the judge needs, beside the content
words: every number (in digits or words: "three" is not "four"), date word and name of a statement
(``critical_terms``), and what it negates and affirms (``polarity``: "does not keep" negates keep; a
negation reaches to the end of its clause at most, "It doesn't; they stay" negates nothing). In
languages that capitalise every noun (German) a capital marks no name; Japanese negates after the
verb ("圧縮されない"), so there a negation applies to the content word before it.

Words, stop words, negations and stems follow the language: English keeps scikit-learn's stop words
plus a few auxiliaries; other languages use spaCy's stop words and their Snowball stemmer, and
Chinese and Japanese are tokenised by their spaCy pipeline. Without ``lang``, a short text is read
as CJK when its script says so and as English otherwise (statements are judged one by one: too
short, and too many, to detect each); ``LexicalContext`` detects its context's language once.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from ..languages import LANGUAGES
from ..languages.words import word_set
from .language import NOUN_CAPITALISING, language_code, script_language
from .nlp import UNSEGMENTED, stop_words, tokens
from .scripts import HIRAGANA
from .sentences import split_sentences
from .stems import stem as _stem

WORD = re.compile(r"[^\W_]+(?:[._-][^\W_]+)*", re.UNICODE)
# Contractions spelled out, so "doesn't" is "does not" and not the content words "doesn" and "t".
_CONTRACTIONS = (
    (re.compile(r"\bcan['\u2019]t\b", re.IGNORECASE), "cannot"),
    (re.compile(r"\bwon['\u2019]t\b", re.IGNORECASE), "will not"),
    (re.compile(r"n['\u2019]t\b", re.IGNORECASE), " not"),
    (re.compile(r"['\u2019](?:s|re|ll|ve|d|m)\b", re.IGNORECASE), ""),
)
NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
# Japanese words written in hiragana alone are particles, endings and auxiliaries ("は", "される").
_HIRAGANA_WORD = re.compile(rf"[{HIRAGANA}]+")
_NEGATED_BEFORE = frozenset({"ja"})  # languages whose negation follows the word it negates
_NEGATIONS = LANGUAGES["en"].negations
# A negation applies to the first word after it that is not one of these function words
# ("is not always kept" negates "kept"), looking at most this many words ahead.
_NEGATION_REACH = 4
_SKIPPED_AFTER_NEGATION = word_set(
    "a an the be been being is are was were am do does did have has had having to it its this that these "
    "those they them he she we you i any ever yet always currently longer more further also all"
)
_MONTH_NAMES = "january february march april may june july august september october november december"
MONTHS = tuple(_MONTH_NAMES.split())
_DATE_WORDS = word_set(_MONTH_NAMES + " monday tuesday wednesday thursday friday saturday sunday")
# scikit-learn's list lacks some auxiliaries; they carry no content ("does not keep" is about keeping).
STOP_WORDS = ENGLISH_STOP_WORDS | {"does", "did", "doing", "done", "shall", "will", "can", "may", "might"}
SUPPORT_RATIO = 0.85
# Numbers written as words are numbers too: "three instances" is not "four". "one" is left out, as it
# is as often a pronoun ("the most recent one") as a count, and so is "first" ("first built" means
# "originally built"); the other ordinals must occur as words.
_COUNTS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
_TEENS_AND_TENS = "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety"
NUMBER_WORDS = (
    {w: str(i) for i, w in enumerate(_COUNTS.split()) if w != "one"}
    | {w: str(v) for w, v in zip(_TEENS_AND_TENS.split(), [16, 17, 18, 19, *range(20, 100, 10)], strict=True)}
    | {"hundred": "100", "thousand": "1000", "million": "1000000", "billion": "1000000000"}
)
_ORDINALS = word_set("second third fourth fifth sixth seventh eighth ninth tenth")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# A path ("/-/reload", "/api/v1/query") names an endpoint or a file, so it must occur as written. Its
# slash follows no letter, digit, slash or colon ("and/or", "12/17" and "http://" are no paths).
PATH = re.compile(r"(?<![\w/:])/[\w.-]*(?:/[\w.-]+)*")
# "No, ...", "Yes; ...", "Not by default; ...": a particle answers the question and negates nothing.
# It is the first word of a leading clause with at most this many content words.
_PARTICLES = {"yes": "yes", "no": "no", "not": "no"}
_PARTICLE_WORDS = 1
# A negation reaches no further than its clause: punctuation followed by a space ends one ("It
# doesn't; they stay" negates nothing), and in English so does a word that opens a new clause.
_CLAUSE_END = re.compile(r"[;!?()\[\]\u2013\u2014]|[,:.]\s|\s-\s")
_CLAUSE_WORDS = word_set(
    "but however instead whereas while although though because so unless until which who and"
)


def _language(text: str, lang: str | None) -> str:
    return language_code(lang) if lang else script_language(text) or "en"


@functools.lru_cache(maxsize=64)
def stops_of(lang: str) -> frozenset[str]:
    """Stop words, negations included: a negation is not content, ``polarity`` reads it instead."""
    return STOP_WORDS | _NEGATIONS if lang == "en" else stop_words(lang) | negations_of(lang)


def negations_of(lang: str) -> frozenset[str]:
    return LANGUAGES[lang].negations if lang in LANGUAGES else frozenset()


def words(text: str, lang: str | None = None) -> list[str]:
    code = _language(text, lang)
    if code in UNSEGMENTED:
        return tokens(text, code)
    if code == "en":
        for pattern, replacement in _CONTRACTIONS:
            text = pattern.sub(replacement, text)
    return [m.group(0) for m in WORD.finditer(text)]


def content_words(text: str, lang: str | None = None) -> list[str]:
    """Casefolded words that carry content (stop words, negations included, are left out)."""
    code = _language(text, lang)
    return content_of(words(text, code), code)


def stemmed_words(text: str, lang: str | None = None) -> list[str]:
    """``content_words`` as Snowball stems in the text's language: the terms of a lexical index."""
    code = _language(text, lang)
    return [_stem(word, code) for word in content_words(text, code)]


def folded(text: str) -> str:
    """``text`` as two statements are compared: case-folded, spaces collapsed, no final full stop."""
    return " ".join(text.casefold().split()).strip(" .")


def share_content(a: str, b: str, lang: str | None = "en", ignore: str = "") -> bool:
    """Whether two texts share a content word (as a Snowball stem: "Uploading files" and "upload a file"),
    those of ``ignore`` (the product's name) aside."""
    shared = set(stemmed_words(a, lang)) & set(stemmed_words(b, lang))
    return bool(shared - set(stemmed_words(ignore, lang))) if ignore else bool(shared)


def content_of(found: list[str], code: str) -> list[str]:
    """``content_words`` of a text's ``words``, so callers that need them all tokenise once."""
    stop = stops_of(code)
    return [w for w in (word.casefold() for word in found) if not is_function_word(w, code, stop)]


def is_function_word(folded: str, code: str, stop: frozenset[str]) -> bool:
    """A stop word, or in Japanese a hiragana-only word: content is written in kanji and katakana."""
    return folded in stop or (code == "ja" and _HIRAGANA_WORD.fullmatch(folded) is not None)


def lexical_support(statement: str, context_words: set[str], lang: str | None = None) -> float:
    """The share of the statement's content words that occur in the context (1.0 for no content words)."""
    found = content_words(statement, lang)
    if not found:
        return 1.0
    return sum(w in context_words for w in found) / len(found)


def critical_terms(statement: str, lang: str | None = None) -> set[str]:
    """What must match exactly: numbers (in digits or in words), date words, paths, and names
    (capitalised or code-like words)."""
    code = _language(statement, lang)
    return critical_of(statement, words(statement, code), code)


def critical_of(statement: str, found: list[str], code: str, layout: Layout | None = None) -> set[str]:
    """``critical_terms`` of a statement and its ``words``. Where every noun is capitalised (German),
    a capital marks no name: "Zeitreihe" and "Zeitreihen" are one word in two forms, not two names.
    Nor does a capital that opens a sentence (``initial_names``); "RRD-like" names RRD."""
    stop = stops_of(code)
    capitals_are_names = code not in NOUN_CAPITALISING
    openings = layout.sentences if layout else (0,)
    terms = set(NUMBER.findall(statement)) | {p for p in PATH.findall(statement) if len(p) > 1}
    for position, word in enumerate(found):
        folded = word.casefold()
        if folded in _DATE_WORDS and (word[0].isupper() or folded not in stop):  # "May", not "may"
            terms.add(folded)
            continue
        if code == "en" and (folded in NUMBER_WORDS or folded in _ORDINALS):
            terms.add(folded)
            continue
        if folded in stop or NUMBER.fullmatch(word):  # numbers are read whole above ("8,849")
            continue
        head, *tail = word.split("-")
        if tail and not any(c in "._" for c in word) and all(t.isalpha() and t.islower() for t in tail):
            word, folded = head, head.casefold()
        code_like = any(c.isdigit() or c in "._" for c in word) or any(c.isupper() for c in word[1:])
        named = capitals_are_names and word[:1].isupper() and position not in openings
        if code_like or named:
            terms.add(folded)
    return terms


def initial_names(found: list[str], code: str, layout: Layout) -> list[str]:
    """Capitalised words that open a sentence, in English: names or not, the context decides
    (``text.support``). Elsewhere an opening capital is never taken for a name."""
    if code != "en":
        return []
    stop = stops_of(code)
    return [
        found[i]
        for i in layout.sentences
        if i < len(found) and found[i][:1].isupper() and found[i].casefold() not in stop | NUMBER_WORDS.keys()
    ]


def numbers(text: str, found: list[str], code: str) -> set[str]:
    """The numbers of a text, thousands separators dropped, and its number words as digits."""
    found_numbers = {_unseparated(n) for n in NUMBER.findall(text)}
    if code == "en":
        found_numbers |= {NUMBER_WORDS[w] for w in map(str.casefold, found) if w in NUMBER_WORDS}
    return found_numbers


def _unseparated(number: str) -> str:
    return number.replace(",", "") if _THOUSANDS.fullmatch(number) else number


def same_number(number: str, known: set[str]) -> bool:
    """``number`` is among ``known`` (as ``numbers`` gives them), in words or digits, or rounds one of
    them: "about 8,849 metres" states "8,848.86 metres"."""
    number = _unseparated(number)
    if number in known or NUMBER_WORDS.get(number) in known:
        return True
    places = len(number.partition(".")[2])
    return bool(_PLAIN_NUMBER.fullmatch(number)) and any(
        _PLAIN_NUMBER.fullmatch(k)
        and len(k.partition(".")[2]) > places
        and round(float(k), places) == float(number)
        for k in known
    )


@dataclass(frozen=True)
class Layout:
    """A text's clause and sentence starts (indices into its ``words``), its sentences, and each word's
    span in ``text`` (the text as tokenised: contractions spelled out)."""

    clauses: frozenset[int] = frozenset({0})
    sentences: tuple[int, ...] = (0,)
    texts: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    text: str = ""

    def shifted(self, start: int) -> Layout:
        """The layout of ``words[start:]``."""
        return Layout(
            frozenset(i - start for i in self.clauses if i >= start) | {0},
            tuple(sorted({0} | {i - start for i in self.sentences if i > start})),
            self.texts,
            self.spans[start:],
            self.text,
        )

    def between(self, first: int, end: int) -> str:
        """The text of words ``first`` to ``end`` (exclusive), or "" without spans (CJK)."""
        if not self.spans or first >= min(end, len(self.spans)):
            return ""
        return self.text[self.spans[first][0] : self.spans[min(end, len(self.spans)) - 1][1]]


def layout(text: str, code: str) -> Layout:
    """Clause and sentence starts of a space-separated text: a clause starts after punctuation between
    two words, a sentence where ``split_sentences`` starts one. Unsegmented scripts get none: their
    tokens come from a segmenter, not from ``WORD``."""
    if code in UNSEGMENTED:
        return Layout(texts=(text,))
    if code == "en":
        for pattern, replacement in _CONTRACTIONS:
            text = pattern.sub(replacement, text)
    spans = tuple(m.span() for m in WORD.finditer(text))
    clauses = {0} | {
        i for i in range(1, len(spans)) if _CLAUSE_END.search(text[spans[i - 1][1] : spans[i][0]])
    }
    texts, starts, position, index = [], [], 0, 0
    for sentence in split_sentences(text, code):
        start = text.find(sentence, position)
        if start < 0:
            continue
        position = start + len(sentence)
        while index < len(spans) and spans[index][0] < start:
            index += 1
        if index < len(spans) and spans[index][0] < position:
            texts.append(sentence)
            starts.append(index)
            clauses.add(index)
    return Layout(frozenset(clauses), tuple(starts) or (0,), tuple(texts), spans, text)


def clauses(found: list[str], code: str, layout: Layout) -> list[tuple[int, int]]:
    """Each clause as (first word, end): a clause ends at punctuation and, in English, before a word
    that opens a new one ("but", "which", "and")."""
    starts = {0} | {
        i
        for i, word in enumerate(found)
        if i in layout.clauses or (code == "en" and word.casefold() in _CLAUSE_WORDS)
    }
    bounds = sorted(starts) + [len(found)]
    return [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if a < b]


def particle(found: list[str], code: str, layout: Layout, start: int = 0) -> tuple[str | None, int]:
    """The answer particle ("yes" or "no") of the sentence at ``start``, and where its words begin:
    "No, each server..." answers no. A particle alone ("Yes.") is not one: it is the whole claim."""
    if code != "en" or start >= len(found) or found[start].casefold() not in _PARTICLES:
        return None, start
    end = min((c for c in layout.clauses if c > start), default=len(found))
    if end >= len(found) or len(content_of(found[start + 1 : end], code)) > _PARTICLE_WORDS:
        return None, start
    return _PARTICLES[found[start].casefold()], end


def polarity(text: str, lang: str | None = None) -> tuple[set[str], set[str]]:
    """(negated, affirmed): stems of content words under a negation ("does not keep" -> keep), and of
    those that occur at least once without one."""
    code = _language(text, lang)
    negated, affirmed, _ = scoped_polarity(words(text, code), code, layout(text, code))
    return negated, affirmed


def scoped_polarity(found: list[str], code: str, where: Layout) -> tuple[set[str], set[str], list[set[str]]]:
    """``polarity`` of a text's ``words``, and each negation's scope: the stems from it to the end of
    its clause ("no reliance on distributed storage" -> reliance, distributed, storage)."""
    if code in _NEGATED_BEFORE:
        negated, affirmed = _polarity_after(found, code)
        return negated, affirmed, [{w} for w in negated]
    stop, negations = stops_of(code), negations_of(code)
    skipped = _SKIPPED_AFTER_NEGATION if code == "en" else stop  # "ne sont pas compressées"
    negated: set[str] = set()
    affirmed: set[str] = set()
    scopes: list[set[str]] = []
    reach, scope = 0, None
    for index, token in enumerate(found):
        folded = token.casefold()
        if index in where.clauses or (code == "en" and folded in _CLAUSE_WORDS):
            reach, scope = 0, None
        if folded in negations:
            reach, scope = _NEGATION_REACH, set()
            scopes.append(scope)
            continue
        if scope is not None and folded not in stop:
            scope.add(_stem(folded, code))
        if reach and folded in skipped:
            reach -= 1
            continue
        if folded not in stop or reach:
            (negated if reach else affirmed).add(_stem(folded, code))
        reach = 0
    return negated, affirmed, [s for s in scopes if s]


def _polarity_after(found: list[str], code: str) -> tuple[set[str], set[str]]:
    """``polarity`` where the negation follows ("圧縮 され ない"): it negates the last content word,
    if at most ``_NEGATION_REACH`` function words lie between them."""
    stop, negations = stops_of(code), negations_of(code)
    negated: set[str] = set()
    affirmed: set[str] = set()
    last: str | None = None  # the last content word, until a negation or the next content word
    gap = 0
    for token in found:
        folded = token.casefold()
        if folded in negations and last is not None:
            negated.add(last)
            last = None
        elif folded in negations or is_function_word(folded, code, stop):
            gap += 1
        else:
            if last is not None:
                affirmed.add(last)
            last, gap = _stem(folded, code), 0
        if last is not None and gap > _NEGATION_REACH:
            affirmed.add(last)
            last = None
    if last is not None:
        affirmed.add(last)
    return negated, affirmed


def __getattr__(name: str) -> object:
    """``LexicalContext`` and ``LexicalVerdict`` live in ``text.support`` (which reads this module)."""
    if name in ("LexicalContext", "LexicalVerdict"):
        from . import support

        return getattr(support, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
