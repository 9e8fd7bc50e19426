"""Headings from document structure: Markdown (ATX and Setext, per CommonMark) and reStructuredText.

Headlines taken from structure cost no model call; only documents without any need the LLM.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RST_UNDERLINE = re.compile(r"^([=\-`:'\"~^_*+#<>])\1{2,}\s*$")


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    line: int  # 0-based index of the line the heading starts on


def markdown_headings(text: str) -> list[Heading]:
    """ATX (``## Title``) and Setext (``Title`` over ``===``/``---``) headings outside code fences."""
    headings: list[Heading] = []
    lines = text.split("\n")
    fence: str | None = None
    previous_plain: int | None = None  # index of a paragraph line that a Setext underline could promote
    for index, line in enumerate(lines):
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            continue
        if opener:
            fence, previous_plain = opener.group(1), None
            continue
        if line.startswith(("    ", "\t")) and previous_plain is None:
            continue  # indented code
        atx = _ATX.match(line)
        if atx:
            headings.append(Heading(len(atx.group(1)), _clean(atx.group(2) or ""), index))
            previous_plain = None
            continue
        setext = _SETEXT.match(line)
        if setext and previous_plain is not None and not _is_list_or_quote(lines[previous_plain]):
            level = 1 if setext.group(1)[0] == "=" else 2
            headings.append(Heading(level, _clean(lines[previous_plain]), previous_plain))
            previous_plain = None
            continue
        previous_plain = index if line.strip() else None
    return [h for h in headings if h.title]


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
        headings.append(Heading(levels.index(style) + 1, _clean(title), index - 1))
    return headings


def structural_headings(text: str, fmt: str) -> list[Heading]:
    if fmt == "rst":
        return rst_headings(text)
    if fmt in ("markdown", "html"):
        return markdown_headings(text)
    return []


def _clean(title: str) -> str:
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # links -> their text
    title = title.replace("`", "").replace("**", "").strip()
    return re.sub(r"\s+", " ", title)[:200]


def _is_list_or_quote(line: str) -> bool:
    return bool(re.match(r"^ {0,3}([-*+>]|\d+[.)])\s", line))
