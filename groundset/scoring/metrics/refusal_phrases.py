"""Where a response says it cannot answer, offline, in six languages (en, zh, ja, de, fr, es).

A refusal phrase counts only as the answer's own claim about itself: the answerer cannot answer or did
not find it ("I don't know", "I could not find ..."), the provided material is silent ("the documents do
not say", "not covered in the docs", "文档中没有提到", "記載されていません", "nicht beschrieben", "n'est
pas mentionné", "no se menciona"), or there is no information to answer with ("there is no information
about ...", "not enough information to answer"). The same words stated as a fact about the subject are
an answer, so a phrase does not count:

- inside a clause about something else: a subordinate clause ("... drops an alert when there is not
  enough information in its labels", "如果找不到配置文件", "設定ファイルが見つからない場合", "wenn keine
  Angaben gemacht werden"), a relative clause ("Optionen, die nicht beschrieben sind", "文档中没有提到的
  选项", "記載されていないラベル"), a question ("What if I am not sure ...?") or a quotation;
- with a subject or place that is not the answerer or its material ("the target does not provide enough
  information", "not enough information in its labels", "程序找不到配置文件", "このメトリクスには情報が
  ありません", "La spécification ne précise pas", "No hay información de depuración en el binario");
- said impersonally without tying it to answering ("it is not possible to determine the order of
  samples"): that needs "from the provided context", or the clause ending at the verb ("it is hard to say").

Words that are also everyday nouns ("the request context", "the documents in the collection") name the
answerer's material only after a determiner or a qualifier ("the provided context"), and with verbs of
saying ("do not say/mention/cover"); "contain/include/provide" need an object such as "any information".
A refusal followed by a guess ("..., but it is probably 42") answers: it supplies the asked fact anyway.
``tests/data/refusals`` is the labelled set this is measured on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...languages import LANGUAGES
from ...languages.refusals import RefusalWords
from ...text.language import detect_language


@dataclass(frozen=True)
class Phrases:
    """A language's ``RefusalWords`` compiled for matching."""

    claims: re.Pattern[str]
    cue: re.Pattern[str]
    subordinate: re.Pattern[str]
    dangling: re.Pattern[str] | None
    set_phrases: re.Pattern[str] | None


def _compiled(words: RefusalWords) -> Phrases:
    claims = re.compile("|".join(words.claims), re.IGNORECASE)
    cue = re.compile(words.cue, re.IGNORECASE)
    return Phrases(claims, cue, words.subordinate, words.dangling, words.set_phrases)


PHRASES: dict[str, Phrases] = {
    code: _compiled(lang.refusals) for code, lang in LANGUAGES.items() if lang.refusals
}
# After a refusal, a guess that still supplies the asked fact ("..., but I think it is 42"), in any language.
_GUESS = re.compile(
    "|".join(lang.refusals.guess for lang in LANGUAGES.values() if lang.refusals and lang.refusals.guess),
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？\n]")
_CLAUSE_BREAK = re.compile(r"[,;:()\u2013\u2014，、；：（）]")
# Quotation marks: pairs, and marks that open and close alike; German „...“ closes with English's opener.
_QUOTE_PAIRS = {
    "\u00ab": "\u00bb",
    "\u2039": "\u203a",
    "\u300c": "\u300d",
    "\u300e": "\u300f",
    "\uff02": "\uff02",
}
_QUOTE_MARKS = ('"', "`")


@dataclass(frozen=True)
class Refusal:
    """A refusal phrase found in a response: the words, their language, and whether a guess follows."""

    phrase: str
    language: str
    guessed: str = ""


def find_refusal(response: str) -> Refusal | None:
    """The first refusal claim of the response (its own language's phrases tried first), or None."""
    response = response.replace("\u2019", "'")  # a typographic apostrophe: "don’t", "n’est"
    detected = detect_language(response)
    sentences = _sentences(response)
    for lang in [detected, *(lang for lang in PHRASES if lang != detected)]:
        phrases = PHRASES.get(lang)
        found = _first_claim(sentences, phrases) if phrases else None
        if found:
            phrase, end = found
            guess = _GUESS.search(response, end)
            return Refusal(phrase, lang, guess.group(0) if guess else "")
    return None


def claims(text: str, pattern: re.Pattern[str], language: str = "en") -> bool:
    """Whether ``pattern`` matches in ``text`` as the answer's own claim, by the same checks as a refusal
    phrase (not in a question, a quotation or a clause about something else): for other phrases about the
    answerer, such as its ignorance ("I'm not sure") in offline answer relevancy."""
    phrases = replace(PHRASES[language], claims=pattern)
    sentences = _sentences(text.replace("\u2019", "'"))
    return any(_own_claim(s, match, phrases) for _, s in sentences for match in pattern.finditer(s))


def declines(response: str) -> bool:
    """True when the response holds a refusal claim and does not guess the answer after it."""
    found = find_refusal(response)
    return found is not None and not found.guessed


def _sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; a sentence keeps its final mark (a question ends with "?")."""
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(text))]
    ends = [*starts[1:], len(text)]
    return [
        (start, text[start:end]) for start, end in zip(starts, ends, strict=True) if text[start:end].strip()
    ]


def _first_claim(sentences: list[tuple[int, str]], phrases: Phrases) -> tuple[str, int] | None:
    """The first claim in ``sentences`` that is the answer's own, with where it ends in the response."""
    for offset, sentence in sentences:
        if not phrases.cue.search(sentence):
            continue
        for match in phrases.claims.finditer(sentence):
            if _own_claim(sentence, match, phrases):
                return match.group(0).strip(), offset + match.end()
    return None


def _own_claim(sentence: str, match: re.Match[str], phrases: Phrases) -> bool:
    """Whether the matched phrase is the answer's claim about itself, not part of a question, a quotation,
    or a clause about something else."""
    start, end = match.start(), match.end()
    if sentence.rstrip().endswith(("?", "？")) or _quoted(sentence[:start]):
        return False
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(sentence, 0, start)]
    before = sentence[breaks[-1] if breaks else 0 : start]
    if phrases.set_phrases is not None:
        before = phrases.set_phrases.sub(" ", before)
    if phrases.subordinate.search(before):
        return False
    after_break = _CLAUSE_BREAK.search(sentence, end)
    after = sentence[end : after_break.end() if after_break else len(sentence)]
    return phrases.dangling is None or not phrases.dangling.search(after)


def _quoted(before: str) -> bool:
    """Whether a quotation opened in ``before`` is still open (the phrase is quoted, not claimed)."""
    if any(before.count(mark) % 2 for mark in _QUOTE_MARKS):
        return True
    german = "\u201e" in before
    curly = ("\u201e", "\u201c") if german else ("\u201c", "\u201d")
    pairs = [*_QUOTE_PAIRS.items(), curly]
    return any(before.count(opening) > before.count(closing) for opening, closing in pairs)
