"""Named entities of technical documentation, without an LLM and without a download.

A trained spaCy pipeline finds people, organisations and products when one is installed; it
never sees inline code, so code identifiers come from rules in both backends. Without a
pipeline the rules also find names: capitalised runs, CamelCase, acronyms, and single
capitalised words that are not capitalised merely because they start a sentence. Sentences and
stop words follow the text's language (English keeps its own list; other languages add spaCy's).
"""

from __future__ import annotations

import functools
import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .language import Languages, languages_of
from .nlp import stop_words
from .plaintext import plain_text
from .sentences import abbreviations, split_sentences

__all__ = ["EntityExtractor"]

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "en_core_web_sm"
MAX_ENTITIES = 25
_NER_LABELS = frozenset({"ORG", "PRODUCT", "PERSON", "GPE", "WORK_OF_ART", "LAW", "EVENT", "FAC", "NORP"})
_MAX_NAME_WORDS = 5
_NAME_KINDS = frozenset({"capital", "camel", "acronym"})


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Prose tokens: an inline code span, a word (with inner . _ : - joiners), or one other character.
# Latin letters with the accented ones of Western European languages: "Prüfziel" is one word, not "Pr".
_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
_TOKEN = re.compile(rf"`([^`\n]+)`|([{_LATIN}][{_LATIN}0-9]*(?:[._:-][{_LATIN}0-9]+)*)(?:['\u2019]s\b)?|(\S)")
_CODE_TOKEN = re.compile(
    r"(?<![\w.-])(?:--[A-Za-z][\w.-]*|-[a-z][\w-]*\.[\w.-]+)"
    r"|(?<![\w.-])_*[A-Za-z][\w:]*(?:-[A-Za-z0-9][\w:]*)*(?:\.[\w:-]+)*(\()?"
)
_SINGLE_IDENTIFIER = re.compile(r"^[\w.:-]+(?:\(\))?$")
_PORT = re.compile(r":\d+$")
_VERSION_SUFFIX = re.compile(r"(?:[.-]?\d+)+$")
_SNAKE = re.compile(r"^_*[A-Za-z][A-Za-z0-9]*(?:[_:]+[A-Za-z0-9]+)+_*$|^__[A-Za-z0-9]+__$")
_CAMEL = re.compile(r"^(?=.{4,})[A-Za-z]*[a-z][A-Z][A-Za-z0-9]*$|^[A-Z]{2,}[a-z][A-Za-z0-9]{1,}$")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9]{1,5}(?:-[0-9]{1,2})?$")
_ACRONYM_PLURAL = re.compile(r"^[A-Z]{2,6}s$")
_CAPITALISED = re.compile(r"^[A-Z\u00c0-\u00d6\u00d8-\u00de][a-z0-9\u00df-\u00f6\u00f8-\u00ff]+$")
_ROMAN = re.compile(r"^(?=[IVXL]{2,})X{0,3}(?:IX|IV|V?I{0,3})$|^XL$|^L?X{0,3}$")
_EXTENSIONS = _word_set(
    "yml yaml json toml ini conf cfg go py js ts rb java rs c h cc cpp md txt proto sh html css xml csv "
    "log rules io com org net dev"
)
# A file a page only points at (an image, an archive): a file name, though never an identifier.
_FILE_ONLY_EXTENSIONS = _word_set("markdown mdx rst htm lock png jpg jpeg gif svg zip gz tar")
_DOTTED_FILE = re.compile(r"^[\w-]+(?:\.[\w-]+)*\.([a-z]{1,5})$")
_FILE_NAME = re.compile(r"^[\w-]+(?:\.[\w-]+)*\.([a-z]{1,8})$")
_PACKAGE_MEMBER = re.compile(r"^[a-z]\w*\.[A-Z]\w*$")
_SENTENCE_OPENERS = frozenset(":;(\"'\u201c\u2018[\u2014\u2013-")
_STOP = _word_set(
    "a an the this that these those it its is are was were be been there here then than if when where while "
    "what which who whom whose why how and or but nor not no yes so as at by for from in into of off on "
    "onto to with within without up down over under about after before between through during each every "
    "all any both either neither some such many much more most few other another our your their my his "
    "her we you they he she i me us them also however therefore thus hence instead otherwise finally "
    "first next last now today note see example examples e.g i.e let please click true false none null "
    "nil ok okay step steps figure table section chapter appendix tip info warning caution important "
    "todo fixme danger read learn use using make get set go run add create check open try"
)
_NOT_ACRONYMS = _word_set(
    "MUST SHOULD MAY NOT SHALL REQUIRED RECOMMENDED OPTIONAL NOTE WARNING INFO TIP TODO FIXME CAUTION "
    "IMPORTANT DANGER AND OR THE OK NB PS AM PM"
)
_CALENDAR = _word_set(
    "january february march april may june july august september october november december monday "
    "tuesday wednesday thursday friday saturday sunday"
)
_CODE_NOISE = _word_set("true false null none nil yes no on off and or not")


@dataclass
class _Tally:
    """Surface counts and first positions of entities, keyed case-insensitively."""

    forms: dict[str, Counter[str]] = field(default_factory=dict)
    first: dict[str, int] = field(default_factory=dict)

    def add(self, surface: str, position: int) -> None:
        surface = _normalise(surface)
        if len(surface) < 2 or not any(char.isalpha() for char in surface):
            return
        key = surface.lower()
        self.forms.setdefault(key, Counter())[surface] += 1
        self.first[key] = min(self.first.get(key, position), position)

    def result(self) -> list[str]:
        """Top entities by frequency (earlier first among equals), listed in order of first occurrence."""
        totals = {key: sum(forms.values()) for key, forms in self.forms.items()}
        top = sorted(totals, key=lambda key: (-totals[key], self.first[key]))[:MAX_ENTITIES]
        top.sort(key=lambda key: self.first[key])
        # max() keeps the first of equal counts, i.e. the surface seen first.
        return [max(self.forms[key].items(), key=lambda item: item[1])[0] for key in top]


def _normalise(surface: str) -> str:
    surface = surface.strip().strip("`\"'.,;:!?[]{}<>\u2018\u2019\u201c\u201d").strip()
    if surface.endswith(("'s", "\u2019s")):
        surface = surface[:-2]
    if _ACRONYM_PLURAL.match(surface):
        surface = surface[:-1]
    return surface


@functools.lru_cache(maxsize=64)
def _stop_for(lang: str) -> frozenset[str]:
    """Words never taken for names: the English list, plus the language's stop words and abbreviations."""
    return _STOP if lang == "en" else _STOP | stop_words(lang) | abbreviations(lang)


def _word_kind(word: str, stop: frozenset[str] = _STOP) -> str:
    """One of "code" (snake_case, dotted), "camel", "acronym", "capital", or "" for other words."""
    if word.islower() and word.isalpha():
        return ""  # most words: no pattern below matches a lower-case word of letters only
    if _SNAKE.match(word) or _is_dotted(word):
        return "code" if not _PORT.search(word) else ""
    word = _VERSION_SUFFIX.sub("", word) or word  # UTF-8, HTTP2, PrometheusText0.0.4
    if _CAMEL.match(word) or _ACRONYM_PLURAL.match(word):
        return "camel"
    if _ACRONYM.match(word):
        if word in _NOT_ACRONYMS or _ROMAN.match(word) or sum(char.isalpha() for char in word) < 2:
            return ""
        return "acronym"
    if _CAPITALISED.match(word) and word.lower() not in stop and word.lower() not in _CALENDAR:
        return "capital"
    return ""


def is_file_name(word: str) -> bool:
    """``prometheus.yml``, ``main.rs``, ``prometheus.io``: a file or site name, not a topic to ask about."""
    match = _FILE_NAME.match(word.lower())
    return bool(match) and match.group(1) in _EXTENSIONS | _FILE_ONLY_EXTENSIONS


def _is_dotted(word: str) -> bool:
    if "." not in word:
        return False
    if _PACKAGE_MEMBER.match(word):
        return True
    match = _DOTTED_FILE.match(word)
    return bool(match) and (match.group(1) in _EXTENSIONS or word.count(".") >= 2)


def _code_identifiers(span: str) -> list[str]:
    """Identifiers worth naming in one inline code span (`rate()`, `prometheus.yml`, `job`)."""
    span = span.strip()
    found: list[str] = []
    matches = list(_CODE_TOKEN.finditer(span))
    whole = len(matches) == 1 and _SINGLE_IDENTIFIER.match(span) is not None
    for match in matches:
        token = match.group(0).rstrip("(")
        if _PORT.search(token):
            continue  # host:port, not a name
        if match.group(1):
            found.append(token + "()")
        elif (
            token.startswith("-")
            or _word_kind(token) in ("code", "camel", "acronym")
            or (whole and len(token) >= 2 and token.lower() not in _CODE_NOISE)
        ):
            found.append(token)
    return found


def _is_heading_like(words: list[str], stop: frozenset[str] = _STOP) -> bool:
    """Title Case lines ("Writing Client Libraries") capitalise every word; they prove nothing."""
    content = [word for word in words if word.lower() not in stop]
    if len(content) < 2:
        return False
    return sum(word[0].isupper() for word in content) >= 0.7 * len(content)


_Token = tuple[str, str, bool, int]  # (kind, text, sentence-initial, character offset)


def _tokenise(sentence: str, offset: int, stop: frozenset[str] = _STOP) -> list[_Token]:
    tokens: list[_Token] = []
    initial = True
    for match in _TOKEN.finditer(sentence):
        code, word, other = match.groups()
        at = offset + match.start()
        if code is not None:
            tokens.append(("span", code, False, at))
            initial = False
        elif word is not None:
            tokens.append((_word_kind(word, stop), word, initial, at))
            if match.end(2) != match.end():
                tokens.append(("", "'s", False, offset + match.end(2)))  # a possessive ends the name
            initial = False
        else:
            tokens.append(("", other, False, at))
            initial = other in _SENTENCE_OPENERS
    return tokens


def _rule_tally(text: str, *, names: bool, lang: str = "en") -> _Tally:
    """Entities of ``plain_text(..., code_spans=True)`` output, positioned by character offset.

    With ``names=False`` only code identifiers, CamelCase and acronyms are kept (spaCy does names).
    """
    # Pass 1: tokenise, and learn which capitalised words also appear capitalised mid-sentence.
    sentences: list[tuple[list[_Token], bool]] = []
    confirmed: set[str] = set()
    cursor = 0
    stop = _stop_for(lang)
    for sentence in split_sentences(text, lang=lang):
        cursor = max(text.find(sentence, cursor), cursor)
        tokens = _tokenise(sentence, cursor, stop)
        cursor += len(sentence)
        words = [token for kind, token, _, _ in tokens if kind != "span" and token[:1].isalpha()]
        heading = sentence[-1] not in ".!?:\u3002\uff01\uff1f\uff1a" and _is_heading_like(words, stop)
        if not heading:
            confirmed.update(
                token.lower() for kind, token, start, _ in tokens if kind == "capital" and not start
            )
        sentences.append((tokens, heading))
    # Pass 2: emit runs of name words, code spans and identifiers.
    tally = _Tally()
    for tokens, heading in sentences:
        run: list[_Token] = []
        for index, token in enumerate(tokens):
            kind, surface, _, at = token
            if kind in _NAME_KINDS or (surface == "of" and run and _next_is_name(tokens, index)):
                run.append(token)
                continue
            _emit_run(tally, run, names=names, heading=heading, confirmed=confirmed)
            run = []
            if kind == "span":
                for identifier in _code_identifiers(surface):
                    tally.add(identifier, at)
            elif kind == "code":
                tally.add(surface, at)
        _emit_run(tally, run, names=names, heading=heading, confirmed=confirmed)
    return tally


def _next_is_name(tokens: list[_Token], index: int) -> bool:
    return index + 1 < len(tokens) and tokens[index + 1][0] in _NAME_KINDS


def _emit_run(tally: _Tally, run: list[_Token], *, names: bool, heading: bool, confirmed: set[str]) -> None:
    """Turn a run of name-like words into one multi-word name, or into single words."""
    # A sentence-initial capital is evidence only if the word is capitalised elsewhere too, or if
    # it opens a run of three or more name words ("Google Cloud Storage", not "Download Grafana").
    while run and (
        run[0][0] == ""
        or (
            run[0][0] == "capital"
            and run[0][2]
            and run[0][1].lower() not in confirmed
            and sum(token[0] != "" for token in run) < 3
        )
    ):
        run = run[1:]
    while run and run[-1][0] == "":
        run = run[:-1]
    if not run:
        return
    if names and not heading and 2 <= len(run) <= _MAX_NAME_WORDS:
        tally.add(" ".join(token[1] for token in run), run[0][3])
        return
    for kind, surface, initial, at in run:
        as_name = names and not heading and (not initial or surface.lower() in confirmed)
        if kind in ("camel", "acronym") or (kind == "capital" and as_name):
            tally.add(surface, at)


class EntityExtractor:
    """Entities of a text: spaCy NER plus code rules when a trained pipeline is installed, else rules.

    ``model`` names a spaCy package (default ``en_core_web_sm``); it is used only when
    ``spacy.util.is_package`` says it is installed, and never downloaded. ``model="rules"``
    forces the rule-based backend (handy for reproducible artefacts across machines).
    """

    def __init__(self, model: str | None = None) -> None:
        self._model_name = model or DEFAULT_MODEL
        self._nlp: Any = None
        if self._model_name != "rules":
            import spacy.util  # deferred: the rules backend should not pay for importing spaCy

            if spacy.util.is_package(self._model_name):
                self._nlp = _load_pipeline(self._model_name)

    @property
    def backend(self) -> str:
        """The backend in use: ``spacy:<name>`` when a trained pipeline finds names, else ``rules``."""
        return f"spacy:{self._model_name}" if self._nlp is not None else "rules"

    def extract(self, text: str, lang: str | None = None) -> list[str]:
        """Up to 25 entities of one markdown text, in order of first occurrence."""
        return self.extract_many([text], lang)[0]

    def extract_many(self, texts: Sequence[str], lang: Languages = None) -> list[list[str]]:
        """Entities of many texts (spaCy runs them as one batched ``pipe``); ``lang``: one code, one
        per text, or None to detect each text's language (for its sentences and stop words)."""
        langs = languages_of(texts, lang)
        coded = [plain_text(text, code_spans=True) for text in texts]
        if self._nlp is None:
            pairs = zip(coded, langs, strict=True)
            return [_rule_tally(text, names=True, lang=code).result() for text, code in pairs]
        # Backticks become spaces, so NER offsets and rule offsets index the same string.
        docs = self._nlp.pipe((text.replace("`", " ") for text in coded), batch_size=64)
        results: list[list[str]] = []
        for text, code, doc in zip(coded, langs, docs, strict=True):
            tally = _rule_tally(text, names=False, lang=code)
            for entity in doc.ents:
                if entity.label_ in _NER_LABELS:
                    tally.add(entity.text, entity.start_char)
            results.append(tally.result())
        return results


def _load_pipeline(name: str) -> Any:
    """Load an installed pipeline with only what NER needs; on failure, fall back to rules."""
    import spacy

    try:
        nlp = spacy.load(name)
    except (OSError, ImportError, ValueError) as error:
        logger.warning(
            "groundset: spaCy pipeline %r could not be loaded (%s); using rule-based entities", name, error
        )
        return None
    if not {"ner", "entity_ruler"} & set(nlp.pipe_names):
        logger.warning("groundset: spaCy pipeline %r has no 'ner' component; using rule-based entities", name)
        return None
    keep = {"ner", "tok2vec", "transformer", "entity_ruler"}
    nlp.select_pipes(enable=[pipe for pipe in nlp.pipe_names if pipe in keep])
    return nlp
