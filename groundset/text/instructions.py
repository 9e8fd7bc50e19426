"""Whether English text instructs: an imperative clause ("Set up a channel ...", "either let the user ..."),
or one that says what you can, should or must do ("You can use the promhttp handler ...")."""

from __future__ import annotations

import re

from ..languages.en import ADVERBS, AUXILIARIES, DETERMINERS, FUNCTION_WORDS, IMPERATIVES, PREPOSITIONS
from ..languages.words import word_set

__all__ = ["imperative", "instructs", "opens_with_instruction"]


def imperative(clause: str) -> bool:
    """Whether a clause opens with an instruction's verb ("Set ...", "make sure ...", "either let ...")."""
    # "either let the user provide it or bake it into the template": two instructions, the first one's verb
    clause = re.sub(
        r"^(?:simply|just|then|first|now|also|instead|always|either) ", "", clause, flags=re.IGNORECASE
    )
    words = clause.split(" ", 2)
    first = words[0].lower()
    if first in IMPERATIVES or first == "please" or clause.startswith("make sure"):
        return True
    # "bring the appropriate PRs into it": a bare verb and then its object's determiner (a subject noun
    # is followed by its verb, not by "the")
    return (
        len(words) > 2
        and words[0].isalpha()
        and words[0].islower()
        and len(first) > 2
        and (words[1] in DETERMINERS or words[1] in ("it", "them"))  # "treat it as a singular noun"
        and first not in FUNCTION_WORDS | AUXILIARIES | ADVERBS | PREPOSITIONS | _CLAUSE_OPENERS
        and (first in _VERBS_IN_ING or not first.endswith(("ly", "s", "ed", "ing")))
    )


_VERBS_IN_ING = frozenset({"bring", "string", "swing", "spring", "sting", "fling", "wring"})
# Words that open a phrase or a clause before a determiner as a verb would: "after the line let s2 = s1;, Rust
# considers s1 as no longer valid" (the Rust book) says what Rust does, no instruction.
_CLAUSE_OPENERS = word_set(
    """after before until since during once while when whenever where whether because unless although though
    whereas upon without within across behind beyond despite via per like unlike inside outside throughout
    along against among around between"""
)


_INSTRUCTION = re.compile(
    r"\b(?:you (?:can|should|must|need to|have to|may)|(?:can|could|should|must|may) be [a-z]+ed)\b",
    re.IGNORECASE,
)


# "you have to decide how to handle the case when a key already has a value", "you need to know which
# implementation is faster" (the Rust book): that there is a choice, not what to do (0 of 16 readings kept)
_A_DECISION = re.compile(
    r"^(?:you |we )?(?:have to|need to|must|should|will need to|['\u2019]ll need to) "
    r"(?:decide|consider|think about|determine|figure out|choose|know) "
    r"(?:how|whether|what|which|if|where|when)\b",
    re.IGNORECASE,
)


def instructs(clause: str) -> bool:
    """Whether the main clause of "To do X, ..." says how (an instruction), not merely that it is easy or
    that there is a choice to make."""
    if _A_DECISION.match(clause):
        return False
    return imperative(clause) or bool(_INSTRUCTION.search(clause))


def opens_with_instruction(sentence: str) -> bool:
    """Whether a sentence is an instruction from its first word ("Set up a dedicated channel ...", "You can
    use the promhttp handler ..."), not one that says why ("This conflicts ... because you need to ...")."""
    return imperative(sentence) or bool(_INSTRUCTION.match(sentence))
