"""Out-of-scope wording outside English: what an aspect's question, refusal clause and invented answer
look like in a language, the words that show a passage of that language answers the aspect, and the
offline question itself (sized and styled by the language's own rules in ``languages``).

The shapes (``Wording``, ``Aspect``) serve English too (``out_of_scope_prompts``); this module holds the
German table, ``out_of_scope_romance`` the French and Spanish ones, ``out_of_scope_cjk`` the Chinese and
Japanese ones. Templates hold {term}: a name of software bare, any other term quoted as the language
quotes terms („Sonde“, « sonde », «sonda», 「ブロック」), so no template needs the article or gender a
term does not tell.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..text.scripts import CJK
from .languages import wording as language_wording
from .local_questions import local_size, local_style, padded, tidy, too_long

__all__ = [
    "GERMAN",
    "Aspect",
    "Wording",
    "after_article",
    "cjk_words",
    "latin_spaced",
    "latin_words",
    "local_draft",
]


@dataclass(frozen=True)
class Wording:
    """How one aspect is asked, declined and answered (made up) in one language."""

    questions: tuple[str, ...]  # templates: {term}; English also {a_term}, {be}/{Be}, {do}/{Do}
    missing: str  # completes a refusal form: "how much a commercial licence for {term} costs"
    candidate: str  # an answer an assistant might invent
    search: str = ""  # outside English: the web_search query ("{term} lizenz preis")


@dataclass(frozen=True)
class Aspect:
    """Something users ask about a tool or a concept that technical documentation rarely states."""

    key: str
    topic: str  # what it asks, in the table's language (an offline sample names it among its terms)
    answered_by: re.Pattern[str]  # words showing that a passage about the term answers it
    tool: Wording | None = None  # for a named piece of software ("Alertmanager")
    concept: Wording | None = None  # for anything ("native histograms"); tools too, when no tool wording

    def wording(self, tool: bool) -> Wording | None:
        return (self.tool or self.concept) if tool else self.concept


def latin_words(pattern: str) -> re.Pattern[str]:
    """Whole words of a spaced language; ``\\w*`` in an entry reaches into compounds ("Lizenzkosten")."""
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


def cjk_words(pattern: str) -> re.Pattern[str]:
    """Words of Chinese or Japanese text, which has no spaces to bound them."""
    return re.compile(pattern, re.IGNORECASE)


_CJK_LATIN = re.compile(rf"(?<=[{CJK}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{CJK}])")


def latin_spaced(text: str) -> str:
    """CJK text with its Latin words set off by spaces ("在Windows上" -> "在 Windows 上"), so that word
    boundaries find them."""
    return _CJK_LATIN.sub(" ", text)


# Words that precede a noun (and hardly a verb or an adjective alone) in languages that do not capitalise
# nouns: "la condición" reads as a thing, "cumple" and "antiguos" never follow one.
_ARTICLES = {
    "fr": r"(?:le|la|les|un|une|des|du|au|aux|ce|cette|ces|chaque)\s+|l['’]",
    "es": r"(?:el|la|los|las|un|una|unos|unas|del|al|cada|este|esta|estos|estas)\s+",
}


def after_article(term: str, texts: Iterable[str], code: str) -> bool:
    """Whether some text writes ``term`` right after an article of language ``code`` (a noun there); True
    for a language whose nouns need no such sign (German capitalises them; CJK terms are checked apart)."""
    if code not in _ARTICLES:
        return True
    pattern = re.compile(rf"(?<!\w)(?:{_ARTICLES[code]}){re.escape(term)}(?!\w)", re.IGNORECASE)
    return any(pattern.search(text) for text in texts)


_FRENCH_VOWEL = re.compile(r"[aeiouyàâäéèêëîïôöûüh]", re.IGNORECASE)


def _elided(code: str, template: str, term: str) -> str:
    """French elides "de" and "que" before a vowel: "la version d'Orbiscope"."""
    if code != "fr" or not _FRENCH_VOWEL.match(term):
        return template
    return template.replace("de {term}", "d'{term}").replace("que {term}", "qu'{term}")


def local_draft(
    code: str, wording: Wording, term: str, *, persona: str = "", style: str, length: str, seed: int
) -> tuple[str, str, str]:
    """(question, missing clause, invented answer) in language ``code``: the question is one of the
    templates, sized (medium: "as the documentation says"; long: a role lead-in and a purpose) and styled
    as that language does it; web_search is the aspect's query."""
    words = language_wording(code)
    if words is None:
        raise ValueError(f"no offline wording for language {code!r}")

    def fill(template: str) -> str:
        return tidy(words, _elided(code, template, term).format(term=padded(words, term)))

    missing, candidate = fill(wording.missing), fill(wording.candidate)
    if style == "web_search":
        return " ".join(wording.search.format(term=term).split()).lower(), missing, candidate
    rng = random.Random(f"out_of_scope|{code}|{seed}|{term}")
    cores = [fill(template) for template in wording.questions]
    core = rng.choice(cores)
    if length == "short" and too_long(words, core):
        core = min(cores, key=len)
    question = local_size(words, core, length, persona=persona, seed=seed)
    return local_style(words, question, style, seed=seed, protect=[term]), missing, candidate


_W = Wording
_G = latin_words
GERMAN: tuple[Aspect, ...] = (
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
