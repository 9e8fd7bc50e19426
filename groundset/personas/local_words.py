"""How offline personas are worded in languages other than English: role nouns, name and description
templates, and the cue words that point to a role (English cue words count too: names like "Webhook"
or "SMTP" read the same in every language).

The roles are those of ``roles`` (Developer, SRE, Operator, ...); each language names them its own
way. Names hold {topic}; descriptions {role}, {names} (one or two topics) and, in the first pair,
{extra} (another topic the person deals with).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .model import Persona

__all__ = ["PERSONA_WORDS", "PersonaWords"]


@dataclass(frozen=True)
class PersonaWords:
    code: str
    roles: Mapping[str, str]  # role (English key) -> role noun
    names: Mapping[str, str]  # role -> name template with {topic}
    described: tuple[str, ...]  # with {role}, {names}, {extra}
    described_plain: tuple[str, ...]  # with {role}, {names}
    cues: Mapping[str, tuple[str, ...]]  # role -> substrings (case-insensitive) of its topics
    fallback: Persona
    quote: str = "{}"  # a topic inside a description
    conjunction: str = "和"
    separator: str = "、"


_ZH = PersonaWords(
    code="zh",
    roles={
        "Developer": "开发人员",
        "SRE": "可靠性工程师",
        "Operator": "运维工程师",
        "Administrator": "系统管理员",
        "Analyst": "数据分析师",
        "Architect": "架构师",
        "Engineer": "工程师",
    },
    names={
        "Developer": "对接{topic}的开发人员",
        "SRE": "负责{topic}的可靠性工程师",
        "Operator": "部署和维护{topic}的运维工程师",
        "Administrator": "管理{topic}的系统管理员",
        "Analyst": "分析{topic}的数据分析师",
        "Architect": "评估{topic}的架构师",
        "Engineer": "使用{topic}的工程师",
    },
    described=(
        "这位{role}日常负责{extra}相关的工作，希望从文档中找到关于{names}的准确说明。",
        "这位{role}经常和{extra}打交道，希望弄清楚{names}的配置方法和常见问题。",
    ),
    described_plain=(
        "这位{role}希望从文档中找到关于{names}的准确说明。",
        "这位{role}希望弄清楚{names}的配置方法和常见问题。",
    ),
    cues={
        "Developer": ("插件", "开发", "代码", "接口", "集成", "函数", "模块", "脚本", "SDK"),
        "SRE": ("告警", "值班", "故障", "可用性", "静默", "事故", "严重级别", "通知"),
        "Operator": (
            "部署",
            "安装",
            "配置",
            "存储",
            "备份",
            "升级",
            "服务器",
            "磁盘",
            "数据目录",
            "保留",
            "集群",
            "容器",
            "启动",
        ),
        "Administrator": ("权限", "认证", "证书", "密码", "加密", "账号", "安全", "访问控制"),
        "Analyst": ("查询", "仪表盘", "图表", "报表", "统计", "分析", "可视化"),
        "Architect": ("架构", "设计", "方案", "扩展性", "评估", "选型"),
    },
    fallback=Persona(
        name="刚开始使用这套文档的工程师",
        role_description="阅读这些文档，想为工作中遇到的实际问题找到可靠的答案。",
    ),
    quote="{}",
)
_JA = PersonaWords(
    code="ja",
    roles={
        "Developer": "開発者",
        "SRE": "サイト信頼性エンジニア",
        "Operator": "インフラエンジニア",
        "Administrator": "システム管理者",
        "Analyst": "データアナリスト",
        "Architect": "アーキテクト",
        "Engineer": "エンジニア",
    },
    names={
        "Developer": "{topic}と連携する開発者",
        "SRE": "{topic}を見守るサイト信頼性エンジニア",
        "Operator": "{topic}を構築・運用するインフラエンジニア",
        "Administrator": "{topic}を管理するシステム管理者",
        "Analyst": "{topic}を分析するデータアナリスト",
        "Architect": "{topic}を評価するアーキテクト",
        "Engineer": "{topic}を利用するエンジニア",
    },
    described=(
        "{role}として{extra}に関わる業務を担当しており、{names}について正確な設定方法と手順を知りたいと考えている。",
        "{role}として日々{extra}を扱っており、{names}で問題が起きたときにすぐ原因を突き止めたいと考えている。",
    ),
    described_plain=(
        "{role}として、{names}について正確な設定方法と手順を知りたいと考えている。",
        "{role}として、{names}で問題が起きたときにすぐ原因を突き止めたいと考えている。",
    ),
    cues={
        "Developer": ("プラグイン", "開発", "コード", "ライブラリ", "実装", "関数", "API"),
        "SRE": ("アラート", "障害", "通知", "オンコール", "可用性", "サイレンス", "ミュート"),
        "Operator": (
            "インストール",
            "デプロイ",
            "設定",
            "ストレージ",
            "保存",
            "バックアップ",
            "サーバー",
            "ディスク",
            "保持",
            "起動",
        ),
        "Administrator": ("権限", "認証", "証明書", "パスワード", "暗号", "セキュリティ"),
        "Analyst": ("クエリ", "ダッシュボード", "グラフ", "集計", "分析", "可視化"),
        "Architect": ("設計", "アーキテクチャ", "構成", "比較", "拡張性"),
    },
    fallback=Persona(
        name="このドキュメントを使い始めたエンジニア",
        role_description="ドキュメントを読み、仕事で出てくる実際的な疑問への確かな答えを探している。",
    ),
    conjunction="と",
)
_DE = PersonaWords(
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
    fallback=Persona(
        name="Ingenieur, der gerade mit dieser Dokumentation beginnt",
        role_description="Liest diese Dokumentation, um verlässliche Antworten auf praktische "
        "Fragen aus der eigenen Arbeit zu finden.",
    ),
    quote="„{}“",
    conjunction=" und ",
    separator=", ",
)
_FR = PersonaWords(
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
    fallback=Persona(
        name="Ingénieur qui découvre cette documentation",
        role_description="Lit cette documentation pour trouver des réponses fiables aux questions "
        "pratiques de son travail.",
    ),
    quote="« {} »",
    conjunction=" et ",
    separator=", ",
)
_ES = PersonaWords(
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
    fallback=Persona(
        name="Ingeniero que empieza con esta documentación",
        role_description="Lee esta documentación para encontrar respuestas fiables a las preguntas "
        "prácticas de su trabajo.",
    ),
    quote="«{}»",
    conjunction=" y ",
    separator=", ",
)
PERSONA_WORDS: dict[str, PersonaWords] = {w.code: w for w in (_ZH, _JA, _DE, _FR, _ES)}
