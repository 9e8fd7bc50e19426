"""Offline answer relevancy: does the response answer every part of the question, and only that?

A single cosine of question and response rewards a refusal that repeats the question's words and
barely notices padding. Static word embeddings (WordLlama) follow shared words, so even a sentence
cosine prefers "Alexander Fleming discovered penicillin" to "Alexander Fleming discovered it in 1928"
for "who discovered penicillin, and in what year?". This form reads the response clause by clause:
- a refusal scores 0 (as the LLM form's noncommittal flag does), and so does a response whose every
  clause is a hedge without a concrete detail ("it depends on your setup") or only restates the
  question (it has no content word the question lacks);
- each part of a multi-part question ("what ... and how ...", "..., and in what year?") must be
  answered by some clause. A clause earns half a part's credit for being about the question (it shares
  a word with it, gives the kind of answer asked for, or is close by cosine) and the other half for the
  cosine of what it adds: the clause with the question's own words taken out, so repeating them earns
  nothing. A part that asks for a kind of answer (a date, a number, a name, a place, steps: see
  answer_types.py) that the response does not give counts half. The mean over parts is the *coverage*;
- each sentence should be about the question, both in what it adds and as a whole (padding that shares
  a word with the question passes only the second test): its cosine to the closest part relative to the
  best sentence's (so the scale of the embedding model does not matter), graded, and halved for a
  sentence that is half hedge. The mean over sentences is the *focus*.
- the response should name what the question asks about: the *subject* factor goes from 0.5 to 1 as it
  names half of the question's subject words (an answer to the page's other question is on topic by
  embedding, and shares a word, but rarely names this question's subject).
The score is coverage x focus x subject, in 0..1. The hedge rules know English and German, the answer-kind
rules only English; the rest works in any language.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..languages.words import word_set
from ..text.language import detect_language
from ..text.lexical import content_words, words
from ..text.plaintext import plain_text
from ..text.sentences import split_sentences
from ..text.stems import stem
from .answer_types import expected_kinds, gives, new_names
from .metrics.refusal_phrases import claims, find_refusal

# Plain ignorance anywhere makes the whole response noncommittal, as a refusal does (``find_refusal``:
# the answer's own claim that it cannot answer, not a fact such as "there is not enough information in
# its labels"; it already reads "I don't know/can't say/am not sure", so these are the rest).
_IGNORANCE = re.compile(
    r"\b(?:i (?:do not|don't|cannot|can't|am unable to|am not able to|could not|couldn't) guess"
    r"|not sure|no idea|i (?:would|'d) (?:need|have) to (?:check|look)"
    # declining: "I'd rather not guess", "I'd prefer not to say", "I won't speculate"
    r"|(?:i'd|i would|i) (?:rather not|prefer not to)|i (?:won't|will not) (?:guess|speculate|say)"
    # ignorance said impersonally: "it's hard to tell", "there is no way to know", "can't be certain"
    r"|(?:hard|difficult|impossible) to (?:say|tell|know|determine|answer|guess)"
    r"|no way (?:to|of) (?:know|knowing|tell|telling|say|saying)|(?:can't|cannot|can not) be (?:sure|certain)"
    # missing material: "I don't have access", "would need more context"
    r"|i (?:do not|don't) have (?:any |enough |the |that )?(?:information|data|details|access|context)"
    r"|(?:would |will )?need more (?:information|context|details))\b",
    re.IGNORECASE,
)
# A hedge answers only when its clause also gives something concrete: "it depends on the flag
# --storage.tsdb.retention.time" answers, "it depends on your setup" does not.
_HEDGE = re.compile(
    r"\b(?:it depends|depends? on|depending on|varies|(?:can|may|might) vary|(?:is )?up to you"
    r"|many opinions|a matter of (?:taste|opinion|preference)|(?:is|remains) unclear|(?:a )?complex question"
    r"|it'?s complicated|no (?:single|one|simple) answer|means? different things"
    # deflection: "you may want to measure it yourself"
    r"|(?:measure|check|find|look|work|figure|test|try|see) (?:it |this |that )?(?:out |up )?(?:for )?"
    r"yourself)\b",
    re.IGNORECASE,
)
# The same two in German: ignorance ("da bin ich mir nicht sicher", "schwer zu sagen") and hedges ("das
# hängt von Ihrer Umgebung ab", "kommt darauf an", "von Fall zu Fall verschieden").
_IGNORANCE_DE = re.compile(
    r"\b(?:(?:bin|sind) (?:ich |wir )?(?:mir |uns )?nicht sicher|keine ahnung"
    r"|kann (?:ich |man )?nicht (?:sagen|beantworten)|wei(?:ß|ss) (?:ich )?(?:es |das )?nicht"
    r"|(?:schwer|unmöglich) zu (?:sagen|beantworten))\b",
    re.IGNORECASE,
)
_HEDGE_DE = re.compile(
    r"\b(?:hängt (?:\S+ ){0,6}?ab|kommt (?:ganz )?darauf an|von fall zu fall|variiert"
    r"|je nach (?:ihrer |deiner )?(?:umgebung|situation|einrichtung)"
    r"|(?:ist|sind) (?:ganz )?unterschiedlich)\b",
    re.IGNORECASE,
)
_HEDGE_BY = {"en": _HEDGE, "de": _HEDGE_DE}
# English stop words that can be the answer ("a gauge can also go down", "both are off"): a clause that
# adds one of them to the question's words adds something.
_ANSWER_WORDS = word_set(
    "up down off on out over under above below before after yes no not never none nothing nobody always "
    "only all both either neither more less most least few many once twice first last again"
)
# Digits, code, paths, flags and dotted names are concrete details.
_CONCRETE = re.compile(r"\d|[_/`=<>$]|--\w|\w\.\w|\w\(\)")
# A question's parts: separate questions, or clauses joined by "and"/";" that start a new question
# ("..., and how long ...", "..., and in what year?").
_PART_BREAK = re.compile(
    r"\?\s*|;\s*|,?\s+(?:and|also|as well as|plus)\s+(?=(?:(?:in|at|on|for|from|to|by|with|since|until) )?"
    r"(?:how|what|why|when|where|which|who|whom|whose|"
    r"does|do|is|are|can|could|should|would|will|did|has|have)\b)",
    re.IGNORECASE,
)
# A sentence's clauses: after ; or :, or a comma before a coordinating conjunction.
_CLAUSE_BREAK = re.compile(
    r"[;:]\s+|,\s+(?=(?:and|but|so|while|whereas|und|aber|doch|sondern|während)\s)", re.IGNORECASE
)
MIN_PART_WORDS = 3
# A clause that adds something to the question earns half a part's credit when it is about the question,
# and its cosine the other half: static-embedding cosines of what a clause adds are small and noisy
# (0..0.5), so with a smaller base they would swamp the discrete evidence people judge by (a missing date,
# a hedge, an off-topic sentence). Agreement on the development pairs is flat for bases 0.15..0.7.
ANSWERED = 0.5
# A clause is about the question when it shares a content word with it, gives a kind of answer it asks
# for, or failing both, in proportion to its cosine up to this one: unrelated English sentences mostly
# stay below 0.1 under WordLlama, and a short direct answer ("Paris.") may share no word at all.
TOPICAL = 0.1
# A part whose kind of answer (a date, a number, a name ...) is nowhere in the response is on topic but
# unanswered: half its credit, so it still beats an off-topic part and loses to an answered one.
KIND_MISSING = 0.5
# A sentence counts fully towards focus when its cosine to some part reaches this share of the best
# sentence's for that part, and in proportion below (relative, so the embedding's scale does not matter;
# graded, so an elaboration that repeats fewer of the question's words loses a little, not all).
ON_TOPIC = 0.7

# The subject factor (``_topic``): measured on the development half of tests/data/judges/corpora/
# (answer relevancy 0.66 without it, 0.75 with these values; the hand-written pairs 0.90 -> 0.88).
TOPIC_FLOOR = 0.5
SUBJECT_ENOUGH = 0.5
# Stems of words that frame a question rather than name its subject ("What should I know about X?").
FRAME = frozenset({"know", "tell", "explain", "describ", "happen", "work", "wiss"})

NO_ANSWER = "no clause answers: each hedges without a concrete detail or only restates the question"

Embed = Callable[[Sequence[str]], Awaitable[np.ndarray]]


def is_noncommittal(response: str, lang: str = "en") -> bool:
    """Evasive, vague or refusing answers ("I'm not sure", "the docs do not say"): 0 offline."""
    if lang == "de":  # its forms are first person already ("bin ich mir nicht sicher")
        return bool(_IGNORANCE_DE.search(response)) or find_refusal(response) is not None
    return claims(response, _IGNORANCE) or find_refusal(response) is not None


def question_parts(question: str) -> list[str]:
    """The sub-questions of a multi-part question; the whole question when it has one part."""
    parts = [p.strip(" ,") for p in _PART_BREAK.split(question) if p and p.strip(" ,")]
    parts = [p for p in parts if len(p.split()) >= MIN_PART_WORDS]
    return parts if len(parts) > 1 else [question.strip()]


@dataclass(frozen=True)
class Relevancy:
    score: float
    coverage: float
    focus: float
    parts: list[str]
    sentences: list[str]
    missing: list[str]
    note: str = ""
    topic: float = 1.0

    def reason(self) -> str:
        if self.note:
            return self.note
        missing = f"; no {', no '.join(self.missing)} in the response" if self.missing else ""
        topic = f" x subject {self.topic:.3f}" if self.topic < 1.0 else ""
        return (
            f"coverage {self.coverage:.3f} of {len(self.parts)} question part(s) x focus {self.focus:.3f} "
            f"({len(self.sentences)} sentence(s)){topic}{missing}"
        )


async def offline_relevancy(
    question: str, response: str, embed: Embed, *, conversation: str = ""
) -> Relevancy | None:
    """Coverage x focus (see the module docstring); None for a refusal, a 0 score (``NO_ANSWER``) when
    every clause hedges or restates the question. ``conversation``: a follow-up question as asked, after
    the earlier turns; their words count as given by the question (its parts stay the question's own)."""
    lang = detect_language(f"{question}\n{response}")
    if is_noncommittal(response, lang):
        return None
    asked = _stems(question, lang) | _stems(conversation, lang)
    sentences = split_sentences(plain_text(response)) or [response.strip()]
    clauses = [_clauses(s) for s in sentences]
    answering = [[c for c in found if _answers(c, question, asked, lang)] for found in clauses]
    units = [c for found in answering for c in found]
    parts = question_parts(question)
    if not units:
        return Relevancy(0.0, 0.0, 0.0, parts, sentences, [], NO_ANSWER)
    added = [_added(text, asked, lang) for text in (*units, *sentences)]
    vectors = await embed([*parts, *added, *units, *sentences])
    part_v, unit_added, sentence_added, unit_whole, sentence_whole = np.split(
        vectors, np.cumsum([len(parts), len(units), len(sentences), len(units)])
    )
    kinds = [expected_kinds(p) if lang == "en" else [] for p in parts]
    missing, factors = _kinds_missing(parts, kinds, "; ".join(units), question)
    lexical = np.array([_topical(u, parts, kinds, question, asked, lang) for u in units], dtype=float)
    coverage = _coverage(_cosines(part_v, unit_added), _cosines(part_v, unit_whole), lexical, factors)
    answered = np.array([len(a) / len(c) for a, c in zip(answering, clauses, strict=True)])
    focus = _focus(_cosines(part_v, sentence_added), _cosines(part_v, sentence_whole), answered)
    topic = _topic(response, asked, lang, answers_kind=any(kinds) and not missing)
    return Relevancy(coverage * focus * topic, coverage, focus, parts, sentences, missing, topic=topic)


def _topic(response: str, asked: set[str], lang: str, *, answers_kind: bool) -> float:
    """TOPIC_FLOOR, rising to 1 as the response names SUBJECT_ENOUGH of the question's subject words
    (its content words but the frame's: "know", "explain"): an answer to another question of the same
    page is on topic by embedding and by a shared word, but rarely names what this one asks about.
    A response that gives every kind of answer asked for (a date for "when") is on its subject."""
    subject = asked - FRAME
    if answers_kind or not subject:
        return 1.0
    share = subject_share(response, subject, lang)
    return TOPIC_FLOOR + (1 - TOPIC_FLOOR) * min(1.0, share / SUBJECT_ENOUGH)


def _coverage(added: np.ndarray, whole: np.ndarray, lexical: np.ndarray, factors: np.ndarray) -> float:
    """Mean over parts of the best clause's credit (parts x clauses cosines in): ANSWERED times how much
    it is about the question, plus the rest times the cosine of what it adds; times the part's factor."""
    about = np.maximum(lexical[None, :], np.clip(whole / TOPICAL, 0.0, 1.0))
    credit = ANSWERED * about + (1 - ANSWERED) * np.clip(added, 0.0, 1.0)
    return float(np.mean(credit.max(axis=1) * factors))


def _focus(added: np.ndarray, whole: np.ndarray, answered: np.ndarray) -> float:
    """Mean over sentences of how on topic each is, both in what it adds and as a whole (padding that
    shares a word with the question, "a job can also mean paid work", passes only the second), times the
    share of its clauses that answer (a sentence that is half hedge counts half)."""
    return float(np.mean(np.minimum(_on_topic(added), _on_topic(whole)) * answered))


def _on_topic(by_part: np.ndarray) -> np.ndarray:
    """Per sentence, its cosine to its closest part over ON_TOPIC times that part's best sentence cosine,
    capped at 1 (every sentence is on topic for a part no sentence has a positive cosine with)."""
    best = by_part.max(axis=1, keepdims=True)
    scale = np.where(best > 0, ON_TOPIC * best, 1.0)
    degree = np.where(best > 0, np.clip(by_part / scale, 0.0, 1.0), 1.0)
    return degree.max(axis=0)


def _clauses(sentence: str) -> list[str]:
    """A sentence's clauses, so a hedge or a restatement joined to an answer by "; " or ", and" is judged
    on its own."""
    pieces = [c.strip(" ,") for c in _CLAUSE_BREAK.split(sentence)]
    return [c for c in pieces if c] or [sentence]


def _answers(clause: str, question: str, asked: set[str], lang: str) -> bool:
    """A clause answers when it adds a word to the question's and, in English and German, is not a hedge
    without a concrete detail."""
    if not _adds_words(clause, question, asked, lang):
        return False
    hedge = _HEDGE_BY.get(lang)
    if hedge is not None and hedge.search(clause):
        # German capitalises every noun: only English reads a new capitalised word as a name.
        return bool(_CONCRETE.search(clause) or (lang == "en" and new_names(" x " + clause, question)))
    return True


def _adds_words(clause: str, question: str, asked: set[str], lang: str) -> bool:
    """A content word the question lacks, or in English a new answer-bearing stop word ("down")."""
    if _stems(clause, lang) - asked:
        return True
    if lang != "en":
        return False
    said = {w.casefold() for w in words(clause, lang)} & _ANSWER_WORDS
    return bool(said - {w.casefold() for w in words(question, lang)})


def _topical(
    unit: str, parts: list[str], kinds: list[list[str]], question: str, asked: set[str], lang: str
) -> bool:
    """A clause shares a content word with the question, or gives a kind of answer a part asks for."""
    if _stems(unit, lang) & asked:
        return True
    return any(
        gives(kind, unit, part, question)
        for part, wanted in zip(parts, kinds, strict=True)
        for kind in wanted
    )


def _kinds_missing(
    parts: list[str], kinds: list[list[str]], answer: str, question: str
) -> tuple[list[str], np.ndarray]:
    """Per part, KIND_MISSING for each kind of answer it asks for that the answer lacks."""
    missing: list[str] = []
    factors = np.ones(len(parts))
    for i, (part, wanted) in enumerate(zip(parts, kinds, strict=True)):
        for kind in wanted:
            if not gives(kind, answer, part, question):
                missing.append(kind)
                factors[i] *= KIND_MISSING
    return missing, factors


def _stems(text: str, lang: str) -> set[str]:
    return {stem(w, lang) for w in content_words(text, lang)}


def subject_stems(question: str, lang: str) -> set[str]:
    """The stems of what a question asks about: its content words but the frame's ("know", "explain")."""
    return _stems(question, lang) - FRAME


def subject_share(text: str, subject: set[str], lang: str) -> float:
    """Share of the question's subject stems that ``text`` names (1.0 when the subject is empty)."""
    return len(_stems(text, lang) & subject) / len(subject) if subject else 1.0


def _added(text: str, asked: set[str], lang: str) -> str:
    """The text without the question's content words: what it adds to the question."""
    kept = [w for w in words(text, lang) if stem(w.casefold(), lang) not in asked]
    return " ".join(kept)


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise cosines of rows; a zero vector (no words) has cosine 0 with everything."""
    na = np.linalg.norm(a, axis=1, keepdims=True)
    nb = np.linalg.norm(b, axis=1, keepdims=True)
    na[na == 0], nb[nb == 0] = 1.0, 1.0
    return (a / na) @ (b / nb).T
