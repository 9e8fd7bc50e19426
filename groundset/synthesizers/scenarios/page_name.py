"""The API or command a reference page documents, named by its title ("Class: BalancedPool", "npm-access"),
so a question made of one of its sentences can say what it is about: "What happens if no command is
provided?" on the `npm run-script` page asks nothing until it names the command.

Only titles that read as code count (a CamelCase name, a dotted or called one, a lower-case hyphenated
command), and only as the page writes them in its text ("npm access" for the title "npm-access"): a
tutorial's prose title ("Cookie Parameters", "Sub-dependencies") is no name, nor is the folder name an
overview page (README, index) is titled by.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ...kg.graph import KnowledgeGraph, NodeKind
from ...personas.language import node_language
from .graph_cache import GraphCache

__all__ = [
    "bare_name",
    "document_name",
    "is_document_name",
    "names_anchor",
    "names_itself",
    "page_name",
    "page_topic",
    "points_elsewhere",
    "query_name",
    "section_name",
    "versions_of_one",
]

_KIND_PREFIX = re.compile(
    r"^(?:static\s+)?(?:class|interface|module|function|method|property|namespace|type|enum|command)\s*:\s*",
    re.IGNORECASE,
)
_CODE_LIKE = re.compile(r"[_.:/()]|[a-z][A-Z]|^[a-z0-9]+(?:-[a-z0-9]+)+$")
# A page titled by a data or config file ("pyproject.toml") documents the file, but what its sentences say
# happens is not "in pyproject.toml", nor does anyone say "I'm using pyproject.toml" (pip's docs; readers
# failed all four such questions): no name of an API.
_DATA_FILE = re.compile(r"\.(?:toml|json|ya?ml|cfg|ini|conf|lock|txt|xml|env)$", re.IGNORECASE)
_OVERVIEW = re.compile(r"(?:^|/)(?:readme|index|_index)\.\w+$", re.IGNORECASE)


def page_name(kg: KnowledgeGraph, chunk: str) -> str:
    """The code-like name of the page ``chunk`` belongs to, as its text writes it, or ""."""
    data = kg.get(chunk)
    document = data.get("document")
    if not document or _OVERVIEW.search(data.get("source") or ""):
        return ""
    title = kg.get(document).get("title") or ""
    name = _KIND_PREFIX.sub("", title.strip().strip("`"))
    if not name or " " in name or not _CODE_LIKE.search(name) or _DATA_FILE.search(name):
        return ""
    text = " ".join(kg.get(c)["text"] for c in kg.chunks_of(document))
    for written in (name.replace("-", " ", 1), name):  # "npm access", the command, before "npm-access"
        if re.search(rf"(?<![\w-]){re.escape(written)}(?![\w-])", text):
            return written
    return ""


# A heading that is one API's signature: "inspector.open([port[, host[, wait]]])", "new URL(input[, base])",
# "url.href", "napi_env" (after a "Class: " prefix is taken off).
_SIGNATURE = re.compile(
    r"^(?P<new>new\s+)?(?P<name>[A-Za-z_$][\w$]*(?:(?:\.|#|::)[A-Za-z_$][\w$]*)*)(?P<call>\(.*\))?$"
)
_EVENT = re.compile(r"^Event:\s*[`'\"]*(?P<name>[\w:.-]+)[`'\"]*$", re.IGNORECASE)
_LONG_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w.-]*[A-Za-z0-9]")
_MEMBER = re.compile(
    r"[.#_$]|::"
)  # "url.href", "napi_env": code by their shape; "UploadFile" only in backquotes


def section_name(kg: KnowledgeGraph, chunk: str) -> str:
    """The API the heading of ``chunk``'s own section documents, as a question names it ("inspector.open()"
    for "inspector.open([port[, host[, wait]]])", "new URL()", "net.Socket" for "Class: net.Socket"), or "".
    On an API reference page each section documents one function or property, and a sentence of it names
    only its parameters: "What happens if wait is true?" (Node.js API docs) asks nothing until it names the
    function. A command-line option's heading ("`--trace-require-module=mode`") names the option, an
    event's ("Event: 'close'" under "Class: net.Socket") the event and whose it is ("the 'close' event of
    net.Socket"). A prose heading ("Overview", "Exemplars (Experimental)") is no name, nor a mixed-case one
    the text does not write as code ("GitHub")."""
    headings = (kg.get(chunk).get("section") or "").split(" > ")
    if event := _EVENT.match(headings[-1].strip()):
        # "Event: 'resumeSession'" under "Class: tls.Server": "What lookup should the event listener
        # perform?" named neither (two readers); the event, and whose it is
        owner = _api_of(headings[-2], kg.get(chunk)["text"]) if len(headings) > 1 else ""
        return f"the '{event['name']}' event" + (f" of {owner}" if owner else "")
    return _api_of(headings[-1], kg.get(chunk)["text"])


def _api_of(title: str, text: str) -> str:
    """The API a heading documents (see ``section_name``), as a question names it, or ""; ``text``: its
    section's, where a bare name must be written as code."""
    heading = _KIND_PREFIX.sub("", title.strip().strip("`")).strip("`")
    if heading.startswith("-") and (flags := _LONG_FLAG.findall(heading)):
        return flags[-1]  # "`--trace-require-module=mode`", "`-c`, `--check`": the option's long name
    found = _SIGNATURE.match(heading)
    if not found or not (found["call"] or _CODE_LIKE.search(found["name"]) or found["name"].islower()):
        return ""  # a lower-case name counts as a tool's, if the text writes it as code ("prom2json")
    code = rf"`[^`\n]*(?<![\w.]){re.escape(found['name'])}(?![\w])[^`\n]*`"  # the name inside backquotes
    if not found["call"] and not _MEMBER.search(found["name"]) and not re.search(code, text):
        return ""  # "GitHub", "PromQL": names, not APIs
    return f"{found['new'] or ''}{found['name']}{'()' if found['call'] else ''}"


_CODE_NAME = re.compile(r"[A-Za-z][\w.]*(?:_|\(\)|\.[a-z])[\w.()]*")


def names_anchor(text: str, anchor: str) -> bool:
    """Whether ``text`` already names ``anchor``, a call's parentheses aside: "What exactly is
    import.meta.resolve?" names `import.meta.resolve()` (blind readers failed "... is import.meta.resolve in
    import.meta.resolve()" as a template's words); a document with or without its article."""
    if is_document_name(anchor):
        return _names_document(text, anchor)
    bare = bare_name(anchor)
    return bool(bare) and bare.casefold() in text.casefold()


def _names_document(text: str, name: str) -> bool:
    """Whether ``text`` names the document ``name`` by its own words, its kind aside: "What can paid parental
    leave be used for?" names "the Paid Parental Leave Policy" (and "... in the Paid Parental Leave Policy"
    says it twice); "How can remote write requests be sent?" does not name "the Remote-Write 1.0
    specification", the version being what tells the two apart."""
    words = set(_WORD.findall(text.casefold().replace("-", " ")))
    own = _RULE_KIND.sub("", bare_name(name).casefold()).replace("-", " ")
    needed = [word for word in _WORD.findall(own) if word not in _JOINING]
    return bool(needed) and all(word in words for word in needed)


_JOINING = frozenset({"of", "and", "for", "the", "a", "an", "to", "in", "on"})
_WORD = re.compile(r"\w+(?:\.\w+)*")  # "1.0" is one word


def bare_name(api: str) -> str:
    """An API's name without its call's parentheses ("socket.send()" -> "socket.send"), a document's
    without its article ("the Data Management Policy" -> "Data Management Policy")."""
    name = re.sub(r"\(\)$", "", api.strip())
    return name[4:] if name.startswith("the ") and is_document_name(name) else name


# A title naming a document of rules or a specification ("Sourcegraph Paid Parental Leave Policy", "Prometheus
# Remote-Write 2.0 specification", "Code of conduct"), or one version of a document ("OpenMetrics 1.0").
_RULE_KINDS = r"polic(?:y|ies)|specification"  # kinds a question may leave out ("paid parental leave")
_RULE_KIND = re.compile(rf"\b(?:{_RULE_KINDS})$", re.IGNORECASE)
_DOCUMENT_KIND = re.compile(rf"\b(?:{_RULE_KINDS}|code of conduct)$", re.IGNORECASE)
_ENDS_IN_VERSION = re.compile(r"\bv?\d+(?:\.\d+)+$")
_NOTES = re.compile(r"\[[^\]]*\]|\([^)]*\)")  # "[EXPERIMENTAL]", "(LOA)"
_MAX_DOCUMENT_WORDS = 7


def document_name(kg: KnowledgeGraph, chunk: str, scope: str = "") -> str:
    """The document a page is, as a question names it, when its title names one: "the Paid Parental Leave
    Policy" (of "Sourcegraph Paid Parental Leave Policy"; the product or company ``scope`` and notes in
    brackets left out), "the Remote-Write 2.0 specification", "OpenMetrics 1.0"; else "".

    A sentence of a policy or a specification states a rule that holds there: "How can you record your leave
    and return-to-work dates?" (of the parental leave policy), "How must Protobuf messages be encoded?" (of
    OpenMetrics 1.0, remote write's Protobuf is another) ask nothing until they say where; blind readers of
    the handbook and the Prometheus docs failed such questions. English titles of two to seven words, no
    announcement ("Vite 3.0 is out!") and no overview page."""
    data = kg.get(chunk)
    document = data.get("document")
    if not document or _OVERVIEW.search(data.get("source") or "") or node_language(kg, chunk) != "en":
        return ""
    name = " ".join(_NOTES.sub(" ", kg.get(document).get("title") or "").split())
    if scope and name.casefold().startswith(scope.casefold() + " "):
        name = name[len(scope) + 1 :]
    words = name.split()
    if not 2 <= len(words) <= _MAX_DOCUMENT_WORDS or not re.fullmatch(r"[\w .&/'-]+", name):
        return ""
    if not is_document_name(name):
        return ""
    return name if _ENDS_IN_VERSION.search(name) else f"the {name}"


def query_name(anchor: str) -> str:
    """An anchor as a search query writes it: an API as it is, a document without its article."""
    return bare_name(anchor) if is_document_name(anchor) else anchor


def is_document_name(name: str) -> bool:
    """Whether an anchor names a document (see ``document_name``), not an API or a tool: "I'm using the Data
    Management Policy" is no situation. A version counts at the end only: "OpenMetrics 2.0 Migration Guide for
    Client Libraries" in a question read as a pasted title to both its readers."""
    return bool(_DOCUMENT_KIND.search(name) or _ENDS_IN_VERSION.search(name))


# What a version adds to a title: "1.0", "v2", "2.0.1", "[EXPERIMENTAL]", "(draft)".
_VERSION_MARK = re.compile(r"\bv?\d+(?:\.\d+)+\b|\bv\d+\b|\[[^\]]*\]|\([^)]*\)", re.IGNORECASE)


def versions_of_one(title_a: str, title_b: str) -> bool:
    """Whether two titles name two versions of one document ("OpenMetrics 1.0", "OpenMetrics 2.0
    [EXPERIMENTAL]"): equal but for their version marks, and both have one."""
    if title_a == title_b or not (_VERSION_MARK.search(title_a) and _VERSION_MARK.search(title_b)):
        return False
    bare = [" ".join(_VERSION_MARK.sub(" ", title).casefold().split()) for title in (title_a, title_b)]
    return bool(bare[0]) and bare[0] == bare[1]


def points_elsewhere(answer: str, name: str) -> bool:
    """Whether a how-to's answer is another API than the page's ("Use include_directories to add include
    directories" on the add_definitions page): "How do I add include directories in add_definitions?" is a
    false premise (blind readers failed it), the same question without the page's name is not."""
    return any(found != name for found in _CODE_NAME.findall(answer))


#: A name written in mixed case: "Node-API", "WebAssembly", "OpenSSL", "macOS" (not "API" or "Setting").
_MIXED_CASE = re.compile(
    r"(?<![\w.-])(?:[A-Z][A-Za-z0-9]*-[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z]+[A-Z][A-Za-z0-9]*)"
    r"(?![\w-])"
)
_MIN_TOPIC_CHUNKS = 2  # a name the title gives and one paragraph mentions is no topic of the page
_MAX_TOPIC_SHARE = 0.15  # a name this share of the pages name is the corpus's ("API", "FAQ"), not one page's
_named_by = GraphCache[Counter[str]]()
_written_by = GraphCache[Counter[str]]()


def names_itself(subject: str) -> bool:
    """Whether a subject is a name no page topic need explain: a qualified one ("request.state",
    "pip._internal.index sub-package") or a mixed-case one ("LinkCollector class", "OAuth2 with scopes"). A
    bare parameter is not: "max_age" is CORS's (readers failed "What is the default value of max_age?")."""
    return bool(
        _QUALIFIED.search(subject) or _MIXED_CASE.search(subject) or re.search(r"[A-Za-z]\d", subject)
    )


_QUALIFIED = re.compile(r"\w(?:\.|::|/)\w")


def page_topic(kg: KnowledgeGraph, chunk: str, scope: str, lowercase: frozenset[str]) -> str:
    """The name a page's title gives as what it is about besides the product ("CANN" in "llama.cpp for CANN",
    "Fedora" in "Setting Up CUDA on Fedora", "Grafana" in "Grafana support for Prometheus"), as the one
    entity its chunks name most, or "". A question of one of its sentences lost it ("What happens if
    hardware support for VMM is unavailable?", of the CANN backend only; blind readers on three corpora listed
    that first). One word only, not one the corpus writes in lower case (``lowercase``: "Architecture" in
    "Auto-Parser Architecture"), nor the product (``scope``)."""
    data = kg.get(chunk)
    document = data.get("document")
    if not document:
        return ""
    title = kg.get(document).get("title") or ""
    chunks = kg.chunks_of(document)
    named: Counter[str] = Counter()
    for other in chunks:
        named.update(set(kg.get(other).get("entities") or []))
    # A name the title writes in mixed case ("Node-API", "WebAssembly") counts even when the extractor
    # missed it: "Contributing a new API to Node-API" is about Node-API, whatever its chunks' entities say.
    pages = _named_by.get(kg, _pages_naming)
    for name in set(_MIXED_CASE.findall(title)) - set(named):
        pattern = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")
        named[name] = sum(1 for other in chunks if pattern.search(kg.get(other)["text"]))
        pages = pages + Counter({name: _written_by.get(kg, _pages_writing)[name]})
    least = min(_MIN_TOPIC_CHUNKS, len(chunks))
    most = max(1.0, _MAX_TOPIC_SHARE * len(kg.nodes(NodeKind.DOCUMENT)))
    found = [
        (count, name)
        for name, count in named.items()
        if count >= least
        and pages[name] <= most
        and " " not in name
        and name.casefold() != scope.casefold()
        and name.casefold() not in lowercase
        and not _DATA_FILE.search(name)
        and not _DESCRIBING.search(name)
        and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", title)
    ]
    return max(found)[1] if found else ""


# A compound that describes ("Object-Oriented", "Snapdragon-based"): no name of what a page is about; the
# Rust book's "Characteristics of Object-Oriented Languages" gave "... considered object oriented in
# Object-Oriented?" (failed by all four readers).
_DESCRIBING = re.compile(r"-[A-Za-z]+(?:ed|ing)$")


def _pages_naming(kg: KnowledgeGraph, chunks: list[str]) -> Counter[str]:
    """How many documents name each entity."""
    return _pages_of(kg, chunks, lambda data: data.get("entities") or [])


def _pages_writing(kg: KnowledgeGraph, chunks: list[str]) -> Counter[str]:
    """How many documents write each mixed-case name."""
    return _pages_of(kg, chunks, lambda data: _MIXED_CASE.findall(data["text"]))


def _pages_of(
    kg: KnowledgeGraph, chunks: list[str], names_of: Callable[[dict[str, Any]], Iterable[str]]
) -> Counter[str]:
    pages: dict[str, set[str]] = {}
    for chunk in chunks:
        data = kg.get(chunk)
        for name in set(names_of(data)):
            pages.setdefault(name, set()).add(data.get("document") or "")
    return Counter({name: len(documents) for name, documents in pages.items()})
