"""The language a persona, question or reference is written in: the language of the text it is about.

Each document node carries its detected (or declared) ``language``; a chunk node its own or its
document's. A scenario writes in the majority language of its chunks, a persona in that of its
cluster's documents, so a Chinese corpus gets Chinese questions without anyone asking. A caller may
force one language for everything (``check_language`` validates it). Prompts get the code with the
language's English name ("zh (Chinese)"): a model reads the name, the offline forms read the code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..kg.graph import KnowledgeGraph, NodeKind
from ..languages import WORDINGS
from ..text.language import DEFAULT_LANGUAGE, IDENTIFIED_LANGUAGES, detect_language, language_code

__all__ = [
    "LANGUAGE_NAMES",
    "OFFLINE_LANGUAGES",
    "check_language",
    "label_code",
    "language_label",
    "majority_language",
    "node_language",
    "nodes_language",
]

# Languages with offline templates (questions, styles, personas); any other writes English offline.
OFFLINE_LANGUAGES = ("en", *WORDINGS)
LANGUAGE_NAMES = {
    "en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
    "nl": "Dutch", "sv": "Swedish", "da": "Danish", "no": "Norwegian", "fi": "Finnish", "is": "Icelandic",
    "pl": "Polish", "cs": "Czech", "sk": "Slovak", "sl": "Slovenian", "hr": "Croatian", "sr": "Serbian",
    "bg": "Bulgarian", "ru": "Russian", "uk": "Ukrainian", "el": "Greek", "tr": "Turkish",
    "hu": "Hungarian", "ro": "Romanian", "ca": "Catalan", "et": "Estonian", "lv": "Latvian",
    "lt": "Lithuanian", "id": "Indonesian", "ms": "Malay", "vi": "Vietnamese", "th": "Thai",
    "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "ar": "Arabic", "he": "Hebrew", "fa": "Persian",
    "hi": "Hindi", "bn": "Bengali", "ta": "Tamil", "te": "Telugu", "ur": "Urdu",
}  # fmt: skip
assert set(LANGUAGE_NAMES) == set(IDENTIFIED_LANGUAGES)


def check_language(value: str | None) -> str | None:
    """None (detect per document), or the ISO 639-1 code of ``value`` ("zh", "zh-CN", "deu" -> "zh",
    "zh", "de"); a ValueError that lists the supported codes for anything else."""
    if value is None:
        return None
    code = language_code(value, default="") if isinstance(value, str) else ""
    if code not in LANGUAGE_NAMES:
        raise ValueError(
            f"unsupported language {value!r}: use an ISO 639-1 code among {', '.join(IDENTIFIED_LANGUAGES)} "
            f"(offline templates exist for {', '.join(OFFLINE_LANGUAGES)}; other languages are written in "
            "English offline), or None to follow each document's detected language"
        )
    return code


def language_label(code: str) -> str:
    """ "zh (Chinese)": the code a program reads and the name a model reads."""
    code = language_code(code)
    return f"{code} ({LANGUAGE_NAMES[code]})" if code in LANGUAGE_NAMES else code


def label_code(label: str) -> str:
    """The code of a ``language_label`` ("zh (Chinese)" -> "zh"); English for an empty label."""
    return language_code(label.split(" ", 1)[0]) if label.strip() else DEFAULT_LANGUAGE


def node_language(kg: KnowledgeGraph, node: str) -> str:
    """A node's language: its own ``language``, its document's, else detected from its text."""
    data = kg.get(node)
    code = data.get("language")
    if not code and data.get("kind") == NodeKind.CHUNK.value and data.get("document") in kg:
        code = kg.get(data["document"]).get("language")
    return language_code(code) if code else detect_language(str(data.get("text") or ""))


def majority_language(codes: Iterable[str], default: str = DEFAULT_LANGUAGE) -> str:
    """The most frequent code; a tie goes to the one met first (the first chunk of a scenario)."""
    counts = Counter(code for code in codes if code)
    return counts.most_common(1)[0][0] if counts else default


def nodes_language(kg: KnowledgeGraph, nodes: Sequence[str], forced: str | None = None) -> str:
    """``forced`` when given, else the majority language of ``nodes``."""
    return forced or majority_language(node_language(kg, node) for node in nodes)
