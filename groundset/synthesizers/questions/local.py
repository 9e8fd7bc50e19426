"""Offline questions in languages other than English, from the language's own templates (``languages``).

As in English (``questions.offline``) the question is a template filled with the term the evidence
mentions, chosen by what the evidence looks like (a definition, a default, a duration, a rule), then
sized (medium: in the product or "according to the documentation"; long: a persona lead-in and a
purpose) and styled; every wording, punctuation and style rule is the language's. The term and the
section labels never change under a style, so the contexts still answer the question.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from ...languages import QuestionWording
from ...personas.nouns import cjk_share
from ...personas.roles import reads_as_role
from .offline import checked_terms, term_pattern
from .styles import mask_terms, unmask_terms

__all__ = ["evidence_case", "local_question", "local_size"]

_FOCUS_CHARS = 12  # the term opens the sentence: "La sonde est ...", "探针是 ..."
_SHORT_WORDS = 12
_SHORT_CHARS = 24  # a short question in a language without spaces
# Chinese sets Latin words off with spaces ("在 Orbiscope 中"), but not next to its own punctuation.
_LATIN_EDGE = re.compile(r"[A-Za-z0-9_`]")
_BY_PUNCTUATION = re.compile(r"\s+(?=[，。？！、：；“”」])|(?<=[，。？！、：；“”「])\s+")


def local_question(
    words: QuestionWording,
    kind: str,
    terms: Sequence[str],
    evidence: Sequence[str],
    *,
    persona: str = "",
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
    scope: str = "",
) -> str:
    """A question about ``terms[0]`` in the language of ``words`` that ``evidence`` answers.

    Other terms are the section labels of the contexts (multi_hop_specific reads two, multi_hop_abstract
    up to four); ``persona`` is the asker's name, ``scope`` what the documentation is about.
    """
    names = checked_terms(kind, length, style, terms)
    term = names[0]
    rng = random.Random(f"{words.code}|{kind}|{seed}|{'|'.join(names)}")
    labels: list[str] = []
    if kind == "single_hop_specific":
        key = evidence_case(words, term, evidence)
        templates = words.single[key]
    else:
        for label in names[1 : 1 + (2 if kind == "multi_hop_specific" else 4)]:
            if label and label.casefold() not in {x.casefold() for x in [term, *labels]}:
                labels.append(label)
        if kind == "multi_hop_specific":
            key = ("none", "one", "two")[min(len(labels), 2)]
        else:
            key = "abstract" if len(labels) >= 2 else "abstract_none"
        templates = words.multi[key]
    if style == "web_search":
        query = words.search[key].format(
            term=term, a=_at(labels, 0), b=_at(labels, 1), labels=" ".join(labels)
        )
        return " ".join(query.split()).lower()
    quoted = [words.quote.format(label) for label in labels]
    fill = {
        "term": padded(words, term),
        "a": _at(quoted, 0),
        "b": _at(quoted, 1),
        "labels": words.listing(quoted),
    }
    cores = [tidy(words, template.format(**fill)) for template in templates]
    core = rng.choice(cores)
    if length == "short" and too_long(words, core):
        core = min(cores, key=len)
    question = local_size(words, core, length, persona=persona, seed=seed, scope=scope)
    protect = [name for name in [*names, scope] if name and name.casefold() in question.casefold()]
    return local_style(words, question, style, seed=seed, protect=protect)


def evidence_case(words: QuestionWording, term: str, evidence: Sequence[str]) -> str:
    """Which single-hop template family fits the evidence (the English order: default, quantity,
    definition, requirement, anything else)."""
    text = " ".join(evidence)
    cues = words.cues
    if cues.default.search(text):
        return "default"
    if cues.duration.search(text):
        return "duration"
    if cues.amount.search(text):
        return "amount"
    pattern = term_pattern(term)
    for sentence in evidence:
        found = pattern.search(sentence) if pattern else None
        if found and found.start() <= _FOCUS_CHARS and cues.definition.match(sentence[found.end() :]):
            return "definition"
    return "requirement" if cues.requirement.search(text) else "generic"


def local_size(
    words: QuestionWording, core: str, length: str, *, persona: str = "", seed: int = 0, scope: str = ""
) -> str:
    """short: ``core``; medium: in the product (``scope``) or as the documentation says; long: a role
    lead-in (the persona's name when it is a role in this language, else a neutral one) and a purpose."""
    if length == "short":
        return core
    rng = random.Random(f"length:{words.code}:{seed}:{core}")
    body = words.body(core)
    parts = {"core": core, "body": body, "inner": body.lstrip("¿")}
    if length == "medium":
        split = "," in body and words.spaced  # a suffix would land in the last clause
        if scope and scope.casefold() not in core.casefold():
            scoped = words.scoped_lead if split and words.scoped_lead else words.scoped
            return tidy(words, scoped.format(scope=scope, **parts))
        if words.document_word.casefold() in core.casefold():
            return core  # "根据文档，文档中是如何…": the documentation is named already
        clause = words.clause_lead if split and words.clause_lead else rng.choice(words.clauses)
        return clause.format(**parts)
    name = persona.split(":", 1)[0].strip()
    lead = name if _own_role(words, name) else rng.choice(words.leads)
    if words.lower_lead and lead[1:2].islower():
        lead = lead[:1].lower() + lead[1:]
    return tidy(words, words.long.format(lead=lead, purpose=rng.choice(words.purposes), core=core))


def local_style(
    words: QuestionWording, question: str, style: str, *, seed: int, protect: Sequence[str] = ()
) -> str:
    """``question`` in ``style`` by the language's rules; protected terms stay as they are."""
    text = " ".join(question.split())
    if style in ("perfect_grammar", "web_search"):
        return text
    masked, originals = mask_terms(text, protect)
    rng = random.Random(f"{style}:{words.code}:{seed}:{text}")
    rewrite = words.poor_grammar if style == "poor_grammar" else words.misspelled
    styled = unmask_terms(rewrite(masked, rng), originals).strip()
    return styled if any(char.isalnum() for char in styled) else text


def _own_role(words: QuestionWording, name: str) -> bool:
    """Whether a persona's name is a role written in this language (an English "SRE running alerting"
    would read badly inside a Chinese or German sentence)."""
    folded = name.casefold()
    if not name or not any(word.casefold() in folded for word in words.role_words):
        return False
    if not words.spaced:
        return True  # its role words are written in the language's own script
    return cjk_share(name) == 0 and not reads_as_role(name)


def padded(words: QuestionWording, term: str) -> str:
    """In Chinese, a term with Latin edges set off by spaces ("HTTP 探针" stays whole)."""
    if words.code != "zh":
        return term
    return f"{' ' if _LATIN_EDGE.match(term[0]) else ''}{term}{' ' if _LATIN_EDGE.match(term[-1]) else ''}"


def tidy(words: QuestionWording, text: str) -> str:
    """Single spaces; none next to Chinese full-width punctuation; the language's elision ("qu'ingénieur")."""
    if words.code == "zh":
        text = _BY_PUNCTUATION.sub("", text)
    if words.elision is not None:
        text = words.elision.sub(lambda m: f"{m.group(1)}'", text)
    return " ".join(text.split())


def too_long(words: QuestionWording, core: str) -> bool:
    return len(core.split()) > _SHORT_WORDS if words.spaced else len(core) > _SHORT_CHARS


def _at(items: Sequence[str], index: int) -> str:
    return items[index] if index < len(items) else ""
