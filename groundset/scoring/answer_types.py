"""What kind of answer an English question part asks for, and whether a response gives one.

Embedding cosines cannot tell "released in 2021" from "supported until 2026" when the question asks
how long: both are on topic. A wh-word says what the answer must contain, so a part whose kind of
answer is nowhere in the response is covered only in part:
- when / what year -> a time (a date, year, month, duration or a temporal clause);
- how long -> a span (a number with a unit, or "until ...");
- how many / much / often / old / far / big ..., and "what is the <measure>" -> a number;
- who / whose -> a name (a capitalised word the question does not have) or people ("the team");
- where -> a place (a preposition before a name, a path, a URL or a place noun);
- how do I / how can I / how to -> an instruction (an imperative, "you can/should ...", a command);
- yes/no questions -> a yes or no, a negation, an instruction, or a clear statement (one that reuses
  the question's auxiliary or its predicate).
Each check is lenient (any date-like or temporal word answers "when"): it catches an answer that lacks
the kind altogether, and must not fail a right answer phrased in an unexpected way. The rules know only
English: callers apply them to English text only.
"""

from __future__ import annotations

import re

from ..languages.words import word_set
from ..text.lexical import STOP_WORDS, content_words
from ..text.quantities import NUMBER_WORDS, QUANTITY, TIME_UNITS
from ..text.stems import stem

TIME, SPAN, NUMBER, NAME, PLACE, STEPS, POLAR = "time", "span", "number", "name", "place", "steps", "polar"

_DATE_NAMES = word_set(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday"
)
# "may" is a month only next to a number ("14 May", "May 2020"); elsewhere it is a modal verb.
_MONTHS = "|".join(sorted(_DATE_NAMES - {"may"})) + r"|\d+\s+may|may\s+\d+"
_A_NUMBER = re.compile(rf"\d|\b(?:{NUMBER_WORDS})\b", re.IGNORECASE)
_A_SPAN = re.compile(
    rf"{QUANTITY}[\s-]*{TIME_UNITS}\b|\b\d+[smhdwy]\b|\b(?:until|till|through|forever|indefinitely|"
    r"permanently|for ever)\b",
    re.IGNORECASE,
)
# A year, a month or day name, a clock time, an ISO date, a span, or a temporal word: "when does
# compaction run?" is answered by "after the head block fills" as well as by a date.
_A_TIME = re.compile(
    rf"\b1\d{{3}}\b|\b20\d{{2}}\b|\b(?:{_MONTHS})\b|\d{{1,2}}:\d{{2}}|\b\d{{4}}-\d{{2}}-\d{{2}}\b"
    rf"|{_A_SPAN.pattern}|\b(?:ago|yesterday|today|tomorrow|now|currently|nowadays|century|decade|era"
    r"|when|whenever|after|before|once|every|during|since|at startup|at the start|at the end|as soon as"
    r"|immediately|hourly|daily|weekly|monthly|yearly|annually)\b",
    re.IGNORECASE,
)
_A_FREQUENCY = re.compile(
    r"\b(?:every|each|per|hourly|daily|weekly|monthly|yearly|annually|whenever)\b", re.I
)
_YES_NO = re.compile(
    r"\b(?:yes|no|not|never|cannot|can't|won't|isn't|aren't|doesn't|don't|only|always|neither|both|none)\b",
    re.IGNORECASE,
)
_PATHLIKE = re.compile(
    r"\w+://\S+|(?:^|\s)[~.]?/\w|\w+\.(?:ya?ml|json|toml|conf|ini|cfg|txt|db)\b|\w:\d{2,5}\b"
)
# "Who" is also answered by a description of people: "the Prometheus team", "its maintainers".
_PEOPLE = re.compile(
    r"\b(?:team|group|company|companies|community|maintainers?|authors?|developers?|engineers?|founders?"
    r"|foundation|organi[sz]ations?|people|person|users?|operators?|administrators?|owners?|vendors?)\b",
    re.IGNORECASE,
)
# Nouns that name a place in software and geography; "on local disk" answers "where" without a name.
_PLACE_NOUNS = word_set(
    "disk disks file files directory directories folder folders memory ram server servers host hosts "
    "machine machines node nodes cluster database bucket storage repository repo cloud country city town "
    "region continent island state province endpoint path volume container registry"
)
# Instruction verbs an imperative answer to "how do I ..." starts with (a closed, general list).
_INSTRUCTIONS = word_set(
    "add apply build call change check choose click configure connect copy create define delete deploy "
    "disable download edit enable enter export extract generate give go have import install keep let "
    "list load make mount move name open pass pick point push put query read register reload remove "
    "rename replace restart run scrape select send set specify start stop sum switch type update upgrade "
    "use visit wrap write divide drop increase decrease lower raise limit label alert page notify"
)
# Instructions not in the imperative: "you can ...", "by editing ...", "the command is ...".
_STEP_CUES = re.compile(
    r"\byou (?:can|could|should|need|must|have to|will need|'ll need|would)\b|\bby \w+ing\b"
    r"|\bto do (?:so|this|that)\b|\bthe (?:steps?|way to|command|flag|option|setting)\b",
    re.IGNORECASE,
)
# A command line, flag or config file: "promtool check config prometheus.yml" is an instruction.
_COMMAND = re.compile(r"(?:^|\s)--?[a-z][\w.-]*|\$ \w|\w+\.(?:ya?ml|json|toml|conf|ini|cfg)\b|`[^`]+`")
# Where a clause starts: an instruction verb there is an imperative.
_CLAUSE_START = re.compile(r"(?:^|[.;:!?]\s+|,\s+(?:then\s+|and\s+|or\s+)?|\(\s*)([A-Za-z]+)")
_LEADING_ADVERBS = word_set("then first next finally just simply also either instead now")
_AUXILIARIES = word_set(
    "is are was were am do does did can could should would will shall may might must has have had"
)
_WORD = re.compile(r"[A-Za-z][\w'-]*")
_CAPITALISED = re.compile(r"[A-Z]")

# Nouns whose value is a number: "what is the default port?" asks for one.
_MEASURES = (
    r"port|speed|height|elevation|altitude|depth|length|width|distance|weight|mass|population|temperature|"
    r"boiling point|melting point|freezing point|age|price|cost|size|number|count|percentage|rate|"
    r"version|value|limit|default port|timeout|interval|duration|capacity"
)
# Question words only ask for a kind where they open the part ("When was ...", "In what year ...",
# "When and where ...", after a leading "In Grafana, ..."); "what happens when ..." asks for no time.
_LEAD = (
    r"^(?:[^,?]*,\s*)?"
    r"(?:(?:and|or|in|on|at|from|since|until|till|by|for|to|of|when|where|who|whom|whose|how|why)\b[\s,]*)*"
)


def _opening(pattern: str) -> re.Pattern[str]:
    return re.compile(_LEAD + pattern, re.IGNORECASE)


_KINDS = (
    (_opening(r"how long\b"), SPAN),
    (_opening(r"how (?:many|much|often|old|far|big|large|high|tall|fast|deep|heavy|wide|soon)\b"), NUMBER),
    (_opening(r"(?:what|which)\s+(?:year|date|day|month|century|decade|time)\b"), TIME),
    (_opening(r"when\b"), TIME),
    (_opening(rf"(?:what|which) (?:is|was|are|were) the (?:\w+ )?(?:{_MEASURES})\b"), NUMBER),
    (_opening(rf"(?:what|which) (?:{_MEASURES})\b"), NUMBER),
    (_opening(r"who(?:m|se)?\b"), NAME),
    (_opening(r"where\b"), PLACE),
    (_opening(r"how (?:do|can|could|should|would|might|must) (?:i|you|we|one)\b|how to\b"), STEPS),
)
# "When should I use a gauge?" asks for a condition, not a time: any answer is of the right kind.
_CONDITIONAL_WHEN = re.compile(
    r"\bwhen (?:should|do|would|could|can|must|might|to|is it (?:better|best|worth))\b", re.I
)
_POLAR = re.compile(rf"^\s*(?:{'|'.join(sorted(_AUXILIARIES))})\b", re.IGNORECASE)


def expected_kinds(part: str) -> list[str]:
    """The kinds of answer an English question part asks for, in a stable order; [] for "what is X"."""
    kinds: list[str] = []
    for pattern, kind in _KINDS:
        if pattern.search(part) and kind not in kinds:
            kinds.append(kind)
    if TIME in kinds and _CONDITIONAL_WHEN.search(part):
        kinds.remove(TIME)
    if not kinds and _POLAR.match(part):
        kinds.append(POLAR)
    return kinds


def gives(kind: str, response: str, part: str, question: str) -> bool:
    """Whether ``response`` holds an answer of ``kind`` to ``part`` of ``question`` (module docstring)."""
    if kind == TIME:
        return bool(_A_TIME.search(response))
    if kind == SPAN:
        return bool(_A_SPAN.search(response))
    if kind == NUMBER:
        return bool(_A_NUMBER.search(response) or _A_FREQUENCY.search(response))
    if kind == NAME:
        return bool(new_names(response, question) or _PEOPLE.search(response))
    if kind == PLACE:
        return _gives_place(response, question)
    if kind == STEPS:
        return _gives_steps(response)
    if kind == POLAR:
        return _gives_polar(response, part)
    return True


def new_names(response: str, question: str) -> list[str]:
    """Capitalised words of the response the question does not have (a sentence's first word counts only
    when the next word is capitalised too, "Jane Austen", since every sentence starts with a capital)."""
    asked = {w.casefold() for w in _WORD.findall(question)}
    names = []
    for sentence in re.split(r"(?<=[.!?;:])\s+", response):
        found = _WORD.findall(sentence)
        for i, word in enumerate(found):
            folded = word.casefold()
            if (
                not _CAPITALISED.match(word)
                or folded in asked
                or folded in _DATE_NAMES
                or folded in STOP_WORDS
            ):
                continue
            if i == 0 and not (len(found) > 1 and _CAPITALISED.match(found[1])):
                continue
            names.append(word)
    return names


def _gives_place(response: str, question: str) -> bool:
    """A path, URL or host:port; or a preposition followed within three words by a new name or a place
    noun ("in Ulm", "on local disk")."""
    if _PATHLIKE.search(response):
        return True
    names = {n.casefold() for n in new_names(" x " + response, question)}
    for match in re.finditer(
        r"\b(?:in|at|on|near|from|inside|within|under|to|into)\s+((?:\S+\s*){1,3})", response, re.I
    ):
        following = [w.casefold() for w in _WORD.findall(match.group(1))]
        if any(w in names or w in _PLACE_NOUNS for w in following):
            return True
    return False


def _gives_steps(response: str) -> bool:
    """An imperative clause ("Send SIGHUP ...", "..., then run ..."), "you can/should ...", or a command
    ("promtool check config prometheus.yml", a --flag)."""
    return bool(_STEP_CUES.search(response) or _COMMAND.search(response)) or _imperative(response)


def _imperative(response: str) -> bool:
    """A clause that starts with an instruction verb, after an adverb like "then" at most."""
    for match in _CLAUSE_START.finditer(response):
        word = match.group(1).casefold()
        if word in _LEADING_ADVERBS:
            following = _WORD.search(response, match.end())
            word = following.group(0).casefold() if following else word
        if word in _INSTRUCTIONS:
            return True
    return False


def _gives_polar(response: str, part: str) -> bool:
    """A yes or no, a negation, an instruction ("Use a histogram"), or a clear statement: one that reuses
    the question's auxiliary ("can", "are") or a content word after its first one, the subject
    ("Does Prometheus support remote write?" -> "it supports ...")."""
    if _YES_NO.search(response) or _imperative(response):
        return True
    auxiliary = _POLAR.match(part)
    if auxiliary and re.search(rf"\b{auxiliary.group(0).strip()}\b", response, re.IGNORECASE):
        return True
    asked = [stem(w) for w in content_words(part, "en")][1:]
    return bool(set(asked) & {stem(w) for w in content_words(response, "en")})
