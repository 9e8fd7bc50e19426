"""Situational questions: one chunk's question asked the way users ask, after saying what they are doing.

A user writes "I run Node Exporter on Kubernetes, and right now I'm working on retention. What is the
default retention period in Prometheus?"; the situation is about the asker and must not throw the
retriever off the answer. The groundings are the single-hop ones (a fact of a chunk, or a term with a
model or outside English); the situation comes from the scenario's persona and the chunk's section
(below) and adds no fact the reference rests on, so the default quality gate applies:
the reference is the fact (offline) and must answer the question.

The prompt: the asker's situation first, then the question, with its offline form.

Real users rarely ask a bare question; they say what they are doing ("I run Node Exporter on
Kubernetes and I'm changing our retention; ..."). Retrieval then has to find the answer past words
that are about the asker, not about the answer. The situation comes from the persona (who asks) and
the chunk (which part of the docs they are working on); it never states a fact the reference needs.

Offline, the question is the single-hop question of ``QueryPrompt`` (a fact's question in English,
the language's own templates elsewhere) and the situation is built here from the persona's name or
role description and the chunk's section label, in English, German, French, Spanish, Chinese and
Japanese (``languages``); any other language gets the English situation, as its questions do. In
English the situation says what the asker is doing from the fact itself: a how-to's goal ("I'm trying
to install a directory of headers"), a condition's case said as the asker's own ("I have a public
speaking opportunity", "I'm using fs.read(), and position is null"), and the question is then what a
person types next ("How do I do that?", "What happens then?"). A fact with neither gives no English
situational question offline: readers failed the stock lines that stood in for one ("I have a quick
question", "I'm looking something up for my work") on two corpora of three, and the section's title as
what the asker is working on ("I'm working on XCFramework. What is the XCFramework?").
"""

from __future__ import annotations

import random
import re
from typing import Any

from pydantic import BaseModel, Field

from ...core.engine import get_engine
from ...core.prompts import Prompt
from ...kg.graph import KnowledgeGraph
from ...languages import QuestionWording, wording
from ...languages.en import QUERY_STOP_WORDS
from ...personas.audience import is_plain_reader
from ...personas.language import label_code
from ...personas.nouns import reads_as_thing
from ...personas.roles import is_markup, is_role_word, reads_as_role
from ...samples.testset import TestsetSample
from ...text.lexical import share_content
from ..questions.local import local_style
from ..questions.prompts import STYLE_GUIDANCE, QueryInput, QueryPrompt
from ..questions.styles import apply_style, indefinite_article
from ..scenarios.answer_patterns import base_form, lower_first
from ..scenarios.fact_index import FactIndex
from ..scenarios.facts import FACT_LANGUAGES, Fact
from ..scenarios.page_name import is_document_name, names_anchor
from ..scenarios.scenario import PersonaPool, Scenario, prompt_fields
from .single_hop import SingleHopSpecificQuerySynthesizer

__all__ = [
    "SituationalInput",
    "SituationalQuerySynthesizer",
    "SituationalPrompt",
    "SituationalSample",
    "joined",
    "situation",
]

LENGTH_GUIDANCE = {
    "short": "One short sentence of situation, then a question of under 12 words.",
    "medium": "One sentence of situation, then a question of 8 to 20 words.",
    "long": "Two sentences of situation, then a question of 10 to 25 words.",
}
_NEUTRAL_WHO = ("I'm setting this up for a small team", "I'm new to this and looking after it for my team")
# What the asker is doing, in words that fit any documentation (a handbook as well as an API): readers
# rejected "I'm reviewing our configuration" before a question on parental leave. No section title in
# English: readers of four corpora called a quoted one ("Recap", "The password flow") a template's words.
_DOING = (
    "I'm looking something up for my work",
    "I need to get this right for something I'm working on",
    "I have a quick question",
)
_SPARE = 2  # scenarios drawn per one asked, since a case the asker cannot say as their own is dropped
_DEICTIC_GOAL = re.compile(
    r"(?:(?:further|also|then|now|still|even|better) )?[a-z]+ (?:the|this|that|these|those|it|them)"
    r"(?: [\w-]+)?",
    re.IGNORECASE,
)  # "fix the error", "further control the workflow": what is meant, only the page says
_POSSESSIVE = re.compile(r"\b(?:their|his|her)\b")
_MAX_TOPIC_WORDS = 6
_MAX_WHO_WORDS = 12
_KEYWORDS = 4


class SituationalInput(BaseModel):
    task: str = Field(description="the style and length to write in")
    persona: str = Field(description="who is asking: 'name: role description'")
    terms: list[str] = Field(description="what the question is about (the first term)")
    contexts: list[str]
    labels: list[str] = Field(default_factory=list, description="the section titles of the contexts")
    style: str
    length: str
    seed: int = 0
    facts: list[Fact] = Field(
        default_factory=list, description="the statement the question must be answered by"
    )
    scope: str = Field(default="", description="what the documentation is about")
    anchor: str = Field(default="", exclude=True, description="offline: the API or command to name")
    language: str = Field(default="en (English)", description="the language to write in")


class SituationalSample(BaseModel):
    situation: str = Field(description="1 or 2 sentences: who the user is and what they are doing")
    question: str = Field(description="the question itself, after the situation")
    reference: str = Field(description="the answer, using only facts stated in the context")


def task_text(style: str, length: str) -> str:
    return f"{STYLE_GUIDANCE[style]} {LENGTH_GUIDANCE[length]}"


def joined(situation: str, question: str) -> str:
    """The user's whole message: the situation, then the question (no space after CJK punctuation). A
    situation typed without its full stop (a search-box user) ends in a colon: "i'm a FastAPI user and I
    have a quick question play with jwt tokens" read to blind readers as one garbled run-on."""
    situation, question = situation.strip(), question.strip()
    if not situation:
        return question
    if situation.endswith(("。", "，", "、")):
        return situation + question
    if situation[-1:].isalnum():
        situation += ":"
    return f"{situation} {question}"


class SituationalPrompt(Prompt[SituationalInput, SituationalSample]):
    name = "synth.situational"
    instruction = (
        "You write one evaluation question for an assistant that answers from technical documentation, the "
        "way a real user with a concrete situation asks it. First write the situation: 1 or 2 sentences in "
        "the first person, as the persona, saying what they run or build and what they are doing right now "
        "that leads to the question (take it from the persona and from what the context is about). The "
        "situation must not state any fact from the context and must not hint at the answer: it only sets "
        "the scene. Then write the question, which the context answers on its own; when facts are given, "
        "ask the question those facts answer. Then write the reference answer in 1 to 3 sentences using only "
        "what the context states, with nothing taken from the situation. Follow the task's style and length "
        "(a search-engine style writes the situation as a few keywords too). Write all three in the "
        "language given as `language`, whatever the language of these instructions and of the example; "
        "keep names, code and quoted terms as the context writes them."
    )
    examples = [
        (
            SituationalInput(
                task=task_text("perfect_grammar", "medium"),
                persona="Operator running Prometheus on Kubernetes: Maintains the cluster's monitoring stack "
                "and wants settings that survive upgrades.",
                terms=["retention period"],
                contexts=[
                    "Blocks older than the retention period are deleted. The retention period is 15 days "
                    "unless --storage.tsdb.retention.time says otherwise."
                ],
                labels=["Storage"],
                style="perfect_grammar",
                length="medium",
            ),
            SituationalSample(
                situation="I run Prometheus on Kubernetes with about 200 targets, and our disks are filling "
                "up faster than expected.",
                question="How long does Prometheus keep data if I don't change anything?",
                reference="The retention period is 15 days by default; --storage.tsdb.retention.time changes "
                "it, and blocks older than that are deleted.",
            ),
        )
    ]

    def offline(self, data: SituationalInput) -> SituationalSample:
        code = label_code(data.language)
        local = wording(code)
        core = QueryPrompt().offline(_query(data, "short" if data.length == "short" else "medium"))
        topic = _topic(data.labels[0] if data.labels else "", code, data.scope, core.question)
        rng = random.Random(f"situation|{data.seed}|{data.persona}|{topic}|{data.terms[0]}")
        name, _, role = data.persona.partition(": ")
        # a search-box message in English or German still says who asks: readers found "betriebsingenieur
        # für vite json.stringify:" and keywords alone no situation
        keywords = data.style == "web_search" and local is not None and code not in FACT_LANGUAGES
        question = core.question
        if keywords and local is not None:
            said = _keywords(name, role, topic, local)
        else:
            searching = data.style == "web_search"  # its keywords say the goal or case again
            fact = data.facts[0] if local is None and data.facts else None
            doing, then = _doing(fact, "" if searching else data.anchor, whole=not searching)
            said = situation(
                name, role, topic, "short" if data.style == "web_search" else data.length, rng, local, doing
            )
            if then:
                # "I'm trying to install a directory of headers. How do I do that?": the situation says
                # what the question would repeat (readers: "I'm trying to X. How do I X?" reads twice)
                question = (
                    then if data.style == "perfect_grammar" else apply_style(then, data.style, seed=data.seed)
                )
        if data.style == "web_search" and not keywords:
            protect = [t for t in (topic, data.scope) if t]
            if local is None:
                said = apply_style(said, "poor_grammar", seed=data.seed, protect=protect)
            else:
                said = local_style(local, said, "poor_grammar", seed=data.seed, protect=protect)
        elif data.style in ("poor_grammar", "misspelled"):
            protect = [t for t in (topic, data.scope) if t]
            if local is None:
                said = apply_style(said, data.style, seed=data.seed, protect=protect)
            else:
                said = local_style(local, said, data.style, seed=data.seed, protect=protect)
        return SituationalSample(situation=said, question=question, reference=core.reference)


def _query(data: SituationalInput, length: str) -> QueryInput:
    """The plain single-hop question's input: the question after the situation is that question."""
    return QueryInput(
        kind="single_hop_specific",
        task="",
        persona=data.persona,
        terms=data.terms,
        contexts=data.contexts,
        labels=data.labels,
        style=data.style,
        length=length,
        seed=data.seed,
        facts=data.facts,
        scope=data.scope,
        anchor=data.anchor,  # "How do you step across a range of test numbers in ctest_test?", not "in CMake"
        language=data.language,
    )


def situation(
    name: str,
    role: str,
    topic: str,
    length: str,
    rng: random.Random,
    local: QuestionWording | None = None,
    doing: str = "",
) -> str:
    """The asker's situation in 1 or 2 sentences: who they are (the persona) and what they are doing
    (``doing``, in English, see ``_doing``; else one of ``_DOING``), or in another language what they are
    working on (``topic``, the chunk's section title; "" for none). ``local``: the wording of a language
    other than English."""
    if local is not None and local.situations:
        lead = _local_lead(local, name, rng)
        if not topic:
            return local.long.split("{core}")[0].format(lead=lead, purpose=rng.choice(local.purposes)).strip()
        return rng.choice(local.situations).format(lead=lead, topic=local.quote.format(topic))
    if doing and is_plain_reader(name):
        # "I'm a Node.js user. I'm using socket.send(), and ...", "I'm a developer building with Rust, and I'm
        # trying to ...": readers called the line a persona template's. Over every rated round, situations
        # with what the asker does kept 131 of 148 readings without such a line, 79 of 156 after "I'm a ...
        # user" and 179 of 363 after another role's line; a manager's line (56 of 71) says who asks.
        return f"{_upper_first(doing)}."
    who = _who(name, role, rng)
    doing = doing or rng.choice(_DOING)
    if length != "long" and ", and " not in doing:
        return f"{_upper_first(who)}, and {doing}."
    # no stakes after it: readers called "and my team is waiting on my notes" filler
    return f"{_upper_first(who)}. {_upper_first(doing)}."


def _doing(fact: Fact | None, anchor: str = "", *, whole: bool = True) -> tuple[str, str]:
    """What the asker is doing, from what the question is about: the goal of a how-to ("I'm trying to run
    the https benchmarks") or the case of a condition; "" for a stock line. Readers of two corpora failed
    "I have a quick question" and its kind as a persona, not a situation; the section being worked on
    ("I'm working on XCFramework. What is the XCFramework?") they failed as a heading said twice.
    ``anchor``: the command or API the question is about, said here since the question will not be (not a
    document: "I'm using the Data Management Policy" is no situation); ``whole``: False when the question
    will say the goal or case itself (a search query). Returns the situation's doing and the question left to
    ask after it ("" for the whole question)."""
    if fact is None:
        return "", ""
    anchor = "" if is_document_name(anchor) else anchor
    slots = fact.slots
    if whole and (then := _then(fact)):
        said = slots["goal"] if fact.pattern == "procedure" else slots["cond"]
        named = anchor and not names_anchor(said, anchor)  # not "with try_compile" twice
        if fact.pattern == "procedure":
            return f"I'm trying to {_first_person(said)}" + (f" with {anchor}" if named else ""), then
        case = _my_case(lower_first(said, frozenset(fact.lowercase_words)), anchor if named else "")
        return (case, then) if case else ("", "")
    return "", ""


def _my_case(case: str, anchor: str = "") -> str:
    """A condition said as the asker's own case: "I have a public speaking opportunity" (the docs' "if you
    have ..."), "my LOA exceeds 4 weeks", "I'm using fs.read(), and position is null or -1", "in my case, a
    package.json file has no type field"; "" when it cannot be (readers of three corpora kept 3 of 26 "I'm
    looking at a case where ...", a template's wrapper to them, and "in my case, the Teammate passes a PIP" or
    "in my case, domains are in use" as a term of the docs lifted into a situation)."""
    case = _first_person(case)
    if anchor and not anchor.isupper():  # "I'm using fs.read()", "I'm using Zoom"; not "I'm using LOA"
        return f"I'm using {anchor}, and {case}"
    if re.match(r"(?:I|my)\b", case):
        return case
    return f"in my case, {case}" if re.match(r"an?\s", case) else ""


_SECOND_PERSON = {"you": "me", "your": "my", "yours": "mine", "yourself": "myself"}
_YOU_ARE = {" are": " am", " were": " was", "'re": "'m", "\u2019re": "\u2019m"}
# "you" as the subject of a clause: first, or after a word that opens one ("when you don't have ...")
_YOU_SUBJECT = re.compile(
    r"(?P<before>^|\b(?:when|if|where|that|and|or|once|until|unless|because|before|after|while|so) )you"
    r"(?P<be> are| were|['\u2019]re)?\b"
)


def _first_person(text: str) -> str:
    """The docs' "to view your selections", "where your direct report submits ...", "when you don't have
    access" as the asker says it: "to view my selections", "where my direct report ...", "when I don't have
    access" (blind readers failed "where your direct report", and "when me don't have")."""
    text = _YOU_SUBJECT.sub(lambda m: f"{m['before']}I{_YOU_ARE.get(m['be'] or '', '')}", text)
    return re.sub(r"\b(?:you|your|yours|yourself)\b", lambda m: _SECOND_PERSON[m.group(0)], text)


def _then(fact: Fact) -> str:
    """The question left after a situation that says its goal or its case ("How do I do that?", "What
    happens then?"), or "" when the question must say it all."""
    slots = fact.slots
    if fact.pattern == "procedure" and slots.get("form") in ("to", "can", "use") and slots.get("goal"):
        if _DEICTIC_GOAL.fullmatch(slots["goal"]):
            return ""  # "I'm trying to fix the error": which one, only the page knows
        return "What must be used for that?" if slots.get("requirement") else "How do I do that?"
    if fact.pattern != "cause" or not slots.get("cond"):
        return ""
    if slots.get("form") == "advice" or re.search(r"\b(?:want|need|wish)(?:s|es)? to\b", slots["cond"]):
        return "What should I do?"  # not "my availability changes or I want to update it: what happens then"
    if slots.get("form") == "effect":
        what = lower_first(slots.get("what", ""), frozenset(fact.lowercase_words))
        if what and slots.get("state"):
            return f"What {slots['state']} {what} then?"
        return f"What happens to {what} then?" if what else "What happens then?"
    return ""


def _who(name: str, role: str, rng: random.Random) -> str:
    """ "I'm an operator running Node Exporter" (a role name) or "I maintain service discovery" (the
    role description's first clause in the first person); a neutral line when neither reads well."""
    options = []
    if reads_as_role(name):  # the persona's name says who they are: nothing else to pick from
        common = (
            is_role_word(name.split()[0]) and not name[1:2].isupper()
        )  # "Developer ...", not "FastAPI user"
        phrase = name[:1].lower() + name[1:] if common else name
        return f"I'm {indefinite_article(phrase)} {phrase}"
    clause = re.split(r",|;|\.| and wants | but | so | because | to ", role.strip(), maxsplit=1)[0].split()
    if 1 < len(clause) <= _MAX_WHO_WORDS and clause[0].isalpha():
        verb = clause[0].lower()
        first = {"is": "'m", "has": " have"}.get(verb)
        if first is None and verb.endswith("s") and not verb.endswith(("ss", "us", "is")):
            first = " " + base_form(verb)
        if first is not None:
            rest = _POSSESSIVE.sub("my", " ".join(clause[1:]))
            options.append(f"I{first} {rest}")
    return rng.choice(options) if options else rng.choice(_NEUTRAL_WHO)


def _local_lead(local: QuestionWording, name: str, rng: random.Random) -> str:
    """The persona's own name when it names a role in this language, else one of the language's neutral
    role phrases (an English persona name would read badly inside a German sentence)."""
    own = any(word.casefold() in name.casefold() for word in local.role_words) and not reads_as_role(name)
    lead = name if own and name else rng.choice(local.leads)
    if local.lower_lead and lead[1:2].islower():
        lead = lead[:1].lower() + lead[1:]
    return lead


def _topic(label: str, code: str, scope: str, question: str = "") -> str:
    """What the asker is working on: the chunk's section title when it reads as a thing and shares a word
    with the question, else "". Readers called "Recap", "Sections" or "The resulting response" quoted
    before an unrelated question a template's words."""
    text = " ".join(label.split()).strip(" .:")
    usable = (
        text
        and len(text.split()) <= _MAX_TOPIC_WORDS
        and not is_markup(text)
        and "?" not in text
        and text.casefold() != scope.casefold()
        and reads_as_thing(text, code)
        and (not question or share_content(text, question, code, ignore=scope))
    )
    return text if usable else ""


def _keywords(name: str, role: str, topic: str, local: QuestionWording | None) -> str:
    """A search-box situation: the persona's own topic words (not its role noun) and the section's."""
    words: list[str] = []
    for source in (name, topic or role):
        for word in re.findall(r"[^\W_][\w.+-]*", source):
            low = word.lower()
            if low in QUERY_STOP_WORDS or is_role_word(word) or low.endswith("ing") or low in words:
                continue
            words.append(low)
    return " ".join(words[:_KEYWORDS])


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


class SituationalQuerySynthesizer(SingleHopSpecificQuerySynthesizer):
    """Single-hop questions that carry the persona's situation (see the module docstring)."""

    name = "situational"
    prompt_class = SituationalPrompt

    def asks(self, index: FactIndex, fact: Fact) -> bool:
        """A single-hop question's fact; offline in English, one that says what the asker is doing (a
        how-to's goal or a condition's case, ``_then``): no stock line stands in for a situation."""
        return super().asks(index, fact) and (not self._english_offline(fact.lang) or bool(_then(fact)))

    def scenarios(
        self, kg: KnowledgeGraph, n: int, personas: PersonaPool, rng: random.Random
    ) -> list[Scenario]:
        """The single-hop scenarios whose situation can be said (``_doing``: offline in English, a condition
        said as the asker's own case, with the API or tool its section is about); the others are dropped
        before the count is cut to ``n``."""
        found = super().scenarios(kg, _SPARE * n + _SPARE, personas, rng)
        said = [
            s
            for s in found
            if not self._english_offline(s.language) or (s.facts and _doing(s.facts[0], s.anchor)[0])
        ]
        return said[:n]

    def scenario(self, *args: Any, **kwargs: Any) -> Scenario:
        """The single-hop scenario; offline in English typed as a sentence, not in search-box words: the
        goal or case is said in the situation, and "how do i do that" alone is no search."""
        found = super().scenario(*args, **kwargs)
        if found.style == "web_search" and self._english_offline(found.language):
            found.style = "poor_grammar"
        return found

    def shortage(self, kg: KnowledgeGraph) -> str:
        index = self.fact_index(kg)
        asked = super().asks
        english = [
            f
            for found in index.facts.values()
            for f in found
            if self._english_offline(f.lang) and asked(index, f)
        ]
        if not english:
            return super().shortage(kg)
        said = sum(bool(_then(f)) for f in english)
        return (
            f"offline an English situation says what the asker is trying to do or the case they are in, "
            f"and {said} of the {len(english)} facts a question asks for say one; --llm writes a situation "
            "for any question"
        )

    def _english_offline(self, language: str) -> bool:
        return not self.writes_with_model and (self.language or language or "en") == "en"

    async def generate(self, scenario: Scenario, *, graph_fingerprint: str = "") -> TestsetSample:
        """The situation and question for ``scenario`` in one call (or the offline templates)."""
        data = SituationalInput(task=task_text(scenario.style, scenario.length), **prompt_fields(scenario))
        answer = await self.prompt.run(
            self.llm, data, engine=self.engine or get_engine(), stage=f"synth.{self.name}"
        )
        return self.sample(
            scenario, joined(answer.situation, answer.question), answer.reference, graph_fingerprint
        )
