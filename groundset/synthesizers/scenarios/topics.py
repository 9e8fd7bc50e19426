"""Is this worth a question? Subjects a user would ask about, not markup, file names or filler.

A question about "the following", "this value", "`x`" or "deal" is one nobody types. Worth asking
about are names (Prometheus, ``scrape_interval``, ``Vec::new``), settings, commands and domain noun
phrases ("retention period", "label names"), stated by the sentence the answer comes from.
"""

from __future__ import annotations

import re

from ...languages.en import IMPERATIVES
from ...languages.words import word_set
from ...text.entities import is_file_name

__all__ = ["GENERIC_WORDS", "worth_asking"]

MAX_SUBJECT_WORDS = 7
GENERIC_WORDS = word_set(
    """
    thing things way ways part parts case cases example examples result results value values option
    options one ones data information number numbers type types name names file files step steps
    section sections page pages document documents following above below rest list lists set sets
    default defaults feature features system systems process time times use uses user users issue
    issues problem problems idea ideas approach method methods purpose reason question answer note
    notes solution change changes output input text line lines field fields item items key keys kind
    kinds form level point side end start other others same new first last code program function
    functions version versions support term terms word words detail details thing stuff lot bit area
    place amount order behaviour behavior situation context reference references guide documentation
    docs chapter tutorial object objects source sources intention goal aim plan hope recommendation
    consequence common several various different certain specific general typical main usual additional
    further particular possible actual current given whole entire simple basic good best worst notable
    higher lower larger smaller bigger more less fewer greater exception exceptions caution care attention
    special proper extra doc design subsequent previous preceding remaining next last latter former
    """
)
_NOT_SUBJECT_START = word_set(
    """
    it its this these those that they them there here we you i he she one each some many most all
    such which what when where why how if while although though because since so but and or also
    then however otherwise instead finally first second third next now only just note see both
    either neither another other any no not only our your their my his her former latter in on at for
    with by from as under over after before during since until within without per via into through same
    every even more less most least very quite rather exactly wherever whenever whatever whichever
    usually often always never sometimes simply possibly generally
    accordingly consequently therefore thus hence additionally similarly likewise furthermore moreover
    nevertheless nonetheless meanwhile subsequently alternatively ultimately typically currently previously
    optionally ideally basically essentially importantly specifically unfortunately fortunately obviously
    clearly naturally practically effectively hopefully
    """
)
_INSIDE_FORBIDDEN = word_set(
    "you we i it they that which who whom whose where when if because although whether is are was were be "
    "been can could will would should must may might has have do does did not must this these those above "
    "there "
    "below usually often always generally also typically normally commonly mostly simply actually really "
    "currently still just never sometimes rarely"
)
_MARKUP = re.compile(r"[<>{}\[\]#|=]|^\W|https?:|^\d+$")
_FLAG = re.compile(r"--?[a-z][\w.-]*")
_GENERIC_TYPE = re.compile(r"[A-Za-z_][\w:]*<[\w:, &'<>]+>")
_LOCAL_NAME = re.compile(r"^[a-z][a-z0-9]{0,11}$")  # `guess`, `x`, `s1`: a variable in a listing
_GOAL_VERB = re.compile(r"^[a-z][a-z-]+$")


def worth_asking(subject: str, pattern: str, codes: frozenset[str] = frozenset()) -> bool:
    """Whether a question about ``subject`` (the bare noun phrase, or a procedure's goal) is one a user
    would type; ``codes`` are the inline code spans of the sentence it came from."""
    text = " ".join(subject.split()).strip(" .,;:!?\"'`*")
    named = (text in codes and _GENERIC_TYPE.fullmatch(text)) or _FLAG.fullmatch(text)  # `Box<T>`, --web.port
    if not text or (_MARKUP.search(text) and not named) or is_file_name(text.rsplit("/", 1)[-1]):
        return False
    words = text.split()
    lower = [w.lower().strip("\"'()") for w in words]
    if pattern == "procedure":
        return _good_goal(words, lower)
    if pattern == "cause":
        return 3 <= len(words) <= 20 and not any(w in ("this", "these", "it") for w in lower[:2])
    if len(words) > MAX_SUBJECT_WORDS or lower[0] in _NOT_SUBJECT_START:
        return False
    if lower[-1] in ("and", "or", "but", "as", "with", "of", "to") or lower[0] in IMPERATIVES:
        return False  # "Expose raw counters and": an instruction, not a subject
    if any("/" in w or "n't" in w or "\u2014" in w or "\u2013" in w for w in lower):
        return False  # a path, or a clause run in ("alerts shouldn't wake anyone up—they")
    if any(w in ("A", "An", "The", "There", "This") for w in words[1:]) or (
        len(lower) > 1 and lower[0] == lower[1]
    ):
        return False  # "Counter A counter", "Libraries Libraries": a heading run into its text
    if any(w in _INSIDE_FORBIDDEN for w in lower):
        return False
    if text in codes and _LOCAL_NAME.match(text):
        return False
    content = [w for w in lower if w not in _NOT_SUBJECT_START and w not in ("a", "an", "the", "of", "for")]
    if not content or all(w in GENERIC_WORDS for w in content):
        return False
    return any(len(w) >= 3 or not w.isalpha() for w in content)


def _good_goal(words: list[str], lower: list[str]) -> bool:
    """ "reload the configuration": a verb and an object, no pronoun standing for something unseen."""
    if not 2 <= len(words) <= 14 or not _GOAL_VERB.match(lower[0]):
        return False
    if lower[0] in (
        "be",
        "do",
        "make",
        "have",
        "get",
        "see",
        "use",
        "keep",
        "note",
        "learn",
        "know",
        "continue",
        "read",
        "explore",
        "find",
        "check",
        "try",
        "start",
        "contribute",
    ):
        return False
    if any(w in ("this", "these", "that", "it", "them", "those", "following") for w in lower[1:]):
        return False
    objects = [w for w in lower[1:] if w not in ("a", "an", "the", "your", "our", "of", "to", "for")]
    return any(w not in GENERIC_WORDS and len(w) >= 3 for w in objects)
