"""The persona prompt: one cluster of documents in, one reader of those documents out.

The offline form builds the persona from the cluster's dominant themes with a few fixed
sentence patterns, picked by a stable hash of the themes so that neighbouring clusters do
not read identically and reruns give the same text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, Field

from ..core.hashing import stable_hash
from ..core.prompts import Prompt
from ..text.sentences import word_set
from .model import Persona

FALLBACK = Persona(
    name="Documentation reader",
    role_description="Reads these documents to find answers to practical questions about what they describe.",
)
MAX_THEME_WORDS = 4  # a theme plus a role noun stays within 5 words
_ROLE_NOUNS = ("specialist", "practitioner", "engineer", "operator")
_ROLE_WORDS = word_set(
    "developer developers engineer engineers administrator administrators operator operators user users "
    "maintainer maintainers specialist practitioner contributor contributors"
)
_DESCRIPTIONS = (
    "Works with {topics}, and relies on the documentation to configure and troubleshoot their setup.",
    "Spends much of the working day on {topics}, and turns to the documentation for exact settings, "
    "formats and behaviour.",
    "Is responsible for {topics} in their team, and reads the documentation to set things up correctly "
    "and to understand problems when they occur.",
    "Deals with {topics} day to day, and comes to the documentation with concrete questions about how "
    "things work and why.",
)
_FILLER = word_set(
    """a an the this that these those it its in on of for to from by with as at and or but is are was
    were be been being has have had do does did can could will would should may might must not no
    you your we our they their there here which what when where who how why also such some any all
    each more most other than then so if into out about over under document documents page guide
    section tutorial describes explains covers shows introduces provides lists will we us let lets
    create use using set make run simple different new various following several many same"""
)


class PersonaInput(BaseModel):
    summaries: list[str] = Field(
        description="summaries of the documents (or passages) nearest the centre of the cluster"
    )
    themes: list[str] = Field(description="the cluster's most frequent themes, most frequent first")


class PersonaPrompt(Prompt[PersonaInput, Persona]):
    name = "personas.generate"
    instruction = (
        "The input holds summaries of a few documents that belong together in one documentation set, "
        "and the themes they share. Describe one realistic reader of exactly these documents: the "
        "person who would open them and ask questions about them.\n"
        "- name: a role, not a personal name, of 2 to 5 words, such as 'On-call SRE' or 'Exporter "
        "developer'. Say what the person does; do not just repeat a theme.\n"
        "- role_description: 1 or 2 sentences in the third person saying what this person does and "
        "what they need from these documents (the task they want done or the questions they bring).\n"
        "Pick the reader these particular documents serve best rather than a generic user, and do not "
        "mention products or features that the summaries do not."
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
            ),
            Persona(
                name="Checkout integration developer",
                role_description="Connects an online shop's checkout to the payments API and needs to "
                "know how to verify webhook calls and retry failed requests without charging twice.",
            ),
        )
    ]

    def offline(self, data: PersonaInput) -> Persona:
        return offline_persona(data.themes, data.summaries)


def offline_persona(themes: list[str], summaries: list[str]) -> Persona:
    """A readable persona from themes alone (or the summaries' first words when there are none)."""
    topics = _dedupe(t for t in (_clean(theme) for theme in themes) if t)
    if topics:
        pick = int(stable_hash([t.casefold() for t in topics], length=8), 16)
        return Persona(
            name=_role_name(topics[0], pick),
            role_description=_DESCRIPTIONS[pick % len(_DESCRIPTIONS)].format(topics=_listing(topics[:3])),
        )
    words = next((w for w in (_lead_words(s) for s in summaries) if w), "")
    if not words:
        return FALLBACK
    return Persona(
        name=f"{_sentence_case(words)} reader",
        role_description=f"Reads the documentation about {words} and asks practical questions about "
        "how it works and how to use it.",
    )


def _role_name(topic: str, pick: int) -> str:
    words = topic.split(" ")[:MAX_THEME_WORDS]
    head = _sentence_case(" ".join(words))
    if words[-1].casefold() in _ROLE_WORDS:
        return head  # the theme already names a role, e.g. "exporter developers"
    return f"{head} {_ROLE_NOUNS[(pick >> 8) % len(_ROLE_NOUNS)]}"


def _clean(theme: str) -> str:
    """One line, no edge punctuation; empty if nothing word-like is left."""
    text = re.sub(r"\s+", " ", str(theme)).strip(" \t.,;:!?-_*#`'\"()[]")
    return text if re.search(r"[^\W\d_]", text) else ""


def _dedupe(items: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        seen.setdefault(item.casefold(), item)
    return list(seen.values())


def _sentence_case(text: str) -> str:
    """Capitalise the first letter unless the first word has its own casing (TLS, cAdvisor, OpenMetrics)."""
    first = text.split(" ", 1)[0]
    return text if first != first.lower() else text[:1].upper() + text[1:]


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
