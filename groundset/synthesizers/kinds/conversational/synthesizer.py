"""Conversational questions: 2 to 4 user turns about one subject, where the last turn only makes sense
after the earlier ones ("What is a gauge?" -> "And what must it start at?").

Assistants are asked follow-ups, and a retriever that only sees "what must it start at?" finds nothing:
the test is whether the system carries the subject over. One ``TestsetSample`` holds the conversation:
its question, reference and contexts are the LAST turn's, ``history`` the earlier turns (each with its
own reference and contexts). The last turn never names the subject (``leans_on_history``).

Groundings: chains of facts about one subject (``FactIndex`` facts sharing a subject key: a definition,
a purpose, a default, rules, a consequence whose condition opens with the subject), in one chunk or in
chunks of one document, joined by a ``next`` or ``entity_overlap`` edge, or close in meaning; 2 to 4
turns as the scenario's rng draws. With a model, chunks without facts give term chains too (a chunk
and the next ones that mention the term). Offline the turns of fact chains are English templates.

Offline in Chinese, Japanese, German, French and Spanish (no facts there) a chain is a term of a chunk
(``term_based.native_terms``) and the chunks that hold sentences about it no earlier turn used: the
same chunk while it has some, then a linked one (``next``, ``entity_overlap``, ``similar``, or its
document's); the first turn names the term, each later one asks for those sentences leaning back with
the language's pronoun or ellipsis (``conversational.prompts``). An English corpus without facts, or a
language without such templates, gets no offline conversation; the generator hands the share on.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from ....core.engine import get_engine
from ....core.models import describe_model
from ....kg.graph import EdgeKind, KnowledgeGraph
from ....personas.language import language_label
from ....samples.testset import TestsetSample
from ....samples.turns import Turn
from ....text.lexical import folded
from ...base import Grounding, Synthesizer
from ...pipeline.quality import QualityGate, mentions
from ...questions.answer_first import answer_slots
from ...questions.prompts import STYLE_GUIDANCE
from ...questions.templates import ORDER, follow_up
from ...scenarios.fact_index import FactIndex
from ...scenarios.fact_pairs import CHUNK_SENSE, PAIRABLE, RESTATED, SENTENCE_SENSE
from ...scenarios.facts import Fact, subject_key
from ...scenarios.scenario import Scenario
from ..double import term_frequency
from ..single_hop import SingleHopSpecificQuerySynthesizer
from ..term_based import ChunkTerms, fact_language_shortage, local_chunks, turn_evidence
from .prompts import (
    ConversationInput,
    ConversationPrompt,
    TurnInput,
    cause_follow_up,
    refers_back,
)

__all__ = ["ConversationalQuerySynthesizer", "leans_on_history", "turn_samples"]

MIN_TURNS, MAX_TURNS = 2, 4
CHAINS_PER_SUBJECT = 2
NO_BACK_REFERENCE = "last turn does not lean on an earlier one"
_LINKS = (EdgeKind.NEXT, EdgeKind.ENTITY_OVERLAP)
_TERM_LINKS = (EdgeKind.NEXT, EdgeKind.ENTITY_OVERLAP, EdgeKind.SIMILAR)
TERMS_PER_CHUNK = 3  # term chains a chunk opens offline, in rounds (every chunk's first, then seconds)
_MAX_CAUSE_PREFIX = 4  # words of a condition tried as its subject ("the NaN value is allowed")

Located = tuple[str, Fact]


class ConversationalQuerySynthesizer(Synthesizer):
    """Multi-turn samples: the last turn refers back to the subject named in the first."""

    name = "conversational"
    prompt_class = ConversationPrompt

    def shortage(self, kg: KnowledgeGraph) -> str:
        return "" if self.writes_with_model else fact_language_shortage(kg, self.name)

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        index = self.fact_index(kg)
        for chain in fact_chains(kg, index, rng):
            yield [chunk for chunk, _ in chain], [chain[0][1].focus], [fact for _, fact in chain]
        if self.writes_with_model:
            yield from _term_chains(kg, rng, self.llm)
        else:
            yield from _local_chains(kg, rng, index.scope)

    async def generate(self, scenario: Scenario, *, graph_fingerprint: str = "") -> TestsetSample:
        """All turns in one call (or the offline templates): the last is the sample, the rest its history."""
        facts: list[Fact | None] = list(scenario.facts) or [None] * len(scenario.nodes)
        data = ConversationInput(
            task=STYLE_GUIDANCE[scenario.style],
            persona=f"{scenario.persona.name}: {scenario.persona.role_description}",
            subject=scenario.terms[0],
            turns=[
                TurnInput(context=context, label=label, fact=fact)
                for context, label, fact in zip(scenario.contexts, scenario.labels, facts, strict=True)
            ],
            style=scenario.style,
            length=scenario.length,
            seed=scenario.seed,
            scope=scenario.scope,
            language=language_label(scenario.language),
        )
        draft = await self.prompt.run(
            self.llm, data, engine=self.engine or get_engine(), stage=f"synth.{self.name}"
        )
        turns = draft.turns()
        history = [
            Turn(
                user_input=turn.question.strip(),
                reference=turn.reference.strip(),
                reference_contexts=[context],
                reference_context_ids=[node],
            )
            for turn, context, node in zip(turns[:-1], scenario.contexts, scenario.nodes, strict=False)
        ]
        return TestsetSample.create(
            user_input=turns[-1].question.strip(),
            reference=turns[-1].reference.strip(),
            reference_contexts=scenario.contexts[-1:],
            reference_context_ids=scenario.nodes[-1:],
            source_documents=scenario.source_documents,
            synthesizer=self.name,
            persona=scenario.persona.name,
            style=scenario.style,
            length=scenario.length,
            terms=scenario.terms[:1],
            graph_fingerprint=graph_fingerprint,
            generator_model=describe_model(self.llm),
            history=history,
        )

    async def check(self, gate: QualityGate, sample: TestsetSample, scenario: Scenario) -> str | None:
        """The back-reference first (no call), then the default gate on every turn as a plain sample with
        the subject made explicit: each turn's reference must answer it and be supported by its contexts."""
        if not leans_on_history(sample):
            return NO_BACK_REFERENCE
        plain = turn_samples(sample)
        facts = list(scenario.facts) if len(scenario.facts) == len(plain) else []
        slots = [answer_slots([fact]) for fact in facts] or [[] for _ in plain]
        written = self.written(scenario)
        checks = (gate.check(s, a, written) for s, a in zip(plain, slots, strict=True))
        reasons = await asyncio.gather(*checks)
        *earlier, last = reasons
        if last:
            return last
        return next((f"earlier turn: {reason}" for reason in earlier if reason), None)


def leans_on_history(sample: TestsetSample) -> bool:
    """Whether ``sample`` is a conversation whose last question needs an earlier turn: the first turn names
    the subject (``terms[0]``), the last does not and refers back (a pronoun, "its", "And ...?")."""
    if not sample.history or not sample.terms or not sample.terms[0].strip():
        return False
    subject = sample.terms[0]
    last = sample.user_input
    return (
        mentions(sample.history[0].user_input, subject) and not mentions(last, subject) and refers_back(last)
    )


def turn_samples(sample: TestsetSample) -> list[TestsetSample]:
    """Every turn as a plain sample, in order (the last is ``sample``'s own), the subject made explicit
    in the questions after the first ("gauge: And what must it start at?"), so each can be checked alone."""
    subject = sample.terms[0] if sample.terms else ""
    asked = [
        (t.user_input, t.reference, t.reference_contexts, t.reference_context_ids) for t in sample.history
    ]
    asked.append(
        (sample.user_input, sample.reference, sample.reference_contexts, sample.reference_context_ids)
    )
    return [
        TestsetSample.create(
            user_input=question if i == 0 or not subject else f"{subject}: {question}",
            reference=reference,
            reference_contexts=contexts,
            reference_context_ids=ids,
            synthesizer=sample.synthesizer,
            terms=sample.terms,
        )
        for i, (question, reference, contexts, ids) in enumerate(asked)
    ]


def fact_chains(kg: KnowledgeGraph, index: FactIndex, rng: random.Random) -> Iterator[list[Located]]:
    """Chains of 2 to 4 facts about one subject, the first asked first (what it is before its rules);
    every subject's first chain before any second one, subjects in a seed-determined order."""
    by_key = _askable(index)
    scope = subject_key(index.scope) if index.scope else ""
    # "Prometheus" in the Prometheus docs: a follow-up without it is still about it, it leans on nothing
    keys = sorted(key for key, items in by_key.items() if len(items) >= MIN_TURNS and key != scope)
    rng.shuffle(keys)
    seen: set[tuple[str, ...]] = set()
    lasts: dict[str, set[str]] = defaultdict(set)
    for _ in range(CHAINS_PER_SUBJECT):
        for key in keys:
            chain = _chain(kg, index, by_key[key], rng)
            if chain is None:
                continue
            signature = tuple(fact.reference for _, fact in chain)
            if signature in seen or chain[-1][1].reference in lasts[key]:
                continue  # the same last turn twice is one sample twice
            seen.add(signature)
            lasts[key].add(chain[-1][1].reference)
            yield chain


def _askable(index: FactIndex) -> dict[str, list[Located]]:
    """Facts a turn can ask, by subject key: unambiguous facts with a pronoun question, and consequences
    whose condition opens with a subject ("if a Histogram includes NaN ...")."""
    by_key: dict[str, list[Located]] = defaultdict(list)
    causes: list[Located] = []
    for chunk in sorted(index.facts):
        for fact in index.facts[chunk]:
            if not index.unambiguous(fact):
                continue
            if fact.pattern in PAIRABLE and follow_up(fact):
                by_key[fact.key()].append((chunk, fact))
            elif fact.pattern == "cause":
                causes.append((chunk, fact))
    for chunk, fact in causes:
        words = fact.slots.get("cond", "").split()
        for size in range(min(_MAX_CAUSE_PREFIX, len(words)), 0, -1):
            key = subject_key(" ".join(words[:size]))
            if key in by_key and cause_follow_up(fact, by_key[key][0][1].focus):
                by_key[key].append((chunk, fact))
                break
    return by_key


def _chain(
    kg: KnowledgeGraph, index: FactIndex, items: list[Located], rng: random.Random
) -> list[Located] | None:
    """One chain: a shuffled pool in question order, taken greedily while each fact asks something new
    and sits near a chunk already in the chain."""
    size = rng.randint(MIN_TURNS, MAX_TURNS)
    pool = list(items)
    rng.shuffle(pool)
    pool.sort(key=lambda item: ORDER.index(item[1].pattern))
    if pool[0][1].pattern == "cause":
        return None  # a consequence cannot open: its question names a condition, not the subject
    chain = [pool[0]]
    plural = pool[0][1].plural
    for candidate in pool[1:]:
        if len(chain) == size:
            break
        if all(distinct_turns(index, item, candidate, plural) for item in chain) and any(
            _near(kg, index, item, candidate) for item in chain
        ):
            chain.append(candidate)
    return chain if len(chain) >= MIN_TURNS else None


def distinct_turns(index: FactIndex, a: Located, b: Located, plural: bool) -> bool:
    """Two turns ask different things: other questions, other answers, not one rule stated twice."""
    fa, fb = a[1], b[1]
    if fb.pattern != "cause" and follow_up(fa, plural) == follow_up(fb, plural):
        return False
    if fa.pattern == fb.pattern == "purpose":
        return False  # "What does the Debug trait enable you to do?", then "What does it allow you to do?"
    if fa.pattern == fb.pattern == "cause" and folded(fa.slots.get("cond", "")) == folded(
        fb.slots.get("cond", "")
    ):
        return (
            False  # "what happens when it is for a decision?" twice, answered two ways: neither is the answer
        )
    if folded(fa.answer) == folded(fb.answer) or folded(fa.reference) == folded(fb.reference):
        return False
    if folded(fb.answer) in folded(fa.reference) or folded(fa.answer) in folded(fb.reference):
        return False  # "What does Channel represent?" answered "... It is used to track subscribers": asked
    if fa.pattern == fb.pattern == "constraint" and all(
        fa.slots.get(k) == fb.slots.get(k) for k in ("verb", "form")
    ):
        return False  # "what should they follow", "what must they follow": one rule asked twice
    return index.similarity(fa.reference, fb.reference) < RESTATED


def _near(kg: KnowledgeGraph, index: FactIndex, a: Located, b: Located) -> bool:
    """One chunk or document, an edge between the chunks, or the two close in meaning (one sense of the
    subject: "box" in a diagram is not ``Box<T>``)."""
    (ca, fa), (cb, fb) = a, b
    if ca == cb or kg.get(ca)["document"] == kg.get(cb)["document"]:
        return True
    if any(kg.edge(x, y, kind) is not None for x, y in ((ca, cb), (cb, ca)) for kind in _LINKS):
        return True
    if index.similarity(fa.reference, fb.reference) >= SENTENCE_SENSE:
        return True
    return index.similarity(kg.get(ca)["text"], kg.get(cb)["text"]) >= CHUNK_SENSE


def _term_chains(kg: KnowledgeGraph, rng: random.Random, llm: Any) -> Iterator[Grounding]:
    """For a model: a chunk without facts and one of its terms (the single-hop term groundings), then the
    next chunks of its document that mention the term; a short chain asks the same chunk again."""
    for nodes, terms, facts in SingleHopSpecificQuerySynthesizer(llm).groundings(kg, rng):
        if facts:
            continue
        size = rng.randint(MIN_TURNS, MAX_TURNS)
        chain = list(nodes)
        while len(chain) < size:
            following = [
                n for n in kg.neighbours(chain[-1], EdgeKind.NEXT) if mentions(kg.get(n)["text"], terms[0])
            ]
            if not following:
                break
            chain.append(following[0])
        yield chain + [chain[-1]] * (size - len(chain)), terms, []


def _local_chains(kg: KnowledgeGraph, rng: random.Random, scope: str) -> Iterator[Grounding]:
    """Offline, languages without facts: a chunk and one of its terms, then 1 to 3 more turns, each on
    the chunk that still has sentences about the term no earlier turn used (the last one, else a linked
    one); ``TERMS_PER_CHUNK`` terms per chunk in rounds, never one last turn twice."""
    language, chunks = local_chunks(kg, rng)
    if not chunks:
        return
    terms = ChunkTerms(kg, scope, term_frequency(kg))
    lasts: set[str] = set()
    for round_ in range(TERMS_PER_CHUNK):
        for chunk in chunks:
            if round_ >= len(terms(chunk)):
                continue
            term = terms(chunk)[round_]
            chain = _term_chain(kg, chunk, term, rng.randint(MIN_TURNS, MAX_TURNS), language)
            if chain is None:
                continue
            last = "\n".join(turn_evidence(term, [kg.get(n)["text"] for n in chain])[-1])
            if last not in lasts:
                lasts.add(last)
                yield chain, [term], []


def _term_chain(
    kg: KnowledgeGraph, chunk: str, term: str, size: int, language: dict[str, str]
) -> list[str] | None:
    """Up to ``size`` chunks, each with sentences about ``term`` that no earlier turn used: the last
    chunk again while it has some, else the most strongly linked chunk of its language that has."""
    chain = [chunk]
    while len(chain) < size:
        for candidate in [chain[-1], *_linked(kg, chain[-1], language)]:
            if turn_evidence(term, [kg.get(n)["text"] for n in [*chain, candidate]])[-1]:
                chain.append(candidate)
                break
        else:
            break
    return chain if len(chain) >= MIN_TURNS else None


def _linked(kg: KnowledgeGraph, chunk: str, language: dict[str, str]) -> list[str]:
    """Chunks of ``chunk``'s language joined to it by an edge (strongest first), then its document's."""
    strength: dict[str, float] = {}
    for kind in _TERM_LINKS:
        for other in kg.neighbours(chunk, kind):
            edge = kg.edge(chunk, other, kind) or kg.edge(other, chunk, kind) or {}
            strength[other] = strength.get(other, 0.0) + float(edge.get("score", 0.5))
    ranked = sorted(strength, key=lambda c: (-strength[c], c))
    ranked += [c for c in kg.chunks_of(kg.get(chunk)["document"]) if c not in strength]
    return [c for c in ranked if c != chunk and language.get(c) == language[chunk]]
