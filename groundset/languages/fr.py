"""French (fr): every word groundset has in French, by part (``LANGUAGE`` at the end): offline
question templates and styles, out-of-scope aspects, persona words, refusal phrases, sentence abbreviations
and negations.

Terms are quoted (« sonde »): the templates need no article, whose gender a term does not tell.
Styles: poor_grammar writes in lower case, without guillemets, question mark, "est-ce que" and the
"-t-" of inversions, and half of the time without articles; misspelled makes one or two letter typos
and, half of the time, drops the accents, as on a keyboard without them.
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

_ARTICLES = re.compile(r"(?<!\w)(?:le|la|les|un|une|des|du)\s+", re.IGNORECASE)


def sloppy(text: str, rng: random.Random) -> str:
    text = drop_words(text.replace("« ", "").replace(" »", ""), _ARTICLES, rng)
    text = text.replace("est-ce que ", "").replace("-t-", " ")
    return text.lower().rstrip("?!. \u00a0")


def typos(text: str, rng: random.Random) -> str:
    text = letter_typos(text, rng)
    return drop_accents(text) if rng.random() < 0.5 else text


# Words a later turn refers back with (``QuestionWording.back_words``).
_BACK_WORDS = (
    "il", "elle", "ils", "elles", "son", "sa", "ses", "leur", "leurs", "cela", "ça", "cet", "cette", "ces",
    "celui", "celle", "lui", "là",
)  # fmt: skip
# Words a noun follows ("les règles"): see ``QuestionWording.articles``.
_BEFORE_NOUNS = (
    "le", "la", "les", "l'", "un", "une", "des", "du", "de", "d'", "au", "aux", "ce", "cet", "cette", "ces",
    "chaque",
)  # fmt: skip


QUESTIONS = QuestionWording(
    code="fr",
    # A situational question's situation: {lead} (the persona's role or a neutral one), {topic} (quoted).
    situations=(
        "En tant que {lead}, je travaille en ce moment sur {topic}.",
        "En tant que {lead}, je me penche cette semaine sur {topic}.",
    ),
    # "que" and "de" before a vowel or a mute h, as templates join them to any word: "En tant que ingénieur".
    elision=re.compile(r"\b([QqDd]|[Qq]u)e\s+(?=[aeiouyhàâäéèêëîïôöûüœAEIOUYHÀÂÄÉÈÊÎÔÛŒ])"),
    single={
        "definition": (
            "Que signifie « {term} » ?",
            "Comment la documentation définit-elle « {term} » ?",
            "Qu'entend-on exactement par « {term} » ?",
        ),
        "default": (
            "Quelle est la valeur par défaut de « {term} » ?",
            "Quel réglage par défaut s'applique à « {term} » ?",
            "Que se passe-t-il pour « {term} » si l'on ne change rien ?",
        ),
        "duration": (
            "Quelle durée est indiquée pour « {term} » ?",
            "Combien de temps est prévu pour « {term} » ?",
        ),
        "amount": (
            "Quelle valeur est indiquée pour « {term} » ?",
            "Quelle quantité la documentation donne-t-elle pour « {term} » ?",
        ),
        "requirement": (
            "Quelles exigences s'appliquent à « {term} » ?",
            "À quoi faut-il faire attention avec « {term} » ?",
            "Quelles règles faut-il respecter pour « {term} » ?",
        ),
        "generic": (
            "Que dit la documentation sur « {term} » ?",
            "Comment fonctionne « {term} » ?",
            "À quoi sert « {term} » ?",
            "Que faut-il savoir sur « {term} » ?",
            "Quel rôle joue « {term} » ?",
        ),
    },
    multi={
        "two": (
            "Quel lien y a-t-il entre « {term} », {a} et {b} ?",
            "Que disent les sections {a} et {b} à propos de « {term} » ?",
            "Quel rôle joue « {term} » dans {a} et dans {b} ?",
        ),
        "one": (
            "Quel lien y a-t-il entre « {term} » et {a}, et qu'en dit la documentation ailleurs ?",
            "Que disent différentes parties de la documentation sur « {term} » et {a} ?",
        ),
        "none": (
            "Que disent deux parties différentes de la documentation sur « {term} » ?",
            "Comment les différentes descriptions de « {term} » dans la documentation s'articulent-elles ?",
        ),
        "abstract": (
            "Comment la question de « {term} » est-elle abordée dans {labels} ?",
            "Que faut-il savoir sur « {term} » quand on travaille avec {labels} ?",
            "Quelles idées communes sur « {term} » retrouve-t-on dans {labels} ?",
            "Quelles différences y a-t-il entre {labels} dans la façon de traiter « {term} » ?",
        ),
        "abstract_none": (
            "Comment la question de « {term} » est-elle abordée dans les différentes parties de la "
            "documentation ?",
            "Quels sont les points essentiels sur « {term} » dans la documentation ?",
        ),
    },
    search={
        "definition": "{term} signification",
        "default": "{term} valeur par défaut",
        "duration": "{term} durée",
        "amount": "{term} valeur",
        "requirement": "{term} exigences",
        "generic": "{term} fonctionnement",
        "two": "{term} {a} {b} lien",
        "one": "{term} {a} lien",
        "none": "{term} descriptions",
        "abstract": "{term} {labels} différences",
        "abstract_none": "{term} résumé",
    },
    cues=Cues(
        default=re.compile(r"par défaut|prédéfini", re.IGNORECASE),
        requirement=re.compile(
            r"\b(?:doit|doivent|obligatoire|nécessaire|requis|faut|ne peut pas)\b", re.IGNORECASE
        ),
        duration=re.compile(
            r"\d+(?:[.,]\d+)?\s?(?:millisecondes?|secondes?|minutes?|heures?|jours?|semaines?|mois"
            r"|ans?|ms|s|min|h)\b",
            re.IGNORECASE,
        ),
        amount=re.compile(r"\d+(?:[.,]\d+)?\s?(?:[kmgt]i?o|[kmgt]i?b|%|pour cent|fois)(?!\w)", re.IGNORECASE),
        definition=re.compile(r"^\s+(?:est|sont|désigne|désignent|correspond|signifie)\b"),
    ),
    quote="« {} »",
    conjunction=" et ",
    separator=", ",
    scoped="{body} dans {scope} ?",
    clauses=("{body} d'après la documentation ?", "{body}, selon la documentation ?"),
    long="En tant que {lead}, {purpose}. {core}",
    leads=(
        "nouvel arrivant dans l'équipe",
        "développeur dans une petite équipe",
        "ingénieur qui découvre cette documentation",
    ),
    purposes=(
        "je dois bien comprendre ce point avant de toucher à la production",
        "je veux comprendre ce point assez bien pour l'expliquer à mon équipe",
        "je rédige un guide interne et chaque détail doit y être exact",
        "je vérifie notre configuration et je veux éviter des erreurs difficiles à rattraper",
    ),
    poor_grammar=sloppy,
    misspelled=typos,
    role_words=(
        "développeu",
        "ingénieu",
        "administrat",
        "analyste",
        "architecte",
        "exploitation",
        "sre",
        "technicien",
    ),
    scoped_lead="À propos de {scope} : {core}",
    clause_lead="D'après la documentation : {core}",
    document_word="documentation",
    lower_lead=True,
    joined="{a} et {b} ?",
    joined_apart="{a} et {b} ?",
    compare=(
        "Quelle différence y a-t-il entre {a} et {b} au sujet de « {term} » ?",
        "Que disent respectivement {a} et {b} sur « {term} » ?",
    ),
    contrast=(
        "Quelle est la différence entre « {term} » et « {other} » ?",
        "Qu'est-ce qui distingue « {term} » de « {other} » ?",
    ),
    search_compare="{term} {a} {b} différence",
    # "Et …?": the opening carries the back-reference, whatever the gender of the term.
    follow_ups={
        "definition": ("Et qu'est-ce que cela désigne exactement ?", "Et que faut-il entendre par là ?"),
        "default": ("Et quelle est sa valeur par défaut ?", "Et si l'on ne change rien, que se passe-t-il ?"),
        "duration": ("Et pour la durée, qu'indique la documentation ?", "Et combien de temps est prévu ?"),
        "amount": ("Et pour la valeur, qu'indique la documentation ?", "Et quelle valeur est indiquée ?"),
        "requirement": (
            "Et à quoi faut-il faire attention dans ce cas ?",
            "Et quelles règles faut-il respecter ?",
        ),
        "generic": (
            "Et que faut-il savoir d'autre à ce sujet ?",
            "Et que dit encore la documentation à ce sujet ?",
            "Et comment cela fonctionne-t-il ?",
        ),
    },
    back_words=_BACK_WORDS,
    openers=("et", "qu'en est-il"),
    articles=_BEFORE_NOUNS,
)


# -- out-of-scope aspects (``aspects``) ------------------------------------------------------------

_W = AspectWording
_L = latin_words
ASPECTS: tuple[Aspect, ...] = (
    Aspect("licence_price", "prix d'une licence commerciale", _L(
        r"prix|tarif\w*|co[uû]t\w*|licen[cs]\w*|abonnement\w*|payant\w*|gratuit\w*|commercial\w*|"
        r"(?:édition|offre|version) entreprise|open[- ]source|logiciel libre"),
        tool=_W(("Combien coûte une licence commerciale pour {term} ?",
                 "Quel est le prix annuel d'un abonnement entreprise pour {term} ?",
                 "Existe-t-il une édition payante de {term}, et quel est son prix par serveur ?"),
                "combien coûte une licence commerciale ou un abonnement pour {term}",
                "Une licence commerciale pour {term} coûte 450 euros par serveur et par an.",
                "{term} licence prix")),
    Aspect("support_contract", "contrats de support des éditeurs", _L(
        r"contrats? de (?:support|maintenance)|(?:support|assistance) (?:commercial|payant|professionnel)e?|"
        r"prestataires?|sociétés? de conseil|sla|24 ?h ?/ ?24|24/7|délais? d'intervention|"
        r"niveaux? de service"),
        tool=_W(("Quels fournisseurs vendent un contrat de support pour {term} avec des délais "
                 "d'intervention garantis ?",
                 "Peut-on acheter un support commercial 24 h/24 pour {term}, et qui le propose ?"),
                "qui vend des contrats de support pour {term} ni ce qu'ils garantissent",
                "L'équipe qui maintient {term} vend un contrat de support 24 h/24 avec un délai "
                "d'intervention de quatre heures.",
                "{term} contrat support")),
    Aspect("next_release", "projets pour la prochaine version majeure", _L(
        r"feuille de route|roadmap|calendrier de (?:sortie|publication)|prochaines? versions?|"
        r"futures? versions?|versions? futures?|prévue?s? pour|obsolète\w*|déprécié\w*|abandonn\w*|"
        r"support à long terme|lts"),
        tool=_W(("Quand sortira la prochaine version majeure de {term} ?",
                 "Quelle est la date de sortie prévue de la prochaine version majeure de {term} ?"),
                "quand sortira la prochaine version majeure de {term}",
                "La prochaine version majeure de {term} sortira en mars, six mois après la version actuelle.",
                "{term} prochaine version date de sortie"),
        concept=_W(("Quels changements sont prévus pour « {term} » dans la prochaine version majeure ?",
                    "Est-il prévu de revoir ou d'abandonner « {term} » dans une future version ?"),
                   "quels changements sont prévus pour « {term} » dans les prochaines versions",
                   "La prochaine version majeure remplacera « {term} » par une nouvelle conception.",
                   "{term} changements prochaine version")),
    Aspect("windows_installer", "un installateur graphique pour Windows", _L(
        r"windows|installateur\w*|programme d'installation|assistant d'installation|msi|\w+\.exe|"
        r"chocolatey|winget"),
        tool=_W(("Existe-t-il un installateur Windows avec assistant pour {term} ?",
                 "Peut-on installer {term} sous Windows avec un installateur graphique plutôt qu'en ligne de "
                 "commande ?"),
                "si {term} dispose d'un installateur graphique pour Windows",
                "{term} fournit un paquet MSI qui s'installe sous Windows avec un assistant.",
                "{term} installateur windows")),
    Aspect("mobile_app", "une application mobile officielle", _L(
        r"mobiles?|android|ios|iphone|ipad|smartphones?|téléphones?|tablettes?|app store|google play|apps?"),
        tool=_W(("Existe-t-il une application mobile officielle pour iOS ou Android permettant d'utiliser "
                 "{term} ?",
                 "Puis-je consulter {term} depuis une application officielle pour smartphone pendant mes "
                 "astreintes ?"),
                "s'il existe une application mobile officielle pour {term}",
                "L'application officielle {term} pour iOS et Android affiche son état et envoie des "
                "notifications push.",
                "{term} application mobile android ios")),
    Aspect("creator", "qui l'a créé et quand", _L(
        r"créée?s?|créat(?:eur|rice)s?|invent\w*|à l'origine|origines?|histoire|historique\w*|"
        r"fond(?:é|ée|ateur|atrice)s?|auteur\w*|conçue?s? par|développée?s? par|introduite? (?:en|dans)|"
        r"depuis la version|(?:19|20)\d\d"),
        tool=_W(("Qui a créé {term} à l'origine, et en quelle année son développement a-t-il commencé ?",
                 "Quelle entreprise a développé {term} en premier, et qui en étaient les premiers "
                 "développeurs ?"),
                "qui a créé {term} ni quand son développement a commencé",
                "Le développement de {term} a commencé en 2011, lancé par deux ingénieurs d'un service de "
                "musique en ligne.",
                "{term} histoire créateur"),
        concept=_W(("Qui a proposé « {term} » en premier, et en quelle année ?",
                    "Quelle personne ou quelle entreprise a eu l'idée de « {term} » ?"),
                   "qui a proposé « {term} » en premier ni quand",
                   "Un ingénieur d'un grand moteur de recherche a proposé « {term} » pour la première fois "
                   "en 2014.",
                   "{term} origine inventeur")),
    Aspect("compliance", "certifications de conformité", _L(
        r"certifi\w*|conformité|compliance|soc ?2|hipaa|fedramp|iso ?27001|rgpd|gdpr|audit\w*|fips|"
        r"accrédit\w*|homolog\w*"),
        tool=_W(("{term} est-il certifié SOC 2 ou conforme à HIPAA ?",
                 "{term} a-t-il passé un audit indépendant FedRAMP ou ISO 27001 ?"),
                "si {term} dispose de certifications de conformité comme SOC 2, HIPAA, FedRAMP ou ISO 27001",
                "{term} est certifié SOC 2 Type II et respecte les exigences de sécurité de HIPAA.",
                "{term} certification soc 2 iso 27001")),
    Aspect("telemetry", "statistiques d'utilisation envoyées aux développeurs", _L(
        r"télémétrie|telemetry|statistiques d'utilisation|données d'utilisation|anonym\w*|analytiques?|"
        r"pistage|suivi d'utilisation|opt[- ]out"),
        tool=_W(("{term} envoie-t-il des statistiques d'utilisation anonymes à ses développeurs, et comment "
                 "les désactiver ?",),
                "si {term} envoie des statistiques d'utilisation à ses développeurs",
                "{term} envoie chaque jour des statistiques d'utilisation anonymes ; l'option --no-telemetry "
                "les désactive.",
                "{term} télémétrie désactiver")),
    Aspect("adoption", "quelles entreprises l'utilisent", _L(
        r"entreprises?|sociétés?|organisations?|base d'utilisateurs|adopt\w*|études? de cas|"
        r"en production|cncf"),
        tool=_W(("Quelles entreprises connues utilisent {term} en production ?",
                 "Combien d'organisations utilisent {term} aujourd'hui ?"),
                "quelles entreprises utilisent {term} ni combien",
                "Plus de 5 000 organisations, dont plusieurs grandes banques, utilisent {term} en "
                "production.",
                "{term} entreprises utilisatrices")),
    Aspect("managed_cloud", "prix en service cloud managé", _L(
        r"aws|amazon|azure|google cloud|gcp|services? (?:managés?|gérés?|hébergés?)|hébergement|saas|"
        r"fournisseurs? (?:de )?cloud|prix|"
        r"tarif\w*|co[uû]t\w*|par mois|factur\w*"),
        tool=_W(("Combien coûte {term} par mois en service managé sur AWS ou Google Cloud ?",
                 "Quels fournisseurs cloud proposent {term} en service entièrement géré, et à quel prix ?"),
                "combien coûte {term} en service cloud managé",
                "AWS propose {term} en service managé pour 0,90 dollar de l'heure.",
                "{term} service managé aws prix")),
    Aspect("training", "une formation ou un examen de certification officiels", _L(
        r"certifi\w*|examens?|formations?|(?<!en )cours|ateliers?|cursus|parcours d'apprentissage"),
        concept=_W(("Existe-t-il un examen de certification officiel ou une formation payante qui couvre "
                    "« {term} » ?",
                    "Quelle formation officielle traite « {term} » en profondeur ?"),
                   "si une formation officielle ou un examen de certification couvre « {term} »",
                   "L'examen de certification officiel comporte un module sur « {term} », qui compte pour "
                   "15 % de la note.",
                   "{term} formation certification")),
    Aspect("benchmark", "benchmarks face aux produits commerciaux", _L(
        r"datadog|new relic|dynatrace|splunk|benchmarks?|bancs? d'essai|plus rapides? que|plus lente?s? que|"
        r"comparaisons? de performances?|comparée?s? (?:à|avec)"),
        concept=_W(("Que disent les benchmarks publiés de « {term} » face à la fonction équivalente de "
                    "Datadog ?",
                    "Existe-t-il des benchmarks publiés montrant que « {term} » est plus rapide que l'offre "
                    "de New Relic ?"),
                   "ce que disent les benchmarks publiés de « {term} » face à des produits comme Datadog ou "
                   "New Relic",
                   "Un benchmark publié a mesuré « {term} » 40 % plus rapide que la même fonction de "
                   "Datadog.",
                   "{term} benchmark comparaison datadog")),
    Aspect("patents", "brevets et marques", _L(
        r"brevet\w*|marques? (?:déposées?|commerciales?)|droits? d'auteur|copyright|licen[cs]\w*|"
        r"propriété intellectuelle|apache"),
        concept=_W(("Existe-t-il des brevets qui couvrent « {term} » ?",
                    "Des brevets ou des marques déposées limitent-ils l'utilisation de « {term} » ?"),
                   "si des brevets ou des marques couvrent « {term} »",
                   "Un brevet déposé en 2016 couvre « {term} », dont l'usage reste libre pour les projets "
                   "open source.",
                   "{term} brevet marque")),
)  # fmt: skip


# -- personas (``personas``) ------------------------------------------------------------------------

PERSONAS = PersonaWords(
    code="fr",
    roles={
        "Developer": "Développeur",
        "SRE": "Ingénieur SRE",
        "Operator": "Ingénieur d'exploitation",
        "Administrator": "Administrateur système",
        "Analyst": "Analyste de données",
        "Architect": "Architecte",
        "Engineer": "Ingénieur",
    },
    names={
        role: "{role} spécialisé en {topic}"
        for role in ("Developer", "SRE", "Operator", "Administrator", "Analyst", "Architect", "Engineer")
    },
    described=(
        "Travaille au quotidien sur le thème {extra} et cherche dans la documentation des réponses "
        "fiables au sujet de {names}.",
        "S'occupe de {extra} dans son équipe et veut configurer correctement {names} et comprendre vite "
        "les problèmes.",
    ),
    described_plain=(
        "Cherche dans la documentation des réponses fiables au sujet de {names}.",
        "Veut configurer correctement {names} et comprendre vite les problèmes.",
    ),
    cues={
        "Developer": ("développ", "plugin", "extension", "bibliothèque", "programm", "code source"),
        "SRE": ("alerte", "incident", "astreinte", "panne", "disponibilit", "notification"),
        "Operator": (
            "install",
            "configur",
            "stockage",
            "sauvegarde",
            "serveur",
            "disque",
            "déploi",
            "rétention",
            "exploitation",
        ),
        "Administrator": ("droits", "authentif", "certificat", "mot de passe", "chiffr", "sécurité"),
        "Analyst": ("requête", "tableau de bord", "graphique", "statistique", "analys"),
        "Architect": ("architecture", "conception", "évolutivité", "comparaison"),
    },
    fallback_name="Ingénieur qui découvre cette documentation",
    fallback_description="Lit cette documentation pour trouver des réponses fiables aux questions "
    "pratiques de son travail.",
    quote="« {} »",
    conjunction=" et ",
    separator=", ",
)


# -- refusals (``refusals``) ------------------------------------------------------------------------

_DOC_NOUN_FR = r"(?:documentation|documents?|doc|contexte|sources?|textes?|passages?|extraits?|manuel)"
_DOCS_FR = (
    rf"(?:(?:(?:la|le|les|des|du|de\s+la|ces|cette|ce)\s+|l'){_DOC_NOUN_FR}"
    r"(?:\s+(?:fourni|disponible|donné|récupéré)e?s?)?|les\s+informations\s+fournies)"
)
_FRENCH = [
    r"\bn'(?:est|sont|était|étaient)\s+pas\s+(?:\w+ment\s+)?(?:mentionné|décrit|expliqué|évoqué|précisé|indiqué"
    r"|abordé)e?s?\b",
    rf"\bn'(?:est|sont|était|étaient)\s+pas\s+(?:\w+ment\s+)?(?:couvert|traité|documenté|trouvé)e?s?\s+(?:dans|par)"
    rf"\s+{_DOCS_FR}",
    rf"\b{_DOCS_FR}\s+(?:\w+\s+){{0,2}}?(?:ne\s+|n')(?:le\s+|la\s+|les\s+|l')?(?:mentionne|précise|décrit|dit"
    rf"|couvre|contient|indique|aborde|explique|traite|parle|donne|fournit|répond)(?:nt)?\s+(?:pas|rien"
    rf"|aucune?)\b",
    r"\bje\s+ne\s+(?:sais|trouve|peux|connais|suis|vois)\s+(?:pas|rien)\b",
    r"\bje\s+ne\s+(?:dispose|possède)\s+(?:pas|d'aucune)\s+(?:d'|de\s+)?(?:information|élément|réponse)",
    rf"\b{_DOCS_FR}\s+(?:\w+\s+){{0,2}}?ne\s+(?:me\s+)?permet(?:tent)?\s+pas\s+de\s+(?:répondre|déterminer|dire"
    rf"|savoir|conclure|confirmer)",
    rf"\b(?:dépasse|dépassent|sort|sortent)\s+(?:du|le)\s+cadre\s+(?:de\s+)?{_DOCS_FR}",
    r"\bje\s+n'ai\s+pas\s+(?:trouvé|d'information|de\s+réponse)",
    rf"\b(?:il\s+n'y\s+a|je\s+n'ai(?:\s+trouvé)?)\s+(?:\w+\s+)?(?:aucune?|pas\s+d'|pas\s+de)\s*(?:information"
    rf"|mention|indication|détail|précision|réponse)s?\b(?![^.,;:!?]*\bdans\s+(?:(?:le|la|les|un|une|ce|cette|ses"
    rf"|son|sa)\s+|l')(?!(?:\w+\s+)?{_DOC_NOUN_FR}))",
    r"(?:^|(?<=[.!?;:,]\s))aucune\s+(?:information|mention|indication)\s+(?:sur|concernant|à\s+ce\s+sujet)\b",
]
_SUBORDINATE_FR = re.compile(
    r"\b(?:quand|lorsque?|lorsqu'|si|s'ils?|parce\s+qu|puisqu|bien\s+qu|quoiqu|afin\s+qu|pour\s+qu|tant\s+qu"
    r"|dès\s+qu|avant\s+qu|sans\s+qu|même\s+si|où|dont|qui|lequel|laquelle|lesquel(?:le)?s)"
    r"|(?<!\bsemble\s)(?<!\bcrains\s)(?<!\bconstate\s)(?<!\bnote\s)(?<!\bvois\s)(?<!\bdire\s)\bqu(?:e\b|')",
    re.IGNORECASE,
)

REFUSALS = refusal_words(
    _FRENCH,
    r"\b(?:ne|pas|rien|aucune?|dépasse(?:nt)?|sort(?:ent)?)\b|\bn'",
    _SUBORDINATE_FR,
    guess=r"\b(?:mais|cependant)\b,?\s+(?:\S+\s+){0,3}?(?:je\s+(?:pense|crois|suppose)|probablement|sans\s+doute)",
)


# -- sentences and negations (``sentences``, ``negations``) ----------------------------------------

SENTENCES = SentenceWords(
    word_set(
        "m. mm. mme. mmes. mlle. mlles. dr. pr. st. ste. me. cf. p. pp. ex. p.ex. c.-à-d. c-à-d. "
        "env. chap. fig. vol. éd. art. n°. no. janv. févr. avr. juill. sept. oct. nov. déc. "
        "av. apr. j.-c. vs. e.g. i.e. min. max. hab. tél."
    ),
    word_set("etc."),
)

NEGATIONS = word_set("ne pas non jamais aucun aucune rien personne sans ni")


LANGUAGE = Language(
    code="fr",
    name="French",
    questions=QUESTIONS,
    aspects=ASPECTS,
    refusal_form="La documentation ne précise pas {missing}.",
    noun_articles=r"(?:le|la|les|un|une|des|du|au|aux|ce|cette|ces|chaque)\s+|l['’]",
    personas=PERSONAS,
    refusals=REFUSALS,
    sentences=SENTENCES,
    negations=NEGATIONS,
)
