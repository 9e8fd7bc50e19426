"""The offline forms of the double and comparative prompts: English templates, answer first.

A double question joins two single questions ("What is X, and how do I Y?"), each asking one fact of
its own context; a comparative question names both sides ("How do X and Y differ?", or for one
subject as two documents describe it, "How do A and B differ on X?"). The reference is the facts'
self-contained sentences, one line per context, so each part is grounded in its chunk. Without facts
(a model's scenario answered offline) the question is about the scenario's term and the reference is
the sentences of each context that mention it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..questions.answer_first import fact_reference
from ..questions.offline import answer_sentences
from ..questions.styles import agreement, apply_style, size_question
from ..questions.templates import compare_question, noun_phrase, shortest_question, single_question, web_query
from ..scenarios.facts import Fact

__all__ = ["comparison_question", "double_question", "evidence_reference", "pair_reference"]

_DEFINING = frozenset({"definition", "purpose"})


def pair_reference(facts: Sequence[Fact], term: str, contexts: Sequence[str]) -> str:
    """Both facts' sentences (one line each), or without facts each context's sentences about ``term``."""
    return fact_reference(facts) if facts else evidence_reference(term, contexts)


def evidence_reference(term: str, contexts: Sequence[str]) -> str:
    """One line per context: its sentences (verbatim) that mention ``term``."""
    lines = [" ".join(answer_sentences(term, context)) for context in contexts]
    return "\n".join(dict.fromkeys(line for line in lines if line.strip()))


def double_question(
    facts: Sequence[Fact],
    *,
    terms: Sequence[str] = (),
    labels: Sequence[str] = (),
    persona: str = "",
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
    scope: str = "",
) -> str:
    """Two questions in one: the first fact's and the second's, joined by "and" (a search query: both
    keyword sets). Without two facts: what each context (``labels``) says about ``terms[0]``."""
    rng = random.Random(f"double|{seed}|{'|'.join(f.reference for f in facts)}|{'|'.join(terms)}")
    if len(facts) >= 2:
        first, second = facts[0], facts[1]
        if style == "web_search":
            return f"{web_query([first], rng)} and {web_query([second], rng)}"
        ask = shortest_question if length == "short" else (lambda fact: single_question(fact, rng))
        core = f"{ask(first).rstrip('?')}, and {_lower_question(ask(second))}"
        protect = [f.focus for f in facts]
    else:
        term, a, b = _term_and_sides(terms, labels)
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
    return _finish(core, protect, persona=persona, style=style, length=length, seed=seed, scope=scope)


def comparison_question(
    facts: Sequence[Fact],
    *,
    terms: Sequence[str],
    persona: str = "",
    style: str = "perfect_grammar",
    length: str = "medium",
    seed: int = 0,
    scope: str = "",
) -> str:
    """A question comparing two sides. ``terms``: [x, y] for two subjects (one fact each), or [x, A, B]
    for one subject x as documents A and B describe it (facts optional)."""
    rng = random.Random(f"comparative|{seed}|{'|'.join(f.reference for f in facts)}|{'|'.join(terms)}")
    if len(terms) >= 3 or len(facts) < 2:  # one subject, two documents
        x = _subject(facts[0]) if facts else terms[0]
        _, a, b = _term_and_sides(terms, ())
        if style == "web_search":
            return f"{x} {a} vs {b}".lower()
        core = rng.choice(
            (
                f"How do {a} and {b} differ on {x}?",
                f"What do {a} and {b} each say about {x}?",
                f"How does {a} describe {x} compared with {b}?",
            )
        )
        protect = [x, a, b]
    else:
        first, second = facts[0], facts[1]
        x, y = noun_phrase(first, bare=True), noun_phrase(second, bare=True)
        if style == "web_search":
            rules = " rules" if first.pattern == "constraint" else ""
            return rng.choice((f"{x} vs {y}{rules}", f"{x} {y} difference")).lower()
        if first.pattern in _DEFINING and second.pattern in _DEFINING:
            core = compare_question(first, second, rng)
        elif first.pattern == "constraint":
            core = rng.choice(
                (
                    f"How do the rules for {x} differ from those for {y}?",
                    f"What is required of {x}, compared with {y}?",
                    f"How do the requirements for {x} and {y} compare?",
                )
            )
        elif first.pattern == "default":
            core = f"How do the defaults of {x} and {y} differ?"
        else:
            core = f"How does {x} compare with {y}?"
        protect = [x, y, first.focus, second.focus]
    return _finish(core, protect, persona=persona, style=style, length=length, seed=seed, scope=scope)


def _subject(fact: Fact) -> str:
    """The subject mid-sentence, with "the" kept ("differ on the complete set of labels") and "a" not."""
    phrase = noun_phrase(fact)
    return phrase if phrase.startswith("the ") else noun_phrase(fact, bare=True)


def _term_and_sides(terms: Sequence[str], labels: Sequence[str]) -> tuple[str, str, str]:
    """(term, side a, side b): the sides are terms[1:3] when given, else the contexts' labels."""
    sides = [*terms[1:3], *labels][:2]
    while len(sides) < 2:
        sides.append("the documentation" if not sides else "elsewhere in the documentation")
    return terms[0], sides[0], sides[1]


def _lower_question(question: str) -> str:
    """The second question of a pair, mid-sentence: its question word in lower case."""
    first, _, rest = question.partition(" ")
    return f"{first.lower()} {rest}" if first.isalpha() and first[1:] == first[1:].lower() else question


def _finish(
    core: str, protect: Sequence[str], *, persona: str, style: str, length: str, seed: int, scope: str
) -> str:
    question = size_question(core, length, persona=persona, seed=seed, scope=scope)
    kept = [term for term in [*protect, scope] if term and term.lower() in question.lower()]
    return apply_style(question, style, seed=seed, protect=kept)
