"""Document structure: Markdown from markdown-it-py's token stream, reStructuredText by its rules.

Headlines taken from structure cost no model call; only documents without any need the LLM. Heading
titles never carry attribute blocks (``{#anchor}``), link targets or markup: they become chunk
sections and, from there, words in generated questions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from markdown_it.token import Token

from .mdparse import heading_inlines, inline_segments, memo, parse, strip_attributes

__all__ = [
    "CodeBlock",
    "Heading",
    "ListItem",
    "Section",
    "Table",
    "code_blocks",
    "fit_title",
    "list_items",
    "markdown_headings",
    "rst_headings",
    "sections",
    "strip_attributes",
    "structural_headings",
    "tables",
]

_RST_UNDERLINE = re.compile(r"^([=\-`:'\"~^_*+#<>])\1{2,}\s*$")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")
_MAX_TITLE = 200


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    line: int  # 0-based index of the line the heading starts on
    anchor: str | None = None  # the id given by an attribute block ({#anchor}), if any


@dataclass(frozen=True)
class Section:
    """A heading and the lines it owns: ``lines[start:end]`` of the source, heading line included."""

    path: tuple[str, ...]  # titles from the top-level heading down to this one
    level: int  # 0 for the text before the first heading
    start: int
    end: int


@dataclass(frozen=True)
class CodeBlock:
    code: str
    info: str  # the fence's info string ("python linenums=1"); "" for indented code
    line: int

    @property
    def language(self) -> str:
        return self.info.split(maxsplit=1)[0] if self.info.strip() else ""


@dataclass(frozen=True)
class Table:
    rows: tuple[tuple[str, ...], ...]  # header row first; cell texts as plain text
    line: int


@dataclass(frozen=True)
class ListItem:
    text: str  # the item's own paragraphs as plain text (nested items are items of their own)
    depth: int  # 1 for a top-level item
    ordered: bool
    line: int


def inline_text(token: Token, *, code_spans: bool = False) -> str:
    """One line of readable text from an inline token (see ``mdparse.inline_segments``)."""
    parts = (f"`{text}`" if code and code_spans else text for text, code in inline_segments(token))
    return " ".join("".join(parts).split())


def markdown_headings(text: str, *, max_title: int | None = _MAX_TITLE) -> list[Heading]:
    """ATX and Setext headings per CommonMark, outside code, quotes and lists, with clean titles
    (cut to ``max_title`` characters, see ``fit_title``)."""
    found = _headings(text)
    if max_title is None:
        return list(found)
    return [
        h if len(h.title) <= max_title else replace(h, title=fit_title(h.title, max_title)) for h in found
    ]


@memo(max_chars=8_000_000)
def _headings(text: str) -> tuple[Heading, ...]:
    """Cached: the title, the headlines stage and the splitter all ask for the same document's headings."""
    found: list[Heading] = []
    for opener, inline, nested in heading_inlines(parse(text, headings_only=True)):
        title = inline_text(inline).replace("`", "")
        if title and not nested and opener.map:
            anchor = opener.attrGet("id")
            found.append(
                Heading(int(opener.tag[1]), title, opener.map[0], None if anchor is None else str(anchor))
            )
    return tuple(found)


def rst_headings(text: str) -> list[Heading]:
    """reStructuredText section titles: a line underlined (optionally overlined) by punctuation."""
    lines = text.split("\n")
    levels: list[str] = []
    headings: list[Heading] = []
    for index in range(1, len(lines)):
        title, underline = lines[index - 1].rstrip(), lines[index].rstrip()
        if not title.strip() or not _RST_UNDERLINE.match(underline) or len(underline) < len(title.strip()):
            continue
        if _RST_UNDERLINE.match(title):
            continue
        style = underline[0]
        if style not in levels:
            levels.append(style)
        headings.append(Heading(levels.index(style) + 1, _clean_rst(title), index - 1))
    return headings


def structural_headings(text: str, fmt: str) -> list[Heading]:
    """Headings of a document by its format: rst by its rules, Markdown (and HTML turned Markdown)."""
    if fmt == "rst":
        return rst_headings(text)
    if fmt in ("markdown", "html"):
        return markdown_headings(text)
    return []


def sections(text: str, fmt: str = "markdown", *, headings: Sequence[Heading] | None = None) -> list[Section]:
    """The document cut at its headings: the text before the first one (if any), then one per heading.

    ``headings`` (in line order) replace the structural ones: the splitter passes the headlines an LLM
    found in a document without structure, and gets the same heading paths.
    """
    line_count = text.count("\n") + 1
    if headings is None:
        headings = structural_headings(text, fmt)
    out: list[Section] = []
    if not headings or headings[0].line > 0:
        out.append(Section((), 0, 0, headings[0].line if headings else line_count))
    trail: list[Heading] = []
    for index, heading in enumerate(headings):
        trail = [h for h in trail if h.level < heading.level] + [heading]
        end = headings[index + 1].line if index + 1 < len(headings) else line_count
        out.append(Section(tuple(h.title for h in trail), heading.level, heading.line, end))
    return out


def code_blocks(text: str) -> list[CodeBlock]:
    """Fenced and indented code blocks, with the fence's info string.

    No pipeline stage reads these yet: they are kept for answer-first questions about a code block
    (review issue 17), and their tests pin the parse they will rely on.
    """
    return [
        CodeBlock(token.content, token.info.strip(), token.map[0] if token.map else 0)
        for token in parse(text, headings_only=True)
        if token.type in ("fence", "code_block")
    ]


def tables(text: str) -> list[Table]:
    """Pipe tables as rows of plain cell texts (header row first).

    No pipeline stage reads these yet: kept for answer-first questions about a table (review issue 17).
    """
    found: list[Table] = []
    rows: list[tuple[str, ...]] = []
    cells: list[str] | None = None
    line = 0
    for token in parse(text):
        if token.type == "table_open":
            rows, line = [], token.map[0] if token.map else 0
        elif token.type == "tr_open":
            cells = []
        elif token.type == "inline" and cells is not None:
            cells.append(inline_text(token))
        elif token.type == "tr_close" and cells is not None:
            rows.append(tuple(cells))
            cells = None
        elif token.type == "table_close":
            found.append(Table(tuple(rows), line))
    return found


def list_items(text: str) -> list[ListItem]:
    """Every list item with its own text (nested lists give items of their own), in reading order.

    No pipeline stage reads these yet: kept, with code blocks and tables, as the structure answer-first
    questions (review issue 17) can be asked about.
    """
    tokens = parse(text)
    found: list[ListItem] = []
    stack: list[tuple[bool, int, list[str]]] = []  # (ordered, line, texts) of the open items
    ordered: list[bool] = []
    for token in tokens:
        if token.type in ("bullet_list_open", "ordered_list_open"):
            ordered.append(token.type == "ordered_list_open")
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            ordered.pop()
        elif token.type == "list_item_open":
            stack.append((ordered[-1], token.map[0] if token.map else 0, []))
        elif token.type == "inline" and stack:
            stack[-1][2].append(inline_text(token))
        elif token.type == "list_item_close":
            is_ordered, line, texts = stack.pop()
            found.append(ListItem(" ".join(t for t in texts if t), len(stack) + 1, is_ordered, line))
    return sorted(found, key=lambda item: item.line)


def fit_title(text: str, max_title: int = _MAX_TITLE) -> str:
    """One line of at most ``max_title`` characters; an ellipsis says it was cut, so a reader of a
    document title or chunk section never takes the cut words for the whole title."""
    text = " ".join(text.split())
    return text if len(text) <= max_title else text[: max_title - 1] + "…"


def _clean_rst(title: str) -> str:
    """An rst title may still hold Markdown-style links and markup (Markdown titles come parsed)."""
    return fit_title(_LINK.sub(r"\1", title).replace("`", "").replace("**", ""))
