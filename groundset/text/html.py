"""HTML without its hidden parts: the one list of elements both HTML readers drop, and the reader of raw
HTML blocks inside Markdown (``plain_text``).

Whole HTML pages are read by ``groundset.documents.html_text``, which sits above this layer and takes the
same list, so a page and the same HTML pasted into Markdown lose the same elements.
"""

from __future__ import annotations

import re
from html import unescape

__all__ = ["HIDDEN_ELEMENTS", "html_text"]

# Elements whose content a reader of the page never reads as prose:
#   script, style, template, noscript - code, CSS, inert markup, and a script-less fallback that repeats
#       what the script shows;
#   svg - drawing instructions; textarea - a form's editable default value;
#   iframe, object - fallback content for browsers that cannot embed (the embedded page is elsewhere);
#   nav, head - page chrome: menus and metadata, the same on every page of a site.
# <pre> is not in the list: it is code, not hidden. The page reader keeps it as a fenced code block (chunks
# and code questions want it; plain_text leaves fences out of prose), and the one-line reader below,
# which gives prose only, drops it as code.
HIDDEN_ELEMENTS = frozenset(
    {"script", "style", "template", "noscript", "svg", "textarea", "iframe", "object", "nav", "head"}
)
_PROSE_DROPPED = HIDDEN_ELEMENTS | {"pre"}
# A start tag, its name, and a "/" when it closes itself; a tag cut off before its ">" still opens.
_HIDDEN_OPEN = re.compile(rf"<({'|'.join(sorted(_PROSE_DROPPED))})(?![\w-])(?:[^<>]*?(/?)>)?", re.IGNORECASE)
# Compiled once: the end of each element; <head> also ends where <body> starts (its end tag is optional).
_HIDDEN_CLOSE = {
    name: re.compile(rf"</{name}\s*>" + (r"|(?=<body(?![\w-]))" if name == "head" else ""), re.IGNORECASE)
    for name in _PROSE_DROPPED
}
_TAG = re.compile(r"<[A-Za-z/!?][^<>]*>")  # stops at the next "<": linear on unclosed tags


def html_text(html: str) -> str:
    """The readable text of an HTML block, on one line: comments, hidden elements and preformatted code
    dropped, tags dropped, entities decoded. Linear scans: an unclosed comment or tag costs no more."""
    text = _without_comments(html)
    if "<" in text:
        text = _without_hidden(text)
        text = _TAG.sub(" ", text)
    if "&" in text:
        text = unescape(text)
    return " ".join(text.split())


def _without_comments(text: str) -> str:
    """Remove ``<!-- ... -->``; an unclosed comment hides the rest, as in a browser."""
    out: list[str] = []
    position = 0
    while (start := text.find("<!--", position)) != -1:
        out.append(text[position:start])
        end = text.find("-->", start + 4)
        if end == -1:
            return "".join(out)
        position = end + 3
    out.append(text[position:])
    return "".join(out)


def _without_hidden(text: str) -> str:
    """Remove hidden and preformatted elements with their content (unclosed: to the end); a self-closing
    tag (``<svg/>``) hides nothing, as in the page reader."""
    out: list[str] = []
    position = 0
    while opened := _HIDDEN_OPEN.search(text, position):
        out.append(text[position : opened.start()])
        if opened.group(2):
            position = opened.end()
            continue
        closed = _HIDDEN_CLOSE[opened.group(1).lower()].search(text, opened.end())
        if closed is None:
            return "".join(out)
        position = closed.end()
    out.append(text[position:])
    return "".join(out)
