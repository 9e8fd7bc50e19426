"""Out-of-scope questions: near the corpus's topics, but answered nowhere in it. They catch an assistant
that invents an answer instead of saying the documents do not cover the question.

A scenario is a chunk and one of its terms (with up to two other chunks naming the term, the closest
in meaning): the question stays near them, and they are the sample's distractors, the near misses a
retriever will return. The sample expects a refusal: no reference contexts, and a reference in a fixed
sentence form naming what was asked ("The documentation does not say how much ... costs.").

Offline, the question asks about the term an ``Aspect`` that technical docs rarely state (a price, a
Windows installer, who created it, ...), chosen so that no chunk naming the term uses a word that would
answer it (in the chunk's language); in English only the product and the tools of its family are asked
about (``of_the_family``). Offline templates exist in English, German, French, Spanish,
Chinese and Japanese (``out_of_scope.wording``); a scenario whose chunks (or forced language) are in
another language is skipped offline, never asked in English. Outside English the terms are those
single-hop questions take (``single_hop.ranked_terms``: things, in Chinese and Japanese in the
language's own script first), those several documents name first. With a model, the question, what it
asks and an invented candidate answer come from ``OutOfScopePrompt``, in the scenario's language.

The check (``check``) rejects a sample when a likely chunk answers it after all: offline by the signs of
``supporting_chunks``; with a model, by the gate's judge, one verdict per likely chunk.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np

from ....core.engine import get_engine
from ....core.models import describe_model, resolve_embeddings
from ....judges.aligned import judge, numbered
from ....kg.graph import KnowledgeGraph
from ....languages.words import word_set
from ....personas.language import language_label, node_language, nodes_language
from ....personas.roles import is_markup
from ....samples.testset import TestsetSample
from ....samples.turns import REFUSE
from ....text.language import script_language
from ....text.lexical import STOP_WORDS
from ....text.lexical import words as word_tokens
from ...base import Grounding, Synthesizer
from ...pipeline.quality import QualityGate
from ...scenarios.fact_index import corpus_scope
from ...scenarios.scenario import PersonaPool, Scenario
from ..single_hop import ranked_terms
from .evidence import DEFAULT_K, ChunkIndex, answers, question_vector, supporting_chunks
from .prompts import (
    ASPECT_BY_KEY,
    ASPECTS,
    Aspect,
    OutOfScopeInput,
    OutOfScopePrompt,
    PassageCheckPrompt,
    PassagesToCheck,
    aspect_in,
    has_templates,
    is_refusal,
    refusal_form,
    refusal_reference,
    task_text,
)
from .wording import after_article

__all__ = ["ANSWER_FOUND", "OutOfScopeQuerySynthesizer", "OutOfScopeScenario", "supporting_chunks"]

ANSWER_FOUND = "answer found in the corpus"
NOT_A_REFUSAL = "reference is not a refusal"
MAX_DISTRACTORS = 2  # chunks besides the scenario's own that name its term
# A single capitalised word is a name (a tool) when the corpus writes it so this often.
_NAME_SHARE = 0.8
_NAME = re.compile(r"[A-Z][a-z]+[A-Z]{0,3}")  # Alertmanager, PromQL, InfluxDB; not MetricFamily, HTTP
_INNER_CAPITAL = re.compile(r"[A-Z][a-z]+[A-Z][A-Za-z]*")  # PromQL, InfluxDB: a name even in German
_PHRASE = re.compile(r"[A-Za-z]+(?: [A-Za-z]+){0,2}")
_FAMILY_ENDINGS = (
    "exporter",
    "server",
    "gateway",
    "proxy",
    "agent",
    "daemon",
)  # "Hiring Manager" is a person
_TOOL_WORDS = word_set("exporter exporters server gateway manager browser proxy agent daemon dashboard")
_VAGUE = word_set(
    """number numbers total value values way ways part example examples case cases result results kind type
    lot set use thing things later now away bad additional another available certain common current different
    existing few following future given good important main many minimal multiple new other own particular
    populated possible previous separate several simple single special specific various whole wrong"""
)
# An English term named in this many documents is a topic of the corpus, not an aside ("Brazil" in an
# example); a single word needs one more: a name of another thing mentioned twice is an aside too.
_MIN_DOCUMENTS = 2


class OutOfScopeScenario(Scenario):
    """A scenario plus what to ask about its term (offline) and whether the term names software."""

    aspect: str = ""
    tool: bool = False


class OutOfScopeQuerySynthesizer(Synthesizer):
    name = "out_of_scope"
    prompt_class = OutOfScopePrompt

    def __init__(self, llm: Any = None, *, embeddings: Any = None, k: int = DEFAULT_K, **kwargs: Any) -> None:
        """``embeddings``: the model that embedded the graph, to embed questions for the check (a graph
        embedded by a local model needs none); ``k``: how many chunks each ranking contributes."""
        super().__init__(llm, **kwargs)
        self.embeddings = resolve_embeddings(embeddings).model if embeddings is not None else None
        self.k = k
        self.judge_prompt = PassageCheckPrompt()
        self.kg: KnowledgeGraph | None = None  # the graph of the last ``scenarios`` call: ``check`` reads it
        self._candidates: dict[str, str] = {}  # sample id -> the invented answer its draft came with

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        """Every (chunk, term) the chunk mentions, chunks in a seeded order, terms best first."""
        index = ChunkIndex.of(kg)
        chunks = [c for c in index.ids if kg.get(c).get("entities") or kg.get(c).get("keyphrases")]
        rng.shuffle(chunks)
        for chunk in chunks:
            lang = node_language(kg, chunk)
            if not self.writes_with_model and not has_templates(self.language or lang):
                continue  # no offline templates there: no English question around other text
            row = index.row(chunk)
            for term in candidate_terms(kg.get(chunk), lang, rng, index):
                if row in index.mentioning(term):
                    yield [chunk], [term], []

    def scenarios(
        self, kg: KnowledgeGraph, n: int, personas: PersonaPool, rng: random.Random
    ) -> list[Scenario]:
        """Up to ``n`` scenarios, each on its own chunk and term (the product's name once per aspect),
        aspects spread evenly. Offline in English, only the product and the tools of its family are asked
        about: readers kept 6 of 46 stock questions about other terms ("Is health insurance covered by
        any patents?", "Which vendors sell a support contract for Sphinx?"); fewer samples, not those. The
        same in German when the corpus names its product: readers kept 2 of 7 such German questions ("Ist
        „nächste Hauptversion“ in Benchmarks schneller als New Relic?")."""
        self.kg = kg
        index = ChunkIndex.of(kg)
        scope = corpus_scope(kg)
        found: list[Scenario] = []
        used_chunks: set[str] = set()
        used_terms: set[str] = set()
        counts: Counter[str] = Counter()
        for nodes, terms, _ in self.groundings(kg, rng):
            if len(found) >= n:
                break
            chunk, term = nodes[0], terms[0]
            the_product = bool(scope) and term.casefold() == scope.casefold()
            if chunk in used_chunks or (term.casefold() in used_terms and not the_product):
                continue
            close = index.close_to(index.row(chunk), index.mentioning(term), MAX_DISTRACTORS)
            group = [chunk, *(index.ids[r] for r in close)]
            language = self.language or nodes_language(kg, group)
            if not self.writes_with_model and not has_templates(language):
                continue
            tool = is_tool(term, scope, index, node_language(kg, chunk))
            # English always; German when the corpus names its product (a folder of three pages may not)
            stock_only = not self.writes_with_model and (
                language == "en" or (language == "de" and bool(scope))
            )
            if stock_only and not (tool and of_the_family(term, scope)):
                continue
            asked = {s.aspect for s in found if the_product and s.terms[:1] == [term]}
            aspect = pick_aspect(index, term, tool, counts, rng, language, exclude=asked)
            if aspect is None:
                continue
            used_chunks.add(chunk)
            used_terms.add(term.casefold())
            counts[aspect.key] += 1
            style, length = self.mix.sample(rng)
            vectors = [kg.get(node).get("embedding") for node in group]
            vectors = [np.asarray(v, dtype=np.float32) for v in vectors if v is not None]
            found.append(
                OutOfScopeScenario(
                    synthesizer=self.name,
                    nodes=group,
                    contexts=[kg.get(node)["text"] for node in group],
                    labels=[_label(kg, node) for node in group],
                    source_documents=list(dict.fromkeys(kg.get(node)["source"] for node in group)),
                    terms=[term],
                    scope=scope,
                    language=language,
                    persona=personas.match(np.mean(np.vstack(vectors), axis=0) if vectors else None, rng),
                    style=style,
                    length=length,
                    seed=rng.randrange(2**31),
                    aspect=aspect.key,
                    tool=tool,
                )
            )
        return found

    async def generate(self, scenario: Scenario, *, graph_fingerprint: str = "") -> TestsetSample:
        """The question (and what it asks, and an invented answer) from the prompt; the reference from the
        refusal form of the scenario's language."""
        aspect = ASPECT_BY_KEY.get(getattr(scenario, "aspect", ""))
        data = OutOfScopeInput(
            task=task_text(scenario.style, scenario.length),
            persona=f"{scenario.persona.name}: {scenario.persona.role_description}",
            term=scenario.terms[0],
            idea=aspect.topic if aspect else "",
            contexts=scenario.contexts,
            scope=scenario.scope,
            language=language_label(scenario.language),
            refusal_form=refusal_form(scenario.language),
            aspect=aspect.key if aspect else "",
            tool=bool(getattr(scenario, "tool", False)),
            style=scenario.style,
            length=scenario.length,
            seed=scenario.seed,
        )
        draft = await self.prompt.run(
            self.llm, data, engine=self.engine or get_engine(), stage=f"synth.{self.name}"
        )
        offline = not self.writes_with_model
        worded = aspect_in(scenario.language, aspect.key) if offline and aspect else None
        sample = TestsetSample.create(
            user_input=draft.question.strip(),
            reference=refusal_reference(draft.missing, scenario.language),
            reference_contexts=[],
            reference_context_ids=[],
            source_documents=scenario.source_documents,
            synthesizer=self.name,
            persona=scenario.persona.name,
            style=scenario.style,
            length=scenario.length,
            terms=[*scenario.terms[:1], *([worded.topic] if worded else [])],  # the aspect, in its language
            graph_fingerprint=graph_fingerprint,
            generator_model=describe_model(self.llm),
            expected_behaviour=REFUSE,
            distractor_contexts=scenario.contexts,
            distractor_context_ids=scenario.nodes,
        )
        self._candidates[sample.id] = draft.candidate_answer.strip()
        return sample

    async def check(self, gate: QualityGate, sample: TestsetSample, scenario: Scenario) -> str | None:
        """None when no likely chunk answers the question, else why the sample is rejected. Offline, the
        signs of ``supporting_chunks``; with a model, the gate's judge on each likely chunk."""
        question = sample.user_input.strip()
        if not question:
            return "empty question or reference"
        count = len(word_tokens(question)) if script_language(question) else len(question.split())
        if count < gate.min_question_words:
            return "trivial: question too short"
        if not is_refusal(sample.reference):
            return NOT_A_REFUSAL
        kg = self.kg
        if kg is None:
            raise RuntimeError("out_of_scope: check() needs the graph of scenarios() first")
        candidate = self._candidates.get(sample.id, "")
        engine = gate.engine or self.engine or get_engine()
        vector = None
        if self.embeddings is not None:
            vector = (await engine.embed(self.embeddings, [question], stage=f"synth.{self.name}"))[0]
        if gate.offline:
            found = supporting_chunks(kg, question, candidate, terms=sample.terms, vector=vector, k=self.k)
            return ANSWER_FOUND if found else None
        index = ChunkIndex.of(kg)
        if vector is None:
            vector = question_vector(kg, question)
        rows = index.nearest(question, vector, self.k)
        if not rows:
            return None
        data = PassagesToCheck(
            question=question, candidate_answer=candidate, passages=numbered([index.texts[r] for r in rows])
        )
        judged = await judge(self.judge_prompt, gate.llm, data, engine=engine, stage="quality.out_of_scope")
        return ANSWER_FOUND if any(v.verdict for v in judged.verdicts.values()) else None


def _label(kg: KnowledgeGraph, node: str) -> str:
    data = kg.get(node)
    return (data.get("section") or "").split(" > ")[-1] or data["source"]


def candidate_terms(data: dict, lang: str, rng: random.Random, index: ChunkIndex) -> list[str]:
    """A chunk's terms that read as things, names first, each tier in a seeded order. English: names
    (entities of letters; a single word only when it is written as a name, ``written_as_name``) then two- or
    three-word key phrases; other languages: the terms of single-hop questions (``ranked_terms``: what
    reads as a thing there, in Chinese and Japanese in its own script first), those the corpus writes
    after an article first (in French and Spanish a sign of a noun: "la condición", not "cumple")."""
    if lang != "en":
        ranked = [t for t in ranked_terms(data, rng, lang) if not is_markup(t)]
        nouns = {t for t in ranked if after_article(t, (index.texts[r] for r in index.mentioning(t)), lang)}
        return sorted(ranked, key=lambda t: t not in nouns)  # stable: the single-hop order otherwise
    entities = [t.strip() for t in data.get("entities") or [] if len(t.strip()) >= 3 and not is_markup(t)]
    phrases = [t.strip() for t in data.get("keyphrases") or [] if len(t.strip()) >= 3 and not is_markup(t)]
    tiers = [
        [t for t in entities if _PHRASE.fullmatch(t) and (" " in t or _single_name(t, index))],
        [p for p in phrases if " " in p and p.islower() and _PHRASE.fullmatch(p) and _specific(p)],
    ]
    ranked: list[str] = []
    for tier in tiers:
        tier = [t for t in dict.fromkeys(tier) if t not in ranked and _topical(t, index)]
        rng.shuffle(tier)
        ranked += tier
    return ranked


def _specific(phrase: str) -> bool:
    """No vague or function word at either end, and no verb form after the first word ("metric
    representing", "ingestor adding labels"; "recording rules" is fine)."""
    words = phrase.split()
    verbal = any(word.endswith(("ing", "ed", "ly")) for word in words[1:])
    return not ({words[0], words[-1]} & (_VAGUE | STOP_WORDS)) and not verbal


def _topical(term: str, index: ChunkIndex) -> bool:
    return len(index.documents_of(term)) >= _MIN_DOCUMENTS + (" " not in term)


def _single_name(term: str, index: ChunkIndex) -> bool:
    """A one-word name of a thing: written as a name, and no acronym ("API", "TLS" name no topic)."""
    return not term.isupper() and written_as_name(term, index)


def is_tool(term: str, scope: str, index: ChunkIndex, lang: str = "en") -> bool:
    """Whether ``term`` names a piece of software (the corpus's own product, "Node Exporter", "PromQL"):
    those get questions about prices, installers and apps; other terms about origins, patents, courses.
    In another language a name must be written as one in several documents (not a person's name in an
    example), and in German, where every noun is capitalised, have a capital inside ("PromQL")."""
    if scope and term.casefold() == scope.casefold():
        return True
    words = term.split()
    if words[-1].casefold() in _TOOL_WORDS and (lang == "en" or len(words) > 1):
        return True
    if lang == "en":
        return bool(_NAME.fullmatch(term)) and written_as_name(term, index)
    name = _INNER_CAPITAL if lang == "de" else _NAME
    return bool(name.fullmatch(term)) and written_as_name(term, index) and _topical(term, index)


def written_as_name(term: str, index: ChunkIndex) -> bool:
    """A single word the corpus mostly writes capitalised, as given ("Alertmanager", not "Histogram"),
    and not the plural of a word ("Receivers" beside "receiver")."""
    if not term[:1].isupper():
        return False
    spelled = re.compile(rf"(?<![\w./-]){re.escape(term)}(?![\w/-]|\.\w)", re.IGNORECASE)  # no paths
    rows = index.mentioning(term)
    written = [m.group(0) for r in rows for m in spelled.finditer(index.texts[r])]
    if term.endswith("s") and not term.endswith(("ss", "us", "is")):
        singular = re.compile(rf"(?<![\w.-]){re.escape(term[:-1])}(?![\w-])", re.IGNORECASE)
        if any(singular.search(index.texts[r]) for r in rows):
            return False
    return bool(written) and sum(w == term for w in written) / len(written) >= _NAME_SHARE


def of_the_family(term: str, scope: str) -> bool:
    """The product itself, or a tool named as a piece of software ("Node Exporter", "Alertmanager"): not a
    third party the docs use (Docker, Sphinx, Python), nor a person ("hiring manager", "Tech Ops Manager")
    or a thing in lower case ("reverse proxy"), nor a protocol's server ("TCP Server": blind readers of the
    Node.js reference failed "Is there an official mobile app to use TCP Server?")."""
    if scope and term.casefold() == scope.casefold():
        return True
    words = term.split()
    named = all(word[:1].isupper() for word in words)
    if len(words) == 1:  # "Alertmanager", "Pushgateway"
        return named and term[1:].casefold().endswith((*_FAMILY_ENDINGS, "manager"))
    if words[-1].casefold() == "server" and words[0].isupper():
        return False  # "TCP Server", "HTTP Server": a protocol's server, not a tool ("Prometheus Server")
    return named and words[-1].casefold() in _FAMILY_ENDINGS


def fitting_aspects(index: ChunkIndex, term: str, tool: bool, language: str = "en") -> list[Aspect]:
    """The aspects worded for the term in ``language`` (English wording for a language without offline
    templates: a model writes those) that no chunk naming the term answers, by the words of the chunk's
    language (the same sign as ``answers_aspect``)."""
    rows = index.mentioning(term)
    return [
        a
        for a in ASPECTS
        if (aspect_in(language, a.key) or a).wording(tool) is not None
        and not any(answers(a, index.texts[r], index.languages[r]) for r in rows)
    ]


def pick_aspect(
    index: ChunkIndex,
    term: str,
    tool: bool,
    counts: Counter[str],
    rng: random.Random,
    language: str = "en",
    exclude: set[str] | frozenset[str] = frozenset(),
) -> Aspect | None:
    """The least used of the ``fitting_aspects`` not in ``exclude`` (keys); None if none."""
    fitting = [a for a in fitting_aspects(index, term, tool, language) if a.key not in exclude]
    if not fitting:
        return None
    least = min(counts[a.key] for a in fitting)
    return rng.choice([a for a in fitting if counts[a.key] == least])
