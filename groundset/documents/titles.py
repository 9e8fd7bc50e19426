"""A document's title: from front matter, its first heading, or its file name."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ..text.markdown import markdown_headings

_RST_ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)")
_MAX_TITLE = 200
_TITLE_WINDOW = 65_536


def title_from_name(name: str) -> str:
    """Last-resort title from a file name: ``node-exporter_guide.md`` -> ``node exporter guide``."""
    return re.sub(r"[\s_-]+", " ", PurePosixPath(name).stem).strip() or name


def _fit(text: str) -> str:
    """One line of at most ``_MAX_TITLE`` characters (an ellipsis says it was cut)."""
    text = " ".join(text.split())
    return text if len(text) <= _MAX_TITLE else text[: _MAX_TITLE - 1] + "…"


def _clean_title(text: str) -> str:
    """An rst title may still hold Markdown-style links and backticks (Markdown titles come parsed)."""
    return _fit(_LINK.sub(r"\1", text).replace("`", ""))


def markdown_title(text: str) -> str | None:
    """The first heading (CommonMark, outside code, quotes and lists), without markup or attributes.

    Only the first ``_TITLE_WINDOW`` characters are parsed (cut at a line end if one is near): a huge page
    must not cost a parse of all of it, and a page whose first heading comes later is titled by name.
    """
    head = text
    if len(text) > _TITLE_WINDOW:
        end = text.rfind("\n", _TITLE_WINDOW // 2, _TITLE_WINDOW)  # a line end, unless lines are huge
        head = text[: end + 1 if end != -1 else _TITLE_WINDOW]
    for heading in markdown_headings(head, max_title=None):
        return _fit(heading.title)
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
