"""Spanish (es) offline questions.

Terms are quoted («sonda»): the templates need no article, whose gender a term does not tell.
Styles: poor_grammar writes in lower case, without «», without the opening "¿" and the closing "?",
and half of the time without articles; misspelled makes one or two letter typos and, half of the
time, drops the accents ("que significa"), as many people type in a hurry.
"""

from __future__ import annotations

import random
import re

from .wording import Cues, Wording, drop_accents, drop_words, letter_typos

_ARTICLES = re.compile(r"(?<!\w)(?:el|la|los|las|un|una|unos|unas)\s+", re.IGNORECASE)


def sloppy(text: str, rng: random.Random) -> str:
    text = drop_words(text.replace("«", "").replace("»", "").replace("¿", ""), _ARTICLES, rng)
    return text.lower().rstrip("?!. ")


def typos(text: str, rng: random.Random) -> str:
    text = letter_typos(text, rng)
    return drop_accents(text) if rng.random() < 0.5 else text


# Words a later turn refers back with (``Wording.back_words``).
_BACK_WORDS = (
    "él", "ella", "ellos", "ellas", "lo", "le", "les", "su", "sus", "eso", "esto", "ese", "esa", "esos",
    "esas", "ello",
)  # fmt: skip


WORDING = Wording(
    code="es",
    single={
        "definition": (
            "¿Qué significa «{term}»?",
            "¿Cómo define la documentación «{term}»?",
            "¿Qué se entiende exactamente por «{term}»?",
        ),
        "default": (
            "¿Cuál es el valor predeterminado de «{term}»?",
            "¿Qué valor por defecto se aplica a «{term}»?",
            "¿Qué pasa con «{term}» si no se cambia nada?",
        ),
        "duration": ("¿Qué duración se indica para «{term}»?", "¿Cuánto tiempo se establece para «{term}»?"),
        "amount": ("¿Qué valor se indica para «{term}»?", "¿Qué cantidad da la documentación para «{term}»?"),
        "requirement": (
            "¿Qué requisitos se aplican a «{term}»?",
            "¿Qué hay que tener en cuenta al usar «{term}»?",
            "¿Qué reglas hay que cumplir con «{term}»?",
        ),
        "generic": (
            "¿Qué dice la documentación sobre «{term}»?",
            "¿Cómo funciona «{term}»?",
            "¿Para qué sirve «{term}»?",
            "¿Qué debo saber sobre «{term}»?",
            "¿Qué papel cumple «{term}»?",
        ),
    },
    multi={
        "two": (
            "¿Qué relación hay entre «{term}», {a} y {b}?",
            "¿Qué dicen las secciones {a} y {b} sobre «{term}»?",
            "¿Qué papel cumple «{term}» en {a} y en {b}?",
        ),
        "one": (
            "¿Qué relación hay entre «{term}» y {a}, y qué más se dice en otra parte?",
            "¿Qué dicen distintas partes de la documentación sobre «{term}» y {a}?",
        ),
        "none": (
            "¿Qué dicen dos partes distintas de la documentación sobre «{term}»?",
            "¿Cómo encajan las distintas descripciones de «{term}» en la documentación?",
        ),
        "abstract": (
            "¿Cómo se trata «{term}» en {labels}?",
            "¿Qué hay que saber sobre «{term}» al trabajar con {labels}?",
            "¿Qué ideas comunes sobre «{term}» aparecen en {labels}?",
            "¿En qué se diferencian {labels} en su manera de tratar «{term}»?",
        ),
        "abstract_none": (
            "¿Cómo se trata «{term}» en las distintas partes de la documentación?",
            "¿Cuáles son los puntos principales sobre «{term}» en la documentación?",
        ),
    },
    search={
        "definition": "{term} significado",
        "default": "{term} valor predeterminado",
        "duration": "{term} duración",
        "amount": "{term} valor",
        "requirement": "{term} requisitos",
        "generic": "{term} cómo funciona",
        "two": "{term} {a} {b} relación",
        "one": "{term} {a} relación",
        "none": "{term} descripciones",
        "abstract": "{term} {labels} diferencias",
        "abstract_none": "{term} resumen",
    },
    cues=Cues(
        default=re.compile(r"por defecto|predeterminad", re.IGNORECASE),
        requirement=re.compile(
            r"\b(?:debe|deben|obligatori[oa]s?|necesari[oa]s?|requiere|hay que|no puede)\b", re.IGNORECASE
        ),
        duration=re.compile(
            r"\d+(?:[.,]\d+)?\s?(?:milisegundos?|segundos?|minutos?|horas?|días?|semanas?|meses|mes"
            r"|años?|ms|s|min|h)\b",
            re.IGNORECASE,
        ),
        amount=re.compile(r"\d+(?:[.,]\d+)?\s?(?:[kmgt]i?b|%|por ciento|veces)(?!\w)", re.IGNORECASE),
        definition=re.compile(r"^\s+(?:es|son|designa|significa|se refiere)\b"),
    ),
    quote="«{}»",
    conjunction=" y ",
    separator=", ",
    scoped="¿{inner} en {scope}?",
    clauses=("¿{inner} según la documentación?", "¿{inner}, según la documentación?"),
    long="Como {lead}, {purpose}. {core}",
    leads=(
        "recién llegado al equipo",
        "desarrollador en un equipo pequeño",
        "ingeniero que lee esta documentación por primera vez",
    ),
    purposes=(
        "necesito entender bien esto antes de cambiar nada en producción",
        "quiero entenderlo lo bastante bien como para explicárselo a mi equipo",
        "estoy escribiendo una guía interna y quiero que cada detalle sea exacto",
        "estoy revisando nuestra configuración y quiero evitar errores difíciles de deshacer",
    ),
    poor_grammar=sloppy,
    misspelled=typos,
    role_words=(
        "desarroll",
        "ingenier",
        "administrador",
        "analista",
        "arquitect",
        "operaciones",
        "sre",
        "técnic",
    ),
    scoped_lead="Sobre {scope}: {core}",
    clause_lead="Según la documentación: {core}",
    document_word="documentación",
    lower_lead=True,
    joined="¿{a} y {b}?",
    joined_apart="¿{a} y {b}?",
    compare=(
        "¿En qué se diferencian {a} y {b} respecto a «{term}»?",
        "¿Qué dicen {a} y {b}, respectivamente, sobre «{term}»?",
    ),
    contrast=(
        "¿En qué se diferencian «{term}» y «{other}»?",
        "¿Qué diferencia hay entre «{term}» y «{other}»?",
    ),
    search_compare="{term} {a} {b} diferencia",
    # "¿Y …?": the opening carries the back-reference, whatever the gender of the term.
    follow_ups={
        "definition": ("¿Y qué significa exactamente?", "¿Y a qué se refiere exactamente?"),
        "default": ("¿Y cuál es su valor predeterminado?", "¿Y qué pasa si no se cambia nada?"),
        "duration": ("¿Y qué duración tiene?", "¿Y cuánto tiempo se establece para eso?"),
        "amount": ("¿Y qué valor se indica para eso?", "¿Y qué cantidad da la documentación?"),
        "requirement": ("¿Y qué hay que tener en cuenta al usarlo?", "¿Y qué reglas hay que cumplir?"),
        "generic": (
            "¿Y qué más debería saber sobre eso?",
            "¿Y qué más dice la documentación sobre eso?",
            "¿Y cómo funciona?",
        ),
    },
    back_words=_BACK_WORDS,
    openers=("y",),
    articles=("el", "la", "los", "las", "un", "una", "unos", "unas", "del", "al", "de", "cada"),
)
