"""Facts: answer-bearing sentences of a chunk, each with the question it answers by construction.

A fact is one sentence (made self-contained) that states a definition, purpose, default, value,
rule, procedure, consequence or comparison about a subject worth asking about. Offline questions
are written from facts, so the reference answers the question; multi-hop scenarios join facts.
English and German have pattern rules (German: ``german_patterns``); other languages yield no facts (the
synthesizers then fall back to term-based scenarios). Any of them also states its options' defaults and
purposes on reference pages (``option_facts``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

from ...languages.en import QUERY_STOP_WORDS
from ...languages.words import word_set
from ...text.instructions import opens_with_instruction
from ...text.plaintext import plain_text
from .answer_patterns import Match, match_sentence, split_article
from .fact import Fact, subject_key
from .german_patterns import german_fact
from .option_facts import option_facts
from .passages import Passage, after_label, is_prose, passages, with_continuation
from .topics import worth_asking

__all__ = [
    "FACT_LANGUAGES",
    "Fact",
    "facts_of",
    "names_its_call",
    "prose_vocabulary",
    "subject_key",
    "written_as_code",
]

FACT_LANGUAGES = frozenset({"en", "de"})
_PRONOUN = re.compile(r"^(?P<pronoun>It|They)\s+(?=\w)")
# A sentence that opens by pointing back ("These status labels help ...", "This URL scheme allows ...", "Its
# value ..."): what "this" one is, the page set up before. Read as "The status labels", blind readers kept
# 2 of 95 readings of such questions over every rated round (handbook, Node.js).
_POINTS_BACK = re.compile(r"^(?:This|These|Its|Their|Such|Both|Either)\b")
# A following sentence that goes on about the same answer.
_CONTINUES = re.compile(
    r"^(?:It|They|Its|Their|For example|For instance|In addition|Additionally|Also|Otherwise|Therefore|"
    r"Thus|Hence|As a result|This means|This is|This value|In that case|Then|And|But|Or|Plus|As well as|"
    r"This applies|That applies|Only)\b"  # "And also with every response ...": the other half of the answer
    # the other branch of a condition: "If no group explicitly lists the file, the last group whose regular
    # expression matches it is favored" after "If a source file matches multiple groups, ..."
    r"|^(?:If|When) (?:no|not|none|neither|nothing|there (?:is|are) no)\b|^Unless\b|^Else\b"
)
_SIMPLE_SUBJECT = re.compile(
    r"^(?P<subj>(?:(?:A|An|The)\s+)?[^,;:()]{2,60}?)\s+(?:is|are|can|must|should|will|has|have|provides|"
    r"allows|lets|stores|uses|contains|supports|exposes|defines|takes|returns|sends|keeps|runs)\b"
)


def facts_of(
    markdown: str,
    section: str = "",
    lang: str | None = "en",
    vocabulary: frozenset[str] = frozenset(),
    topics: frozenset[str] = frozenset(),
) -> list[Fact]:
    """Facts of a chunk, in document order (one per sentence at most). Empty for languages without rules.

    ``vocabulary``: words the corpus writes in lower case in prose (see ``prose_vocabulary``), so a
    sentence-initial "Counters" reads "counters" mid-question while "Grafana" keeps its capital.
    ``topics``: the chunk's entities and multi-word key phrases (case-folded); a condition must name one
    of them, a name or inline code ("if the meeting is over" is about nothing).
    """
    if (lang or "en") not in FACT_LANGUAGES:
        return []
    found = option_facts(markdown, section, lang or "en")
    options = {f.reference.split(": ", 1)[-1] for f in found}
    lowercase = vocabulary or prose_vocabulary([markdown])
    german = lang == "de"
    for passage in passages(markdown, section, lang or "en"):
        fact = german_fact(passage, topics) if german else _fact(passage, lowercase, topics)
        if fact is not None and fact.reference not in options:
            found.append(fact)
    if german or not found:
        return found
    plain = plain_text(markdown)
    return [fact for fact in found if not _ruled_twice(fact, plain)]


def _advises(match: Match) -> bool:
    """Whether the sentence tells the reader what to do: a condition's advice or a how-to's steps."""
    return match.slots.get("form") == "advice" or (
        match.pattern == "procedure" and match.slots.get("form") == "to"
    )


def _ruled_twice(fact: Fact, plain: str) -> bool:
    """Whether the passage rules on its subject twice with one verb: "All invoices should be sent via email to
    ... " and "Invoices should be sent as a PDF or Excel spreadsheet" on the handbook's invoice page both
    answer "How should invoices be sent?", and a reference of one of them misses the other (blind readers
    failed it for the e-mail address)."""
    slots = fact.slots
    if fact.pattern != "constraint" or not slots.get("modal") or not slots.get("verb"):
        return False
    words = fact.key().split()
    if not words:
        return False
    # the whole subject, singular or plural ("the first character" and "subsequent characters" are two)
    last = (
        rf"{re.escape(words[-1][:-1])}(?:y|ies)"
        if words[-1].endswith("y")
        else rf"{re.escape(words[-1])}(?:e?s)?"
    )
    head = r"[\s-]+".join([*(re.escape(word) for word in words[:-1]), last])
    part = rf"\s+{re.escape(slots['part'])}" if slots.get("part") else ""
    negative = r"\s+not" if slots.get("negative") else ""  # "must not allow" answers another question
    rule = rf"\b{head}\s+{re.escape(slots['modal'])}{negative}\s+{re.escape(slots['verb'])}{part}\b"
    return len(re.findall(rule, plain, re.IGNORECASE)) > 1


def _fact(passage: Passage, lowercase: frozenset[str], topics: frozenset[str]) -> Fact | None:
    sentence = _resolve(passage)
    if not sentence or not is_prose(after_label(passage.label, sentence), passage.codes):
        return None
    match = match_sentence(sentence)
    labelled = match is None and bool(passage.label)
    if labelled:
        joined = _with_label(passage.label, sentence)
        match = match_sentence(joined) if joined else None
        sentence = f"{passage.label}: {sentence}"  # as the list item reads
    if match is None:
        match = _code_summary(passage, sentence)
    if match is None:
        return None
    if passage.term and passage.label and not labelled and _instructs_without(passage.label, sentence, match):
        if by_term := _by_the_term(passage.label, sentence):
            match = match_sentence(by_term) or match  # "Use OPTIONS <options> to specify command-line ..."
        sentence = f"{passage.label}: {sentence}"  # "Specify command-line arguments ..." under its option
    elif passage.term and passage.term.split()[0] not in sentence:
        return None  # "The copied file permissions default to 644." holds under NO_SOURCE_PERMISSIONS only
    article, bare = split_article(match.subject.strip())
    focus = bare if match.pattern not in ("procedure", "cause") else match.subject
    if match.pattern == "procedure" and match.slots.get("form") == "passive":
        focus = bare
    kind = _topic_kind(match)
    if not worth_asking(focus, kind, passage.codes):
        return None
    if _EXAMPLE_NAME.search(match.subject) or (kind == "subject" and _TRAILING_ADVERB.search(focus)):
        return None  # "if SomeDependency is a sub-dependency", "The archive then allows ..." (pip's docs)
    if kind == "subject" and _of_the_example(focus, passage.codes):
        return None  # "The variable s refers to a string literal" (the Rust book): the asker has no `s`
    if match.pattern == "definition" and passage.label and _variant_of(passage.label, focus):
        return None  # "Invalid Module Specifier: Module specifier is an invalid URL, ..." (Node.js's errors)
    if kind == "subject" and not article and _is_title_word(focus, lowercase):
        return None  # "Future is the inaugural talk", "Written refers to": a heading word, not a subject
    if kind == "cause" and not (
        _names_a_topic(focus, topics, passage.codes) and _names_its_subject(focus, topics)
    ):
        return None
    if kind == "subject" and not _names_its_subject(match.subject, topics, phrase=True):
        return None  # "The frontend needs to ...", "the teammate must ...": which one, the asker cannot tell
    # after an instruction the next instruction goes on with it: "If you decide to go forward with the working
    # group, announce it widely. Set up a dedicated communication channel ..." (readers failed the reference
    # that stopped at "announce it widely")
    reference = with_continuation(
        sentence, passage, _CONTINUES, opens_with_instruction if _advises(match) else None
    )
    if match.answer.strip(" .") not in reference or _POINTS_AROUND.search(reference):
        return None
    # "used for exactly the same reason as requirements files", "a labour-saving alternative to ..."
    if match.pattern in ("definition", "purpose") and (
        _SAME_AS_ANOTHER.search(match.answer)
        or _ALTERNATIVE.match(match.answer)
        or _GAIN_OF.match(match.answer)
    ):
        return None
    if reference == sentence and (
        _too_thin(match)
        or _spells_out(focus, match)
        or _UNFINISHED.search(match.answer)
        or _DEPENDS.search(match.answer)
        or _STOCK_STEPS.match(match.answer)
        or _EVALUATES.match(match.answer)
    ):
        return None  # "What is the Gsum?" answered "The Gsum is a gauge semantically.": no definition
    if reference == sentence and match.pattern == "procedure" and _FIRST_STEP.match(match.answer):
        return None  # "How do I receive uploaded files?" answered "first install python-multipart": one step
    if match.slots.get("form") == "object" and _JOINED.match(match.answer):
        return (
            None  # "Meetings must start and end on time": no object, two verbs ("What must meetings start?")
        )
    if match.pattern == "procedure" and match.slots.get("form") == "can" and _ALSO.search(sentence):
        return None  # "You can also declare a response using a dict": one more way, not how it is done
    lowercase_words = sorted(w for w in _capitalised(reference) if _written_lower(w, lowercase))
    fact = Fact.stated(match, focus, reference, lowercase_words=lowercase_words)
    if match.pattern == "cause" and (
        (_ABOUT_A_VARIABLE.match(focus) and focus.split()[0] in passage.codes)
        or _whose_code(focus, match.answer, passage.codes)
    ):
        fact.slots["argument"] = "yes"  # "If `value` does pass the test", "If `wait` is `true`": see below
    return fact


_MIN_DEFINING_WORDS = 3
# A how-to that gives only its first step ("To receive uploaded files, first install python-multipart"):
# readers found the answer missing (using File and UploadFile comes after).
# A comparison with one side ("all forms of HTTP request are as obvious"): the other side was in a sentence
# before, and the answer says nothing without it.
_UNFINISHED = re.compile(r"\b(?:is|are|be|was|were)\s+(?:as|more|less)\s+[a-z]+[.!]?$", re.IGNORECASE)
_JOINED = re.compile(r"(?:and|or|but|nor)\b", re.IGNORECASE)
# "You can just build using the normal instructions": steps given elsewhere are no answer.
_STOCK_STEPS = re.compile(
    r"^(?:the )?(?:normal|usual|regular|standard|same|above|following|previous|other) "
    r"(?:instructions|steps|procedure|process)\b",
    re.IGNORECASE,
)
# "A draft model is the most used approach in speculative decoding", "The device memory is a limitation when
# running a large model": a judgement or a drawback of a thing says nothing of what it is (blind readers).
_EVALUATES = re.compile(
    r"^(?:the (?:most|least|best|worst|easiest|simplest|fastest|preferred|recommended)\b|"
    r"(?:a|an|the) (?:\w+ )?(?:limitation|problem|issue|concern|drawback|bottleneck)\b)",
    re.IGNORECASE,
)
# A reference that points at the page around it: "responsible for both the previous step and fetching the
# HTML", "replace that line with the new line" (pip's docs; blind readers failed both): the reader of a test
# set does not see what it points at. Not "the previous float value", "the previous call": things, not text.
_POINTS_AROUND = re.compile(
    r"\b(?:the|this|that|these|those)\s+(?:previous|preceding|above|aforementioned|earlier|following|next|new)\s+"
    r"(?:steps?|sections?|paragraphs?|examples?|pages?|chapters?|lines?|listings?|snippets?)\b"
    r"|\b(?:this|that)\s+line\b"
    # a demonstrative for what came before: "Pin builds on that to give us the exact guarantee we need"
    r"|\b(?:on|of|from|with|by|like|than|about|beyond)\s+(?:that|this)(?=\s*[.,;:)]|\s*$|\s+(?:to|and|but|so)\b)",
    re.IGNORECASE,
)
# A definition or purpose by another thing's: "Constraints files are used for exactly the same reason as
# requirements files"; "Hash-checking mode is a labour-saving alternative to running a private index server",
# "asynchronous-thread-safe-function-calls are an alternative for many use cases": neither says what it is
# or does (blind readers failed the first two: what constraints files control, that hashes are checked).
_SAME_AS_ANOTHER = re.compile(
    r"\b(?:the same|similar)\s+(?:reasons?|purposes?|ways?|roles?|jobs?)\s+(?:as|to)\b", re.IGNORECASE
)
_ALTERNATIVE = re.compile(
    r"^(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:alternative|replacement|substitute)\s+(?:to|for)\b", re.IGNORECASE
)
# A definition turned round: "Preventing errors in concurrent programming is the advantage of thinking about
# ownership" (the Rust book, 0 of 10 readings kept) says what ownership gives, not what the subject is.
_GAIN_OF = re.compile(
    r"^the\s+(?:main\s+|key\s+|biggest\s+|primary\s+|real\s+)?"
    r"(?:advantage|benefit|upside|downside|drawback|payoff|reward|result|consequence)s?\s+of\b",
    re.IGNORECASE,
)
# A name the page made up for its example ("SomeDependency", "SomePackage"): the question depends on it.
_EXAMPLE_NAME = re.compile(r"\b(?:Some|Foo|Bar)[A-Z][a-z]\w*")
# Something of the page's own example: a variable of one plain word ("the variable s", "the guess variable"),
# a part of its code ("the guess in the expression"), or a value in one of its names ("the 5 in five",
# ``five`` a function of the example). Readers of the Rust book kept 0 of 10 such readings: the asker has
# not seen the listing. A variable with a name of its own is asked (FastAPI's "oauth2_scheme variable": 17
# of 17 readings kept).
_VARIABLE = re.compile(
    r"\bvariables?\s+`?(?P<after>[a-z]+)`?$|^(?:the\s+)?`?(?P<before>[a-z]+)`?\s+variables?$"
)
_IN_THE_EXAMPLE = re.compile(
    r"\bin\s+(?:the|this|that|our|each)\s+(?:expression|listing|example|snippet|statement)\b", re.IGNORECASE
)
_IN_A_NAME = re.compile(r"\bin\s+`?(?P<name>[a-z][a-z0-9]*)`?$")


def _of_the_example(focus: str, codes: frozenset[str]) -> bool:
    """Whether a subject is a part of the page's example code (see ``_VARIABLE``); ``codes``: the inline
    code of its sentence, where the example's names are written."""
    variable = _VARIABLE.search(focus)
    in_name = _IN_A_NAME.search(focus)
    return bool(
        (variable and (variable["after"] or variable["before"]) in codes)
        or _IN_THE_EXAMPLE.search(focus)
        or (in_name and in_name["name"] in codes)
    )


# A subject cut before its verb with the sentence's adverb ("This archive then allows ..." -> "The archive
# then"; "Understand employees only need to ..."): a garbled subject.
_TRAILING_ADVERB = re.compile(
    r"\s(?:then|also|now|thus|still|therefore|first|usually|simply|just|often|only|again)$", re.IGNORECASE
)
# "the behavior depends on whether it has been defined to be an INHERITED property": what it depends on is
# no answer; what happens in each case is (in the sentences after it).
_DEPENDS = re.compile(r"\bdepends? (?:on|upon)\b|\bvar(?:y|ies) (?:with|by|depending)\b", re.IGNORECASE)
_ALSO = re.compile(r"\b(?:can|could|may)\s+also\b", re.IGNORECASE)
_FIRST_STEP = re.compile(r"(?:first(?:ly)?|start by|begin by|before anything else)\b", re.IGNORECASE)


# The sentence that opens an API reference's section on what its subject does: "The `path.join()` method joins
# all given path segments together ..." under "path.join([...paths])" (Node.js), "The `LinkCollector` class
# is ..." (pip). No other pattern reads a verb of its own; asked "What does the path.join() method do?". Not
# a verb of having or taking: "The RequestValidationError contains the body it received" is a side detail
# (FastAPI; readers failed it), what it does is elsewhere.
_CODE_DOES = re.compile(
    r"^(?P<subject>(?:The |An? )?(?P<code>[^\s,;:]+)(?P<kind> (?:method|function|class|module|property|event|"
    r"hook|command|flag|option|setting|attribute|field|parameter|package|decorator|constructor|callback|"
    r"type))?) (?P<answer>(?P<verb>[a-z]{3,}s) .{8,})$"
)
_NOT_DOING = word_set(
    """
    does has was means refers represents describes denotes stands allows lets enables helps defaults
    needs seems appears looks belongs exists happens applies works acts lives comes goes
    contains includes holds uses takes accepts supports requires expects receives keeps stores inherits
    extends
    """
)
_CODE_NAME = re.compile(r"[\w$][\w.$:#-]*")


def _code_summary(passage: Passage, sentence: str) -> Match | None:
    """What a code subject does, from the first sentence of a paragraph under the heading that names it."""
    m = _CODE_DOES.match(sentence.rstrip("."))
    if m is None or passage.previous or m["code"] not in passage.codes:
        return None
    verb = m["verb"]
    if verb in _NOT_DOING or verb.endswith("ss"):
        return None
    name = _CODE_NAME.match(m["code"])
    if name is None or len(name.group(0)) < 3 or name.group(0).lower() not in passage.heading.lower():
        return None
    subject = m["subject"] if m["kind"] else m["code"]  # "the path.join() method", "timeOrigin"
    if verb == "returns":  # "What does the process.pid property return?": a value, no doing
        return Match("purpose", subject, m["answer"][len(verb) + 1 :], False, {"how": "return"})
    return Match("purpose", subject, m["answer"], False, {"how": "does"})


def _variant_of(label: str, focus: str) -> bool:
    """Whether a list item's label names a kind of the sentence's subject ("Invalid Module Specifier" of
    "Module specifier"): the sentence says what that kind is, not the subject (readers failed "What is a
    module specifier?" answered "an invalid URL, package name or package subpath specifier" four times)."""
    whole, part = subject_key(label), subject_key(focus)
    return bool(part) and whole != part and re.search(rf"\b{re.escape(part)}\b", whole) is not None


def _spells_out(focus: str, match: Match) -> bool:
    """A definition of an acronym that only spells it out ("JWT means 'JSON Web Tokens'"): readers found
    what a JWT is missing."""
    if match.pattern != "definition" or not (2 <= len(focus) <= 6 and focus.isupper() and focus.isalpha()):
        return False
    words = re.findall(r"[A-Za-z]+", match.answer)
    return 0 < len(words) <= len(focus) + 1 and "".join(w[0] for w in words).upper().endswith(focus)


def _too_thin(match: Match) -> bool:
    """A definition "X is a Y" whose Y says too little to define X ("a gauge semantically", "any item of
    value", "a definition or description of something"), with no next sentence going on with it."""
    if match.pattern != "definition" or match.slots.get("how") != "is":
        return False
    # a term's own words define nothing: "The state pattern is an object-oriented design pattern" (the Rust
    # book; both readers: "omits what the pattern is"); an API's may ("error.path is the absolute file path")
    own = set() if written_as_code(match.subject) else set(re.findall(r"[\w'-]+", match.subject.lower()))
    words = re.findall(r"[\w'-]+", match.answer.lower())
    defining = [w for w in words if w not in QUERY_STOP_WORDS and w not in _VAGUE_WORDS and w not in own]
    return len(defining) < _MIN_DEFINING_WORDS


_VAGUE_WORDS = word_set("something anything thing things item items kind sort type")
_CODE_CHARS = re.compile(r"[_./:()<>]|[a-z][A-Z]")


def written_as_code(name: str) -> bool:
    """Whether a name reads as code: dotted, called, snake_case or camelCase ("server.port", "fs.read()")."""
    return bool(_CODE_CHARS.search(name))


def _topic_kind(match: Match) -> str:
    if match.pattern == "procedure" and match.slots.get("form") != "passive":
        return "procedure"
    return "cause" if match.pattern == "cause" and match.slots.get("form") != "why" else "subject"


_NAMED = re.compile(r"[A-Z]|[_./:<>()\[\]{}=0-9]|[a-z][A-Z]")
# A condition on something handed to a call ("if address is not provided", "when a commit is given", "if any
# other value is provided") says which call only under the API's name: "What happens if address is not
# provided in socket.send()?", "... if an object is passed as message in new Error()?". Over every rated round
# (Node.js, undici, npm, llama.cpp) readers kept 4 of 34 readings of such questions without an API's name (the
# product's does not count: "What happens if code is omitted in Node.js?"), and 65 of 77 with it.
_HANDED = r"(?:provided|given|passed|supplied|omitted|invoked|called|returned|detected|encountered|specified)"
_ARGUMENT = re.compile(
    rf"^(?P<subj>.+?)\s+(?:is|are|was|were)\s+(?:not\s+|only\s+|also\s+)?{_HANDED}\b", re.I
)


# A condition on a bare variable the text writes as code ("If `value` does pass the test", the Rust book's
# running example; "If `wait` is `true`", a parameter of Node.js's inspector.open()): only the API's name
# says whose, and the book's examples have none. The issue's own first example of a question nobody asks.
# Not a name ("metric_name", "no_proxy"), nor a tool's presence ("If `chardet` is installed", "If `nvcc` is
# not found": readers kept 21 of 22 readings).
_ABOUT_A_VARIABLE = re.compile(
    r"^[a-z][a-z0-9]*\s+(?!(?:is|are)\s+(?:not\s+)?(?:installed|found|available|present|missing|running)\b)"
)


# A condition on "the X" whose effect is a named API's ("Once the future completes, `block_on` returns ...",
# "If the closure returns `true`, the value will be included in the iteration produced by `filter`"): the
# X is that API's (the Rust book; readers failed both without the API's name).
_THE_ONE_WORD = re.compile(r"^the\s+[a-z]+\s+(?!of\b)[a-z]")


def _whose_code(condition: str, effect: str, codes: frozenset[str]) -> bool:
    """Whether a condition on "the X" has an effect that names inline code the condition does not."""
    if not _THE_ONE_WORD.match(condition):
        return False
    for code in codes:
        if _CODE_NAME_LIKE.fullmatch(code):
            named = re.compile(rf"(?<![\w.]){re.escape(code)}(?!\w)")
            if named.search(effect) and not named.search(condition):
                return True
    return False


_CODE_NAME_LIKE = re.compile(r"[A-Za-z_][\w.:]*(?:\(\))?")


def names_its_call(fact: Fact) -> bool:
    """Whether a fact's question says on its own which call it is about: not a condition on an argument
    that is no code name ("if address is not provided"), nor on a bare variable written as code ("if
    `value` does pass the test"), which need the API's name beside them."""
    if fact.slots.get("argument") == "yes":
        return False
    if fact.pattern != "cause" or not (m := _ARGUMENT.match(fact.focus)):
        return True
    return bool(re.search(r"[_./:()\[\]`'\"]|[a-z][A-Z]|\b[A-Z][A-Z0-9]{2,}\b", m["subj"]))  # not "a call ID"


def _names_its_subject(clause: str, topics: frozenset[str], *, phrase: bool = False) -> bool:
    """Whether a condition (or, ``phrase``, a subject noun phrase) says what it is about on its own: "you
    ...", any one of a kind ("a target is down"), a name ("the Alertmanager is down") or a term of several
    words ("the scrape interval"). "The X" of a single common noun points back to something the page set
    up ("the event", "the token", "the frontend"): the asker cannot see which one."""
    words = clause.split()
    if not words or words[0].lower() != "the":
        return True
    subject = words[1:4]
    if any(_NAMED.search(word) for word in subject) or (phrase and len(words) >= 3):
        return True
    folded = f" {' '.join(subject).casefold()} "
    # a term, not a key phrase that runs to the clause's end ("the pattern matches": "pattern matches")
    rest = f" {' '.join(words[1:]).casefold()} "
    return any(
        " " in topic and f" {topic} " in folded and not rest.endswith(f" {topic} ") for topic in topics
    )


def _names_a_topic(text: str, topics: frozenset[str], codes: frozenset[str]) -> bool:
    folded = f" {text.casefold()} "
    if any(code in text for code in codes) or re.search(r"\b[A-Z][A-Za-z0-9]", text):
        return True
    return any(f" {topic} " in folded or (len(topic) > 4 and topic in folded) for topic in topics)


def _resolve(passage: Passage) -> str:
    """The sentence with a leading "It"/"They" replaced by what it stands for ("" when that cannot be
    told, and when the sentence opens by pointing back otherwise: "This", "These", "Its")."""
    sentence = passage.sentence
    if m := _PRONOUN.match(sentence):
        referent = _referent(passage)
        if not referent:
            return ""
        return referent[:1].upper() + referent[1:] + " " + sentence[m.end() :]
    if _POINTS_BACK.match(sentence):
        return ""
    return sentence


def _referent(passage: Passage) -> str:
    """What "It" stands for: the previous sentence's subject, else the list label, else the heading."""
    if passage.previous:
        found = match_sentence(passage.previous)
        subject = found.subject if found and found.pattern not in ("procedure", "cause") else ""
        if not subject and (m := _SIMPLE_SUBJECT.match(passage.previous)):
            subject = m["subj"]
        if subject and worth_asking(split_article(subject)[1], "subject", passage.codes):
            return subject
        return ""
    for candidate in (passage.label, passage.heading):
        if candidate and len(candidate.split()) <= 4 and not candidate.endswith("?"):
            first = candidate.split()[0].lower()
            if not first.endswith("ing") and worth_asking(candidate, "subject", passage.codes):
                return candidate
    return ""


def _instructs_without(label: str, sentence: str, match: Match) -> bool:
    """Whether an instruction under a definition-list term leaves the term out: "``OPTIONS <options>``:
    Specify command-line arguments to pass to the configuration tool." answers "How do I pass arguments to
    the configuration tool?" only with the option's name (blind readers failed the sentence alone)."""
    return match.pattern == "procedure" and match.slots.get("form") == "use" and label not in sentence


_TERM_INSTRUCTION = re.compile(r"^(?:Specify|Set|Add|Pass|Enable|Configure|Run|Call|Name|Select|Provide)\s")


def _by_the_term(label: str, sentence: str) -> str:
    """An instruction under a term said as what the term is for: "Specify command-line arguments to pass to
    the configuration tool." under ``OPTIONS <options>`` -> "Use OPTIONS <options> to specify command-line
    arguments ...", so the question asks what to use ("How do I pass to the configuration tool?" lost its
    object), and the term answers it; "" for a sentence that is no such instruction."""
    if not _TERM_INSTRUCTION.match(sentence):
        return ""
    return f"Use {label} to {sentence[:1].lower()}{sentence[1:]}"


def _with_label(label: str, sentence: str) -> str:
    """ "Defaults to 15d." under the list label ``retention`` -> "retention defaults to 15d"."""
    first = sentence.split(" ", 1)[0]
    if re.fullmatch(r"[A-Z][a-z]+s", first) and not first.endswith("ss"):  # "Defaults to", "Enables"
        return f"{label} {sentence[:1].lower()}{sentence[1:]}"
    if re.match(r"^(?:A|An|The)\s", sentence):
        return f"{label} is {sentence[:1].lower()}{sentence[1:]}"
    return ""


def prose_vocabulary(
    texts: list[str], sections: list[str] | None = None, *, each: Callable[[], Any] = nullcontext
) -> frozenset[str]:
    """Words the prose of ``texts`` writes in lower case more often than capitalised mid-sentence (not
    code, URLs or paths): "counter" is a word, "Prometheus" a name even if a path says "prometheus".
    ``sections``: the texts' section paths, given so that ``facts_of`` later reuses the same parse.
    ``each``: the context each text is read in (``read_once``: what its reading memoised is forgotten)."""
    lower: Counter[str] = Counter()
    capital: Counter[str] = Counter()
    for text, section in zip(texts, sections or [""] * len(texts), strict=True):
        with each():
            for passage in passages(text, section):
                lower.update(_LOWER_WORD.findall(passage.sentence))
                capital.update(w.lower() for w in _MID_CAPITAL.findall(passage.sentence))
    return frozenset(word for word, count in lower.items() if count > capital[word])


_LOWER_WORD = re.compile(r"(?<![\w./:-])([a-z]{3,})(?![\w/:])")
_MID_CAPITAL = re.compile(r"(?<=[a-z,;] )([A-Z][a-z]{2,})\b")


def _is_title_word(focus: str, lowercase: frozenset[str]) -> bool:
    """One capitalised singular word the corpus also writes in lower case, used without an article."""
    word = focus.strip()
    if " " in word or not word.isalpha() or not word[:1].isupper() or word[1:] != word[1:].lower():
        return False
    return not word.endswith("s") and word.lower() in lowercase


def _written_lower(word: str, lowercase: frozenset[str]) -> bool:
    """ "counters" counts as written in lower case when "counter" is (and the other way round)."""
    forms = (word, word[:-1] if word.endswith("s") else word + "s", word.split("-")[0])
    return any(form in lowercase for form in forms)


def _capitalised(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in re.findall(r"\b[A-Z][a-z]{2,}(?:-[a-z]+)?\b", text))
