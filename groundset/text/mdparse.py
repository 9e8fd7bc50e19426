"""The one Markdown parser: markdown-it-py (CommonMark) with the extensions docs folders use.

Tables, strikethrough, YAML front matter, attributes (``{#id .class}``), definition lists, ``:::``
containers, ``!!!`` admonitions and footnotes (definitions stay where they are written; inline
``^[...]`` notes stay off, since ``^[a-z]`` in prose is a regex). Two rules of our own sit in its core
chain: heading attributes are moved off the heading text (mdit-py-plugins' attrs do not read them), and
inline parsing is guarded, because markdown-it-py spends microseconds per markup character and tens on an
unclosed ``[``: a slice of inline text too dense in markup, once the document's budget for dense text
is spent, is read as text with its markup characters dropped. Parsing stays linear and bounded.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

__all__ = [
    "YAML_KEY",
    "Segment",
    "heading_inlines",
    "inline_segments",
    "memo",
    "parse",
    "read_once",
    "strip_attributes",
]

_SLICE = 4096  # inline text is parsed in slices of at most this many characters
_NORMAL_COST = 1.6  # estimated work per character up to which a slice always gets the full parser
_DENSE_BUDGET = 250_000  # work units (about microseconds) a document may spend on denser slices
_DROP_MARKUP = str.maketrans("", "", "`*[]<>{}~\\")
# Where markdown-it's text rule stops to try every inline rule (markdown-it-py 3 and 4 alike).
_NOT_TERMINATORS = str.maketrans("", "", "\n!#$%&*+-:<=>@[\\]^_`{}~")
# One attribute of a block {#id .class key=value key="a value"} (Pandoc, kramdown, markdown-it-attrs).
_ATTRIBUTE = re.compile(r"""([#.])([^\s{}#."'=]+)|([^\s{}"'=]+)=("[^"]*"|'[^']*'|[^\s{}"']+)|(-)|(\s+)""")
_MAX_ATTRIBUTES = 300
_TASKS = ("[ ] ", "[x] ", "[X] ")
# A YAML mapping key: a "---" block is front matter only if it starts with one, here and in the loader.
YAML_KEY = re.compile(r"[A-Za-z_][\w.-]*[ \t]*:")

Segment = tuple[str, bool]  # (text, is inline code)


def _build() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    md.use(front_matter_plugin).use(attrs_block_plugin).use(attrs_plugin, after=("image", "link_close"))
    md.use(deflist_plugin).use(footnote_plugin, inline=False, move_to_end=False).use(admon_plugin)
    md.use(container_plugin, name="any", validate=lambda params, markup: bool(params.strip()))
    # Links are never rendered: their targets need no normalising or vetting (and the text stays as written).
    md.normalizeLink = md.normalizeLinkText = lambda url: url  # type: ignore[method-assign]
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    front_matter = md.block.ruler.__rules__[md.block.ruler.__find__("front_matter")]
    md.block.ruler.at("front_matter", _metadata_only(front_matter.fn), {"alt": front_matter.alt})
    md.core.ruler.before("inline", "block_text", _block_text)
    md.core.ruler.at("inline", _guarded_inline)
    md.parse("# warm {#up}\n\ntext")  # compiles the rule chains now, not in racing threads later
    return md


def _metadata_only(rule: Callable[..., bool]) -> Callable[..., bool]:
    """A ``---`` block is front matter only if it starts with a ``key:`` (as the loader decides), so
    ``---`` / ``Title`` / ``---`` stays a thematic break and a Setext heading."""

    def front_matter(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if start != 0 or end < 2 or not YAML_KEY.match(state.src, state.bMarks[1] + state.tShift[1]):
            return False
        return rule(state, start, end, silent)

    return front_matter


def parse(text: str, *, headings_only: bool = False) -> list[Token]:
    """Tokens of ``text``; ``headings_only`` leaves other inline text unparsed (children None).

    The parser is built once; a parse keeps its state in its own env, so threads may share it. Full
    parses are remembered (``_PARSED``): the graph's plain text and the generator's answer passages read
    the same chunks, and parsing is most of what either costs. The tokens are shared: read, never change.
    """
    if text and not text.endswith("\n"):
        text += "\n"  # mdit-py-plugins' ::: rule reads past a last line without one ("> :::x\n>")
    if headings_only:
        return _MD.parse(text, {"groundset_headings_only": True})
    return _PARSED.get(text, lambda: _MD.parse(text, {"groundset_headings_only": False}), len(text))


def strip_attributes(text: str) -> tuple[str, dict[str, str]]:
    """``Title {#id .cls}`` -> ``("Title", {"id": "id", "class": "cls"})``; other text comes back whole.

    Glued to the text (``Title{#id}``, common in CJK docs) only an id or class counts, so that a PromQL
    matcher such as ``up{job="api"}`` stays text.
    """
    stripped = text.rstrip()
    start = stripped.rfind("{")
    if not stripped.endswith("}") or start == -1 or len(stripped) - start > _MAX_ATTRIBUTES:
        return text, {}
    before = stripped[start - 1] if start else " "
    attributes = _attributes(stripped[start + 1 : -1]) if before != "\\" else None
    if not attributes or not (before.isspace() or "id" in attributes or "class" in attributes):
        return text, {}
    title = stripped[:start].rstrip()
    closed = title.rstrip("#")
    if closed != title and (not closed or closed[-1].isspace()):
        title = closed.rstrip()  # "## Title ## {#id}": the closing sequence before the attributes
    return title, attributes


def _attributes(inside: str) -> dict[str, str] | None:
    """The attributes in ``{...}``, or None when it is not attribute syntax (e.g. a PromQL matcher)."""
    body = inside.strip()
    body = body[1:] if body.startswith(":") else body  # kramdown's {: #id}
    found: dict[str, str] = {}
    position = 0
    while position < len(body):
        match = _ATTRIBUTE.match(body, position)
        if match is None:
            return None
        marker, name, key, value, dash, _ = match.groups()
        if marker:
            field = "id" if marker == "#" else "class"
            found[field] = f"{found[field]} {name}" if field == "class" and field in found else name
        elif key:
            found[key] = value.strip("\"'")
        elif dash:
            found["class"] = f"{found.get('class', '')} unnumbered".strip()  # Pandoc's {-}
        position = match.end()
    return found or None


def _block_text(state: StateCore) -> None:
    """What is not text leaves the text of a block: a heading's trailing ``{#id .class}`` (kept on
    heading_open), a paragraph's trailing ``{#id}``/``{.class}`` (kramdown writes block attributes on
    the line after the block) and a task list item's ``[ ]``/``[x]``."""
    tokens = state.tokens
    for index in range(1, len(tokens)):
        token, opener = tokens[index], tokens[index - 1]
        if token.type != "inline":
            continue
        heading = opener.type == "heading_open"
        if not heading and opener.type != "paragraph_open":
            continue
        if index > 1 and tokens[index - 2].type == "list_item_open" and token.content[:4] in _TASKS:
            token.content = token.content[4:]
        if token.content.endswith("}"):
            title, attributes = strip_attributes(token.content)
            if attributes and (heading or "id" in attributes or "class" in attributes):
                token.content = title
                for key, value in attributes.items():
                    opener.attrSet(key, value)


def _guarded_inline(state: StateCore) -> None:
    """markdown-it's inline stage, bounded: see the module docstring."""
    headings_only = state.env.get("groundset_headings_only", False)
    budget = [_DENSE_BUDGET]
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "inline":
            continue
        if headings_only and (index == 0 or tokens[index - 1].type != "heading_open"):
            continue
        token.children = []
        for piece in _slices(token.content):
            token.children.extend(_inline_tokens(state, piece, budget))


def _slices(content: str) -> Iterator[str]:
    """Cuts at a line break, else a sentence end, else a space, so constructs are rarely split."""
    start = 0
    while len(content) - start > _SLICE:
        low, high = start + _SLICE // 2, start + _SLICE
        cut = content.rfind("\n", low, high)
        if cut == -1:
            cut = content.rfind(". ", low, high)
        if cut == -1:
            cut = content.rfind(" ", low, high)
        cut = high if cut == -1 else cut + 1
        yield content[start:cut]
        start = cut
    yield content[start:]


def _inline_tokens(state: StateCore, piece: str, budget: list[int]) -> list[Token]:
    md = state.md
    markup = len(piece) - len(piece.translate(_NOT_TERMINATORS))
    lines = piece.count("\n")
    if markup == lines:  # nothing but text and soft line breaks
        return _plain_tokens(piece)
    cost = len(piece) // 2 + 5 * (markup - lines) + 20 * piece.count("[") + 6 * piece.count("<")
    if cost > _NORMAL_COST * len(piece):
        if cost > budget[0]:
            return _plain_tokens(piece.translate(_DROP_MARKUP))
        budget[0] -= cost
    children: list[Token] = []
    md.inline.parse(piece, md, state.env, children)
    return children


def _plain_tokens(text: str) -> list[Token]:
    out: list[Token] = []
    for number, line in enumerate(text.split("\n")):
        if number:
            out.append(Token("softbreak", "br", 0))
        out.append(Token("text", "", 0, content=line))
    return out


def heading_inlines(tokens: list[Token]) -> Iterator[tuple[Token, Token, bool]]:
    """(heading_open, its inline token, nested) for every heading; nested: inside a list or quote."""
    depth = 0
    for index, token in enumerate(tokens):
        if token.type in ("blockquote_open", "list_item_open"):
            depth += 1
        elif token.type in ("blockquote_close", "list_item_close"):
            depth -= 1
        elif token.type == "heading_open" and index + 1 < len(tokens):
            yield token, tokens[index + 1], depth > 0


def inline_segments(token: Token) -> list[Segment]:
    """An inline token as (text, is code) pieces: markup, link targets, images, footnote refs and
    HTML tags dropped; link text, code content and entities (decoded) kept; line breaks as spaces."""
    out: list[Segment] = []
    hidden = False  # inside an inline <script> or <style>
    for child in token.children or ():
        kind = child.type
        if kind == "html_inline":
            name = _tag_name(child.content)
            if name in ("script", "style"):
                hidden = not child.content.startswith("</")
            out.append(
                (" " if name in _WORD_BREAKING else "" if name in _HTML_ELEMENTS else child.content, False)
            )
        elif hidden:
            continue
        elif kind in ("text", "text_special"):
            out.append((child.content, False))
        elif kind == "code_inline":
            out.append((child.content.strip(), True))
        elif kind in ("softbreak", "hardbreak"):
            out.append((" ", False))
    return out


def _tag_name(tag: str) -> str:
    """``</a>`` -> ``a``; comments, declarations and processing instructions -> ``!``."""
    if tag.startswith(("<!", "<?")):
        return "!"
    name = tag[1:].lstrip("/").split(None, 1)
    return name[0].rstrip("/>").lower() if name else ""


_WORD_BREAKING = frozenset(
    {"br", "hr", "img", "input", "p", "div", "li", "td", "th", "tr", "dd", "dt", "table"}
)
_HTML_ELEMENTS = _WORD_BREAKING | {
    "!", "script", "style", "noscript", "a", "abbr", "b", "bdi", "bdo", "big", "blockquote", "caption",
    "center", "cite", "code", "data", "del", "details", "dfn", "dl", "em", "figcaption", "figure", "font",
    "h1", "h2", "h3", "h4", "h5", "h6", "i", "iframe", "ins", "kbd", "label", "mark", "nav", "ol", "pre",
    "q", "s", "samp", "section", "small", "span", "strike", "strong", "sub", "summary", "sup", "tbody",
    "tfoot", "thead", "time", "tt", "u", "ul", "var", "video", "wbr",
}  # fmt: skip


_scope = threading.local()  # ``learnt``: the (memo, key) entries a ``read_once`` block added, in this thread


@contextmanager
def read_once() -> Iterator[None]:
    """Inside, the memos work as usual, and what they learn there is forgotten at the end.

    For a pass that reads each text of a corpus once (the build's per-text batches): within a batch the
    readers of one text share its parse, but kept afterwards its entries would only push out those other
    readers need, and hold a hundred megabytes at a large build's peak."""
    if getattr(_scope, "learnt", None) is not None:  # inside another: that one forgets
        yield
        return
    _scope.learnt = []
    try:
        yield
    finally:
        learnt, _scope.learnt = _scope.learnt, None
        for cache, key in learnt:
            cache.forget(key)


class _Memo:
    """A thread-safe LRU bounded by the characters it holds: several stages read the same texts."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars, self.chars = max_chars, 0
        self.items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], Any], size: int) -> Any:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key][0]
        value = compute()
        if size <= self.max_chars // 8:
            with self.lock:
                if key not in self.items:
                    self.items[key] = (value, size)
                    self.chars += size
                    learnt = getattr(_scope, "learnt", None)
                    if learnt is not None:
                        learnt.append((self, key))
                while self.chars > self.max_chars:
                    _, (_, dropped) = self.items.popitem(last=False)
                    self.chars -= dropped
        return value

    def forget(self, key: Hashable) -> None:
        with self.lock:
            entry = self.items.pop(key, None)
            if entry is not None:
                self.chars -= entry[1]


def memo(max_chars: int) -> Callable[[Callable[[str], Any]], Callable[[str], Any]]:
    """Memoise a pure function of one text, holding at most about ``max_chars`` characters of keys."""

    def wrap(function: Callable[[str], Any]) -> Callable[[str], Any]:
        cache = _Memo(max_chars)

        def cached(text: str) -> Any:
            return cache.get(text, lambda: function(text), len(text))

        cached.__doc__, cached.__wrapped__ = function.__doc__, function  # type: ignore[attr-defined]
        return cached

    return wrap


_MD = _build()
_PARSED = _Memo(max_chars=4_000_000)  # tokens take about 18 bytes per character: at most ~75 MB
