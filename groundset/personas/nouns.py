"""Whether a term reads as a thing (a noun phrase) in a language other than English.

"What is X?" and "works with X" need X to be a thing. Keyphrases of Chinese and Japanese text are
often verbs ("修改", "加载", "使う"), which read badly there. Chinese is checked with jieba's part of
speech tags (jieba is already the Chinese segmenter), Japanese by its script (verbs and adjectives end
in hiragana, nouns in kanji or katakana), German by its capitalised nouns, and the other languages
only by their stop words at the edges. English has its own, richer rules (``prompts``, ``roles``).
"""

from __future__ import annotations

import functools
import logging
import re

from ..text.nlp import stop_words
from ..text.scripts import CJK, HIRAGANA, KANA, KANJI

__all__ = ["CJK_LANGUAGES", "cjk_share", "reads_as_thing"]

CJK_LANGUAGES = frozenset({"zh", "ja"})  # written in their own script, without spaces

_CJK_CHAR = re.compile(rf"[{CJK}]")
_ENDS_IN_KANA_VERB = re.compile(rf"[{HIRAGANA}]$")
_JA_NOUN_END = re.compile(rf"[{KANJI}{KANA}A-Za-z0-9]$")
_NOUN_TAGS = ("n", "vn", "j", "eng")  # nouns (n, nr, nz, ...), verbal nouns, abbreviations, Latin
_CODE = re.compile(r"[A-Za-z0-9_.-]+")


def cjk_share(text: str) -> float:
    """Share of CJK characters among the letters of ``text`` (0 when it has none)."""
    letters = [char for char in text if char.isalpha()]
    return sum(bool(_CJK_CHAR.match(char)) for char in letters) / len(letters) if letters else 0.0


def reads_as_thing(term: str, lang: str) -> bool:
    """True when ``term`` reads as a noun phrase in ``lang`` (always True for English)."""
    text = " ".join(term.split())
    if not text or lang == "en":
        return bool(text)
    if _CODE.fullmatch(text):
        return True  # a name or identifier: "HTTP", "listen_address"
    if lang == "zh":
        return _chinese_noun(text)
    if lang == "ja":
        return _JA_NOUN_END.search(text) is not None and not _ENDS_IN_KANA_VERB.search(text)
    words = text.split(" ")
    stops = stop_words(lang)
    if words[0].casefold() in stops or words[-1].casefold() in stops:
        return False
    if lang == "de":
        return words[-1][:1].isupper() or not words[-1].isalpha()
    return len(words[-1]) >= 3


@functools.lru_cache(maxsize=4096)
def _chinese_noun(text: str) -> bool:
    """The last word is a noun (a verbal noun only after another word: "数据压缩"), an abbreviation or
    a Latin name, by jieba's tagger."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    tags = [pair.flag for pair in jieba.posseg.lcut(text) if pair.word.strip()]
    if not tags or not tags[-1].startswith(_NOUN_TAGS):
        return False
    return len(tags) > 1 or tags[0] != "vn"  # a lone verbal noun is an action: "启动", "检查"
