"""Spanish (es): every word groundset has in Spanish, by part (``LANGUAGE`` at the end): offline
question templates and styles, out-of-scope aspects, persona words, refusal phrases, sentence abbreviations
and negations.

Terms are quoted («sonda»): the templates need no article, whose gender a term does not tell.
Styles: poor_grammar writes in lower case, without «», without the opening "¿" and the closing "?",
and half of the time without articles; misspelled makes one or two letter typos and, half of the
time, drops the accents ("que significa"), as many people type in a hurry.
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

_ARTICLES = re.compile(r"(?<!\w)(?:el|la|los|las|un|una|unos|unas)\s+", re.IGNORECASE)


def sloppy(text: str, rng: random.Random) -> str:
    text = drop_words(text.replace("«", "").replace("»", "").replace("¿", ""), _ARTICLES, rng)
    return text.lower().rstrip("?!. ")


def typos(text: str, rng: random.Random) -> str:
    text = letter_typos(text, rng)
    return drop_accents(text) if rng.random() < 0.5 else text


# Words a later turn refers back with (``QuestionWording.back_words``).
_BACK_WORDS = (
    "él", "ella", "ellos", "ellas", "lo", "le", "les", "su", "sus", "eso", "esto", "ese", "esa", "esos",
    "esas", "ello",
)  # fmt: skip


QUESTIONS = QuestionWording(
    code="es",
    # A situational question's situation: {lead} (the persona's role or a neutral one), {topic} (quoted).
    situations=(
        "Como {lead}, ahora mismo estoy trabajando con {topic}.",
        "Como {lead}, esta semana estoy revisando {topic}.",
    ),
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


# -- out-of-scope aspects (``aspects``) ------------------------------------------------------------

_W = AspectWording
_L = latin_words
ASPECTS: tuple[Aspect, ...] = (
    Aspect("licence_price", "precio de una licencia comercial", _L(
        r"precios?|cuesta\w*|coste\w*|costo\w*|licencia\w*|licenciad\w*|suscripci\w*|de pago|gratuit\w*|"
        r"gratis|comercial\w*|empresarial\w*|código abierto|open[- ]source"),
        tool=_W(("¿Cuánto cuesta una licencia comercial de {term}?",
                 "¿Cuánto cuesta al año una suscripción empresarial a {term}?",
                 "¿Existe una edición de pago de {term}, y cuál es su precio por servidor?"),
                "cuánto cuesta una licencia comercial o una suscripción de {term}",
                "Una licencia comercial de {term} cuesta 450 dólares por servidor y año.",
                "{term} licencia precio")),
    Aspect("support_contract", "contratos de soporte de proveedores", _L(
        r"contratos? de (?:soporte|mantenimiento)|soporte (?:comercial|de pago|profesional|técnico)|"
        r"asistencia (?:técnica|comercial)|proveedores? de soporte|consultor\w*|sla|24/7|"
        r"tiempos? de respuesta garantizad\w*|nivel\w* de servicio"),
        tool=_W(("¿Qué proveedores venden un contrato de soporte para {term} con tiempos de respuesta "
                 "garantizados?",
                 "¿Puedo contratar soporte comercial 24/7 para {term}, y quién lo ofrece?"),
                "quién vende contratos de soporte para {term} ni qué garantizan",
                "Los desarrolladores de {term} venden un contrato de soporte 24/7 con un tiempo de respuesta "
                "de cuatro horas.",
                "{term} contrato soporte")),
    Aspect("next_release", "planes para la próxima versión mayor", _L(
        r"hoja de ruta|roadmap|calendario de (?:lanzamiento|publicación)\w*|próximas? versi\w*|"
        r"futuras? versi\w*|versi\w* futuras?|previst\w* para|obsolet\w*|en desuso|retirad\w*|"
        r"soporte a largo plazo|lts"),
        tool=_W(("¿Cuándo saldrá la próxima versión mayor de {term}?",
                 "¿Cuál es la fecha prevista de lanzamiento de la próxima versión principal de {term}?"),
                "cuándo saldrá la próxima versión mayor de {term}",
                "La próxima versión mayor de {term} saldrá en marzo, seis meses después de la actual.",
                "{term} próxima versión fecha lanzamiento"),
        concept=_W(("¿Qué cambios se planean para «{term}» en la próxima versión mayor?",
                    "¿Está previsto rediseñar o retirar «{term}» en una versión futura?"),
                   "qué cambios se planean para «{term}» en futuras versiones",
                   "La próxima versión mayor sustituirá «{term}» por un nuevo diseño.",
                   "{term} cambios próxima versión")),
    Aspect("windows_installer", "un instalador gráfico para Windows", _L(
        r"windows|instalador\w*|asistente de instalación|msi|\w+\.exe|chocolatey|winget"),
        tool=_W(("¿Existe un instalador gráfico de Windows para {term}?",
                 "¿Puedo instalar {term} en Windows con un instalador gráfico en lugar de la línea de "
                 "comandos?"),
                "si {term} tiene un instalador gráfico para Windows",
                "{term} ofrece un paquete MSI que se instala en Windows con un asistente.",
                "{term} instalador windows")),
    Aspect("mobile_app", "una aplicación móvil oficial", _L(
        r"m[óo]vil\w*|celular\w*|android|ios|iphone|ipad|smartphones?|teléfonos?|tabletas?|app store|"
        r"google play|apps?"),
        tool=_W(("¿Existe una aplicación móvil oficial para iOS o Android con la que usar {term}?",
                 "¿Puedo consultar {term} desde una aplicación oficial para el móvil mientras estoy de "
                 "guardia?"),
                "si existe una aplicación móvil oficial para {term}",
                "La aplicación oficial de {term} para iOS y Android muestra su estado y envía notificaciones "
                "push.",
                "{term} app móvil android ios")),
    Aspect("creator", "quién lo creó y cuándo", _L(
        r"cread[oa]s?|creador\w*|invent\w*|originalmente|origen\w*|historia|histórico|fundad\w*|autor(?:es|a|as)?|"
        r"diseñad[oa]s? por|desarrollad[oa]s? por|introducid\w*|desde la versión|(?:19|20)\d\d"),
        tool=_W(("¿Quién creó {term} originalmente, y en qué año empezó su desarrollo?",
                 "¿Qué empresa construyó {term} por primera vez, y quiénes fueron sus primeros "
                 "desarrolladores?"),
                "quién creó {term} ni cuándo empezó su desarrollo",
                "El desarrollo de {term} empezó en 2011, a cargo de dos ingenieros de un servicio de música "
                "en línea.",
                "{term} historia creador"),
        concept=_W(("¿Quién propuso «{term}» por primera vez, y en qué año?",
                    "¿Qué persona o empresa tuvo la idea de «{term}»?"),
                   "quién propuso «{term}» por primera vez ni cuándo",
                   "Un ingeniero de un gran buscador propuso «{term}» por primera vez en 2014.",
                   "{term} origen inventor")),
    Aspect("compliance", "certificaciones de cumplimiento", _L(
        r"certifica\w*|cumplimiento|conformidad|compliance|soc ?2|hipaa|fedramp|iso ?27001|rgpd|gdpr|"
        r"auditor\w*|fips|acredita\w*"),
        tool=_W(("¿Está {term} certificado para SOC 2 o HIPAA?",
                 "¿Ha superado {term} una auditoría independiente de FedRAMP o ISO 27001?"),
                "si {term} tiene certificaciones de cumplimiento como SOC 2, HIPAA, FedRAMP o ISO 27001",
                "{term} tiene la certificación SOC 2 Tipo II y cumple los requisitos de seguridad de HIPAA.",
                "{term} certificación soc 2 iso 27001")),
    Aspect("telemetry", "estadísticas de uso enviadas a sus desarrolladores", _L(
        r"telemetría|telemetry|estadísticas de uso|datos de uso|anónim\w*|analítica\w*|rastreo|"
        r"seguimiento de uso|opt[- ]out"),
        tool=_W(("¿Envía {term} estadísticas de uso anónimas a sus desarrolladores, y cómo se desactiva?",),
                "si {term} envía estadísticas de uso a sus desarrolladores",
                "{term} envía estadísticas de uso anónimas una vez al día; la opción --no-telemetry lo "
                "desactiva.",
                "{term} telemetría desactivar")),
    Aspect("adoption", "qué empresas lo usan", _L(
        r"empresas?|compañías?|organizaci\w*|base de usuarios|adopt\w*|casos? de (?:éxito|estudio)|"
        r"en producción|cncf"),
        tool=_W(("¿Qué empresas conocidas usan {term} en producción?",
                 "¿Cuántas organizaciones usan {term} hoy en día?"),
                "qué empresas usan {term} ni cuántas",
                "Más de 5.000 organizaciones, entre ellas varios grandes bancos, usan {term} en producción.",
                "{term} empresas que lo usan")),
    Aspect("managed_cloud", "precio como servicio gestionado en la nube", _L(
        r"aws|amazon|azure|google cloud|gcp|servicios? (?:gestionados?|administrados?|alojados?)|alojamiento|"
        r"saas|proveedores? de (?:la )?nube|"
        r"precios?|cuesta\w*|coste\w*|costo\w*|al mes|por mes|factura\w*"),
        tool=_W(("¿Cuánto cuesta {term} al mes como servicio gestionado en AWS o Google Cloud?",
                 "¿Qué proveedores de nube ofrecen {term} como servicio totalmente gestionado, y a qué "
                 "precio?"),
                "cuánto cuesta {term} como servicio gestionado en la nube",
                "AWS ofrece {term} como servicio gestionado por 0,90 dólares la hora.",
                "{term} servicio gestionado aws precio")),
    Aspect("training", "un curso o examen de certificación oficial", _L(
        r"certifica\w*|exámenes|examen|formación|capacitación|entrenamiento|cursos?|talleres?|bootcamps?|"
        r"ruta de aprendizaje"),
        concept=_W(("¿Hay un examen de certificación oficial o un curso de pago que cubra «{term}»?",
                    "¿Qué curso oficial enseña «{term}» en profundidad?"),
                   "si algún curso oficial o examen de certificación cubre «{term}»",
                   "El examen de certificación oficial tiene un módulo sobre «{term}» que vale el 15 % de "
                   "la nota.",
                   "{term} curso certificación")),
    Aspect("benchmark", "benchmarks frente a productos comerciales", _L(
        r"datadog|new relic|dynatrace|splunk|benchmarks?|pruebas? de rendimiento|más rápid[oa]s? que|"
        r"más lent[oa]s? que|comparativas?|comparad[oa]s? con"),
        concept=_W(("¿Cómo se compara «{term}» con la función equivalente de Datadog en los benchmarks "
                    "publicados?",
                    "¿Hay benchmarks publicados en los que «{term}» rinda mejor que lo que ofrece New "
                    "Relic?"),
                   "qué dicen los benchmarks publicados de «{term}» frente a productos como Datadog o "
                   "New Relic",
                   "Según un benchmark publicado, «{term}» rinde un 40 % más que la misma función de "
                   "Datadog.",
                   "{term} benchmark comparación datadog")),
    Aspect("patents", "patentes y marcas", _L(
        r"patente\w*|marcas? (?:registradas?|comerciales?)|derechos? de autor|copyright|licencia\w*|"
        r"propiedad intelectual|apache"),
        concept=_W(("¿Hay patentes que cubran «{term}»?",
                    "¿Existen patentes o marcas registradas que limiten el uso de «{term}»?"),
                   "si alguna patente o marca registrada cubre «{term}»",
                   "Una patente presentada en 2016 cubre «{term}», de uso libre para proyectos de código "
                   "abierto.",
                   "{term} patente marca")),
)  # fmt: skip


# -- personas (``personas``) ------------------------------------------------------------------------

PERSONAS = PersonaWords(
    code="es",
    roles={
        "Developer": "Desarrollador",
        "SRE": "Ingeniero SRE",
        "Operator": "Ingeniero de operaciones",
        "Administrator": "Administrador de sistemas",
        "Analyst": "Analista de datos",
        "Architect": "Arquitecto",
        "Engineer": "Ingeniero",
    },
    names={
        role: "{role} especializado en {topic}"
        for role in ("Developer", "SRE", "Operator", "Administrator", "Analyst", "Architect", "Engineer")
    },
    described=(
        "Trabaja a diario con el tema {extra} y busca en la documentación respuestas fiables sobre {names}.",
        "Se encarga de {extra} en su equipo y quiere configurar bien {names} y entender rápido los "
        "problemas.",
    ),
    described_plain=(
        "Busca en la documentación respuestas fiables sobre {names}.",
        "Quiere configurar bien {names} y entender rápido los problemas.",
    ),
    cues={
        "Developer": ("desarroll", "plugin", "complemento", "biblioteca", "programa", "código"),
        "SRE": ("alerta", "incidente", "guardia", "caída", "disponibilidad", "notificaci"),
        "Operator": (
            "instal",
            "configur",
            "almacenamiento",
            "copia de seguridad",
            "servidor",
            "disco",
            "despliegue",
            "retención",
        ),
        "Administrator": ("permiso", "autenticaci", "certificado", "contraseña", "cifrado", "seguridad"),
        "Analyst": ("consulta", "panel", "gráfico", "estadística", "análisis"),
        "Architect": ("arquitectura", "diseño", "escalab", "comparaci"),
    },
    fallback_name="Ingeniero que empieza con esta documentación",
    fallback_description="Lee esta documentación para encontrar respuestas fiables a las preguntas "
    "prácticas de su trabajo.",
    quote="«{}»",
    conjunction=" y ",
    separator=", ",
)


# -- refusals (``refusals``) ------------------------------------------------------------------------

_DOC_NOUN_ES = (
    r"(?:documentos?|documentación|contexto|fuentes?|textos?|pasajes?|fragmentos?|manual|materiales?)"
)
_DOCS_ES = rf"{_DOC_NOUN_ES}(?:\s+(?:proporcionad|disponible|dad|facilitad|recuperad|aportad)\w*)?"
_SPANISH = [
    r"(?<!si )\bno\s+se\s+(?:menciona|especifica|describe|indica|detalla|explica|dice|documenta|aborda)n?\b",
    rf"(?<!si )\bno\s+(?:se\s+)?(?:encuentra|incluye|aparece)n?\s+(?:(?:ninguna\s+)?información|nada"
    rf"|(?:\w+\s+){{0,4}}?en\s+(?:el|la|los|las)\s+(?:\w+\s+)?{_DOCS_ES})",
    rf"\b(?:en|dentro\s+de)\s+(?:el|la|los|las)\s+(?:\w+\s+)?{_DOCS_ES}\s*,?\s*no\s+(?:se\s+)?(?:aparece|encuentra"
    rf"|menciona|habla|dice|incluye|especifica|describe)n?\b",
    rf"\b{_DOCS_ES}\s+no\s+(?:lo\s+|la\s+)?(?:menciona|dice|especifica|describe|incluye|contiene|cubre|indica"
    rf"|explica|aborda|detalla|trata)n?\b",
    r"\bno\s+(?:lo\s+)?sé\b",
    r"\bno\s+(?:puedo|pude|logro|logré|he\s+podido|estoy\s+seguro|estoy\s+segura)\s*(?:encontrar|responder"
    r"|determinar|confirmar|decir)?\b",
    rf"\bno\s+(?:hay|tengo|dispongo\s+de|encontré|encuentro|he\s+encontrado)\s+(?:ninguna\s+|esa\s+|esta\s+|la\s+)?"
    rf"información\b(?:\s+(?:suficiente"
    rf"|bastante))?(?=\s*(?:[.,;:!?)]|$)|\s+(?:sobre|acerca|respecto|al\s+respecto|relacionada|disponible|que"
    rf"|de\s+(?:esto|eso|ello)|para\s+(?:responder|contestar|decir|determinar|saber|confirmar|afirmar))\b"
    rf"|\s+en\s+(?:el|la|los|las)\s+(?:\w+\s+)?{_DOCS_ES})(?![^.,;:!?]*\ben\s+(?:el|la|los|las|un|una|su|sus)\s+"
    rf"(?!(?:\w+\s+)?{_DOC_NOUN_ES}))",
]
_SUBORDINATE_ES = re.compile(
    r"\b(?:cuando|si|porque|ya\s+que|puesto\s+que|aunque|mientras|donde|cuyos?|cuyas?|quienes|quien|cuales?"
    r"|para\s+que|a\s+menos\s+que|siempre\s+que)\b"
    r"|(?<!\bparece\s)(?<!\bcreo\s)(?<!\btemo\s)(?<!\blamento\s)(?<!\bveo\s)(?<!\bdecir\s)\bque\b",
    re.IGNORECASE,
)

REFUSALS = refusal_words(
    _SPANISH,
    r"\b(?:no|nada|ninguna?)\b",
    _SUBORDINATE_ES,
    guess=r"\b(?:pero|sin\s+embargo)\b,?\s+(?:\w+\s+){0,3}?(?:creo|supongo|probablemente|seguramente)",
)


# -- sentences and negations (``sentences``, ``negations``) ----------------------------------------

SENTENCES = SentenceWords(
    word_set(
        "sr. sra. srta. sres. sras. dr. dra. drs. ud. uds. vd. vds. dña. ej. p.ej. pág. págs. "
        "núm. nº. aprox. av. avda. cía. fig. vol. cap. art. dpto. gral. ing. lic. prof. profa. "
        "ee. uu. ee.uu. máx. mín. tel. admón. apdo. e.g. i.e. vs. cf. ene. feb. mar. abr. jun. "
        "jul. ago. sept. oct. nov. dic."
    ),
    word_set("etc."),
)

NEGATIONS = word_set("no nunca jamás ningún ninguno ninguna nada nadie sin ni tampoco")


LANGUAGE = Language(
    code="es",
    name="Spanish",
    questions=QUESTIONS,
    aspects=ASPECTS,
    refusal_form="La documentación no indica {missing}.",
    noun_articles=r"(?:el|la|los|las|un|una|unos|unas|del|al|cada|este|esta|estos|estas)\s+",
    personas=PERSONAS,
    refusals=REFUSALS,
    sentences=SENTENCES,
    negations=NEGATIONS,
    falls_back={},
)
