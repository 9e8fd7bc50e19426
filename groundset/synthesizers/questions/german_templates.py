"""Questions from German facts: one template family per answer pattern, as in English (``templates``).

A question asks exactly what its fact's sentence answers ("Wofür wird „X“ verwendet?" for "X wird
verwendet, um ..."). The term is quoted without an article (its gender is unknown); a goal or a condition
is the sentence's own clause, which German already words as a question needs it ("Wie kann ich die App
bauen?", "Was passiert, wenn der Build fehlschlägt?"). Sizing and styles are German's (``languages.de``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from ...languages import wording
from ..scenarios.fact import Fact
from ..scenarios.page_name import names_anchor
from .local import local_size, local_style

__all__ = ["german_fact_question"]

_SHORT_WORDS = 12
_VERBS = {  # a meaning verb, singular -> (question, plural)
    "bedeutet": ("Was bedeutet „{t}“", "Was bedeuten „{t}“"),
    "bezeichnet": ("Was bezeichnet „{t}“", "Was bezeichnen „{t}“"),
    "beschreibt": ("Was beschreibt „{t}“", "Was beschreiben „{t}“"),
    "steht": ("Wofür steht „{t}“", "Wofür stehen „{t}“"),
    "bezieht": ("Worauf bezieht sich „{t}“", "Worauf beziehen sich „{t}“"),
}
_PLURAL_VERBS = {"bedeuten": "bedeutet", "bezeichnen": "bezeichnet", "beschreiben": "beschreibt",
                 "stehen": "steht", "beziehen": "bezieht"}  # fmt: skip


def _forms(fact: Fact) -> list[str]:
    t, s, many = fact.focus, fact.slots, fact.plural
    pattern, how, form = fact.pattern, s.get("how", ""), s.get("form", "")
    if pattern == "definition":
        if how == "is":
            return [f"Was {'sind' if many else 'ist'} „{t}“", f"Was versteht man unter „{t}“"]
        singular, plural = _VERBS[_PLURAL_VERBS.get(how, how)]
        return [(plural if many else singular).format(t=t)]
    if pattern == "purpose":
        if how == "option":
            return [f"Wofür ist die Option „{t}“ da", f"Was legt die Option „{t}“ fest"]
        if how == "serves":
            return [f"Wozu {'dienen' if many else 'dient'} „{t}“"]
        if how == "enables":
            return [f"Was {'ermöglichen' if many else 'ermöglicht'} „{t}“"]
        verb = "werden" if many else "wird"
        return [f"Wofür {verb} „{t}“ verwendet", f"Wozu {verb} „{t}“ eingesetzt"]
    if pattern == "default":
        if form == "option":
            return [f"Welchen Standardwert hat die Option „{t}“", f"Was ist der Standardwert von „{t}“"]
        if form == "state" and s.get("verb") in ("wird", "werden"):  # "werden standardmäßig externalisiert"
            return [f"Wie {'werden' if many else 'wird'} „{t}“ standardmäßig behandelt"]
        return [f"Welchen Standardwert {'haben' if many else 'hat'} „{t}“"]
    if pattern == "procedure":
        return [f"Wie kann ich {s.get('goal', t)}"]
    if pattern == "cause":
        cond, conj = s.get("cond", ""), s.get("conj", "wenn")
        if form == "advice":
            return [f"Was sollte ich tun, {conj} {cond}", f"Was ist zu tun, {conj} {cond}"]
        if form == "can":
            return [f"Was kann ich tun, {conj} {cond}"]
        if form == "rule":
            weight = "ist erforderlich" if s.get("modal") == "must" else "wird empfohlen"
            return [f"Was {weight}, {conj} {cond}"]
        return [f"Was passiert, {conj} {cond}"]
    raise ValueError(f"no German question template for pattern {pattern!r}")


def _lower_first(question: str) -> str:
    first, _, rest = question.partition(" ")
    return f"{first.lower()} {rest}" if first.isalpha() else question


def _single(fact: Fact, rng: random.Random, *, short: bool = False) -> str:
    forms = _forms(fact)
    return min(forms, key=len) if short else rng.choice(forms)


def _compare(a: Fact, b: Fact, rng: random.Random) -> str:
    x, y = a.focus, b.focus
    if a.slots.get("form") == b.slots.get("form") == "option":  # each default with what the option sets
        return rng.choice(
            [
                f"Worin unterscheiden sich die Optionen „{x}“ und „{y}“",
                f"Welche Standardwerte haben „{x}“ und „{y}“, und was legen sie fest",
            ]
        )
    if a.slots.get("how") == b.slots.get("how") == "option":  # no defaults: what each sets, not a difference
        return f"Was legen die Optionen „{x}“ und „{y}“ jeweils fest"
    if a.pattern == b.pattern == "purpose":
        return rng.choice(
            [f"Wofür werden „{x}“ und „{y}“ jeweils verwendet", f"Was leisten „{x}“ und „{y}“ jeweils"]
        )
    return rng.choice(
        [f"Worin unterscheiden sich „{x}“ und „{y}“", f"Was ist der Unterschied zwischen „{x}“ und „{y}“"]
    )


_SEARCH = {"definition": "was ist {t}", "purpose": "{t} wofür verwendet", "default": "{t} standardwert"}


def _web_query(facts: Sequence[Fact], compare: bool, rng: random.Random) -> str:
    if compare and len(facts) >= 2:
        if "option" in (facts[0].slots.get("how"), facts[0].slots.get("form")):
            return _search_case(f"unterschied optionen {facts[0].focus} {facts[1].focus}")
        return _search_case(rng.choice([f"{facts[0].focus} vs {facts[1].focus}",
                                        f"{facts[0].focus} {facts[1].focus} unterschied"]))  # fmt: skip
    parts = []
    for fact in facts[:2]:
        if fact.pattern in _SEARCH:
            parts.append(_SEARCH[fact.pattern].format(t=fact.focus))
        else:  # a goal or a condition keeps its words: cut to keywords it loses what it asks
            parts.append(_single(fact, rng, short=True))
    return _search_case(" und ".join(dict.fromkeys(parts)))


def _search_case(text: str) -> str:
    """Lower case except code-like words (``server.port``, ``cacheDir``); no quotes or marks."""
    words = []
    for word in text.replace("„", "").replace("“", "").split():
        word = word.strip(",;:!?\"'()")
        code = "_" in word or "." in word.strip(".") or re.search(r"[a-z][A-Z]", word)
        if word:
            words.append(word if code else word.lower())
    return " ".join(words)


def german_fact_question(
    kind: str,
    facts: Sequence[Fact],
    *,
    style: str,
    length: str,
    seed: int,
    scope: str = "",
    anchor: str = "",
) -> str:
    """The German question ``facts`` answer (see ``answer_first.fact_question``)."""
    words = wording("de")
    if words is None:  # pragma: no cover - German ships its wording
        raise RuntimeError("no German question wording")
    rng = random.Random(f"de|{kind}|{seed}|{'|'.join(f.reference for f in facts)}")
    compare = kind == "multi_hop_abstract" and len(facts) >= 2
    if style == "web_search":
        query = _web_query(facts, compare, rng)
        named = anchor or scope  # "server.port standardwert" is a search, but names its product when short
        if named and named.casefold() not in query.casefold() and (anchor or len(query.split()) < 3):
            query = f"{named if anchor else named.lower()} {query}"
        return query
    if compare:
        core = _compare(facts[0], facts[1], rng)
    elif len(facts) >= 2:
        core = f"{_single(facts[0], rng)}, und {_lower_first(_single(facts[1], rng))}"
    else:
        core = _single(facts[0], rng)
        if length == "short" and len(core.split()) > _SHORT_WORDS:
            core = _single(facts[0], rng, short=True)
    core = " ".join(core.split()) + "?"
    if anchor and not names_anchor(core, anchor):
        length, scope = ("medium" if length == "short" else length), anchor
    question = local_size(words, core, length, seed=seed, scope=scope)
    protect = [
        t for t in [*(f.focus for f in facts), anchor, scope] if t and t.casefold() in question.casefold()
    ]
    return local_style(words, question, style, seed=seed, protect=protect)
