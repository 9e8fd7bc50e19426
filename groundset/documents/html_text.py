"""HTML -> Markdown-shaped text with the stdlib parser, so HTML pages go through the same splitters.

Headings become ``#`` lines (headline splitting works on them), block elements get their own lines,
``<pre>`` becomes a fenced code block, and page chrome (head, scripts, styles, navigation: the list in
``groundset.text.html``) is dropped.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from ..text.html import HIDDEN_ELEMENTS

_DROP = HIDDEN_ELEMENTS  # the same elements the reader of HTML inside Markdown drops (see there why)
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_BLOCKS = frozenset(
    {
        "p", "div", "section", "article", "main", "header", "footer", "aside", "blockquote", "figure",
        "figcaption", "table", "thead", "tbody", "tr", "ul", "ol", "dl", "dt", "dd", "form", "fieldset",
        "address", "details", "summary", "hr", "body", "html",
    }
)  # fmt: skip
_CELLS = frozenset({"td", "th"})
# Elements without an end tag: they never nest a main element's count.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
_SPACES = re.compile(r"\s+")
_BLANK_RUNS = re.compile(r"\n{3,}")


# A page that marks its content (<main>, or role="main" as Sphinx themes write it) keeps everything else out:
# the Rust book's mdBook pages hold a keyboard-help popup ("Press Esc to hide this help") outside <nav> on
# every page, and "Esc" became the corpus's product name.
_MARKS_MAIN = re.compile(r"<main(?![\w-])|\brole\s*=\s*[\"']?main\b", re.IGNORECASE)


def _is_main(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    return tag == "main" or any(
        name == "role" and (value or "").strip().lower() == "main" for name, value in attrs
    )


class _Extractor(HTMLParser):
    """Collects text as Markdown-ish lines; entities are decoded by the parser (convert_charrefs). With
    ``main_only``, only the text inside the page's main element(s)."""

    def __init__(self, main_only: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.main_only = main_only
        self.main: list[str] = []  # the open main element's tag, once per open tag of that name inside it
        self.out: list[str] = []
        self.line: list[str] = []
        self.drop: list[str] = []
        self.pre_depth = 0
        self.heading: int | None = None
        self.title_parts: list[str] | None = None
        self.title = ""
        self.first_h1 = ""

    def _flush(self, blank: bool = False) -> None:
        text = _SPACES.sub(" ", "".join(self.line)).strip()
        self.line = []
        if text and text != "-":  # "-" alone is an empty list item
            if self.heading is not None:
                text = "#" * self.heading + " " + text
                if self.heading == 1 and not self.first_h1:
                    self.first_h1 = text[2:]
            self.out.append(text)
        if blank and self.out and self.out[-1] != "":
            self.out.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and not self.title and all(name == "head" for name in self.drop):
            self.title_parts = []  # the page title, not an SVG <title> in the body
            return
        if tag == "body" and "head" in self.drop:
            self.drop = [name for name in self.drop if name != "head"]  # <head> that was never closed
        if self.main_only:
            opens_main = (tag == self.main[0]) if self.main else _is_main(tag, attrs)
            if tag not in _VOID and opens_main:
                self.main.append(tag)  # the main element, or one of its name inside it
            if not self.main:
                return
        if tag in _DROP:
            self.drop.append(tag)
            return
        if self.drop:
            return
        if tag in _HEADINGS:
            self._flush(blank=True)
            self.heading = _HEADINGS[tag]
        elif tag == "pre":
            self._flush(blank=True)
            if self.pre_depth == 0:
                self.out.append("```")
            self.pre_depth += 1
        elif tag == "code" and not self.pre_depth:
            self.line.append("`")  # inline code stays code, as Markdown writes it ("the `?` operator")
        elif tag == "li":
            self._flush()
            self.line.append("- ")
        elif tag == "br":
            self._newline()
        elif tag in _CELLS:
            self.line.append(" ")
        elif tag == "img":
            self.line.append(" " + (dict(attrs).get("alt") or "") + " ")
        elif tag in _BLOCKS:
            self._flush(blank=tag not in {"tr", "dt", "dd"})

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.title_parts is not None:
            self.title = _SPACES.sub(" ", "".join(self.title_parts)).strip()
            self.title_parts = None
            return
        if self.main_only:
            if not self.main:
                return
            if tag == self.main[0]:
                self.main.pop()
                if not self.main:  # the main element ends: what it held ends with it
                    self._flush(blank=True)
                    return
        if tag in _DROP:
            if tag in self.drop:
                while self.drop and self.drop.pop() != tag:
                    pass
            return
        if self.drop:
            return
        if tag in _HEADINGS and self.heading is not None:
            self._flush(blank=True)
            self.heading = None
        elif tag == "pre" and self.pre_depth:
            self.pre_depth -= 1
            if self.pre_depth == 0:
                self.out.append("".join(self.line).strip("\n"))
                self.line = []
                self.out.extend(["```", ""])
        elif tag == "code" and not self.pre_depth:
            self.line.append("`")
        elif tag == "li":
            self._flush()
        elif tag in _BLOCKS:
            self._flush(blank=tag not in {"tr", "dt", "dd"})

    def _newline(self) -> None:
        if self.pre_depth:
            self.line.append("\n")
        else:
            self._flush()

    def handle_data(self, data: str) -> None:
        if self.title_parts is not None:
            self.title_parts.append(data)
        elif not self.drop and (self.main or not self.main_only):
            self.line.append(data)

    def text(self) -> str:
        if self.pre_depth:  # unclosed <pre>: close the fence so the code does not swallow later pages
            self.out.append("".join(self.line).strip("\n"))
            self.line = []
            self.out.append("```")
        self._flush()
        return _BLANK_RUNS.sub("\n\n", "\n".join(self.out)).strip()


def html_to_text(html: str) -> tuple[str, str]:
    """Return ``(text, title)``: Markdown-shaped text and the <title> (else first <h1>, else ""). A page
    that marks its main content gives that content only (the whole page when the mark holds no text)."""
    if _MARKS_MAIN.search(html):
        parser = _Extractor(main_only=True)
        parser.feed(html)
        parser.close()
        text = parser.text()
        if text:
            return text, parser.title or parser.first_h1
    parser = _Extractor()
    parser.feed(html)
    parser.close()
    text = parser.text()
    return text, parser.title or parser.first_h1
