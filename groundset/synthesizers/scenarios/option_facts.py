"""Facts of a reference page's options: what a setting defaults to and what it is for.

Configuration references document each option the same way, in any language: a heading that names it
(``server.port``, ``_auth``), a short list of labelled values ("**Default:** ``5173``", "* Type: Boolean",
"**Standard:** ``false``") and a paragraph saying what it does. Neither the value nor the heading is a
sentence, so the sentence patterns never see them, yet "What does ``server.port`` default to?" is what
users of such a page ask most. The reference joins the option's name with the line that answers, as the
page shows them together.
"""

from __future__ import annotations

import re

from ...text.mdparse import inline_segments, parse
from ...text.sentences import split_sentences
from .fact import Fact
from .passages import in_list_item, is_prose

__all__ = ["DEFAULT_LABELS", "option_facts"]

# The label of an option's default value, by language (case-insensitive, without the colon).
DEFAULT_LABELS = frozenset(
    {"default", "defaults", "default value", "standard", "standardwert", "défaut", "par défaut",
     "valeur par défaut", "predeterminado", "por defecto", "valor predeterminado", "padrão", "valor padrão",
     "predefinito", "standaard"}
)  # fmt: skip
# Any of these labels in the list under a heading shows the heading names an option.
_OPTION_LABELS = DEFAULT_LABELS | {"type", "typ", "tipo", "types", "env", "environment variable", "cli"}
_LABEL = re.compile(r"^\s*(?P<label>[^:`]{2,30}?)\s*:\s+(?P<value>\S.*)$")
# An option's name: one token with a dot, underscore, hyphen, slash or inner capital ("server.port",
# "_auth", "save-exact", "cacheDir"), or one lower-case word ("audit"); not a title word ("Plugins").
_OPTION_NAME = re.compile(r"^(?:(?=.*(?:[._/@$-]|[a-z][A-Z]))[A-Za-z_@$-][\w$@/.*-]*|[a-z]{2,})$")
_MAX_VALUE_CHARS = 120
_MAX_VALUE_WORDS = 6  # longer, it explains, or it goes on in a line the list item cut off
# A paragraph that opens with a condition or a caveat says when to set the option, not what it is for.
_NOT_A_PURPOSE = re.compile(
    r"^(?:if|when|unless|note|warning|see|by default|wenn|falls|sofern|hinweis|achtung|siehe|standardmäßig"
    r"|si|lorsque|cuando)\b",
    re.I,
)


def option_facts(markdown: str, section: str = "", lang: str = "en") -> list[Fact]:
    """The default and the purpose of each option documented in ``markdown`` (``section``: the chunk's
    section path, whose last heading is the option when the chunk starts below it)."""
    found: list[Fact] = []
    heading = section.split(" > ")[-1].strip()
    labelled = described = False
    default: Fact | None = None  # waits for the paragraph that says what the option does

    def settle(purpose: Fact | None = None) -> None:
        """The waiting default, with what the option sets when known: a sentence, not "Default: 5173"."""
        nonlocal default
        if default is not None:
            said = f" {purpose.reference.split(': ', 1)[1]}" if purpose else ""
            slots = {**default.slots, "described": "yes"} if purpose else default.slots
            found.append(
                default.model_copy(update={"reference": f"{default.reference}.{said}", "slots": slots})
            )
            default = None

    tokens = parse(markdown)
    for index, token in enumerate(tokens):
        if token.type != "inline" or not index:
            continue
        opening = tokens[index - 1]
        text = " ".join("".join(t for t, _ in inline_segments(token)).split())
        if opening.type == "heading_open":
            settle()
            heading, labelled, described = text.strip(), False, False
            continue
        name = heading if _OPTION_NAME.match(heading) else ""
        if not name:
            continue
        if in_list_item(tokens, index):
            if (m := _LABEL.match(text)) and m["label"].casefold() in _OPTION_LABELS:
                labelled = True
                if m["label"].casefold() in DEFAULT_LABELS and (fact := _default(name, m, lang)):
                    default = fact
            continue
        if labelled and not described and opening.type == "paragraph_open":
            described = True  # only the paragraph right after the labelled values says what it is for
            purpose = _purpose(name, text, lang)
            settle(purpose)
            if purpose is not None:
                found.append(purpose)
    settle()
    return found


def _default(name: str, m: re.Match[str], lang: str) -> Fact | None:
    value = m["value"].strip()
    if len(value) > _MAX_VALUE_CHARS or len(value.split()) > _MAX_VALUE_WORDS or value.endswith((",", ":")):
        return None  # a value cut off by a line break, or an explanation rather than a value
    return Fact(
        pattern="default",
        subject=name,
        focus=name,
        answer=value,
        reference=f"{name}: {m['label']}: {value}",
        slots={"form": "option"},
        lang=lang,
    )


def _purpose(name: str, paragraph: str, lang: str) -> Fact | None:
    sentences = split_sentences(paragraph, lang)
    first = sentences[0] if sentences else ""
    if not first or not is_prose(first) or _NOT_A_PURPOSE.match(first):
        return None
    return Fact(
        pattern="purpose",
        subject=name,
        focus=name,
        answer=first.rstrip("."),
        reference=f"{name}: {first}",
        slots={"how": "option"},
        lang=lang,
    )
