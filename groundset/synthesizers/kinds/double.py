"""Double questions: two questions in one message, each answered by its own chunk.

Users often ask two things at once ("What is X, and how do I Y?"); an assistant that answers only the
first half fails them. A double scenario takes two different chunks that read like one need, in
another section or document: the most strongly linked by ``similar``, ``entity_overlap`` and
``theme_overlap`` edges first, then the rest of the document. Offline each chunk gives one fact
(different subjects, each with one answer in the corpus), asked in the order what-it-is before
what-to-do; the reference is the two facts' sentences, one line per chunk. With a model (or offline
in an English corpus without facts) any related pair works: two chunks that name one term (the
rarest, not the product's name), each asked about in its own part.

Offline in Chinese, Japanese, German, French and Spanish (no facts there) each chunk of a related pair in
one language gives a term of its own (``term_based.native_terms``): two single-hop questions in the
language joined by its connector ("…，以及…？", "…, und …?"), the reference each chunk's sentences about
its term, one line per chunk; each chunk opens up to two pairs (those corpora are often small). Offline,
a test set in a language without such templates gets no double questions.

Its prompt writes the two questions in one message; offline, English questions join two single
questions ("What is X, and how do I Y?"), each asking one fact of its own context.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from ...core.prompts import Prompt
from ...kg.graph import EdgeKind, KnowledgeGraph, NodeKind
from ...personas.language import nodes_language
from ...text.lexical import folded, share_content, stemmed_words
from ..base import Grounding
from ..questions.offline import term_pattern
from ..questions.prompts import (
    GeneratedSample,
    evidence_groups,
)
from ..questions.styles import agreement
from ..questions.templates import (
    ORDER,
    asks_broadly,
    lower_question,
    shortest_question,
    single_question,
    web_query,
)
from ..scenarios.fact_index import FactIndex
from ..scenarios.facts import FACT_LANGUAGES, Fact
from ..scenarios.page_name import names_anchor, page_name, query_name, section_name
from ..scenarios.scenario import PersonaPool, Scenario
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
from .single_hop import pick_fact
from .term_based import (
    ChunkTerms,
    fact_language_shortage,
    local_chunks,
    local_double,
    writes_offline,
)

__all__ = [
    "DoublePrompt",
    "DoubleQuerySynthesizer",
    "double_question",
    "related_chunks",
    "shared_terms",
    "term_frequency",
]

LINKS = (EdgeKind.SIMILAR, EdgeKind.ENTITY_OVERLAP, EdgeKind.THEME_OVERLAP)
ONE_PART = "reference does not answer both parts"
PAIRS_PER_CHUNK = 2  # term-based pairs a chunk opens, in rounds (every chunk's first, then seconds)


class DoublePrompt(Prompt[PairInput, GeneratedSample]):
    name = "synth.double"
    instruction = (
        ROLE + "This question asks two things in one message, as users often do. Follow the task and write "
        "as the persona would ask; each part must be answerable from its own context alone and must not "
        "give its answer away. Then write the reference answer in two parts on two lines: the first line "
        "answers the first part from the first context only, the second line the second part from the "
        "second context only (1 or 2 sentences each, no outside knowledge). When facts are given, ask what "
        "they answer, in their order, and base each part on its fact. " + LANGUAGE_RULE
    )
    examples = [
        (
            PairInput(
                kind="double",
                task=kind_task("double", "perfect_grammar", "medium"),
                persona="Backend developer: adds metrics to a payments service.",
                terms=["histogram", "label values"],
                style="perfect_grammar",
                length="medium",
                contexts=[
                    "A histogram samples observations and counts them in configurable buckets.",
                    "Label values should have a bounded set of values; an unbounded user ID makes a new "
                    "series per user.",
                ],
            ),
            GeneratedSample(
                question="What does a histogram do with observations, and what should I avoid in label "
                "values?",
                reference="A histogram samples observations and counts them in configurable buckets.\n"
                "Label values should come from a bounded set: an unbounded value such as a user ID makes a "
                "new series per user.",
            ),
        )
    ]

    def offline(self, data: PairInput) -> GeneratedSample:
        return offline_pair(
            data,
            self.name,
            lambda words: local_double(words, data.facts, data.terms, data.contexts, **how_fields(data)),
            lambda: double_question(
                data.facts,
                terms=data.terms,
                labels=data.labels,
                style=data.style,
                length=data.length,
                seed=data.seed,
                scope=data.scope,
                anchor=data.anchor,
            ),
        )


def double_question(
    facts: Sequence[Fact],
    *,
    terms: Sequence[str] = (),
    labels: Sequence[str] = (),
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
    scope: str = "",
    anchor: str = "",
) -> str:
    """Two questions in one: the first fact's and the second's, joined by "and" (a search query: both
    keyword sets). Without two facts: what each context (``labels``) says about ``terms[0]``. ``anchor``:
    the API or command both facts' page documents, named when the question does not name it (for ``scope``;
    "what happens if DEPENDS is not specified" asks nothing until it says which command)."""
    rng = random.Random(f"double|{seed}|{'|'.join(f.reference for f in facts)}|{'|'.join(terms)}")
    if len(facts) >= 2:
        first, second = facts[0], facts[1]
        if style == "web_search":
            query = f"{web_query([first], rng)} and {web_query([second], rng)}"
            return f"{query_name(anchor)} {query}" if anchor and not names_anchor(query, anchor) else query
        ask = shortest_question if length == "short" else (lambda fact: single_question(fact, rng))
        core = f"{ask(first).rstrip('?')}, and {lower_question(ask(second))}"
        protect = [f.focus for f in facts]
        api = bool(anchor) and not names_anchor(core, anchor)
        if api:
            length, scope = ("medium" if length == "short" else length), anchor
            protect.append(anchor)
    else:
        term, a, b = term_and_sides(terms, labels)
        if style == "web_search":
            return f"{term} {a} and {term} {b}".lower()
        fill = {"term": term, "a": a, "b": b, **agreement(term)}
        core = rng.choice(
            (
                "What {be} {a_term} in {a}, and how {be} it used in {b}?",
                "What does {a} say about {term}, and what does {b} add?",
            )
        ).format(**fill)
        protect = [term, a, b]
        api = False
    return finish_question(core, protect, style=style, length=length, seed=seed, scope=scope, api=api)


def related_facts(a: Fact, b: Fact, scope: str) -> bool:
    """Whether one person would ask both: what the two facts are about shares a word, the product's name
    aside ("receive uploaded files" and "define files and form fields"). Readers rejected pairs with none
    ("What is the new hire responsible for, and what is required of travelers?")."""
    ignore = f"{scope} {_GENERIC_VERBS}"
    return share_content(f"{a.subject} {a.focus}", f"{b.subject} {b.focus}", "en", ignore=ignore)


# How close (WordLlama cosine) the two facts' sentences must be for one person to ask both: blind readers
# kept 62 of 114 double questions of one page and 33 of 96 across pages (45% in all, ten corpora and rounds),
# 42 of 68 of one page at 0.3 or more and 17 of 33 across pages at 0.5 or more (58%).
ONE_PAGE_SENSE = 0.3
ACROSS_SENSE = 0.5
# Verbs of any how-to or condition: sharing one ("set a maximum size", "is not set") relates nothing.
_GENERIC_VERBS = "set use get make want need give take put let have create add change try find see"


class DoubleQuerySynthesizer(TwoPartSynthesizer):
    name = "double"
    fact_languages = FACT_LANGUAGES  # German facts are asked by German fact templates (``local_double``)

    prompt_class = DoublePrompt
    missing_part = ONE_PART

    def shortage(self, kg: KnowledgeGraph) -> str:
        return "" if self.writes_with_model else fact_language_shortage(kg, self.name)

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        index = self.fact_index(kg)
        offline = not self.writes_with_model  # offline no broad "what happens when you" half either
        usable = {
            c: [f for f in facts if index.unambiguous(f) and not (offline and asks_broadly(f))]
            for c, facts in index.facts.items()
        }
        usable = {c: facts for c, facts in usable.items() if facts}
        asked: set[frozenset[str]] = set()
        chunks = sorted(usable)
        rng.shuffle(chunks)
        names: dict[str, str] = {}  # page names by document
        for chunk in chunks:  # each chunk opens at most one pair
            for partner in related_chunks(kg, chunk, rng, within=usable):
                one_page = kg.get(chunk)["document"] == kg.get(partner)["document"]
                if offline and not one_page and (_named(kg, chunk, names) or _named(kg, partner, names)):
                    continue  # two reference pages: "what happens if DEPENDS is not specified" names neither
                if offline and _two_apis(kg, chunk, partner):
                    continue  # "what happens to path if path is not a string, and ...": two functions' facts
                pair = frozenset((chunk, partner))
                first = pick_fact(usable[chunk], rng)
                close = ONE_PAGE_SENSE if one_page else ACROSS_SENSE
                others = [
                    f
                    for f in usable[partner]
                    if _distinct(first, f)
                    and related_facts(first, f, index.scope)
                    and index.similarity(first.reference, f.reference) >= close
                ]
                if pair in asked or not others:
                    continue
                asked.add(pair)
                second = pick_fact(others, rng)
                (a, fa), (b, fb) = sorted(((chunk, first), (partner, second)), key=lambda x: _rank(x[1]))
                yield [a, b], [fa.focus, fb.focus], [fa, fb]
                break
        if self.writes_with_model:
            yield from _term_pairs(kg, rng, asked)
            return
        yield from _local_pairs(kg, rng, asked, index.scope)
        if not FactIndex.of(kg).facts:  # a corpus without facts in any language: a term both chunks name
            yield from _term_pairs(kg, rng, asked, english=True)

    def scenarios(
        self, kg: KnowledgeGraph, n: int, personas: PersonaPool, rng: random.Random
    ) -> list[Scenario]:
        """With a model, the shared ones; offline each context's term must be grounded in that context
        (a term-based pair asks a term of each chunk), in a language with templates."""
        if self.writes_with_model:
            return super().scenarios(kg, n, personas, rng)
        if not writes_offline(self.language):
            return []  # no templates for the language (see the module docstring)
        return super().scenarios(kg, n, personas, rng)

    def grounded(
        self, terms: list[str], facts: list[Fact], contexts: list[str], written: str, language: str
    ) -> bool:
        """Offline, each context's term must be grounded in that context, in a language with templates."""
        if self.writes_with_model:
            return super().grounded(terms, facts, contexts, written, language)
        return writes_offline(language) and bool(facts or _grounded(terms, contexts, written))


def related_chunks(
    kg: KnowledgeGraph, chunk: str, rng: random.Random, within: dict[str, Any] | None = None
) -> list[str]:
    """Chunks a user would ask about together with ``chunk``, in another section or document: those
    linked by similarity and overlap edges, the most strongly linked first, then the rest of its
    document in a seed-determined order. ``within``: only these chunks."""
    own = kg.get(chunk)
    strength: dict[str, float] = {}
    for kind in LINKS:
        for other in kg.neighbours(chunk, kind):
            edge = kg.edge(chunk, other, kind) or {}
            strength[other] = strength.get(other, 0.0) + float(edge.get("score", 0.5))
    rest = [c for c in kg.chunks_of(own["document"]) if c not in strength]
    rng.shuffle(rest)
    found: list[str] = []
    for other in [*sorted(strength, key=lambda c: (-strength[c], c)), *rest]:
        if other == chunk or (within is not None and other not in within):
            continue
        data = kg.get(other)
        if data.get("kind") != NodeKind.CHUNK.value or folded(data["text"]) == folded(own["text"]):
            continue
        same_document = data["document"] == own["document"]
        if same_document and (not data.get("section") or data.get("section") == own.get("section")):
            continue  # the next paragraph of one section is one passage, not two needs
        found.append(other)
    return found


def _named(kg: KnowledgeGraph, chunk: str, names: dict[str, str]) -> str:
    """The API or command ``chunk``'s page documents (``page_name``), read once per document."""
    document = kg.get(chunk)["document"]
    if document not in names:
        names[document] = page_name(kg, chunk)
    return names[document]


def _two_apis(kg: KnowledgeGraph, chunk: str, partner: str) -> bool:
    """Whether the two chunks are sections of two APIs (``section_name``): one question cannot name both (a
    blind reader failed 5 of 6 such double questions on the Node.js API docs, each half without its API)."""
    first, second = section_name(kg, chunk), section_name(kg, partner)
    return (bool(first) or bool(second)) and first != second


def _distinct(first: Fact, second: Fact) -> bool:
    """Two different questions: other subjects ("client library" and "library" are one), other answers
    (one subject twice is a multi-hop specific question)."""
    a, b = first.key(), second.key()
    return (
        a not in b
        and b not in a
        and folded(first.answer) != folded(second.answer)
        and folded(first.reference) != folded(second.reference)
        and not _asked_alike(first, second)
    )


SAME_ASKING = 0.5  # a share of the smaller question's content words the other one has too


def _asked_alike(first: Fact, second: Fact) -> bool:
    """Two facts of one pattern whose questions name mostly the same things: "What is a module specifier,
    and what is the specifier of an import statement?", "what happens when no wheels are found ..., and
    what happens if no satisfactory wheels are found" (readers on four corpora failed such double
    questions as one question twice)."""
    if first.pattern != second.pattern:
        return False
    words = [set(stemmed_words(f.asked_about(), "en")) for f in (first, second)]
    smaller = min(len(w) for w in words)
    return smaller > 0 and len(words[0] & words[1]) / smaller >= SAME_ASKING


def _rank(fact: Fact) -> int:
    return ORDER.index(fact.pattern) if fact.pattern in ORDER else len(ORDER)


def _grounded(terms: list[str], contexts: list[str], language: str) -> bool:
    """Each context has evidence about its term (``terms[i]``; with one term, that one in every context)."""
    return all(
        evidence_groups("double", terms[min(i, len(terms) - 1)], [context], language)[0]
        for i, context in enumerate(contexts)
    )


def _local_pairs(
    kg: KnowledgeGraph, rng: random.Random, asked: set[frozenset[str]], scope: str
) -> Iterator[Grounding]:
    """Offline, languages without facts: two related chunks of one language, a term of each (different
    terms, neither inside the other); in ``PAIRS_PER_CHUNK`` rounds, each chunk opening one pair a round
    (a pair met again asks other terms: a small corpus has few pairs)."""
    language, chunks = local_chunks(kg, rng)
    if not chunks:
        return
    terms = ChunkTerms(kg, scope, term_frequency(kg))
    seen: set[tuple[frozenset[str], frozenset[str]]] = set()
    for round_ in range(PAIRS_PER_CHUNK):
        for chunk in [c for c in chunks if terms(c)]:
            for partner in related_chunks(kg, chunk, rng):
                pair = frozenset((chunk, partner))
                if pair in asked or language.get(partner) != language[chunk] or not terms(partner):
                    continue
                two = _two_terms(_from(terms(chunk), round_), _from(terms(partner), round_), rng)
                if two is not None and (pair, frozenset(two)) not in seen:
                    seen.add((pair, frozenset(two)))
                    yield [chunk, partner], two, []
                    break


def _two_terms(first: list[str], second: list[str], rng: random.Random) -> list[str] | None:
    """A term of each chunk (one of the best two), two different things: "告警" and "告警规则" are one."""
    a = rng.choice(first[:2])
    others = [b for b in second if a.casefold() not in b.casefold() and b.casefold() not in a.casefold()]
    return [a, rng.choice(others[:2])] if others else None


def _from(terms: list[str], start: int) -> list[str]:
    """A chunk's terms from the ``start``-th on (its best ones when it has fewer)."""
    return terms[start:] or terms


def _term_pairs(
    kg: KnowledgeGraph, rng: random.Random, asked: set[frozenset[str]], english: bool = False
) -> Iterator[Grounding]:
    """Two related chunks and a term both name (each part asks what its chunk says). ``english``: only
    English pairs (offline, the other languages ask a term of each chunk instead)."""
    chunks = list(kg.nodes(NodeKind.CHUNK))
    rng.shuffle(chunks)
    frequency = term_frequency(kg)
    scope = FactIndex.of(kg).scope
    for chunk in chunks:
        for partner in related_chunks(kg, chunk, rng)[:5]:
            pair = frozenset((chunk, partner))
            if english and nodes_language(kg, [chunk, partner]) != "en":
                continue
            shared = shared_terms(kg, chunk, partner, frequency, scope)
            if shared and pair not in asked:
                asked.add(pair)
                yield [chunk, partner], [shared[0]], []
                break


def term_frequency(kg: KnowledgeGraph) -> Counter[str]:
    """In how many chunks each entity or key phrase (case-folded) is listed."""
    return Counter(
        term.casefold()
        for chunk in kg.nodes(NodeKind.CHUNK)
        for term in {*(kg.get(chunk).get("entities") or []), *(kg.get(chunk).get("keyphrases") or [])}
    )


def shared_terms(kg: KnowledgeGraph, a: str, b: str, frequency: Counter[str], scope: str = "") -> list[str]:
    """Entities and key phrases of either chunk that both texts name, the rarest in the corpus first
    (a specific term links two passages; the product's name, ``scope``, links every one)."""
    listed = [*(kg.get(a).get("entities") or []), *(kg.get(b).get("entities") or [])]
    listed += [*(kg.get(a).get("keyphrases") or []), *(kg.get(b).get("keyphrases") or [])]
    found = [
        term
        for term in dict.fromkeys(t.strip() for t in listed)
        if len(term) >= 2
        and term.casefold() != scope.casefold()
        and _names(kg, a, term)
        and _names(kg, b, term)
    ]
    return sorted(found, key=lambda term: (frequency[term.casefold()], -len(term), term))


def _names(kg: KnowledgeGraph, chunk: str, term: str) -> bool:
    pattern = term_pattern(term)
    return pattern is not None and pattern.search(kg.get(chunk)["text"]) is not None
