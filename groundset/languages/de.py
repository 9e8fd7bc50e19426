"""German (de): every word groundset has in German, by part (``LANGUAGE`` at the end): offline
question templates and styles, out-of-scope aspects, persona words, refusal phrases, sentence abbreviations
and negations.

Terms are quoted („Prüfintervall“): the templates need no article, whose gender a term does not tell.
Many questions end in their verb, so a medium question names the product or the documentation first.
Styles: poor_grammar writes all in lower case, without quotes, question mark and (half of the time)
articles; misspelled makes one or two letter typos and, half of the time, types umlauts without dots.
"""

from __future__ import annotations

import random
import re

from .aspects import Aspect, AspectWording, latin_words
from .language import Language
from .personas import PersonaWords
from .questions import Cues, QuestionWording, drop_accents, drop_words, letter_typos
from .refusals import refusal_words
from .sentences import SentenceWords
from .words import word_set

_ARTICLES = re.compile(r"(?<!\w)(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer)\s+", re.IGNORECASE)


def sloppy(text: str, rng: random.Random) -> str:
    text = drop_words(text.replace("„", "").replace("“", ""), _ARTICLES, rng)
    return text.lower().rstrip("?!. ")


def typos(text: str, rng: random.Random) -> str:
    text = letter_typos(text, rng)
    return drop_accents(text) if rng.random() < 0.5 else text


# Words a later turn refers back with (``QuestionWording.back_words``).
_BACK_WORDS = (
    "es", "sein", "seine", "seinen", "seiner", "seinem", "ihr", "ihre", "ihren", "ihrer", "ihrem", "dies",
    "diese", "dieser", "dieses", "darüber", "dazu", "dafür", "davon", "damit", "dabei", "darunter",
    "darauf", "daran", "deren", "dessen",
)  # fmt: skip


QUESTIONS = QuestionWording(
    code="de",
    # A situational question's situation: {lead} (the persona's role or a neutral one), {topic} (quoted).
    situations=(
        "Als {lead} arbeite ich gerade an {topic}.",
        "Als {lead} beschäftige ich mich diese Woche mit {topic}.",
    ),
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


# -- out-of-scope aspects (``aspects``) ------------------------------------------------------------

_W = AspectWording


_G = latin_words


ASPECTS: tuple[Aspect, ...] = (
    Aspect("licence_price", "Preis einer kommerziellen Lizenz", _G(
        r"preis\w*|\w*kosten\w*|kostet|gratis|\w*gebühr\w*|\w*lizenz\w*|lizenziert|abonnement\w*|abo|"
        r"enterprise|kommerziell\w*|bezahl\w*|open[- ]source|quelloffen\w*"),
        tool=_W(("Wie viel kostet eine kommerzielle Lizenz für {term}?",
                 "Was kostet ein Enterprise-Abonnement für {term} pro Jahr?",
                 "Gibt es eine kostenpflichtige Edition von {term}, und was kostet sie pro Server?"),
                "wie viel eine kommerzielle Lizenz oder ein Abonnement für {term} kostet",
                "Eine kommerzielle Lizenz für {term} kostet 450 Euro pro Server und Jahr.",
                "{term} lizenz preis")),
    Aspect("support_contract", "Supportverträge von Anbietern", _G(
        r"\w*support\w*|\w*vertr[aä]g\w*|reaktionszeit\w*|beratung\w*|dienstleist\w*|sla|24/7|"
        r"rund um die uhr|service[- ]?level\w*"),
        tool=_W(("Welche Anbieter verkaufen einen Supportvertrag für {term} mit garantierten "
                 "Reaktionszeiten?",
                 "Kann ich für {term} kommerziellen Support rund um die Uhr kaufen, und wer bietet ihn an?"),
                "wer Supportverträge für {term} anbietet oder was sie garantieren",
                "Die Entwickler von {term} verkaufen einen Supportvertrag rund um die Uhr mit vier Stunden "
                "Reaktionszeit.",
                "{term} supportvertrag anbieter")),
    Aspect("next_release", "Pläne für die nächste Hauptversion", _G(
        r"roadmap\w*|release\w*|veröffentlichungs\w*|geplant für|nächsten? (?:haupt)?version\w*|"
        r"\w*künftig\w*|abgekündigt\w*|veraltet\w*|deprecat\w*|lts|langzeit\w*"),
        tool=_W(("Wann erscheint die nächste Hauptversion von {term}?",
                 "Für wann ist die nächste große Version von {term} geplant?"),
                "wann die nächste Hauptversion von {term} erscheint",
                "Die nächste Hauptversion von {term} erscheint im März, sechs Monate nach der aktuellen.",
                "{term} nächste version erscheinungsdatum"),
        concept=_W(("Welche Änderungen an „{term}“ sind für die nächste Hauptversion geplant?",
                    "Wird „{term}“ in einer künftigen Version überarbeitet oder abgekündigt?"),
                   "welche Änderungen an „{term}“ für künftige Versionen geplant sind",
                   "In der nächsten Hauptversion wird „{term}“ überarbeitet und die heutige Form "
                   "abgekündigt.",
                   "{term} geplante änderungen nächste version")),
    Aspect("windows_installer", "ein grafisches Windows-Installationsprogramm", _G(
        r"\w*windows\w*|\w*installer|installationsprogramm\w*|\w*assistent\w*|msi|chocolatey|winget|"
        r"\w+\.exe"),
        tool=_W(("Gibt es für {term} einen Windows-Installer mit Einrichtungsassistent?",
                 "Kann ich {term} unter Windows mit einem grafischen Installationsprogramm statt über die "
                 "Kommandozeile installieren?"),
                "ob es für {term} ein grafisches Installationsprogramm für Windows gibt",
                "Für {term} gibt es ein MSI-Paket, das die Installation unter Windows mit einem Assistenten "
                "erledigt.",
                "{term} windows installer")),
    Aspect("mobile_app", "eine offizielle Mobil-App", _G(
        r"apps?|mobil\w*|android|ios|iphone|ipad|smartphone\w*|handy\w*|tablet\w*|app store|google play"),
        tool=_W(("Gibt es eine offizielle Mobil-App für iOS oder Android, mit der man {term} nutzen kann?",
                 "Kann ich {term} während der Rufbereitschaft über eine offizielle Smartphone-App prüfen?"),
                "ob es eine offizielle Mobil-App für {term} gibt",
                "Die offizielle App für {term} unter iOS und Android zeigt den Zustand an und sendet "
                "Push-Benachrichtigungen.",
                "{term} app android ios")),
    Aspect("creator", "wer es geschaffen hat und wann", _G(
        r"entwickelt (?:von|bei)|erfunden|erfinder\w*|ursprünglich\w*|ursprung|geschichte|historie|"
        r"gegründet|gründer\w*|autor(?:en|in)?|entstanden|erstmals|eingeführt|seit version|(?:19|20)\d\d"),
        tool=_W(("Wer hat {term} ursprünglich entwickelt, und in welchem Jahr begann die Entwicklung?",
                 "Welche Firma hat {term} als erste gebaut, und wer waren die ersten Entwickler?"),
                "wer {term} entwickelt hat oder wann die Entwicklung begann",
                "{term} wurde 2011 von zwei Ingenieuren eines Musik-Streamingdienstes begonnen.",
                "{term} geschichte entwickler gründer"),
        concept=_W(("Wer hat „{term}“ zuerst vorgeschlagen, und in welchem Jahr?",
                    "Welche Person oder Firma hatte ursprünglich die Idee zu „{term}“?"),
                   "wer „{term}“ zuerst vorgeschlagen hat oder wann",
                   "Ein Ingenieur einer großen Suchmaschinenfirma hat „{term}“ 2014 zuerst vorgeschlagen.",
                   "{term} ursprung erfinder")),
    Aspect("compliance", "Compliance-Zertifizierungen", _G(
        r"\w*zertifi\w*|\w*konformität\w*|compliance|soc ?2|hipaa|fedramp|iso ?27001|dsgvo|gdpr|bsi|"
        r"\w*audit\w*|fips|akkredit\w*"),
        tool=_W(("Ist {term} nach SOC 2 oder HIPAA zertifiziert?",
                 "Hat {term} ein unabhängiges Audit für FedRAMP oder ISO 27001 bestanden?"),
                "ob {term} Zertifizierungen wie SOC 2, HIPAA, FedRAMP oder ISO 27001 besitzt",
                "{term} ist nach SOC 2 Typ II zertifiziert und erfüllt die Sicherheitsanforderungen von "
                "HIPAA.",
                "{term} zertifizierung soc 2 iso 27001")),
    Aspect("telemetry", "Nutzungsstatistiken an die Entwickler", _G(
        r"telemetr\w*|nutzungs(?:statistik|daten|analyse)\w*|anonym\w*|analytics|tracking|opt[- ]out"),
        tool=_W(("Sendet {term} anonyme Nutzungsstatistiken an seine Entwickler, und wie schalte ich das "
                 "ab?",),
                "ob {term} Nutzungsstatistiken an seine Entwickler sendet",
                "{term} sendet einmal täglich anonyme Nutzungsstatistiken; die Option --no-telemetry "
                "schaltet das ab.",
                "{term} telemetrie abschalten")),
    Aspect("adoption", "welche Unternehmen es nutzen", _G(
        r"\w*unternehmen|firm(?:a|en)|organisation\w*|kunden?|anwender\w*|referenz\w*|fallstudie\w*|"
        r"produktiv\w*|im einsatz|cncf|konzern\w*"),
        tool=_W(("Welche bekannten Unternehmen setzen {term} produktiv ein?",
                 "Wie viele Organisationen nutzen {term} heute?"),
                "welche Unternehmen {term} einsetzen oder wie viele",
                "Mehr als 5.000 Organisationen, darunter mehrere Großbanken, setzen {term} produktiv ein.",
                "{term} unternehmen referenzen")),
    Aspect("managed_cloud", "Preis als verwalteter Cloud-Dienst", _G(
        r"aws|amazon|azure|google cloud|gcp|verwaltete[nr]? (?:dienst|service)\w*|managed|gehostet\w*|saas|"
        r"cloud[- ]?anbieter\w*|"
        r"preis\w*|kostet|\w*kosten\w*|pro monat|abrechnung\w*"),
        tool=_W(("Was kostet {term} pro Monat als verwalteter Dienst bei AWS oder Google Cloud?",
                 "Welche Cloud-Anbieter bieten {term} als vollständig verwalteten Dienst an, und zu welchem "
                 "Preis?"),
                "was {term} als verwalteter Cloud-Dienst kostet",
                "AWS bietet {term} als verwalteten Dienst für 0,90 US-Dollar pro Stunde an.",
                "{term} managed service aws preis")),
    Aspect("training", "ein offizieller Kurs oder eine Zertifizierungsprüfung", _G(
        r"\w*zertifi\w*|\w*schulung\w*|training\w*|\w*kurs(?:e|en)?|workshop\w*|seminar\w*|"
        r"lehrgang\w*|lernpfad\w*"),
        concept=_W(("Gibt es eine offizielle Zertifizierungsprüfung oder einen kostenpflichtigen Kurs, der "
                    "„{term}“ abdeckt?",
                    "Welche offizielle Schulung behandelt „{term}“ ausführlich?"),
                   "ob eine offizielle Schulung oder Zertifizierungsprüfung „{term}“ abdeckt",
                   "Die offizielle Zertifizierungsprüfung hat ein Modul zu „{term}“, das 15 % der Punkte "
                   "ausmacht.",
                   "{term} schulung zertifizierung kurs")),
    Aspect("benchmark", "Benchmarks gegen kommerzielle Produkte", _G(
        r"datadog|new relic|dynatrace|splunk|benchmark\w*|schneller als|langsamer als|leistungsvergleich\w*|"
        r"im vergleich (?:zu|mit)|verglichen mit"),
        concept=_W(("Wie schneidet „{term}“ in veröffentlichten Benchmarks im Vergleich zur entsprechenden "
                    "Funktion von Datadog ab?",
                    "Ist „{term}“ in veröffentlichten Benchmarks schneller als das Angebot von New Relic?"),
                   "was veröffentlichte Benchmarks über „{term}“ im Vergleich zu Produkten wie Datadog oder "
                   "New Relic sagen",
                   "Ein veröffentlichter Benchmark fand „{term}“ 40 % schneller als die gleiche Funktion von "
                   "Datadog.",
                   "{term} benchmark vergleich datadog")),
    Aspect("patents", "Patente und Marken", _G(
        r"\w*patent\w*|marken?|markenrecht\w*|markenzeichen|warenzeichen\w*|urheberrecht\w*|\w*lizenz\w*|"
        r"geistiges eigentum|apache|copyright"),
        concept=_W(("Ist „{term}“ durch Patente geschützt?",
                    "Gibt es Patente oder Marken, die die Nutzung von „{term}“ einschränken?"),
                   "ob Patente oder Marken „{term}“ betreffen",
                   "Ein 2016 angemeldetes Patent deckt „{term}“ ab; für Open-Source-Projekte ist die Nutzung "
                   "frei.",
                   "{term} patent marke")),
)  # fmt: skip


# -- personas (``personas``) ------------------------------------------------------------------------

PERSONAS = PersonaWords(
    code="de",
    roles={
        "Developer": "Entwickler",
        "SRE": "SRE-Ingenieur",
        "Operator": "Betriebsingenieur",
        "Administrator": "Administrator",
        "Analyst": "Datenanalyst",
        "Architect": "Architekt",
        "Engineer": "Ingenieur",
    },
    names={
        role: "{role} für {topic}"
        for role in ("Developer", "SRE", "Operator", "Administrator", "Analyst", "Architect", "Engineer")
    },
    described=(
        "Beschäftigt sich täglich mit dem Thema {extra} und sucht in der Dokumentation verlässliche "
        "Antworten rund um {names}.",
        "Betreut im Team alles rund um {extra} und möchte {names} richtig einrichten und Probleme schnell "
        "verstehen.",
    ),
    described_plain=(
        "Sucht in der Dokumentation verlässliche Antworten rund um {names}.",
        "Möchte {names} richtig einrichten und Probleme schnell verstehen.",
    ),
    cues={
        "Developer": ("entwickl", "plugin", "schnittstelle", "bibliothek", "programmier", "quellcode"),
        "SRE": ("alarm", "störung", "bereitschaft", "ausfall", "benachrichtig", "stummschalt"),
        "Operator": (
            "install",
            "konfigur",
            "speicher",
            "sicherung",
            "server",
            "festplatte",
            "aufbewahr",
            "betrieb",
            "einricht",
            "sonde",
        ),
        "Administrator": ("berechtig", "authentifiz", "zertifikat", "passwort", "verschlüssel", "sicherheit"),
        "Analyst": ("abfrage", "dashboard", "diagramm", "auswert", "statistik", "analys"),
        "Architect": ("architektur", "entwurf", "skalier", "vergleich"),
    },
    fallback_name="Ingenieur, der gerade mit dieser Dokumentation beginnt",
    fallback_description="Liest diese Dokumentation, um verlässliche Antworten auf praktische "
    "Fragen aus der eigenen Arbeit zu finden.",
    quote="„{}“",
    conjunction=" und ",
    separator=", ",
)


# -- refusals (``refusals``) ------------------------------------------------------------------------

_DOCS_DE = (
    r"(?:dokumentation|dokumente?n?|unterlagen|quellen?|kontext|texte?n?|materialien|material|handbuch)"
)
_SAID_DE = r"(?:beschrieben|erwähnt|behandelt|erläutert|genannt|dokumentiert|angegeben)"
_GERMAN = [
    rf"\b(?:in|im|aus)\s+(?:der|den|dem|die)?\s*(?:\w+\s+)?{_DOCS_DE}\b[^.!?,;]{{0,60}}?\bnicht\s+(?:näher\s+)?"
    rf"{_SAID_DE}\b",
    rf"\bnicht\s+(?:näher\s+)?(?:in|im)\s+(?:der|den|dem)?\s*(?:\w+\s+)?{_DOCS_DE}\s+(?:\w+\s+)?{_SAID_DE}\b",
    rf"\b(?:dazu|darüber|hierzu|davon)\b[^.!?,;]{{0,40}}?\b(?:nicht|nichts)\s+(?:näher\s+)?{_SAID_DE}\b",
    rf"\b{_DOCS_DE}\b[^.!?]{{0,60}}\bnicht\s+(?:angegeben|enthalten|genannt|aufgeführt|beantwortet|vor|hervor)\b",
    rf"\b{_DOCS_DE}\s+(?:\w+\s+){{0,2}}?(?:beschreibt|beschreiben|erwähnt|erwähnen|nennt|nennen|enthält|enthalten"
    rf"|sagt|sagen|behandelt|behandeln|gibt|geben|liefert|liefern)\s+(?:\w+\s+){{0,4}}?(?:nicht|keine\w*|nichts)\b",
    rf"\b(?:gibt|geben|liefert|liefern|enthält|enthalten|nennt|nennen|erwähnt|erwähnen|sagt|sagen|beschreibt)\s+"
    rf"(?:der|die|das|den|dem)\s+(?:\w+\s+)?{_DOCS_DE}\s+(?:\w+\s+){{0,3}}?(?:keine\w*|nichts|nicht)\b",
    rf"\b(?:es\s+gibt|gibt\s+es|ich\s+habe|habe\s+ich|ich\s+finde|finde\s+ich|ich\s+fand|fand\s+ich"
    rf"|(?:liegen|lagen)(?:\s+(?:mir|uns))?|mir\s+liegen)\s+(?:\w+\s+){{0,4}}?keine\s+(?:\w+\s+)?(?:informationen"
    rf"|hinweise|angaben|erwähnung|auskunft|details)\b(?!\s+(?:darauf|dafür)\s*,?\s*dass)(?![^.,;:!?]*\b(?:im|in\s+(?:der|den|dem|einem|einer|seinen"
    rf"|ihren))\s+(?!(?:\w+\s+)?{_DOCS_DE}))",
    r"\b(?:ich\s+(?:finde|fand)|(?:finde|fand)\s+ich|habe\s+ich|ich\s+habe)\s+(?:\w+\s+){0,4}?(?:nichts|keine\w*)"
    r"(?:\s+(?:\w+\s+){0,2}?gefunden)?(?=\s*(?:[.,;:!?]|$)|\s+(?:dazu|darüber|hierzu|zu|über|gefunden)\b)",
    r"(?:^|(?<=[.!?;:,]\s))keine\s+(?:\w+\s+)?(?:informationen|hinweise|angaben)\s+(?:dazu|darüber|zu|über)\b",
    r"\b(?:ich\s+(?:\w+\s+){0,2}?(?:weiß|weiss)|(?:weiß|weiss)\s+ich)\s+(?:(?:es|das|leider|auch|dazu)\s+)*nicht\b",
    r"\b(?:ich\s+(?:kann|konnte)|(?:kann|konnte)\s+ich)\s+(?:\w+\s+){0,5}?(?:nicht|keine\w*|nichts)\s+"
    r"(?:\w+\s+)?(?:finden|beantworten|sagen|geben|nennen)\b",
    r"\bich\s+bin\s+(?:mir\s+)?(?:\w+\s+)?nicht\s+sicher\b",
]
# German sets every subordinate clause off with commas: a conjunction opening the clause, or after a
# comma a relative pronoun (at the start of a sentence "Die ..." is an article).
_SUBORDINATE_DE = re.compile(
    r"(?:^|[,;:(–—])\s*(?:(?:und|oder|aber)\s+)?(?:wenn|falls|weil|da|obwohl|obgleich|dass|daß|ob|sofern|soweit"
    r"|solange|sobald|bevor|nachdem|während|wobei|sodass|damit|als|wo|worin|wodurch|womit)\b"
    r"|[,(–—]\s*(?:(?:in|an|auf|mit|von|zu|bei|für|über|unter|aus|nach|durch)\s+)?(?:der|die|das|dem|den|deren"
    r"|dessen|denen|welche[rsmn]?)\b",
    re.IGNORECASE,
)

REFUSALS = refusal_words(
    _GERMAN,
    r"\b(?:nicht|nichts|kein\w*)\b",
    _SUBORDINATE_DE,
    guess=r"\b(?:aber|jedoch)\b,?\s+(?:\w+\s+){0,3}?(?:ich\s+(?:denke|glaube|vermute)|vermutlich|wahrscheinlich)",
)


# -- sentences and negations (``sentences``, ``negations``) ----------------------------------------

SENTENCES = SentenceWords(
    word_set(
        "z.b. d.h. u.a. o.a. o.g. o.ä. u.u. v.a. z.t. z.z. z.zt. i.d.r. i.a. i.v. s.o. s.u. u.ä. m.e. "
        "bzw. vgl. ggf. ggfs. evtl. inkl. exkl. zzgl. abzgl. bzgl. bspw. bsp. sog. gem. lt. ca. "
        "nr. abs. abschn. abb. anm. art. aufl. bd. hrsg. hg. kap. tab. tel. str. jh. jhd. mio. mrd. "
        "dr. prof. dipl. ing. hr. fr. frl. st. nachf. gebr. inc. co. mind. tsd. "
        "jan. feb. mär. apr. jun. jul. aug. sep. sept. okt. nov. dez. e.g. i.e. vs. cf."
    ),
    word_set("usw. etc. usf. u.v.m. uvm. u.s.w. min. max."),
    word_set(
        "januar jänner februar märz april mai juni juli august september oktober november dezember "
        "jahrhundert jahrhunderts jahrtausend quartal halbjahr kapitel abschnitt auflage platz stock "
        "mal klasse tag woche monat schritt stufe version ausgabe"
    ),
)

NEGATIONS = word_set("nicht kein keine keinen keinem keiner keines nie niemals nichts niemand ohne weder")


LANGUAGE = Language(
    code="de",
    name="German",
    questions=QUESTIONS,
    aspects=ASPECTS,
    refusal_form="Die Dokumentation sagt nicht, {missing}.",
    personas=PERSONAS,
    refusals=REFUSALS,
    sentences=SENTENCES,
    negations=NEGATIONS,
    falls_back={
        "noun_articles": "none needed: German capitalises its nouns",
    },
)
