"""Markdown to readable prose: what summaries, keyphrases, entities and judges should read.

Code blocks, link targets and table pipes would otherwise dominate word statistics. The prose comes
from markdown-it-py's token stream (``mdparse``), so it agrees with the headings and sections.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it.token import Token

from .html import html_text
from .mdparse import Segment, inline_segments, memo, parse

__all__ = ["is_rest_markup", "plain_text", "without_rest_markup"]

# Hugo shortcodes ({{< figure >}}, {{% notice %}}), mdBook directives ({{#include x.rs}}) and Jinja or
# Liquid tags ({% include "x.md" %}) are expanded before Markdown, so they go first; a template
# reference ({{ name }}) left in prose reads as its name.
_SHORTCODE = re.compile(r"\{\{(?:[<%][^{}\n]{0,400}?[%>]|#[^{}\n]{1,400}?)\}\}|\{%[^{}\n]{0,400}?%\}")
_TEMPLATE_REF = re.compile(r"\{\{\s*([\w.-]{1,100})\s*\}\}")

Block = tuple[Segment, ...]


def plain_text(markdown: str, *, code_spans: bool = False) -> str:
    """Readable prose from markdown: one line per paragraph, list item, heading or table row.

    Blocks are separated by a blank line, and running ``plain_text`` on its own output changes
    nothing block-wise, so callers may pass either markdown or already plain text.

    Fenced and indented code blocks, front matter (its title is kept, as a heading), HTML comments
    and tags, images, footnote references and link targets are dropped; link text, heading text (without
    ``{#id}`` attributes), table cells (``; `` between them), admonition and definition-list text and
    inline code content are kept; hard-wrapped paragraph lines are joined. With ``code_spans=True``
    inline code keeps its backticks (the entity rules want to know).
    """
    if not markdown or not markdown.strip():
        return ""
    lines = (_line(block, code_spans) for block in _prose(markdown))
    # Blank lines between all blocks keep the result stable when it is fed back in.
    return "\n\n".join(line for line in lines if line)


# reStructuredText read as Markdown: a hyperlink reference keeps its trailing "_" ("Certifi_", "`Some
# name`_", anonymous "__"), and explicit markup (".. _target: URL", ".. note::", ".. |sub|") is a paragraph.
_RST_REFERENCE = re.compile(r"(?<![\w`])([A-Za-z][\w.+-]*[A-Za-z0-9])__?(?=[\s.,;:!?)\]'\"]|$)")
_RST_AFTER_CODE = re.compile(r"^__?(?=[\s.,;:!?)\]'\"]|$)")
_RST_EXPLICIT = re.compile(r"^\.\.\s+(?:_[^:]*:|\w[\w:-]*::|\|[^|]+\||\[[^\]]+\])")
# A Sphinx role before its backquoted text (":command:`file`", ":py:class:`~requests.Response`", and in MyST
# Markdown "{ref}`pip wheel`"): markdown-it reads the role as text and the rest as code, so ":command:file"
# and "{ref}pip wheel" (pip's docs) reached questions.
_RST_ROLE = re.compile(
    r"(?:(?<=[\s(])|^)(?::(?P<rst>[A-Za-z][\w+-]*(?::[\w+-]+)?):|\{(?P<myst>[A-Za-z][\w+-]*(?::[\w+-]+)?)\})$"
)
_NUMBERED_ROLES = {"pep": "PEP", "rfc": "RFC"}  # ":pep:`517`" shows "PEP 517"
# A Markdown reference link whose definition is in another chunk, or nowhere ("[metadata][git-node-meta]"):
# markdown-it leaves it as text, and it reached references word for word ("a[0][1]" is an index).
_UNRESOLVED_LINK = re.compile(r"(?<![\w\]])\[([^\[\]\n]*[A-Za-z][^\[\]\n]*)\]\[[^\[\]\n]*\]")
_ROLE_TARGET = re.compile(r"^(?P<shown>.*?\S)\s+<[^<>]+>$")  # "title <target>"; not "$<TARGET_OBJECTS>"


def without_rest_markup(segments: Sequence[Segment]) -> list[Segment]:
    """Inline segments with reStructuredText's hyperlink-reference underscores taken off their words
    ("Certifi_", "`Some name`_" -> "Certifi", "Some name") and Sphinx roles off the text they mark
    (":command:`file`" -> "file", ":ref:`the guide <guide-label>`" -> "the guide", ":class:`~a.B`" -> "B"),
    and Markdown reference links left unresolved to their text; code stays as it is otherwise."""
    out: list[Segment] = []
    after_code = False
    for text, code in _joined_text(segments):
        if not code:  # each pattern needs its character: most text has neither, and skips both
            if "_" in text:
                text = _RST_REFERENCE.sub(r"\1", _RST_AFTER_CODE.sub("", text) if after_code else text)
            if "][" in text:
                text = _UNRESOLVED_LINK.sub(r"\1", text)
        elif out and not out[-1][1] and (role := _RST_ROLE.search(out[-1][0])):
            out[-1] = (out[-1][0][: role.start()], False)
            text = _role_text(text, role["rst"] or role["myst"])
        out.append((text, code))
        after_code = code
    return _unbracketed_code_links(out) if any("][" in text for text, code in out if not code) else out


def _joined_text(segments: Sequence[Segment]) -> list[Segment]:
    """Runs of text segments as one: a line break splits them, and a link's text may wrap ("[prepare that
    object][contextified]" on the Node.js vm page kept its brackets)."""
    out: list[Segment] = []
    run: list[str] = []  # joined once: a one-line page of two million characters is hundreds of slices
    for text, code in segments:
        if not code:
            run.append(text)
            continue
        if run:
            out.append(("".join(run), False))
            run = []
        out.append((text, code))
    if run:
        out.append(("".join(run), False))
    return out


# The two halves of a reference link around code ("[`net.Socket`][]"): markdown-it splits them from the code.
_LINK_OPENS = re.compile(r"(?<![\w\]])\[$")
_LINK_CLOSES = re.compile(r"^(?P<text>[^\[\]\n]*)\]\[[^\[\]\n]*\]")  # "][]", " event][]"


def _unbracketed_code_links(segments: list[Segment]) -> list[Segment]:
    """``segments`` with unresolved reference links around code read as their text: "[`net.Socket`][]" ->
    "net.Socket", "[`'exit'` event][]" -> "'exit' event" (the Node.js API docs link most names so; the
    brackets reached references)."""
    out = list(segments)
    for first, (text, code) in enumerate(out):
        if code or not _LINK_OPENS.search(text):
            continue
        last = first + 1
        while last < len(out) and (out[last][1] or not re.search(r"[\[\]]", out[last][0])):
            last += 1
        if last == first + 1 or last == len(out) or not any(c for _, c in out[first + 1 : last]):
            continue
        closing = _LINK_CLOSES.match(out[last][0])
        if closing:
            out[first] = (text[:-1], False)
            out[last] = (closing["text"] + out[last][0][closing.end() :], False)
    return out


def _role_text(text: str, role: str = "") -> str:
    """What a role shows: its title without the target, a "~" path by its last part, no "!", and a PEP or
    RFC by its name ("PEP 517")."""
    shown = _ROLE_TARGET.match(text)
    text = shown["shown"] if shown else text.lstrip("!")
    if role.lower() in _NUMBERED_ROLES and text.isdigit():
        return f"{_NUMBERED_ROLES[role.lower()]} {text}"
    return text[1:].rsplit(".", 1)[-1] if text.startswith("~") else text


def is_rest_markup(line: str) -> bool:
    """An explicit markup paragraph of reStructuredText (".. _target: URL", ".. note::"): not text."""
    return _RST_EXPLICIT.match(line) is not None


def _line(block: Block, code_spans: bool) -> str:
    """Without ``code_spans`` no backtick survives (not even inside code), so a second pass reads the same."""
    parts = (
        (f"`{text}`" if code else text) if code_spans else text.replace("`", "")
        for text, code in without_rest_markup(block)
    )
    line = " ".join("".join(parts).split())
    return "" if is_rest_markup(line) else line


@memo(max_chars=16_000_000)
def _prose(markdown: str) -> tuple[Block, ...]:
    """The text blocks of a document (cached: summaries, phrases and entities all read each chunk)."""
    title, text = _toml_front_matter(markdown)
    if "{{" in text or "{%" in text:
        text = _SHORTCODE.sub(" ", text)
    blocks: list[Block] = [((title, False),)] if title else []
    row: list[Block] | None = None
    tokens = parse(text)
    for index, token in enumerate(tokens):
        kind = token.type
        if kind == "front_matter":
            title = _front_matter_title(token.content, ":")
            blocks.extend([((title, False),)] if title else [])
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close" and row is not None:
            blocks.append(_join_cells(row))
            row = None
        elif kind == "inline":
            segments = _segments(token)
            if row is not None:
                row.append(segments)
            elif not _is_default_admonition_title(tokens, index):
                blocks.append(segments)
        elif kind == "html_block":
            blocks.append(((html_text(token.content), False),))
        elif kind.startswith("container_") and kind.endswith("_open"):
            blocks.append(((token.info.strip().partition(" ")[2], False),))  # "::: warning Title"
    return tuple(blocks)


def _segments(token: Token) -> Block:
    return tuple(
        (_TEMPLATE_REF.sub(r"\1", text) if not code and "{{" in text else text, code)
        for text, code in inline_segments(token)
    )


def _join_cells(cells: list[Block]) -> Block:
    """A table row is one line of cells separated by semicolons (phrases never span cells)."""
    out: list[Segment] = []
    for cell in cells:
        if any(text.strip() for text, _ in cell):
            out.extend([("; ", False)] if out else [])
            out.extend(cell)
    return tuple(out)


def _is_default_admonition_title(tokens: list[Token], index: int) -> bool:
    """``!!! note`` gets the title "Note" from the plugin: a word the author never wrote."""
    if index < 2 or tokens[index - 1].type != "admonition_title_open":
        return False
    opener = tokens[index - 2]
    return opener.type == "admonition_open" and len(opener.info.split()) <= 1


def _toml_front_matter(text: str) -> tuple[str, str]:
    """A leading TOML (+++) block, which markdown-it does not read: (its title, the text after it)."""
    if not text.startswith("+++\n"):
        return "", text
    end = text.find("\n+++", 3)
    if end == -1:
        return "", text
    after = text.find("\n", end + 4)
    return _front_matter_title(text[4:end], "="), "" if after == -1 else text[after + 1 :]


def _front_matter_title(block: str, separator: str) -> str:
    for line in block.split("\n"):
        key, found, value = line.partition(separator)
        if found and key.rstrip() == "title":
            return value.strip().strip("\"'").strip()
    return ""
