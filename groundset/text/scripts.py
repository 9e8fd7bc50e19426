"""Unicode ranges of the CJK scripts, as regex character-class bodies, defined once for every module:
language detection counts them, the Japanese tokenizer splits on them, sentence splitting and
phrases look for them. Use inside brackets: ``re.compile(rf"[{HAN}{KANA}]")``.
"""

from __future__ import annotations

__all__ = ["CJK", "HAN", "HANGUL", "HIRAGANA", "KANA", "KANJI", "KATAKANA"]

# CJK ideographs (extension A, unified, compatibility) and 々 〆 〇, which are written inside them.
HAN = "\u3005-\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Japanese compounds also take the small ヵ ヶ as counters ("3ヶ月"): one kanji run for the tokenizer.
KANJI = HAN + "\u30f5\u30f6"
HIRAGANA = "\u3041-\u309f"
# Full-width katakana with ー (U+30FC) and the iteration marks, the phonetic extensions, and half-width
# katakana with its sound marks. The middle dot ・ (U+30FB) is punctuation, so it is left out.
KATAKANA = "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f"
KANA = HIRAGANA + KATAKANA
# Hangul syllables, jamo and compatibility jamo.
HANGUL = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
CJK = HAN + KANA + HANGUL
