"""Pairs of facts a multi-hop question needs both of.

``same_subject_pairs``: two chunks state different facts about one subject (a definition and a
default, a purpose and a rule), or one defines a subject and the other states a fact about it in a
setting ("a dependency" and "a dependency with yield"); neither chunk holds the other's answer, so
the question needs both.
``option_bridges``: an option whose default is another option ("preview.port" defaults to "server.port")
and that option's own default, on another page.
``comparable_pairs``: two subjects of one theme that the corpus lists as counterparts, or whose names
say they are (``siblings``: "server.port" and "preview.port", "classic" and "sparse histogram"), each
defined (or its purpose given) in its own chunk, for a comparison.

A shared word is not a shared subject ("box" in a diagram is not ``Box<T>``): the keys must be
equal, code-like names spelled the same, and the two chunks, or the two sentences, close in meaning
by the local WordLlama model. The thresholds are the 90th percentile of the cosine of random chunk
pairs (0.40) and of random sentence pairs (0.30) of the Prometheus docs, so a pair must be closer
than nine random pairs in ten; chunks of one document always share their terms' sense.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Iterator
from itertools import combinations

import numpy as np

from ...kg.graph import KnowledgeGraph, NodeKind
from ...text.lexical import folded, stops_of
from ...text.scripts import CJK
from ..questions.offline import term_pattern, term_words
from ..questions.templates import ORDER, asks_broadly, asks_one_thing, follow_up, in_setting
from .fact_index import FactIndex
from .facts import Fact, subject_key, written_as_code
from .topics import GENERIC_WORDS

__all__ = [
    "Together",
    "comparable_pairs",
    "comparable_subjects",
    "head_of",
    "option_bridges",
    "paired_subjects",
    "same_subject_pairs",
    "siblings",
]

CHUNK_SENSE = 0.40
SENTENCE_SENSE = 0.30
SAME_STATEMENT = 0.9  # two definitions this close say the same thing (a copied page)
RESTATED = 0.85  # two facts this close state one rule twice ("must use an empty LabelSet {}")
KINSHIP = 0.35  # two definitions' predicates ("a cumulative metric", "a metric") at least this close
MIN_CO_MENTIONS = 2  # chunks naming both subjects: what shows the corpus relates them
PAIRABLE = frozenset({"definition", "purpose", "default", "value", "constraint"})
COMPARABLE = frozenset({"definition", "purpose"})
MAX_PAIRS_PER_SUBJECT = 2  # one subject opens at most two questions of a set
# A large corpus is searched in a sample, so that a test set's cost does not grow with the square of it:
# at most this many definitions and purposes are compared (every two of them are scored), and this many
# chunks are read for where subjects are named. Prometheus, the handbook, FastAPI and the Node.js API
# reference hold 26 to 353 comparable facts and 665 to 6,165 chunks; a 105,000-chunk build held 10,000
# and more, and comparing them all took 3.5 GB and more than ten minutes.
MAX_COMPARED = 2_000
MAX_NAMING_CHUNKS = 20_000
# A subject named on more than this share of the pages (and more than three) is the corpus's vocabulary, not
# one thing two pages state facts about: "What is an API, and how should APIs be treated?" (Node.js API docs,
# 55 of 64 pages), "What do labels let you do, and why must ...?" (Prometheus, 28 of 72). Blind readers kept 1
# of 8 such cross-page pairs (three corpora), and 2 of 3 of subjects fewer pages name.
MAX_ACROSS_SHARE = 0.2
MIN_ACROSS_PAGES = 3

Located = tuple[str, Fact]  # (chunk id, fact)


def same_subject_pairs(
    kg: KnowledgeGraph, index: FactIndex, rng: random.Random, *, settings: bool = True
) -> Iterator[tuple[Located, Located]]:
    """(first, second) pairs, the first asked first (what it is before what it must do); pairs across
    documents come before pairs within one, in a seed-determined order otherwise."""
    by_key = _by_subject(index, settings=settings)
    candidates: list[tuple[bool, Located, Located]] = []
    for key in sorted(by_key):
        found = []
        for a, b in combinations(by_key[key], 2):
            pair = _ordered(a, b, key)
            if pair is not None:
                found.append(pair)
        rng.shuffle(found)
        for first, second in found[: MAX_PAIRS_PER_SUBJECT * 3]:
            across = kg.get(first[0])["document"] != kg.get(second[0])["document"]
            if across and index.is_scope(first[1]):
                continue  # two pages' facts about the product itself: two unrelated features, stitched
            candidates.append((across, first, second))
    rng.shuffle(candidates)
    candidates.sort(key=lambda item: not item[0])  # across documents first, order kept otherwise
    widespread = _Widespread(kg)
    per_key: dict[str, int] = defaultdict(int)
    asked: set[str] = set()  # each fact in one question: readers called two "What is a classic histogram,
    # and ..." in one set repetitive, whatever their second halves
    for across, first, second in candidates:
        key = first[1].key()
        if per_key[key] >= MAX_PAIRS_PER_SUBJECT or {first[1].reference, second[1].reference} & asked:
            continue
        if across and widespread(key):
            continue
        restated = index.similarity(first[1].reference, second[1].reference) >= RESTATED
        if not restated and _needs_both(kg, first, second) and _same_sense(kg, index, first, second, across):
            per_key[key] += 1
            asked.update((first[1].reference, second[1].reference))
            yield first, second


def option_bridges(kg: KnowledgeGraph, index: FactIndex) -> Iterator[tuple[Located, Located]]:
    """(an option's default, the option it defaults to): "preview.host" defaults to "server.host", whose own
    default is on another page. The question asks both; what the first
    option really starts at needs the second context."""
    options: dict[str, dict[str, Located]] = defaultdict(dict)
    for chunk in sorted(index.facts):
        for fact in index.facts[chunk]:
            if fact.slots.get("form") == "option" or fact.slots.get("how") == "option":
                options[fact.focus].setdefault(fact.pattern, (chunk, fact))
    for name in sorted(options):
        first = options[name].get("default")
        target = first[1].answer.strip("`'\" []") if first else ""
        if first is None or target == name or target not in options or not written_as_code(target):
            continue  # a value that is a word ("all") is no reference to the option of that name
        second = options[target].get("default")  # what the first one starts at: not what the second sets
        if second is None or second[0] == first[0]:
            continue
        # a value such as "false" is on every options page: what the first page lacks is the second's line
        said = folded(second[1].reference.split(": ", 1)[-1])
        if said not in folded(kg.get(first[0])["text"]):
            yield first, second


def _by_subject(index: FactIndex, *, settings: bool = True) -> dict[str, list[Located]]:
    """The facts a pair can be made of, by subject key: those of the subject, its how-tos, and (with
    ``settings``) the facts about it in a setting."""
    by_key: dict[str, list[Located]] = defaultdict(list)
    for chunk in sorted(index.facts):
        for fact in index.facts[chunk]:
            # each half has one answer: one such fact of its subject, and a question that names what it asks
            if fact.pattern in PAIRABLE and index.unambiguous(fact) and asks_one_thing(fact):
                by_key[fact.key()].append((chunk, fact))
    _add_how_tos(by_key, index)
    if settings:
        _add_settings(by_key, index)
    return by_key


def paired_subjects(kg: KnowledgeGraph, index: FactIndex) -> tuple[int, int, int]:
    """(subjects with a fact a pair can use, those with such facts in two passages, those of them whose
    facts are on two pages only and that so many pages name that two pages' facts are not joined): why a
    corpus has few multi-hop questions offline."""
    by_key = _by_subject(index)
    twice = {key for key, found in by_key.items() if len({chunk for chunk, _ in found}) >= 2}
    widespread = _Widespread(kg)
    common = {
        key
        for key in twice
        if widespread(key) and not _one_page_twice(kg, [chunk for chunk, _ in by_key[key]])
    }
    return len(by_key), len(twice), len(common)


def _one_page_twice(kg: KnowledgeGraph, chunks: list[str]) -> bool:
    """Whether two of ``chunks`` are passages of one document."""
    documents = [kg.get(chunk)["document"] for chunk in dict.fromkeys(chunks)]
    return len(set(documents)) < len(documents)


def _add_how_tos(by_key: dict[str, list[Located]], index: FactIndex) -> None:
    """A how-to whose goal names a subject the corpus defines joins that subject's facts: "What is a
    cookie parameter, and how do you declare it?" needs the definition from one page and the steps from
    another. Tutorials state few facts twice about one subject, but define a thing and show how to use it."""
    defined = {key for key, found in by_key.items() if any(f.pattern in COMPARABLE for _, f in found)}
    for chunk in sorted(index.facts):
        for fact in index.facts[chunk]:
            goal = fact.slots.get("goal", "")
            if fact.pattern != "procedure" or not goal or not index.unambiguous(fact):
                continue
            key = _object_of(goal)
            if key in defined and not index.is_scope_key(key):
                by_key[key].append((chunk, fact))


MAX_SETTINGS_PER_SUBJECT = 2  # "What is a dependency, and ..." opens at most two questions of a set


def _add_settings(by_key: dict[str, list[Located]], index: FactIndex) -> None:
    """A fact about a defined subject in a setting joins that subject's facts: "What is a dependency, and
    what happens if you create a dependency with yield?" needs the definition from one page and the
    behaviour from another. Most subjects are defined once and stated again only in such a setting, so
    without them few corpora have a multi-hop question at all. The subject must be the setting's head
    noun ("a dependency with yield"), not a modifier ("a counter reset hint" is not about counters)."""
    defined = sorted(
        key
        for key, found in by_key.items()
        if any(f.pattern in COMPARABLE for _, f in found) and not index.is_scope_key(key)
    )
    found: dict[str, list[Located]] = defaultdict(list)
    starting = _by_opening(defined)
    for chunk in sorted(index.facts):
        for fact in index.facts[chunk]:
            alone = fact.pattern in COMPARABLE or fact.pattern == "procedure"  # how-tos: ``_add_how_tos``
            if alone or not index.unambiguous(fact) or index.is_scope(fact) or asks_broadly(fact):
                continue
            for key in _may_name(starting, fact.focus):
                if key != fact.key() and head_of(key, fact.focus):
                    found[key].append((chunk, fact))
    for key, located in found.items():
        by_key[key].extend(located[:MAX_SETTINGS_PER_SUBJECT])


_WORD_OPENING = re.compile(r"(?<!\w)\w{1,2}")  # the first two characters of each word
_CJK_CHAR = re.compile(rf"[{CJK}]")


def _by_opening(keys: list[str]) -> dict[str, list[str]]:
    """``keys`` by the first two characters of their first word, lower-cased: a phrase names a key (as
    ``term_pattern`` finds it, at a word's start, in any case and number) only where one of its words opens
    so. Keys that may start inside a word (CJK, a first character that is no word character) or whose first
    word has fewer than two word characters ("a b" names "ab" too) are under "", tried against every phrase.
    Without it every fact of a 100,000-chunk corpus was tried against each of thousands of defined keys."""
    starting: dict[str, list[str]] = defaultdict(list)
    for key in keys:
        words = term_words(key)
        if not words:
            continue
        opening = words[0][:2]
        plain = re.fullmatch(r"\w\w", opening) is not None and not _CJK_CHAR.search(opening)
        starting[opening.lower() if plain else ""].append(key)
    return starting


def _may_name(starting: dict[str, list[str]], phrase: str) -> list[str]:
    """The keys of ``starting`` (``_by_opening``) that ``phrase`` may name: those whose opening one of its
    words has, and those under ""."""
    openings = {match.group(0).lower() for match in _WORD_OPENING.finditer(phrase)}
    return starting.get("", []) + [key for opening in openings for key in starting.get(opening, [])]


def head_of(key: str, phrase: str) -> bool:
    """Whether ``phrase`` names ``key`` as a head noun: a function word (or nothing) on either side."""
    pattern = term_pattern(key)
    if pattern is None:
        return False
    stop = stops_of("en")
    for match in pattern.finditer(phrase):
        before = phrase[: match.start()].split()
        after = phrase[match.end() :]
        if after[:1] not in ("", " ", ",", ";", ":", ")"):
            continue  # "instance's endpoint", "counter-based"
        following = [word.casefold().strip(",;:)") for word in after.split()[:1]]
        if all(word in stop for word in [*(w.casefold() for w in before[-1:]), *following]):
            return True
    return False


_GOAL_OBJECT = re.compile(
    r"^[a-z]+ (?:(?:a|an|the|your|new|custom) )?(?P<object>[^,;:()]+?)"
    r"(?: (?:to|in|into|on|for|with|from|by|as|at|of|so|that|when|if)\b.*)?$"
)


def _object_of(goal: str) -> str:
    """The subject key of what a how-to's verb acts on ("declare cookie parameters" -> "cookie parameter";
    "enable the Prometheus server to scrape ..." -> "prometheus server"): the thing the steps are about."""
    m = _GOAL_OBJECT.match(" ".join(goal.split()))
    return subject_key(m["object"]) if m else ""


def _ordered(a: Located, b: Located, key: str) -> tuple[Located, Located] | None:
    (chunk_a, fa), (chunk_b, fb) = a, b
    how_to = "procedure" in (fa.pattern, fb.pattern)
    if chunk_a == chunk_b or fa.pattern == fb.pattern == "procedure":
        return None
    settings = [f for f in (fa, fb) if in_setting(f, key)]
    if settings:  # what the subject is, then the fact about it in a setting: not two settings
        if len(settings) == 2 or (fb if settings[0] is fa else fa).pattern not in COMPARABLE:
            return None
        return (b, a) if settings[0] is fa else (a, b)
    if not how_to and not _same_spelling(fa.focus, fb.focus):
        return None
    if fa.pattern == fb.pattern in ("definition", "purpose") or folded(fa.answer) == folded(fb.answer):
        # two definitions, or two purposes ("What does the Debug trait allow, and what does it enable you to
        # do?", the Rust book: both readers failed it), repeat each other; one answer twice is one fact
        return None
    first, second = sorted((a, b), key=lambda item: (ORDER.index(item[1].pattern), item[1].reference))
    asked = follow_up(second[1])
    if not asked or asked == follow_up(first[1]) or _same_rule(first[1], second[1]):
        return None  # "what must it have, and what must it have": one question twice
    return first, second


def _same_rule(a: Fact, b: Fact) -> bool:
    """Two rules with the same verb ("must support", "should support") ask one thing twice."""
    return a.pattern == b.pattern == "constraint" and a.slots.get("verb") == b.slots.get("verb")


def _same_spelling(a: str, b: str) -> bool:
    if written_as_code(a) or written_as_code(b):
        return a == b
    return True


class _Widespread:
    """Whether a subject is named on so many pages (``MAX_ACROSS_SHARE``) that two of them need not mean one
    thing by it (each key counted once)."""

    def __init__(self, kg: KnowledgeGraph) -> None:
        self.together = Together(kg)
        self._pages = 0.0  # known at the first call: it reads the texts
        self._found: dict[str, bool] = {}

    def __call__(self, key: str) -> bool:
        if key not in self._found:
            kg = self.together.kg
            self._pages = self._pages or max(MIN_ACROSS_PAGES, MAX_ACROSS_SHARE * self.together.documents())
            documents = {kg.get(chunk)["document"] for chunk in self.together.chunks(key)}
            self._found[key] = len(documents) > self._pages
        return self._found[key]


def _needs_both(kg: KnowledgeGraph, first: Located, second: Located) -> bool:
    """Neither chunk states the other's answer (else one context would do)."""
    text_first, text_second = folded(kg.get(first[0])["text"]), folded(kg.get(second[0])["text"])
    return folded(second[1].answer) not in text_first and folded(first[1].answer) not in text_second


def _same_sense(kg: KnowledgeGraph, index: FactIndex, first: Located, second: Located, across: bool) -> bool:
    if not across:
        return True
    if index.similarity(first[1].reference, second[1].reference) >= SENTENCE_SENSE:
        return True
    return index.similarity(kg.get(first[0])["text"], kg.get(second[0])["text"]) >= CHUNK_SENSE


def _comparable(index: FactIndex) -> list[Located]:
    """Definitions and purposes a comparison can use: not the product itself (a whole page compares it,
    not one sentence), nor whose job something is ("the new hire" and "the People Team" are both
    responsible for something: no comparison)."""
    return [
        (chunk, fact)
        for chunk in sorted(index.facts)
        for fact in _with_option_defaults(index.facts[chunk])
        if (fact.pattern in COMPARABLE or fact.slots.get("form") == "option")
        and not index.is_scope(fact)
        and fact.slots.get("how") != "responsible"
    ]


def _with_option_defaults(facts: list[Fact]) -> list[Fact]:
    """A chunk's facts with an option's purpose replaced by its default, whose reference says what the
    option sets too: two options compared by what they set alone ("Geben Sie den Serverport an", "Legen Sie
    den Serverport fest") show no difference, their defaults (5173, 4173) do."""
    defaults = {f.focus: f for f in facts if f.slots.get("form") == "option"}
    return [f for f in facts if not (f.slots.get("how") == "option" and f.focus in defaults)]


def comparable_subjects(index: FactIndex) -> int:
    """How many subjects a comparison could be made of (each needs a counterpart the docs name with it)."""
    return len({fact.key() for _, fact in _comparable(index)})


def comparable_pairs(
    kg: KnowledgeGraph, index: FactIndex, rng: random.Random
) -> Iterator[tuple[str, Located, Located]]:
    """(theme, a, b): two different subjects, both defined (or both explained by purpose) in two chunks
    that share a theme or a document; their definitions close in kind, and the corpus naming the two
    in at least two chunks and listing them as counterparts in a sentence ("counters, gauges and
    histograms"; "PromQL" and "a classic histogram" are not). The closest pairs first, each subject in
    two pairs at most."""
    items = _comparable(index)
    if len(items) < 2:
        return
    if len(items) > MAX_COMPARED:  # a seeded sample, in the order of the corpus
        items = [items[k] for k in sorted(rng.sample(range(len(items)), MAX_COMPARED))]
    vectors = index.vectors([fact.reference for _, fact in items])
    similarity = vectors @ vectors.T
    predicates = index.vectors([fact.answer for _, fact in items])
    kinship = predicates @ predicates.T
    named = Together(kg)
    scored: list[tuple[float, float, int, int, str]] = []
    for i, j in zip(*np.triu_indices(len(items), k=1), strict=True):
        (chunk_a, a), (chunk_b, b) = items[i], items[j]
        if chunk_a == chunk_b or a.key() == b.key() or a.pattern != b.pattern:
            continue
        if not SENTENCE_SENSE <= similarity[i, j] < SAME_STATEMENT or kinship[i, j] < KINSHIP:
            continue
        if a.key() in b.key() or b.key() in a.key() or " and " in f"{a.focus} {b.focus}":
            continue  # "metric" and "metric type"; "the Bucket field and the Bucket message"
        options = [f for f in (a, b) if f.slots.get("form") == "option"]
        # one head noun says two settings are counterparts ("diff-src-prefix", "diff-dst-prefix"); of two
        # defined things it does not: readers failed 4 of 4 such ("the retry and the redirect interceptor")
        kin = siblings(a.key(), b.key(), heads=len(options) == 2)
        if options and (not kin or not all(f.slots.get("described") for f in options)):
            continue  # settings' defaults ("name", "scopes": both null) compare nothing but as described kin
        if not kin:
            together = named.chunks(a.key()) & named.chunks(b.key())
            if len(together) < MIN_CO_MENTIONS or not named.listed(a.key(), b.key()):
                continue  # one sentence naming both is not enough: "an alert" and "a mixin", "Lattice" and
                # "the Lattice Slack integration" were named together and readers found nothing to compare
        theme = _shared_theme(kg, chunk_a, chunk_b) or kin
        if theme:
            scored.append((float(similarity[i, j]), rng.random(), int(i), int(j), theme, kin))
    scored.sort(key=lambda row: (-round(row[0], 1), row[1]))  # close pairs first, shuffled within a band
    used: dict[str, int] = defaultdict(int)
    asked: set[frozenset[str]] = set()
    # One comparison of each kin and of each two namespaces: four of eleven comparisons of a Node.js API set
    # were "X.desiredSize vs Y.desiredSize", two more "node.fs.sync"/".async" against "node.threadpoolwork"
    # (blind reader: "they pass one by one, but a golden set would want more variety").
    kins: set[str] = set()
    namespaces: set[frozenset[str]] = set()
    for _, _, i, j, theme, kin in scored:
        a, b = items[i], items[j]
        pair = frozenset((a[1].key(), b[1].key()))
        if used[a[1].key()] >= 2 or used[b[1].key()] >= 2 or pair in asked:
            continue
        spaces = frozenset(key.rsplit(".", 1)[0] for key in pair if "." in key)
        if kin and (kin in kins or spaces in namespaces):
            continue
        if kin:
            kins.add(kin)
            if len(spaces) == 2:
                namespaces.add(spaces)
        asked.add(pair)
        used[a[1].key()] += 1
        used[b[1].key()] += 1
        yield theme, a, b


def siblings(a: str, b: str, *, heads: bool = True) -> str:
    """What two subject keys are both kinds of, when their names say they are counterparts: the same option
    in two namespaces ("server.port", "preview.port": "port") or (``heads``) one head noun with other
    modifiers ("diff src prefix", "diff dst prefix": "prefix"); "" otherwise."""
    leaf_a, leaf_b = a.rsplit(".", 1), b.rsplit(".", 1)
    if (
        len(leaf_a) == len(leaf_b) == 2
        and " " not in a + b
        and leaf_a[1] == leaf_b[1]
        and leaf_a[0] != leaf_b[0]
    ):
        return leaf_a[1]
    if not heads:
        return ""
    words_a, words_b = a.split(), b.split()
    short = all(2 <= len(words) <= _MAX_SIBLING_WORDS for words in (words_a, words_b))
    if not short or words_a[-1] != words_b[-1] or {"and", "or", "of", "in"} & {*words_a, *words_b}:
        return ""
    modifiers = {*words_a[:-1], *words_b[:-1]}
    if (modifiers | {words_a[-1]}) & (GENERIC_WORDS | _NO_KIND):
        return ""  # "a single sample" is no kind of sample beside "a native histogram sample"
    return words_a[-1] if words_a[:-1] != words_b[:-1] and a not in b and b not in a else ""


_NO_KIND = frozenset(
    {"single", "multiple", "one", "two", "many", "few", "own", "only", "each", "every", "any"}
)


_MAX_SIBLING_WORDS = 3


class Together:
    """Where the corpus names subjects (by key, cached) and whether it names two of them together: in one
    sentence ("counters and gauges are ..."), or as items of one list ("counters, gauges or histograms"),
    which is what makes two subjects counterparts rather than a thing and one of its parts ("label names
    must be unique within a LabelSet"). Whole words only: "alert" is not in "alerting rules"."""

    def __init__(self, kg: KnowledgeGraph) -> None:
        self.kg = kg
        self._texts: dict[str, str] | None = None
        self._chunks: dict[str, set[str]] = {}
        self._sentences: dict[str, list[str]] = {}  # of the chunks two subjects were looked for in

    def texts(self) -> dict[str, str]:
        """Every chunk's text, case-folded, hyphens as spaces (read once); in a corpus of more than
        ``MAX_NAMING_CHUNKS`` chunks, those of a sample (the same for every run on the graph)."""
        if self._texts is None:
            chunks = self.kg.nodes(NodeKind.CHUNK)
            if len(chunks) > MAX_NAMING_CHUNKS:
                picked = random.Random(len(chunks)).sample(range(len(chunks)), MAX_NAMING_CHUNKS)
                chunks = [chunks[k] for k in sorted(picked)]
            self._texts = {
                c: " ".join(self.kg.get(c)["text"].casefold().replace("-", " ").split()) for c in chunks
            }
        return self._texts

    def documents(self) -> int:
        """How many documents the chunks read are of (all of them, but in a sample)."""
        return len({self.kg.get(c)["document"] for c in self.texts()})

    def chunks(self, key: str) -> set[str]:
        """The chunks whose text names ``key``."""
        if key not in self._chunks:
            named = _named(key)
            self._chunks[key] = {c for c, text in self.texts().items() if key in text and named.search(text)}
        return self._chunks[key]

    def sentences(self, a: str, b: str) -> Iterator[str]:
        """The sentences naming both ``a`` and ``b``."""
        named_a, named_b = _named(a), _named(b)
        for chunk in sorted(self.chunks(a) & self.chunks(b)):
            if chunk not in self._sentences:
                self._sentences[chunk] = _SENTENCE_END.split(self.texts()[chunk])
            for sentence in self._sentences[chunk]:
                if named_a.search(sentence) and named_b.search(sentence):
                    yield sentence

    def in_one_sentence(self, a: str, b: str) -> bool:
        return next(self.sentences(a, b), None) is not None

    def listed(self, a: str, b: str) -> bool:
        """Whether a sentence lists ``a`` and ``b`` as items of one list, either first."""
        for sentence in self.sentences(a, b):
            for first, second in ((a, b), (b, a)):
                for match in _named(first).finditer(sentence):
                    at = _named(second).search(sentence, match.end())
                    if at is not None and _LISTED.fullmatch(sentence[match.end() : at.start()]):
                        return True
        return False


def _named(key: str) -> re.Pattern[str]:
    """The key as a whole term, singular or plural (``term_pattern``); an empty key names nothing."""
    return term_pattern(key) or _NOTHING


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_NOTHING = re.compile(r"(?!)")
# Between two items of one list: other items, then "and"/"or" ("counters, gauges and histograms").
_LISTED = re.compile(
    r"(?:,\s+[\w./'’-]+(?:\s+[\w./'’-]+){0,3})*,?\s+(?:and|or|nor|vs\.?|versus)\s+(?:(?:the|a|an)\s+)?"
    r"|,\s+(?:(?:the|a|an)\s+)?"
)


def _shared_theme(kg: KnowledgeGraph, chunk_a: str, chunk_b: str) -> str:
    data_a, data_b = kg.get(chunk_a), kg.get(chunk_b)
    themes_b = {t.casefold() for t in data_b.get("themes") or []}
    for theme in data_a.get("themes") or []:
        if theme.casefold() in themes_b:
            return theme
    if data_a["document"] == data_b["document"]:
        title = kg.get(data_a["document"]).get("title") or data_a["source"]
        return str(title)
    return ""
