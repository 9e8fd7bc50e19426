"""Distracting questions: a single-chunk question stored with a near-miss chunk that shares its words.

Real retrieval fails on passages that look right: same names, same vocabulary, another answer. A
distracting sample is a single-hop question (its fact offline, any chunk with a model) plus one such
near-miss, found through the answer chunk's ``similar``, ``entity_overlap`` and ``theme_overlap``
edges (a chunk stating another fact about the same subject ranks higher), in another section or
document. The near-miss names the question's focus term and does not hold its answer (offline: the
fact's answer string; without a fact, the sentences the reference is made of). The check looks at
the question as written: it must share a content word (compared as stems; the product's name does
not count) with the near-miss.

Offline the question is the single-hop one (the fact whose focus the near-miss names), in English
or, without facts, in any language with offline templates (``languages``), as single-hop writes it.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from ...core.engine import get_engine
from ...core.prompts import Prompt
from ...kg.graph import EdgeKind, KnowledgeGraph, NodeKind
from ...personas.language import node_language
from ...samples.testset import TestsetSample
from ...text.lexical import folded, stemmed_words
from ...text.plaintext import plain_text
from ...text.sentences import split_sentences
from ..base import Grounding
from ..pipeline.quality import QualityGate
from ..questions.offline import answer_sentences, term_pattern
from ..questions.prompts import GeneratedSample, QueryInput, QueryPrompt
from ..scenarios.fact_index import FactIndex
from ..scenarios.facts import Fact
from ..scenarios.page_name import bare_name, section_name, versions_of_one
from ..scenarios.scenario import PersonaPool, Scenario
from .pairs import LANGUAGE_RULE, ROLE, NearMissInput, kind_fields, kind_task
from .single_hop import SingleHopSpecificQuerySynthesizer

__all__ = [
    "DistractingPrompt",
    "DistractingQuerySynthesizer",
    "DistractingScenario",
    "distractor_problem",
    "near_misses",
]

# How much an edge of each kind says "this chunk looks like the answer chunk" (times its score).
EDGE_WEIGHTS = {EdgeKind.SIMILAR: 1.0, EdgeKind.ENTITY_OVERLAP: 0.6, EdgeKind.THEME_OVERLAP: 0.4}
SAME_SUBJECT_BONUS = 0.5  # the near-miss states another fact about the question's subject
MIN_PROSE_WORDS = 12  # a near-miss says something: not a heading and a link
# A near-miss with a sentence this close to the reference (WordLlama cosine) says the answer in other words.
# Over every rated round, 11 of 105 readings that failed a distractor for answering had one, and 1 of 363
# readings that passed a distractor (0.75 would catch 13 and lose 17).
PARAPHRASE = 0.8
# The words of the question templates, not of the thing asked about.
_TEMPLATE_WORDS = (
    "happens required rule applies recommended allowed avoided exactly explain definition purpose default"
)
RESTATED_SHARE = 1 / 3  # of the reference's own words, in one sentence with every word asked: the answer
_JOINER = re.compile(r"(?<=\w)[._-](?=\w)")


class DistractingScenario(Scenario):
    """A single-hop scenario and its near-miss chunk (not a reference context)."""

    distractor_ids: list[str] = []
    distractors: list[str] = []
    answers: list[str] = []  # what the near-miss must not contain (fact answers or reference sentences)


class DistractingPrompt(Prompt[NearMissInput, GeneratedSample]):
    name = "synth.distracting"
    instruction = (
        ROLE + "This question tests whether the assistant is misled by a look-alike passage: "
        "`answer_context` holds the answer, `near_miss` comes from elsewhere in the documentation and "
        "shares some of its vocabulary without holding that answer. Follow the task, write as the persona "
        "would ask, and do not give the answer away. Then write the reference answer in 1 to 4 sentences "
        "from `answer_context` alone: nothing taken from `near_miss`, no outside knowledge. When facts are "
        "given, ask what they answer and base the reference on them. " + LANGUAGE_RULE
    )
    examples = [
        (
            NearMissInput(
                kind="distracting",
                task=kind_task("distracting", "perfect_grammar", "short"),
                persona="Platform engineer: runs the monitoring stack for several teams.",
                terms=["scrape timeout"],
                style="perfect_grammar",
                length="short",
                answer_context="The scrape timeout bounds how long one scrape may take. It defaults to 10 "
                "seconds and must not exceed the scrape interval.",
                near_miss="Remote write batches samples and sends them with its own timeout; a batch that "
                "times out is retried with backoff.",
            ),
            GeneratedSample(
                question="What is the default scrape timeout?",
                reference="The scrape timeout defaults to 10 seconds, and it must not exceed the scrape "
                "interval.",
            ),
        )
    ]

    def offline(self, data: NearMissInput) -> GeneratedSample:
        """The single-hop question of the answer context, in any language with offline templates."""
        single = QueryInput(
            kind="single_hop_specific",
            task="",
            persona=data.persona,
            terms=data.terms,
            contexts=[data.answer_context],
            style=data.style,
            length=data.length,
            seed=data.seed,
            facts=data.facts,
            scope=data.scope,
            anchor=data.anchor,
            language=data.language,
        )
        return QueryPrompt().offline(single)


class DistractingQuerySynthesizer(SingleHopSpecificQuerySynthesizer):
    name = "distracting"
    prompt_class = DistractingPrompt

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The base class draws the groundings and builds the scenarios; the near-miss (and the answers it
        # must not hold) found for each grounding waits here until ``scenarios`` adds it to its scenario.
        self._near: dict[tuple[str, str, str], tuple[str, list[str]]] = {}

    def groundings(self, kg: KnowledgeGraph, rng: random.Random) -> Iterator[Grounding]:
        index = self.fact_index(kg)
        for nodes, terms, facts in super().groundings(kg, rng):
            if not _terms(terms[0], node_language(kg, nodes[0])) - _terms(index.scope, "en"):
                continue  # "Prometheus" in the Prometheus docs: every chunk shares it
            answers = [f.answer for f in facts] or _evidence(kg, nodes[0], terms[0])
            found = near_misses(kg, nodes[0], terms[0], answers, index, facts)
            if found and answers:
                self._near[_key(nodes, terms, facts)] = (found[0], answers)
                yield nodes, terms, facts

    def scenarios(
        self, kg: KnowledgeGraph, n: int, personas: PersonaPool, rng: random.Random
    ) -> list[Scenario]:
        self._near = {}
        found = super().scenarios(kg, n, personas, rng)
        scenarios: list[Scenario] = []
        for scenario in found:
            near, answers = self._near[_key(scenario.nodes, scenario.terms, scenario.facts)]
            fields = dict(scenario)  # shallow: the facts keep their derived fields
            scenarios.append(
                DistractingScenario(
                    **fields, distractor_ids=[near], distractors=[kg.get(near)["text"]], answers=answers
                )
            )
        return scenarios

    async def generate(self, scenario: Scenario, *, graph_fingerprint: str = "") -> TestsetSample:
        if not isinstance(scenario, DistractingScenario):
            raise TypeError("a distracting sample needs a DistractingScenario (see ``scenarios``)")
        data = NearMissInput(
            **kind_fields(scenario), answer_context=scenario.contexts[0], near_miss=scenario.distractors[0]
        )
        answer = await self.prompt.run(  # type: ignore[call-overload]
            self.llm, data, engine=self.engine or get_engine(), stage=f"synth.{self.name}"
        )
        return self.sample(
            scenario,
            answer.question,
            answer.reference,
            graph_fingerprint,
            distractor_contexts=scenario.distractors,
            distractor_context_ids=scenario.distractor_ids,
        )

    async def check(self, gate: QualityGate, sample: TestsetSample, scenario: Scenario) -> str | None:
        """The near-miss checks first (no call), then the single-hop gate."""
        answers = scenario.answers if isinstance(scenario, DistractingScenario) else []
        defined = [f.focus for f in scenario.facts if f.pattern == "definition"]
        problem = distractor_problem(sample, answers, scenario.scope, scenario.language, defined=defined)
        return problem or await super().check(gate, sample, scenario)


def near_misses(
    kg: KnowledgeGraph,
    chunk: str,
    term: str,
    answers: list[str],
    index: FactIndex | None = None,
    facts: list[Fact] | None = None,
) -> list[str]:
    """Chunks joined to ``chunk`` by a similarity or overlap edge, in another section or document, that
    name ``term`` and hold none of ``answers``: the most alike first."""
    pattern = term_pattern(term)
    if pattern is None:
        return []
    scores: dict[str, float] = defaultdict(float)
    for kind, weight in EDGE_WEIGHTS.items():
        for other in kg.neighbours(chunk, kind):
            edge = kg.edge(chunk, other, kind) or {}
            scores[other] += weight * float(edge.get("score", 0.5))
    keys = {f.key() for f in facts or []}
    questions = {f.question_key() for f in facts or []}
    means = _means(facts or [], index.scope if index is not None else "")
    own = kg.get(chunk)
    # what a thing is or is for, its own page says again in other sections (a FAQ, an overview): the
    # handbook's parental-leave FAQ, its working-group guidelines and its levels FAQ answered so
    broad = any(f.pattern in _BROAD for f in facts or [])
    language = node_language(kg, chunk)
    member = _member(section_name(kg, chunk))
    found: list[tuple[float, str]] = []
    for other, score in scores.items():
        data = kg.get(other)
        if data.get("kind") != NodeKind.CHUNK.value or not _elsewhere(own, data):
            continue
        if broad and data.get("document") == own.get("document"):
            continue
        if not pattern.search(data["text"]) or _holds_any(data["text"], answers):
            continue
        if _names_any(data["text"], means):
            continue  # "How can V8 Inspector be enabled?" beside "`--inspect`: Activate inspector on ..."
        if _answers_broadly(data["text"], facts or [], language):
            continue  # "Enables the collection of trace event tracing information": how tracing is enabled
        if _versions_of_one(kg, own, data):
            continue  # "What timestamp should a Summary have?" OpenMetrics 1.0 answers it too, its own way
        if member and _member(section_name(kg, other)) == member:
            continue  # https.createServer()'s section says what http.createServer()'s does, its own twin
        if len(prose_words(data["text"])) < MIN_PROSE_WORDS:
            continue  # a heading with a line under it ("## Helpful links") tempts no one
        theirs = index.facts.get(other, []) if index is not None else []
        if questions & {f.question_key() for f in theirs}:
            continue  # it states a fact the same question asks for, in other words: it answers
        if index is not None and facts and _paraphrases(index, data["text"], facts, language):
            continue  # "If you have the request count metric you can spot the reason ..." (Prometheus)
        if keys & {f.key() for f in theirs}:
            score += SAME_SUBJECT_BONUS
        found.append((score, other))
    found.sort(key=lambda item: (-item[0], item[1]))
    return [other for _, other in found]


def _paraphrases(index: FactIndex, text: str, facts: Sequence[Fact], language: str) -> bool:
    """Whether a sentence of ``text`` says what a fact's reference says, in other words (``PARAPHRASE``)."""
    sentences = [s for s in split_sentences(plain_text(text), language) if len(s.split()) >= 4]
    if not sentences:
        return False
    closeness = index.vectors(sentences) @ index.vectors([f.reference for f in facts]).T
    return bool(closeness.max() >= PARAPHRASE)


def distractor_problem(
    sample: TestsetSample,
    answers: list[str],
    scope: str = "",
    language: str = "en",
    defined: Sequence[str] = (),
) -> str | None:
    """Why the sample's near-miss does not work as one (None when it does): it is missing, it is one of
    the reference contexts, it shares no content word with the question as written (the product's
    name does not count), or it holds the answer: for a definition (``defined``: the subjects the
    question asks to define), any sentence defining the subject too."""
    if not sample.distractor_contexts:
        return "no distractor"
    if set(sample.distractor_context_ids) & set(sample.reference_context_ids) or set(
        folded(t) for t in sample.distractor_contexts
    ) & {folded(t) for t in sample.reference_contexts}:
        return "distractor is a reference context"
    asked = _terms(sample.user_input, language) - _terms(scope, language)
    said = _terms(sample.reference, language) - asked
    asked_of = asked - _terms(_TEMPLATE_WORDS, "en")  # "What happens if ...": "happens" is the template's
    for text in sample.distractor_contexts:
        if not asked & _terms(text, language):
            return "distractor shares no term with the question"
        if _holds_any(text, answers) or _restates(text, asked_of, said, language):
            return "distractor holds the answer"
        if any(_defines(text, subject) for subject in defined):
            return "distractor holds the answer"
    return None


def _defines(text: str, subject: str) -> bool:
    """Whether a sentence of ``text`` says what ``subject`` is ("A 'middleware' is basically a function
    that ..." answers "What is a middleware?" as well as the reference's own definition)."""
    named = term_pattern(subject.strip("\"'`“”"))
    if named is None:
        return False
    for sentence in split_sentences(plain_text(text), "en"):
        opening = re.match(r"^(?:(?:a|an|the)\s+)?[\"'`“”]*", sentence, re.IGNORECASE)
        rest = sentence[opening.end() if opening else 0 :]
        found = named.match(rest)
        if found and _DEFINING.match(rest[found.end() :].lstrip("\"'`“”")):
            return True
    return False


_DEFINING = re.compile(
    r"\s+(?:\w+ly\s+)?(?:is|are|means|refers to)\s+(?:\w+ly\s+)?(?:a|an|the|one|any)\b"
    # a glossary or API list's entry: "`WritableStream` - Represents a destination for streaming data." (the
    # Node.js docs' list beside "The WritableStream is a destination ...": it answered "What is it?")
    r"|\s*(?:\s[-\u2013\u2014]|:)\s+(?:a|an|the|represents|describes|defines)\b",
    re.IGNORECASE,
)


def _answers_broadly(text: str, facts: Sequence[Fact], language: str) -> bool:
    """Whether ``text`` answers a how-to or a what-for question the way the reference does: for a how-to,
    a sentence naming all it asks (the thing and the verb: "Enables the collection of trace event tracing
    information" for "How can tracing be enabled?"), another way to do it; for a purpose, a sentence
    saying what the thing does or is used for ("We foster a high performance culture by ... providing
    continuous feedback", "Use threads to respond to a message ..."). In one round on three corpora, 5 of
    the 20 distracting samples blind readers failed had such a near-miss."""
    for fact in facts:
        if fact.pattern not in ("procedure", "purpose"):
            continue
        asked = _terms(f"{fact.focus} {fact.slots.get('part', '')}", language)
        serving = _serving(fact.focus) if fact.pattern == "purpose" else None
        if not asked or (fact.pattern == "purpose" and serving is None):
            continue
        for sentence in split_sentences(plain_text(text), language):
            if not asked <= _terms(sentence, language):
                continue
            if serving is None or serving.search(sentence):
                return True
    return False


def _serving(subject: str) -> re.Pattern[str] | None:
    """A sentence saying what ``subject`` does or is for: "X helps/lets/allows/ensures ...", "X is used
    to ...", "use X to ...", "by ... X"."""
    named = term_pattern(subject.strip("\"'`“”"))
    if named is None:
        return None
    x = named.pattern
    return re.compile(
        rf"{x}\W+(?:\w+\W+){{0,3}}?(?:helps?|lets?|allows?|enables?|ensures?|prevents?|keeps?|gives?|provides?"
        rf"|promotes?|(?:is|are)\s+(?:used|meant|intended|there|for|how))\b"
        rf"|\b(?:use|using)\s+(?:the\s+)?{x}\s+(?:to|for)\b|\bby\s+(?:\w+\W+){{0,12}}?{x}",
        re.IGNORECASE,
    )


def _restates(text: str, asked: set[str], said: set[str], language: str) -> bool:
    """Whether a sentence of ``text`` names everything the question asks about and a third of what the
    reference says beyond it: the answer in other words ("Declare headers with Header, using the same
    pattern as Query" for "How can I declare headers?")."""
    if not asked:
        return False
    for sentence in split_sentences(plain_text(text), language):
        found = _terms(sentence, language)
        if asked <= found and said and len(said & found) >= RESTATED_SHARE * len(said):
            return True
    return False


def prose_words(text: str) -> list[str]:
    """The words of ``text`` outside headings and code fences."""
    prose = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
    lines = [line for line in prose.splitlines() if not line.lstrip().startswith("#")]
    return re.findall(r"[^\W\d_]{2,}", " ".join(lines))


def _terms(text: str, language: str) -> set[str]:
    """Content words as stems ("bridges" names "bridge"), compounds split ("warn-level" and
    "prometheus.Counter" name "warn" and "counter"); none for an empty text."""
    return set(stemmed_words(_JOINER.sub(" ", text), language)) if text.strip() else set()


def _key(nodes: list[str], terms: list[str], facts: list[Fact]) -> tuple[str, str, str]:
    return nodes[0], terms[0], facts[0].reference if facts else ""


def _evidence(kg: KnowledgeGraph, chunk: str, term: str) -> list[str]:
    """Without a fact: the sentences of ``chunk`` an answer about ``term`` is made of."""
    lang = node_language(kg, chunk)
    return answer_sentences(term, kg.get(chunk)["text"], prose_only=lang != "en", lang=lang)


def _elsewhere(own: dict[str, Any], other: dict[str, Any]) -> bool:
    """Another document, or another section of the same one (a neighbour paragraph is no near-miss)."""
    if own["document"] != other["document"]:
        return folded(own["text"]) != folded(other["text"])  # a page copied into two files is one chunk
    return bool(other.get("section")) and other.get("section") != own.get("section")


_BROAD = frozenset({"definition", "purpose"})  # what a thing is, what it is for


# The means a how-to's answer names: a flag, a call, a dotted or snake_case name ("--inspect",
# "register()", "node:trace_events", "process.exitCode").
_MEANS = re.compile(r"(?<![\w-])--[A-Za-z][\w.-]*|[A-Za-z_][\w.:]*(?:\(\)|[._:][A-Za-z_]\w*)[\w.:]*(?:\(\))?")


def _means(facts: Sequence[Fact], scope: str = "") -> set[str]:
    """What the how-to facts' answers use (``_MEANS``), the product's own name (``scope``: "Node.js") aside:
    a near-miss naming one tells how as well (blind readers failed 3 of 16 Node.js API distractors so:
    "`--inspect` ... Activate inspector on host:port")."""
    found = set()
    for fact in facts:
        if fact.pattern == "procedure":
            found.update(m.rstrip(".:") for m in _MEANS.findall(fact.answer) if len(m.rstrip(".:")) > 3)
    return {m for m in found if m.casefold() != scope.casefold()}


def _names_any(text: str, names: set[str]) -> bool:
    return any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text) for name in names)


def _member(api: str) -> str:
    """The last part of an API's name, "createServer" for "http.createServer()" ("" for no API or a
    one-part name: "URL" in two modules is not a twin)."""
    name = bare_name(api)
    return name.rsplit(".", 1)[-1] if "." in name and " " not in name else ""  # no event: "... of net.Socket"


def _versions_of_one(kg: KnowledgeGraph, own: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two chunks are of two versions of one document ("OpenMetrics 1.0", "OpenMetrics 2.0
    [EXPERIMENTAL]"): the other version answers a question that names no version as well as the reference
    (every round's reader of the Prometheus docs failed a distractor so)."""
    if own["document"] == other["document"]:
        return False
    titles = [str(kg.get(chunk["document"]).get("title") or "") for chunk in (own, other)]
    return versions_of_one(*titles)


def _holds_any(text: str, answers: list[str]) -> bool:
    haystack = folded(_plain(text))
    return any(folded(_plain(answer)) in haystack for answer in answers if folded(answer))


def _plain(text: str) -> str:
    """Markdown emphasis and code marks out, so "`15d`" in a chunk matches "15d" in a fact."""
    return re.sub(r"[`*_]+", "", text)
