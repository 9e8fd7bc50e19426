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
import threading
from collections.abc import Sequence
from typing import Any

from .scripts import HAN, HANGUL, KANA

__all__ = [
    "DEFAULT_LANGUAGE",
    "IDENTIFIED_LANGUAGES",
    "NOUN_CAPITALISING",
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
IDENTIFIED_LANGUAGES = (
    "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "is", "pl", "cs", "sk", "sl", "hr",
    "sr", "bg", "ru", "uk", "el", "tr", "hu", "ro", "ca", "et", "lv", "lt", "id", "ms", "vi", "th", "zh",
    "ja", "ko", "ar", "he", "fa", "hi", "bn", "ta", "te", "ur",
)  # fmt: skip
# Languages that capitalise every noun: a capital marks a noun there, not a name.
NOUN_CAPITALISING = frozenset({"de", "lb"})
SAMPLE_CHARS = 6000  # raw prefix looked at: detection stays O(1) in the document size
_MODEL_CHARS = 2000  # cleaned characters given to the model
_MIN_LETTERS = 20
_MIN_CONFIDENCE = 0.6
_MIN_CJK = 2
_MIN_DISTINCT_WORDS = 3

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_FENCE = re.compile(r"^ {0,3}(```|~~~).*?(?:^ {0,3}\1[^\n]*$|\Z)", re.DOTALL | re.MULTILINE)
# Markup first, then whole tokens; every class stops at the next opener, so a failed match scans no
# character twice and removal stays linear even in a line without spaces.
_MARKUP = re.compile(
    r"`[^`\n]*`"  # inline code
    r"|<[^<>\n]*>"  # HTML tags, autolinks
    r"|\]\([^()\n]*\)"  # link targets
)
_TOKEN = re.compile(r"\S+")
_NOISY = re.compile(r"://|[_/\\=<>{}$@#|]|.\..")  # URLs, paths, identifiers, options, dotted names
_SCRIPT_RUN = re.compile(rf"(?P<han>[{HAN}]+)|(?P<kana>[{KANA}]+)|(?P<hangul>[{HANGUL}]+)")
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
_ALIASES = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "nb": "no", "nn": "no"}
# ISO 639-2 (bibliographic and terminological) and common 639-3 codes of languages that have a 639-1
# code; any other three-letter code (und, zxx, mul, ...) is unknown and gets the default.
_THREE_LETTER = {
    "eng": "en", "deu": "de", "ger": "de", "fra": "fr", "fre": "fr", "spa": "es", "ita": "it",
    "por": "pt", "nld": "nl", "dut": "nl", "swe": "sv", "dan": "da", "nor": "no", "nob": "no",
    "nno": "no", "fin": "fi", "isl": "is", "ice": "is", "pol": "pl", "ces": "cs", "cze": "cs",
    "slk": "sk", "slo": "sk", "slv": "sl", "hrv": "hr", "srp": "sr", "bos": "bs", "bul": "bg",
    "rus": "ru", "ukr": "uk", "bel": "be", "ell": "el", "gre": "el", "tur": "tr", "hun": "hu",
    "ron": "ro", "rum": "ro", "cat": "ca", "est": "et", "lav": "lv", "lit": "lt", "ind": "id",
    "msa": "ms", "may": "ms", "zsm": "ms", "vie": "vi", "tha": "th", "zho": "zh", "chi": "zh",
    "cmn": "zh", "jpn": "ja", "kor": "ko", "ara": "ar", "arb": "ar", "heb": "he", "fas": "fa",
    "per": "fa", "pes": "fa", "hin": "hi", "ben": "bn", "tam": "ta", "tel": "te", "urd": "ur",
    "ltz": "lb", "afr": "af", "eus": "eu", "baq": "eu", "glg": "gl", "gle": "ga", "cym": "cy",
    "wel": "cy", "sqi": "sq", "alb": "sq", "mkd": "mk", "mac": "mk", "hye": "hy", "arm": "hy",
    "kat": "ka", "geo": "ka", "nep": "ne", "mar": "mr", "guj": "gu", "kan": "kn", "mal": "ml",
    "pan": "pa", "sin": "si", "tgl": "tl", "swa": "sw", "yid": "yi", "epo": "eo", "lat": "la",
}  # fmt: skip


def language_code(value: Any, default: str = DEFAULT_LANGUAGE) -> str:
    """ISO 639-1 code of a language tag ("en-US", "zh_Hans", "DE", "deu" -> "en", "zh", "de", "de");
    ``default`` for anything else, unknown three-letter codes included."""
    if not isinstance(value, str):
        return default
    code = re.split(r"[-_.@\s]", value.strip().lower(), maxsplit=1)[0]
    if not code.isalpha() or not 2 <= len(code) <= 3:
        return default
    if len(code) == 3:  # pipelines, stop words and rules are keyed by 639-1 codes
        return _THREE_LETTER.get(code, default)
    return _ALIASES.get(code, code)


def detect_language(text: str, default: str = DEFAULT_LANGUAGE) -> str:
    """The language of ``text`` (ISO 639-1), or ``default`` when the text gives too little to tell."""
    return _detect(text[:SAMPLE_CHARS], default)


@functools.lru_cache(maxsize=2048)
def _detect(prefix: str, default: str) -> str:
    """Detection of one bounded prefix; cached, because callers ask again about the same chunks."""
    sample = _prose(prefix)
    letters = _letters(sample)
    by_script = _script(sample, letters)
    if by_script:
        return by_script
    if letters < _MIN_LETTERS or len(set(_WORD.findall(sample[:_MODEL_CHARS]))) < _MIN_DISTINCT_WORDS:
        return default  # too little (or too repetitive) to tell
    if _plainly_english(sample, letters):
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
    sample = text[:SAMPLE_CHARS]
    return _script(sample, _letters(sample))


def _prose(prefix: str) -> str:
    """The prefix without front matter, code, markup, URLs and identifiers."""
    sample = _FRONT_MATTER.sub("", prefix)
    sample = _FENCE.sub(" ", sample)
    sample = _MARKUP.sub(" ", sample)
    return _TOKEN.sub(_drop_noisy, sample)


def _drop_noisy(token: re.Match[str]) -> str:
    """One token, or a space if it is a URL, path, identifier, option or dotted name: one scan each."""
    return " " if _NOISY.search(token[0]) else token[0]


def _letters(sample: str) -> int:
    return sum(char.isalpha() for char in sample)


def _script(sample: str, letters: int) -> str | None:
    """The CJK language of a sample with ``letters`` letters, by counting each script's characters."""
    counts = {"han": 0, "kana": 0, "hangul": 0}
    for run in _SCRIPT_RUN.finditer(sample):
        counts[run.lastgroup or ""] += run.end() - run.start()
    han, kana, hangul = counts["han"], counts["kana"], counts["hangul"]
    cjk = han + kana + hangul
    if cjk < _MIN_CJK:
        return None
    if cjk < 0.25 * letters:  # a CJK character carries about as much as a Latin word
        return None
    if hangul >= 0.5 * cjk:
        return "ko"
    if kana >= 0.1 * cjk:  # Japanese writes particles and endings in kana; Chinese never does
        return "ja"
    return "zh"


def _plainly_english(sample: str, letters: int) -> bool:
    """ASCII words of which a good share are English function words: no model needed."""
    words = _ASCII_WORD.findall(sample)
    if len(words) < _ENGLISH_MIN_WORDS:
        return False
    if sum(len(word) for word in words) < 0.97 * letters:
        return False  # accented or non-Latin letters: let the model decide
    english = sum(word.lower() in _ENGLISH for word in words)
    return english >= _ENGLISH_MIN_SHARE * len(words)


_identifier_lock = threading.Lock()
_loaded: list[Any] = []  # the identifier, once loaded


def _identifier() -> Any:
    """py3langid's model from its wheel, normalised probabilities, restricted to
    ``IDENTIFIED_LANGUAGES``; loaded once per process (a thread asking while another loads it waits for
    that load, not loads it again)."""
    if not _loaded:
        with _identifier_lock:
            if not _loaded:
                from py3langid.langid import MODEL_FILE, LanguageIdentifier

                identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
                identifier.set_languages(
                    [code for code in IDENTIFIED_LANGUAGES if code in set(identifier.labels)]
                )
                _loaded.append(identifier)
    return _loaded[0]
