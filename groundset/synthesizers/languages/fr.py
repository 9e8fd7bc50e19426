"""French (fr) offline questions.

Terms are quoted (« sonde »): the templates need no article, whose gender a term does not tell.
Styles: poor_grammar writes in lower case, without guillemets, question mark, "est-ce que" and the
"-t-" of inversions, and half of the time without articles; misspelled makes one or two letter typos
and, half of the time, drops the accents, as on a keyboard without them.
"""

from __future__ import annotations

import random
import re

from .wording import Cues, Wording, drop_accents, drop_words, letter_typos

_ARTICLES = re.compile(r"(?<!\w)(?:le|la|les|un|une|des|du)\s+", re.IGNORECASE)


def sloppy(text: str, rng: random.Random) -> str:
    text = drop_words(text.replace("« ", "").replace(" »", ""), _ARTICLES, rng)
    text = text.replace("est-ce que ", "").replace("-t-", " ")
    return text.lower().rstrip("?!. \u00a0")


def typos(text: str, rng: random.Random) -> str:
    text = letter_typos(text, rng)
    return drop_accents(text) if rng.random() < 0.5 else text


# Words a later turn refers back with (``Wording.back_words``).
_BACK_WORDS = (
    "il", "elle", "ils", "elles", "son", "sa", "ses", "leur", "leurs", "cela", "ça", "cet", "cette", "ces",
    "celui", "celle", "lui", "là",
)  # fmt: skip
# Words a noun follows ("les règles"): see ``Wording.articles``.
_BEFORE_NOUNS = (
    "le", "la", "les", "l'", "un", "une", "des", "du", "de", "d'", "au", "aux", "ce", "cet", "cette", "ces",
    "chaque",
)  # fmt: skip


WORDING = Wording(
    code="fr",
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
