"""Per-language spaCy pipelines for word tokens, and spaCy's per-language stop words.

One pipeline per language, built once and never downloaded: the tokenizer of an installed trained
pipeline when there is one, else ``spacy.blank(lang)``. Chinese is segmented by jieba (a dependency;
its dictionary ships in its wheel); Japanese by SudachiPy when the ``ja`` extra is installed, and
otherwise by runs of one script (kanji, hiragana, katakana, Latin, digits). Languages spaCy has no
tokenizer for, or whose tokenizer needs a library that is missing, use ``spacy.blank("xx")``. The
pipelines only tokenise: sentences come from ``split_sentences`` (sentences.py), which applies
per-language abbreviation rules without tokenising whole texts.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import re
import runpy
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .language import detect_language, language_code
from .scripts import HIRAGANA, KANJI, KATAKANA

__all__ = [
    "UNSEGMENTED",
    "pipeline",
    "stop_words",
    "token_lists",
    "tokens",
    "word_runs",
]

logger = logging.getLogger(__name__)

# Written without spaces between words: tokens need a segmenter, phrases join without spaces.
UNSEGMENTED = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo"})
_TRAINED = ("{}_core_web_sm", "{}_core_news_sm", "{}_core_web_md", "{}_core_news_md")
_NOT_TOKENIZER = [
    "tok2vec", "transformer", "tagger", "morphologizer", "parser", "ner", "attribute_ruler", "lemmatizer",
    "trainable_lemmatizer", "senter", "entity_ruler", "entity_linker", "textcat", "textcat_multilabel",
    "spancat", "span_finder",
]  # fmt: skip
_SPACY_CODES = {"no": "nb"}
_MAX_LENGTH = 50_000_000  # blank tokenizers keep no per-token model state; spaCy's 1M cap is for parsers
_PIPELINES = 32  # cached pipelines: a few languages per corpus, each built once
# A word of any alphabet (inner . _ - ' joiners), a number, or one breaking character.
_SPACED_TOKEN = re.compile(r"([^\W\d_][^\W_]*(?:[._'\u2019-][^\W_]+)*)|\d[\w.]*|[^\s\w]|_|\n")
_ELISION = re.compile(r"(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu|quoiqu)['\u2019](?=\w)", re.IGNORECASE)
_ELIDING = frozenset({"fr", "it", "ca"})  # "l'alerte": the article is a stop word, the noun a candidate
# Negative endings that close a hiragana run ("圧縮されない" -> 圧縮 され ない): a token of their own,
# so the judge sees the negation. Not "なければならない" (must), "かもしれない" (may), "はず", "まず".
_JA_NEGATION = (
    rf"(?:(?<!なら)(?<!しれ)ない|(?<!なり)(?<!しれ)ません|(?<!なら)なかった|(?<![はま])ず)(?![{HIRAGANA}])"
)
_SCRIPT_RUN = re.compile(
    rf"[{KANJI}]+|[{HIRAGANA}]+?(?={_JA_NEGATION})|{_JA_NEGATION}|[{HIRAGANA}]+|[{KATAKANA}]+|\d+(?:[.,]\d+)*"
    rf"|[^\W\d_{KANJI}{HIRAGANA}{KATAKANA}]+(?:[._'\u2019-][^\W_{KANJI}{HIRAGANA}{KATAKANA}]+)*|\S"
)


def tokens(text: str, lang: str | None = None) -> list[str]:
    """Word tokens of ``text`` (no punctuation, symbols or spaces); ``lang=None`` detects the language."""
    return token_lists([text], lang or detect_language(text))[0]


def token_lists(texts: Sequence[str], lang: str) -> list[list[str]]:
    """``tokens`` of many texts of one language, through one pipeline."""
    return [[token.text for token in doc if _is_word(token)] for doc in _docs(texts, lang)]


def word_runs(text: str, lang: str) -> list[list[tuple[str, int, int]]]:
    """Runs of (word, start, end) between punctuation, symbols, numbers and line breaks, for phrases.

    Languages written with spaces are read with a regex over Unicode words (fast, no pipeline; French
    elisions split off: "l'alerte" -> "alerte"); Chinese, Japanese and the like through the pipeline.
    """
    code = language_code(lang)
    if code not in UNSEGMENTED:
        return _spaced_runs(text, code)
    runs: list[list[tuple[str, int, int]]] = []
    run: list[tuple[str, int, int]] = []
    for token in next(_docs([text], code)):
        if token.is_space and "\n" not in token.text:
            continue  # "Prometheus 服务器" is one term in Chinese text
        if _is_word(token) and not token.like_num and not token.text[0].isdigit():
            run.append((token.text, token.idx, token.idx + len(token.text)))
            continue
        if run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    return runs


def _spaced_runs(text: str, lang: str) -> list[list[tuple[str, int, int]]]:
    """``word_runs`` by regex, for languages written with spaces."""
    runs: list[list[tuple[str, int, int]]] = []
    run: list[tuple[str, int, int]] = []
    for match in _SPACED_TOKEN.finditer(text):
        word, start = match.group(1), match.start()
        elided = _ELISION.match(word) if word is not None and lang in _ELIDING else None
        if word is None or elided:
            if run:
                runs.append(run)
                run = []
            if elided:
                word, start = word[elided.end() :], start + elided.end()
        if word is not None:
            run.append((word, start, match.end()))
    if run:
        runs.append(run)
    return runs


def stop_words(lang: str) -> frozenset[str]:
    """spaCy's stop words for ``lang``, casefolded (empty for languages spaCy has no list for)."""
    return _stop_words(_spacy_code(lang))


def pipeline(lang: str) -> Any:
    """The cached spaCy pipeline for ``lang`` (a tokenizer): trained, blank, or the generic fallback."""
    return _pipeline(_spacy_code(lang))


def _spacy_code(lang: str) -> str:
    code = language_code(lang)
    return _SPACY_CODES.get(code, code)


@functools.cache
def _stop_words(code: str) -> frozenset[str]:
    return frozenset(word.casefold() for word in _spacy_stop_words(code))


@functools.lru_cache(maxsize=_PIPELINES)
def _pipeline(code: str) -> Any:
    """One pipeline per normalised code; bounded, since unknown two-letter codes each get their own."""
    nlp = _trained(code) or _blank(code)
    nlp.max_length = max(nlp.max_length, _MAX_LENGTH)
    return nlp


def _docs(texts: Iterable[str], lang: str) -> Iterator[Any]:
    """Tokenised Docs (tokenizer only: nothing else is needed for words)."""
    tokenizer = pipeline(lang).tokenizer
    if hasattr(tokenizer, "pipe"):
        yield from tokenizer.pipe(texts, batch_size=256)
    else:
        yield from (tokenizer(text) for text in texts)


def _is_word(token: Any) -> bool:
    return not (token.is_punct or token.is_space) and any(char.isalnum() for char in token.text)


def _trained(code: str) -> Any:
    """An installed trained pipeline's tokenizer (its segmenter settings included), or None."""
    import spacy
    import spacy.util

    for name in (pattern.format(code) for pattern in _TRAINED):
        if not spacy.util.is_package(name):
            continue
        try:
            return spacy.load(name, exclude=_NOT_TOKENIZER)
        except (OSError, ImportError, ValueError) as error:
            logger.warning("groundset: spaCy pipeline %r failed to load (%s); using a blank one", name, error)
    return None


def _blank(code: str) -> Any:
    import spacy

    if code == "zh":
        return _chinese()
    try:
        return spacy.blank(code)
    except (ImportError, ValueError, KeyError) as error:  # ja without SudachiPy, ko without mecab, unknown
        nlp = spacy.blank("xx")
        if code == "ja":
            nlp.tokenizer = ScriptRunTokenizer(nlp.vocab)
        else:
            logger.info("groundset: no spaCy tokenizer for %r (%s); using the generic one", code, error)
        return nlp


def _chinese() -> Any:
    """spaCy's Chinese with jieba word segmentation (jieba's start-up chatter silenced)."""
    import spacy

    try:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        return spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})
    except ImportError:
        logger.warning("groundset: jieba is not installed; Chinese is split into single characters")
        return spacy.blank("zh")


class ScriptRunTokenizer:
    """Japanese without SudachiPy: a token is a run of one script (kanji, hiragana, katakana, Latin,
    digits) or one other character. Compounds stay whole; particles and endings (hiragana) split off,
    and a negative ending (ない, ません, なかった, ず) is a token of its own, so negation stays visible."""

    def __init__(self, vocab: Any) -> None:
        self.vocab = vocab

    def __call__(self, text: str) -> Any:
        from spacy.tokens import Doc

        words: list[str] = []
        spaces: list[bool] = []
        position = 0
        for match in _SCRIPT_RUN.finditer(text):
            _add_gap(words, spaces, text[position : match.start()])
            words.append(match.group(0))
            spaces.append(False)
            position = match.end()
        _add_gap(words, spaces, text[position:])
        return Doc(self.vocab, words=words, spaces=spaces)

    def pipe(self, texts: Iterable[str], batch_size: int = 256) -> Iterator[Any]:
        yield from (self(text) for text in texts)


def _add_gap(words: list[str], spaces: list[bool], gap: str) -> None:
    """Whitespace between tokens: one space is the previous token's trailing space, the rest a token."""
    if not gap:
        return
    if words and gap[0] == " ":
        spaces[-1] = True
        gap = gap[1:]
    if gap:
        words.append(gap)
        spaces.append(False)


def _spacy_stop_words(code: str) -> set[str]:
    """``STOP_WORDS`` of spacy/lang/<code>/stop_words.py, read by file: importing the language package
    would build its tokenizer tables first (French: several seconds) just to get a word list."""
    spec = importlib.util.find_spec("spacy")
    if spec is None or spec.origin is None or not code.isalpha():
        return set()
    path = Path(spec.origin).parent / "lang" / code / "stop_words.py"
    if not path.is_file():
        return set()
    return set(runpy.run_path(str(path)).get("STOP_WORDS", ()))
