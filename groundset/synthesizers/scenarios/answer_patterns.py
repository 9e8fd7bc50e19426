"""English answer patterns: which kind of fact a sentence states, about what, and where its answer is.

A sentence that defines something ("A counter is a cumulative metric ..."), says what it is for
("The Pushgateway is used to ..."), gives a default or a limit, a rule ("A label name MUST match
..."), a procedure ("To reload the configuration, send SIGHUP ..."), a consequence ("If a target
is down, ...") or a comparison ("Unlike gauges, counters ...") answers one obvious question. The
rules here find the pattern, the subject the question names and the answer slot the reference must
hold; question templates (``questions.templates``) turn the match into words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...languages.en import (
    ADVERBS,
    AUXILIARIES,
    DETERMINERS,
    FUNCTION_WORDS,
    IRREGULAR_BASE,
    POINTER_WORDS,
    PREPOSITIONS,
    TRANSITIVE,
)
from ...text.instructions import imperative, instructs

__all__ = ["Match", "match_sentence", "split_article"]

_NP = r"(?P<subj>[^,;:()]{2,80}?)"
_MODALS = (
    r"MUST NOT|MUST|SHOULD NOT|SHOULD|must not|must|should not|should|cannot|can only|may only|"
    r"has to|have to|needs to|need to|is required to|are required to"
)
_PARTICIPLE = re.compile(r"^(?:\w+ed|\w+en|built|kept|set|put|sent|run|held|made|read|split|shown|known)$")


@dataclass(frozen=True)
class Match:
    """What a sentence states: ``pattern``, the subject as written, and the template fillers."""

    pattern: str  # definition, purpose, default, value, constraint, procedure, cause, comparison
    subject: str  # the noun phrase the question names, as written ("A counter", "the Pushgateway")
    answer: str  # the part of the sentence that answers (the reference must contain it)
    plural: bool = False
    slots: dict[str, str] = field(default_factory=dict)


def _rule(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# (pattern, regex, slot builder); the first that matches and yields a usable subject wins.
_DEFAULT_OF = _rule(r"^The default(?: value)? (?:for|of) " + _NP + r" (?P<verb>is|are) (?P<answer>.+)$")
_DEFAULT_ADJ = _rule(r"^The default " + _NP + r" (?P<verb>is|are) (?P<answer>.+)$")
_DEFAULTS_TO = _rule(r"^" + _NP + r" (?P<verb>defaults|default) to (?P<answer>.+)$")
_BY_DEFAULT = _rule(r"^(?:By default, )?" + _NP + r" (?P<verb>is|are) (?P<answer>[^,;]+?) by default$")
_LIMITED = _rule(r"^" + _NP + r" (?P<verb>is|are) (?P<how>limited|capped|restricted) to (?P<answer>.+)$")
_EXTREME = _rule(r"^The (?P<how>maximum|minimum) " + _NP + r" (?P<verb>is|are) (?P<answer>.*\d.*)$")
_PURPOSE_USED = _rule(
    r"^" + _NP + r" (?P<verb>is|are) (?P<how>used|designed|meant|intended|responsible) "
    r"(?P<prep>to|for) (?P<answer>.+)$"
)
# "Paid parental leave can be used for the birth ...": what it may be used for ("can also be used": one
# more use, not what it is for).
_CAN_BE_USED = _rule(r"^" + _NP + r" (?P<modal>can|may) be used (?P<prep>to|for) (?P<answer>.+)$")
_PURPOSE_OF = _rule(r"^The (?:purpose|goal|aim|job|role) of " + _NP + r" is (?:to )?(?P<answer>.+)$")
_ENABLES = _rule(
    r"^" + _NP + r" (?P<verb>allows|allow|lets|let|enables|enable|helps|help) "
    r"(?:(?P<who>you|users|operators|developers|clients|administrators) )?(?:to )?(?P<answer>.+)$"
)
_DEFINITION = _rule(r"^" + _NP + r" (?P<verb>is|are) (?P<answer>(?:a|an|one of the|one of|any|each|the) .+)$")
_DEFINED_AS = _rule(
    r"^" + _NP + r" (?P<how>refers to|refer to|means|mean|is defined as|are defined as|stands for|"
    r"denotes|represents|represent|describes|describe) (?P<answer>.+)$"
)
_CONSTRAINT = _rule(r"^" + _NP + r" (?P<modal>" + _MODALS + r") (?P<verb>[a-z]+) (?P<answer>.+)$")
_TO_GOAL = _rule(r"^To (?P<goal>[a-z][a-z-]+ [^,]{3,90}), (?P<answer>.+)$")
_YOU_CAN = _rule(
    # the page's "also" is not the asker's
    r"^You can (?:also |now |then |still |even |easily |simply |just )?"
    r"(?P<goal>[a-z][a-z-]+ [^,]{3,90}?) (?P<how>by|using|via|through) (?P<answer>.+)$"
)
_USE_TO = _rule(
    r"^(?:You (?:can|could) )?(?P<verb>Use|use|Run|Set|Add|Pass|Call|Enable|Configure|Specify) "
    r"(?P<answer>.{2,90}?) to (?P<goal>[a-z][a-z-]+ .+?)\.?$"
)
# "You can tell Requests to stop waiting ... with the timeout parameter": the setting is the how.
_YOU_CAN_WITH = _rule(
    r"^You can (?P<goal>[a-z][a-z-]+ [^,]{3,90}?) with (?P<answer>(?:the|a|an) [^,]{1,60}? "
    r"(?:parameter|argument|option|flag|setting|method|function|keyword|attribute|decorator|header|field)s?)$"
)
# "Use passive voice when you don't want to assign responsibility": the "to" belongs to a clause, and the
# goal read after it ("assign responsibility") would be the opposite of the sentence's.
_CLAUSE_INSIDE = re.compile(r"\b(?:when|whenever|if|unless|not|want|wants|need|needs)\b|n['\u2019]t\b", re.I)
_CAN_BE = _rule(
    r"^" + _NP + r" (?P<verb>can|may) be (?P<part>[a-z]+) (?P<how>by|using|with|via|through|from|in) "
    r"(?P<answer>.+)$"
)
_CONDITION = _rule(r"^(?P<conj>If|When|Whenever|Once) (?P<cond>[^,]{6,100}), (?P<answer>.+)$")
_MAX_CONDITION_WORDS = 14
# One capital letter standing for a thing ("X", "X/package.json"), not the article "A" or "I".
_PLACEHOLDER = re.compile(r"(?<![\w.'\u2019-])[B-HJ-Z](?![\w'\u2019-])")
# A main clause inside what reads as the condition: the comma after the condition is missing.
# "If an error occurs an Error will be thrown, otherwise ...", "If encoding is provided publicKey is expected
# to be a string; ..." (Node.js API docs): a future, or a second passive, is the main clause's; so is what
# follows "then" ("If any of the streams error then all are destroyed, including ...").
_MAIN_CLAUSE_IN = re.compile(
    r"\b(?:MUST|SHOULD|SHALL)\b|\b(?:it|they|you|we)\s+(?:must|should|shall)\b|\bwill\b|\bthen\b"
    r"|\b(?:is|are)\s+\w+ed\s+(?:(?!\b(?:and|or|but)\b).)*\b(?:is|are)\s+(?:\w+ed|expected)\b"
)
_WANT_TO = re.compile(r"^you(?: want| need| wish| would like|['\u2019]d like) to (?P<goal>[a-z].+)$")
# Conditions no reader asks about: a feeling ("if you are curious about ..."), the page's own wording ("if
# we're talking about ..."), a hypothetical ("if GitHub had ...", "... would be"), an example's placeholder.
_NOT_A_SITUATION = re.compile(
    r"^(?:you|we) (?:are|['\u2019]re) (?:interested|curious|concerned|worried|unsure|not sure|wondering)\b"
    r"|\b(?:talking|speaking) about\b|\bhad\b|\bwere to\b|\b(?:foo|bar|baz|foobar|qux)\b|[()]",
    re.IGNORECASE,
)
# Main clauses that point elsewhere or show an example's output instead of saying what happens.
_POINTING_MAIN = re.compile(
    r"^(?:you (?:will|['\u2019]ll|can|could|may) (?:see|find|read|learn|check|look)\b|here (?:is|are)\b|"
    r"there (?:is|are) (?:lots|many|plenty|several|a number|a few|some)\b|see\b|check out\b|refer to\b|"
    r"have a look\b|take a look\b|follow\b)|\bwould\b|:$",
    re.IGNORECASE,
)
# "the read timeout is the number of seconds ...": a definition, asked as such elsewhere, not an effect.
_DEFINING_MAIN = re.compile(r"^(?:the|a|an) [^,]{1,40}? (?:is|are) (?:the|a|an|to)\b", re.IGNORECASE)
_CONJUNCTION_FIRST = re.compile(
    r"^(?:but|and|or|unless|although|though|except|so|while|whereas|meaning|like|such as|i\.e\.|e\.g\.)\b"
    r"|^any\s+\S+\s+(?:or|and)\s",  # "If msg is a Buffer, any TypedArray or a DataView, ...": a list
    re.I,
)
# Who the reader is ("if you are a US teammate", "if you were hired after May 2021", "if you are joining
# Sourcegraph"): what follows depends on the page's topic, which a question from the sentence cannot name.
_READER_STATUS = re.compile(
    r"^you(?:['\u2019]re| are| were| have been| become)\s+(?:a|an|the|not|new|hired|joining|leaving|based|"
    r"located|eligible|part|on|in|out|away|taking|going|planning|moving|stuck|promoted|employed|enrolled)\b",
    re.IGNORECASE,
)
_ADVISING = re.compile(
    r"^(?:you (?:should|must|need to|have to|['\u2019]ll need to)|it is (?:best|better))\b", re.IGNORECASE
)
# A main clause that is a rule about someone or something else: asked "What happens if ..." it has no
# event for an answer ("When you have multiple metrics to sum, they should usually be one metric").
_RULE_MAIN = re.compile(
    r"^(?:(?!you\b)[\w'\u2019./-]+\s+){1,5}?(?:usually\s+|always\s+|also\s+|then\s+)?"
    r"(?P<modal>should|must|shall|ought to)\b",
    re.IGNORECASE,
)
_CAVEAT = re.compile(
    r"^(?:please )?(?:keep in mind|bear in mind|note|remember|be aware|be careful|beware|mind)\b",
    re.IGNORECASE,
)
_YOU_CAN_VERB = re.compile(r"^you can (?:also |still |then |simply |just |easily )?(?P<verb>[a-z]+)\b")
# The thing an effect happens to, when the main clause names it: "benefits will expire ..." asks "What
# happens to benefits if ...", one consequence, where "What happens if ..." has many.
_EFFECT_VERBS = r"(?:will|won|is|are|gets?|becomes?|stays?|remains?|expires?)\b"
_AFFECTED = re.compile(
    r"^(?P<what>(?:(?:the|your|all|any|every) )?[a-z][\w-]*(?: (?!" + _EFFECT_VERBS + r")[a-z][\w-]*){0,2}) "
    r"(?:will (?:be|get|become|stay|remain|expire|stop|fail|end|change|lose)|won['\u2019]t be|is|are|"
    r"gets|get|becomes|become|stays|stay|remains|remain|expires|expire)\b"
)
_STATE = re.compile(r"^ (?P<be>is|are) (?:the|a|an|to|for|that|\d)\b")
_NOT_AFFECTED = frozenset(
    {"a", "an", "you", "it", "this", "that", "they", "there", "we", "these", "those", "he", "she", "nothing",
     "everything", "something", "anything", "one", "each", "which", "what"}
)  # fmt: skip
# "chances are you should use a vector" (the Rust book) is advice, not what happens "to chances"
_HEDGE = re.compile(r"^(?:chances|odds) are (?:that )?", re.IGNORECASE)
# "When you have a reason to use unsafe code, you can do so, and ...": the condition again, no answer
_DO_SO = re.compile(
    r"^(?:you |we )?(?:can|could|may|might|should|must|will|need to) (?:do|use) (?:so|that|this|it)\b"
    r"(?!\s+(?:by|with|using|via|through|from|in|on)\b)",
    re.IGNORECASE,
)
_BECAUSE = _rule(r"^(?P<effect>[^,;]{8,120}?),? because (?P<answer>.+)$")
_UNLIKE = _rule(
    r"^(?:Unlike|In contrast to|Compared to|Compared with|As opposed to) (?P<other>[^,]{2,60}), "
    + _NP
    + r" (?P<verb>is|are|can|cannot|do|does|don't|doesn't|have|has|must|should|will|may) (?P<answer>.+)$"
)
_THAN = _rule(
    r"^" + _NP + r" (?P<verb>is|are) (?P<answer>(?:much |far )?(?:more \w+|less \w+|\w+er)) than "
    r"(?P<other>[^,;]{2,60}?)[.,;]"
)


def match_sentence(sentence: str) -> Match | None:
    """The fact ``sentence`` states, or None when it fits no pattern with a usable subject and answer."""
    text = sentence.strip().rstrip(".!").strip()
    if _STOPS_SHORT.search(text):
        return None  # the sentence announces what follows it ("..., e.g.", "... as follows:")
    for finder in _FINDERS:
        found = finder(text)
        if found is None or _POINTS_HERE.search(found.subject) or _NO_SUBJECT.match(found.subject):
            continue  # '"Operation" here refers to ...': about the page's own example
        if found.subject.strip() and _says_something(found.answer):
            return found
    return None


_PARTICIPLE_FIRST = re.compile(
    r"(?:[a-z]+ed|set|put|left|run|built|kept|sent|read|given|done|made|found|shown|taken|written|chosen"
    r"|held|hit|cut|spent|thrown|known)\b"
)
# A condition that is an activity, not a state ("when using the OpenVINO backend", "when building using
# CMake"): one caveat of a whole activity, asked "What happens when using X?", reads as a vague question
# (blind readers kept 22 of 57 such questions, against about 60% of the others of their sets). A gerund
# that is the subject of a verb ("if logging is enabled") is a state; "What happens to the linked packages
# when creating tarballs?" names what it asks about.
_ACTIVITY = re.compile(
    r"(?!(?:nothing|something|anything|everything|string|thing|ring|spring|setting|king)\b)[a-z]{2,}ing\b"
    r"(?!.*\b(?:is|are|was|were|has|have|had|does|do|did|fails?|succeeds?|returns?|exceeds?|takes?)\b)",
)
# A condition that opens with these has no subject of its own ("if not on PEO", "when it fails").
_NO_SITUATION_START = re.compile(
    r"(?:it|this|that|they|these|those|however|instead|otherwise|therefore|also|so|then|not"
    r"|over|under|during|within|after|before|for|at|in|on|by)\b",  # "if over the 6-month review period"
    re.IGNORECASE,
)
_POINTS_HERE = re.compile(r"\b(?:here|above|below|in this example)\b", re.IGNORECASE)
# "There's no need to ..."; and a clause before the subject, with no comma to end it: "If the exemplar
# references a trace it SHOULD use the trace_id label name" was asked "What should if the exemplar
# references a trace it use?" (Prometheus; blind readers failed it as garbled).
_NO_SUBJECT = re.compile(
    r"(?:there|here|it)(?:['\u2019]s)?\b|(?:if|when|whenever|once|unless|while|although|because|since)\s",
    re.IGNORECASE,
)


_POINTING_PHRASE = re.compile(
    r"\b(?:this|such)\s+[a-z]+|\b(?:these|those)\b|"
    r"\b(?:several|various|many|different|a (?:variety|number|range) of|a few) (?:different )?ways\b|"
    r"\bit depends\b",
    re.IGNORECASE,
)


# An answer that stops before its content: "you are doing two major things" (listed after it), "... the
# steps outlined here", "read more in a blog post", "... headers, e.g." (the example was cut off).
_STOPS_SHORT = re.compile(
    r"(?:^|\s)(?:two|three|four|five|several|a few|some|a couple of) (?:\w+ )?(?:things|steps|ways|parts|"
    r"options|reasons|kinds|types|points|areas|stages|rules|cases)$"
    r"|\b(?:outlined|described|listed|explained|shown|found) (?:here|below|above)\b"
    r"|\bread more\b|\bblog post\b|\b(?:e\.g|i\.e|etc)\.?$|[:(]$|\b(?:here|below|above|following)$",
    re.IGNORECASE,
)


def _says_something(answer: str) -> bool:
    """ "designed for this", "use this message": an answer that points elsewhere says nothing by itself."""
    words = re.findall(r"[\w'-]+", answer.lower())
    if not words or (words[-1] in POINTER_WORDS and len(words) <= 4) or _POINTING_PHRASE.search(answer):
        return False
    return (
        len([w for w in words if (len(w) > 2 or any(c.isdigit() for c in w)) and w not in POINTER_WORDS]) >= 2
    )


def _plural(verb: str) -> bool:
    return verb in ("are", "were", "default", "allow", "let", "enable", "help", "mean", "refer", "represent",
                    "describe", "have")  # fmt: skip


def _find_default(text: str) -> Match | None:
    for rule in (_DEFAULT_OF, _DEFAULT_ADJ):
        if m := rule.match(text):
            return Match("default", m["subj"], m["answer"], _plural(m["verb"]), {"form": "noun"})
    if m := _DEFAULTS_TO.match(text):
        return Match("default", m["subj"], m["answer"], _plural(m["verb"]), {"form": "verb"})
    if m := _BY_DEFAULT.match(text):
        return Match("default", m["subj"], m["answer"], _plural(m["verb"]), {"form": "state"})
    return None


def _find_value(text: str) -> Match | None:
    if (m := _LIMITED.match(text)) and re.search(r"\d", m["answer"]):
        return Match("value", m["subj"], m["answer"], _plural(m["verb"]), {"how": m["how"]})
    if m := _EXTREME.match(text):
        return Match("value", m["subj"], m["answer"], _plural(m["verb"]), {"how": m["how"]})
    return None


def _find_purpose(text: str) -> Match | None:
    if m := _PURPOSE_USED.match(text):
        how = m["how"]
        if how == "responsible" and m["prep"] != "for":
            return None
        return Match("purpose", m["subj"], m["answer"], _plural(m["verb"]), {"how": how, "prep": m["prep"]})
    if m := _CAN_BE_USED.match(text):
        return Match("purpose", m["subj"], m["answer"], _plural_subject(m["subj"]),
                     {"how": "used", "prep": m["prep"], "modal": "can"})  # fmt: skip
    if m := _PURPOSE_OF.match(text):
        return Match("purpose", m["subj"], m["answer"], False, {"how": "purpose"})
    if m := _ENABLES.match(text):
        base = m["verb"].rstrip("s") if m["verb"].endswith("s") else m["verb"]
        who = m["who"] or ""
        return Match("purpose", m["subj"], m["answer"], _plural(m["verb"]), {"how": base, "who": who})
    return None


def _find_definition(text: str) -> Match | None:
    if (m := _DEFINITION.match(text)) and not _weak_genus(m["answer"]):
        return Match("definition", m["subj"], m["answer"], _plural(m["verb"]), {"how": "is"})
    if m := _DEFINED_AS.match(text):
        how = m["how"]
        plural = how in ("refer to", "mean", "are defined as", "represent", "describe")
        if plural and how != "are defined as" and not _plural_subject(m["subj"]):
            return None  # "The geometric mean for ...": a noun, not the verb
        if how in ("means", "mean") and _TAKES_MEANS.search(m["subj"]):
            return None  # "The serialization API provides means of serializing ...": "means" is the noun
        return Match("definition", m["subj"], m["answer"], plural, {"how": how})
    return None


# A verb whose object "means" is ("provides means of", "offers the means to"): what stands before "means" is
# then no subject (Node.js's "What does the serialization API provides mean?").
_TAKES_MEANS = re.compile(
    r"\b(?:provides?|offers?|gives?|has|have|includes?|needs?|requires?|lacks?|finds?|is|are|by)$",
    re.IGNORECASE,
)


def _weak_genus(answer: str) -> bool:
    """ "is a good idea", "is the case", "is the same", "is the responsibility of all teammates", "is a
    chance to educate users", "is a newer more powerful version of exec_program": not a definition of the
    subject (readers: "What is X?" answered with whose
    job X is, or what X is good for)."""
    return bool(
        re.match(
            # "a single static binary that you can install via tarball": how it ships, not what it is (the
            # Node Exporter; readers failed it three times); a quoted word is the word ('a "sister" class')
            r"(?:a|an|the) (?:(?:single|static|standalone|small|self-contained|prebuilt) )*"
            r"(?:binary|executable|tarball|download)\b|"
            r"(?:a|an|the) [\"'\u201c\u2018]?(?:good|bad|common|better|best|worst|great|simple|easy|nice|"
            r"same|case|way|problem|reason|result|default|number|lot|bit|few|list|only|first|last|next|one|key|"
            r"main|subject|new|"
            r"exception|equivalent|opposite|core|heart|source|part|example|subset|useful|healthy|powerful|"
            r"important|huge|big|critical|essential|vital|crucial|helpful|valuable|fundamental|product|"
            r"prerequisite|sister|reminder|tip|must|matter|question|sign|step|responsibility|duty|job|"
            r"task|basis|goal|aim|purpose|chance|opportunity|newer|older|improved|updated|legacy|successor|"
            r"predecessor|replacement|variant|version)\b"
            r"|one of the (?:core|main|key|most|best|biggest|many|major|important)\b",
            answer,
        )
    )


def _find_constraint(text: str) -> Match | None:
    m = _CONSTRAINT.match(text)
    if not m:
        return None
    modal, verb, answer = m["modal"], m["verb"], m["answer"]
    if verb in ADVERBS:
        verb, _, answer = answer.partition(" ")
        if not verb.isalpha() or not answer:
            return None
    words = answer.split()
    prep = ""
    if words and words[0] in PREPOSITIONS and verb != "be":
        prep, answer = words[0], " ".join(words[1:])
    negative = modal.lower().endswith(("not", "cannot"))
    plural = modal.lower().startswith(("have", "need ", "are")) or _plural_subject(m["subj"])
    slots = {"modal": _modal_word(modal), "verb": verb, "prep": prep, "negative": "yes" if negative else "",
             "only": "yes" if modal.lower().endswith("only") else ""}  # fmt: skip
    if negative:
        return Match("constraint", m["subj"], modal, plural, {**slots, "form": "yesno", "rest": m["answer"]})
    if verb == "be":
        first = words[0] if words else ""
        if not _PARTICIPLE.match(first):
            return Match("constraint", m["subj"], answer, plural, {**slots, "form": "state"})
        rest = words[1:]
        slots["part"] = first
        if len(rest) >= 2 and rest[0] in ("for", "to"):  # "must be reserved for internal use"
            slots["prep"] = rest[0]
            return Match(
                "constraint", m["subj"], " ".join(rest[1:]), plural, {**slots, "form": "passive_prep"}
            )
        if rest and rest[0] in ("by", "using", "with", "as", "in", "on", "at", "via", "through", "into"):
            return Match("constraint", m["subj"], " ".join(rest), plural, {**slots, "form": "passive"})
        return Match("constraint", m["subj"], answer, plural, {**slots, "form": "state"})
    if not answer:
        return None
    if verb not in TRANSITIVE:
        return Match("constraint", m["subj"], answer, plural, {**slots, "form": "state"})
    return Match("constraint", m["subj"], answer, plural, {**slots, "form": "object"})


def _modal_word(modal: str) -> str:
    low = modal.lower()
    for word in ("must", "should", "can", "may"):
        if low.startswith(word):
            return word
    return "must"  # has to, needs to, is required to


def _plural_subject(subject: str) -> bool:
    last = subject.split()[-1].lower() if subject.split() else ""
    return last.endswith("s") and not last.endswith(("ss", "us", "is")) and last.isalpha()


# "To run the https benchmarks, one of autocannon or wrk benchmarkers must be used": the sentence says
# what is needed, and the how (the command) comes after it; asked "How do you run ...?" readers found the
# answer missing the command, while "What must be used to run ...?" it answers in full.
_REQUIRED_TOOL = re.compile(r"^.{2,80}? (?:must|has to|have to|needs to|need to) be used\.?$")
# "Specify the directory on disk to which a file will be installed": "to which" opens a clause, no goal.
_RELATIVE = frozenset({"which", "whom", "whose"})


# "A library may be used by multiple independent parts of an application", "It can be used in Swift projects":
# who uses it, or where, not how: readers kept 0 of 23 readings of "How can a library be used?"
# (Prometheus) and 1 of 3 of "How can the XCFramework be used?" (llama.cpp). "Used in two modes" is a how.
# Nor that any place will do: "Constants can be declared in any scope" answered "How can constants be
# declared?" (the Rust book, 0 of 6 readings kept).
_WHO_OR_WHERE = re.compile(
    r"used (?:by|in (?!(?:\d+|one|two|three|four|several|many|different) ))"
    r"|^\w+ (?:in|at|on|from|to|into|within) (?:any|every|all|each)\b",
    re.I,
)


def _find_procedure(text: str) -> Match | None:
    if (m := _TO_GOAL.match(text)) and instructs(m["answer"]):
        slots = {"form": "to", "goal": m["goal"]}
        if _REQUIRED_TOOL.match(m["answer"]):  # "one of autocannon or wrk must be used": what, not how
            slots["requirement"] = "yes"
        return Match("procedure", m["goal"], m["answer"], False, slots)
    if (m := _YOU_CAN.match(text)) or (m := _YOU_CAN_WITH.match(text)):
        return Match("procedure", m["goal"], m["answer"], False, {"form": "can", "goal": m["goal"]})
    if (
        (m := _USE_TO.match(text))
        and m["goal"].split(" ", 1)[0].lower() not in DETERMINERS | _RELATIVE
        and not _CLAUSE_INSIDE.search(m["answer"])
    ):
        return Match("procedure", m["goal"], m["answer"], False, {"form": "use", "goal": m["goal"],
                                                                  "verb": m["verb"].lower()})  # fmt: skip
    if (
        (m := _CAN_BE.match(text))
        and _PARTICIPLE.match(m["part"])  # not "Leaks may be either in ..."
        and not _WHO_OR_WHERE.match(f"{m['part']} {m['how']} {m['answer']}")
    ):
        return Match("procedure", m["subj"], m["answer"], _plural_subject(m["subj"]),
                     {"form": "passive", "part": m["part"], "modal": m["verb"]})  # fmt: skip
    return None


def _find_cause(text: str) -> Match | None:
    if m := _CONDITION.match(text):
        cond = re.sub(r"^and only if ", "", m["cond"])  # "If and only if X": a user asks "what if X"
        if re.search(r"\b(?:this|these|those|such|above|below|former|latter)\b", cond, re.IGNORECASE):
            return None  # "if there are no exemplars provided in this way": not self-contained
        if _PLACEHOLDER.search(cond):
            return None  # "if X parses as a CommonJS module": a variable of the page's pseudocode
        if _MAIN_CLAUSE_IN.search(cond):  # "If the exemplar references a trace it SHOULD use ..., as ..."
            return None
        if cond.count("(") != cond.count(")") or _PARTICIPLE_FIRST.match(cond):
            return None  # cut inside parentheses, or no subject ("once completed ...", "when set to null")
        if _NO_SITUATION_START.match(cond):
            return None
        answer = re.sub(r"^then ", "", m["answer"])
        if _HYPOTHETICAL.match(answer) or _OUR_EXAMPLE.match(cond) or _GIVEN_IT.match(cond):
            return None  # "If Rust accepted an incorrect program, users wouldn't ...", "If we pin them, ..."
        if _NOT_A_SITUATION.search(cond) or _POINTING_MAIN.search(answer) or _CONJUNCTION_FIRST.match(answer):
            return None
        if want := _WANT_TO.match(cond):
            if not instructs(answer):
                return None
            return Match("procedure", want["goal"], answer, False, {"form": "to", "goal": want["goal"]})
        if len(cond.split()) > _MAX_CONDITION_WORDS or _DEFINING_MAIN.match(answer):
            return None
        if _NAVIGATION.search(answer):
            return None  # "If you already know X, skip to the next section": about reading the page
        slots = {"conj": m["conj"].lower(), "cond": cond}
        if _CAVEAT.match(answer):
            return None  # "keep in mind that it ignores the environment": a warning, not what to do about it
        said = _HEDGE.sub("", answer)
        if _DO_SO.match(said):
            return None
        if imperative(said) or _ADVISING.match(said):
            slots["form"] = "advice"
        elif rule := _RULE_MAIN.match(said):  # "they should usually be one metric with labels"
            # the reader's own situation ("when you have multiple metrics to sum") asks what to do
            form = "advice" if cond.lower().startswith("you ") else "rule"
            slots.update(form=form, modal=rule["modal"].lower())
        elif (can := _YOU_CAN_VERB.match(said)) and can["verb"] not in ADVERBS:
            slots.update(form="can", verb=can["verb"])
        else:
            slots["form"] = "effect"
            affected = _AFFECTED.match(said)
            if affected and affected["what"].split()[0].lower() not in _NOT_AFFECTED:
                slots["what"] = affected["what"]
                if state := _STATE.match(said[len(affected["what"]) :]):
                    # "the primary goals are for the codebase to advance": what they are, not what happens
                    slots["state"] = state["be"]
        if _ACTIVITY.match(cond) and not slots.get("what"):
            return None  # "What happens when using the OpenVINO backend?"; not "What happens to X when ..."
        if _READER_STATUS.match(cond) and not slots.get("what") and slots["form"] != "can":
            return (
                None  # "What happens if you are joining Sourcegraph?": the page's topic (COBRA) is not asked
            )
        return Match("cause", cond, answer, False, slots)
    if m := _BECAUSE.match(text):
        question = invert(m["effect"])
        if question:
            return Match("cause", m["effect"], m["answer"], False, {"form": "why", "inverted": question})
    return None


# What would follow from a case the page imagines ("If Rust accepted an incorrect program, users wouldn't be
# able to trust ...", "If the token contains foobar, the header would be ..."): no behaviour to ask about
# (readers failed all 5 readings); and a case of the authors' own example ("If we pin them, ...", "When we
# make a new library project with Cargo, ...": the Rust book's "we"), which the asker is not in.
_HYPOTHETICAL = re.compile(r"^(?:[\w’'-]+\s+){0,4}?(?:would|wouldn['’]t|couldn['’]t)\b", re.IGNORECASE)
_OUR_EXAMPLE = re.compile(r"^we\b", re.IGNORECASE)
# "If you give it two futures, ...": "it" is what the page set up before (issue 29's own example).
_GIVEN_IT = re.compile(r"^you\s+[a-z]+\s+(?:it|them)\b", re.IGNORECASE)


# A main clause about reading the documentation itself, not about the subject.
_NAVIGATION = re.compile(
    r"\b(?:skip|jump|go|move|continue|proceed)\s+(?:ahead\s+)?to\s+the\s+(?:next|following|previous|last)\b"
    r"|\b(?:next|following|previous) (?:section|page|chapter|part)\b"
    r"|\bthis (?:section|page|chapter|tutorial)\b",
    re.IGNORECASE,
)


def _find_comparison(text: str) -> Match | None:
    if m := _UNLIKE.match(text):
        return Match("comparison", m["subj"], m["verb"] + " " + m["answer"], _plural_subject(m["subj"]),
                     {"other": m["other"], "form": "unlike"})  # fmt: skip
    if m := _THAN.match(text):
        return Match("comparison", m["subj"], m["answer"], _plural(m["verb"]),
                     {"other": m["other"], "form": "than", "degree": m["answer"]})  # fmt: skip
    return None


_FINDERS = (
    _find_procedure,
    _find_default,
    _find_value,
    _find_comparison,
    _find_cause,
    _find_purpose,
    _find_constraint,
    _find_definition,
)


def invert(clause: str) -> str:
    """ "counters are reset on restart" -> "are counters reset on restart": a clause as a yes/no question
    body, when its first auxiliary follows a short subject; "" when there is none."""
    words = clause.split()
    for index, word in enumerate(words[:8]):
        low = word.lower()
        if low in AUXILIARIES and index > 0:
            subject = " ".join(words[:index])
            if "," in subject or re.search(r"\b(?:that|which|who|if|when)\b", subject, re.IGNORECASE):
                return ""
            return " ".join([low, lower_first(subject), *words[index + 1 :]])
    return ""


def split_article(phrase: str) -> tuple[str, str]:
    """("a", "counter") from "A counter"; ("", "Label names") when there is no article."""
    words = phrase.split(" ", 1)
    if len(words) == 2 and words[0].lower() in ("a", "an", "the"):
        return words[0].lower(), words[1]
    return "", phrase


def lower_first(text: str, lowercase_words: frozenset[str] = frozenset()) -> str:
    """Lower-case a sentence-initial capital only where the word is not a name: a function word
    ("The" -> "the"), or a word the text writes in lower case (``lowercase_words``, see ``Fact``)."""
    first = text.split(" ", 1)[0]
    low = first.lower()
    if first == low or not first.split("-", 1)[0].isalpha() or first[1:] != first[1:].lower():
        return text
    if low in FUNCTION_WORDS or low in lowercase_words:
        return low + text[len(first) :]
    return text


def base_form(verb: str) -> str:
    """ "allows" -> "allow"; the template says "what does it allow"."""
    if verb in IRREGULAR_BASE:
        return IRREGULAR_BASE[verb]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb
