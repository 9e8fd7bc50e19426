"""Facts of a reference page's options: what a setting defaults to and what it is for.

Configuration references document each option the same way, in any language: a heading that names it
(``server.port``, ``_auth``), a short list of labelled values ("**Default:** ``5173``", "* Type: Boolean",
"**Standard:** ``false``") and a paragraph saying what it does. Neither the value nor the heading is a
sentence, so the sentence patterns never see them, yet "What does ``server.port`` default to?" is what
users of such a page ask most. The reference joins the option's name with the line that answers, as the
page shows them together.

Reference pages also list options one per line or one per table row: "- ``--ctx-size N``: size of the
prompt context (default: 4096)", "| GGML_CUDA_FORCE_CUBLAS | Boolean | false | Force the use of ... |".
Such an entry names one option (a flag, a variable in capitals, a dotted key) or function, and says what
it does and, often, its default: ``entry_facts`` reads those, so "What does the --ctx-size option do?"
is asked of the page that lists it, not only of pages that give each option a heading.
"""

from __future__ import annotations

import re

from ...languages.en import IMPERATIVES
from ...languages.words import word_set
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
# A type written in braces ("* Type: {number}"): an API reference's property (Node.js's `event.timeStamp`),
# which a question calls a property; a configuration reference writes its option's type bare or as code.
_BRACED_TYPE = re.compile(r"^\{[^{}]+\}")
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
    labelled = described = member = False
    default: Fact | None = None  # waits for the paragraph that says what the option does

    def settle(purpose: Fact | None = None) -> None:
        """The waiting default, with what the option sets when known: a sentence, not "Default: 5173"."""
        nonlocal default
        if default is not None:
            said = f" {purpose.reference.split(': ', 1)[1]}" if purpose else ""
            slots = {**default.slots, "described": "yes"} if purpose else dict(default.slots)
            if member:
                slots["called"] = "property"
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
            heading, labelled, described, member = text.strip(), False, False, False
            continue
        name = heading if _OPTION_NAME.match(heading) else ""
        if not name:
            continue
        if in_list_item(tokens, index):
            if (m := _LABEL.match(text)) and m["label"].casefold() in _OPTION_LABELS:
                labelled = True
                member = member or (m["label"].casefold() == "type" and bool(_BRACED_TYPE.match(m["value"])))
                if m["label"].casefold() in DEFAULT_LABELS and (fact := _default(name, m, lang)):
                    default = fact
            continue
        if labelled and not described and opening.type == "paragraph_open":
            described = True  # only the paragraph right after the labelled values says what it is for
            purpose = _purpose(name, text, lang)
            if purpose is not None and member:
                purpose.slots["called"] = "property"
            settle(purpose)
            if purpose is not None:
                found.append(purpose)
    settle()
    return found + entry_facts(tokens, lang)


# A default that is no value ("mode-dependent", "varies", "depends on the platform"): what it is, the
# description says in sentences the default fact does not carry (llama.cpp's --tensor-split: both readers
# failed "Default: mode-dependent" as the answer).
_NO_VALUE = re.compile(r"\w-dependent\b|\bdepend(?:s|ing)?\b|\bvar(?:y|ies|ying)\b|\bsee\b", re.IGNORECASE)


def _default(name: str, m: re.Match[str], lang: str) -> Fact | None:
    value = m["value"].strip()
    if len(value) > _MAX_VALUE_CHARS or len(value.split()) > _MAX_VALUE_WORDS or value.endswith((",", ":")):
        return None  # a value cut off by a line break, or an explanation rather than a value
    if _NO_VALUE.search(value):
        return None
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


# A listed entry's name: a command-line flag ("--ctx-size N", "-ngl"), a variable in capitals with an
# underscore ("GGML_CUDA_FORCE_CUBLAS"), a dotted or snake-case key ("server.port", "n_ctx") or a function
# ("eps()"). A word in capitals alone ("PLAIN", "HANDSHAKE") is more often a value of something than an
# option, and the question would not say of what.
_ENTRY_OPTION = re.compile(
    r"^(?:--?[A-Za-z][\w-]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][\w-]*(?:\.[a-z][\w-]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)$"
)
_CODE_NAME = re.compile(r"^[A-Za-z_][\w.-]*$")
_DEFAULT_SENTENCE = re.compile(
    r"^\s*(?:Defaults? to|Default:|The default is)\s+(?P<value>[^\s].{0,40}?)\.?\s*$"
)
_ENTRY_FUNCTION = re.compile(r"^[A-Za-z_][\w.]*\(\)$")
_TERMINAL_MARK = re.compile(r"[.!?)\]`]\s*$")
_ENTRY_SEPARATOR = re.compile(r"^\s*(?::|[-\u2013\u2014])\s+")
_MIN_DESCRIPTION_WORDS = 4
# "(default: 4)", "(`ON` or `OFF`, default: `OFF`)", "(defaults to 256)": a default said in passing.
_DEFAULT_IN_PASSING = re.compile(
    r"\((?:[^()]*?[,;]\s*)?(?:default(?: value| is)?|defaults to)\s*:?\s*(?P<value>[^(),;]{1,40})\)",
    re.IGNORECASE,
)
# Table headers of the column that says what an entry does, and of the column that names it.
_DESCRIPTION_HEADERS = frozenset(
    {"description", "meaning", "purpose", "effect", "what it does", "explanation", "notes", "function",
     "behavior", "behaviour", "details"}
)  # fmt: skip
_OPTION_HEADERS = re.compile(r"\b(?:option|flag|argument|parameter|setting)", re.I)
_NAME_HEADERS = re.compile(
    r"\b(?:option|flag|long|name|variable|argument|parameter|setting|key|field|env)", re.I
)


def entry_facts(tokens: list, lang: str = "en") -> list[Fact]:
    """What each listed option or function does, and its default when the entry gives one: from list
    items that open with the name in code ("- ``--ctx-size N``: ...") and from table rows under a header
    with a description column."""
    found: list[Fact] = []
    # The chunk's last line of text: a chunk may end inside a list item ("Contains utility to replace
    # Markdown links to work with"), and a description without its end must not be a reference.
    last = max((i for i, t in enumerate(tokens) if t.type == "inline"), default=-1)
    for index, token in enumerate(tokens):
        if token.type == "table_open":
            found += _table_facts(tokens, index, lang)
        elif token.type == "inline" and _opens_item(tokens, index):
            segments = [(t, code) for t, code in inline_segments(token) if t]  # "**`eps()`**": emphasis
            if len(segments) >= 2 and segments[0][1]:
                text = "".join(t for t, _ in segments[1:])
                cut = index == last and not _TERMINAL_MARK.search(text)
                if (separator := _ENTRY_SEPARATOR.match(text)) and not cut:
                    found += _entry(segments[0][0], text[separator.end() :], lang)
    return found


def _opens_item(tokens: list, index: int) -> bool:
    """The inline is the first paragraph of its list item (not a later paragraph or a nested line)."""
    return (
        index >= 2
        and tokens[index - 1].type == "paragraph_open"
        and tokens[index - 2].type == "list_item_open"
    )


def _table_facts(tokens: list, start: int, lang: str) -> list[Fact]:
    rows: list[list[tuple[str, str]]] = []  # cells as (plain text, leading code span or "")
    for token in tokens[start + 1 :]:
        if token.type == "table_close":
            break
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            segments = [(t, code) for t, code in inline_segments(token) if t]
            text = " ".join("".join(t for t, _ in segments).split())
            rows[-1].append((text, segments[0][0].strip() if segments and segments[0][1] else ""))
    if len(rows) < 3:  # a header and at least two entries: one row is an example, not a reference table
        return []
    header = [text.casefold().strip() for text, _ in rows[0]]
    describe = next((i for i, h in enumerate(header) if h in _DESCRIPTION_HEADERS), None)
    if describe is None:
        return []
    named = next((i for i, h in enumerate(header[:describe]) if _NAME_HEADERS.search(h)), 0)
    options = bool(_OPTION_HEADERS.search(header[named]))
    default = next((i for i, h in enumerate(header) if h in DEFAULT_LABELS), None)
    found: list[Fact] = []
    for row in rows[1:]:
        if len(row) != len(header) or named == describe:
            continue
        text, code = row[named]
        value = row[default][0] if default is not None else ""
        found += _entry(code or text, row[describe][0], lang, default=value, option=options)
    return found


# Names that are files ("generate.mjs", "node.gni"), asked what they are for, not what they default to.
_FILE_NAME = re.compile(
    r"\.(?:[cm]?js|ts|py|rb|go|rs|sh|bat|ps1|cmake|gni?|gyp|json|ya?ml|toml|ini|cfg|conf|md|rst|txt|html?|css|[ch](?:pp|c)?)$"
)
# An entry's description by its first word: what it does ("Enables ...", "Enable ..."), what it is for
# ("Used to ...", "Responsible for ...") or what it is ("A list of ...", "Path to ..."); a description that
# opens with a preposition or a condition ("Between function name and arguments") answers none of them.
_NOT_A_DESCRIPTION = word_set(
    "between for in on at with from to by of when if unless after before see note same like as than via"
)
_ITS_USE = word_set("used responsible needed required useful meant intended designed")
# Verbs that open an option's description ("Embed OpenCL kernels into the executable"), beside IMPERATIVES.
_DESCRIPTION_VERBS = word_set(
    """
    embed build compile force increment decrement indicate allow skip print show log dump load save store
    toggle control override ignore return generate apply convert append prepend print reset clear wait
    retry cache limit split merge sort filter match mark track count measure print output emit
    """
)
_OBJECT_OPENERS = word_set("the a an that whether any all each every your their")
_NOT_A_VERB = word_set("this these its is was has does various options details notes series status")


_MAX_NAMING_WORDS = 8


def _says_its_name(name: str, first: str) -> bool:
    """A short description that is the entry's name again: "version: The version of the API.", "summary: A
    short summary of the API." (FastAPI's metadata table; readers failed "version option meaning" as the
    question's own words)."""
    bare = re.escape(name.strip("`").lower())
    return len(first.split()) <= _MAX_NAMING_WORDS and bool(
        re.match(rf"(?:the|a|an)\s+(?:[a-z]+\s+){{0,2}}{bare}s?\s+(?:of|for)\s", first.lower())
    )


# An entry described by what was done to it ("MUL_MAT | Support | Accelerated via ZenDNN LowOHA MatMul"): a
# status in a table of support, neither what the thing is nor what it does (llama.cpp's ZenDNN page: readers
# failed 5 of 5 readings of "What is MUL_MAT?" or "What is MUL_MAT_ID?" answered so).
_STATUS = re.compile(
    r"^(?!(?i:embed|feed|need|seed|speed|shed|breed|proceed|exceed|succeed)\b)"
    r"[A-Z][a-z]{2,}ed\s+(?:via|by|with|through|in|on|for|using|as)\b"
)


def _entry(label: str, description: str, lang: str, *, default: str = "", option: bool = False) -> list[Fact]:
    """What one entry does or is (a purpose or definition fact), and its default when it states one (in its
    own column, or in parentheses in the description). English only: the question follows the shape of
    the description ("What does X do?" of "Enables ...", "What is X?" of "A list of ...")."""
    if lang != "en":
        return []
    label = " ".join(label.split())
    name = label.split(" ")[0].rstrip(",")
    function, flag = bool(_ENTRY_FUNCTION.match(name)), name.startswith("-")
    if not (function or _ENTRY_OPTION.match(name) or (option and _CODE_NAME.match(name))):
        return []
    if "." in name and not function and min(len(part) for part in name.split(".")) < 2:
        return []  # "vN.x", "v1.x": a placeholder for versions (a label or a branch), not a key
    file = bool(_FILE_NAME.search(name))
    option = (option or flag) and not (function or file)
    sentences = split_sentences(description, lang)
    first = sentences[0].strip().rstrip(";,") if sentences else ""
    if first and not first.endswith((".", "!")):
        first += "."
    word = first.split(" ", 1)[0].lower()
    if (
        len(first.split()) < _MIN_DESCRIPTION_WORDS
        or not first[:1].isalpha()
        or not is_prose(first)
        or _NOT_A_PURPOSE.match(first)
        or word in _NOT_A_DESCRIPTION
        or re.search(r"[{};]|:\.$", first)  # code, or a line that introduces a list
        or _says_its_name(name, first)
        or _STATUS.match(first)
    ):
        return []
    words = first.split()
    verb = words[0][1:].islower() and word not in _NOT_A_VERB  # "Enables", not "PRs" or "Options"
    does = verb and (
        word in IMPERATIVES
        or word in _DESCRIPTION_VERBS
        or words[1].lower() in _OBJECT_OPENERS  # "Build the host-side backend", "Indicate that ..."
        or (word.endswith("s") and not word.endswith("ss"))  # "Matches nothing"
    )
    subject = name
    if option and does:
        pattern, slots = "purpose", {"how": "option"}
    elif file or word in _ITS_USE:
        pattern, slots = "purpose", {"how": "purpose"}
    elif does:
        pattern, slots = "purpose", {"how": "does"}
    else:
        pattern, slots = "definition", {"how": "is"}
    if option and pattern == "definition":
        subject = f"the {name} option"  # "title: The title of the API." answers "What is the title option?"
    described = Fact(
        pattern=pattern,
        subject=subject,
        focus=name,
        answer=first.rstrip("."),
        reference=f"{label}: {first}",
        slots=slots,
        lang=lang,
    )
    if not default and (said := _DEFAULT_IN_PASSING.search(first)):
        default = said["value"]
    later = next((m for m in map(_DEFAULT_SENTENCE.match, sentences[1:3]) if m), None)
    if not default and later:  # "... for cross-origin requests. Defaults to `600`."
        default, first = later["value"], f"{first} {later.group(0).strip()}"
    default = default.strip().strip("`").strip()
    if (
        function
        or file
        or not default
        or default in ("-", "\u2014", "\u2013")
        or len(default.split()) > _MAX_VALUE_WORDS
        or _NO_VALUE.search(default)
    ):
        return [described]
    stated = Fact(
        pattern="default",
        subject=name,
        focus=name,
        answer=default,
        reference=f"{label}: {first}" if default in first else f"{label}: {first} Default: {default}.",
        slots={"form": "option" if option else "entry", "described": "yes"},
        lang=lang,
    )
    return [described, stated]
