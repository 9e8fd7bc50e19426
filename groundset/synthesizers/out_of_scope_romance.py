"""Out-of-scope wording in French and Spanish (the shapes and the German table: ``out_of_scope_languages``).

A name of software stands bare ("pour Orbiscope", "d'Orbiscope": the French elision is made when the
term is filled in); any other term is quoted (« sonde », «sonda»), and the questions about it avoid
adjectives that would have to agree with its gender ("Existe-t-il des brevets qui couvrent ... ?").
"""

from __future__ import annotations

from .out_of_scope_languages import Aspect, Wording, latin_words

__all__ = ["FRENCH", "SPANISH"]

_W = Wording
_L = latin_words
FRENCH: tuple[Aspect, ...] = (
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
SPANISH: tuple[Aspect, ...] = (
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
