"""The sentences of a chunk that could answer a question, with what a reader needs around them.

Answer-first generation starts from sentences, not terms. Only prose sentences of paragraphs and
list items qualify: headings, table rows, code, HTML, list stubs that end in ":" and sentences that
point at something the reader cannot see ("like this:", "shown below") never become references.
Each sentence keeps its neighbours in the same block (to resolve a leading "It" or to continue the
answer), the heading it sits under and the inline code it contains (a topic check wants to know).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from markdown_it.token import Token

from ...languages.words import word_set
from ...text.mdparse import inline_segments, memo, parse
from ...text.plaintext import is_rest_markup, without_rest_markup
from ...text.sentences import split_sentences

__all__ = [
    "MAX_REFERENCE_CHARS",
    "Passage",
    "after_label",
    "continued_list",
    "in_list_item",
    "is_prose",
    "passages",
    "with_continuation",
]

_MIN_WORDS = 5
MAX_REFERENCE_CHARS = 420  # a reference sentence with the one after it, at most
_MAX_WORDS = 70
_MAX_CODE_SHARE = 0.5  # a sentence that is mostly inline code is a listing, not prose
# Sentences that lean on something the reader of the reference cannot see.
_POINTING = re.compile(
    r"\b(?:like this|as follows|the following|shown (?:below|above|here)|below|above|this example|"
    r"these examples|in this (?:listing|figure|snippet)|see (?:also|the))\b|^(?:see|e\.g\.|i\.e\.)\b",
    re.IGNORECASE,
)
# Headings over examples of wording rather than statements ("##### No" over "If you discard changes,
# your list will remain unchanged."): what follows says nothing about the subject.
_VERDICT = re.compile(
    r"(?:yes|no|do|don['\u2019]t|do not|avoid|instead|incorrect|correct|wrong|right|bad|good|"
    r"better|worse|before|after)[.!:]?",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"<[A-Za-z/!][^>]*>|\{\{|\}\}|\{%|%\}|\]\(|!\[|^\s*[#>|]")
_TERMINAL = re.compile(r"[.!][\"')\]\u2019\u201d]*$")
# "`scrape_interval`: How often to scrape." / "Counter - a value that only goes up."
_LABELLED = re.compile(
    r"^(?P<label>`[^`]{1,80}`|[^:;.!?`]{1,60}?)\s*(?::|\s[-\u2013\u2014])\s+(?P<rest>\S.*)$"
)
_MAX_LABEL_WORDS = 4
_MAX_TITLE_WORDS = 6
_LABEL_VERBS = word_set(
    """
    is are was were be can will should must has have do does may might
    """
)


@dataclass(frozen=True)
class Passage:
    """One candidate answer sentence (verbatim from ``plain_text`` of its chunk, without backticks)."""

    sentence: str
    previous: str  # the sentence before it in the same paragraph or list item ("" when first)
    following: str  # the sentence after it in the same block ("" when last)
    heading: str  # the heading it sits under, inside the chunk or from the chunk's section path
    label: str  # the term of a labelled list item ("scrape_interval" in "scrape_interval: ...")
    codes: frozenset[str]  # inline code spans of the sentence
    term: str = ""  # the code term of the definition list it describes ("OPTIONS <options>")


def passages(markdown: str, section: str = "", lang: str = "en") -> tuple[Passage, ...]:
    """Prose sentences of a chunk that may answer a question, in document order (``lang``: where its
    sentences end, "z. B." is no end in German)."""
    return _passages(f"{lang}\x00{section}\x00{markdown}")


PASSAGES_MEMO_CHARS = 32_000_000  # the chunk text whose passages are remembered


@memo(max_chars=PASSAGES_MEMO_CHARS)
def _passages(key: str) -> tuple[Passage, ...]:
    lang, section, markdown = key.split("\x00", 2)
    heading = section.split(" > ")[-1].strip()
    found: list[Passage] = []
    tokens = parse(markdown)
    lines = markdown.split("\n")
    in_table = in_heading = False
    described = ""  # the definition-list term whose indented body the next paragraphs are
    variants = -1  # the level of a list of how something differs elsewhere, while inside it
    lead = ""  # the text of the last paragraph, which may introduce a list
    for index, token in enumerate(tokens):
        kind = token.type
        if variants >= 0:
            if kind in ("bullet_list_close", "ordered_list_close") and token.level == variants:
                variants = -1
            continue
        if kind in ("bullet_list_open", "ordered_list_open") and _LISTS_DIFFERENCES.search(lead):
            variants = token.level  # "Notable differences inside a Worker environment are:" (Node.js): its
            continue  # items hold there only ("process.env is a copy of the parent thread's ..."), no facts
        if kind in ("table_open", "table_close"):
            in_table = kind == "table_open"
        elif kind == "heading_open":
            in_heading = True
        elif kind == "heading_close":
            in_heading = False
        elif kind == "inline" and not in_table:
            indented = bool(token.map) and lines[token.map[0]][:1] in (" ", "\t")
            # "``NO_SOURCE_PERMISSIONS``", maybe ".. versionadded::", then its indented body
            described = _code_term(token) or (described if indented else "")
            title, token = _leading_title(token)
            heading = title or heading
            segments = without_rest_markup(inline_segments(token))
            text = " ".join("".join(text for text, _ in segments).split())
            lead = text
            if is_rest_markup(text):
                continue
            if in_heading:
                heading = text
            elif _VERDICT.fullmatch(heading):
                continue  # a style guide's "Yes"/"No" examples: wording to copy or avoid, no statement
            elif (block := _block_kind(tokens, index)) != "other":
                found.extend(
                    _block_passages(segments, heading, labelled=block == "list", lang=lang, term=described)
                )
    return tuple(found)


# A paragraph that introduces a list of differences: its items say how something is in one setting only.
_LISTS_DIFFERENCES = re.compile(r"\bdifferen(?:ce|ces|t)\b[^.!?]*:$", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def continued_list(previous: str, markdown: str) -> str:
    """The chunk as it must be read: a chunk that opens inside a list of differences whose lead-in ended the
    chunk before it ("Notable differences inside a Worker environment are:", the Node.js worker page, split
    there) gets the lead-in back, so its items give no facts; any other chunk is ``markdown`` itself."""
    if not _LIST_ITEM.match(markdown):
        return markdown
    lead = previous.rstrip().rsplit("\n\n", 1)[-1].strip()
    return f"{lead}\n\n{markdown}" if _LISTS_DIFFERENCES.search(lead) else markdown


def _leading_title(token: Token) -> tuple[str, Token]:
    """A paragraph whose first line is a bare title ("Counter" then "A counter is ..."), as plain-text
    files write headings, or a definition-list term (reStructuredText's "``OPTIONS <options>``" over
    "Specify command-line arguments ..."): (the title, the rest of the paragraph); ("", token) otherwise."""
    segments, rest = _first_line(token)
    if rest is None:
        return "", token
    first = " ".join("".join(t for t, _ in segments).split())
    after = "".join(t for t, _ in inline_segments(rest)).lstrip()
    words = first.split()
    titled = 0 < len(words) <= _MAX_TITLE_WORDS and not _TERMINAL.search(first)
    named = first[:1].isupper() or _all_code(segments)
    if titled and not first.endswith((",", ":", ";")) and named and after[:1].isupper():
        return first, rest
    return "", token


def _code_term(token: Token) -> str:
    """The first line of a paragraph when it is all code and more lines follow (a definition-list term:
    "``NO_SOURCE_PERMISSIONS``" over its indented description), else ""."""
    segments, rest = _first_line(token)
    if rest is None or not _all_code(segments):
        return ""
    return " ".join("".join(text for text, _ in segments).split())


def _first_line(token: Token) -> tuple[list[tuple[str, bool]], Token | None]:
    """The inline segments of a paragraph's first line and the rest of it (None: one line only)."""
    children = token.children or []
    breaks = [i for i, child in enumerate(children) if child.type == "softbreak"]
    if not breaks:
        return [], None
    return inline_segments(_inline(children[: breaks[0]])), _inline(children[breaks[0] + 1 :])


def _all_code(segments: list[tuple[str, bool]]) -> bool:
    return bool(segments) and all(code or not text.strip() for text, code in segments)


def _inline(children: list[Token]) -> Token:
    token = Token("inline", "", 0)
    token.children = children
    return token


def _block_kind(tokens: list[Token], index: int) -> str:
    """ "paragraph", "list" (a paragraph in a list item) or "other" (definition term, admonition title...)."""
    if index < 1 or tokens[index - 1].type != "paragraph_open":
        return "other"
    return "list" if tokens[index - 1].level > 0 and in_list_item(tokens, index) else "paragraph"


def in_list_item(tokens: list[Token], index: int) -> bool:
    """Whether the inline token at ``index`` (after its opening token) is inside a list item."""
    level = tokens[index - 1].level
    for token in reversed(tokens[: index - 1]):
        if token.level < level:
            return token.type == "list_item_open"
    return False


def _block_passages(
    segments: list[tuple[str, bool]], heading: str, *, labelled: bool, lang: str = "en", term: str = ""
) -> list[Passage]:
    marked = " ".join("".join(f"`{text}`" if code else text for text, code in segments).split())
    label = term
    found = _LABELLED.match(marked) if labelled and not term else None
    if found and _is_label(found.group("label")):
        label = found.group("label").strip().strip("`*").strip()
        marked = found.group("rest")
    sentences = split_sentences(marked, lang)
    plain = [s.replace("`", "") for s in sentences]
    out = []
    for i, (raw, sentence) in enumerate(zip(sentences, plain, strict=True)):
        codes = frozenset(re.findall(r"`([^`]+)`", raw))
        repeats_heading = sentence.rstrip(".!").casefold() == heading.casefold()
        if not repeats_heading and is_prose(after_label(label if i == 0 else "", sentence), codes):
            out.append(
                Passage(
                    sentence=sentence,
                    previous=plain[i - 1] if i else "",
                    following=plain[i + 1] if i + 1 < len(plain) else "",
                    heading=heading,
                    label=label if i == 0 else "",
                    codes=codes,
                    term=term,
                )
            )
    return out


def after_label(label: str, sentence: str) -> str:
    """The sentence as a prose check reads it after its list label: a code label's placeholders
    ("``OPTIONS <options>``") are no HTML."""
    return f"{re.sub(r'[<>]', ' ', label)} {sentence}".strip() if label else sentence


def _is_label(text: str) -> bool:
    """A list item's term: one code span, or a few words without a verb ("Retention time")."""
    text = text.strip()
    if re.fullmatch(r"`[^`]+`", text):
        return True
    words = text.split()
    return 0 < len(words) <= _MAX_LABEL_WORDS and not any(w.lower() in _LABEL_VERBS for w in words)


def is_prose(sentence: str, codes: frozenset[str] = frozenset()) -> bool:
    """A whole sentence a reference may hold: no fragment, stub, question, markup or pointer."""
    words = sentence.split()
    if words and words[0][:1].islower() and re.fullmatch(r"[a-z]+", words[0]):
        return False  # starts mid-sentence (after a colon or a cut list), unless it is a code name
    if not _MIN_WORDS <= len(words) <= _MAX_WORDS or not _TERMINAL.search(sentence):
        return False  # fragments, stubs ending in ":" and questions
    if _POINTING.search(sentence) or _MARKUP.search(sentence):
        return False
    code_chars = sum(len(code) for code in codes)
    return code_chars <= _MAX_CODE_SHARE * len(sentence)


def with_continuation(
    sentence: str,
    passage: Passage,
    continues: re.Pattern[str],
    goes_on: Callable[[str], bool] | None = None,
) -> str:
    """``sentence``, and the passage's next sentence when it goes on with the same answer: it opens with
    one of the language's ``continues`` words ("It", "For example"; "Dadurch") or ``goes_on`` says so (an
    instruction after an instruction), is prose, and the two fit in ``MAX_REFERENCE_CHARS``."""
    following = passage.following
    if following and (continues.match(following) or (goes_on and goes_on(following))) and is_prose(following):
        joined = f"{sentence} {following}"
        if len(joined) <= MAX_REFERENCE_CHARS:
            return joined
    return sentence
