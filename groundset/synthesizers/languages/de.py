"""German (de) offline questions.

Terms are quoted („Prüfintervall“): the templates need no article, whose gender a term does not tell.
Many questions end in their verb, so a medium question names the product or the documentation first.
Styles: poor_grammar writes all in lower case, without quotes, question mark and (half of the time)
articles; misspelled makes one or two letter typos and, half of the time, types umlauts without dots.
"""

from __future__ import annotations

import random
import re

from .wording import Cues, Wording, drop_accents, drop_words, letter_typos

_ARTICLES = re.compile(r"(?<!\w)(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer)\s+", re.IGNORECASE)


def sloppy(text: str, rng: random.Random) -> str:
    text = drop_words(text.replace("„", "").replace("“", ""), _ARTICLES, rng)
    return text.lower().rstrip("?!. ")


def typos(text: str, rng: random.Random) -> str:
    text = letter_typos(text, rng)
    return drop_accents(text) if rng.random() < 0.5 else text


# Words a later turn refers back with (``Wording.back_words``).
_BACK_WORDS = (
    "es", "sein", "seine", "seinen", "seiner", "seinem", "ihr", "ihre", "ihren", "ihrer", "ihrem", "dies",
    "diese", "dieser", "dieses", "darüber", "dazu", "dafür", "davon", "damit", "dabei", "darunter",
    "darauf", "daran", "deren", "dessen",
)  # fmt: skip


WORDING = Wording(
    code="de",
    single={
        "definition": (
            "Was versteht man unter „{term}“?",
            "Wie definiert die Dokumentation den Begriff „{term}“?",
            "Was bedeutet „{term}“ genau?",
        ),
        "default": (
            "Welcher Standardwert gilt für „{term}“?",
            "Welche Voreinstellung hat „{term}“?",
            "Was gilt für „{term}“, wenn man nichts ändert?",
        ),
        "duration": (
            "Welche Zeitspanne gilt für „{term}“?",
            "Wie lange dauert der für „{term}“ angegebene Zeitraum?",
        ),
        "amount": (
            "Welcher Wert ist für „{term}“ angegeben?",
            "Welche Größe nennt die Dokumentation für „{term}“?",
        ),
        "requirement": (
            "Welche Anforderungen gelten für „{term}“?",
            "Was muss man bei „{term}“ beachten?",
            "Welche Regeln gelten für „{term}“?",
        ),
        "generic": (
            "Was sagt die Dokumentation über „{term}“?",
            "Wie funktioniert „{term}“?",
            "Wofür wird „{term}“ verwendet?",
            "Was sollte ich über „{term}“ wissen?",
            "Welche Rolle spielt „{term}“?",
        ),
    },
    multi={
        "two": (
            "Wie hängt „{term}“ mit {a} und {b} zusammen?",
            "Was sagen die Abschnitte {a} und {b} über „{term}“?",
            "Welche Rolle spielt „{term}“ in {a} und in {b}?",
        ),
        "one": (
            "Wie hängt „{term}“ mit {a} zusammen, und was steht dazu an anderer Stelle?",
            "Was sagen verschiedene Teile der Dokumentation über „{term}“ und {a}?",
        ),
        "none": (
            "Was sagen zwei verschiedene Stellen der Dokumentation über „{term}“?",
            "Wie passen die verschiedenen Beschreibungen von „{term}“ in der Dokumentation zusammen?",
        ),
        "abstract": (
            "Wie wird „{term}“ in {labels} behandelt?",
            "Was sollte man über „{term}“ wissen, wenn man mit {labels} arbeitet?",
            "Welche gemeinsamen Gedanken zu „{term}“ finden sich in {labels}?",
            "Worin unterscheiden sich {labels} im Umgang mit „{term}“?",
        ),
        "abstract_none": (
            "Wie wird „{term}“ in verschiedenen Teilen der Dokumentation behandelt?",
            "Was sind die wichtigsten Punkte zu „{term}“ in der Dokumentation?",
        ),
    },
    search={
        "definition": "{term} bedeutung",
        "default": "{term} standardwert",
        "duration": "{term} dauer",
        "amount": "{term} wert",
        "requirement": "{term} anforderungen",
        "generic": "{term} funktion erklärung",
        "two": "{term} {a} {b} zusammenhang",
        "one": "{term} {a} zusammenhang",
        "none": "{term} beschreibung",
        "abstract": "{term} {labels} unterschied",
        "abstract_none": "{term} überblick",
    },
    cues=Cues(
        default=re.compile(r"standard|voreingestellt|voreinstellung|\bdefault", re.IGNORECASE),
        requirement=re.compile(
            r"\b(?:muss|müssen|erforderlich|notwendig|benötigt|sollte|sollten|darf nicht)\b", re.IGNORECASE
        ),
        duration=re.compile(
            r"\d+(?:[.,]\d+)?\s?(?:millisekunden|sekunden|minuten|stunden|tagen?|wochen|monaten?"
            r"|jahren?|ms|s|min|h)\b",
            re.IGNORECASE,
        ),
        amount=re.compile(r"\d+(?:[.,]\d+)?\s?(?:[kmgt]i?b|%|prozent|mal)(?!\w)", re.IGNORECASE),
        definition=re.compile(r"^\s+(?:ist|sind|bezeichnet|bedeutet|beschreibt|heißt)\b"),
    ),
    quote="„{}“",
    conjunction=" und ",
    separator=", ",
    # Many questions end in their verb ("… wissen?"): a suffix would follow it, so the scope goes first.
    scoped="Frage zu {scope}: {core}",
    clauses=("Laut Dokumentation: {core}", "Eine Frage zur Dokumentation: {core}"),
    long="Als {lead} {purpose}. {core}",
    leads=(
        "Neuling in dieser Dokumentation",
        "Entwickler in einem kleinen Team",
        "Ingenieur im Betriebsteam",
    ),
    purposes=(
        "muss ich das genau verstehen, bevor ich in der Produktion etwas ändere",
        "möchte ich das so gut verstehen, dass ich es meinem Team erklären kann",
        "schreibe ich gerade eine interne Anleitung und will, dass jedes Detail stimmt",
        "prüfe ich unsere Einrichtung und will Fehler vermeiden, die sich später schwer beheben lassen",
    ),
    poor_grammar=sloppy,
    misspelled=typos,
    role_words=(
        "entwickler",
        "ingenieur",
        "administrator",
        "analyst",
        "architekt",
        "betrieb",
        "sre",
        "techniker",
    ),
    document_word="Dokumentation",
    joined="{a}, und {b}?",
    joined_apart="{a}, und {b}?",
    compare=(
        "Wie unterscheiden sich {a} und {b} bei „{term}“?",
        "Was sagen {a} und {b} jeweils über „{term}“?",
        "Wie beschreiben {a} und {b} „{term}“ im Vergleich?",
    ),
    contrast=(
        "Worin unterscheiden sich „{term}“ und „{other}“?",
        "Was unterscheidet „{term}“ von „{other}“?",
    ),
    search_compare="{term} {a} {b} unterschied",
    # Pronominal adverbs ("dafür", "dabei") refer back whatever the gender of the term.
    follow_ups={
        "definition": ("Und was versteht man genau darunter?", "Was ist damit genau gemeint?"),
        "default": ("Und welcher Standardwert gilt dafür?", "Was gilt dafür, wenn man nichts ändert?"),
        "duration": ("Und welche Zeitspanne gilt dafür?", "Und wie lange dauert das?"),
        "amount": ("Und welcher Wert ist dafür angegeben?", "Welche Größe nennt die Dokumentation dafür?"),
        "requirement": ("Und was muss man dabei beachten?", "Welche Regeln gelten dafür?"),
        "generic": (
            "Und was sollte ich sonst noch darüber wissen?",
            "Was steht in der Dokumentation sonst noch dazu?",
            "Und wie funktioniert das genau?",
        ),
    },
    back_words=_BACK_WORDS,
    openers=("und", "was ist mit"),
)
