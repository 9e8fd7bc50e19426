"""Offline personas in languages other than English: a role and a topic of the cluster, in its words.

The role is picked as in English (``roles.choose_role``): cue words in the cluster's topics and
summaries, here the language's own cues (``groundset.languages``) besides the English ones. Topics are the
cluster's themes, entities and keyphrases that read as things in the language (``nouns``); in Chinese
and Japanese those written in the language's script come first, so a name reads "负责告警规则的可靠性
工程师" rather than "... HTTP ...". Everything is a function of the input, so reruns agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..core.hashing import stable_hash
from ..languages import LANGUAGES
from ..languages.personas import PersonaWords
from .model import Persona
from .nouns import CJK_LANGUAGES, cjk_share, reads_as_thing
from .roles import FALLBACK_ROLE, ROLE_CUES, cue_count, is_markup

__all__ = ["local_persona", "local_role"]

# Themes, entities, keyphrases; entities weigh less than in English: outside English the extractor's
# entities are mostly capitalised words (every German noun, a sentence's first word, people's names).
_WEIGHTS = (1.0, 0.4, 0.6)
_SUMMARY_WEIGHT = 0.5
_MIN_SCORE = 0.25
_MAX_WORDS = 4
_CJK_CHARS = (2, 12)  # a CJK topic's length bounds, in characters
_LATIN_EDGE = re.compile(r"[A-Za-z0-9_]")


def local_persona(
    lang: str,
    themes: Sequence[str],
    summaries: Sequence[str],
    entities: Sequence[str] = (),
    keyphrases: Sequence[str] = (),
    *,
    scope: str = "",
) -> Persona | None:
    """The persona of a cluster written in ``lang``; None for a language without wording (English).
    ``scope``: the product the documents are about, which names the role ("Entwickler für Vite"): a
    cluster's first topic made names like "Betriebsingenieur für Typ" out of a config page's "Typ:" line."""
    words = LANGUAGES[lang].personas if lang in LANGUAGES else None
    if words is None:
        return None
    text = " ".join(summaries)
    whole = [e for e in entities if not text or re.search(rf"(?<!\w){re.escape(e)}(?!\w)", text)]
    topics = local_topics(lang, themes, whole, keyphrases)  # no "Garc" cut from "García"
    if not topics:
        return Persona(name=words.fallback_name, role_description=words.fallback_description)
    sources = zip(_WEIGHTS, (themes, entities, keyphrases), strict=True)
    weighted = [
        (str(t), w / (1 + 0.3 * r)) for w, ts in sources for r, t in enumerate(ts) if not is_markup(t)
    ]
    role = local_role(words, [*weighted, *((s, _SUMMARY_WEIGHT) for s in summaries)])
    pick = int(stable_hash([lang, role, *(t.casefold() for t in topics[:4])], length=8), 16)
    noun = words.roles[role]
    name = words.names[role].format(role=noun, topic=_padded(lang, scope or topics[0]))
    quoted = [words.quote.format(_padded(lang, t)) for t in topics[:2]]
    names = (
        quoted[0] if len(quoted) == 1 else words.separator.join(quoted[:-1]) + words.conjunction + quoted[-1]
    )
    if len(topics) > 2:
        template = words.described[pick % len(words.described)]
        extra = words.quote.format(_padded(lang, topics[2]))
    else:
        template, extra = words.described_plain[pick % len(words.described_plain)], ""
    description = template.format(role=noun, names=names, extra=extra)
    return Persona(name=_tidy(name), role_description=_tidy(description))


def local_role(words: PersonaWords, weighted_texts: Sequence[tuple[str, float]]) -> str:
    """The role whose cues (the language's and the English ones) weigh most; the generic one when none
    is clear."""
    scores = dict.fromkeys(ROLE_CUES, 0.0)
    for text, weight in weighted_texts:
        folded = text.casefold()
        for role in scores:
            found = cue_count(role, text) + sum(
                folded.count(cue.casefold()) for cue in words.cues.get(role, ())
            )
            scores[role] += weight * found
    best = max(scores, key=lambda role: scores[role])  # the first role wins a tie
    return best if scores[best] >= _MIN_SCORE else FALLBACK_ROLE


def local_topics(
    lang: str, themes: Sequence[str], entities: Sequence[str], keyphrases: Sequence[str]
) -> list[str]:
    """Usable topics, strongest first: a topic found in several sources adds up."""
    merged: dict[str, list] = {}  # key -> [text, score, order]
    order = 0
    for weight, source in zip(_WEIGHTS, (themes, entities, keyphrases), strict=True):
        for rank, raw in enumerate(source):
            text = " ".join(str(raw).split()).strip(" .,;:!?\"'()")
            order += 1
            if not _usable(text, lang):
                continue
            score = weight / (1 + 0.3 * rank)
            if lang in CJK_LANGUAGES:
                score *= 1.5 if cjk_share(text) >= 0.5 else 0.4  # "告警规则" over "HTTP"
            kept = merged.setdefault(text.casefold(), [text, 0.0, order])
            kept[1] += score
    ranked = sorted(merged.values(), key=lambda k: (-round(k[1], 9), k[2]))
    return [text for text, _, _ in ranked]


def _usable(text: str, lang: str) -> bool:
    if not text or is_markup(text) or not reads_as_thing(text, lang):
        return False
    if lang in CJK_LANGUAGES and cjk_share(text) > 0:
        return _CJK_CHARS[0] <= len(text) <= _CJK_CHARS[1]
    return len(text) >= 3 and len(text.split()) <= _MAX_WORDS


def _padded(lang: str, topic: str) -> str:
    """Chinese sets Latin words off with spaces; Japanese does not."""
    if lang != "zh":
        return topic
    return f"{' ' if _LATIN_EDGE.match(topic) else ''}{topic}{' ' if _LATIN_EDGE.match(topic[-1]) else ''}"


def _tidy(text: str) -> str:
    text = re.sub(r"\s+(?=[，。、])|(?<=[，。、])\s+", "", text)
    return " ".join(text.split())
