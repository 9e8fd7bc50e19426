"""Markdown without the markup a docs build expands or hides (includes, shortcodes, template tags, HTML
wrappers, comments, MDX import/export and JSX, ::: fences, kramdown attribute lines): never on the
rendered page, yet left in chunk texts they turn up in generated questions and references.

Code lines come from markdown-it's block tokens: code stays as written (a fence of directives alone
goes), HTML blocks keep their text, other blocks lose markup outside inline code, scanned left to right.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from html import unescape

from markdown_it.common.html_blocks import block_names
from markdown_it.common.html_re import close_tag, open_tag

from .html import HIDDEN_ELEMENTS
from .mdparse import parse

__all__ = ["strip_markup"]

_TRIGGER = re.compile(r"[<{]|:::|^(?:import|export)\b", re.MULTILINE)  # none: a page returns as it came
# What a source line is, and what became of an output line.
_PROSE, _BLOCK_START, _CODE, _HTML, _GONE = range(5)
_KEPT, _VERBATIM, _CHANGED, _DROPPED, _MADE = range(5)
Entry = tuple[str, int]
_MAX_PASSES = 4

# HTML elements by name, written in lowercase: other names in angle brackets (<name>, <job-name>,
# <VERSION>) are placeholders a writer means as text, unless the tag carries an attribute value.
_ELEMENTS = frozenset(block_names) | {
    "a", "abbr", "audio", "b", "bdi", "bdo", "big", "br", "button", "canvas", "cite", "code", "data",
    "del", "dfn", "em", "embed", "font", "i", "img", "input", "ins", "kbd", "label", "mark", "meter",
    "nobr", "noscript", "object", "output", "picture", "pre", "progress", "q", "rp", "rt", "ruby", "s",
    "samp", "script", "select", "slot", "small", "source", "span", "strike", "strong", "style", "sub",
    "sup", "svg", "template", "textarea", "time", "tt", "u", "var", "video", "wbr",
}  # fmt: skip
# Elements that separate words on the page: removed between two words, they leave a space.
_BREAKING = frozenset(block_names) | {"br", "img", "video", "audio", "picture", "embed", "input"}
_TAG = re.compile(f"{open_tag}|{close_tag}")
_BRACED = r"\{(?:[^{}]|\{[^{}]*\})*\}"  # a JSX {expression}, two levels of braces deep
_JSX_TAG = re.compile(
    rf"</?[A-Z][\w.]*(?:\s+(?:[\w:.-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|{_BRACED}|[^\s\"'=<>`{{}}]+))?"
    rf"|{_BRACED}))*\s*/?>"
)
_TAG_NAME = re.compile(r"</?([A-Za-z][\w.:-]*)")
_HAS_VALUE = re.compile(r"\s[\w:.-]+\s*=")
# Comments, processing instructions, CDATA and declarations: how each starts and what ends it.
_NOT_TEXT = [
    (start, re.compile(end))
    for start, end in (("<!--", "-->"), ("<?", r"\?>"), ("<![CDATA[", r"]]>"), ("<!", ">"))
]
_BLOCK_COMMENT = re.compile(r"<!--[\s\S]*?(?:-->|\Z)")
_HIDDEN_END = {name: re.compile(rf"</{name}\s*>", re.IGNORECASE) for name in HIDDEN_ELEMENTS}
# mdBook, Hugo, Jinja/Liquid markup, {{ expressions }}: bounded, so an unclosed one costs little.
_TEMPLATE = re.compile(
    r"\{\{#[A-Za-z_][^{}]{0,1000}?\}\}|\{\{<[^{}]{0,2000}?>\}\}|\{\{%[^{}]{0,2000}?%\}\}"
    r"|\{%[^{}]{0,2000}?%\}|\{#[\s-][^{}]{0,2000}?#\}|\{\{[^{}\n]{0,300}\}\}"
)
_REFERENCE = re.compile(r"\{\{\s*([A-Za-z_][\w-]{0,99})\s*\}\}")  # a name, not a variable (site.title)
_NEXT = re.compile(r"`+|<|\{[{%#]")
_BACKTICKS = re.compile(r"`+")
_DIRECTIVE_LINE = re.compile(r"\s*(?:\{\{[#<%][^\n]*\}\}|\{%[^\n]*%\})\s*")
_IAL_LINE = re.compile(r"[ \t]*\{:[^{}\n]*\}[ \t]*")  # line markup: kramdown attributes, ::: fences
_LIST_LINE = re.compile(r"[ \t]*[*+-][ \t]+\S.*")
_COLON_FENCE = re.compile(r"[ \t]*:{3,}[ \t]*(?:\{[\w-]*\}|[\w-]*)[ \t]*(?:\[(.*)\]|(.*))")
# MDX ESM: a top-level block that starts with an import or export statement.
_ESM = re.compile(
    r"import\s+(?:(?:type\s+)?(?:[\w$]+|\*\s+as\s+[\w$]+|\{[^}\n]*\})"
    r"(?:\s*,\s*(?:\{[^}\n]*\}|\*\s+as\s+[\w$]+))?\s+from\s*)?['\"][^'\"\n]+['\"]\s*;?\s*$"
    r"|import\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{[^}\n]*$|export\s*[{*]"
    r"|export\s+(?:(?:const|let|var)\s+[\w$]+\s*[=:]|(?:async\s+)?function\b|class\s|default\s)"
)
_PRE = re.compile(r"[ \t]*<pre(?=[\s>])[^>]*>", re.IGNORECASE)
_PRE_END = re.compile(r"</pre\s*>", re.IGNORECASE)
_RAW_HTML = re.compile(r"[ \t]*<(?:!|\?|(?:script|style|textarea|pre)(?=[\s>]))", re.IGNORECASE)
_ANY_TAG = re.compile(r"<[A-Za-z/!?][^<>]*>")
_FENCE_LINE = re.compile(r" {0,3}(`{3,}|~{3,})")
# A line starting like this may read differently once the line before it changed or went.
_SENSITIVE_START = re.compile(r"[\s>*+\-\d.)]*(?:<|\{|:::|```|~~~|import\b|export\b)")
_INDENTED = re.compile(r" {4}|\t")  # code, unless it goes on a paragraph: sensitive after a removal


def strip_markup(markdown: str) -> str:
    """``markdown`` without template directives, HTML tags and comments, MDX and admonition markup; code
    and the text inside elements and paired shortcodes stay. Idempotent; markup-free text comes back as is."""
    if not markdown or not _TRIGGER.search(markdown):
        return markdown
    text = markdown.replace("\r\n", "\n").replace("\r", "\n") if "\r" in markdown else markdown
    stripped, unsettled = _pass(text)
    for _ in range(_MAX_PASSES - 1):
        # Only when removal may have changed how a line reads (it now starts a block, or follows one
        # that went) is the result parsed again: one parse is most of the cost.
        if not unsettled or not _TRIGGER.search(stripped):
            break
        again, unsettled = _pass(stripped)
        if again == stripped:
            break
        stripped = again
    return markdown if stripped == text else stripped


def _pass(text: str) -> tuple[str, bool]:
    """One parse and removal: (the text, whether a line that removal touched could read differently)."""
    lines = text.split("\n")
    kinds, html_blocks = _line_kinds(text, len(lines))
    entries: list[Entry] = []
    index, previous = 0, ""  # previous: the last line kept so far
    while index < len(lines):
        kind, line, end, mark = kinds[index], lines[index], index + 1, len(entries)
        fence = _COLON_FENCE.fullmatch(line) if kind <= _BLOCK_START and ":::" in line else None
        if fence:
            title = _clean_inline((fence.group(1) or fence.group(2) or "").strip()).strip()
            entries.extend([("", _MADE), (title, _CHANGED), ("", _MADE)] if title else [("", _MADE)])
        elif kind == _GONE:
            entries.append(("", _DROPPED))
        elif kind == _HTML:
            end, level = html_blocks.get(index, (end, 1))
            following = lines[end] if end < len(lines) and kinds[end] != _GONE else ""
            entries.extend(_html_block(lines[index:end], level, previous, following))
        elif kind == _CODE or not line.strip():
            entries.append((line, _VERBATIM if kind == _CODE else _KEPT))
        else:
            while end < len(lines) and kinds[end] == _PROSE and lines[end].strip():
                if ":::" in lines[end] and _COLON_FENCE.fullmatch(lines[end]):
                    break
                end += 1
            entries.extend(_prose(lines[index:end], entries))
        previous = next((text for text, flag in reversed(entries[mark:]) if flag != _DROPPED), previous)
        index = end
    return _collapse(entries)


def _line_kinds(text: str, count: int) -> tuple[list[int], dict[int, tuple[int, int]]]:
    """Per line: prose (a block starts there, or goes on), code, raw HTML, or gone; HTML blocks by start."""
    kinds = [_PROSE] * count
    html_blocks: dict[int, tuple[int, int]] = {}
    # A final newline: mdit-py-plugins' ::: rule reads past a last "> " line without one (IndexError).
    for token in parse(text if text.endswith("\n") else f"{text}\n", headings_only=True):
        start, end = (token.map[0], min(token.map[1], count)) if token.map else (0, 0)
        if end <= start:
            continue
        if token.type == "html_block":
            kinds[start:end] = [_HTML] * (end - start)
            html_blocks[start] = (end, token.level)
        elif token.type in ("fence", "code_block", "front_matter"):
            gone = token.type != "front_matter" and _directives_only(token.content)
            kinds[start:end] = [_GONE if gone else _CODE] * (end - start)
        elif kinds[start] == _PROSE:
            kinds[start] = _BLOCK_START
    return kinds, html_blocks


def _directives_only(code: str) -> bool:
    """A code block of include directives alone renders as the included file, which is not here."""
    lines = [line for line in code.split("\n") if line.strip()]
    return bool(lines) and all(_DIRECTIVE_LINE.fullmatch(line) for line in lines)


def _prose(lines: list[str], before: list[Entry]) -> list[Entry]:
    """One block's lines without attribute lines (kramdown's ``* TOC``/``{:toc}`` too), inline markup, ESM."""
    kept: list[str] = []
    for line in lines:
        if "{:" in line and _IAL_LINE.fullmatch(line):
            if line.replace(" ", "").strip() == "{:toc}" and kept and _LIST_LINE.fullmatch(kept[-1]):
                kept.pop()
        else:
            kept.append(line)
    joined = "\n".join(kept)
    cleaned = _clean_inline(joined)
    if len(kept) == len(lines) and cleaned == joined:
        out = [(line, _KEPT) for line in lines]
    else:  # lines that went still count, so that the line after them is checked (see _collapse)
        out = [(line, _CHANGED) if line.strip() else ("", _DROPPED) for line in cleaned.split("\n")]
        out.extend([("", _DROPPED)] * (len(lines) - len(kept)))
    esm = _ESM.match(next((text for text, flag in out if flag != _DROPPED), ""))
    at_top = not before or not before[-1][0].strip() or before[-1][1] == _DROPPED
    return [("", _DROPPED)] * len(out) if at_top and esm else out


def _html_block(lines: list[str], level: int, previous: str, following: str) -> list[Entry]:
    """A raw HTML block: comments, hidden elements and tags go, text stays; ``<pre>`` becomes a fence."""
    base = _indent(lines[0])
    pre = _PRE.match(lines[0]) if level == 0 else None
    if pre:
        body = "\n".join(lines)[pre.end() :]
        closed = _PRE_END.search(body)
        code, rest = (body[: closed.start()], body[closed.end() :]) if closed else (body, "")
        out = _pre_fence(code, base)
        out.extend(_html_text(rest.split("\n"), base, raw=True) if rest.strip() else [])
    else:
        out = _html_text(lines, base, raw=bool(_RAW_HTML.match(lines[0])))
    if [text for text, _ in out] == lines:
        return [(line, _KEPT) for line in lines]
    out = [(text, _CHANGED if flag == _KEPT else flag) for text, flag in out]
    if level == 0:  # the block stood apart from its neighbours; what is left of it still does
        has_text = any(flag != _DROPPED for _, flag in out)
        if previous.strip() and (has_text or following.strip()):
            out.insert(0, ("", _MADE))
        if has_text and following.strip():
            out.append(("", _MADE))
    return out


def _html_text(lines: list[str], base: str, *, raw: bool) -> list[Entry]:
    """Raw HTML lines as prose; a fence inside (none if ``raw``: a comment, script) stays, closed."""
    out: list[Entry] = []
    segment: list[str] = []
    code: list[str] = []  # an open fence: its lines so far
    opener = ""
    for line in lines:
        marker = None if raw or not line.startswith(base) else _FENCE_LINE.match(line, len(base))
        fence, after = (marker.group(1), line[marker.end() :]) if marker else ("", "")
        if code:
            code.append(line)
            if fence[:1] == opener[:1] and len(fence) >= len(opener) and not after.strip():
                out.extend(_fenced(code))
                code = []
        elif fence and not (fence[0] == "`" and "`" in after):
            out.extend(_html_segment(segment, base))
            segment, code, opener = [], [line], fence
        else:
            segment.append(line)
    return [*out, *_html_segment(segment, base), *(_fenced([*code, base + opener]) if code else [])]


def _fenced(code: list[str]) -> list[Entry]:
    """A fence, or nothing when it holds directives only."""
    gone = _directives_only("\n".join(code[1:-1]))
    return [("", _DROPPED) if gone else (line, _VERBATIM) for line in code]


def _html_segment(lines: list[str], base: str) -> list[Entry]:
    """Comments (unclosed: to the end), hidden elements, tags go; the rest is prose, as a second pass sees."""
    html = _BLOCK_COMMENT.sub("", "\n".join(lines))
    original = set(lines)
    out: list[Entry] = []
    run: list[str] = []
    for line in [*_clean_inline(html, hide_rest=True).split("\n"), ""]:
        if line.strip():  # indentation means nothing in HTML, and 4 spaces would make a code block
            changed = line not in original or len(_indent(line)) > len(base) + 3
            run.append(base + line.lstrip() if changed else line)
            continue
        out.extend(_prose(run, out) if run else [])
        out.append(("", _DROPPED))
        run = []
    return out[:-1] if lines else []


def _pre_fence(code: str, base: str) -> list[Entry]:
    """An HTML ``<pre>`` block as the fenced code block it is: tags gone, entities decoded."""
    text = unescape(_ANY_TAG.sub("", code)).strip("\n")
    fence = base + "`" * max(3, 1 + max((len(run) for run in _BACKTICKS.findall(text)), default=0))
    return _fenced([fence, *text.split("\n"), fence]) if text.strip() else []


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _clean_inline(text: str, *, hide_rest: bool = False) -> str:
    """Markup outside code spans removed, scanning again while removal joins pieces into new markup
    (``<<b>div>``); ``hide_rest``: an unclosed ``<script>`` hides the rest, as in raw HTML."""
    for _ in range(_MAX_PASSES):
        cleaned = _scan(text, hide_rest) if _NEXT.search(text) else text
        if cleaned == text:
            break
        text = cleaned
    return text


def _scan(text: str, hide_rest: bool) -> str:
    closers: dict[int, list[int]] = {}  # backtick runs by length: where a code span could close
    for run in _BACKTICKS.finditer(text):
        closers.setdefault(run.end() - run.start(), []).append(run.start())
    out: list[str] = []
    searched: dict[re.Pattern[str], re.Match[str] | None] = {}  # see _search
    has_text = False  # the current output line holds more than indentation
    position = 0
    while (found := _NEXT.search(text, position)) is not None:
        start, char = found.start(), text[found.start()]
        removed_to, mark, keep_to = -1, "", start + 1
        if _escaped(text, start):
            pass
        elif char == "`":
            starts = closers.get(found.end() - start, [])
            after = bisect_right(starts, start)
            keep_to = starts[after] + found.end() - start if after < len(starts) else found.end()
        elif char == "<":
            removed_to, mark, keep_to = _tag_at(text, start, hide_rest, searched)
        elif template := _TEMPLATE.match(text, start):
            if reference := _REFERENCE.fullmatch(
                template.group(0)
            ):  # {{ PrometheusPorts }} reads as its name
                has_text = _append(out, text[position:start] + reference.group(1), has_text)
                position = template.end()
                continue
            removed_to = template.end()
        if removed_to == -1:
            has_text = _append(out, text[position:keep_to], has_text)
            position = keep_to
            continue
        has_text = _append(out, text[position:start], has_text)
        position = removed_to
        right, last = text[position] if position < len(text) else "\n", out[-1][-1] if out else "\n"
        if mark and last not in " \t\n" and right not in " \t\n":
            out.append(mark)
        elif has_text and last in " \t" and right in " \t\n,.;:!?)]":
            _trim(out)
        elif not has_text:  # markup at the start of a line: the text after it takes its place
            while position < len(text) and text[position] in " \t":
                position += 1
    _append(out, text[position:], has_text)
    return "".join(out)


def _tag_at(text: str, start: int, hide_rest: bool, cache: dict) -> tuple[int, str, int]:
    """(markup end or -1, what it leaves between words: " ", "^" for 2<sup>53</sup>, or ""; text kept to)."""
    for opener, closer in _NOT_TEXT:
        if text.startswith(opener, start):
            close = _search(closer, text, start + len(opener), cache)
            return (close.end(), "", start) if close else (-1, "", start + 1)
    tag = _TAG.match(text, start) or _JSX_TAG.match(text, start)
    if tag is None:
        return -1, "", start + 1
    written = tag.group()
    lower = (name := _TAG_NAME.match(written).group(1)).lower()  # type: ignore[union-attr]
    component = name[0].isupper() and not name.isupper()
    if not (component or (name == lower and lower in _ELEMENTS) or _HAS_VALUE.search(written)):
        return -1, "", tag.end()  # a placeholder such as <name>: text
    end = tag.end()
    if lower in _HIDDEN_END and not written.startswith("</") and not written.endswith("/>"):
        closing = _search(_HIDDEN_END[lower], text, end, cache)
        end = closing.end() if closing else len(text) if hide_rest else end
    power = lower == "sup" and written[1] != "/"
    return end, "^" if power else " " if component or lower in _BREAKING else "", start


def _search(pattern: re.Pattern[str], text: str, start: int, cache: dict) -> re.Match[str] | None:
    """``pattern.search`` from a growing ``start``: once per text, not once per unclosed ``<!--``."""
    if pattern not in cache or (cache[pattern] is not None and cache[pattern].start() < start):
        cache[pattern] = pattern.search(text, start)
    return cache[pattern]


def _escaped(text: str, position: int) -> bool:
    start = position
    while start and text[start - 1] == "\\":
        start -= 1
    return (position - start) % 2 == 1


def _append(out: list[str], piece: str, has_text: bool) -> bool:
    """Append ``piece``; whether the current output line now holds text."""
    if not piece:
        return has_text
    out.append(piece)
    newline = piece.rfind("\n")
    return bool(piece[newline + 1 :].strip()) if newline != -1 else has_text or bool(piece.strip())


def _trim(out: list[str]) -> None:
    """Drop the spaces before removed markup (the line holds text, so they stop before it)."""
    while out:
        out[-1] = out[-1].rstrip(" \t")
        if out[-1]:
            return
        out.pop()


def _collapse(entries: list[Entry]) -> tuple[str, bool]:
    """Blank lines removal leaves together become one; and whether a changed line reads as it may not."""
    out: list[str] = []
    unsettled = touched = changed = False  # touched: a removal, or a changed block, came just before
    index = 0
    while index < len(entries):
        text, flag = entries[index]
        if not _blank(entries[index]):
            starts = flag != _VERBATIM and (touched or flag == _CHANGED) and _SENSITIVE_START.match(text)
            unsettled = unsettled or bool(starts or (touched and _INDENTED.match(text)))
            touched, changed = False, flag == _CHANGED
            out.append(text)
            index += 1
            continue
        end = index
        while end < len(entries) and _blank(entries[end]):
            end += 1
        flags = {flag for _, flag in entries[index:end]}
        if flags == {_KEPT}:
            out.extend(text for text, _ in entries[index:end])
        elif out and flags - {_DROPPED} and (end < len(entries) or entries[-1] == ("", _KEPT)):
            out.append("")  # one blank line, and at the end only if the text ended a line
        touched = touched or changed or flags != {_KEPT}
        index = end
    return "\n".join(out), unsettled


def _blank(entry: Entry) -> bool:
    return entry[1] in (_DROPPED, _MADE) or (entry[1] != _VERBATIM and not entry[0].strip())
