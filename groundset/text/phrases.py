"""Corpus-level TF-IDF over candidate phrases: offline keyphrases and themes.

Candidates are 1-3 word runs of content words that never cross punctuation, so they look like
noun phrases without needing a tagger. Fitting on the whole corpus gives each phrase an inverse
document frequency; a text's keyphrases are its most distinctive phrases, and its themes are
phrases shared with a few other texts (which is what links related documents in the graph).

Each text is read in its language (``lang``: one code, one per text, or None to detect). English
keeps its tuned regexes, stop words and filters; other languages use ``nlp.word_runs`` (Chinese and
Japanese: spaCy tokens, so phrases are words or terms) and spaCy's stop words.
"""

from __future__ import annotations

import functools
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer

from ..languages.words import word_set
from .language import NOUN_CAPITALISING, Languages, languages_of
from .nlp import UNSEGMENTED, stop_words, word_runs
from .plaintext import plain_text
from .scripts import HAN, HIRAGANA, KANA
from .sentences import abbreviations

__all__ = ["PhraseModel"]

_MAX_WORDS = 3
_LENGTH_BONUS = (1.0, 1.5, 1.7)  # multi-word phrases are more specific, so they rank higher
_THEME_BONUS = (0.8, 1.5, 1.7)  # a theme is a topic: one word is rarely enough
_THEME_MAX_SHARE = 0.3
_MIN_THEME_CORPUS = 3

# A word (with inner . _ - ' joiners: prometheus.yml, key-value, http_requests_total) or one
# breaking character. Digit-led tokens break phrases too: a pure number is never part of one.
_TOKEN = re.compile(r"([A-Za-z][A-Za-z0-9]*(?:[._'\u2019-][A-Za-z0-9]+)*)|[0-9][\w.]*|[^\sA-Za-z0-9]|\n")
_HIRAGANA = re.compile(rf"[{HIRAGANA}]+")  # Japanese particles and endings: never inside a phrase
_UNSPACED = re.compile(rf"[{HAN}{KANA}]")  # Chinese and Japanese: phrases written without spaces
_S_PLURALS = frozenset({"fr", "es", "pt", "ca"})  # "alertes" and "alerte" share a key


_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*")
# A word right after one of these is probably a verb ("you can expose", "it contains").
_VERB_CONTEXT = word_set(
    "can cannot could will would shall should may might must we you they i it he she which who "
    "also not don't doesn't didn't won't please to"
)
_VERB_MIN_COUNT = 3
_VERB_MIN_SHARE = 0.35
# Words ending in -ly are adverbs ("basically", "directly") except these nouns and adjectives.
_LY_NOUNS = word_set(
    "family assembly anomaly supply reply apply multiply monopoly italy july daily weekly monthly "
    "hourly yearly nightly early friendly"
)
_PARTICIPLES = word_set(
    "sent spent taken given shown written seen known built found chosen broken hidden made kept held "
    "left lost brought thought meant got gotten begun become gone"
)

_STOP_WORDS = word_set(
    """
    a about above across after afterwards again against all almost alone along already also although
    always am among an and another any anybody anyhow anyone anything anyway anywhere are aren't around
    as at be became because become becomes been before beforehand behind being below beside besides
    between beyond both but by can cannot can't could couldn't did didn't do does doesn't doing don't
    done down during each either else elsewhere enough especially etc even ever every everyone
    everything everywhere except few for from further furthermore had hadn't has hasn't have haven't
    having he hence her here hereby herein hers herself him himself his how however i if in indeed
    instead into is isn't it it's its itself just least less let let's like likely many may maybe me
    meanwhile might mine more moreover most mostly much must my myself namely neither never
    nevertheless next no nobody none nor not nothing now nowhere of off often on once one ones only
    onto or other others otherwise our ours ourselves out over own per perhaps please quite rather
    really same see seem seemed seeming seems several shall she should shouldn't since so some somehow
    someone something sometime sometimes somewhat somewhere still such than that that's the their
    theirs them themselves then thence there thereafter thereby therefore therein there's these they
    they're this those though through throughout thus to together too toward towards under unless
    until up upon us very via was wasn't we we'll we're we've well were weren't what whatever what's
    when whenever where whereas wherever whether which while who whoever whole whom whose why will
    with within without won't would wouldn't yet you you'd you'll your you're yours yourself
    yourselves you've e.g i.e eg ie vs
    able allow allows allowed want wants need needs needed make makes made use uses used using usually
    get gets got give gives given go goes going know known way ways thing things lot lots kind sure
    simply easily currently generally typically actually certain certainly new old good better best
    different various similar specific particular important possible necessary available following
    follows example examples instance e note notes also first second third last will set sets due
    show shows say says said outside inside take takes look looks looking work works want try tries
    called call
    """
)
# Plural folding would merge these with unrelated words.
_NO_FOLD = word_set(
    "series status alias bus process access class analysis basis canvas https kubernetes redis "
    "always perhaps across less unless this thus has was does its yes chaos news lens gas plus"
)


def _identity(tokens: list[str]) -> list[str]:
    """Analyzer for pre-tokenised input (module level, so a fitted model pickles)."""
    return tokens


def _fold(word: str, lang: str = "en") -> str:
    """Lowercase key of one word; simple plurals share the singular key (the surface form stays).
    -ies becomes -y in English only; -s plurals of the ``_S_PLURALS`` languages fold the same way."""
    lower = word.lower() if lang == "en" else word.casefold()
    if not word[1:].islower() or len(lower) < 4 or lower in _NO_FOLD or not lower.isalpha():
        return lower  # acronyms, CamelCase and identifiers keep their exact form
    if lang == "en" and lower.endswith("ies") and len(lower) > 4:
        return lower[:-3] + "y"
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")):  # not "processus", "analysis"
        return lower[:-1]
    return lower


def _segments(text: str) -> Iterable[list[str]]:
    """Runs of words between breaking characters (punctuation, digits, line ends)."""
    run: list[str] = []
    for match in _TOKEN.finditer(text):
        word = match.group(1)
        if word is None:
            if run:
                yield run
                run = []
            continue
        if word.endswith(("'s", "\u2019s")):
            run.append(word[:-2])
            yield run
            run = []
            continue
        run.append(word)
    if run:
        yield run


def _is_content(word: str) -> bool:
    lower = word.lower()
    if len(word) < 2 or lower in _STOP_WORDS:
        return False
    return not (lower.endswith("ly") and len(lower) > 4 and lower not in _LY_NOUNS)


def _can_end(word: str) -> bool:
    """A past participle ("enabled", "sent") ends a clause, not a noun phrase."""
    lower = word.lower()
    if lower in _PARTICIPLES:
        return False
    return not (len(lower) > 4 and lower.endswith("ed") and not lower.endswith("eed") and word[1:].islower())


@functools.lru_cache(maxsize=1 << 16)
def _word_info(word: str) -> tuple[str, bool, bool]:
    """(key, may be inside a phrase, may end a phrase) for one word; cached, words repeat a lot."""
    return _fold(word), _is_content(word), _can_end(word)


def _candidates(plain: str, lang: str = "en") -> list[tuple[str, str]]:
    """(key, surface) for every 1-3 word candidate phrase of a plain text, in order."""
    if lang != "en":
        return _other_candidates(plain, lang)
    found: list[tuple[str, str]] = []
    for run in _segments(plain):
        infos = [_word_info(word) for word in run]
        for start in range(len(run)):
            if not infos[start][1]:
                continue
            for end in range(start, min(start + _MAX_WORDS, len(run))):
                key, content, can_end = infos[end]
                if not content:
                    break  # no stop word anywhere inside: keeps candidates noun-phrase-like
                if can_end:
                    if end == start:
                        found.append((key, _intern(run[start])))
                    else:
                        keys = " ".join(info[0] for info in infos[start : end + 1])
                        found.append((_intern(keys), _intern(" ".join(run[start : end + 1]))))
    return found


# One string for a phrase however often the corpus holds it: a build keeps every chunk's candidates until the
# model is fitted, and most of them are the same few thousand phrases.
_intern = sys.intern


Found = tuple[list[str], list[str]]  # a text's candidate keys, and their surface forms in the same order


def _candidates_of(plains: Sequence[str], langs: Sequence[str]) -> list[Found]:
    """Each text's candidates as two lists (two pointers a candidate, not a tuple of them: a corpus's
    candidates are held together until the model is fitted)."""
    found = []
    for plain, code in zip(plains, langs, strict=True):
        pairs = _candidates(plain, code)
        found.append(([key for key, _ in pairs], [surface for _, surface in pairs]))
    return found


PhraseInputs = tuple[list[Found], Counter[str], Counter[str]]
MapBatches = Callable[
    [Callable[[list[tuple[str, str]]], PhraseInputs], list[tuple[str, str]]], list[PhraseInputs]
]


def phrase_inputs(pairs: list[tuple[str, str]]) -> PhraseInputs:
    """What fitting needs from each (text, language): its candidates, and the corpus's counts of
    lower-case words and of those that follow a modal or pronoun. A pure function of its texts, so
    batches of a corpus may run anywhere and be merged in order (``_merged``)."""
    return inputs_of_plain([(plain_text(text), code) for text, code in pairs])


def inputs_of_plain(pairs: list[tuple[str, str]]) -> PhraseInputs:
    """``phrase_inputs`` of texts already made plain (``plain_text``), for a caller that reads them too."""
    seen: Counter[str] = Counter()
    as_verb: Counter[str] = Counter()
    plains = [plain for plain, _ in pairs]
    langs = [code for _, code in pairs]
    for plain, code in zip(plains, langs, strict=True):
        if code == "en":
            _count_verb_contexts(plain, seen, as_verb)
    return _candidates_of(plains, langs), seen, as_verb


def _merged(parts: list[PhraseInputs]) -> PhraseInputs:
    per_text: list[Found] = []
    seen: Counter[str] = Counter()
    as_verb: Counter[str] = Counter()
    for found, part_seen, part_verb in parts:
        per_text += found
        seen.update(part_seen)
        as_verb.update(part_verb)
    return per_text, seen, as_verb


@functools.lru_cache(maxsize=1 << 16)
def _other_info(word: str, lang: str) -> tuple[str, bool, bool]:
    """(key, may be inside a phrase, may end it) for a word of a language other than English.

    Inside: two letters or more, not a stop word or abbreviation, not a bare kana ending. End: in
    German, a capitalised word (a noun), so "lokale Zeitreihendatenbank" but not "empfohlene".
    """
    key = word.casefold()
    content = len(word) >= 2 and key not in stop_words(lang) and key not in abbreviations(lang)
    content = content and not (lang == "ja" and _HIRAGANA.fullmatch(word))
    if lang in _S_PLURALS:
        key = _fold(word, lang)
    return key, content, lang not in NOUN_CAPITALISING or word[0].isupper()


def _other_candidates(plain: str, lang: str) -> list[tuple[str, str]]:
    """Candidates of a non-English text: runs of content words, as written (CJK without spaces)."""
    found: list[tuple[str, str]] = []
    as_written = lang in UNSEGMENTED
    for run in word_runs(plain, lang):
        infos = [_other_info(word, lang) for word, _, _ in run]
        for start in range(len(run)):
            for end in range(start, min(start + _MAX_WORDS, len(run))):
                if not infos[end][1]:
                    break
                if not infos[end][2]:
                    continue
                key = " ".join(info[0] for info in infos[start : end + 1])
                if as_written:
                    surface = " ".join(plain[run[start][1] : run[end][2]].split())
                else:
                    surface = " ".join(word for word, _, _ in run[start : end + 1])
                found.append((key, surface))
    return found


def _count_verb_contexts(plain: str, seen: Counter[str], as_verb: Counter[str]) -> None:
    """Count lowercase words, and how often each follows a modal or pronoun ("can expose")."""
    words = _WORD.findall(plain)
    seen.update([_word_info(word)[0] for word in words if word.islower()])  # _word_info: _fold, cached
    previous = ""
    for word in words:
        if previous in _VERB_CONTEXT and word.islower():
            as_verb[_word_info(word)[0]] += 1
        previous = word.lower()


def _verb_like(seen: Counter[str], as_verb: Counter[str]) -> frozenset[str]:
    """Words the corpus itself mostly uses as verbs; phrases containing them are clauses."""
    return frozenset(
        word
        for word, count in as_verb.items()
        if count >= _VERB_MIN_COUNT and count >= _VERB_MIN_SHARE * seen[word] and word not in _STOP_WORDS
    )


class PhraseModel:
    """TF-IDF over candidate phrases, fitted once on a corpus and applied to any text."""

    def __init__(self) -> None:
        self._vectorizer: CountVectorizer | None = None
        self._tfidf: TfidfTransformer | None = None
        self._keys: list[str] = []
        self._surfaces: list[str] = []
        self._parts: list[tuple[int, ...]] = []
        self._bonus = np.zeros(0)
        self._theme_weight = np.zeros(0)
        self._n_texts = 0

    @property
    def n_texts(self) -> int:
        """Number of texts the model was fitted on (0 before ``fit``)."""
        return self._n_texts

    @property
    def vocabulary_size(self) -> int:
        """Number of phrases the model can score."""
        return len(self._keys)

    def fit(self, texts: Sequence[str], lang: Languages = None) -> PhraseModel:
        """Learn phrase vocabulary, document frequencies and readable surface forms from a corpus.

        Multi-word phrases enter the vocabulary only if they occur at least twice in the corpus (a
        word sequence seen once is rarely a phrase, and would otherwise win on IDF alone), and no
        English phrase may contain a word the corpus mostly uses as a verb. ``lang``: one code for
        all texts, one per text, or None to detect each text's language.
        """
        self._fit(*phrase_inputs(list(zip(texts, languages_of(texts, lang), strict=True))))
        return self

    def fit_rank(
        self,
        texts: Sequence[str],
        lang: Languages = None,
        *,
        keyphrases: int = 8,
        themes: int = 5,
        rank: Sequence[int] | None = None,
        map_batches: MapBatches | None = None,
    ) -> tuple[list[list[str]], list[list[str]]]:
        """``fit`` on ``texts``, then the ``keyphrases`` and ``themes`` (how many of each) of the texts at
        the indices ``rank`` (default: all), as ``fit`` then ``keyphrases_many`` and ``themes_many`` give
        them, with each text's phrase candidates found once instead of three times (most of the cost), and
        the counts that fit the model ranking them (the candidates are let go before ranking).
        ``map_batches``: where the texts' candidates are found (``Backend.map_batches``; default here)."""
        pairs = list(zip(texts, languages_of(texts, lang), strict=True))
        parts = [phrase_inputs(pairs)] if map_batches is None else map_batches(phrase_inputs, pairs)
        return self.fit_rank_found(parts, keyphrases=keyphrases, themes=themes, rank=rank)

    def fit_rank_found(
        self,
        parts: list[PhraseInputs],
        *,
        keyphrases: int = 8,
        themes: int = 5,
        rank: Sequence[int] | None = None,
    ) -> tuple[list[list[str]], list[list[str]]]:
        """``fit_rank`` from candidates found already: ``phrase_inputs`` of each batch of the texts, in
        order. For a caller that reads each text for other facts in the same pass (one Markdown parse)."""
        per_text, seen, as_verb = _merged(parts)
        count = len(per_text)
        counts = self._fit(per_text, seen, as_verb)
        del per_text, seen, as_verb
        if counts is None:
            empty: list[list[str]] = [[] for _ in (range(count) if rank is None else rank)]
            return empty, [list(e) for e in empty]
        rows = counts if rank is None else counts[list(rank)]
        ranked = self._rank_counts(rows, keyphrases, self._bonus)
        return ranked, self._rank_counts(rows, themes, self._themes())

    def _fit(self, per_text: list[Found], seen: Counter[str], as_verb: Counter[str]) -> Any:
        """Fit on the texts' candidates and the corpus's verb contexts; their phrase counts (a CSR matrix,
        one row per text), or None when no phrase qualifies."""
        verbs = _verb_like(seen, as_verb)
        total = Counter(key for keys, _ in per_text for key in keys)
        vocabulary = sorted(
            key
            for key, count in total.items()
            if (count >= 2 or " " not in key) and not any(word in verbs for word in key.split(" "))
        )
        del total
        # Surface forms of the phrases kept only: most candidates occur once and are no phrase.
        surfaces: dict[str, Counter[str]] = {key: Counter() for key in vocabulary}
        for keys, forms_of in per_text:
            for key, surface in zip(keys, forms_of, strict=True):
                if (forms := surfaces.get(key)) is not None:
                    forms[surface] += 1
        self._n_texts = len(per_text)
        self._keys = vocabulary
        self._surfaces = [_readable(surfaces[key]) for key in vocabulary]
        del surfaces
        if not vocabulary:
            self._vectorizer = self._tfidf = None
            return None
        index = {key: i for i, key in enumerate(vocabulary)}
        self._parts = [_sub_phrases(key, index) for key in vocabulary]
        self._vectorizer = CountVectorizer(analyzer=_identity, vocabulary=index, dtype=np.float64)
        counts = self._vectorizer.transform([keys for keys, _ in per_text]).tocsr()
        self._tfidf = TfidfTransformer(sublinear_tf=True, norm=None).fit(counts)
        lengths = np.array([key.count(" ") for key in vocabulary])
        self._bonus = np.asarray(_LENGTH_BONUS)[lengths]
        df = np.asarray((counts > 0).sum(axis=0)).ravel()
        max_df = max(2, math.floor(_THEME_MAX_SHARE * self._n_texts))
        self._theme_weight = np.where((df >= 2) & (df <= max_df), np.asarray(_THEME_BONUS)[lengths], 0.0)
        return counts

    def keyphrases(self, text: str, k: int = 8, lang: str | None = None) -> list[str]:
        """The ``k`` most distinctive phrases of ``text`` (phrases unseen in ``fit`` are ignored)."""
        return self.keyphrases_many([text], k, lang)[0]

    def themes(self, text: str, k: int = 5, lang: str | None = None) -> list[str]:
        """Up to ``k`` phrases that ``text`` shares with a few other corpus texts."""
        return self.themes_many([text], k, lang)[0]

    def keyphrases_many(self, texts: Sequence[str], k: int = 8, lang: Languages = None) -> list[list[str]]:
        """``keyphrases`` for many texts with one sparse transform; ``lang`` as in ``fit``."""
        return self._rank_many(texts, k, self._bonus, lang)

    def themes_many(self, texts: Sequence[str], k: int = 5, lang: Languages = None) -> list[list[str]]:
        """``themes`` for many texts; a corpus under three texts has no shared topics, so keyphrases."""
        return self._rank_many(texts, k, self._themes(), lang)

    def _themes(self) -> np.ndarray:
        """What ranks themes: shared phrases, or in a corpus under three texts every phrase (keyphrases)."""
        return self._bonus if self._n_texts < _MIN_THEME_CORPUS else self._theme_weight

    def _rank_many(
        self, texts: Sequence[str], k: int, weights: np.ndarray, lang: Languages
    ) -> list[list[str]]:
        """Top ``k`` phrases per text by TF-IDF times ``weights`` (per-phrase bonus or eligibility)."""
        if self._vectorizer is None or self._tfidf is None or k < 1 or not texts:
            return [[] for _ in texts]
        langs = languages_of(texts, lang)
        plains = [plain_text(text) for text in texts]
        keys = [keys for keys, _ in _candidates_of(plains, langs)]
        return self._rank_keys(keys, k, weights)

    def _rank_keys(self, keys: list[list[str]], k: int, weights: np.ndarray) -> list[list[str]]:
        if self._vectorizer is None or self._tfidf is None or k < 1 or not keys:
            return [[] for _ in keys]
        return self._rank_counts(self._vectorizer.transform(keys).tocsr(), k, weights)

    def _rank_counts(self, counts: Any, k: int, weights: np.ndarray) -> list[list[str]]:
        """Top ``k`` phrases of each row of ``counts`` (phrase counts, CSR) by TF-IDF times ``weights``."""
        if self._tfidf is None or k < 1:
            return [[] for _ in range(counts.shape[0])]
        scores = self._tfidf.transform(counts).multiply(weights).tocsr()
        ranked: list[list[str]] = []
        for row in range(scores.shape[0]):
            a, b = counts.indptr[row], counts.indptr[row + 1]
            row_counts = dict(zip(counts.indices[a:b].tolist(), counts.data[a:b].tolist(), strict=True))
            a, b = scores.indptr[row], scores.indptr[row + 1]
            ranked.append(self._top(scores.indices[a:b], scores.data[a:b], row_counts, k))
        return ranked

    def _top(self, columns: np.ndarray, values: np.ndarray, counts: dict[int, float], k: int) -> list[str]:
        """Best phrases of one row, skipping fragments and phrases inside better-ranked ones."""
        positive = values > 0
        columns, values = columns[positive], np.round(values[positive], 10)
        covered: dict[int, float] = {}  # column -> most occurrences of one eligible phrase containing it
        for column in columns.tolist():
            for part in self._parts[column]:
                covered[part] = max(covered.get(part, 0.0), counts[column])
        # Highest score first; ties go to the alphabetically first key (columns are sorted keys).
        order = np.lexsort((columns, -values))
        chosen: list[str] = []
        taken: list[str] = []
        for column in columns[order].tolist():
            if covered.get(column, 0.0) >= counts[column]:
                continue  # every occurrence sits inside one longer phrase: let that one speak
            key = self._keys[column]
            if any(_redundant(key, better) for better in taken):
                continue
            chosen.append(self._surfaces[column])
            taken.append(key)
            if len(chosen) == k:
                break
        return chosen


def _sub_phrases(key: str, index: dict[str, int]) -> tuple[int, ...]:
    """Columns of the shorter vocabulary phrases inside ``key``."""
    words = key.split(" ")
    parts = (" ".join(words[i : i + n]) for n in range(1, len(words)) for i in range(len(words) - n + 1))
    return tuple(sorted({index[part] for part in parts if part in index}))


def _redundant(key: str, better: str) -> bool:
    """Inside a better phrase, or the same longer run shifted by one word ("a b c" vs "b c d").

    CJK phrases are compared as written: "数据" is inside "时间 序列 数据库" though no word of it is.
    """
    if f" {key} " in f" {better} ":
        return True
    if _UNSPACED.search(key) and key.replace(" ", "") in better.replace(" ", ""):
        return True
    words, other = key.split(" "), better.split(" ")
    if len(words) != 3 or len(other) != 3:
        return False
    return words[:2] == other[1:] or words[1:] == other[:2]


def _readable(forms: Counter[str]) -> str:
    """Most frequent surface form; among equals prefer lowercase (sentence-initial capitals are noise)."""
    return max(forms.items(), key=lambda item: (item[1], item[0].islower(), item[0]))[0]
