"""English (en): the word lists the answer patterns and question templates share (one list per role), the
out-of-scope aspects, refusal phrases, sentence abbreviations and negations. English question templates and
persona roles live with the code that writes them (``LANGUAGE.falls_back`` says where).
"""

from __future__ import annotations

import re

from .aspects import Aspect, AspectWording
from .language import Language
from .refusals import refusal_words
from .sentences import SentenceWords
from .words import word_set

PREPOSITIONS = word_set(
    """
    with of to in on by for from as into at about
    """
)

DETERMINERS = word_set(
    """
    the a an this that these those its their your our my each every all any some
    """
)

FUNCTION_WORDS = word_set(
    """
    the a an this these those that each every all any some many most no its their our your his her
    such both either neither one two three several other another you we they it there
    """
)

IRREGULAR_BASE = {"has": "have", "does": "do", "is": "be", "goes": "go"}

ADVERBS = word_set(
    """
    now also always never only still just not then already first usually typically
    """
)

# Verbs whose object a "What must X <verb>?" question can ask for.
TRANSITIVE = word_set(
    """
    contain include have use follow match specify produce support expose provide return accept send
    set define reject ignore implement handle honor honour respect emit start end consist begin
    represent carry hold list describe allow take keep store create add avoid perform process call
    pass encode escape parse reference map indicate report apply export expose need require get
    receive
    """
)

IMPERATIVES = word_set(
    """
    use set add run make check ensure separate call avoid consider remove include prefer pass
    configure enable disable restart create follow keep specify try send go click select open choose
    define write start stop install update put move rename look change increase decrease reduce
    limit file contact refer ask report post submit join read navigate visit download expose let
    """
)

AUXILIARIES = word_set(
    """
    is are was were can cannot could should must may might will would does do did has have
    """
)

POINTER_WORDS = word_set(
    """
    this that these those it them here there above below
    """
)


# Words a search query leaves out (web_search style) and that never make a question's subject.
QUERY_STOP_WORDS: frozenset[str] = word_set(
    """
    a an the and or but nor so if then than that this these those there here of to in on at by for
    from with without into onto about over under between through during before after as per via
    is are was were be been being am do does did doing done have has had having can could will
    would shall should may might must i me my we us our you your he him his she her it its they
    them their what which who whom whose when where why how not no also just very too any some
    all each every both either neither such same other another more most much many few own only
    one anything something someone anyone really actually exactly please tell explain know say
    says said according documentation docs described mentioned given mean meant want need
    """
)


# -- out-of-scope aspects (``aspects``) ------------------------------------------------------------


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE)


_W = AspectWording


ASPECTS: tuple[Aspect, ...] = (
    Aspect("licence_price", "price of a commercial licence", _words(
        r"prices?|pricing|priced|costs?|licen[cs]e[sd]?|licensing|subscriptions?|paid|free of charge|"
        r"enterprise (?:edition|plan|tier)s?|commercial"),
        tool=_W(("How much does a commercial licence for {term} cost?",
                 "What does an enterprise subscription for {term} cost per year?",
                 "Is there a paid edition of {term}, and what is its price per server?"),
                "how much a commercial licence or subscription for {term} costs",
                "A commercial licence for {term} costs 450 US dollars per server and year.")),
    Aspect("support_contract", "vendor support contracts", _words(
        r"support (?:contract|plan|subscription|agreement)s?|(?:commercial|paid|vendor|enterprise|"
        r"professional) support|professional services|consult(?:ing|ants?|ancy)|sla|service levels?|24/7|"
        r"response times?"),
        tool=_W(("Which vendors sell a support contract for {term} with guaranteed response times?",
                 "Can I buy round-the-clock vendor support for {term}, and who offers it?"),
                "who sells support contracts for {term} or what they guarantee",
                "The {term} maintainers sell a 24/7 support contract with a four-hour response time.")),
    Aspect("next_release", "plans for the next major release", _words(
        r"release (?:dates?|schedules?|cadence|cycles?|plans?)|roadmaps?|planned for|will be removed|"
        r"(?:next|upcoming|future) (?:major )?(?:release|version)s?|deprecat\w*|long[- ]term support|lts"),
        tool=_W(("When will the next major version of {term} be released?",
                 "What is the planned release date of the next major {term} version?"),
                "when the next major version of {term} will be released",
                "The next major version of {term} is due in March, six months after the current one."),
        concept=_W(("What changes to {term} are planned for the next major release?",
                    "Will {term} be redesigned or deprecated in a future version?"),
                   "what changes to {term} are planned for future releases",
                   "{term} will be redesigned in the next major release and the current form deprecated.")),
    Aspect("windows_installer", "a graphical Windows installer", re.compile(
        r"\b(?:windows|installers?|msi|setup wizard|chocolatey|winget)\b|\.exe\b", re.IGNORECASE),
        tool=_W(("Is there a Windows installer with a setup wizard for {term}?",
                 "Can I install {term} on Windows with a graphical installer instead of the command line?"),
                "whether {term} comes with a graphical Windows installer",
                "{term} ships an MSI package for Windows that installs it with a setup wizard.")),
    Aspect("mobile_app", "an official mobile app", _words(
        r"mobile|android|ios|iphone|ipad|smartphones?|phones?|app store|google play|tablets?"),
        tool=_W(("Is there an official mobile app for iOS or Android to use {term}?",
                 "Can I check {term} from an official smartphone app while I am on call?"),
                "whether there is an official mobile app for {term}",
                "The official {term} app for iOS and Android shows its state and sends push notifications.")),
    Aspect("creator", "who created it and when", _words(
        r"created|creators?|invent\w*|originally|origins?|history|historical|founded|founders?|inception|"
        r"authors?|authored|(?:proposed|designed|developed|built|started) (?:at|by|in)|soundcloud|"
        r"first (?:introduced|released|added)|introduced in|since (?:version|v?\d)|(?:19|20)\d\d"),
        tool=_W(("Who originally created {term}, and in which year did its development start?",
                 "Which company first built {term}, and who were its first developers?"),
                "who created {term} or when its development started",
                "{term} was started in 2011 by two engineers at a music streaming company."),
        concept=_W(("Who first proposed {term}, and in which year?",
                    "Which person or company came up with the idea of {term}?"),
                   "who first proposed {term} or when",
                   "An engineer at a large search company first proposed {term} in 2014.")),
    Aspect("compliance", "compliance certifications", _words(
        r"certif\w*|complian\w*|soc ?2|hipaa|fedramp|iso ?27001|gdpr|pci|audit\w*|fips|accredit\w*"),
        tool=_W(("Is {term} certified for SOC 2 or HIPAA compliance?",
                 "Has {term} passed an independent audit for FedRAMP or ISO 27001?"),
                "whether {term} holds compliance certifications such as SOC 2, HIPAA, FedRAMP or ISO 27001",
                "{term} is SOC 2 Type II certified and meets the HIPAA security requirements.")),
    Aspect("telemetry", "usage statistics sent to its developers", _words(
        r"telemetry|usage (?:statistics|data|reports?|reporting)|phones? home|opt[- ]out|analytics|"
        r"anonymous(?:ly)?|tracking"),
        tool=_W(("Does {term} send anonymous usage statistics to its developers, and how do I opt out?",),
                "whether {term} sends usage statistics to its developers",
                "{term} sends anonymous usage statistics once a day; the --no-telemetry flag turns it off.")),
    Aspect("adoption", "which companies use it", _words(
        r"compan(?:y|ies)|organi[sz]ations?|adopt\w*|case stud(?:y|ies)|customers?|user base|in production|"
        r"soundcloud|cncf|enterprises?"),
        tool=_W(("Which well-known companies run {term} in production?",
                 "How many organisations use {term} today?"),
                "which companies use {term} or how many",
                "More than 5,000 organisations, including several large banks, run {term} in production.")),
    Aspect("managed_cloud", "price as a managed cloud service", _words(
        r"aws|amazon|azure|google cloud|gcp|managed (?:service|offering)s?|hosted|saas|cloud providers?|"
        r"pric\w*|costs?|per month|billing"),
        tool=_W(("What does {term} cost per month as a managed service on AWS or Google Cloud?",
                 "Which cloud providers offer {term} as a fully managed service, and at what price?"),
                "what {term} costs as a managed cloud service",
                "AWS offers {term} as a managed service for 0.90 US dollars per hour.")),
    Aspect("training", "an official course or certification exam", _words(
        r"certif\w*|exams?|training|courses?|workshops?|bootcamps?|classes|curriculum|learning paths?"),
        concept=_W(("Is there an official certification exam or paid training course that covers {term}?",
                    "Which official training course teaches {term} in depth?"),
                   "whether an official training course or certification exam covers {term}",
                   "The official certification exam has a module on {term}, worth 15% of the score.")),
    Aspect("benchmark", "benchmarks against commercial products", _words(
        r"datadog|new relic|dynatrace|splunk|benchmark\w*|faster than|slower than|"
        r"performance comparisons?|compared (?:to|with)"),
        concept=_W(("How {do} {term} compare with the equivalent feature of Datadog in published benchmarks?",
                    "{Be} {term} faster than what New Relic offers, according to published benchmarks?"),
                   "what published benchmarks say of {term} beside products such as Datadog or New Relic",
                   "A published benchmark found {term} 40% faster than the same feature of Datadog.")),
    Aspect("patents", "patents and trademarks", _words(
        r"patent\w*|trademark\w*|licen[cs]\w*|copyright\w*|intellectual property|apache"),
        concept=_W(("{Be} {term} covered by any patents?",
                    "Are there patents or trademarks that restrict how {term} may be used?"),
                   "whether any patents or trademarks cover {term}",
                   "A patent filed in 2016 covers {term}, free to use for open-source projects.")),
)  # fmt: skip


# -- refusals (``refusals``) ------------------------------------------------------------------------

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

REFUSALS = refusal_words(
    _ENGLISH,
    r"\b(?:not|no|nothing|none|cannot|unable|insufficient|silent|scope|unsure|uncertain|impossible|hard"
    r"|difficult|unclear|rather|prefer)\b|n't",
    _SUBORDINATE_EN,
    set_phrases=_NOT_CLAUSES_EN,
    # After a refusal, a guess that still supplies the asked fact ("..., but I think it is 42").
    guess=r"\b(?:but|however|though|still)\b,?\s+(?:\w+(?:'s)?\s+){0,3}?(?:i\s+(?:think|believe|guess|assume|"
    r"suspect|would\s+say)|probably|likely|presumably)\b",
)


# -- sentences and negations (``sentences``, ``negations``) ----------------------------------------

SENTENCES = SentenceWords(
    word_set(
        "e.g. i.e. eg. ie. vs. v. cf. approx. incl. esp. viz. resp. al. fig. figs. no. nos. nr. "
        "mr. mrs. ms. dr. prof. st. jr. sr. ca. inc. ltd. co. corp. dept. est. ver. sec. ref. refs. "
        "eq. ex. pp. vol. p."
    ),
    word_set("etc. min. max. e.t.c."),
)


# "unable to consider" and "unlikely to be detailed" deny as "cannot" and "not" do.
NEGATIONS = word_set("not no never none nobody nothing nowhere neither nor cannot without unable unlikely")


LANGUAGE = Language(
    code="en",
    name="English",
    aspects=ASPECTS,
    refusal_form="The documentation does not say {missing}.",
    refusals=REFUSALS,
    sentences=SENTENCES,
    negations=NEGATIONS,
    falls_back={
        "noun_articles": "none needed: English terms are the extractors' noun phrases",
        "questions": "English questions are written answer first from facts: the generator's answer patterns "
        "and templates (groundset.synthesizers.scenarios and .questions) are English's question words",
        "personas": "English personas are named with the role nouns and duties of groundset.personas.roles",
    },
)
