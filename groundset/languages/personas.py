"""How offline personas are worded in a language other than English: role nouns, name and description
templates, and the cue words that point to a role (English cue words count too: names like "Webhook"
or "SMTP" read the same in every language).

The roles are those of ``groundset.personas.roles`` (Developer, SRE, Operator, ...); each language names
them its own way. Names hold {topic}; descriptions {role}, {names} (one or two topics) and, in the first
pair, {extra} (another topic the person deals with).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["PersonaWords"]


@dataclass(frozen=True)
class PersonaWords:
    code: str
    roles: Mapping[str, str]  # role (English key) -> role noun
    names: Mapping[str, str]  # role -> name template with {topic}
    described: tuple[str, ...]  # with {role}, {names}, {extra}
    described_plain: tuple[str, ...]  # with {role}, {names}
    cues: Mapping[str, tuple[str, ...]]  # role -> substrings (case-insensitive) of its topics
    fallback_name: str  # the persona of a cluster whose topics tell nothing
    fallback_description: str
    quote: str = "{}"  # a topic inside a description
    conjunction: str = "和"
    separator: str = "、"
