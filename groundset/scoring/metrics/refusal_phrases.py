"""Where a response says it cannot answer, offline, in six languages (en, zh, ja, de, fr, es).

A refusal phrase counts only as the answer's own claim about itself: the answerer cannot answer or did
not find it ("I don't know", "I could not find ..."), the provided material is silent ("the documents do
not say", "not covered in the docs", "文档中没有提到", "記載されていません", "nicht beschrieben", "n'est
pas mentionné", "no se menciona"), or there is no information to answer with ("there is no information
about ...", "not enough information to answer"). The same words stated as a fact about the subject are
an answer, so a phrase does not count:

- inside a clause about something else: a subordinate clause ("... drops an alert when there is not
  enough information in its labels", "如果找不到配置文件", "設定ファイルが見つからない場合", "wenn keine
  Angaben gemacht werden"), a relative clause ("Optionen, die nicht beschrieben sind", "文档中没有提到的
  选项", "記載されていないラベル"), a question ("What if I am not sure ...?") or a quotation;
- with a subject or place that is not the answerer or its material ("the target does not provide enough
  information", "not enough information in its labels", "程序找不到配置文件", "このメトリクスには情報が
  ありません", "La spécification ne précise pas", "No hay información de depuración en el binario");
- said impersonally without tying it to answering ("it is not possible to determine the order of
  samples"): that needs "from the provided context", or the clause ending at the verb ("it is hard to say").

Words that are also everyday nouns ("the request context", "the documents in the collection") name the
answerer's material only after a determiner or a qualifier ("the provided context"), and with verbs of
saying ("do not say/mention/cover"); "contain/include/provide" need an object such as "any information".
A refusal followed by a guess ("..., but it is probably 42") answers: it supplies the asked fact anyway.
``tests/data/refusals`` is the labelled set this is measured on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...text.language import detect_language

# -- English -------------------------------------------------------------------------------------------

_DOC_NOUN = (
    r"(?:documents?|docs|documentation|context|contexts|sources?|passages?|manual|materials?|texts?|excerpts?"
    r"|snippets?|information|knowledge\s+base)"
)
_QUALIFIED = r"(?:provided|given|available|retrieved|supplied|attached|above|shared|cited|referenced)"
# The answerer's material for certain: the documentation, or any material word that is qualified.
_DOCS_CLEAR = (
    rf"(?:(?:the\s+|this\s+|its\s+)?(?:\w+\s+)?(?:documentation|docs|knowledge\s+base)"
    rf"|(?:the\s+|these\s+|this\s+|those\s+)?{_QUALIFIED}\s+(?:\w+\s+)?{_DOC_NOUN}"
    rf"|(?:the|these|this|those)\s+{_DOC_NOUN}\s+(?:{_QUALIFIED}|i\s+(?:have|had|was\s+given|received|"
    rf"found)|you(?:'ve|\s+have)?\s+(?:gave|given|provided|shared|sent)(?:\s+me)?)"
    rf"|(?:these|those|my|your)\s+(?:\w+\s+)?{_DOC_NOUN})"
)
# ... or a material word right after "the"/"this" ("the documents do not say"), not "the request context".
_DOCS_ANY = rf"(?:{_DOCS_CLEAR}|(?:the|this)\s+{_DOC_NOUN})"
_SAYING = (
    r"(?:say|mention|cover|specify|describe|explain|state|address|discuss|document|tell|detail|clarify|answer"
    r"|reveal|go\s+into|talk\s+about|refer\s+to)"
)
_SAID = r"(?:covered|mentioned|specified|described|stated|addressed|discussed|explained|detailed|answered)"
_HOLDING = r"(?:contain|include|provide|give|list|indicate|offer|have)"
_HELD = r"(?:found|given|included|provided|contained|listed|documented|available)"
_INFO = r"(?:information|info|details?|mention|documentation|indication|specifics|record)"
_ANSWERING = (
    r"(?:answer|say|tell|determine|know|confirm|give|provide|be\s+sure|be\s+certain|identify|judge|conclude"
    r"|respond|decide|specify|pinpoint|name|verify)"
)
_NOT = r"(?:\s*not|n't)"
# The rest of the clause names no place but the material: not "... about the duration in the up metric".
_NO_OTHER_PLACE = (
    rf"(?![^.,;:!?]*\b(?:in|within|inside)\s+(?:the|its|their|a|an|this|that)\s+(?!(?:\w+\s+)?(?:{_QUALIFIED}\s+)?"
    rf"{_DOC_NOUN}\b))"
)
_CLAUSE_END = r"(?=\s*(?:[.;:!?)]|,\s*(?:so|and|but|because|since|as|sorry)\b|$))"
_ENGLISH = [
    # the material is silent: "the documents do not say", "the provided context does not contain any ..."
    rf"\b{_DOCS_ANY}\s+(?:(?:do(?:es)?|did){_NOT}\s+(?:\w+ly\s+)?(?:{_SAYING}\b|{_HOLDING}\s+(?:(?:any|enough|much"
    rf"|more|further|specific|relevant|such|clear|that|this|the)\s+)*(?:{_INFO}|answer|anything)\b"
    rf"|{_HOLDING}\s+(?:enough|sufficient)\s+(?:information|context|details?|data)\b)"
    rf"|(?:\w+\s+){{0,2}}?(?:says?|mentions?|tells?(?:\s+us)?|gives?|provides?|contains?|offers?|has|have"
    rf"|includes?)\s+(?:nothing|no\s+(?:\w+\s+)?(?:{_INFO}|answer|section|page|chapter|entry))\b"
    rf"|(?:is|are)\s+silent\b"
    rf"|(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:insufficient|not\s+sufficient|not\s+enough)\s+to\s+(?:\w+ly\s+)?"
    rf"{_ANSWERING}\b)",
    rf"\b{_DOCS_CLEAR}\s+(?:do(?:es)?|did){_NOT}\s+(?:\w+ly\s+)?(?:contain|include|provide)\b",
    rf"\bnone\s+of\s+{_DOCS_ANY}\s+(?:\w+ly\s+)?(?:{_SAYING}|{_HOLDING})s?\b",
    rf"\bnot\s+(?:something|anything)\s+(?:that\s+)?(?:{_DOCS_ANY}\s+(?:\w+ly\s+)?(?:{_SAYING}|{_HOLDING})s?"
    rf"|i\s+(?:can|could)\s+(?:answer|find|say|tell|confirm))\b",
    rf"\b(?:is|are|was|were|'s|'re){_NOT}\s+(?:\w+ly\s+)?{_SAID}\s+(?:anywhere\s+)?(?:in|by|within)\s+"
    rf"{_DOCS_ANY}",
    rf"\b(?:is|are|was|were|'s|'re){_NOT}\s+(?:\w+ly\s+)?(?:{_HELD}\s+)?(?:anywhere\s+)?(?:in|within|from)\s+"
    rf"{_DOCS_CLEAR}",
    rf"\bnothing\s+(?:about\s+(?:this|that|it)\s+)?in\s+(?:{_DOCS_CLEAR}|{_DOCS_ANY}(?=\s+(?:about|on|regarding"
    rf"|concerning|says|mentions|covers|answers|addresses|explains|describes|indicates|specifies|tells)\b))",
    rf"\b(?:outside|beyond)\s+(?:of\s+)?(?:the\s+)?scope\s+of\s+{_DOCS_ANY}",
    # there is no information to answer with, said as the answerer's finding (not "in its labels")
    rf"\b(?:there\s+(?:is|was|are|were)(?:\s+no|{_NOT}\s+any)|there's\s+(?:no|not\s+any)"
    rf"|i\s+(?:have|had|found|see|saw|could\s+find|can\s+find)\s+no|i\s+(?:do|did){_NOT}\s+(?:have|find|see)"
    rf"(?:\s+any)?|i've\s+(?:got|found|seen)\s+no)\s+(?:\w+\s+)?{_INFO}\b(?=\s*(?:[.,;:!?)]|$)|\s+(?:about|on|of"
    rf"|regarding|concerning|for|that\s+(?:i|we)|available|provided|given|i\s+can|to\s+(?:\w+ly\s+)?{_ANSWERING})\b"
    rf"|\s+(?:in|within|from)\s+{_DOCS_ANY}){_NO_OTHER_PLACE}",
    rf"(?:^|(?<=[.!?;:,]\s)|(?<=\n))no\s+(?:\w+\s+)?{_INFO}\s+(?:(?:about|on|regarding|concerning|of)\b"
    rf"|(?:\w+\s+){{0,4}}?(?:was|were|could\s+be|can\s+be|is|are)\s+(?:found|available|given|provided|included)"
    rf"\b(?!\s+(?:in|within|from)\s+(?!{_DOCS_ANY})))",
    rf"\b(?:not\s+enough|insufficient)\s+(?:information|context|details?|data)\s+(?:to\s+(?:\w+ly\s+)?"
    rf"{_ANSWERING}|(?:in|within|from)\s+{_DOCS_ANY}|for\s+(?:me\s+to|an?\s+(?:\w+\s+)?answer|answering))\b",
    rf"\bi\s+do{_NOT}\s+{_HOLDING}\s+(?:enough|sufficient)\s+(?:information|context|details?|data)\b",
    # the answerer cannot: "I don't know", "I could not find", "I'm not sure", "I'd rather not guess"
    rf"\bi\s+(?:do{_NOT}|did{_NOT}|cannot|can't|can\s+not|could{_NOT}|am\s+unable\s+to|was\s+unable\s+to"
    rf"|am\s+not\s+able\s+to|was{_NOT}\s+able\s+to|have{_NOT}\s+been\s+able\s+to)\s+(?:\w+ly\s+)?(?:know|find"
    rf"|locate|see|{_ANSWERING}|help\s+with)\b",
    rf"\bi(?:'m|\s+am)\s+(?:unable|not\s+able)\s+to\s+(?:\w+ly\s+)?(?:{_ANSWERING}|find|locate|help)\b",
    r"\bwe\s+(?:could\s*not|couldn't|were\s+unable\s+to|were\s+not\s+able\s+to)\s+(?:find|locate)\b",
    r"\bi(?:'m|\s+am)\s+(?:not\s+sure|unsure|not\s+certain|uncertain)\b",
    r"\bi(?:'d|\s+would)\s+(?:rather\s+not|prefer\s+not\s+to)\s+(?:guess|say|speculate|answer|comment)\b",
    r"\bi\s+(?:won't|will\s+not)\s+(?:guess|speculate)\b",
    r"(?:\bi\s+have|\bi've(?:\s+got)?|\bi\s+had|(?:^|(?<=[.!?]\s)))\s*no\s+idea\b",
    # impossible to answer, tied to the material or to answering ("..., it is hard to say.")
    rf"(?:\b(?:from|based\s+on|given|according\s+to|with|using)\s+{_DOCS_ANY}\s*,?\s*)(?:it\s+is|it's|it\s+was)"
    rf"\s+(?:\w+ly\s+)?(?:not\s+possible|impossible|hard|difficult|not\s+clear|unclear)\s+to\s+(?:\w+ly\s+)?"
    rf"{_ANSWERING}\b",
    rf"\b(?:it\s+is|it's|it\s+was)\s+(?:\w+ly\s+)?(?:not\s+possible|impossible|hard|difficult|not\s+clear|unclear)"
    rf"\s+to\s+(?:\w+ly\s+)?{_ANSWERING}\b(?:{_CLAUSE_END}|(?=\s+(?:\w+\s+){{0,2}}?(?:from|based\s+on|with|given"
    rf"|using|according\s+to|in)\s+{_DOCS_ANY}))",
    rf"\bcan(?:not|'t|\s+not)\s+be\s+(?:determined|answered|confirmed|known|said)\s+(?:\w+\s+)?(?:from|with"
    rf"|based\s+on|using|given|in)\s+{_DOCS_ANY}",
    rf"\b(?:this|that|it|the\s+answer)\s+can(?:not|'t|\s+not)\s+be\s+(?:determined|answered|confirmed|known)"
    rf"{_CLAUSE_END}",
    r"\b(?:this|that|your)\s+question\s+can(?:not|'t|\s+not)\s+be\s+answered\b",
]
# Words that open a clause about something else; "that" only after a word other than a verb of saying (at
# the start of a clause it is the pronoun: "That is outside the scope of the provided documentation").
_SUBORDINATE_EN = re.compile(
    r"\b(?:when|whenever|if|unless|because|since|although|though|while|whilst|whereas|where|wherever|which"
    r"|who|whom|whose|once|until|till|whether|lest|in\s+case|so\s+that|even\s+if|provided\s+that|assuming|as"
    r"|(?:after|before)(?!\s+\w+ing\b))\b"
    r"|(?<!\bnote\s)(?<!\bsure\s)(?<!\bseems\s)(?<!\bfound\s)(?<!\bafraid\s)(?<!\bsorry\s)(?<!\bappears\s)"
    r"(?<!\bmeans\s)(?<!\bclear\s)(?<!\bsay\s)(?<!\bsee\s)(?<!\bthink\s)(?<=\w\s)that\b",
    re.IGNORECASE,
)
# Set phrases with "as" that open no clause ("as far as I can tell", "such as").
_NOT_CLAUSES_EN = re.compile(r"\bas\s+far\s+as\b|\bsuch\s+as\b|\bas\s+well\s+as\b|\bas\s+of\b", re.IGNORECASE)

# -- German --------------------------------------------------------------------------------------------

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

# -- French --------------------------------------------------------------------------------------------

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

# -- Spanish -------------------------------------------------------------------------------------------

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

# -- Chinese -------------------------------------------------------------------------------------------

# A Chinese claim about the answerer starts its clause, after at most an apology, "I", the material and an
# adverb: "抱歉，我没有找到", "文档里找不到"; "程序找不到配置文件" is about the program.
_OPENING_ZH = (
    r"(?:^|(?<=[\n，。；：！？,.;:!?]))\s*(?:(?:很)?抱歉|对不起|遗憾的是)?[，,]?\s*"
    r"(?:(?:根据|基于|从)(?:所?提供的|给定的|现有的)?(?:文档|资料|上下文|材料|文本|信息)(?:来看|中|里)?[，,]?\s*)?(?:我们?)?"
    r"(?:在?(?:所?提供的|给定的|现有的)?(?:文档|资料|上下文|材料|文本)(?:中|里|内)?)?(?:也|还|都|并|仍然?|暂时|目前|确实|真的)?"
)
_CHINESE = [
    r"(?:文档|资料|文本|上下文|材料|提供的文件)(?:中|里|内|里面)?(?:并|均|都|也)?(?:没有|未|没)(?:有)?"
    r"(?:提及|提到|说明|涉及|包含|介绍|描述|记载|给出|说|写|讲|相关|关于)",
    rf"{_OPENING_ZH}(?:找不到|未找到|没有找到|没找到|无法找到|查不到|未能找到)",
    rf"{_OPENING_ZH}(?:不清楚|不知道|无法回答|无法确定|无从得知)",
    rf"{_OPENING_ZH}没有(?:相关|这方面|有关)(?:的)?(?:信息|内容|资料|说明|记录)",
    rf"{_OPENING_ZH}(?:无法|不能|没法)(?:根据|从|依据|基于)[^，。；]{{0,12}}?(?:资料|文档|上下文|材料|信息|内容)"
    rf"[^，。；]{{0,6}}?(?:确定|回答|判断|得知|找到)",
]
_SUBORDINATE_ZH = re.compile(r"如果|如若|假如|若|要是|当|因为|由于|虽然|尽管|即使|除非|只要|一旦")
# Right after a Chinese claim: "的" makes it modify a noun, "...时会" a condition.
_DANGLING_ZH = re.compile(
    r"^的|^[^，。；：！？,.;:!?]*?(?<![何小同及实临])(?:时(?:候)?|的话)(?=\s*(?:[，,]|会|将|则|就|便|可|需|应|也|要|请|才|必须|$))"
)

# -- Japanese ------------------------------------------------------------------------------------------

_DOCS_JA = r"(?:ドキュメント|資料|文書|コンテキスト|文脈|提供された\S{0,8}?|情報源)"
_JAPANESE = [
    r"(?:記載|言及|説明|記述|掲載)(?:が|は|も)?(?:されて)?(?:い)?(?:ません|ない|ありません|なし)",
    rf"(?:(?:情報|記載|記述|資料|回答|答え|記録|言及|該当\S{{0,4}}?|関連\S{{0,4}}?|それ)(?:が|は|も)"
    rf"|{_DOCS_JA}(?:の中)?(?:に|で|から)(?:は|も)?|^|(?<=[、。\s]))(?:見つかりません|見つけられません|見当たりません)",
    r"(?:分かりません|わかりません)",
    rf"{_DOCS_JA}(?:から|では|だけでは)(?:は)?(?:不明です|(?:判断|特定|確認|断定)(?:することが|が)?できません)",
    r"(?:(?<![ァ-ヴーA-Za-z0-9一-龯])|関連する|該当する|関する|についての|詳しい|具体的な)情報(?:が|は)"
    r"(?:ありません|ない|見つかりません)",
    r"(?:お答え|回答)(?:することが)?(?:でき|出来)ません",
    r"(?:(?<![ァ-ヴーA-Za-z0-9一-龯])情報|(?:その|該当する|関連する)情報|答え|回答|記載|記述)(?:は|が|も)?"
    r"含まれて(?:い)?(?:ません|ない)",
]
# Before a Japanese claim: a conditional or causal clause, or a place that is not the material
# ("このメトリクスには"); a claim must end its clause ("記載されていないラベル" modifies a noun).
_SUBORDINATE_JA = re.compile(
    r"場合|とき|時に|ならば?|たら|れば|(?:ない|ます|です|る|た|な)(?:ので|から)|(?:ない|る|た|の)ため"
    r"|(?:^|[、。\s])(?!(?:提供された)?(?:ドキュメント|資料|文書|コンテキスト|文脈|情報源|質問|ご質問|この質問))"
    r"[^\s、。]{1,20}?には"
)
_DANGLING_JA = re.compile(
    r"^(?!\s*(?:でした|です)?\s*(?:[。．.!！?？、,）)」』\n]|$|が[、,]|けど|けれど|ね|よ|し[、,]))"
)

# -- all -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phrases:
    """One language's refusal claims, and the marks that put a match in a clause about something else:
    ``subordinate`` searched in its clause before it, ``dangling`` matched right after it. ``cue`` is a
    negation every claim holds: sentences without one are skipped unread (a long answer stays cheap)."""

    claims: re.Pattern[str]
    cue: re.Pattern[str]
    subordinate: re.Pattern[str]
    dangling: re.Pattern[str] | None = None
    set_phrases: re.Pattern[str] | None = None  # removed before the subordinate check


def _phrases(found: list[str], cue: str, subordinate: re.Pattern[str], **marks: re.Pattern[str]) -> Phrases:
    return Phrases(
        re.compile("|".join(found), re.IGNORECASE), re.compile(cue, re.IGNORECASE), subordinate, **marks
    )


PHRASES: dict[str, Phrases] = {
    "en": _phrases(
        _ENGLISH,
        r"\b(?:not|no|nothing|none|cannot|unable|insufficient|silent|scope|unsure|uncertain|impossible|hard"
        r"|difficult|unclear|rather|prefer)\b|n't",
        _SUBORDINATE_EN,
        set_phrases=_NOT_CLAUSES_EN,
    ),
    "zh": _phrases(_CHINESE, r"[没未无不]", _SUBORDINATE_ZH, dangling=_DANGLING_ZH),
    "ja": _phrases(_JAPANESE, r"ません|ない|なし|不明", _SUBORDINATE_JA, dangling=_DANGLING_JA),
    "de": _phrases(_GERMAN, r"\b(?:nicht|nichts|kein\w*)\b", _SUBORDINATE_DE),
    "fr": _phrases(_FRENCH, r"\b(?:ne|pas|rien|aucune?|dépasse(?:nt)?|sort(?:ent)?)\b|\bn'", _SUBORDINATE_FR),
    "es": _phrases(_SPANISH, r"\b(?:no|nada|ninguna?)\b", _SUBORDINATE_ES),
}
# After a refusal, a guess that still supplies the asked fact ("..., but I think it is 42").
_GUESS = re.compile(
    r"\b(?:but|however|though|still)\b,?\s+(?:\w+(?:'s)?\s+){0,3}?(?:i\s+(?:think|believe|guess|assume|"
    r"suspect|would\s+say)|probably|likely|presumably)\b"
    r"|(?:不过|但是|但)(?:我(?:认为|觉得|猜)|可能|应该|大概)"
    r"|(?:が|けど|けれども?)[、,]?\s*(?:おそらく|たぶん|多分|恐らく|きっと)|と思(?:います|われます)"
    r"|\b(?:aber|jedoch)\b,?\s+(?:\w+\s+){0,3}?(?:ich\s+(?:denke|glaube|vermute)|vermutlich|wahrscheinlich)"
    r"|\b(?:mais|cependant)\b,?\s+(?:\S+\s+){0,3}?(?:je\s+(?:pense|crois|suppose)|probablement|sans\s+doute)"
    r"|\b(?:pero|sin\s+embargo)\b,?\s+(?:\w+\s+){0,3}?(?:creo|supongo|probablemente|seguramente)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？\n]")
_CLAUSE_BREAK = re.compile(r"[,;:()\u2013\u2014，、；：（）]")
# Quotation marks: pairs, and marks that open and close alike; German „...“ closes with English's opener.
_QUOTE_PAIRS = {
    "\u00ab": "\u00bb",
    "\u2039": "\u203a",
    "\u300c": "\u300d",
    "\u300e": "\u300f",
    "\uff02": "\uff02",
}
_QUOTE_MARKS = ('"', "`")


@dataclass(frozen=True)
class Refusal:
    """A refusal phrase found in a response: the words, their language, and whether a guess follows."""

    phrase: str
    language: str
    guessed: str = ""


def find_refusal(response: str) -> Refusal | None:
    """The first refusal claim of the response (its own language's phrases tried first), or None."""
    response = response.replace("\u2019", "'")  # a typographic apostrophe: "don’t", "n’est"
    detected = detect_language(response)
    sentences = _sentences(response)
    for lang in [detected, *(lang for lang in PHRASES if lang != detected)]:
        phrases = PHRASES.get(lang)
        found = _first_claim(sentences, phrases) if phrases else None
        if found:
            phrase, end = found
            guess = _GUESS.search(response, end)
            return Refusal(phrase, lang, guess.group(0) if guess else "")
    return None


def claims(text: str, pattern: re.Pattern[str], language: str = "en") -> bool:
    """Whether ``pattern`` matches in ``text`` as the answer's own claim, by the same checks as a refusal
    phrase (not in a question, a quotation or a clause about something else): for other phrases about the
    answerer, such as its ignorance ("I'm not sure") in offline answer relevancy."""
    phrases = replace(PHRASES[language], claims=pattern)
    sentences = _sentences(text.replace("\u2019", "'"))
    return any(_own_claim(s, match, phrases) for _, s in sentences for match in pattern.finditer(s))


def declines(response: str) -> bool:
    """True when the response holds a refusal claim and does not guess the answer after it."""
    found = find_refusal(response)
    return found is not None and not found.guessed


def _sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; a sentence keeps its final mark (a question ends with "?")."""
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(text))]
    ends = [*starts[1:], len(text)]
    return [
        (start, text[start:end]) for start, end in zip(starts, ends, strict=True) if text[start:end].strip()
    ]


def _first_claim(sentences: list[tuple[int, str]], phrases: Phrases) -> tuple[str, int] | None:
    """The first claim in ``sentences`` that is the answer's own, with where it ends in the response."""
    for offset, sentence in sentences:
        if not phrases.cue.search(sentence):
            continue
        for match in phrases.claims.finditer(sentence):
            if _own_claim(sentence, match, phrases):
                return match.group(0).strip(), offset + match.end()
    return None


def _own_claim(sentence: str, match: re.Match[str], phrases: Phrases) -> bool:
    """Whether the matched phrase is the answer's claim about itself, not part of a question, a quotation,
    or a clause about something else."""
    start, end = match.start(), match.end()
    if sentence.rstrip().endswith(("?", "？")) or _quoted(sentence[:start]):
        return False
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(sentence, 0, start)]
    before = sentence[breaks[-1] if breaks else 0 : start]
    if phrases.set_phrases is not None:
        before = phrases.set_phrases.sub(" ", before)
    if phrases.subordinate.search(before):
        return False
    after_break = _CLAUSE_BREAK.search(sentence, end)
    after = sentence[end : after_break.end() if after_break else len(sentence)]
    return phrases.dangling is None or not phrases.dangling.search(after)


def _quoted(before: str) -> bool:
    """Whether a quotation opened in ``before`` is still open (the phrase is quoted, not claimed)."""
    if any(before.count(mark) % 2 for mark in _QUOTE_MARKS):
        return True
    german = "\u201e" in before
    curly = ("\u201e", "\u201c") if german else ("\u201c", "\u201d")
    pairs = [*_QUOTE_PAIRS.items(), curly]
    return any(before.count(opening) > before.count(closing) for opening, closing in pairs)
