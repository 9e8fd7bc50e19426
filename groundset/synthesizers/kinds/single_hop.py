"""Single-hop specific questions: one chunk, one fact it states (or, without facts, one of its terms)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from ...kg.graph import KnowledgeGraph, NodeKind
from ...personas.language import node_language
from ...personas.nouns import CJK_LANGUAGES, cjk_share, reads_as_thing
from ...personas.roles import is_markup
from ...text.lexical import share_content
from ..base import Grounding, Synthesizer
from ..questions.offline import term_pattern
from ..questions.templates import asks_broadly
from ..scenarios.fact_index import FactIndex
from ..scenarios.facts import FACT_LANGUAGES, Fact

# How much each answer pattern is preferred when a chunk states several facts: specs are full of
# MUST rules, but a test set wants definitions, purposes, defaults and procedures too.
PATTERN_WEIGHTS = {"definition": 3.0, "purpose": 3.0, "default": 4.0, "value": 3.0, "procedure": 3.0,
                   "comparison": 3.0, "cause": 1.5, "constraint": 1.0}  # fmt: skip


class SingleHopSpecificQuerySynthesizer(Synthesizer):
    name = "single_hop_specific"
    fact_languages = FACT_LANGUAGES

    def shortage(self, kg: KnowledgeGraph) -> str:
        index = self.fact_index(kg)
        if self.writes_with_model or not index.facts:
            return ""
        facts = [f for found in index.facts.values() for f in found if index.unambiguous(f)]
        asked = sum(asked_offline(index, f) for f in facts)
        broad = f" (and {len(facts) - asked} that would only be asked 'what happens when you ...')"
        return (
            f"offline a question asks for a fact with one answer, and the docs state {asked} in "
            f"{len(kg.nodes(NodeKind.CHUNK))} passages{broad if len(facts) > asked else ''}; "
            "--llm writes questions of any passage"
        )

    def asks(self, index: FactIndex, fact: Fact) -> bool:
        """Whether this kind makes a question of ``fact``: one with one answer, and offline not a broad
        one (what readers rejected is the templates' wording)."""
        return index.unambiguous(fact) if self.writes_with_model else asked_offline(index, fact)

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        index = self.fact_index(kg)
        chunks = sorted(index.facts)
        rng.shuffle(chunks)
        offline = not self.writes_with_model
        asked = {c: [f for f in index.facts[c] if self.asks(index, f)] for c in chunks}
        # Offline, facts that name what their page is about first: readers kept 74% of such questions and
        # 55% of the others ("What header must senders include?" on the remote-write page never says it).
        passes = [asked]
        if offline:
            topical = {c: [on_page_topic(kg, c, f, index.scope) for f in found] for c, found in asked.items()}
            passes = [
                {
                    c: [f for f, on in zip(found, topical[c], strict=True) if on is wanted]
                    for c, found in asked.items()
                }
                for wanted in (True, False)
            ]
        # A subject asked once comes back only when every other of its pass has been asked: "What does
        # max_age do?" and "What does max_age default to?" in one set read as one question twice (FastAPI's
        # CORS options; both readers called them near-duplicates). On-topic facts still come first.
        asked_subjects: set[str] = set()
        for left in passes:
            again: dict[str, list[Fact]] = {chunk: [] for chunk in chunks}
            for chunk in by_document_rounds(kg, chunks, left):
                fresh = [f for f in left[chunk] if f.key() not in asked_subjects]
                if not fresh:
                    again[chunk] += left[chunk]
                    left[chunk].clear()
                    continue
                fact = pick_fact(fresh, rng)
                left[chunk].remove(fact)
                asked_subjects.add(fact.key())
                yield [chunk], [fact.focus], [fact]
            for chunk in by_document_rounds(kg, chunks, again):
                fact = pick_fact(again[chunk], rng)
                again[chunk].remove(fact)
                yield [chunk], [fact.focus], [fact]
        if not index.facts or self.writes_with_model:
            # A model can write a good question from any chunk; offline templates need a fact.
            yield from (g for g in _term_groundings(kg, rng) if g[0][0] not in index.facts)


def by_document_rounds(kg: KnowledgeGraph, chunks: list[str], left: dict[str, list[Fact]]) -> Iterator[str]:
    """The chunks to ask next, a round taking one chunk of every document (in ``chunks``' order, each
    document's chunks in turn) while ``left`` holds facts: a reference page of a hundred options, one
    chunk each, must not fill a test set that ten pages of prose share (one fact is taken per turn)."""
    queues: dict[str, list[str]] = {}
    for chunk in chunks:
        queues.setdefault(kg.get(chunk).get("document") or chunk, []).append(chunk)
    while True:
        taken = False
        for queue in queues.values():
            for _ in range(len(queue)):
                chunk = queue.pop(0)
                queue.append(chunk)
                if left[chunk]:
                    taken = True
                    yield chunk
                    break
        if not taken:
            return


def asked_offline(index: FactIndex, fact: Fact) -> bool:
    """Whether a fact makes a single-hop question: it has one answer, and it is not a broad "What happens
    when you ...?" (``asks_broadly``: fewer questions, not ones a reader would drop)."""
    return index.unambiguous(fact) and not asks_broadly(fact)


def on_page_topic(kg: KnowledgeGraph, chunk: str, fact: Fact, scope: str = "") -> bool:
    """Whether what the fact's question names (its subject, condition or goal) shares a word with what its
    page is about: the file's path, the page title, the section's headings (the product's name aside)."""
    data = kg.get(chunk)
    path = re.sub(r"[/_.\-]+", " ", re.sub(r"\.\w+$", "", data.get("source") or ""))
    title = kg.get(data["document"]).get("title") or "" if data.get("document") else ""
    topic = f"{path} {title} {data.get('section') or ''}"
    return share_content(fact.asked_about(), topic, "en", ignore=f"{scope} {_PAGE_WORDS}")


_PAGE_WORDS = "docs doc index readme guide guides overview introduction intro page content contents"


def pick_fact(facts: list[Fact], rng: random.Random) -> Fact:
    """One of a chunk's facts, drawn by ``PATTERN_WEIGHTS``."""
    weights = [PATTERN_WEIGHTS.get(f.pattern, 1.0) for f in facts]
    return rng.choices(facts, weights=weights, k=1)[0]


def _term_groundings(kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
    """Languages without fact rules: a chunk and one of its entities or key phrases."""
    chunks = [c for c in kg.nodes(NodeKind.CHUNK) if kg.get(c).get("entities") or kg.get(c).get("keyphrases")]
    rng.shuffle(chunks)
    for chunk in chunks:
        data = kg.get(chunk)
        text = data["text"].casefold()
        lang = node_language(kg, chunk)
        for term in ranked_terms(data, rng, lang):
            if _mentioned(term, data["text"], text, lang):
                yield [chunk], [term], []
                break


def _mentioned(term: str, text: str, folded: str, lang: str) -> bool:
    """The chunk has the term; outside English as a whole word ("Abst" of "Abständen" is not one)."""
    if lang == "en":
        return term.casefold() in folded
    pattern = term_pattern(term)
    return pattern is not None and pattern.search(text) is not None


def ranked_terms(data: dict, rng: random.Random, lang: str = "en") -> list[str]:
    """Entities, then multi-word keyphrases, then single words: specific terms make specific questions.

    In another language only terms that read as things qualify; in Chinese and Japanese, terms in
    the language's own script come first (then two-character words too): "超时时间", not "HTTP"."""
    entities = [t for t in data.get("entities", [])[:6] if len(t) >= 3]
    phrases = [t for t in data.get("keyphrases", [])[:6] if len(t) >= 3]
    tiers = [entities, [p for p in phrases if " " in p], [p for p in phrases if " " not in p]]
    if lang != "en":  # key phrases first: entities there are often inflected words or people's names
        tiers = [
            [t for t in tier if reads_as_thing(t, lang) and not is_markup(t)]
            for tier in tiers[1:] + tiers[:1]
        ]
    if lang in CJK_LANGUAGES:
        native = [
            t for t in [*data.get("entities", [])[:6], *data.get("keyphrases", [])[:8]] if cjk_share(t) >= 0.5
        ]
        native = [t for t in dict.fromkeys(native) if len(t) >= 2 and reads_as_thing(t, lang)]
        tiers = [[t for t in native if len(t) >= 3], [t for t in native if len(t) == 2], *tiers]
    ranked: list[str] = []
    for tier in tiers:
        tier = [t for t in tier if t not in ranked]
        rng.shuffle(tier)
        ranked += tier
    return ranked
