"""Are the response's quotations really in the retrieved contexts? A check that needs no model.

A response that puts words in quotation marks claims the source says exactly that; a misquote is a
hallucination an LLM judge easily forgives as "supported in substance". Spans are compared after
normalising what a faithful quotation may change: whitespace and line breaks, case, the quote characters
themselves (and code backticks), Unicode width (NFKC), Markdown emphasis and link syntax in the contexts,
and punctuation at the ends of the quote. An ellipsis ("...", "…", "[...]") inside a quote marks an
omission: each part must then be found, in order, in one context.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ...samples.evaluation import SingleTurnSample
from ...text.lexical import words
from ..metric import Metric, MetricResult, ScoringContext

__all__ = ["QuotedSpansAlignment", "QuotedSpan", "normalise", "quoted_spans"]

# One quote's body: anything but a blank line (a paragraph break ends any quotation left open).
_BODY = r"((?:(?!\n[ \t]*\n).)+?)"
_QUOTE_PATTERNS = [
    re.compile(pattern, re.DOTALL)
    for pattern in (
        rf"(?<![\w\"])\"{_BODY}\"(?![\w\"])",  # straight double
        rf"(?<!\w)'{_BODY}'(?!\w)",  # straight single: "don't" has no opener, "it's" no closer
        rf"“{_BODY}”",
        rf"„{_BODY}[“”]",
        rf"(?<!\w)‘{_BODY}’(?!\w)",
        rf"«{_BODY}»",
        rf"「{_BODY}」",
        rf"『{_BODY}』",
    )
]
_QUOTE_CHARS = str.maketrans("", "", "\"'`“”„‟‘’‚‛«»‹›「」『』")
_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*\)")  # [text](url) -> text
_EMPHASIS = re.compile(r"(?<!\w)[*_]+|[*_]+(?!\w)")  # *a* _a_ **a**, not the _ in http_requests_total
_ELLIPSIS = re.compile(r"\[?\.{3,}\]?")
_END_PUNCTUATION = " .,;:!?。，、；：！？"


@dataclass(frozen=True)
class QuotedSpan:
    text: str  # as quoted, without the quote marks
    start: int  # offset of the opening quote mark in the response


def quoted_spans(response: str, min_words: int) -> list[QuotedSpan]:
    """The outermost quotations of at least ``min_words`` words, in order. A quote inside a quote is
    part of the outer one; of two crossing pairs (apostrophes taken for quotes), the earlier wins."""
    found = sorted(
        ((m.start(), m.end(), m.group(1)) for pattern in _QUOTE_PATTERNS for m in pattern.finditer(response)),
        key=lambda item: (item[0], -item[1]),
    )
    spans: list[QuotedSpan] = []
    reach = -1
    for start, end, body in found:
        if start < reach:
            continue
        reach = end
        if len(words(body)) >= min_words:
            spans.append(QuotedSpan(body, start))
    return spans


def normalise(text: str) -> str:
    """NFKC, Markdown links and emphasis dropped, quote characters removed, casefolded, one space per run."""
    text = unicodedata.normalize("NFKC", text)
    text = _EMPHASIS.sub("", _LINK.sub(r"\1", text))
    return " ".join(text.translate(_QUOTE_CHARS).casefold().split())


def _parts(span: str) -> list[str]:
    """The normalised pieces of a quotation between its ellipses, end punctuation stripped."""
    pieces = (piece.strip(_END_PUNCTUATION) for piece in _ELLIPSIS.split(normalise(span)))
    return [piece for piece in pieces if piece]


def _found_in(parts: list[str], context: str) -> bool:
    position = 0
    for part in parts:
        at = context.find(part, position)
        if at < 0:
            return False
        position = at + len(part)
    return True


class QuotedSpansAlignment(Metric):
    """Share of the response's quotations (of at least ``min_span_words`` words) found verbatim, once
    normalised, in one retrieved context. NaN when the response quotes nothing."""

    name = "quoted_spans_alignment"
    columns = ("response", "retrieved_contexts")

    def __init__(self, *, min_span_words: int = 3, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        if isinstance(min_span_words, bool) or not isinstance(min_span_words, int) or min_span_words < 1:
            raise ValueError(f"{self.name}: min_span_words must be an integer >= 1, got {min_span_words!r}")
        self.min_span_words = min_span_words

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        spans = quoted_spans(sample.response or "", self.min_span_words)
        if not spans:
            return MetricResult.nan(f"nothing quoted (no quotation of {self.min_span_words}+ words)")
        contexts = [normalise(text) for text in sample.retrieved_contexts or []]
        where: list[int | None] = []
        for span in spans:
            parts = _parts(span.text)
            hits = [i for i, context in enumerate(contexts) if parts and _found_in(parts, context)]
            where.append(hits[0] if hits else None)
        found = sum(index is not None for index in where)
        missing = [span.text for span, index in zip(spans, where, strict=True) if index is None]
        reason = f"{found} of {len(spans)} quotations found in the retrieved contexts"
        if missing:
            reason += "; not found: " + "; ".join(f"“{text}”" for text in missing[:3])
        trace = {"spans": [span.text for span in spans], "context_index": where}
        return MetricResult(found / len(spans), reason, trace)

    def __repr__(self) -> str:
        return f"QuotedSpansAlignment(min_span_words={self.min_span_words})"
