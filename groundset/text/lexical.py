"""The offline support judge: does a context state what a statement says? Word evidence, not a model.

Word overlap alone is fooled by the words it drops: "never", "not" and "no" are stop words, and
one wrong number among eight right words still overlaps 88%. So a statement is supported only if
(1) nearly all its content words occur in the context, (2) every number, date word and name in it
occurs there too, and (3) what it negates the context negates, and what it affirms the context does
not only negate ("not compressed" in the context refutes "blocks are compressed"). In languages that
capitalise every noun (German) a capital marks no name; Japanese negates after the verb
("圧縮されない"), so there a negation applies to the content word before it.

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
from typing import Any

import snowballstemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from .language import NOUN_CAPITALISING, detect_language, language_code, script_language
from .nlp import UNSEGMENTED, stop_words, tokens
from .scripts import HIRAGANA
from .sentences import word_set

WORD = re.compile(r"[^\W_]+(?:[._-][^\W_]+)*", re.UNICODE)
# Contractions spelled out, so "doesn't" is "does not" and not the content words "doesn" and "t".
_CONTRACTIONS = (
    (re.compile(r"\bcan['\u2019]t\b", re.IGNORECASE), "cannot"),
    (re.compile(r"\bwon['\u2019]t\b", re.IGNORECASE), "will not"),
    (re.compile(r"n['\u2019]t\b", re.IGNORECASE), " not"),
    (re.compile(r"['\u2019](?:s|re|ll|ve|d|m)\b", re.IGNORECASE), ""),
)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
# Japanese words written in hiragana alone are particles, endings and auxiliaries ("は", "される").
_HIRAGANA_WORD = re.compile(rf"[{HIRAGANA}]+")
_NEGATED_BEFORE = frozenset({"ja"})  # languages whose negation follows the word it negates
_NEGATIONS = word_set("not no never none nobody nothing nowhere neither nor cannot without")
# A negation applies to the first word after it that is not one of these function words
# ("is not always kept" negates "kept"), looking at most this many words ahead.
_NEGATION_REACH = 4
_SKIPPED_AFTER_NEGATION = word_set(
    "a an the be been being is are was were am do does did have has had to it its this that these "
    "those they them he she we you i any ever yet always currently longer more further also all"
)
_DATE_WORDS = word_set(
    "january february march april may june july august september october november december monday "
    "tuesday wednesday thursday friday saturday sunday"
)
# scikit-learn's list lacks some auxiliaries; they carry no content ("does not keep" is about keeping).
STOP_WORDS = ENGLISH_STOP_WORDS | {"does", "did", "doing", "done", "shall", "will", "can", "may", "might"}
SUPPORT_RATIO = 0.85
# Negations of other languages (English ones are above); a language without a list has none.
_OTHER_NEGATIONS = {
    "de": word_set("nicht kein keine keinen keinem keiner keines nie niemals nichts niemand ohne weder"),
    "fr": word_set("ne pas non jamais aucun aucune rien personne sans ni"),
    "es": word_set("no nunca jamás ningún ninguno ninguna nada nadie sin ni tampoco"),
    "it": word_set("non mai nessuno nessuna niente nulla senza né"),
    "pt": word_set("não nunca jamais nenhum nenhuma nada ninguém sem nem"),
    "nl": word_set("niet geen nooit niets niemand zonder noch"),
    "zh": word_set("不 没 没有 无 非 未 别 不会 不能 不是 不要 无法 不可 并非 从未"),
    "ja": word_set("ない ません なかった なし 無い ず ぬ"),
}
_STEMMERS = {
    "de": "german", "fr": "french", "es": "spanish", "it": "italian", "pt": "portuguese", "nl": "dutch",
    "sv": "swedish", "da": "danish", "no": "norwegian", "fi": "finnish", "ru": "russian",
    "hu": "hungarian", "ro": "romanian", "tr": "turkish", "ca": "catalan", "el": "greek",
    "id": "indonesian", "lt": "lithuanian", "ar": "arabic", "ta": "tamil", "sr": "serbian",
    "eu": "basque", "ga": "irish", "hi": "hindi", "ne": "nepali", "cs": "czech", "pl": "polish",
    "et": "estonian", "fa": "persian", "hy": "armenian",
}  # fmt: skip


def _language(text: str, lang: str | None) -> str:
    return language_code(lang) if lang else script_language(text) or "en"


@functools.lru_cache(maxsize=64)
def _stops(lang: str) -> frozenset[str]:
    """Stop words, negations included: a negation is not content, ``polarity`` reads it instead."""
    return STOP_WORDS if lang == "en" else stop_words(lang) | _negations(lang)


def _negations(lang: str) -> frozenset[str]:
    return _NEGATIONS if lang == "en" else _OTHER_NEGATIONS.get(lang, frozenset())


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
    return _content(words(text, code), code)


def _content(found: list[str], code: str) -> list[str]:
    """``content_words`` of a text's ``words``, so callers that need them all tokenise once."""
    stop = _stops(code)
    return [w for w in (word.casefold() for word in found) if not _function_word(w, code, stop)]


def _function_word(folded: str, code: str, stop: frozenset[str]) -> bool:
    """A stop word, or in Japanese a hiragana-only word: content is written in kanji and katakana."""
    return folded in stop or (code == "ja" and _HIRAGANA_WORD.fullmatch(folded) is not None)


def lexical_support(statement: str, context_words: set[str], lang: str | None = None) -> float:
    """The share of the statement's content words that occur in the context (1.0 for no content words)."""
    found = content_words(statement, lang)
    if not found:
        return 1.0
    return sum(w in context_words for w in found) / len(found)


def critical_terms(statement: str, lang: str | None = None) -> set[str]:
    """What must match exactly: numbers, date words, and names (capitalised or code-like words)."""
    code = _language(statement, lang)
    return _critical(statement, words(statement, code), code)


def _critical(statement: str, found: list[str], code: str) -> set[str]:
    """``critical_terms`` of a statement and its ``words``. Where every noun is capitalised (German),
    a capital marks no name: "Zeitreihe" and "Zeitreihen" are one word in two forms, not two names."""
    stop = _stops(code)
    capitals_are_names = code not in NOUN_CAPITALISING
    terms = set(_NUMBER.findall(statement))
    for position, word in enumerate(found):
        folded = word.casefold()
        if folded in _DATE_WORDS and (word[0].isupper() or folded not in stop):  # "May", not "may"
            terms.add(folded)
            continue
        if folded in stop:
            continue
        code_like = any(c.isdigit() or c in "._" for c in word) or any(c.isupper() for c in word[1:])
        named = capitals_are_names and word[:1].isupper() and position > 0
        if code_like or named:
            terms.add(folded)
    return terms


def polarity(text: str, lang: str | None = None) -> tuple[set[str], set[str]]:
    """(negated, affirmed): stems of content words under a negation ("does not keep" -> keep), and of
    those that occur at least once without one."""
    code = _language(text, lang)
    return _polarity(words(text, code), code)


def _polarity(found: list[str], code: str) -> tuple[set[str], set[str]]:
    """``polarity`` of a text's ``words``."""
    if code in _NEGATED_BEFORE:
        return _polarity_after(found, code)
    stop, negations = _stops(code), _negations(code)
    skipped = _SKIPPED_AFTER_NEGATION if code == "en" else stop  # "ne sont pas compressées"
    negated: set[str] = set()
    affirmed: set[str] = set()
    reach = 0
    for token in found:
        folded = token.casefold()
        if folded in negations:
            reach = _NEGATION_REACH
            continue
        if reach and folded in skipped:
            reach -= 1
            continue
        if folded not in stop or reach:
            (negated if reach else affirmed).add(_stem(folded, code))
        reach = 0
    return negated, affirmed


def _polarity_after(found: list[str], code: str) -> tuple[set[str], set[str]]:
    """``polarity`` where the negation follows ("圧縮 され ない"): it negates the last content word,
    if at most ``_NEGATION_REACH`` function words lie between them."""
    stop, negations = _stops(code), _negations(code)
    negated: set[str] = set()
    affirmed: set[str] = set()
    last: str | None = None  # the last content word, until a negation or the next content word
    gap = 0
    for token in found:
        folded = token.casefold()
        if folded in negations and last is not None:
            negated.add(last)
            last = None
        elif folded in negations or _function_word(folded, code, stop):
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


@functools.lru_cache(maxsize=65536)
def _stem(word: str, lang: str = "en") -> str:
    """Snowball stem in the word's language: "keeps"/"keep" and "deleted"/"deletes" match."""
    stemmer = _stemmer(lang)
    return stemmer.stemWord(word) if stemmer is not None else word


@functools.cache
def _stemmer(lang: str) -> Any:
    """The language's Snowball stemmer, or None (no stemming) for languages Snowball lacks."""
    name = "english" if lang == "en" else _STEMMERS.get(lang)
    return snowballstemmer.stemmer(name) if name in snowballstemmer.algorithms() else None


@dataclass(frozen=True)
class LexicalVerdict:
    supported: bool
    reason: str


class LexicalContext:
    """A context prepared once for judging many statements against it, in the context's language
    (``lang=None`` detects it: one detection per context, and statements are read the same way)."""

    def __init__(self, text: str, lang: str | None = None) -> None:
        self.lang = language_code(lang) if lang else detect_language(text)
        found = words(text, self.lang)  # tokenised once: content, terms and polarity all read it
        self.stems = {_stem(w, self.lang) for w in _content(found, self.lang)}
        self.numbers = set(_NUMBER.findall(text))
        self.terms = {w.casefold() for w in found} | self.numbers
        self.negated, self.affirmed = _polarity(found, self.lang)

    def overlap(self, statement: str) -> float:
        """How much of ``statement`` this text states, 0..1: the share of its content words found here, or
        0 when the two disagree (a negation either way, or a number of the statement missing while this
        text gives another). Unlike ``judge``, an extra detail only lowers the share: "born in 1879 in
        Ulm" against "born in 1879" is mostly right, not wrong (correctness credits shared claims)."""
        found = words(statement, self.lang)
        stems = {_stem(w, self.lang) for w in _content(found, self.lang)}
        if not stems:
            return 1.0
        negated, affirmed = _polarity(found, self.lang)
        if negated - self.negated or (affirmed - negated) & (self.negated - self.affirmed):
            return 0.0
        numbers = set(_NUMBER.findall(statement))
        if numbers - self.numbers and self.numbers - numbers:
            return 0.0
        return sum(stem in self.stems for stem in stems) / len(stems)

    def judge(self, statement: str, ratio: float = SUPPORT_RATIO) -> LexicalVerdict:
        found = words(statement, self.lang)
        stems = {_stem(w, self.lang): w for w in _content(found, self.lang)}
        share = sum(stem in self.stems for stem in stems) / len(stems) if stems else 1.0
        if share < ratio:
            return LexicalVerdict(False, f"only {share:.0%} of its content words occur in the context")
        missing = sorted(_critical(statement, found, self.lang) - self.terms)
        if missing:
            return LexicalVerdict(False, f"the context does not mention {', '.join(missing)}")
        negated, affirmed = _polarity(found, self.lang)
        only_negated_here = self.negated - self.affirmed
        if unmatched := sorted(stems.get(w, w) for w in negated - self.negated):
            return LexicalVerdict(False, f"it negates {', '.join(unmatched)}; the context does not")
        if refuted := sorted(stems.get(w, w) for w in (affirmed - negated) & only_negated_here):
            return LexicalVerdict(False, f"the context negates {', '.join(refuted)}")
        return LexicalVerdict(True, f"{share:.0%} of its content words and every number and name occur in it")
