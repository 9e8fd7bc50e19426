"""A document's title: from front matter, its first heading, or its file name.

Titles come from the same heading rules the splitter cuts at (``groundset.text.markdown``), so a title is
always a heading the chunks know, cleaned and cut the same way.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ..text.markdown import markdown_headings, rst_headings

_TITLE_WINDOW = 65_536


def title_from_name(name: str) -> str:
    """Last-resort title from a file name: ``node-exporter_guide.md`` -> ``node exporter guide``."""
    return re.sub(r"[\s_-]+", " ", PurePosixPath(name).stem).strip() or name


def markdown_title(text: str) -> str | None:
    """The first heading (CommonMark, outside code, quotes and lists), without markup or attributes.

    Only the first ``_TITLE_WINDOW`` characters are parsed (cut at a line end if one is near): a huge page
    must not cost a parse of all of it, and a page whose first heading comes later is titled by name.
    """
    head = text
    if len(text) > _TITLE_WINDOW:
        end = text.rfind("\n", _TITLE_WINDOW // 2, _TITLE_WINDOW)  # a line end, unless lines are huge
        head = text[: end + 1 if end != -1 else _TITLE_WINDOW]
    for heading in markdown_headings(head):
        return heading.title
    return None


def rst_title(text: str) -> str | None:
    """The first reStructuredText section title, by the rules the splitter cuts at."""
    for heading in rst_headings(text):
        return heading.title
    return None
