"""One verdict prompt for the test-set quality gate: is the reference supported by its contexts, and
does it answer its question?

The items are keyed as in every list judge (see ``aligned``): the reference's statements "1", "2",
... (each supported by the context?) and one more item, ``"answers"``, holding the whole reference
(does it, taken as a whole, answer the question that was asked?). One call judges both. ``"answers"``
always comes first among the keys, so when a long list goes out in batches it is in the first batch
only, and judged exactly once. A gate that already knows every statement is supported (copied word for
word) asks only ``"answers"``, with an empty context.

Offline, statements get the lexical judge of ``text.lexical``; ``"answers"`` gets a heuristic: the
reference must look like an answer (``answer_shape_problem``: not a heading, a list stub or markup) and
share a content word with the question. The quality gate itself replaces that heuristic with structural
checks that know the sample's answer slots and focus term (see ``synthesizers.quality``).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from ..text.lexical import LexicalContext, content_words
from .aligned import AlignedPrompt, KeyedVerdicts, Verdict, keyed, verdicts_of

ANSWERS = "answers"  # the key of the "does the reference answer the question" item

_TERMINAL = re.compile(r"[.!?][\"')\]\u2019\u201d]*$")
_HTML_TAGS = (
    "a|abbr|b|blockquote|br|caption|code|col|dd|details|div|dl|dt|em|figcaption|figure|h[1-6]|hr|i|iframe"
    "|img|kbd|li|ol|p|pre|script|section|small|span|strong|style|sub|summary|sup|svg|table|tbody|td|th"
    "|thead|tr|u|ul|video"
)
_MARKUP = re.compile(
    rf"<!--|\{{\{{|\{{%|</[A-Za-z][\w-]*\s*>|<(?:{_HTML_TAGS})(?=[\s/>])", re.IGNORECASE
)  # comments, template tags, closing tags, and opening tags of HTML elements ("<metric name>" is prose)
_MIN_ANSWER_WORDS = 4


def answer_shape_problem(reference: str) -> str | None:
    """Why ``reference`` cannot be an answer whatever the question: markup, a list introduction without its
    list (ends with ":"), or a bare heading-like line (fewer than 4 words and no final period); else None."""
    text = reference.strip()
    if _MARKUP.search(text):
        return "it contains markup"
    if text.endswith(":"):
        return "it ends with a colon: a list introduction without its list"
    if len(text.split()) < _MIN_ANSWER_WORDS and not _TERMINAL.search(text):
        return "it is a heading-like fragment, not a sentence"
    return None


class SampleToCheck(BaseModel):
    question: str = Field(description="the question the reference should answer")
    statements: dict[str, str] = Field(
        description='the items to judge, by key: "answers" holds the whole reference answer, "1", "2", ... '
        "its statements"
    )
    context: str = Field(default="", description="what the statements must be supported by")


class SampleCheckPrompt(AlignedPrompt[SampleToCheck]):
    name = "verdict.sample"
    version = 1
    instruction = (
        "You review one drafted test question together with its reference answer. The input gives the "
        "question, a context, and items to judge, each under its key.\n"
        '- Item "answers" holds the whole reference answer. Its verdict is true when the reference, read '
        "as a whole, gives what the question asks for (the value, reason, steps, definition or comparison "
        "requested) directly. It is false when the reference only mentions the topic of the question, "
        "answers some other question, or is a heading, the start of a list, or a fragment.\n"
        '- Every other item ("1", "2", ...) is one statement of the reference. Its verdict is true when a '
        "careful reader could confirm the statement from the context alone, without outside knowledge, and "
        "false when it adds details the context does not give or contradicts it.\n"
        'The context may be empty when only the "answers" item is asked. Judge exactly the items given: '
        "answer with one JSON object that has one entry per item key, each holding the verdict and a "
        "short reason."
    )
    examples = [
        (
            SampleToCheck(
                question="Which port does the node exporter listen on by default?",
                statements={
                    ANSWERS: "The node exporter serves its metrics over HTTP. It reads its settings from "
                    "command-line flags.",
                    "1": "The node exporter serves its metrics over HTTP.",
                    "2": "It reads its settings from command-line flags.",
                },
                context="Unless told otherwise, the node exporter serves metrics over HTTP on port 9100. "
                "All of its settings are given as command-line flags.",
            ),
            keyed((ANSWERS, "1", "2")).model_validate(
                {
                    ANSWERS: Verdict(
                        verdict=False, reason="It says how metrics are served but never names the port."
                    ),
                    "1": Verdict(verdict=True, reason="The context says metrics are served over HTTP."),
                    "2": Verdict(verdict=True, reason="Settings are given as command-line flags."),
                }
            ),
        )
    ]

    def keys(self, data: SampleToCheck) -> tuple[str, ...]:
        rest = tuple(key for key in data.statements if key != ANSWERS)
        return ((ANSWERS,) if ANSWERS in data.statements else ()) + rest

    def batch(self, data: SampleToCheck, keys: tuple[str, ...]) -> SampleToCheck:
        """Only ``keys``; ``"answers"`` stays with the batch whose keys hold it (the first one)."""
        return data.model_copy(update={"statements": {k: data.statements[k] for k in keys}})

    def offline(self, data: SampleToCheck) -> KeyedVerdicts:
        verdicts: dict[str, Verdict] = {}
        context: LexicalContext | None = None
        for key in self.keys(data):
            text = data.statements[key]
            if key == ANSWERS:
                verdicts[key] = offline_answers(data.question, text)
                continue
            context = context or LexicalContext(data.context)
            found = context.judge(text)
            verdicts[key] = Verdict(verdict=found.supported, reason=found.reason)
        return verdicts_of(self.keys(data), verdicts)


def offline_answers(question: str, reference: str) -> Verdict:
    """The offline "answers" verdict: an answer-shaped reference that shares a content word with the question
    (a lexical proxy; the quality gate checks answer slots and the focus term instead)."""
    problem = answer_shape_problem(reference)
    if problem:
        return Verdict(verdict=False, reason=problem[0].upper() + problem[1:] + ".")
    shared = set(content_words(question)) & set(content_words(reference))
    if not shared:
        return Verdict(verdict=False, reason="It shares no content word with the question.")
    return Verdict(
        verdict=True, reason=f"It speaks of {', '.join(sorted(shared)[:3])}, as the question asks."
    )
