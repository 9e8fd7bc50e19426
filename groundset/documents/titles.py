"""A document's title: from front matter, its first heading, or its file name."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_ATX = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*$")
# Lines that cannot start a paragraph: list items, quotes, indented code, thematic breaks.
_NOT_PARAGRAPH = re.compile(
    r" {0,3}(?:[-+*>]|\d{1,9}[.)])(?:[ \t]|$)| {4}|\t| {0,3}([-*_])[ \t]*(?:\1[ \t]*){2,}$"
)
_RST_ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")
_MAX_TITLE = 200


def title_from_name(name: str) -> str:
    """Last-resort title from a file name: ``node-exporter_guide.md`` -> ``node exporter guide``."""
    return re.sub(r"[\s_-]+", " ", PurePosixPath(name).stem).strip() or name


def _clean_title(text: str) -> str:
    text = _LINK.sub(r"\1", text).replace("`", "")
    text = " ".join(text.split())
    return text if len(text) <= _MAX_TITLE else text[: _MAX_TITLE - 1] + "…"


def markdown_title(text: str) -> str | None:
    """First ATX or Setext heading outside fenced code (CommonMark rules, simplified)."""
    fence: str | None = None
    paragraph: list[str] = []
    for line in text.split("\n"):
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and not stripped.strip(fence[0]):
                fence = None
            continue
        if opened := _FENCE.match(line):
            fence, paragraph = opened.group(1), []
            continue
        if heading := _ATX.match(line):
            rest = line[heading.end() :].strip()
            closed = rest.rstrip("#")
            rest = closed.strip() if not closed or closed[-1] in " \t" else rest
            if rest:
                return _clean_title(rest)
            paragraph = []
        elif paragraph and _SETEXT.match(line):
            return _clean_title(" ".join(paragraph))
        elif not line.strip() or (not paragraph and _NOT_PARAGRAPH.match(line)):
            paragraph = []
        else:
            paragraph.append(line.strip())
    return None


def _is_adornment(line: str) -> bool:
    """An RST over/underline: one punctuation character repeated (no regex backtracking on long lines)."""
    line = line.rstrip()
    return len(line) >= 2 and line[0] in _RST_ADORNMENT_CHARS and line.count(line[0]) == len(line)


def rst_title(text: str) -> str | None:
    """First reStructuredText section title: a text line underlined by at least as many adornment chars."""
    lines = text.split("\n")
    for index, line in enumerate(lines[:-1]):
        title = line.strip()
        under = lines[index + 1].rstrip()
        if title and not _is_adornment(line) and _is_adornment(under) and len(under) >= len(title):
            return _clean_title(title)
    return None
