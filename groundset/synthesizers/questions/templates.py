"""Questions from facts: one template family per answer pattern, in English (the language with facts;
other languages ask term-based questions in their own words, see ``languages``).

The template asks exactly what the fact's sentence answers ("What is the Pushgateway used for?"
for "The Pushgateway is used to ..."), so the reference answers the question by construction.
Multi-hop questions ask for two facts about one subject ("What is a counter, and what must it
never do?") or compare two subjects of one theme; web-search queries are the question's content
words in a natural order, with no filler.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from ...languages.en import DETERMINERS, PREPOSITIONS
from ...text.quantities import QUANTITY, TIME_UNITS
from ..scenarios.answer_patterns import TRANSITIVE, base_form, lower_first, split_article
from ..scenarios.facts import Fact

__all__ = [
    "asks_broadly",
    "asks_one_thing",
    "compare_question",
    "in_setting",
    "lower_question",
    "object_head",
    "pair_question",
    "single_question",
    "web_query",
]

_PRONOUNS = {False: ("it", "its", "it"), True: ("they", "their", "them")}
_YES = ("must", "should", "can", "may")
_ASPECT = {"definition": "definition", "purpose": "purpose", "default": "default", "value": "limit",
           "constraint": "requirements", "procedure": "setup", "cause": "behaviour"}  # fmt: skip
# Which fact a two-part question asks about first: what it is, then what it does, then details.
ORDER = ("definition", "purpose", "default", "value", "constraint", "procedure", "cause", "comparison")


_YOUR = re.compile(r"\byour(?:s|self|selves)?\b", re.IGNORECASE)


def noun_phrase(fact: Fact, *, bare: bool = False) -> str:
    """The subject as it reads mid-sentence ("a counter", "the Pushgateway", "label names")."""
    article, rest = split_article(" ".join(fact.subject.split()))
    words = frozenset(fact.lowercase_words)
    if bare or not article:
        return lower_first(rest, words)
    return f"{article} {rest}"


def _agree(fact: Fact) -> dict[str, str]:
    return {"be": "are" if fact.plural else "is", "do": "do" if fact.plural else "does"}


def single_question(fact: Fact, rng: random.Random) -> str:
    """A well-formed question the fact answers (one of the pattern's phrasings)."""
    forms = _single_forms(fact)
    return _finish(rng.choice(forms))


def _called(slots: dict[str, str]) -> str:
    """What a reference page's setting is called: an option, or an API's property (``option_facts``)."""
    return slots.get("called", "option")


def shortest_question(fact: Fact) -> str:
    return _finish(min(_single_forms(fact), key=lambda text: len(text.split())))


def _single_forms(fact: Fact) -> list[str]:
    np, s, g = noun_phrase(fact), fact.slots, _agree(fact)
    be, do = g["be"], g["do"]
    bare = noun_phrase(fact, bare=True)
    pattern, form, how = fact.pattern, s.get("form", ""), s.get("how", "")
    if pattern == "definition":
        if how == "is":
            return [f"What {be} {np}", f"What exactly {be} {np}", f"Can you explain what {np} {be}"]
        if how.endswith("defined as"):
            return [f"How {be} {np} defined", f"What {be} the definition of {np}"]
        return [f"What {do} {np} {base_form(how.split()[0])}{' ' + how.split()[1] if ' ' in how else ''}"]
    if pattern == "purpose":
        if how == "option":  # a reference page's option and the paragraph on what it does; "option" says
            # which "node-gyp" is meant (readers took "What is node-gyp for?" to ask about the tool); an API's
            # property is no option ("the event.timeStamp option": readers called it a template's slip)
            called = _called(s)
            return [
                f"What is the {bare} {called} for",
                f"What does the {bare} {called} {'hold' if called == 'property' else 'do'}",
            ]
        if how == "purpose":
            return [f"What is the purpose of {np}", f"What is {np} for"]
        if how == "does":  # a function a reference page lists with what it does ("the X method": its article)
            return [f"What does {np} do"]
        if how == "return":  # an API's summary sentence: "The process.pid property returns the PID ..."
            return [f"What does {np} return"]
        if how == "used" and s.get("modal"):
            return [f"What can {np} be used for"]
        if how in ("used", "designed", "meant", "intended", "responsible"):
            extra = [f"Why would I use {np}"] if how == "used" else []
            return [f"What {be} {np} {how} for", *extra]
        who = s.get("who") or "you"
        if how in ("let", "help"):
            return [f"What {do} {np} {how} {who} do"]
        return [f"What {do} {np} {how} {who} to do", f"What {do} {np} {how}"]
    if pattern == "default":
        if form == "option":
            called = _called(s)
            return [
                f"What does the {bare} {called} default to",
                f"What is the default value of the {bare} {called}",
            ]
        if form == "entry":  # a listed name whose kind the page does not say: no "option"
            return [f"What does {bare} default to", f"What is the default value of {bare}"]
        if form == "verb":
            return [f"What {do} {np} default to", f"What is the default for {np}"]
        if form == "state":
            return [f"What {be} {np} by default", f"What is the default for {np}"]
        return [f"What is the default {bare}"]
    if pattern == "value":
        if how in ("maximum", "minimum"):
            return [f"What is the {how} {bare}", f"What {be} the {how} for {bare}"]
        return [f"What {be} {np} {how} to", f"How large can {np} be"]
    if pattern == "constraint":
        return _constraint_forms(fact, np, be)
    if pattern == "procedure":
        goal = s.get("goal", "")
        if form == "passive":
            return [f"How can {np} be {s.get('part', '')}"]
        if form == "use" and s.get("verb") == "use":
            return [f"What should you use to {goal}", f"How do you {goal}"]
        if s.get("requirement"):
            return [f"What must be used to {goal}", f"What do you need to {goal}"]
        if _YOUR.search(goal):  # "How do I record your leave dates?": the goal says "your", so must the asker
            return [f"How do you {goal}", f"How can you {goal}"]
        return [f"How do you {goal}", f"How can I {goal}", f"How do I {goal}"]
    if pattern == "cause":
        cond = lower_first(s.get("cond", ""), frozenset(fact.lowercase_words))
        if form == "why":
            return [f"Why {s.get('inverted', '')}"]
        conj = s.get("conj", "if")
        if form == "advice":
            return [f"What should you do {conj} {cond}", f"What is the advice {conj} {cond}"]
        if form == "can":
            return [f"What can you {s.get('verb', 'do')} {conj} {cond}"]
        if form == "rule":
            weight = "required" if s.get("modal") in ("must", "shall") else "recommended"
            return [f"What should happen {conj} {cond}", f"What is {weight} {conj} {cond}"]
        if s.get("what"):
            what = lower_first(s["what"], frozenset(fact.lowercase_words))
            if s.get("state"):
                return [f"What {s['state']} {what} {conj} {cond}"]
            return [f"What happens to {what} {conj} {cond}"]
        return [f"What happens {conj} {cond}"]
    if pattern == "comparison":
        other = _other(fact)
        if s.get("form") == "than":
            return [
                f"How {do} {np} compare with {other}",
                f"Which is {s.get('degree', '')}, {bare} or {other}",
            ]
        return [f"How {do} {np} differ from {other}", f"What is the difference between {bare} and {other}"]
    raise ValueError(f"no question template for pattern {pattern!r}")


def _constraint_forms(fact: Fact, np: str, be: str) -> list[str]:
    s = fact.slots
    modal, verb, prep = s.get("modal", "must"), s.get("verb", ""), s.get("prep", "")
    tail = f" {prep}" if prep else ""
    form = s.get("form")
    if form == "yesno":
        if verb in TRANSITIVE or prep:
            return [f"What {modal} {np} not {verb}{tail}"]
        return [f"What is not allowed for {np}" if modal == "must" else f"What should be avoided with {np}"]
    if form == "object":
        head = object_head(fact.answer)
        return [f"What {head} {modal} {np} {verb}{tail}" if head else f"What {modal} {np} {verb}{tail}"]
    if form == "passive":
        where = fact.answer.split(" ", 1)[0].lower() in ("into", "onto")
        return [f"{'Where' if where else 'How'} {modal} {np} be {s.get('part', '')}"]
    if form == "passive_prep":
        first = fact.answer.split(" ", 1)[0]  # a verb is a lower-case word: not "people-ops@x.com", "Slack"
        to_verb = prep == "to" and first.isalpha() and first.islower() and first not in DETERMINERS
        # a plural noun is no verb: "must be limited to members of the Security team" says who, not why
        to_verb = to_verb and not (first.endswith("s") and not first.endswith(("ss", "us")))
        if to_verb:  # "to" + a verb: a purpose, a use or a manner
            part = s.get("part", "")
            if fact.answer.lower().startswith("be "):  # "must be written to be callback based": a manner
                return [f"How {modal} {np} be {part}"]
            if part == "used":  # "must be used to represent values that go up and down"
                return [f"What {modal} {np} be used for"]
            return [f"Why {modal} {np} be {part}"]  # "must be validated to prevent injection attacks"
        if prep == "for" and _DURATION.match(fact.answer):  # "employed for at least 90 days"
            return [f"How long {modal} {np} be {s.get('part', '')}"]
        return [f"What {modal} {np} be {s.get('part', '')}{tail}"]
    if s.get("only"):
        return [f"What are the limits on {np}"]
    if modal == "must":
        return [f"What is required of {np}", f"What rule applies to {np}"]
    return [f"What is recommended for {np}"]


# An object opens with one of these and its head noun then names what is asked: "must use the content type
# header to ..." -> "What header must receivers use?". Without it the question has many right answers
# ("What must receivers use?").
_OBJECT_OPENERS = frozenset({"a", "an", "the", "one", "its", "their", "each", "every"})
_OBJECT_ENDS = frozenset(
    {"to", "that", "which", "who", "when", "where", "if", "but", "as", "so", "than", "because",
     "within", "across", "per", "between", "without", "under", "over", "via", "through", "during", "after",
     "before", "like", "including", "such", "unless", "until", "while"}
)  # fmt: skip
# Heads that name no kind of thing: "any number of label names" asks nothing by "What number ...".
_VAGUE_HEADS = frozenset(
    {"number", "way", "ways", "set", "lot", "kind", "type", "variety", "amount", "thing", "things", "one",
     "ones", "part", "parts", "list", "range", "bit", "couple", "form", "sort"}
)  # fmt: skip


# Heads that stand for their "of" phrase: "should describe the significance of the pieces of data" asks
# "What significance should a struct's name describe?" (the Rust book, 0 of 14 readings kept).
_ABSTRACT_HEADS = frozenset(
    {"significance", "importance", "meaning", "nature", "relevance", "essence", "gist"}
)


_DURATION = re.compile(  # "at least 90 days", "a minimum of 6 months", "a few weeks"
    r"(?:(?:at least|at most|up to|no more than|no less than|more than|less than|about|over|under"
    r"|(?:a\s+)?(?:minimum|maximum)\s+of)\s+)?(?:an?\s+)?"
    rf"{QUANTITY}\s+(?:consecutive\s+|full\s+|calendar\s+|business\s+|working\s+)?{TIME_UNITS}\b",
    re.IGNORECASE,
)


def object_head(answer: str) -> str:
    """The head noun of a rule's object ("the content type header to identify ..." -> "header"), or "" when
    the object has none a question can name (no article before it, a list, a vague noun)."""
    words = answer.split()
    if len(words) < 2 or words[0].lower() not in _OBJECT_OPENERS:
        return ""
    phrase = []
    for word in words[1:6]:
        bare = word.strip(".;:")
        if bare.lower() in ("and", "or", "&"):
            return ""  # two things joined: "the gcount and gsum values" is asked for whole
        if bare.lower() in _OBJECT_ENDS or bare.lower() in PREPOSITIONS or word.startswith("("):
            break
        if phrase and len(bare) >= 6 and bare.lower().endswith("ed"):
            break  # a participle after the noun: "the exposition format outlined in ..."
        phrase.append(bare.rstrip(","))
        if word.endswith((",", ";", ":")):
            return ""  # a listing: "a name, HELP, TYPE, and UNIT metadata"
    else:
        if len(words) > 6:
            return ""  # no end within five words: not a plain noun phrase
    named = [word for word in phrase if word.isalpha()]  # "the suffix _bucket": the suffix is asked for
    head = named[-1] if named else ""
    if not head or head.lower() in _VAGUE_HEADS:
        return ""
    after = words[len(phrase) + 1].lower() if len(words) > len(phrase) + 1 else ""
    if after == "of" and head.lower() in _ABSTRACT_HEADS:
        return ""  # "describe the significance of the pieces of data": not "What significance ...?"
    return head if head.isupper() or head[1:] != head[1:].lower() else head.lower()


def asks_one_thing(fact: Fact) -> bool:
    """Whether the fact's question has one right answer: a rule asked without what it is about ("What is
    required of X?", "What must receivers use?", "What should X not do?") has many."""
    if fact.pattern != "constraint":
        return True
    form = fact.slots.get("form")
    if form == "object":
        return bool(object_head(fact.answer))
    return form in ("passive", "passive_prep")


def asks_broadly(fact: Fact) -> bool:
    """Whether the fact's question asks what follows from the reader's own doing ("What happens when you
    create a dependency with yield?"): the docs often say several things follow and the sentence gives
    one (blind readers kept 28 of 60 such questions on four corpora, against two in three of the rest)."""
    s = fact.slots
    you = re.match(r"(?:you|we)\b", s.get("cond", ""), re.IGNORECASE)
    return fact.pattern == "cause" and s.get("form") == "effect" and not s.get("what") and bool(you)


def _other(fact: Fact) -> str:
    return lower_first(fact.slots.get("other", ""), frozenset(fact.lowercase_words))


def follow_up(fact: Fact, plural: bool | None = None, about: str = "") -> str:
    """The fact's question with its subject as a pronoun, lower-case, no mark ("what must it contain");
    ``plural`` is the number of the noun the pronoun stands for (default: the fact's own). A how-to says
    what it does to ``about`` (the first half's subject) by the pronoun: "how do you declare them"."""
    plural = fact.plural if plural is None else plural
    p, poss, obj = _PRONOUNS[plural]
    if fact.pattern == "procedure":
        return (
            f"how do you {_with_pronoun(fact.slots.get('goal', ''), about, obj)}"
            if fact.slots.get("goal")
            else ""
        )
    g = {"be": "are" if plural else "is", "do": "do" if plural else "does"}
    be, do, s = g["be"], g["do"], fact.slots
    how, form = s.get("how", ""), s.get("form", "")
    table: dict[str, Callable[[], str]] = {
        "definition": lambda: f"what {be} {p}",
        "purpose": lambda: (
            f"what is {poss} purpose" if how in ("purpose", "option")
            else f"what can {p} be used for" if how == "used" and s.get("modal")
            else f"what {be} {p} {how} for" if how in ("used", "designed", "meant", "intended", "responsible")
            else f"what {do} {p} {'do' if how == 'does' else how}" if how in ("does", "return")
            else f"what {do} {p} {how} {s.get('who') or 'you'}{'' if how in ('let', 'help') else ' to'} do"
        ),
        "default": lambda: f"what {do} {p} default to" if form == "verb" else f"what is {poss} default",
        "value": lambda: (
            f"what is {poss} {how}" if how in ("maximum", "minimum") else f"what {be} {p} {how} to"
        ),
        "constraint": lambda: _constraint_forms(fact, p, be)[0].replace("What", "what", 1),
    }  # fmt: skip
    if fact.pattern not in table:
        return ""
    text = table[fact.pattern]()
    text = text[:1].lower() + text[1:]
    return (
        text.replace(f"of {p}", f"of {obj}")
        .replace(f"for {p}", f"for {obj}")
        .replace(f"with {p}", f"with {obj}")
    )


def _with_pronoun(goal: str, subject: str, pronoun: str) -> str:
    """``goal`` with its mention of ``subject`` (and the article before it) as ``pronoun``, once."""
    bare = split_article(" ".join(subject.split()))[1]
    if not bare:
        return goal
    pattern = re.compile(
        r"\b(?:(?:a|an|the|your) )?"
        + re.escape(bare)
        + r"(s?)\b(?= (?:to|in|into|on|for|with|from|by|as|at)\b|$)",
        re.IGNORECASE,
    )
    m = pattern.search(goal)
    if m is None:
        return goal
    said = "them" if m.group(1) else pronoun
    return goal[: m.start()] + said + goal[m.end() :]


def in_setting(fact: Fact, key: str) -> bool:
    """Whether ``fact`` is about subject ``key`` in a setting ("if you create a dependency with yield" of
    "dependency"), not about the subject alone: its question names the setting, no pronoun can."""
    return fact.pattern != "procedure" and fact.key() != key


def pair_question(first: Fact, second: Fact, rng: random.Random) -> str:
    """Two facts about one subject, asked together: both contexts are needed."""
    opening = single_question(first, rng).rstrip("?")
    if in_setting(second, first.key()):
        return _finish(f"{opening}, and {lower_question(single_question(second, rng))}")
    return _finish(f"{opening}, and {follow_up(second, first.plural, about=first.focus)}")


def lower_question(question: str) -> str:
    """A question that goes on after a comma: its question word in lower case ("What" -> "what", not
    "PromQL" or "HTTP")."""
    first, _, rest = question.partition(" ")
    return f"{first.lower()} {rest}" if first.isalpha() and first[1:] == first[1:].lower() else question


def compare_question(a: Fact, b: Fact, rng: random.Random) -> str:
    """Two subjects of one theme, each defined or explained in its own context."""
    x, y = noun_phrase(a), noun_phrase(b)
    if a.pattern == b.pattern == "purpose":
        forms = [f"What are {x} and {y} each used for", f"How do {x} and {y} differ in what they are for"]
    else:
        # not "how do they relate": the two definitions in the reference do not say how
        forms = [f"What is the difference between {x} and {y}", f"How do {x} and {y} differ"]
    return _finish(rng.choice(forms))


def web_query(facts: list[Fact], rng: random.Random, *, compare: bool = False) -> str:
    """What a user types into a search box for these facts: content words, no filler, no mark."""
    if compare and len(facts) >= 2:
        a, b = noun_phrase(facts[0], bare=True), noun_phrase(facts[1], bare=True)
        return _search_case(rng.choice([f"{a} vs {b}", f"{a} {b} difference"]))
    if len(facts) >= 2 and in_setting(facts[1], facts[0].key()):
        return f"{web_query(facts[:1], rng)} and {web_query(facts[1:2], rng)}"
    if len(facts) >= 2:
        aspects = " and ".join(dict.fromkeys(_ASPECT.get(f.pattern, "") for f in facts))
        return _search_case(f"{noun_phrase(facts[0], bare=True)} {aspects}")
    fact = facts[0]
    bare, s = noun_phrase(fact, bare=True), fact.slots
    pattern, how = fact.pattern, s.get("how", "")
    options = {
        "definition": [f"what is {bare}", f"{bare} meaning", f"{bare} definition"],
        "purpose": [f"{bare} {_called(s)}", f"what is {bare} for"] if how == "option"
                   # a person is responsible, not used ("new hire use case": blind readers called it garbled)
                   else [f"{bare} responsibilities", f"what {_agree(fact)['be']} {bare} responsible for"]
                   if how == "responsible"
                   else [f"{bare} purpose", f"what {_agree(fact)['be']} {bare} used for", f"{bare} use case"]
                   if how in ("purpose", "used", "designed", "meant", "intended")
                   else [shortest_question(fact)],  # "what does X let you do": not a use of X
        "default": [f"{bare} default", f"default {bare}", f"{bare} default value"],
        "value": [f"{bare} {how}" if how in ("maximum", "minimum") else f"{bare} limit"],
        # a rule keeps its question's words ("what header must receivers use", "how long must teammates be
        # employed"): cut to keywords ("teammates employed") readers could not tell what it asks
        "constraint": [shortest_question(fact)],
        "procedure": [f"what must be used to {s['goal']}"] if s.get("requirement")
                     else [f"how to {s['goal']}", s["goal"]] if s.get("goal")
                     else [f"how {bare} {s.get('part', '')}"],
        "cause": [_cause_query(fact)],
        "comparison": [f"{bare} vs {_other(fact)}"],
    }  # fmt: skip
    return _search_case(rng.choice(options.get(pattern, [bare])))


def _cause_query(fact: Fact) -> str:
    """A condition keeps its words, "not" and "you" too: cut to keywords it loses what it asks."""
    if fact.slots.get("form") == "why":
        return f"why {fact.slots.get('inverted', '')}"
    return shortest_question(fact)


_ARTICLES = re.compile(r"\b(?:a|an|the)\s+", re.IGNORECASE)


def _search_case(text: str) -> str:
    """Lower case except code-like words (``scrape_interval``, ``NewRegistry``), no articles, no marks."""
    words = []
    for word in _ARTICLES.sub("", text).split():
        call = word.rstrip(".,;:!?\"'").endswith("()")  # "json()" is a function, "json" a format
        word = word.strip(".,;:!?\"'()") + ("()" if call else "")
        if not word.strip("()"):
            continue
        code = call or "_" in word or "." in word.strip(".") or re.search(r"[a-z][A-Z]", word)
        words.append(word if code else word.lower())
    return " ".join(_dedupe_adjacent(words))


def _dedupe_adjacent(words: list[str]) -> list[str]:
    return [w for i, w in enumerate(words) if i == 0 or w.lower() != words[i - 1].lower()]


def _finish(text: str) -> str:
    """One space between words, no doubled word, a capital first letter and one question mark."""
    words = _dedupe_adjacent(" ".join(text.split()).rstrip("?. ").split())
    out = " ".join(words).replace(" ,", ",")
    return out[:1].upper() + out[1:] + "?"
