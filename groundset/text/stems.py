"""Snowball stems per language, so "keeps"/"keep" and "deleted"/"deletes" count as one word."""

from __future__ import annotations

import functools
from typing import Any

import snowballstemmer

_STEMMERS = {
    "de": "german", "fr": "french", "es": "spanish", "it": "italian", "pt": "portuguese", "nl": "dutch",
    "sv": "swedish", "da": "danish", "no": "norwegian", "fi": "finnish", "ru": "russian",
    "hu": "hungarian", "ro": "romanian", "tr": "turkish", "ca": "catalan", "el": "greek",
    "id": "indonesian", "lt": "lithuanian", "ar": "arabic", "ta": "tamil", "sr": "serbian",
    "eu": "basque", "ga": "irish", "hi": "hindi", "ne": "nepali", "cs": "czech", "pl": "polish",
    "et": "estonian", "fa": "persian", "hy": "armenian",
}  # fmt: skip


@functools.lru_cache(maxsize=65536)
def stem(word: str, lang: str = "en") -> str:
    """Snowball stem of ``word`` in its language; the word itself where Snowball has no stemmer."""
    stemmer = _stemmer(lang)
    return stemmer.stemWord(word) if stemmer is not None else word


@functools.cache
def _stemmer(lang: str) -> Any:
    """The language's Snowball stemmer, or None (no stemming) for languages Snowball lacks."""
    name = "english" if lang == "en" else _STEMMERS.get(lang)
    return snowballstemmer.stemmer(name) if name in snowballstemmer.algorithms() else None
