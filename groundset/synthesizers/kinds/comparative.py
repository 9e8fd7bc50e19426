"""Comparative questions: two sides, each stated in a chunk of another document, that the question names.

"How does X differ from Y?" needs both chunks, and a retriever that brings back one of them gives
half an answer. The two chunks are in different documents joined by an ``entity_overlap`` edge. With
facts, first the pairs ``fact_pairs.comparable_pairs`` finds (two subjects of one theme, defined or
explained) whose chunks are so joined; then, for each such edge, its closest pair of statements of
one pattern, the closest edges first:

- two subjects of one kind stated alike (two definitions, two rules: "integer numbers must not have
  a decimal point" and "floating point numbers must ..."), close in meaning but not one statement
  twice and not one subject inside the other;
- one subject as the two documents describe it (OpenMetrics 1.0 and 2.0 on exemplars): the question
  names the documents by their titles.

The reference is each side's fact, one line per chunk. With a model any such edge works: a term both
chunks name (the rarest in the corpus, never the product's name), as each document describes it.

Offline in Chinese, Japanese, German, French and Spanish (no facts there) such an edge between two
chunks of one language gives a term of both (``term_based.native_terms``: a thing in the language,
the rarest first), asked as the two documents describe it ("X 在 A 和 B 中有什么不同？"); the reference
is each chunk's sentences about it, one line per chunk; each edge gives up to two terms, in rounds.
Offline, a test set in a language without such templates gets no comparative questions.

Its prompt names both sides; offline, English questions are "How do X and Y differ?" or, for one
subject as two documents describe it, "How do A and B differ on X?".
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence

from ...core.prompts import Prompt
from ...kg.graph import EdgeKind, KnowledgeGraph
from ...personas.language import node_language, nodes_language
from ...samples.testset import TestsetSample
from ...text.lexical import folded, stemmed_words
from ...text.plaintext import plain_text
from ..base import Grounding
from ..pipeline.quality import QualityGate
from ..questions.prompts import GeneratedSample
from ..questions.templates import compare_question, noun_phrase
from ..scenarios.fact_index import FactIndex
from ..scenarios.fact_pairs import KINSHIP, SAME_STATEMENT, SENTENCE_SENSE, Together, comparable_pairs
from ..scenarios.facts import Fact
from ..scenarios.graph_cache import GraphCache
from ..scenarios.page_name import versions_of_one
from ..scenarios.scenario import PersonaPool, Scenario
from .double import shared_terms, term_frequency
from .pairs import (
    LANGUAGE_RULE,
    ROLE,
    PairInput,
    TwoPartSynthesizer,
    finish_question,
    how_fields,
    kind_task,
    offline_pair,
    term_and_sides,
)
from .term_based import (
    ChunkTerms,
    asks_terms,
    fact_language_shortage,
    local_comparison,
    term_evidence,
    writes_offline,
)

__all__ = [
    "ComparativePrompt",
    "ComparativeQuerySynthesizer",
    "comparison_question",
    "cross_document_links",
    "document_label",
]

COMPARED = frozenset({"definition", "purpose", "constraint", "default", "value"})
DEFINING = frozenset({"definition", "purpose"})
RULE_SENSE = 0.5  # two rules about different subjects this close are rules of one kind
MAX_PER_SUBJECT = 2
TERMS_PER_EDGE = 2  # term-based comparisons an edge gives, in rounds (every edge's first, then seconds)
ONE_SIDE = "reference does not state both sides"
_BRACKETED = re.compile(r"\s*[\[(][^\])]*[\])]\s*")

Side = tuple[str, Fact]


class ComparativePrompt(Prompt[PairInput, GeneratedSample]):
    name = "synth.comparative"
    instruction = (
        ROLE + "This question asks for a comparison. The terms name the sides: two subjects (one per "
        "context), or one subject followed by the two documents that describe it. Follow the task and write "
        "as the persona would ask; the question must name both sides and need both contexts. Then write the "
        "reference answer in two parts on two lines, one per context in their order, each saying what that "
        "context states about its side (1 or 2 sentences each, no outside knowledge, no claim that neither "
        "context makes). When facts are given, base each part on its fact. " + LANGUAGE_RULE
    )
    examples = [
        (
            PairInput(
                kind="comparative",
                task=kind_task("comparative", "perfect_grammar", "short"),
                persona="SRE: keeps alerting healthy for an on-call rotation.",
                terms=["counter", "gauge"],
                style="perfect_grammar",
                length="short",
                contexts=[
                    "A counter is a cumulative metric whose value can only increase or be reset to zero.",
                    "A gauge is a metric that represents a single value that can go up and down.",
                ],
            ),
            GeneratedSample(
                question="How does a counter differ from a gauge?",
                reference="A counter is cumulative: it only increases or resets to zero.\n"
                "A gauge holds a single value that can go up and down.",
            ),
        )
    ]

    def offline(self, data: PairInput) -> GeneratedSample:
        sample = offline_pair(
            data,
            self.name,
            lambda words: local_comparison(
                words, data.facts, data.terms, data.contexts, data.labels, **how_fields(data)
            ),
            lambda: comparison_question(
                data.facts,
                terms=data.terms,
                style=data.style,
                length=data.length,
                seed=data.seed,
                scope=data.scope,
            ),
        )
        return sample.model_copy(update={"reference": said_by_side(sample.reference, data.facts, data.terms)})


def said_by_side(reference: str, facts: Sequence[Fact], terms: Sequence[str]) -> str:
    """One subject as two documents put it: each line says whose it is ("OpenMetrics 1.0: Exemplars MUST
    ... MAY have a timestamp." / "OpenMetrics 2.0: ... MUST have a timestamp."); unlabelled, blind readers
    read the two lines as the docs contradicting themselves."""
    sides, lines = _side_labels(facts, terms), reference.split("\n")
    if not sides or len(lines) != 2:
        return reference
    return "\n".join(f"{side}: {line}" for side, line in zip(sides, lines, strict=True))


def _without_sides(reference: str, facts: Sequence[Fact], terms: Sequence[str]) -> str:
    """``reference`` without the labels ``said_by_side`` put before its lines (as it is without them)."""
    sides, lines = _side_labels(facts, terms), reference.split("\n")
    labelled = len(lines) == 2 and all(
        line.startswith(f"{s}: ") for s, line in zip(sides, lines, strict=False)
    )
    if not sides or not labelled:
        return reference
    return "\n".join(line[len(side) + 2 :] for side, line in zip(sides, lines, strict=True))


def _side_labels(facts: Sequence[Fact], terms: Sequence[str]) -> list[str]:
    """The two documents a comparison of one subject names as its sides (``terms[1:3]``), else none."""
    return list(terms[1:3]) if len(facts) >= 2 and len(terms) >= 3 else []


def comparison_question(
    facts: Sequence[Fact],
    *,
    terms: Sequence[str],
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
    scope: str = "",
) -> str:
    """A question comparing two sides. ``terms``: [x, y] for two subjects (one fact each), or [x, A, B]
    for one subject x as documents A and B describe it (facts optional)."""
    rng = random.Random(f"comparative|{seed}|{'|'.join(f.reference for f in facts)}|{'|'.join(terms)}")
    if len(terms) >= 3 or len(facts) < 2:  # one subject, two documents
        x = _subject(facts[0]) if facts else terms[0]
        _, a, b = term_and_sides(terms, ())
        if style == "web_search":
            return f"{x} {a} vs {b}".lower()
        core = rng.choice(
            (
                f"How do {a} and {b} differ on {x}?",
                f"What do {a} and {b} each say about {x}?",
                f"How does {a} describe {x} compared with {b}?",
            )
        )
        protect = [x, a, b]
    else:
        first, second = facts[0], facts[1]
        x, y = noun_phrase(first, bare=True), noun_phrase(second, bare=True)
        if style == "web_search":
            rules = " rules" if first.pattern == "constraint" else ""
            return rng.choice((f"{x} vs {y}{rules}", f"{x} {y} difference")).lower()
        if first.pattern in DEFINING and second.pattern in DEFINING:
            core = compare_question(first, second, rng)
        elif first.pattern == "constraint":
            core = rng.choice(
                (
                    f"How do the rules for {x} differ from those for {y}?",
                    f"What is required of {x}, compared with {y}?",
                    f"How do the requirements for {x} and {y} compare?",
                )
            )
        elif first.pattern == "default":
            core = f"How do the defaults of {x} and {y} differ?"
        else:
            core = f"How does {x} compare with {y}?"
        protect = [x, y, first.focus, second.focus]
    return finish_question(core, protect, style=style, length=length, seed=seed, scope=scope)


def _subject(fact: Fact) -> str:
    """The subject mid-sentence, with "the" kept ("differ on the complete set of labels") and "a" not."""
    phrase = noun_phrase(fact)
    return phrase if phrase.startswith("the ") else noun_phrase(fact, bare=True)


class ComparativeQuerySynthesizer(TwoPartSynthesizer):
    name = "comparative"
    prompt_class = ComparativePrompt
    missing_part = ONE_SIDE

    def shortage(self, kg: KnowledgeGraph) -> str:
        return "" if self.writes_with_model else fact_language_shortage(kg, self.name)

    async def check(self, gate: QualityGate, sample: TestsetSample, scenario: Scenario) -> str | None:
        """The gate reads the sides' statements: the labels ``said_by_side`` put before them name the
        documents, which their own text need not say."""
        said = _without_sides(sample.reference, scenario.facts, scenario.terms)
        return await super().check(gate, sample.model_copy(update={"reference": said}), scenario)

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        index = self.fact_index(kg)
        links = cross_document_links(kg)
        used: dict[str, int] = defaultdict(int)
        asked: set[frozenset[str]] = set()

        def fresh(a: Side, b: Side) -> bool:
            sides = frozenset((a[1].reference, b[1].reference))
            keys = (a[1].key(), b[1].key())
            subjects = frozenset(keys) if keys[0] != keys[1] else sides  # two subjects: compared once
            if sides in asked or subjects in asked or any(used[k] >= MAX_PER_SUBJECT for k in set(keys)):
                return False
            asked.update((sides, subjects))
            for key in set(keys):
                used[key] += 1
            return True

        for _, a, b in comparable_pairs(kg, index, rng):
            if frozenset((a[0], b[0])) in links and fresh(a, b):
                yield [a[0], b[0]], [a[1].focus, b[1].focus], [a[1], b[1]]
        for a, b in _edge_pairs(kg, index, links, rng, rules=self.writes_with_model):
            if fresh(a, b):
                yield [a[0], b[0]], _sides(kg, a, b), [a[1], b[1]]
        if self.writes_with_model:
            yield from _entity_pairs(kg, links, rng)
            return
        yield from _local_edges(kg, links, rng, index.scope)
        if not FactIndex.of(kg).facts:  # a corpus without facts in any language: a term both chunks name
            yield from _entity_pairs(kg, links, rng, english=True)

    def scenarios(
        self, kg: KnowledgeGraph, n: int, personas: PersonaPool, rng: random.Random
    ) -> list[Scenario]:
        if not self.writes_with_model and not writes_offline(self.language):
            return []  # no templates for the language (see the module docstring)
        found = super().scenarios(kg, n, personas, rng)
        return [s for s in found if self.writes_with_model or writes_offline(s.language)]


def cross_document_links(kg: KnowledgeGraph) -> dict[frozenset[str], list[str]]:
    """Chunk pairs of different documents joined by an ``entity_overlap`` edge -> their shared entities."""
    return {
        frozenset((s, t)): list(data.get("shared") or [])
        for s, t, _, data in kg.edges(EdgeKind.ENTITY_OVERLAP)
        if kg.get(s)["document"] != kg.get(t)["document"]
    }


def document_label(kg: KnowledgeGraph, chunk: str) -> str:
    """A chunk's document as a question names it: its title without bracketed notes ("[EXPERIMENTAL]")."""
    data = kg.get(chunk)
    title = str(kg.get(data["document"]).get("title") or "").strip()
    title = _BRACKETED.sub(" ", title).strip()
    return title or data["source"].rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _sides(kg: KnowledgeGraph, a: Side, b: Side) -> list[str]:
    """[x, y] for two subjects; [x, document A, document B] for one subject as two documents put it."""
    if a[1].key() == b[1].key():
        return [a[1].focus, document_label(kg, a[0]), document_label(kg, b[0])]
    return [a[1].focus, b[1].focus]


def _edge_pairs(
    kg: KnowledgeGraph,
    index: FactIndex,
    links: dict[frozenset[str], list[str]],
    rng: random.Random,
    *,
    rules: bool = True,
) -> Iterator[tuple[Side, Side]]:
    """For each cross-document edge, its best pair of comparable facts (closest statements first); ``rules``:
    two subjects' rules compare too (``_comparable``)."""
    edges = sorted(tuple(sorted(pair)) for pair in links)
    rng.shuffle(edges)
    found: list[tuple[float, float, Side, Side]] = []
    named = Together(kg)
    for source, target in edges:
        best: tuple[float, Side, Side] | None = None
        for fa in index.facts.get(source, []):
            for fb in index.facts.get(target, []):
                if fa.pattern != fb.pattern or fa.pattern not in COMPARED:
                    continue
                closeness = _comparable(kg, index, (source, fa), (target, fb), named, rules=rules)
                if closeness is not None and (best is None or closeness > best[0]):
                    best = (closeness, (source, fa), (target, fb))
        if best is not None:
            found.append((round(best[0], 1), rng.random(), best[1], best[2]))
    found.sort(key=lambda row: (-row[0], row[1]))  # close pairs first, shuffled within a band
    # Two subjects and one subject in two documents in turn: the versions of one spec are the closest
    # statements of all and would otherwise fill a small test set alone.
    one = [(a, b) for _, _, a, b in found if a[1].key() == b[1].key()]
    two = [(a, b) for _, _, a, b in found if a[1].key() != b[1].key()]
    for i in range(max(len(one), len(two))):
        yield from (pair[i] for pair in (two, one) if i < len(pair))


def _comparable(
    kg: KnowledgeGraph, index: FactIndex, a: Side, b: Side, named: Together, *, rules: bool = True
) -> float | None:
    """How close the two statements are, or None when they make no comparison: one statement twice,
    one answer twice, a subject inside the other ("metric" and "metric type"), two subjects the corpus
    never lists together as counterparts ("LabelSet" and "label names": a thing and its part),
    unrelated statements, or one subject whose two documents cannot be told apart by their titles.
    ``rules=False`` (offline): one subject compares only as two versions of one document put it (readers
    failed "crypto.subtle: Web Crypto API vs Crypto", one API on two pages), and two subjects' rules make no
    comparison either. Written from the templates
    ("How do the rules for Senders differ from those for Receivers?", one MUST of each), blind readers kept 1
    of 12 over every rated round: two rules of two things are rarely about one point."""
    (chunk_a, fa), (chunk_b, fb) = a, b
    if folded(fa.answer) == folded(fb.answer) or index.is_scope(fa) or index.is_scope(fb):
        return None  # the product itself: two pages describe all of it ("Overview" vs "FAQ"), not one point
    similarity = index.similarity(fa.reference, fb.reference)
    if similarity >= SAME_STATEMENT:
        return None
    if fa.key() == fb.key():
        labels = document_label(kg, chunk_a), document_label(kg, chunk_b)
        if folded(labels[0]) == folded(labels[1]) or not _differ(fa.answer, fb.answer):
            return None
        titles = (str(kg.get(kg.get(chunk)["document"]).get("title") or "") for chunk in (chunk_a, chunk_b))
        if not rules and not versions_of_one(*titles):
            return None  # "How do C++ addons and Node-API differ on Node-API?": one thing, twice
        if _states(kg, chunk_b, fa.reference) or _states(kg, chunk_a, fb.reference):
            # "1.0: Quantile values MUST NOT be negative. 2.0: Quantile values SHOULD represent the recent
            # values.": both versions say both (OpenMetrics; readers failed such comparisons in every round)
            return None
        return similarity
    if fa.key() in fb.key() or fb.key() in fa.key() or " and " in f"{fa.focus} {fb.focus}":
        return None
    if similarity < SENTENCE_SENSE or not named.listed(fa.key(), fb.key()):
        return None
    if fa.pattern in DEFINING:
        kin = index.similarity(fa.answer, fb.answer)
        return similarity if similarity >= SENTENCE_SENSE and kin >= KINSHIP else None
    return similarity if rules and similarity >= RULE_SENSE else None


def _states(kg: KnowledgeGraph, chunk: str, sentence: str) -> bool:
    """Whether the document of ``chunk`` says ``sentence`` too (in plain text, case and spacing aside)."""
    texts = _document_texts.get(kg, lambda kg, chunks: {})  # filled as comparisons ask, each document once
    document = kg.get(chunk)["document"]
    if document not in texts:
        texts[document] = folded(" ".join(plain_text(kg.get(c)["text"]) for c in kg.chunks_of(document)))
    return folded(sentence) in texts[document]


_document_texts = GraphCache[dict[str, str]]()


MIN_OWN_WORDS = 2  # what each version says that the other does not, in content words


def _differ(a: str, b: str) -> bool:
    """Whether two versions of one statement each say something the other does not, in two words or in what
    they require ("MAY have a timestamp" vs "MUST have"): "each sample" and "each Sample or Histogram
    sample" differ by one word, and readers found nothing to compare."""
    words_a, words_b = _said(a), _said(b)
    own_a, own_b = words_a - words_b, words_b - words_a
    if not own_a or not own_b:
        return False
    return min(len(own_a), len(own_b)) >= MIN_OWN_WORDS or bool((own_a | own_b) & _RULE_WORDS)


def _said(text: str) -> set[str]:
    """Content words as stems, and the modal words a rule turns on ("MAY have" vs "MUST have")."""
    modals = {w for w in re.findall(r"[a-z]+", text.lower()) if w in _RULE_WORDS}
    return set(stemmed_words(text, "en")) | modals


_RULE_WORDS = frozenset({"must", "should", "may", "shall", "not", "never", "optional", "required"})


def _local_edges(
    kg: KnowledgeGraph, links: dict[frozenset[str], list[str]], rng: random.Random, scope: str
) -> Iterator[Grounding]:
    """Offline, languages asking about terms (``asks_terms``): an edge between two chunks of one language
    and a term both have prose about, as each document describes it (the edge's best terms, one per round)."""
    edges = []
    for pair in sorted(tuple(sorted(pair)) for pair in links):
        lang = node_language(kg, pair[0])
        if asks_terms(lang) and lang == node_language(kg, pair[1]):
            edges.append(pair)
    if not edges:
        return
    rng.shuffle(edges)
    frequency = term_frequency(kg)
    terms = ChunkTerms(kg, scope, frequency)
    found: list[tuple[list[str], list[str]]] = []
    for source, target in edges:
        labels = [document_label(kg, source), document_label(kg, target)]
        texts = [kg.get(source)["text"], kg.get(target)["text"]]
        named = {folded(label) for label in labels}  # "通知渠道" in the document "通知渠道" is its topic
        shared = [
            t
            for t in dict.fromkeys([*terms(source), *terms(target)])
            if folded(t) not in named and all(term_evidence(t, text) for text in texts)
        ]
        if folded(labels[0]) == folded(labels[1]) or not shared:
            continue
        shared.sort(key=lambda t: (frequency[t.casefold()], -len(t), t))
        shared = [t for t in shared if not _inside(t, shared)][:TERMS_PER_EDGE]
        found.append(([source, target], shared))
        yield [source, target], [shared[0], *labels], []
    for nodes, shared in found:  # then each edge's second term
        for term in shared[1:]:
            yield nodes, [term, *(document_label(kg, node) for node in nodes)], []


def _inside(term: str, terms: list[str]) -> bool:
    """Whether a longer term of ``terms`` holds ``term`` ("告警" in "告警规则"): ask the longer one."""
    return any(term.casefold() in other.casefold() and term != other for other in terms)


def _entity_pairs(
    kg: KnowledgeGraph, links: dict[frozenset[str], list[str]], rng: random.Random, english: bool = False
) -> Iterator[Grounding]:
    """An edge and a term both chunks name (the rarest), as each document describes it. ``english``: only
    English edges (offline, the other languages go through ``_local_edges``)."""
    pairs = sorted(tuple(sorted(pair)) for pair in links)
    rng.shuffle(pairs)
    frequency = term_frequency(kg)
    scope = FactIndex.of(kg).scope
    for source, target in pairs:
        if english and nodes_language(kg, [source, target]) != "en":
            continue
        labels = [document_label(kg, source), document_label(kg, target)]
        shared = shared_terms(kg, source, target, frequency, scope)
        if shared and folded(labels[0]) != folded(labels[1]):
            yield [source, target], [shared[0], *labels], []
