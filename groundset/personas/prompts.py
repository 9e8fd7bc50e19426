"""The persona prompt: one cluster of documents in, one reader of those documents out.

The offline form names the reader as a role: a role noun picked from cue words in the
cluster's topics and summaries (exporters and client libraries -> developer, alerts and rules
-> SRE, configuration and storage -> operator, ...) and an activity built from the cluster's
strongest topic ("Developer writing custom collectors", "Operator running Node Exporter and
Grafana"). Topics come from the themes, entities and keyphrases; markup, file names, generic
words and fragments are never used. Everything is a function of the input, so reruns agree.
Other languages: the model is told the documents' ``language``; offline, see ``local_personas``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from ..core.hashing import stable_hash
from ..core.prompts import Prompt
from ..languages.words import word_set
from .audience import audience_name
from .language import label_code
from .local_personas import local_persona
from .model import Persona
from .roles import (
    activity,
    choose_role,
    cue_count,
    is_markup,
    is_role_word,
    object_phrase,
    reads_as_role,
    role_sentence,
    singular,
)

FALLBACK = Persona(
    name="Engineer getting started with these docs",
    role_description="Reads these documents to find answers to practical questions about what they describe.",
)
MAX_TOPIC_WORDS = 4  # longer themes are mostly sentence fragments or page titles
MAX_NAME_WORDS = 7
_WEIGHTS = (1.0, 0.75, 0.5)  # themes, entities, keyphrases: themes sum up whole documents
_GENERIC = word_set(
    """data value file example section page system method type name number time thing way part item
    text body level heading line content document information info set list case note step chunk
    report result output input use usage service application process instance metric label sample
    series job target server host client code format version default option setting feature function
    support issue problem error question answer tutorial guide overview introduction summary detail
    reference table figure image link url path key word character string field object entry record
    element unit count sum total bucket amount size length range kind sort stuff user people person
    team basis area topic aspect approach behavior behaviour purpose reason idea concept term context
    place point side end start lot bit piece doc docs documentation monitoring metrics system corpus
    load basic basics net on-call oncall"""
)
_GENERIC_HEADS = word_set(
    """section example page value data thing part item text body level heading line content document
    information number way case step note chunk file stuff detail result output lot bit piece process
    feed"""
)
_WEAK_NAMES = word_set(
    "http https api url uri ui json yaml xml html cpu id os utf-8 tcp ip cli github gitlab faq"
)
_VERBS = word_set(
    """exposes consists depends provides supports uses allows requires contains includes means returns
    shows describes explains makes gets sets runs works needs has is are was were does lets changes"""
)
_NOUN_GERUNDS = word_set(
    """alerting monitoring logging tracing scraping profiling benchmarking relabeling relabelling sharding
    caching testing debugging versioning naming routing scheduling balancing limiting sampling
    recording escaping encoding rendering streaming indexing processing computing networking"""
)
_VERB_INGS = word_set(  # "exposing metrics", "Installing Prometheus": an action, not a thing
    """exposing including running using importing installing configuring creating adding getting setting
    making taking reading sending pulling pushing accessing understanding exploring securing writing
    building starting stopping checking finding choosing enabling disabling"""
)
_CODE = re.compile(r"_|\(\)$|^[a-z]\w*(?:\.\w+)+$|^\w+(?:\.\w+){2,}$")
_FUNCTION_WORDS = word_set(
    """a an the this that these those it its in on of for to from by with as at and or but is are was
    were be been being has have had do does did can could will would should may might must not no
    you your we our they their there here which what when where who how why also such some any all
    each more most other than then so if into out about over under"""
)
_FILLER = _FUNCTION_WORDS | word_set(
    """document documents page guide section tutorial describes explains covers shows introduces
    provides lists will we us let lets create use using set make run simple different new various
    following several many same"""
)


class PersonaInput(BaseModel):
    summaries: list[str] = Field(
        description="summaries of the documents (or passages) nearest the centre of the cluster"
    )
    themes: list[str] = Field(description="the cluster's most frequent themes, most frequent first")
    entities: list[str] = Field(
        default_factory=list,
        description="names that recur in these documents and few others (products, tools, code), "
        "strongest first",
    )
    keyphrases: list[str] = Field(
        default_factory=list, description="key phrases of the cluster's passages, strongest first"
    )
    language: str = Field(
        default="en (English)", description="the language of these documents: write the persona in it"
    )
    audience: str = Field(
        default="", description="the role these documents name their readers by (e.g. 'teammate'), if any"
    )
    scope: str = Field(default="", description="what the whole documentation is about (e.g. a product)")


class PersonaPrompt(Prompt[PersonaInput, Persona]):
    name = "personas.generate"
    instruction = (
        "The input holds summaries of a few documents that belong together in one documentation set, "
        "with the themes, names and key phrases they share. Describe one realistic reader of exactly "
        "these documents: the person who would open them and ask questions about them.\n"
        "- name: a job role followed by what the person does, 3 to 7 words, in the form "
        "'<role> <doing what>', for example 'SRE running alerting for several teams', 'Developer "
        "writing exporters for third-party systems' or 'Operator running the Pushgateway for batch "
        "jobs'. Start with a role noun (engineer, developer, SRE, operator, administrator, analyst, "
        "architect, ...). Never a personal name, and never a bare topic such as 'Native histograms'.\n"
        "- role_description: one sentence in the third person saying what this person does and what "
        "they want from these documents (the task they want done or the questions they bring).\n"
        "Pick the reader these particular documents serve best rather than a generic user, and do not "
        "mention products or features that the input does not.\n"
        "Write the name and the role_description in the language given as `language` (the documents' "
        "language), with that language's role nouns and natural word order, whatever the language of these "
        "instructions and of the example; keep product and code names as the input writes them."
    )
    examples = [
        (
            PersonaInput(
                summaries=[
                    "The guide explains how the payments API calls a shop's webhook URL when a payment "
                    "succeeds or fails, and how to check the signature header of each call.",
                    "Requests that fail with a network error can be retried safely when they carry an "
                    "idempotency key; the page lists which endpoints accept one.",
                ],
                themes=["webhooks", "idempotency keys", "request retries", "signature checks"],
                entities=["Idempotency-Key", "Payments API"],
                keyphrases=["webhook URL", "signature header", "network error"],
            ),
            Persona(
                name="Developer connecting a shop's checkout to payments",
                role_description="Connects an online shop's checkout to the payments API and wants to "
                "verify webhook calls and retry failed requests without charging anyone twice.",
            ),
        )
    ]

    def offline(self, data: PersonaInput) -> Persona:
        return offline_persona(
            data.themes,
            data.summaries,
            data.entities,
            data.keyphrases,
            language=label_code(data.language),
            audience=data.audience,
            scope=data.scope,
        )


@dataclass
class _Topic:
    text: str
    named: bool  # a product, tool or code name ("Node Exporter"), not a common noun phrase
    score: float
    order: int
    vouched: bool = True  # False for a capitalised word only a keyphrase gives: "Enable", "Compaction"


def offline_persona(
    themes: Sequence[str],
    summaries: Sequence[str],
    entities: Sequence[str] = (),
    keyphrases: Sequence[str] = (),
    *,
    language: str = "en",
    audience: str = "",
    scope: str = "",
) -> Persona:
    """A persona that reads as a role, written in ``language`` (English for a language without persona
    wording, see ``groundset.languages``). In English, named by ``audience``, the role the documents name
    their readers by, and ``scope`` ("Teammate at Sourcegraph"); without one, from the cluster's topics
    (or its summaries' first words). In another language the role is named with ``scope`` too
    ("Entwickler für Vite"), the cluster's topics only describing it."""
    local = local_persona(language, themes, summaries, entities, keyphrases, scope=scope)
    if local is not None:
        return local
    if audience and audience_name(audience, scope):
        return _audience_persona(audience, scope)
    lowercase = _lowercase_words([*themes, *keyphrases, *summaries])
    topics = _topics(themes, entities, keyphrases, lowercase)
    # A theme that already names the readers ("exporter developers") is the best name of all.
    people = next((" ".join(t.split()) for t in themes if reads_as_role(t) and len(t.split()) <= 5), "")
    if not topics:  # the summaries' first words, then a plain reader
        words = next((w for w in (_lead_words(s) for s in summaries) if w), "")
        topic = _topic(words, 1.0, 0, lowercase) if words else None
        if topic is None:
            return FALLBACK if not people else FALLBACK.model_copy(update={"name": _upper_first(people)})
        topics = [topic]
    # The role reads every input, usable as a topic or not ("web configuration file" says admin).
    sources = zip(_WEIGHTS, (themes, entities, keyphrases), strict=True)
    role = choose_role(
        [
            *((str(t), w / (1 + 0.3 * r)) for w, ts in sources for r, t in enumerate(ts) if not is_markup(t)),
            *((s, 0.5) for s in summaries),
        ]
    )
    for topic in topics:
        if cue_count(role, topic.text):
            topic.score *= 1.3
    topics.sort(key=lambda t: (-round(t.score, 9), t.order))
    first = topics[0]
    ing, third = activity(role, first.text, named=first.named)
    named = [first]
    for topic in topics[1:]:
        same = activity(role, topic.text, named=topic.named) == (ing, third)
        # "running Node Exporter and Alertmanager", not "running Prometheus instances and gRPC"
        fits = same and (topic.named == first.named or ing == "working with") and _apart(topic, named)
        fits = fits and _telling(topic)  # no "Node Exporter and HTTP", no "... and binds"
        if fits and len(_name(role, ing, [*named, topic]).split()) <= MAX_NAME_WORDS:
            named.append(topic)
            break
    others = [t for t in topics if t not in named and _apart(t, named)]
    extra = next((t for t in others if _telling(t)), others[0] if others else None)
    pick = int(stable_hash([role, *(t.text.casefold() for t in topics[:4])], length=8), 16)
    description = role_sentence(
        role,
        pick,
        _listing([object_phrase(t.text, named=t.named) for t in named]),
        object_phrase(extra.text, named=extra.named) if extra else "",
    )
    name = _upper_first(people) if people else _name(role, ing, named)
    return Persona(name=name, role_description=description)


def _audience_persona(role: str, scope: str) -> Persona:
    """The corpus's own reader ("FastAPI user"). No topics in it: two clusters with one reader give one
    persona (``unique_names`` keeps identical personas as they are)."""
    name = audience_name(role, scope)
    what = f"the {scope} documentation" if scope else "this documentation"
    return Persona(name=name, role_description=f"{name}; reads {what} for answers to use in their work.")


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _name(role: str, ing: str, topics: list[_Topic]) -> str:
    return f"{role} {ing} {_listing([object_phrase(t.text, named=t.named) for t in topics])}"


def _apart(topic: _Topic, others: Iterable[_Topic]) -> bool:
    """No content word in common ("Node Exporter", "Prometheus Node Exporter"), and not an acronym
    next to its expansion ("TLS", "Transport Layer Security")."""
    words = set(_key(topic.text).split())
    return all(not words & set(_key(o.text).split()) and not _expands(topic.text, o.text) for o in others)


def _expands(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    initials = "".join(w[0] for w in long.split(" ") if w[:1].isupper())
    return short.isupper() and len(short) > 1 and initials == short


def _topics(
    themes: Sequence[str], entities: Sequence[str], keyphrases: Sequence[str], lowercase: set[str]
) -> list[_Topic]:
    """Usable topics, merged across sources (a topic found twice is stronger), strongest first."""
    merged: dict[str, _Topic] = {}
    order = 0
    for index, (weight, source) in enumerate(zip(_WEIGHTS, (themes, entities, keyphrases), strict=True)):
        for rank, raw in enumerate(source):
            topic = _topic(raw, weight / (1 + 0.3 * rank), order, lowercase)
            order += 1
            if topic is None:
                continue
            if index == 2 and re.fullmatch(r"[A-Z][a-z]+", topic.text):  # a sentence's or heading's start?
                topic.vouched, topic.score = False, topic.score * 0.5
            key = _key(topic.text)
            if key in merged:
                kept = merged[key]
                kept.score += topic.score
                kept.vouched = kept.vouched or topic.vouched
                same = topic.text.casefold() == kept.text.casefold()
                if (
                    same and _cased(topic.text) and not _cased(kept.text)
                ):  # "cAdvisor", not "Native Histograms"
                    kept.text, kept.named = topic.text, True
            else:
                merged[key] = topic
    topics = list(merged.values())
    keys = {id(t): _key(t.text).split() for t in topics}
    bonus = {id(t): 0.0 for t in topics}
    for short in topics:  # "exporter" gains from "blackbox exporter" and "SNMP exporter"
        for long in topics:
            if len(keys[id(short)]) < len(keys[id(long)]) and _contains(keys[id(long)], keys[id(short)]):
                bonus[id(short)] += 0.4 * long.score
    for topic in topics:
        topic.score += bonus[id(topic)]
    return sorted(topics, key=lambda t: (-round(t.score, 9), t.order))


def _topic(raw: str, score: float, order: int, lowercase: set[str]) -> _Topic | None:
    """A cleaned topic with its quality folded into the score, or None when it must not be used."""
    text = re.sub(r"\s+", " ", str(raw)).strip(" \t.,;:!?-*#'\"()")
    words = text.split(" ")
    if not text or len(words) > MAX_TOPIC_WORDS or is_markup(text):
        return None
    seen = lowercase if len(words) == 1 else set()  # "prometheus" in a command line proves little
    if re.fullmatch(r"[A-Z][a-z]+(?: [a-z][a-z-]*)*", text) and _common_start(words[0].lower(), seen):
        text = text[:1].lower() + text[1:]  # "Metric", "Alerting rules": a heading's first word
        words = text.split(" ")
    lower = [singular(w.casefold()) for w in words]
    named = not re.fullmatch(r"[a-z][a-z-]*", words[-1])
    if (len(words) == 1 and lower[0] in _GENERIC) or lower[-1] in _GENERIC_HEADS:
        return None
    if len(words) == 1 and re.fullmatch(r"[A-Z][a-z]+(?:ed|ing|ly)", text):
        return None  # "Created", "Using": a heading's first word, not a name
    if any(is_role_word(w) for w in words):
        return None  # people, not a topic: "writing exporter developers" makes no sense
    if words[-1].casefold() in _VERBS or any(w in _FUNCTION_WORDS for w in lower) or not _nounish(words):
        return None  # "Node Exporter exposes", "Alerting based on metrics", "exposing metrics"
    if lower[0] in _FILLER or lower[-1] in _FILLER:
        return None
    if len(words) == 1 and not named:
        score *= 0.45  # a single common word says little ("exporter" still can win with support)
    elif _weak(text):
        score *= 0.3  # HTTP, API, HTTP API: real names, but every technical document has them
    elif _code(text):
        score *= 0.6  # code identifiers are real names but make clumsy roles
    elif named and len(words) > 1:
        score *= 1.2  # a multi-word name: "Node Exporter", "Prometheus Remote Write"
    return _Topic(text, named, score, order)


def _common_start(word: str, lowercase: set[str]) -> bool:
    """A capitalised first word that is an ordinary word: seen in lower case, generic, or shaped
    like a verb or adjective ("Alerting", "Basic")."""
    if singular(word) in lowercase or singular(word) in _GENERIC or word in _FILLER:
        return True
    return word.endswith(("ing", "ed", "al", "ic", "ive", "ous", "ful", "able"))


def _telling(topic: _Topic) -> bool:
    """Worth a place next to the main topic: a name or a phrase, not an identifier or HTTP."""
    named = topic.named and topic.vouched
    return not _code(topic.text) and not _weak(topic.text) and (named or " " in topic.text)


def _weak(text: str) -> bool:
    """Names every technical document has (HTTP, API, HTTP API): real, but they set nobody apart."""
    lower = [singular(w.casefold()) for w in text.split(" ")]
    return any(w in _WEAK_NAMES for w in lower) and all(w in _WEAK_NAMES or w in _GENERIC for w in lower)


def _code(text: str) -> bool:
    return any(_CODE.search(w) for w in text.split(" "))


def _cased(text: str) -> bool:
    """Some word has capitals of its own: "cAdvisor", "TLS", "OpenMetrics" (not "Native Histograms")."""
    return any(re.search(r"[^\W\d_].*[A-Z]", w) or (w.isupper() and len(w) > 1) for w in text.split())


def _nounish(words: list[str]) -> bool:
    """No verb or adjective at the edges of a phrase ("exposing metrics", "users accessing", "official")."""
    last = words[-1].casefold()
    if words[0].casefold() in _VERB_INGS:
        return False
    if not re.fullmatch(r"[a-z][a-z-]*", words[-1]):
        return True  # it ends in a name
    if last.endswith("ing") and last not in _NOUN_GERUNDS:
        return False
    adjective = last.endswith(("ly", "ed", "al", "ive", "ous", "ful", "less", "able", "ible"))
    return not (len(words) == 1 and (adjective or len(last) < 4))


def _key(text: str) -> str:
    return " ".join(singular(w) for w in text.casefold().split())


def _contains(long: list[str], short: list[str]) -> bool:
    return any(long[i : i + len(short)] == short for i in range(len(long) - len(short) + 1))


def _lowercase_words(texts: Iterable[str]) -> set[str]:
    return {singular(w) for text in texts for w in re.findall(r"(?<![\w./:@-])[a-z]+(?![\w./:@-])", text)}


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _lead_words(summary: str) -> str:
    """The summary's first noun-like words: a cheap stand-in for its subject.

    A capitalised run ("Node Exporter") is taken whole; a lower-case run stops after two words,
    and words that look like verbs or adverbs cannot start one.
    """
    run: list[str] = []
    for token in re.findall(r"[^\W\d_][\w.+-]*", summary):
        word = token.rstrip(".-")
        proper = word[:1].isupper()
        if run and (proper != run[0][:1].isupper() or len(run) == (3 if proper else 2)):
            break
        if len(word) < 3 or word.casefold() in _FILLER or (not run and _verb_like(word)):
            if run:
                break
            continue
        run.append(word)
    return " ".join(run)


def _verb_like(word: str) -> bool:
    lower = word.casefold()
    if word[:1].isupper():
        return lower.endswith("ly")
    return lower.endswith(("ly", "ed")) or (lower.endswith("s") and not lower.endswith("ss"))
