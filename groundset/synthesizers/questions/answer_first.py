"""Offline samples written answer first: the facts fix the reference, templates ask for exactly them.

single_hop_specific asks one fact; multi_hop_specific asks two facts about one subject from two
contexts; multi_hop_abstract compares two subjects of one theme, each defined in its own context.
The reference is the facts' self-contained sentences, one per line, so it answers the question and
is grounded in the contexts by construction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..scenarios.facts import Fact
from ..scenarios.page_name import names_anchor, query_name
from .german_templates import german_fact_question
from .styles import LENGTHS, STYLES, apply_style, size_question
from .templates import compare_question, pair_question, shortest_question, single_question, web_query

__all__ = ["answer_slots", "fact_question", "fact_reference"]

_SHORT_WORDS = 12


def fact_reference(facts: Sequence[Fact]) -> str:
    """Each fact's self-contained sentence once, one per line (each line can be checked on its own)."""
    return "\n".join(dict.fromkeys(f.reference.strip() for f in facts if f.reference.strip()))


def answer_slots(facts: Sequence[Fact]) -> list[str]:
    """What the reference must contain for the question to be answered: each fact's subject and answer."""
    slots = [part for f in facts for part in (f.focus, f.answer) if part.strip()]
    return list(dict.fromkeys(slots))


def fact_question(
    kind: str,
    facts: Sequence[Fact],
    *,
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
    scope: str = "",
    anchor: str = "",
) -> str:
    """The question ``facts`` answer, for synthesizer ``kind``, in ``style`` and ``length``. ``anchor``: the
    API or command the fact's page documents, named when the question does not (in place of ``scope``)."""
    if not facts:
        raise ValueError("fact_question needs at least one fact")
    if style not in STYLES:
        raise ValueError(f"unknown query style {style!r}; expected one of: {', '.join(STYLES)}")
    if length not in LENGTHS:
        raise ValueError(f"unknown query length {length!r}; expected one of: {', '.join(LENGTHS)}")
    if facts[0].lang == "de":
        return german_fact_question(
            kind, facts, style=style, length=length, seed=seed, scope=scope, anchor=anchor
        )
    rng = random.Random(f"{kind}|{seed}|{'|'.join(f.reference for f in facts)}")
    compare = kind == "multi_hop_abstract" and len(facts) >= 2
    if style == "web_search":
        query = web_query(list(facts), rng, compare=compare)
        return f"{query_name(anchor)} {query}" if anchor and not names_anchor(query, anchor) else query
    if compare:
        core = compare_question(facts[0], facts[1], rng)
    elif len(facts) >= 2:
        core = pair_question(facts[0], facts[1], rng)
    else:
        core = single_question(facts[0], rng)
        if length == "short" and len(core.split()) > _SHORT_WORDS:
            core = shortest_question(facts[0])
    api = bool(anchor) and not names_anchor(core, anchor)
    if api:  # a short question names it too
        length, scope = ("medium" if length == "short" else length), anchor
    question = size_question(core, length, scope=scope, api=api)
    protect = [t for t in [*(f.focus for f in facts), anchor] if t and t.lower() in question.lower()]
    return apply_style(question, style, seed=seed, protect=protect)
