"""Which language a text is written in, as an ISO 639-1 code, for per-language tokens, stop words and
sentence rules.

Three steps, cheapest first, on a bounded prefix with code, URLs and markup removed:
1. Script: Han without kana is Chinese, kana is Japanese, Hangul is Korean. On short text this is
   both cheaper and more reliable than a statistical model.
2. Plain English (ASCII words, a good share of English function words) is English without loading
   the model: most corpora are English, and the model takes a second or more to load.
3. py3langid's naive Bayes model (shipped in its wheel, loaded once, deterministic), restricted to
   the languages documentation is written in.
Text too short, without letters, or classified with low confidence gets the default ("en").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Languages",
    "detect_language",
    "language_code",
    "languages_of",
    "script_language",
]

# A ``lang`` argument of the functions that take many texts: one code, one per text, or None to detect.
Languages = str | Sequence[str | None] | None

DEFAULT_LANGUAGE = "en"
# Languages the model may answer: those docs are commonly written in. Rare neighbours (Latin,
# Occitan, Esperanto, ...) only ever win on code and markup noise, so they are left out.
LANGUAGES = (
    "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "is", "pl", "cs", "sk", "sl", "hr",
    "sr", "bg", "ru", "uk", "el", "tr", "hu", "ro", "ca", "et", "lv", "lt", "id", "ms", "vi", "th", "zh",
    "ja", "ko", "ar", "he", "fa", "hi", "bn", "ta", "te", "ur",
)  # fmt: skip
SAMPLE_CHARS = 6000  # raw prefix looked at: detection stays O(1) in the document size
_MODEL_CHARS = 2000  # cleaned characters given to the model
_MIN_LETTERS = 20
_MIN_CONFIDENCE = 0.6
_MIN_CJK = 2
_MIN_DISTINCT_WORDS = 3

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_FENCE = re.compile(r"^ {0,3}(```|~~~).*?(?:^ {0,3}\1[^\n]*$|\Z)", re.DOTALL | re.MULTILINE)
_NOISE = re.compile(
    r"`[^`\n]*`"  # inline code
    r"|<[^>\n]*>"  # HTML tags, autolinks
    r"|\]\([^)\n]*\)"  # link targets
    r"|\S*(?:://|[_/\\=<>{}$@#|])\S*"  # URLs, paths, identifiers, options
    r"|\S+\.\S+"  # dotted names: prometheus.yml, v2.0
)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3041-\u309f\u30a1-\u30fa\u30fd-\u30ff\u31f0-\u31ff\uff66-\uff9d]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_WORD = re.compile(r"[^\W\d_]{2,}")
_ENGLISH = frozenset(
    re.findall(
        r"\w+",
        "the of and to a in is that for it as with are be this on by or from an not can you which at if "
        "when these was has have will its their they your more one all but use used how what",
    )
)
_ENGLISH_MIN_WORDS = 8
_ENGLISH_MIN_SHARE = 0.15
_ALIASES = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "nb": "no", "nn": "no", "zxx": DEFAULT_LANGUAGE}


def language_code(value: Any, default: str = DEFAULT_LANGUAGE) -> str:
    """ISO 639-1 code of a language tag ("en-US", "zh_Hans", "DE" -> "en", "zh", "de"); else ``default``."""
    if not isinstance(value, str):
        return default
    code = re.split(r"[-_.@\s]", value.strip().lower(), maxsplit=1)[0]
    if not code.isalpha() or not 2 <= len(code) <= 3:
        return default
    return _ALIASES.get(code, code)


def detect_language(text: str, default: str = DEFAULT_LANGUAGE) -> str:
    """The language of ``text`` (ISO 639-1), or ``default`` when the text gives too little to tell."""
    return _detect(text[:SAMPLE_CHARS], default)


@functools.lru_cache(maxsize=2048)
def _detect(prefix: str, default: str) -> str:
    """Detection of one bounded prefix; cached, because callers ask again about the same chunks."""
    sample = _prose(prefix)
    by_script = _script(sample)
    if by_script:
        return by_script
    letters = sum(char.isalpha() for char in sample)
    if letters < _MIN_LETTERS or len(set(_WORD.findall(sample[:_MODEL_CHARS]))) < _MIN_DISTINCT_WORDS:
        return default  # too little (or too repetitive) to tell
    if _plainly_english(sample):
        return "en"
    code, confidence = _identifier().classify(sample[:_MODEL_CHARS])
    return language_code(code, default) if confidence >= _MIN_CONFIDENCE else default


def languages_of(texts: Sequence[str], lang: Languages = None) -> list[str]:
    """One code per text: ``lang`` itself, its entry for that text, or (None) the detected language."""
    if isinstance(lang, str):
        return [language_code(lang)] * len(texts)
    given = list(lang) if lang is not None else [None] * len(texts)
    if len(given) != len(texts):
        raise ValueError(f"{len(given)} languages given for {len(texts)} texts")
    return [
        language_code(code) if code else detect_language(text)
        for text, code in zip(texts, given, strict=True)
    ]


def script_language(text: str) -> str | None:
    """zh, ja or ko when the text is mostly CJK script, else None: the cheap check for short text."""
    return _script(text[:SAMPLE_CHARS])


def _prose(prefix: str) -> str:
    """The prefix without front matter, code, markup, URLs and identifiers."""
    sample = _FRONT_MATTER.sub("", prefix)
    sample = _FENCE.sub(" ", sample)
    return _NOISE.sub(" ", sample)


def _script(sample: str) -> str | None:
    han = len(_HAN.findall(sample))
    kana = len(_KANA.findall(sample))
    hangul = len(_HANGUL.findall(sample))
    cjk = han + kana + hangul
    if cjk < _MIN_CJK:
        return None
    letters = sum(char.isalpha() for char in sample)
    if cjk < 0.25 * letters:  # a CJK character carries about as much as a Latin word
        return None
    if hangul >= 0.5 * cjk:
        return "ko"
    if kana >= 0.1 * cjk:  # Japanese writes particles and endings in kana; Chinese never does
        return "ja"
    return "zh"


def _plainly_english(sample: str) -> bool:
    """ASCII words of which a good share are English function words: no model needed."""
    words = _ASCII_WORD.findall(sample)
    if len(words) < _ENGLISH_MIN_WORDS:
        return False
    letters = sum(char.isalpha() for char in sample)
    if sum(len(word) for word in words) < 0.97 * letters:
        return False  # accented or non-Latin letters: let the model decide
    english = sum(word.lower() in _ENGLISH for word in words)
    return english >= _ENGLISH_MIN_SHARE * len(words)


@functools.lru_cache(maxsize=1)
def _identifier() -> Any:
    """py3langid's model from its wheel, normalised probabilities, restricted to ``LANGUAGES``."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages([code for code in LANGUAGES if code in set(identifier.labels)])
    return identifier
