"""Double, comparative and conversational questions offline in the languages without facts (zh, ja, de,
fr, es), from their term-based evidence, as single-hop and multi-hop questions are written there.

English has answer-bearing facts; these languages have terms (a chunk's entities and key phrases) and
the sentences that mention them. So a double question is two single-hop questions (the ``local_question``
templates) about a term of each chunk, joined by the language's connector ("…，以及…？", "…, und …?");
a comparison asks how two documents describe a term both name ("X 在 A 和 B 中有什么不同？"); and a
conversation opens with the term's question, then asks for the sentences about it that no earlier
turn used, leaning back with the language's pronoun or ellipsis ("它的默认值是多少？", "Und …?"). Each
reference is verbatim evidence, one line per chunk or turn. The wording is in ``groundset.languages``
(``QuestionWording``: ``joined``, ``compare``, ``follow_ups``, ...); a language without it gets none of these
kinds offline.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...kg.graph import KnowledgeGraph, NodeKind
from ...languages import LANGUAGES, QuestionWording, wording
from ...personas.language import node_language
from ...personas.nouns import CJK_LANGUAGES, cjk_share, reads_as_thing
from ...personas.roles import is_markup
from ..questions.answer_first import fact_question, fact_reference
from ..questions.local import evidence_case, local_question, local_size, local_style, padded, tidy
from ..questions.offline import answer_sentences, term_pattern
from ..scenarios.facts import FACT_LANGUAGES, Fact

__all__ = [
    "ChunkTerms",
    "comparison_question_local",
    "double_question_local",
    "evidence_lines",
    "follow_up_question",
    "local_comparison",
    "local_double",
    "local_wording",
    "mid_sentence",
    "native_terms",
    "term_evidence",
    "turn_evidence",
    "writes_offline",
]

MAX_TERMS = 16  # entities and key phrases looked at per chunk
_MAX_EVIDENCE = 8
_EVIDENCE_CHARS = 4000  # a later turn reads every sentence about the term, not the first 400 characters
_PER_TURN = 2  # sentences a later turn asks for
_EVERYWHERE = 0.8  # the share of chunks listing a term that makes it the corpus's own name or topic
_COMMON = 3  # chunks listing a two-character Chinese or Japanese word that make it a common word
_LATIN_EDGE = re.compile(r"[A-Za-z0-9_`]")


def local_wording(code: str | None) -> QuestionWording | None:
    """The wording of ``code`` when it has these kinds' templates (zh, ja, de, fr, es), else None."""
    words = wording(code or "")
    return words if words is not None and words.joined and words.follow_ups else None


def writes_offline(code: str | None) -> bool:
    """Whether these kinds have offline templates for language ``code`` (None: each chunk's own)."""
    return code in (None, "en") or local_wording(code) is not None


# -- terms and their evidence --------------------------------------------------------------------------


def term_evidence(term: str, context: str) -> list[str]:
    """Every prose sentence of ``context`` about ``term`` (a heading alone grounds nothing), in order."""
    return answer_sentences(
        term, context, max_sentences=_MAX_EVIDENCE, max_chars=_EVIDENCE_CHARS, prose_only=True
    )


def native_terms(
    kg: KnowledgeGraph, chunk: str, scope: str = "", frequency: Counter[str] | None = None
) -> list[str]:
    """The terms of ``chunk`` a question in its language can be about, best first: entities and key phrases
    that read as things (in Chinese and Japanese written in that script; in French and Spanish met after
    an article at least once: "les règles", not "collectées"), not the product's name nor a term listed
    in nearly every chunk (``frequency``: chunks per term), with prose about them. Terms with two or more
    sentences first (a follow-up needs them), then the rarest in the corpus (in Chinese and Japanese
    two-character words last)."""
    data = kg.get(chunk)
    lang = node_language(kg, chunk)
    words = local_wording(lang)
    if words is None:
        return []
    text = data["text"]
    listed = [*(data.get("entities") or [])[:MAX_TERMS], *(data.get("keyphrases") or [])[:MAX_TERMS]]
    frequency = frequency or Counter()
    everywhere = max(_COMMON, _EVERYWHERE * len(kg.nodes(NodeKind.CHUNK)))
    found: dict[str, int] = {}
    for term in dict.fromkeys(" ".join(t.split()) for t in listed):
        short = len(term) < (2 if lang in CJK_LANGUAGES else 3)
        if short or term.casefold() == scope.casefold() or is_markup(term) or not reads_as_thing(term, lang):
            continue
        if frequency[term.casefold()] >= everywhere:
            continue  # listed in (almost) every chunk: what the corpus is about, not a subject in it
        if lang in CJK_LANGUAGES and cjk_share(term) < 0.5:
            continue  # "HTTP" or "lib" in Chinese text: a poor subject for a Chinese question
        if lang in CJK_LANGUAGES and len(term) < 3 and _common(term, frequency):
            continue  # "数据": listed all over the corpus, or inside "数据目录": no subject of its own
        if words.articles and " " not in term and not _after_article(term, text, words.articles):
            continue
        count = len(term_evidence(term, text))
        if count:
            found[term] = count
    # In Chinese and Japanese a two-character word is often generic ("数据"): longer terms first.
    vague = {t for t in found if lang in CJK_LANGUAGES and len(t) < 3}
    return sorted(found, key=lambda t: (t in vague, found[t] < 2, frequency[t.casefold()], -len(t), t))


def _common(word: str, frequency: Counter[str]) -> bool:
    """A two-character Chinese or Japanese word that is listed in many chunks or is part of a longer term
    (its sentences are then often about that term: "数据目录", not "数据")."""
    folded = word.casefold()
    return frequency[folded] >= _COMMON or any(folded in term and term != folded for term in frequency)


class ChunkTerms:
    """``native_terms`` of each chunk, found when first asked: a large corpus is asked about a few."""

    def __init__(self, kg: KnowledgeGraph, scope: str = "", frequency: Counter[str] | None = None) -> None:
        self.kg, self.scope, self.frequency = kg, scope, frequency
        self._found: dict[str, list[str]] = {}

    def __call__(self, chunk: str) -> list[str]:
        if chunk not in self._found:
            self._found[chunk] = native_terms(self.kg, chunk, self.scope, self.frequency)
        return self._found[chunk]


def _after_article(term: str, text: str, articles: Sequence[str]) -> bool:
    pattern = term_pattern(term)
    if pattern is None:
        return False
    joined = "|".join(re.escape(a) for a in sorted(articles, key=len, reverse=True))
    return re.search(rf"(?<!\w)(?:{joined})\s*(?:{pattern.pattern})", text, re.IGNORECASE) is not None


def evidence_lines(terms: Sequence[str], contexts: Sequence[str]) -> str:
    """One line per context: its prose sentences (verbatim) about its term (``terms[i]``, else the first)."""
    lines = [
        " ".join(answer_sentences(term, context, prose_only=True))
        for term, context in zip(_per_context(terms, contexts), contexts, strict=True)
    ]
    return "\n".join(dict.fromkeys(line for line in lines if line.strip()))


# -- double and comparative questions ------------------------------------------------------------------


def double_question_local(
    words: QuestionWording,
    halves: Sequence[tuple[str, Sequence[str]]],
    *,
    persona: str = "",
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
    scope: str = "",
) -> str:
    """Two single-hop questions in one, each about (term, evidence) of its half, joined by the
    language's connector; a search query is both halves' keywords."""
    terms = [term for term, _ in halves]
    if style == "web_search":
        return " ".join(
            local_question(words, "single_hop_specific", [t], e, style="web_search", seed=seed)
            for t, e in halves
        )
    cores: list[str] = []
    for i, (term, evidence) in enumerate(halves):
        for attempt in range(4):  # the second half in other words than the first, when it can be
            core = local_question(
                words, "single_hop_specific", [term], evidence, length="short", seed=seed + 7 * i + attempt
            )
            earlier = zip(cores, halves[:i], strict=True)
            if not any(_skeleton(core, term) == _skeleton(c, t) for c, (t, _) in earlier):
                break
        cores.append(core)
    first, second = (_half(words, core, i) for i, core in enumerate(cores[:2]))
    closed = bool(words.closed_endings) and any(words.body(c).endswith(words.closed_endings) for c in cores)
    if words.code == "zh" and _LATIN_EDGE.match(second[:1]):
        second = f" {second}"  # "以及 HTTP 探针…"
    core = tidy(words, (words.joined_apart if closed else words.joined).format(a=first, b=second))
    question = local_size(words, core, length, persona=persona, seed=seed, scope=scope)
    protect = [t for t in [*terms, scope] if t and t.casefold() in question.casefold()]
    return local_style(words, question, style, seed=seed, protect=protect)


def _half(words: QuestionWording, core: str, position: int) -> str:
    """A single question as half of a double one: no question marks; the second half mid-sentence."""
    body = words.body(core).lstrip("¿")
    return mid_sentence(words, body) if position else body


def mid_sentence(words: QuestionWording, text: str) -> str:
    """``text`` inside a sentence: its first word in lower case ("À quoi" -> "à quoi"), unless that word
    is a name or an acronym ("HTTP"); unchanged in a language without capitals."""
    first = re.match(r"[^\s'’]+", text)
    if not words.spaced or first is None or not (len(first[0]) == 1 or first[0][1:].islower()):
        return text
    return text[:1].lower() + text[1:]


def _skeleton(question: str, term: str) -> str:
    """A question without its term: two halves with one skeleton ask in one template."""
    return question.replace(term, "")


def comparison_question_local(
    words: QuestionWording,
    terms: Sequence[str],
    *,
    persona: str = "",
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
    scope: str = "",
) -> str:
    """``terms``: [x, A, B] for one term x as documents A and B describe it, or [x, y] for two terms."""
    names = [" ".join(t.split()) for t in terms]
    rng = random.Random(f"comparative|{words.code}|{seed}|{'|'.join(names)}")
    across = len(names) >= 3
    if style == "web_search":
        a, b = (names[1], names[2]) if across else (names[1], "")
        return " ".join(words.search_compare.format(term=names[0], a=a, b=b).split()).lower()
    if across:
        a, b = (words.quote.format(name) for name in names[1:3])
        fill = {"term": padded(words, names[0]), "a": a, "b": b}
        templates = words.compare
    else:
        fill = {"term": padded(words, names[0]), "other": padded(words, names[1])}
        templates = words.contrast
    core = tidy(words, rng.choice(templates).format(**fill))
    question = local_size(words, core, length, persona=persona, seed=seed, scope=scope)
    protect = [t for t in [*names, scope] if t and t.casefold() in question.casefold()]
    return local_style(words, question, style, seed=seed, protect=protect)


def local_double(
    words: QuestionWording, facts: Sequence[Fact], terms: Sequence[str], contexts: Sequence[str], **how: Any
) -> tuple[str, str]:
    """(question, reference) of a double question: a half per context about its term (``terms[i]``, else
    the first) and its evidence; with two facts of the language, its fact templates; with two English
    facts asked in a forced language, a half per fact.
    ``how``: persona, style, length, seed, scope."""
    if len(facts) >= 2 and all(fact.lang == words.code for fact in facts[:2]):  # the language's own facts
        fields = {k: v for k, v in how.items() if k in ("style", "length", "seed", "scope")}
        return fact_question("double", facts[:2], **fields), fact_reference(facts)
    if len(facts) >= 2:
        halves = [(fact.focus, [fact.reference]) for fact in facts[:2]]
        return double_question_local(words, halves, **how), fact_reference(facts)
    halves = [
        (term, answer_sentences(term, context, prose_only=True))
        for term, context in zip(_per_context(terms, contexts), contexts, strict=True)
    ]
    return double_question_local(words, halves, **how), evidence_lines(terms, contexts)


def local_comparison(
    words: QuestionWording,
    facts: Sequence[Fact],
    terms: Sequence[str],
    contexts: Sequence[str],
    labels: Sequence[str] = (),
    **how: Any,
) -> tuple[str, str]:
    """(question, reference) of a comparison: ``terms`` [x, A, B] (one term, two documents) or [x, y]
    (two subjects, one fact each); the reference is the facts' sentences, else each context's about x."""
    sides = list(terms) if len(terms) >= 2 else [*terms, *labels][:3]
    question = comparison_question_local(words, sides, **how)
    return question, fact_reference(facts) if facts else evidence_lines(terms[:1], contexts)


def _per_context(terms: Sequence[str], contexts: Sequence[str]) -> list[str]:
    return [terms[min(i, len(terms) - 1)] for i in range(len(contexts))]


# -- conversations -------------------------------------------------------------------------------------


def turn_evidence(term: str, contexts: Sequence[str]) -> list[list[str]]:
    """Each turn's evidence about ``term``: the first turn's is its single-hop question's (the best
    sentences of its context); each later turn's, up to two sentences of its context that no earlier turn
    used (empty when none is left)."""
    groups: list[list[str]] = []
    used: list[str] = []
    for i, context in enumerate(contexts):
        if i == 0:
            found = answer_sentences(term, context, prose_only=True)
        else:
            found = [s for s in term_evidence(term, context) if not _used(s, used)][:_PER_TURN]
        groups.append(found)
        used += found
    return groups


def _used(sentence: str, used: Sequence[str]) -> bool:
    """Whether an earlier turn gave ``sentence`` (or its cut form, "…" marks dropped)."""
    return any(sentence == u or (u.strip(".…") and u.strip(".…") in sentence) for u in used)


def follow_up_question(
    words: QuestionWording,
    term: str,
    evidence: Sequence[str],
    rng: random.Random,
    *,
    asked: Sequence[str] = (),
    avoid: str = "",
) -> str:
    """A later turn asking what ``evidence`` says about ``term`` without naming it ("它的默认值是多少？"):
    a template of the evidence's case (unless that case is ``avoid``, the opening's), else a general one;
    never a question already ``asked``, never one that happens to contain the term."""
    case = evidence_case(words, term, evidence)
    pools = [words.follow_ups.get(case, ()) if case != avoid else (), words.follow_ups.get("generic", ())]
    pattern = term_pattern(term)
    for pool in pools:
        options = [q for q in pool if q not in asked and not (pattern and pattern.search(q))]
        if options:
            return rng.choice(options)
    return ""


def local_chunks(kg: KnowledgeGraph, rng: random.Random) -> tuple[dict[str, str], list[str]]:
    """Each chunk's language, and the chunks written in a language that asks about terms offline
    (``asks_terms``), in a seeded random order: where the term-based kinds start offline."""
    language = {c: node_language(kg, c) for c in kg.nodes(NodeKind.CHUNK)}
    chunks = sorted(c for c, lang in language.items() if asks_terms(lang))
    rng.shuffle(chunks)
    return language, chunks


def asks_terms(lang: str) -> bool:
    """Whether offline questions in ``lang`` are asked about a term its contexts explain: a language with
    templates but no fact rules. English and German have fact rules; their term-based two-chunk and
    conversational questions were nonsense to readers (German: 0 of 6 comparisons, 1 of 6 conversations,
    double questions such as "was sollte ich über Dezember wissen, und welche Rolle spielt Juli")."""
    return lang not in FACT_LANGUAGES and local_wording(lang) is not None


def fact_language_shortage(kg: KnowledgeGraph, kind: str) -> str:
    """Why a kind without fact templates in the corpus's language wrote little offline ("" otherwise)."""
    counts = Counter(node_language(kg, c) for c in kg.nodes(NodeKind.CHUNK))
    lang = counts.most_common(1)[0][0] if counts else "en"
    if lang == "en" or lang not in FACT_LANGUAGES:
        return ""
    name = LANGUAGES[lang].name if lang in LANGUAGES else lang
    return (
        f"offline, {kind} questions in {name} are written only from facts its templates can ask, and a "
        f"term-based question in {name} reads as nonsense; --llm writes them from any passages"
    )
