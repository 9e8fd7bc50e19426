"""Role nouns: does a persona name read as a person's role, and which role fits a set of topics.

One vocabulary serves both sides: ``reads_as_role`` (the question writer only opens a long
question with "As an <persona>, ..." when the name reads as a role) and the offline persona
builder, which picks the role noun of a cluster from cue words in its topics and summaries,
the activity it does with the main topic ("writing exporters", "running Node Exporter"), the
sentence of what the person does and wants, and what never is a topic (markup, file names).

Choice about "reader": a name such as "Metric naming reader" does not read as a role. Anyone
who opens the docs is a reader, so the word says nothing about what the person does, and
"As a metric naming reader, ..." is not how people introduce themselves. "reader", "person",
"someone", "team" and "people" are therefore not role nouns; neither is a bare personal name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..languages.words import word_set
from ..text.entities import is_file_name

__all__ = [
    "FALLBACK_ROLE",
    "ROLE_CUES",
    "ROLE_NOUNS",
    "activity",
    "choose_role",
    "is_markup",
    "reads_as_role",
    "role_sentence",
]

# Singular, lower case. Plurals ("SREs", "developers") and hyphenated compounds ("on-call
# engineer", "co-maintainer") are recognised from these. English only.
ROLE_NOUNS: tuple[str, ...] = (
    "engineer", "developer", "dev", "sre", "operator", "administrator", "admin", "sysadmin",
    "analyst", "architect", "scientist", "manager", "maintainer", "writer", "author", "researcher",
    "student", "consultant", "tester", "designer", "lead", "owner", "user", "practitioner",
    "specialist", "programmer", "coder", "devops", "contributor", "integrator", "implementer",
    "auditor", "reviewer", "technician", "expert", "responder", "on-caller", "oncaller", "hacker",
    "officer", "director", "instructor", "teacher", "trainer", "learner", "intern", "hobbyist",
    "freelancer", "contractor", "planner", "strategist", "evaluator", "adopter", "steward",
    "custodian", "modeler", "modeller", "investigator", "professional", "executive", "teammate",
    "employee", "colleague",
)  # fmt: skip
_ROLE_SET = frozenset(ROLE_NOUNS)
# After a role noun these words show it heads the name: "<role> writing ...", "<role> of ...".
_AFTER_ROLE = word_set(
    "of for at in on with who that from and or & , ( to by across within without behind using"
)

# Which role fits: cue words in the cluster's topics and summaries. "word*" matches any word that
# starts with "word"; a plain word matches itself and its plural; "a b" matches the two words in a
# row (a space or a hyphen between them). Order breaks ties. Every role here is in ROLE_NOUNS.
ROLE_CUES: dict[str, tuple[str, ...]] = {
    "Developer": (
        "exporter*", "collector*", "librar*", "instrument*", "sdk*", "plugin*", "parser*",
        "exposition*", "protobuf*", "source code", "pull request*", "contribut*", "api client*",
        "metric type*", "openmetrics", "spec", "specification*", "protocol*", "encoding*", "escaping*",
        "serializ*", "golang", "java", "python", "rust", "ruby", "code generation", "naming*",
        "metric name*", "label name*", "base unit*",
    ),
    "SRE": (
        "alert*", "on-call", "oncall", "incident*", "paging", "pager*", "recording rule*",
        "rule", "silenc*", "slo", "slos", "error budget*", "error rate*", "latency", "availability",
        "reliab*", "outage*", "runbook*", "notif*", "escalat*", "webhook receiver*", "postmortem*",
    ),
    "Operator": (
        "install*", "deploy*", "configur*", "config", "storage", "retention", "tsdb", "docker*",
        "kubernetes", "container*", "service discovery", "scrap*", "federat*", "upgrad*", "backup*",
        "remote write", "remote read", "cluster*", "daemon*", "compaction", "migrat*", "pushgateway",
        "push gateway", "batch job*", "capacity", "resource usage", "disk*", "shard*", "tuning",
        "release*", "binary", "systemd", "helm", "node exporter", "high availability",
    ),
    "Administrator": (
        "secur*", "auth", "basic auth", "authenticat*", "authoriz*", "tls", "certificat*", "password*",
        "encrypt*", "access control", "permission*", "credential*", "web configuration", "https",
        "bcrypt", "oauth*", "sso", "ldap", "firewall*",
    ),
    "Analyst": (
        "quer*", "promql", "dashboard*", "grafana", "visuali*", "graph*", "console*", "expression browser",
        "expression language", "panel*", "report*", "chart*", "aggregat*", "percentile*", "quantile*",
        "apdex", "data source*", "trend*", "analys*", "analyz*",
    ),
    "Architect": (
        "design*", "architect*", "comparison*", "alternative*", "long-term storage", "scalab*",
        "proposal*", "data model", "evaluat*", "trade-off*", "tradeoff*", "roadmap*",
    ),
}  # fmt: skip
FALLBACK_ROLE = "Engineer"
_MIN_SCORE = 0.25  # below this the cues are too thin to tell: the generic role


def _cue_pattern(cue: str) -> str:
    words = []
    for word in cue.split():
        stem = re.escape(word.rstrip("*"))
        words.append(stem + (r"[\w-]*" if word.endswith("*") else r"(?:s|es)?"))
    return r"(?<!\w)" + r"[\s-]+".join(words) + r"(?!\w)"


_CUE_RES: dict[str, re.Pattern[str]] = {
    role: re.compile("|".join(_cue_pattern(c) for c in cues), re.IGNORECASE)
    for role, cues in ROLE_CUES.items()
}
assert all(role.casefold() in _ROLE_SET for role in (*ROLE_CUES, FALLBACK_ROLE))


def cue_count(role: str, text: str) -> int:
    """How many of ``role``'s cue words occur in ``text`` (0 for an unknown role)."""
    pattern = _CUE_RES.get(role)
    return len(pattern.findall(text)) if pattern else 0


def choose_role(weighted_texts: Iterable[tuple[str, float]]) -> str:
    """The role whose cues weigh most in ``(text, weight)`` pairs; ``FALLBACK_ROLE`` when none is clear.

    Where cues of two roles overlap, the longer one counts: "Node Exporter" is the operator's,
    though "exporter" alone would be the developer's.
    """
    scores = dict.fromkeys(ROLE_CUES, 0.0)
    for text, weight in weighted_texts:
        found = [(m.start(), m.end(), role) for role, cue in _CUE_RES.items() for m in cue.finditer(text)]
        taken: list[tuple[int, int]] = []
        for start, end, role in sorted(found, key=lambda f: (f[0] - f[1], f[0])):
            if all(end <= a or start >= b for a, b in taken):
                taken.append((start, end))
                scores[role] += weight
    best = max(scores, key=lambda role: scores[role])  # the first role wins a tie
    return best if scores[best] >= _MIN_SCORE else FALLBACK_ROLE


def is_role_word(word: str) -> bool:
    """True for a role noun, singular or plural, in any case: "SRE", "developers", "Admins"."""
    lower = word.casefold().strip(".,;:!?()'\"")
    if lower in _ROLE_SET:
        return True
    return any(lower.endswith(end) and lower[: -len(end)] in _ROLE_SET for end in ("es", "s"))


def reads_as_role(name: str) -> bool:
    """True when a persona name reads as a person's role.

    The name must contain a role noun (engineer, developer, SRE, operator, admin, analyst, ...;
    see ``ROLE_NOUNS``), plural or hyphenated ("on-call engineers", "co-maintainer"), used as the
    head of the name rather than as a modifier: "Exporter developer" and "Developer writing
    exporters" read as roles, "User interface" and "Owner references" do not. A bare topic
    ("Classic histograms"), a personal name ("Alice"), a "<topic> reader" name and "" do not.
    A trailing " (2)" added to make names unique is ignored.
    """
    if not isinstance(name, str):
        return False
    text = re.sub(r"\s*\(\d+\)\s*$", "", name.strip())
    tokens = re.findall(r"[^\W_]+(?:['\u2019][^\W_]+)?|[,&(]", text.replace("-", " - "))
    words = [t for t in tokens if t != "-"]
    hyphen_pairs = re.findall(r"([^\W_]+)-([^\W_]+)", text)
    if any(is_role_word(f"{a}-{b}") for a, b in hyphen_pairs):  # "on-caller"
        return True
    for i, word in enumerate(words):
        if not is_role_word(word):
            continue
        following = words[i + 1].casefold() if i + 1 < len(words) else ""
        if not following or following in _AFTER_ROLE or _participle(following):
            return True
    return False


def _participle(word: str) -> bool:
    """A verb form after the role noun: "Developer writing ...", "Engineer focused on ..."."""
    return len(word) > 4 and word.endswith(("ing", "ed"))


# -- what a role does with a topic ---------------------------------------------------------------
# (gerund, third person, cues, roles it suits or () for any): the first whose cues match a topic
# names the activity; a topic that matches none takes its role's default below.
ACTIVITIES: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("writing", "writes", ("exporter*", "collector*", "client librar*", "plugin*", "parser*"), ()),
    ("writing", "writes", ("recording rule*", "alerting rule*", "rule", "runbook*", "quer*"), ()),
    ("building", "builds", ("dashboard*", "console*", "panel*", "template*", "visuali*"), ()),
    ("choosing", "chooses", ("metric name*", "label name*", "naming*", "base unit*", "bucket layout*"), ()),
    ("adding", "adds", ("instrumentation",), ()),
    ("handling", "handles", ("alert*", "incident*", "silenc*", "notification*", "paging"), ()),
    ("securing", "secures", ("endpoint*", "api", "web ui", "ui", "instance*", "server*"), ("Administrator",)),
    ("configuring", "configures", (
        "config*", "setting*", "retention", "storage", "tls", "auth", "basic auth", "certificat*",
        "password*", "encrypt*", "flag*", "service discovery", "relabel*", "web configuration",
    ), ()),
    ("deploying", "deploys", ("docker*", "container*", "kubernetes", "deploy*", "install*", "helm"), ()),
    ("tuning", "tunes", ("remote write", "shard*", "performance", "resource usage", "compaction", "queue*"),
     ()),
    ("running", "runs", ("instance*", "server*", "cluster*", "node*"), ("Operator", "SRE")),
    ("monitoring", "monitors", ("batch job*", "host*", "servic*", "application*", "instance*"), ()),
    ("querying", "queries", ("time series", "query language", "promql"), ()),
)  # fmt: skip
# The activity for a named thing (a product, a tool, a code identifier) or a topic with no cue.
NAME_ACTIVITY = {
    "Developer": ("working with", "works with"),
    "SRE": ("running", "runs"),
    "Operator": ("running", "runs"),
    "Administrator": ("managing", "manages"),
    "Analyst": ("using", "uses"),
    "Architect": ("evaluating", "evaluates"),
    FALLBACK_ROLE: ("working with", "works with"),
}
TOPIC_ACTIVITY = ("working with", "works with")
_ACTIVITY_RES = [
    (ing, third, re.compile("|".join(_cue_pattern(c) for c in cues), re.IGNORECASE), roles)
    for ing, third, cues, roles in ACTIVITIES
]


def activity(role: str, topic: str, *, named: bool) -> tuple[str, str]:
    """What ``role`` does with ``topic``: ("configuring", "configures"), ("running", "runs"), ...

    A named thing ("Node Exporter", "Grafana") takes the role's own verb; a common noun phrase
    the verb its cue words suggest ("writing exporters", "configuring storage").
    """
    if named:
        return NAME_ACTIVITY.get(role, TOPIC_ACTIVITY)
    for ing, third, pattern, roles in _ACTIVITY_RES:
        if (not roles or role in roles) and pattern.search(topic):
            return ing, third
    return TOPIC_ACTIVITY


# -- the persona's sentence ---------------------------------------------------------------------
# How a role spends its time on a topic and what it wants: (does, wants {names}).
_DUTIES: dict[str, tuple[tuple[str, str], ...]] = {
    "Developer": (("Works on", "wants precise, code-level answers about {names}"),
                  ("Builds on", "wants to get the details of {names} right in their own code")),
    "SRE": (("Keeps an eye on", "wants to know how {names} behave when something breaks"),
            ("Is on call for", "wants to find out quickly what went wrong with {names}")),
    "Operator": (("Looks after", "wants exact settings and clear troubleshooting steps for {names}"),
                 ("Maintains", "wants a setup for {names} that keeps working through upgrades and restarts")),
    "Administrator": (("Is responsible for", "wants to get {names} right without locking anyone out"),
                      ("Manages", "wants clear, step-by-step answers about {names}")),
    "Analyst": (("Digs into", "wants queries and graphs about {names} that they can trust"),
                ("Studies", "wants to understand {names} well enough to explain the numbers to their team")),
    "Architect": (("Plans around", "wants to know the trade-offs of {names} before committing to a design"),
                  ("Weighs", "wants to understand the limits of {names} before the system grows")),
    FALLBACK_ROLE: (("Deals with", "wants practical answers about {names}"),
                    ("Works with", "wants to set up {names} correctly and understand problems that occur")),
}  # fmt: skip


def role_sentence(role: str, pick: int, names: str, extra: str = "") -> str:
    """One sentence of what ``role`` does (with ``extra``) and wants (about ``names``); ``pick`` (a
    stable hash) chooses between the role's wordings."""
    duties = _DUTIES.get(role, _DUTIES[FALLBACK_ROLE])
    duty, want = duties[pick % len(duties)]
    wants = want.format(names=names)
    return f"{duty} {extra} and {wants}." if extra else f"{wants[:1].upper()}{wants[1:]}."


# -- what is never a topic -----------------------------------------------------------------------
_MARKUP = word_set(
    """type help unit eof note todo warning info tip caution important danger fixme notice license readme
    post get put patch delete head true false null none nan inf nul lf cr crlf bom yes no ok click skip"""
)


def is_markup(term: str) -> bool:
    """True for markup tokens (TYPE, HELP, _sum), file names, URLs, flags and odd characters: they
    never name what a persona works on, and never reach the persona prompt's entities."""
    text = " ".join(str(term).split())
    words = text.split(" ")
    if re.search(r"[<>{}\[\]|=`$@\\/~^%+*\u2019']|://|\d{3,}", text) or not re.search(r"[^\W\d_]{2}", text):
        return True
    if any(is_file_name(w) or w.startswith(("_", "-", ".")) or w.endswith("_") for w in words):
        return True
    if len(words) == 1 and text.casefold() in _MARKUP:
        return True
    return any(w.isupper() and w.casefold() in _MARKUP for w in words)


# -- the topic as the object of the activity -------------------------------------------------------
_MASS_ENDINGS = (
    "tion", "sion", "ment", "ness", "ity", "ing", "ics", "ance", "ence", "ism", "ure", "age", "ship",
    "ledge", "ware", "ogy", "cy", "th", "ss", "us", "is", "s",
)  # fmt: skip
_MASS = word_set(
    """data metadata auth info storage security discovery memory history traffic research feedback
    evidence access code text content output input throughput behaviour behavior telemetry config
    software hardware documentation tooling work knowledge support advice time noise load state
    protobuf http tls json yaml encryption retention api ui write read on-call"""
)
_LOWER_WORD = re.compile(r"[a-z][a-z-]*")


def object_phrase(topic: str, *, named: bool) -> str:
    """``topic`` as the object of a verb: plural for a common count noun ("custom collectors"),
    "the" before one thing with a name in front ("the HAProxy exporter"), names as they are."""
    words = topic.split(" ")
    last = words[-1]
    if named or not _LOWER_WORD.fullmatch(last) or last in _MASS or last.endswith(_MASS_ENDINGS):
        return topic
    if all(_LOWER_WORD.fullmatch(w) for w in words):
        return " ".join([*words[:-1], _plural(last)])
    return f"the {topic}"  # "HAProxy exporter", "ping_request_count metric"


def _plural(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("ch", "sh", "x", "z")):
        return word + "es"
    return word + "s"


def singular(word: str) -> str:
    """A cheap singular, enough to match "histograms" with "histogram" and "queries" with "query"."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word
