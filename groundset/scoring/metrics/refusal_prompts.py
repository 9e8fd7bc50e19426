"""How a response is told to decline or to answer: one judge prompt, and its offline form by phrases.

The judge reads only the question and the response (never whether the question is in scope), so its
classification is not nudged towards the expected behaviour. Offline, a response declines when it holds a
refusal phrase of one of the languages below (en, zh, ja, de, fr, es): "the documents do not say", "not
covered in the docs", "I cannot find", "文档中没有提到", "記載されていません", "nicht beschrieben",
"n'est pas mentionné", "no se menciona" ... The phrases are specific (they name the documents, or speak in
the first person) so that a fact stated in the negative ("the flag is not set by default") is not taken
for a refusal. The response's own language is tried first, then the others (a reply may mix languages).
A refusal followed by a guess ("..., but it is probably 42") answers: it supplies the asked fact anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from ...core.prompts import Prompt
from ...text.language import detect_language

DECLINES = "declines"
ANSWERS = "answers"

_DOCS_EN = (
    r"(?:documents?|docs|documentation|context|contexts|sources?|passages?|manual|material|text|texts"
    r"|knowledge base|information (?:provided|given|available)|provided information)"
)
_ACTS_EN = (
    r"(?:say|mention|cover|contain|specify|describe|explain|state|include|address|discuss|provide|document"
    r"|tell|list|give|indicate)"
)
_PATTERNS: dict[str, list[str]] = {
    "en": [
        rf"\b{_DOCS_EN}\s+(?:do(?:es)?|did)\s*(?:not|n't)\s+(?:\w+ly\s+)?{_ACTS_EN}",
        rf"\b(?:is|are|was|were)(?:\s*not|n't)\s+(?:\w+ly\s+)?(?:covered|mentioned|specified|described|"
        rf"documented|stated|addressed|discussed|included|found|given|explained)\s+(?:in|by)\s+(?:the\s+|"
        rf"these\s+|this\s+|any\s+|my\s+)?(?:provided\s+|available\s+|given\s+)?{_DOCS_EN}",
        rf"\bnothing\s+(?:in|about\s+(?:this|that|it)\s+in)\s+the\s+{_DOCS_EN}",
        rf"\b(?:outside|beyond)\s+(?:the\s+)?scope\s+of\s+(?:the\s+|these\s+|this\s+|my\s+)?{_DOCS_EN}",
        r"\b(?:there\s+is|there's|i\s+have|i've|i\s+found|i\s+see)\s+no\s+(?:\w+\s+)?(?:information|mention|"
        r"details?|data|documentation)\b(?=\s*(?:[.,;:!?)]|$|about|on|of|regarding|concerning|in|for|to|that|"
        r"available|provided|given))",
        r"\bno\s+(?:information|mention|details?|documentation)\s+(?:about|on|of|regarding|concerning)\b",
        r"\b(?:i|we)\s+(?:do\s*not|don't|did\s*not|didn't|cannot|can't|can\s+not|could\s*not|couldn't|"
        r"am\s+unable\s+to|was\s+unable\s+to|am\s+not\s+able\s+to)\s+(?:\w+ly\s+)?(?:know|find|locate|see|"
        r"answer|tell|say|determine|confirm)\b",
        r"\b(?:i'm|i\s+am)\s+(?:not\s+sure|unsure|not\s+certain)\b",
        rf"\b{_DOCS_EN}\s+(?:\w+\s+){{0,2}}?(?:says?|mentions?|contains?|provides?|gives?|tells?)\s+(?:us\s+)?"
        r"nothing\s+(?:about|on|regarding|concerning)\b",
        r"\b(?:do\s*not|don't|does\s*not|doesn't)\s+(?:have|contain|give|provide)\s+(?:enough|sufficient)\s+"
        r"(?:information|context|details?|data)\b",
        r"\b(?:not\s+enough|insufficient)\s+(?:information|context|details?|data)\s+(?:to|in|for)\b",
        r"\b(?:it\s+is|it's)\s+(?:not\s+possible|impossible)\s+to\s+(?:\w+ly\s+)?(?:determine|say|tell|answer|"
        r"know|confirm)\b",
        r"\bcan(?:not|'t|\s+not)\s+be\s+(?:determined|answered|confirmed)\s+(?:from|with|based\s+on|using)\b",
        r"\bno\s+(?:\w+\s+)?(?:information|mention|details?|data|documentation)\s+(?:was|were|could\s+be|is|"
        r"are)\s+(?:found|available|given|provided)\b",
        r"\bno\s+idea\b",
    ],
    "zh": [
        r"(?:文档|文件|资料|文本|上下文|材料)(?:中|里|内|里面)?(?:并|均|都)?(?:没有|未|没)(?:有)?"
        r"(?:提及|提到|说明|涉及|包含|介绍|描述|记载|给出|说|写|讲|相关)",
        r"(?:找不到|未找到|没有找到|没找到|无法找到|查不到|未能找到)",
        r"(?<!如果)(?:不清楚|不知道)|无法回答|无法确定|无从得知",
        r"没有(?:相关|这方面|有关)(?:的)?(?:信息|内容|资料|说明|记录)",
    ],
    "ja": [
        r"(?:記載|言及|説明|記述|掲載)(?:が|は|も)?(?:されて)?(?:い)?(?:ません|ない|ありません|なし)",
        r"(?:見つかりません|見つけられません|見当たりません|分かりません|わかりません|不明です)",
        r"(?:情報|記述|資料)(?:が|は)(?:ありません|ない|見つかりません)",
        r"(?:お答え|回答)(?:することが)?(?:でき|出来)ません",
    ],
    "de": [
        r"\bnicht\s+(?:näher\s+)?(?:beschrieben|erwähnt|dokumentiert|behandelt|erläutert)\b",
        r"\b(?:dokumentation|dokumente?n?|unterlagen|quellen?|kontext|texte?n?)\b[^.!?]{0,60}\bnicht\s+"
        r"(?:angegeben|enthalten|genannt|aufgeführt|beantwortet|vor|hervor)\b",
        r"\b(?:dokumentation|dokumente?n?|unterlagen|quellen?|kontext)\s+(?:\w+\s+){0,2}?(?:beschreibt|"
        r"beschreiben|erwähnt|erwähnen|nennt|nennen|enthält|enthalten|sagt|sagen|behandelt|behandeln)\s+"
        r"(?:\w+\s+){0,4}?(?:nicht|keine\w*|nichts)\b",
        r"\bkeine\s+(?:\w+\s+)?(?:informationen|hinweise|erwähnung)\b",
        r"\b(?:ich\s+)?(?:weiß|weiss)\s+(?:es\s+|das\s+)?nicht\b",
        r"\b(?:ich\s+(?:kann|konnte)|(?:kann|konnte)\s+ich)\s+(?:\w+\s+){0,5}?(?:nicht|keine\w*|nichts)\s+"
        r"(?:\w+\s+)?(?:finden|beantworten|sagen)\b",
    ],
    "fr": [
        r"\bn'(?:est|sont|était|étaient)\s+pas\s+(?:\w+ment\s+)?(?:mentionné|décrit|couvert|documenté|"
        r"abordé|traité|expliqué|évoqué)e?s?\b",
        r"\bne\s+(?:mentionne|précise|décrit|dit|couvre|contient|indique|aborde|explique|traite)(?:nt)?"
        r"\s+pas\b",
        r"\bje\s+ne\s+(?:sais|trouve|peux|connais)\s+pas\b",
        r"\bje\s+n'ai\s+pas\s+(?:trouvé|d'information|de\s+réponse)",
        r"\b(?:aucune|pas\s+d')\s*(?:information|mention|indication)s?\b",
    ],
    "es": [
        r"(?<!si )\bno\s+se\s+(?:menciona|especifica|describe|indica|detalla|explica|encuentra|dice|"
        r"documenta|aborda|trata|incluye)n?\b",
        r"\b(?:documentos?|documentación|contexto|fuentes?|textos?)\s+no\s+(?:menciona|dice|especifica|describe|"
        r"incluye|contiene|cubre|indica|explica|aborda|detalla)n?\b",
        r"\bno\s+(?:lo\s+)?sé\b",
        r"\bno\s+(?:puedo|pude|logro|logré|he\s+podido)\s+(?:encontrar|responder|determinar|confirmar)\b",
        r"\bno\s+(?:hay|tengo|encontré|encuentro|he\s+encontrado)\s+(?:ninguna\s+)?información\b",
        r"\bninguna\s+(?:información|mención|referencia)\b",
    ],
}
_REFUSALS = {lang: re.compile("|".join(found), re.IGNORECASE) for lang, found in _PATTERNS.items()}
# After a refusal, a guess that still supplies the asked fact ("..., but I think it is 42").
_GUESS = re.compile(
    r"\b(?:but|however|though|still)\b,?\s+(?:\w+(?:'s)?\s+){0,3}?(?:i\s+(?:think|believe|guess|assume|"
    r"suspect|would\s+say)|probably|likely|presumably)\b"
    r"|(?:不过|但是|但)(?:我(?:认为|觉得|猜)|可能|应该|大概)"
    r"|\b(?:aber|jedoch)\b,?\s+(?:\w+\s+){0,3}?(?:ich\s+(?:denke|glaube|vermute)|vermutlich|wahrscheinlich)"
    r"|\b(?:mais|cependant)\b,?\s+(?:\S+\s+){0,3}?(?:je\s+(?:pense|crois|suppose)|probablement|sans\s+doute)"
    r"|\b(?:pero|sin\s+embargo)\b,?\s+(?:\w+\s+){0,3}?(?:creo|supongo|probablemente|seguramente)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Refusal:
    """A refusal phrase found in a response: the words, their language, and whether a guess follows."""

    phrase: str
    language: str
    guessed: str = ""


def find_refusal(response: str) -> Refusal | None:
    """The first refusal phrase of the response (its own language's phrases tried first), or None."""
    response = response.replace("\u2019", "'")  # a typographic apostrophe: "don’t", "n’est"
    detected = detect_language(response)
    order = [detected, *(lang for lang in _REFUSALS if lang != detected)]
    for lang in order:
        found = _REFUSALS[lang].search(response) if lang in _REFUSALS else None
        if found:
            guess = _GUESS.search(response, found.end())
            return Refusal(found.group(0), lang, guess.group(0) if guess else "")
    return None


def declines(response: str) -> bool:
    """True when the response holds a refusal phrase and does not guess the answer after it."""
    found = find_refusal(response)
    return found is not None and not found.guessed


class RefusalInput(BaseModel):
    question: str = Field(description="the question asked; after the earlier turns when it is a follow-up")
    response: str = Field(description="the reply to classify")


class Behaviour(BaseModel):
    # The reason first: a judge that states its grounds before it commits is steadier.
    reason: str = Field(default="", description="one or two short sentences on why")
    behaviour: Literal["declines", "answers"] = Field(
        description="'declines': the reply says it cannot give the asked information and does not supply "
        "it; 'answers': the reply attempts to give it"
    )


class RefusalPrompt(Prompt[RefusalInput, Behaviour]):
    name = "metric.refusal"
    instruction = (
        "An assistant replied to a question about a collection of documents. Classify what the reply does "
        "with the question. 'declines': the reply says it cannot give what was asked, because the "
        "documents or sources do not cover it, it does not know, or it could not find it, and it does not "
        "supply the asked fact from anywhere else; pointing to related facts it presents as related, or "
        "suggesting where to look, still declines. 'answers': the reply makes a real attempt to give what "
        "was asked (a fact, a value, steps, an explanation), even hedged, partial or wrong; a reply that "
        "first says the documents are silent or that it is unsure and then gives an answer anyway (a guess) "
        "answers. Classify only what the reply does, not whether it is right or whether the question "
        "could be answered. The reply may be in any language. Give the reason first."
    )
    examples = [
        (
            RefusalInput(
                question="Which team at the company owns the on-call rota for the Loki cluster?",
                response=(
                    "The documents do not say who owns the on-call rota. They only describe how "
                    "Alertmanager routes alerts to receivers."
                ),
            ),
            Behaviour(
                reason="It states the documents do not cover the owner and offers only related routing "
                "facts, without naming a team.",
                behaviour=DECLINES,
            ),
        ),
        (
            RefusalInput(
                question="How often does Prometheus scrape targets by default?",
                response="Every minute, unless scrape_interval in the global section sets another value.",
            ),
            Behaviour(reason="It gives the default interval.", behaviour=ANSWERS),
        ),
        (
            RefusalInput(
                question="Can Prometheus write samples straight into BigQuery?",
                response=(
                    "I could not find that in the documentation, but it probably works through a "
                    "remote-write adapter for BigQuery."
                ),
            ),
            Behaviour(
                reason="After saying it found nothing, it still asserts a way to do it: a guess.",
                behaviour=ANSWERS,
            ),
        ),
        (
            RefusalInput(
                question="Grafana 的默认管理员密码是什么？",
                response="文档中没有提到 Grafana 的默认管理员密码。",
            ),
            Behaviour(reason="It says the documents do not mention the password.", behaviour=DECLINES),
        ),
    ]

    def offline(self, data: RefusalInput) -> Behaviour:
        found = find_refusal(data.response)
        if found is None:
            return Behaviour(reason="offline: no refusal phrase in the response", behaviour=ANSWERS)
        said = f"offline: the response says {found.phrase!r} ({found.language})"
        if found.guessed:
            return Behaviour(reason=f"{said}, then guesses ({found.guessed!r})", behaviour=ANSWERS)
        return Behaviour(reason=said, behaviour=DECLINES)
