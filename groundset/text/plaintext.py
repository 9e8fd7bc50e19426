"""Markdown to readable prose: what summaries, keyphrases, entities and judges should read.

Code blocks, link targets and table pipes would otherwise dominate word statistics.
"""

from __future__ import annotations

import html
import re

__all__ = ["plain_text"]

_FRONT_MATTER_TITLE = re.compile(r"^title\s*[:=][ \t]*(.+)$", re.MULTILINE)
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r"^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[*+-]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_BLOCKQUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+")
_TABLE_SEPARATOR = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[([^\]\n]{1,200})\]:[ \t]*\S")

_CODE_SPAN = re.compile(r"``(?!`)((?:[^`\n]|`(?!`)){1,400}?)``(?!`)|`([^`\n]{1,400})`")
# A link target in parentheses: (url), (url "title") or (url_(with)_parens).
_PAREN_TARGET = r"\([^()\n]{0,800}(?:\([^()\n]{0,200}\)[^()\n]{0,400})*\)"
_IMAGE = re.compile(r"!\[[^\[\]\n]{0,400}\](?:" + _PAREN_TARGET + r"|\[[^\[\]\n]{0,200}\])?")
_INLINE_LINK = re.compile(r"\[([^\[\]\n]{0,400})\]" + _PAREN_TARGET)
# [text][label], [text][] or [text]: a link only if the label is defined, else literal brackets.
_REFERENCE_LINK = re.compile(r"\[([^\[\]\n]{1,400})\](?:\[([^\[\]\n]{0,200})\])?")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]{1,800})>")
_FOOTNOTE_REF = re.compile(r"\[\^[^\]\n]{1,100}\]")
_SHORTCODE = re.compile(r"\{\{[<%][^{}\n]{0,400}?[%>]\}\}")
_TEMPLATE_REF = re.compile(r"\{\{\s*([\w.-]{1,100})\s*\}\}")
_STAR_EMPHASIS = re.compile(r"(\*{1,3})(?=[^\s*])([^*\n]{0,400}?[^\s*])\1")
_UNDERSCORE_EMPHASIS = re.compile(r"(?<![\w\\])(_{1,3})(?=[^\s_])([^_\n]{0,400}?[^\s_])\1(?!\w)")
_STRIKE = re.compile(r"~~(?=[^\s~])([^~\n]{0,400}?[^\s~])~~")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_HTML_TAG = re.compile(
    r"</?(?:a|abbr|b|blockquote|br|caption|center|code|dd|del|details|div|dl|dt|em|figcaption|figure|font"
    r"|h[1-6]|hr|i|iframe|img|input|ins|kbd|li|mark|nav|ol|p|pre|s|section|small|span|strike|strong"
    r"|sub|summary|sup|table|tbody|td|tfoot|th|thead|tr|tt|u|ul|video)(?:\s[^<>\n]{0,400})?/?>",
    re.IGNORECASE,
)
_HIDDEN_ELEMENT = re.compile(r"<(script|style)\b[^>]{0,400}>.{0,100000}?</\1>", re.IGNORECASE | re.DOTALL)
_SPACES = re.compile(r"[ \t\u00a0]+")
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")


def plain_text(markdown: str, *, code_spans: bool = False) -> str:
    """Readable prose from markdown: one line per paragraph, list item, heading or table row.

    Blocks are separated by a blank line, and running ``plain_text`` on its own output changes
    nothing block-wise, so callers may pass either markdown or already plain text.

    Fenced and indented code blocks, front matter, HTML comments and tags, images and link
    targets are dropped; link text, heading text and inline code content are kept; hard-wrapped
    paragraph lines are joined. With
    ``code_spans=True`` inline code keeps its backticks (the entity rules want to know).
    """
    if not markdown or not markdown.strip():
        return ""
    text = markdown.replace("\r\n", "\n").replace("\r", "\n")
    text = _strip_front_matter(text)
    text = _strip_html_comments(text)
    if "<" in text:
        text = _HIDDEN_ELEMENT.sub(" ", text)
    labels: set[str] = set()
    blocks = _blocks(text, labels)
    lines = (_inline(block, labels, code_spans=code_spans) for block in blocks)
    # Blank lines between all blocks keep the result stable when it is fed back in.
    return "\n\n".join(line for line in lines if line)


def _strip_front_matter(text: str) -> str:
    """Replace a leading YAML (---) or TOML (+++) metadata block by its title, as a heading."""
    for fence in ("---", "+++"):
        if text.startswith(fence + "\n"):
            end = text.find("\n" + fence, len(fence))
            if end == -1:
                continue
            title = _FRONT_MATTER_TITLE.search(text, len(fence), end + 1)
            after = text.find("\n", end + 1 + len(fence))
            body = "" if after == -1 else text[after + 1 :]
            if title:
                return "# " + title.group(1).strip().strip("\"'").strip() + "\n\n" + body
            return body
    return text


def _strip_html_comments(text: str) -> str:
    """Remove <!-- ... --> with str.find (an unclosed comment hides the rest, as in a browser)."""
    if "<!--" not in text:
        return text
    out: list[str] = []
    position = 0
    while True:
        start = text.find("<!--", position)
        if start == -1:
            out.append(text[position:])
            break
        out.append(text[position:start])
        end = text.find("-->", start + 4)
        if end == -1:
            break
        position = end + 3
    return "".join(out)


def _indent_width(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip(" "))


def _blocks(text: str, labels: set[str]) -> list[str]:
    """Blocks (paragraph, heading, list item, table row) without code; collects link labels."""
    blocks: list[str] = []
    current: list[str] = []
    current_kind = "para"
    fence = ""
    in_code = False
    in_list = False
    previous_blank = True

    def flush() -> None:
        nonlocal current, current_kind
        if current:
            blocks.append(" ".join(current))
        current = []
        current_kind = "para"

    for line in text.split("\n"):
        if fence:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = ""
            continue
        opening = _FENCE_OPEN.match(line)
        if opening:
            flush()
            fence = opening.group(1)
            previous_blank = True
            continue
        if not line.strip():
            flush()
            previous_blank = True
            continue
        indent = _indent_width(line)
        if indent >= 4 and not current and not in_list and (previous_blank or in_code):
            in_code = True
            continue
        in_code = False
        was_blank, previous_blank = previous_blank, False
        quote = _BLOCKQUOTE.match(line)
        if quote:
            line = line[quote.end() :]
            if not line.strip():
                flush()
                continue
        heading = _ATX_HEADING.match(line)
        if heading:
            flush()
            blocks.append(heading.group(2) or "")
            in_list = False
            continue
        if _SETEXT_UNDERLINE.match(line) and current and current_kind == "para":
            flush()
            continue
        if _THEMATIC_BREAK.match(line):
            flush()
            continue
        stripped = line.strip()
        if "|" in stripped and _TABLE_SEPARATOR.match(stripped):
            # A header row without a leading pipe was read as paragraph text until now.
            header = current.pop() if current and current_kind == "para" and "|" in current[-1] else ""
            flush()
            if header:
                _append_row(blocks, header)
            current_kind = "row"
            continue
        if stripped.startswith("|") or (current_kind == "row" and "|" in stripped):
            flush()
            _append_row(blocks, stripped)
            current_kind = "row"
            continue
        definition = _LINK_DEFINITION.match(line)
        if definition:
            labels.add(definition.group(1).strip().lower())
            continue
        item = _LIST_ITEM.match(line)
        if item and not (current and current_kind == "para" and indent >= 4):
            flush()
            current, current_kind = [line[item.end() :].strip()], "item"
            in_list = True
            continue
        if in_list and was_blank and indent == 0:
            in_list = False
        if current_kind == "row":
            current_kind = "para"
        current.append(stripped)
    flush()
    return blocks


def _append_row(blocks: list[str], line: str) -> None:
    """A table row becomes one line of cells separated by semicolons (phrases never span cells)."""
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    blocks.append("; ".join(cell for cell in cells if cell))


def _inline(text: str, labels: set[str], *, code_spans: bool) -> str:
    """Strip inline markup from one block; inline code is protected from the other rules."""
    codes: list[str] = []

    def protect(match: re.Match[str]) -> str:
        content = (match.group(1) or match.group(2) or "").strip()
        codes.append(f"`{content}`" if code_spans else content)
        return f"\x00{len(codes) - 1}\x00"

    if "`" in text:
        text = _CODE_SPAN.sub(protect, text)
    if "\\" in text:
        text = _ESCAPE.sub(lambda m: "\x01" + str(ord(m.group(1))) + "\x01", text)
    if "[" in text:
        text = _IMAGE.sub("", text)
        text = _FOOTNOTE_REF.sub("", text)
        text = _INLINE_LINK.sub(r"\1", text)
        if labels:
            text = _REFERENCE_LINK.sub(lambda m: _resolve(m, labels), text)
    if "<" in text:
        text = _AUTOLINK.sub(r"\1", text)
        text = _HTML_TAG.sub(" ", text)
    if "{{" in text:
        text = _SHORTCODE.sub(" ", text)
        text = _TEMPLATE_REF.sub(r"\1", text)
    if "*" in text:
        text = _STAR_EMPHASIS.sub(r"\2", text)
    if "_" in text:
        text = _UNDERSCORE_EMPHASIS.sub(r"\2", text)
    if "~~" in text:
        text = _STRIKE.sub(r"\1", text)
    if "\x01" in text:
        text = re.sub("\x01(\\d+)\x01", lambda m: chr(int(m.group(1))), text)
    if "&" in text:
        text = html.unescape(text)
    if "`" in text and not code_spans:
        text = text.replace("`", "")
    if codes:
        text = _PLACEHOLDER.sub(lambda m: codes[int(m.group(1))], text)
    return _SPACES.sub(" ", text).strip()


def _resolve(match: re.Match[str], labels: set[str]) -> str:
    label = (match.group(2) or match.group(1)).strip().lower()
    return match.group(1) if label in labels else match.group(0)
