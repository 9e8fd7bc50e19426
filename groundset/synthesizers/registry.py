"""The kinds of question groundset writes, by name: what ``--distribution`` and ``--kinds`` accept.

The default test set mixes the three answerable kinds (single-hop specific, multi-hop specific and
abstract); ``--kinds all`` adds the kinds that probe failures users hit most (see each module).
"""

from __future__ import annotations

from .base import Synthesizer
from .kinds.comparative import ComparativeQuerySynthesizer
from .kinds.conversational.synthesizer import ConversationalQuerySynthesizer
from .kinds.distracting import DistractingQuerySynthesizer
from .kinds.double import DoubleQuerySynthesizer
from .kinds.multi_hop import MultiHopAbstractQuerySynthesizer, MultiHopSpecificQuerySynthesizer
from .kinds.out_of_scope.synthesizer import OutOfScopeQuerySynthesizer
from .kinds.single_hop import SingleHopSpecificQuerySynthesizer
from .kinds.situational import SituationalQuerySynthesizer

SHORT_NAMES = {
    "single": "single_hop_specific",
    "multi_abstract": "multi_hop_abstract",
    "multi_specific": "multi_hop_specific",
}
SYNTHESIZERS: dict[str, type[Synthesizer]] = {
    cls.name: cls
    for cls in (
        SingleHopSpecificQuerySynthesizer,
        MultiHopAbstractQuerySynthesizer,
        MultiHopSpecificQuerySynthesizer,
        OutOfScopeQuerySynthesizer,
        DistractingQuerySynthesizer,
        SituationalQuerySynthesizer,
        DoubleQuerySynthesizer,
        ComparativeQuerySynthesizer,
        ConversationalQuerySynthesizer,
    )
}
DEFAULT_KINDS: tuple[str, ...] = tuple(SYNTHESIZERS)[:3]  # what a test set mixes unless told otherwise
ALL_KINDS: tuple[str, ...] = tuple(SYNTHESIZERS)


def parse_distribution(text: str) -> dict[str, float]:
    """``single=0.5,multi_abstract=0.25,multi_specific=0.25`` -> weights by synthesizer name."""
    weights: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        name = SHORT_NAMES.get(name.strip(), name.strip())
        if not sep or name not in SYNTHESIZERS:
            valid = ", ".join([*SHORT_NAMES, *SYNTHESIZERS])
            raise ValueError(f"bad distribution entry {part!r}: write name=weight with a name among {valid}")
        try:
            weights[name] = float(value)
        except ValueError:
            raise ValueError(f"bad distribution entry {part!r}: {value!r} is not a number") from None
    if not weights or any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
        raise ValueError(f"distribution {text!r} needs non-negative weights with a positive sum")
    return weights


def kinds_distribution(text: str) -> dict[str, float]:
    """``all`` (every kind), ``default`` (the three answerable kinds) or a comma list of kind names:
    equal weights over them. Short names work as in ``parse_distribution``."""
    wanted = text.strip().casefold()
    if wanted in ("all", "default"):
        names = list(SYNTHESIZERS) if wanted == "all" else list(DEFAULT_KINDS)
    else:
        names = [SHORT_NAMES.get(n.strip(), n.strip()) for n in text.split(",") if n.strip()]
        unknown = [n for n in names if n not in SYNTHESIZERS]
        if unknown or not names:
            valid = ", ".join(["all", "default", *SYNTHESIZERS])
            raise ValueError(f"unknown kind(s) {', '.join(unknown) or repr(text)}; choose among {valid}")
    return dict.fromkeys(dict.fromkeys(names), 1.0)
