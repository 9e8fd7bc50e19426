"""The offline support judge: does a context state what a statement says? Word evidence and WordLlama
vectors, not a model, so it is deterministic and offline.

A statement is supported when nearly all its content words occur in the context (``SUPPORT_RATIO``),
or when it rewords the context: at least half its words occur there literally or as a close word
("began" for "started") and it is close to one context sentence, with no clause the context lacks.
Either way the strict checks veto: every number (in digits or words), date word, path and name must
occur in the context, a number or date beside the words it is about, and what the statement negates
the context must not state without a negation (what it affirms, the context must not only negate).
``overlap`` grades how much of a statement a text states, for correctness: a share, 0 on disagreement.
Words, numbers and negations are read by ``text.lexical``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import lexical
from .language import detect_language, language_code
from .stems import stem as stem_word

# A rewording is supported when at least half its content words occur in the context, literally or as a
# close word (the judge set's faithful rewordings share about half their words with their contexts; a
# sentence of the Prometheus docs shares half with an unrelated passage of them under 1% of the time) ...
SEMANTIC_RATIO = 0.5
# ... and it is this close (cosine) to one context sentence: 95% of the docs' sentences stay below 0.43
# against the closest sentence of an unrelated five-sentence passage.
SEMANTIC_CLOSENESS = 0.45
# A clause of at least three content words of which under a quarter occur in the context is a claim it
# does not make ("..., which restarts the target"); a reworded clause keeps some of its words.
CLAUSE_WORDS = 3
CLAUSE_SHARE = 0.25
# Two words this close (cosine) are one word in two forms or near-synonyms: "began"/"started" 0.81,
# "finished"/"completed" 0.63, "reached"/"reachable" 0.56; 99.9% of random pairs of words of the
# Prometheus docs stay below 0.37.
WORD_MATCH = 0.5
_ISO_DATE = re.compile(r"\b\d{4}-(\d{2})-(\d{2})\b")
_WHOLE_WORD = re.compile(r"[a-z]{3,}")
_VECTORS: dict[str, np.ndarray] = {}
_MAX_VECTORS = 200_000


@dataclass(frozen=True)
class LexicalVerdict:
    supported: bool
    reason: str


@functools.cache
def _embeddings() -> Any:
    from ..core.wordllama_embeddings import WordLlamaEmbeddings

    return WordLlamaEmbeddings()


def _word_vectors(found: list[str]) -> np.ndarray:
    """One unit row per word; a word is embedded once per process (a corpus keeps reusing its words)."""
    rows = {w: _VECTORS.get(w) for w in dict.fromkeys(found)}
    if new := [w for w, row in rows.items() if row is None]:
        rows.update(zip(new, _embeddings().embed_matrix(new), strict=True))
        if len(_VECTORS) + len(new) > _MAX_VECTORS:
            _VECTORS.clear()
        _VECTORS.update((w, rows[w]) for w in new)
    return np.vstack([rows[w] for w in found])


@functools.lru_cache(maxsize=65536)
def common_word(word: str) -> bool:
    """A frequent English word: one token of WordLlama's 32k vocabulary ("work", "roughly", "support").
    Rare names are split into pieces ("graphite", "envoy", "kubernetes")."""
    from ..core.wordllama_embeddings import shared_model

    folded = word.casefold()
    if not _WHOLE_WORD.fullmatch(folded):
        return False
    return len(shared_model().tokenizer.encode(folded, add_special_tokens=False).ids) == 1


class Meaning:
    """A context's sentences and content words as WordLlama vectors, each embedded on first use."""

    def __init__(self, sentences: list[str], content: list[str]) -> None:
        self.sentences = sentences
        self.words = sorted(set(content))
        self._sentence_vectors: np.ndarray | None = None
        self._word_vectors: np.ndarray | None = None

    def closest(self, statement: str) -> float:
        """The cosine of the statement to its closest context sentence."""
        if not self.sentences:
            return 0.0
        if self._sentence_vectors is None:
            self._sentence_vectors = _embeddings().embed_matrix(self.sentences)
        return float(np.max(self._sentence_vectors @ _embeddings().embed_matrix([statement])[0]))

    def close(self, found: list[str]) -> list[tuple[float, list[str]]]:
        """Per word, its cosine to the closest context word, and the context words at least
        ``WORD_MATCH`` close to it."""
        if not found or not self.words:
            return [(0.0, []) for _ in found]
        if self._word_vectors is None:
            self._word_vectors = _word_vectors(self.words)
        cosines = _word_vectors([w.casefold() for w in found]) @ self._word_vectors.T
        return [
            (float(row.max()), [self.words[j] for j in np.flatnonzero(row >= WORD_MATCH)]) for row in cosines
        ]


def _is_fact(word: str, code: str, named: bool = True) -> bool:
    """A number or a month: what a clause states about its other words. With ``named`` a month must be
    capitalised ("May", not "may"); casefolded content words hold no "may" to confuse."""
    folded = word.casefold()
    month = folded in lexical.MONTHS and (word[:1].isupper() or not named)
    return bool(lexical.NUMBER.fullmatch(word)) or month or (code == "en" and folded in lexical.NUMBER_WORDS)


@dataclass(frozen=True)
class _Facts:
    """The stems, terms and numbers of a context or one of its sentences, and whether it negates."""

    stems: set[str]
    terms: set[str]
    numbers: set[str]
    negates: bool = False

    @classmethod
    def of(cls, text: str, found: list[str], code: str) -> _Facts:
        numbers = lexical.numbers(text, found, code)
        terms = {w.casefold() for w in found} | numbers | set(lexical.PATH.findall(text))
        terms |= {w.split("-")[0].casefold() for w in found if "-" in w}  # "RRD-style" names RRD
        for month, day in _ISO_DATE.findall(text):  # "2026-07-01" is 1 July
            if 1 <= int(month) <= 12:
                terms.add(lexical.MONTHS[int(month) - 1])
                numbers.add(str(int(day)))
        content = lexical.content_of(found, code)
        stems = {stem_word(w, code) for w in content}
        stems |= {stem_word(part, code) for w in content if "-" in w for part in w.split("-")}
        negates = any(w.casefold() in lexical.negations_of(code) for w in found)
        return cls(stems, terms | numbers, numbers, negates)

    def mentions(self, term: str) -> bool:
        is_number = lexical.NUMBER.fullmatch(term) or term in lexical.NUMBER_WORDS
        return term in self.terms or bool(is_number and lexical.same_number(term, self.numbers))


@dataclass(frozen=True)
class _Reading:
    """A statement as the judge reads it: content stems (to their words), the stems a close word may
    stand for, numbers, critical terms, opening capitals, answer particle, polarity, and clauses."""

    stems: dict[str, str]
    plain: set[str]
    numbers: set[str]
    critical: set[str]
    initials: list[str]
    particle: str | None
    negated: set[str]
    affirmed: set[str]
    scoped: set[str]
    clauses: list[tuple[str, list[str]]]  # text and words


def _plain(found: list[str], code: str, where: lexical.Layout) -> set[str]:
    """Stems of the words a close word may stand for: written in lowercase (a capital marks a name,
    unless it opens a sentence and is a common word), and not the unit of a number ("six weeks" is not
    "six months", though the two words are close)."""
    plain, after_number = set(), 0
    for index, word in enumerate(found):
        folded = word.casefold()
        if lexical.NUMBER.fullmatch(folded) or folded in lexical.NUMBER_WORDS:
            after_number = 2
            continue
        if lexical.is_function_word(folded, code, lexical.stops_of(code)):
            after_number = max(after_number - 1, 0)
            continue
        opening = index in where.sentences and common_word(folded)
        if word.isalpha() and (word.islower() or opening) and not after_number:
            plain.add(stem_word(folded, code))
        after_number = 0
    return plain


def _particles(found: list[str], code: str, where: lexical.Layout) -> set[str]:
    """The answer particles that open the sentences of a text ("No. It is disabled by default")."""
    return {said for start in where.sentences if (said := lexical.particle(found, code, where, start)[0])}


def _parts_found(word: str, stems: set[str], code: str) -> bool:
    """A compound ("security-update") whose every part occurs ("security update cronjobs")."""
    parts = [p for p in word.split("-") if p]
    return len(parts) > 1 and all(stem_word(part, code) in stems for part in parts)


class LexicalContext:
    """A context prepared once for judging many statements against it, in the context's language
    (``lang=None`` detects it: one detection per context, and statements are read the same way).
    Close words and sentences (``Meaning``) are English only: WordLlama's vocabulary is English."""

    def __init__(self, text: str, lang: str | None = None) -> None:
        self.lang = language_code(lang) if lang else detect_language(text)
        found = lexical.words(text, self.lang)  # tokenised once: every reading below uses it
        where = lexical.layout(text, self.lang)
        self.facts = _Facts.of(text, found, self.lang)
        self.stems, self.terms, self.numbers = self.facts.stems, self.facts.terms, self.facts.numbers
        bounds = [*where.sentences, len(found)]
        self.sentences = [
            _Facts.of(sentence, found[a:b], self.lang)
            for sentence, a, b in zip(where.texts, bounds, bounds[1:], strict=False)
        ]
        self.negated, self.affirmed, scopes = lexical.scoped_polarity(found, self.lang, where)
        self.scoped = set().union(*scopes)
        self.particles = _particles(found, self.lang, where)
        content = lexical.content_of(found, self.lang)
        self.meaning = Meaning(list(where.texts) or [text], content) if self.lang == "en" else None

    def _read(self, statement: str) -> _Reading:
        found = lexical.words(statement, self.lang)
        where = lexical.layout(statement, self.lang)
        said, start = lexical.particle(found, self.lang, where)
        body, shifted = found[start:], where.shifted(start)
        negated, affirmed, scopes = lexical.scoped_polarity(body, self.lang, shifted)
        return _Reading(
            stems={stem_word(w, self.lang): w for w in lexical.content_of(body, self.lang)},
            plain=_plain(body, self.lang, shifted) if self.meaning is not None else set(),
            numbers=lexical.numbers(statement, found, self.lang),
            critical=lexical.critical_of(statement, found, self.lang, where),
            initials=lexical.initial_names(body, self.lang, shifted),
            particle=said,
            negated=negated,
            affirmed=affirmed,
            scoped=set().union(*scopes),
            clauses=[
                (shifted.between(a, b), body[a:b]) for a, b in lexical.clauses(body, self.lang, shifted)
            ],
        )

    def _found(self, stems: dict[str, str], plain: set[str]) -> list[float]:
        """Per content word, how surely it occurs here: 1 literally or as the same number or date ("six"
        for "6", "8,849" for "8,848.86", "July" for "2026-07-01"); if ``plain``, as a close word, its
        closeness (a near-synonym is weaker evidence than the word); else 0."""
        hits = [
            float(
                stem in self.stems or self.facts.mentions(word) or _parts_found(word, self.stems, self.lang)
            )
            for stem, word in stems.items()
        ]
        near = [i for i, (stem, hit) in enumerate(zip(stems, hits, strict=True)) if not hit and stem in plain]
        if self.meaning is not None and near:
            found = list(stems.values())
            for i, (closeness, _) in zip(near, self.meaning.close([found[i] for i in near]), strict=True):
                hits[i] = closeness if closeness >= WORD_MATCH else 0.0
        return hits

    def _share(self, reading: _Reading, asked: frozenset[str] = frozenset()) -> float:
        """The share of the statement's content words ``_found`` here (1.0 for none), leaving out the
        ``asked`` ones (the question's words) unless nothing else is left."""
        stems = {s: w for s, w in reading.stems.items() if s not in asked} or reading.stems
        return sum(self._found(stems, reading.plain)) / len(stems) if stems else 1.0

    def stems_of(self, text: str) -> frozenset[str]:
        """The content stems of ``text`` read in this context's language (e.g. a question's words)."""
        found = lexical.words(text, self.lang)
        return frozenset(stem_word(w, self.lang) for w in lexical.content_of(found, self.lang))

    def _unsupported_clause(self, reading: _Reading) -> str:
        """A clause with too few of its words here: an added claim ("..., which restarts the target")."""
        for text, clause in reading.clauses:
            stems = {stem_word(w, self.lang): w for w in lexical.content_of(clause, self.lang)}
            if len(stems) >= CLAUSE_WORDS and sum(self._found(stems, reading.plain)) < CLAUSE_SHARE * len(
                stems
            ):
                return text
        return ""

    def _unbound(self, reading: _Reading) -> list[str]:
        """Numbers and dates no context sentence states beside the clause's other words ("reunification
        came on 9 November 1989" when that date is the Wall's). A word the context has must be in that
        sentence (or, if only a close word is here, that word); reworded words bind nothing."""
        for text, clause in reading.clauses:
            facts = lexical.NUMBER.findall(text) + [
                w.casefold() for w in clause if _is_fact(w, self.lang) and not lexical.NUMBER.fullmatch(w)
            ]
            if not facts:
                continue
            content = lexical.content_of(clause, self.lang)
            anchors = self._anchors([w for w in content if not _is_fact(w, self.lang, named=False)], reading)
            if not any(
                all(s.mentions(f) for f in facts) and (not anchors or any(a & s.stems for a in anchors))
                for s in self.sentences
            ):
                return sorted(set(facts))
        return []

    def _anchors(self, found: list[str], reading: _Reading) -> list[set[str]]:
        """Per word the context has, the stems that stand for it here: its own, else its close words'."""
        stems = [stem_word(w, self.lang) for w in found]
        anchors = [{stem} for stem in stems if stem in self.stems]
        rest = [
            w
            for w, stem in zip(found, stems, strict=True)
            if stem not in self.stems and stem in reading.plain
        ]
        if self.meaning is not None and rest:
            close = self.meaning.close(rest)
            anchors += [{stem_word(c, self.lang) for c in words} for _, words in close if words]
        return anchors

    def _missing(self, reading: _Reading) -> list[str]:
        """Critical terms the context lacks, and opening capitals that are names it lacks: in no form
        here and no common word ("Graphite writes ..." for a context about OpenTSDB; "Work on it ...")."""
        missing = {t for t in reading.critical if not self.facts.mentions(t)}
        for word in reading.initials:
            folded = word.casefold()
            if not (self.facts.mentions(folded) or stem_word(folded, self.lang) in self.stems):
                missing |= set() if common_word(folded) else {folded}
        return sorted(missing)

    def _negation_veto(self, reading: _Reading, strict: bool) -> str:
        """Why the two disagree on what is negated, or "". A negated word that a context sentence without
        any negation states is a contradiction; with ``strict``, so is a negation the context has
        nothing like. An affirmed word the context only negates is a contradiction too."""
        for stem in sorted(reading.negated - self.negated):
            if stem in self.scoped or self.negated & reading.scoped:
                continue  # the context negates it too, or what it negates is negated here
            stated = any(stem in s.stems and not s.negates for s in self.sentences)
            if stated or (strict and not reading.scoped & self.scoped):
                return f"it negates {reading.stems.get(stem, stem)}; the context does not"
        only_negated_here = self.negated - self.affirmed
        if refuted := sorted(
            reading.stems.get(w, w) for w in (reading.affirmed - reading.scoped) & only_negated_here
        ):
            return f"the context negates {', '.join(refuted)}"
        return ""

    def _disagrees(self, reading: _Reading) -> bool:
        """Opposite answers ("Yes; ..." against "No. ..."), a negation either way, or a number of the
        statement missing here while this text gives another."""
        if reading.particle and self.particles and reading.particle not in self.particles:
            return True
        if self._negation_veto(reading, strict=False):
            return True
        other = self.facts.numbers - reading.numbers
        return bool(other) and any(not lexical.same_number(n, self.facts.numbers) for n in reading.numbers)

    def overlap(self, statement: str, key_facts: bool = False, asked: frozenset[str] = frozenset()) -> float:
        """How much of ``statement`` this text states, 0..1: the share of its content words found here
        (literally or as a close word), or 0 when the two disagree (``_disagrees``). Unlike ``judge``,
        an extra detail only lowers the share: "born in 1879 in Ulm" against "born in 1879" is mostly
        right, not wrong (correctness credits shared claims). With ``key_facts`` (is a reference
        statement covered?) the share is scaled by the share of its numbers, dates and names found here:
        a response without the fact asked for has not stated it, however many of its words it repeats.
        ``asked`` (the question's stems) are left out of the share: an answer need not repeat the question
        ("Alexander Fleming, in 1928." states "Alexander Fleming discovered penicillin in 1928." when the
        question was who discovered penicillin), and repeating it earns nothing."""
        reading = self._read(statement)
        if not reading.stems:
            return 1.0
        if self._disagrees(reading):
            return 0.0
        share = self._share(reading, asked)
        if key_facts and reading.critical:
            share *= sum(map(self.facts.mentions, reading.critical)) / len(reading.critical)
        return share

    def judge(self, statement: str, ratio: float = lexical.SUPPORT_RATIO) -> LexicalVerdict:
        reading = self._read(statement)
        stems = reading.stems
        literal = sum(stem in self.stems for stem in stems) / len(stems) if stems else 1.0
        share = literal
        if literal < ratio:
            share = self._share(reading)
            if (
                self.meaning is None
                or share < SEMANTIC_RATIO
                or self.meaning.closest(statement) < SEMANTIC_CLOSENESS
            ):
                return LexicalVerdict(False, f"only {literal:.0%} of its content words occur in the context")
            if clause := self._unsupported_clause(reading):
                return LexicalVerdict(False, f"the context does not say {clause!r}")
        if missing := self._missing(reading):
            return LexicalVerdict(False, f"the context does not mention {', '.join(missing)}")
        if unbound := self._unbound(reading):
            return LexicalVerdict(False, f"no context sentence gives {', '.join(unbound)} for what it says")
        if veto := self._negation_veto(reading, strict=True):
            return LexicalVerdict(False, veto)
        how = "of its content words" if literal >= ratio else "of its content words, or close words,"
        return LexicalVerdict(True, f"{share:.0%} {how} and every number and name occur in it")
