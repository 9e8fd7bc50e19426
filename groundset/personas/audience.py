"""Who reads a corpus, in its own words: the role nouns its pages use for people ("teammates", "managers",
"developers", "users"), counted by the pages that use them, and the persona name they give
("Teammate at Sourcegraph", "FastAPI user", "Developer building with Requests").

Blind readers rejected offline personas named from extracted terms ("SRE working with immutable reference
who keeps an eye on summary traits"): a persona is a plausible reader of the corpus, and the corpus says
who its readers are. English only; other languages keep their own persona wording.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence

__all__ = ["AUDIENCE", "audience_of", "audience_name", "distinct_audiences", "is_plain_reader", "staff_read"]

# Role noun as written (singular) -> the role it names. Words that name people the docs talk *about*
# rather than *to* (customers, candidates, owners, authors, leads) are not here, nor "dev" ("/dev", "dev
# mode").
AUDIENCE: dict[str, str] = {
    "user": "user", "developer": "developer", "programmer": "developer", "engineer": "engineer",
    "operator": "operator", "administrator": "administrator", "admin": "administrator",
    "sysadmin": "administrator", "sre": "SRE", "maintainer": "maintainer", "contributor": "contributor",
    "analyst": "analyst", "teammate": "teammate", "employee": "employee", "manager": "manager",
    "new hire": "new hire", "student": "student", "learner": "learner", "beginner": "beginner",
    "designer": "designer",
}  # fmt: skip
# People of the organisation the corpus belongs to: "at Sourcegraph", not "using Sourcegraph".
_STAFF = frozenset({"teammate", "employee", "manager", "new hire"})
_NAMES = {"user": "{scope} user", "developer": "Developer building with {scope}",
          "contributor": "Contributor to {scope}", "maintainer": "Maintainer of {scope}",
          "project maintainer": "Maintainer of a project using {scope}",
          "operator": "Operator running {scope}", "SRE": "SRE running {scope}",
          "administrator": "Administrator managing {scope}"}  # fmt: skip
_NOUN = re.compile(
    r"(?<![\w/.-])("
    + "|".join(re.escape(n) for n in sorted(AUDIENCE, key=len, reverse=True))
    + r")(?:s|es)?(?![\w/-])",
    re.IGNORECASE,
)
_FENCED = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)
# "Binary logical operators", "aggregation operators", "the ? operator", "the dereference operator" (the Rust
# book: 60 such lines made "Operator running Rust" the persona of 16 of 40 questions): an operator of a
# language, not a person running the product.
_SYMBOL_OPERATOR = re.compile(
    r"(?:unary|binary|ternary|logical|boolean|bitwise|comparison|arithmetic|relational|equality|assignment|"
    r"aggregation|set|vector|string|regex|shell|match(?:ing)?|infix|prefix|postfix|the following|"
    r"dereference|borrow|glob|mark|index(?:ing)?|range|trim|negation|spread|pipe|typeof|instanceof|new|"
    r"[^\w\s.!:,;]+)\s*$",  # not "and": "developers and operators" are people
    re.IGNORECASE,
)
SHARE_OF_TOP = 0.25  # another role is a cluster's own when this share of its top role's pages use it


def audience_of(texts: Iterable[str]) -> Counter[str]:
    """How many of the texts name people by each role. Code is left out, and so is a capitalised noun
    mid-sentence (``User``, a class)."""
    counts: Counter[str] = Counter()
    for text in texts:
        prose = _FENCED.sub(" ", text)
        found = set()
        for match in _NOUN.finditer(prose):
            word = match.group(0)
            before = prose[
                max(0, match.start() - 64) : match.start()
            ].rstrip()  # a window, not a copy of all before
            if word[:1].isupper() and before and before[-1] not in ".!?:#*-|>\n":
                continue
            role = AUDIENCE[match.group(1).casefold()]
            if role == "operator" and _SYMBOL_OPERATOR.search(before):
                continue
            found.add(role)
        counts.update(found)
    return counts


def distinct_audiences(counts: Sequence[Counter[str]], scope: str = "") -> list[str]:
    """One role per group of texts (clusters, biggest first): its most used role that no bigger group took,
    when that role is its own (used by at least a quarter as many of its pages as its top role), else its
    top role, so one handbook's clusters read as a teammate, a manager, an employee, not four teammates,
    and a cluster that names no reader gets the corpus's; "" when the corpus names none. Staff roles
    (teammate, manager) only in a corpus whose readers are mostly staff (a handbook), and there no "user";
    nor "user" when the corpus names no product (``scope``): readers failed "I'm a user of these docs".
    A maintainer is the product's own only where the docs name its contributors at least as often
    ("package maintainers" in the CMake reference use CMake: "I'm a maintainer of CMake" asking the basics
    read false to blind readers)."""
    corpus: Counter[str] = sum(counts, Counter())
    named = corpus  # every role as the pages name it, before the filters below
    staff = staff_read(corpus)
    if not staff:  # "manager" in software docs is a context or package manager; no one works "at" FastAPI
        counts = [Counter({r: n for r, n in c.items() if r not in _STAFF}) for c in counts]
    if staff or not scope:  # a handbook's users are the product's; a user of no named product is nobody
        counts = [Counter({r: n for r, n in c.items() if r != "user"}) for c in counts]
    corpus = sum(counts, Counter())
    taken: set[str] = set()
    chosen = []
    for own in counts:
        ranked = _ranked(own) or _ranked(corpus)
        if not ranked:
            chosen.append("")
            continue
        source = own or corpus
        role = next(
            (r for r in ranked if r not in taken and source[r] >= SHARE_OF_TOP * source[ranked[0]]), ranked[0]
        )
        taken.add(role)
        chosen.append(role)
    if named["contributor"] < named["maintainer"]:  # the docs' "package maintainers" use the product
        chosen = ["project maintainer" if role == "maintainer" else role for role in chosen]
    return chosen


def staff_read(counts: Counter[str]) -> bool:
    """Whether the corpus's readers are mostly staff (a handbook): its most named role (``audience_of``)
    is a teammate, a manager, an employee."""
    ranked = _ranked(counts)
    return bool(ranked) and ranked[0] in _STAFF


def _ranked(counts: Counter[str]) -> list[str]:
    return sorted((role for role, n in counts.items() if n), key=lambda r: (-counts[r], r))


def audience_name(role: str, scope: str) -> str:
    """The persona's name: the role and how it relates to what the corpus is about ("" for a user of a
    corpus that names no product: readers found "I'm a user of these docs" no situation)."""
    title = role if role.isupper() else role[:1].upper() + role[1:]
    if not scope:  # "a user" of what? (``distinct_audiences`` never picks it without a product)
        return "" if role == "user" else title
    if role in _STAFF:
        return f"{title} at {scope}"
    return _NAMES.get(role, f"{title} using {{scope}}").format(scope=scope)


def is_plain_reader(name: str) -> bool:
    """Whether a persona's name says no more than that it reads the docs: one that ``audience_name`` gives
    ("Node.js user", "Developer building with Rust", "Engineer using Sourcegraph", "Teammate at Sourcegraph"),
    but a manager's, whose role decides what applies to them."""
    return bool(_plain_readers().fullmatch(name.strip()))


@functools.cache
def _plain_readers() -> re.Pattern[str]:
    roles = (set(AUDIENCE.values()) | {"project maintainer"}) - {"manager"}
    names = sorted({audience_name(role, "\x00") for role in roles})
    return re.compile("|".join(re.escape(n).replace("\x00", ".+") for n in names), re.IGNORECASE)
