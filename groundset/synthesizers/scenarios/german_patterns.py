"""German answer patterns: which fact a German sentence states, about what, and where its answer is.

The same facts as in English (``answer_patterns``), found by German word order: a definition ("Vite
ist ein Build-Tool, das ..."), a meaning ("Baseline Widely Available bedeutet, dass ..."), a purpose
("Ein Modul-Runner ermöglicht ...", "X wird verwendet, um ..."), a default ("X ist standardmäßig ..."),
a procedure ("Um die App zu bauen, führen Sie ... aus", "Wenn Sie ... ändern möchten, setzen Sie ...")
and a consequence ("Wenn X fehlt, bricht der Build ab"). German puts the verb of a subordinate clause
last, so a goal or condition reads as a question as it stands, once the reader's "Sie" becomes "ich"
(``first_person``). Subjects are kept without their article: the templates quote the term („X“) and need
no article, whose gender a term does not tell.
"""

from __future__ import annotations

import re

from ...languages.words import word_set
from .answer_patterns import Match
from .fact import Fact
from .passages import Passage, is_prose, with_continuation

__all__ = ["first_person", "german_fact", "match_german", "strip_article", "worth_asking_german"]

# A following sentence that goes on with the same answer.
_CONTINUES = re.compile(
    r"^(?:Dadurch|Dabei|Außerdem|Zusätzlich|Andernfalls|Ansonsten|Sonst|Damit|Das heißt)\b"
)

_NP = r"(?P<subj>[^,;:()]{2,70}?)"
_ARTICLE = r"(?:ein|eine|einer|eines|einem|einen|der|die|das|dem|den|des)"
_ARTICLE_WORDS = word_set("der die das dem den des ein eine einer eines einem einen")

_DEFINITION = re.compile(r"^" + _NP + r" (?P<verb>ist|sind) (?P<answer>" + _ARTICLE + r" .+)$")
_MEANS = re.compile(
    r"^" + _NP + r" (?P<verb>bedeutet|bedeuten|bezeichnet|bezeichnen|beschreibt|beschreiben|steht für|"
    r"stehen für|bezieht sich auf|beziehen sich auf),? (?P<answer>.+)$"
)
_USED_TO = re.compile(
    r"^" + _NP + r" (?P<verb>wird|werden) (?:\w+ )?(?:verwendet|genutzt|benutzt|eingesetzt),? "
    r"(?P<answer>um .+ zu\w* ?\w*)$"
)
_USED_FOR = re.compile(
    r"^"
    + _NP
    + r" (?P<verb>wird|werden) (?P<answer>(?:für|zur|zum) .+) (?:verwendet|genutzt|benutzt|eingesetzt)$"
)
_SERVES = re.compile(
    r"^" + _NP + r" (?P<verb>dient|dienen) (?:dazu,? )?(?P<answer>(?:um |zur |zum |als |der |dem ).+)$"
)
_ENABLES = re.compile(
    r"^"
    + _NP
    + r" (?P<verb>ermöglicht|ermöglichen|erlaubt|erlauben) (?:es )?(?:Ihnen,? |uns,? )?(?P<answer>.+)$"
)
_DEFAULT_OF = re.compile(
    r"^(?:Der|Die) Standard(?:wert)? (?:von|für|des|der) "
    + _NP
    + r" (?P<verb>ist|lautet|sind) (?P<answer>.+)$"
)
_BY_DEFAULT = re.compile(r"^" + _NP + r" (?P<verb>ist|sind|wird|werden) standardmäßig (?P<answer>.+)$")
_TO_GOAL = re.compile(
    r"^Um (?P<goal>[^,]{3,90}?) (?P<verb>zu [a-zäöüß]+|[a-zäöüß]+zu[a-zäöüß]+en), (?P<answer>.+)$"
)
_WANT = re.compile(
    r"^(?:Wenn|Falls|Sofern) Sie (?P<goal>[^,]{3,90}?) (?P<verb>[a-zäöüß]+) (?:möchten|wollen),? "
    r"(?P<answer>.+)$"
)
_USE_TO = re.compile(
    r"^(?:Sie können (?:auch )?(?P<a>.{2,80}?) (?:verwenden|nutzen|benutzen)"
    r"|(?:Verwenden|Nutzen|Benutzen) Sie (?P<b>.{2,80}?)),? um (?P<goal>[^,]{3,90}?) "
    r"(?P<verb>zu [a-zäöüß]+|[a-zäöüß]+zu[a-zäöüß]+en)$"
)
_CONDITION = re.compile(
    r"^(?P<conj>Wenn|Falls|Sobald) (?P<cond>[^,]{6,100}), (?P<answer>(?P<verb>[a-zäöüß]+) .+)$"
)
# The main clause of an instruction: an imperative or a modal addressed to the reader ("setzen Sie",
# "können Sie", "sollten Sie", "muss man").
_INSTRUCTS = re.compile(
    r"^(?!(?:finden|lesen|sehen|schauen|besuchen|werfen) Sie)"  # "finden Sie mehr in ...": a pointer, no how
    r"(?:[a-zäöüß]+en Sie|(?:können|sollten|müssen) Sie|(?:kann|muss|sollte) man)\b"
)
_ADVISES = re.compile(r"^(?:sollten|müssen) Sie\b|^(?!können)[a-zäöüß]+en Sie\b")
_FINITE = word_set(
    """
    wird werden ist sind kann können muss müssen sollte sollten gibt erhält erhalten bricht schlägt zeigt
    verwendet nutzt lädt startet bleibt bleiben fällt fallen gilt gelten führt erzeugt erstellt ignoriert
    """
)
# Conditions no reader asks about: the reader's own knowledge or wishes, the page's example.
_NOT_A_SITUATION = re.compile(
    r"\b(?:neu|nicht sicher|interessiert|neugierig|herumexperimentieren|Beispiel|diese[mnrs]?|dies|"
    r"hier|oben|unten)\b|[()]",
    re.IGNORECASE,
)
_POINTING = re.compile(
    r"\b(?:wie folgt|folgende[nmrs]?|unten|oben|dieses Beispiel|diesem Beispiel|siehe|hier)\b|:$", re.I
)
_WEAK_GENUS = re.compile(
    r"^(?:ein|eine|der|die|das) (?:gute[nr]?|großartige[sr]?|wichtige[sr]?|einfache[sr]?|erste[nr]?|"
    r"letzte[nr]?|nächste[nr]?|Beispiel|Fall|Grund|Problem|Möglichkeit|Ergebnis|Teil|Schritt|Frage|Weg|"
    r"Sache|Idee|gleiche[nr]?|selbe[nr]?|beste[nr]?|Standard)\b"
)
_NO_SUBJECT = word_set(
    """
    es er sie dies diese dieser dieses das damit dadurch daher hier dort man wir ich jede jeder jedes alle
    sein seine seinen seinem seiner ihr ihre ihren ihrem ihrer unser unsere dessen deren
    viele einige manche solche welche was wer wie wo wann außerdem zudem dann nun jetzt auch aber und
    oder so sonst
    """
)
_PREPOSITIONS = word_set(
    "im in für mit bei auf nach von vom zu zur zum seit während durch über unter als wie"
)
_GENERIC = word_set(
    """
    wert werte option optionen datei dateien beispiel funktion funktionen fall fälle art weise teil teile
    seite seiten abschnitt dokumentation name namen typ liste schritt schritte problem probleme idee
    ergebnis ergebnisse möglichkeit möglichkeiten code projekt version versionen änderung änderungen
    standard standardwert standardwerte
    """
)


def match_german(sentence: str) -> Match | None:
    """The fact a German ``sentence`` states, or None when it fits no pattern with a usable subject."""
    text = sentence.strip().rstrip(".!").strip()
    if _POINTING.search(text):
        return None
    for finder in (_procedure, _default, _cause, _purpose, _definition):
        found = finder(text)
        if found is not None and found.answer.strip() and len(found.answer.split()) >= 2:
            return found
    return None


def _plural(verb: str) -> bool:
    return verb.split()[0] in ("sind", "werden", "bedeuten", "bezeichnen", "beschreiben", "stehen",
                               "beziehen", "dienen", "ermöglichen", "erlauben")  # fmt: skip


def _definition(text: str) -> Match | None:
    if (m := _DEFINITION.match(text)) and not _WEAK_GENUS.match(m["answer"]):
        return Match("definition", m["subj"], m["answer"], _plural(m["verb"]), {"how": "is"})
    if m := _MEANS.match(text):
        how = m["verb"].split()[0]
        return Match("definition", m["subj"], m["answer"], _plural(m["verb"]), {"how": how})
    return None


def _purpose(text: str) -> Match | None:
    for rule in (_USED_TO, _USED_FOR):
        if m := rule.match(text):
            return Match("purpose", m["subj"], m["answer"], _plural(m["verb"]), {"how": "used"})
    if m := _SERVES.match(text):
        return Match("purpose", m["subj"], m["answer"], _plural(m["verb"]), {"how": "serves"})
    if m := _ENABLES.match(text):
        return Match("purpose", m["subj"], m["answer"], _plural(m["verb"]), {"how": "enables"})
    return None


def _default(text: str) -> Match | None:
    if m := _DEFAULT_OF.match(text):
        return Match("default", m["subj"], m["answer"], False, {"form": "noun"})
    if m := _BY_DEFAULT.match(text):
        return Match(
            "default", m["subj"], m["answer"], _plural(m["verb"]), {"form": "state", "verb": m["verb"]}
        )
    return None


def _procedure(text: str) -> Match | None:
    if (m := _TO_GOAL.match(text)) and _INSTRUCTS.match(m["answer"]):
        return _how_to(m["goal"], m["verb"], m["answer"])
    if (m := _WANT.match(text)) and _INSTRUCTS.match(m["answer"]):
        return _how_to(m["goal"], m["verb"], m["answer"])
    if m := _USE_TO.match(text):
        return _how_to(m["goal"], m["verb"], m["a"] or m["b"])
    return None


def _how_to(goal: str, verb: str, answer: str) -> Match | None:
    """ "Um die App zu bauen" -> goal "die App bauen"; "auszuführen" -> "ausführen"."""
    if _NOT_A_SITUATION.search(goal) or re.search(
        r"\b(?:sind|ist|haben|hat|sein|werden)\b", f"{goal} {verb}"
    ):
        return None  # "wenn Sie Framework-Autor sind und ... nutzen möchten": who the reader is, no goal
    infinitive = verb[3:] if verb.startswith("zu ") else _without_zu(verb)
    whole = first_person(f"{goal} {infinitive}", infinitive=True)
    return Match("procedure", whole, answer, False, {"form": "to", "goal": whole})


def _without_zu(verb: str) -> str:
    """ "auszuführen" -> "ausführen", "hinzuzufügen" -> "hinzufügen": the last inner "zu" goes."""
    at = verb.rfind("zu", 1)
    return verb[:at] + verb[at + 2 :] if at > 0 else verb


def _cause(text: str) -> Match | None:
    m = _CONDITION.match(text)
    if m is None or m["verb"] not in _FINITE and not _INSTRUCTS.match(m["answer"]):
        return None
    cond = m["cond"]
    words = cond.split()
    first = words[0]
    if first.lower() in _NO_SUBJECT - {"das"} or _NOT_A_SITUATION.search(cond):
        return None
    if first[:1].islower() and first.lower() not in _ARTICLE_WORDS | {"kein", "keine", "jemand"}:
        return None  # "wenn auf null gesetzt": no subject of its own
    if first.lower() in ("der", "die", "das") and len(words) > 1 and not _named(words[1]):
        return None  # "wenn der Wert ... ist": which value, only the page knows
    you = cond.startswith("Sie ")
    answer = m["answer"]
    if _ADVISES.match(answer):
        form = "advice"
    elif rule := re.match(r"(sollte|sollten|muss|müssen)\b(?! Sie)", answer):  # a rule about something else
        form = "rule"
        slots_modal = rule[1]
    elif answer.startswith("können Sie"):
        form = "can"
    elif you:
        return (
            None  # "Was passiert, wenn ich ...?": the page often says several things follow (as in English)
        )
    else:
        form = "effect"
    said = first_person(cond) if you else " ".join(_POSSESSIVE.get(w, w) for w in words)
    if said is None:
        return None
    slots = {"conj": m["conj"].lower(), "cond": said, "form": form}
    if form == "rule":
        slots["modal"] = "must" if slots_modal.startswith("m") else "should"
    return Match("cause", cond, answer, False, slots)


_FIRST_PERSON = {"sind": "bin", "haben": "habe", "möchten": "möchte", "können": "kann", "wollen": "will",
                 "müssen": "muss", "sollten": "sollte", "dürfen": "darf", "werden": "werde", "wissen": "weiß",
                 "hatten": "hatte", "waren": "war", "wurden": "wurde"}  # fmt: skip
_POSSESSIVE = {"Ihr": "mein", "Ihre": "meine", "Ihren": "meinen", "Ihrem": "meinem", "Ihrer": "meiner",
               "Ihres": "meines", "Ihnen": "mir"}  # fmt: skip


def first_person(clause: str, *, infinitive: bool = False) -> str | None:
    """The reader's clause as the asker says it: "Sie ... verwenden" -> "ich ... verwende", "Ihre App" ->
    "meine App". ``infinitive``: a goal, whose verb stays as it is. None when a "Sie" is left that may
    mean "they"."""
    words = clause.split()
    if not infinitive:
        if not words or words[0] != "Sie" or "Sie" in words[1:] or "sie" in words[1:]:
            return None
        words[0] = "ich"
        last = words[-1]
        words[-1] = _FIRST_PERSON.get(last) or _regular_first(last)
    elif "Sie" in words:
        return None
    return " ".join(_POSSESSIVE.get(w, w) for w in words)


def _regular_first(verb: str) -> str:
    if verb.endswith("eln"):
        return verb[:-3] + "le"
    if verb.endswith("ern"):
        return verb[:-1] + "e"
    return verb[:-1] if verb.endswith("en") else verb


def _named(word: str) -> bool:
    """A name or code ("server.fs.strict", "BigComponent.vue", "HMR") rather than a common noun."""
    return bool(re.search(r"[_./@]|[a-z][A-Z]|^[A-Z]{2,}", word))


def strip_article(phrase: str) -> str:
    """ "Der Dev-Server" -> "Dev-Server"."""
    words = phrase.split(" ", 1)
    return words[1] if len(words) == 2 and words[0].lower() in _ARTICLE_WORDS else phrase


def worth_asking_german(subject: str, topics: frozenset[str], codes: frozenset[str]) -> bool:
    """A subject a German question can name on its own: not a pronoun, not a generic word, and "der/die/das"
    with one common noun only when it is one of the chunk's terms or code ("die Option" points back)."""
    words = subject.split()
    if not words or len(words) > 6 or words[0].lower() in _NO_SUBJECT - _ARTICLE_WORDS:
        return False
    if any(w.lower() in ("sie", "es", "wir", "man", "ich") for w in words):
        return False
    bare = strip_article(subject)
    if bare.lower() in _GENERIC or not re.search(r"[A-ZÄÖÜ]|[_./@`]|\d", bare):
        return False
    lead = bare.split()[0]
    if lead.lower() in _PREPOSITIONS or (lead[:1].islower() and not _named(lead) and lead not in codes):
        return False  # "Im Rahmen dieses Ziels", "ein weiteres Merkmal": no subject a question can name
    named = any(code in subject for code in codes) or bool(re.search(r"[_./@]|[a-z][A-Z]", bare))
    if words[0].lower() in ("der", "die", "das", "dem", "den", "des") and len(bare.split()) == 1:
        return named or bare.casefold() in topics or "-" in bare
    return True


def german_fact(passage: Passage, topics: frozenset[str]) -> Fact | None:
    """The fact of one German passage (``topics``: the chunk's terms, case-folded), or None."""
    sentence = passage.sentence
    if not is_prose(sentence, passage.codes):
        return None
    match = match_german(sentence)
    if match is None:
        return None
    if match.pattern == "procedure":
        focus = match.slots["goal"]
    elif match.pattern == "cause":
        focus = match.subject
        if not _names_a_topic(focus, topics, passage.codes):
            return None  # "wenn der Wert eine Zeichenfolge ist": which value, only the page knows
    else:
        focus = strip_article(match.subject.strip())
        if not worth_asking_german(match.subject.strip(), topics, passage.codes):
            return None
    reference = with_continuation(sentence, passage, _CONTINUES)
    if match.answer.strip(" .") not in reference:
        return None
    return Fact.stated(match, focus, reference, lang="de")


def _names_a_topic(text: str, topics: frozenset[str], codes: frozenset[str]) -> bool:
    folded = f" {text.casefold()} "
    if any(code in text for code in codes) or re.search(r"[_./@]|[a-z][A-Z]", text):
        return True
    return any(f" {topic} " in folded for topic in topics if len(topic) > 3)
