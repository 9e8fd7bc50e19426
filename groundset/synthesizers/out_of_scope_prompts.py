"""The out-of-scope prompts: write a question the documents do not answer, and judge whether a passage
answers it after all.

Offline, a question pairs a corpus term with an ``Aspect`` users ask about and technical docs rarely
state (a licence price, a Windows installer, who created it, ...), and the reference says, in a fixed
sentence form, that the documentation does not say it (``refusal_reference``: a metric can tell a
refusal reference by its opening, ``is_refusal``). Each aspect lists the words that would show a
passage does answer it (``answered_by``), which the check looks for beside the term. The English
templates are here; German, French, Spanish, Chinese and Japanese ones in ``out_of_scope_languages`` and
its siblings (``LOCAL_ASPECTS``), written with that language's sizes and styles.
"""

from __future__ import annotations

import random
import re

from pydantic import BaseModel, Field

from ..core.prompts import Prompt
from ..judges.aligned import AlignedPrompt, KeyedVerdicts, Verdict, keyed, verdicts_of
from ..personas.language import label_code
from ..text.language import detect_language
from ..text.lexical import LexicalContext, stemmed_words
from ..text.sentences import split_sentences
from .out_of_scope_cjk import CHINESE, JAPANESE
from .out_of_scope_languages import GERMAN, Aspect, Wording, local_draft
from .out_of_scope_romance import FRENCH, SPANISH
from .prompts import LENGTH_GUIDANCE, STYLE_GUIDANCE
from .styles import agreement, apply_style, size_question

# The reference of a question to decline, per language: "{missing}" is what the question asked for.
# A language without its own form gets the English one.
REFUSAL_FORMS = {
    "en": "The documentation does not say {missing}.",
    "de": "Die Dokumentation sagt nicht, {missing}.",
    "fr": "La documentation ne précise pas {missing}.",
    "es": "La documentación no indica {missing}.",
    "it": "La documentazione non dice {missing}.",
    "pt": "A documentação não diz {missing}.",
    "nl": "De documentatie zegt niet {missing}.",
    "ru": "В документации не сказано, {missing}.",
    "zh": "文档没有说明{missing}。",
    "ja": "ドキュメントには{missing}についての記載がありません。",
    "ko": "문서에는 {missing}에 대한 내용이 없습니다.",
}
# A passage that holds this share of the (stemmed) content words of a question's last sentence, when it has
# at least ``PLAUSIBLE_WORDS`` of them, plausibly answers it.
PLAUSIBLE_SUPPORT = 0.8
PLAUSIBLE_WORDS = 2


def refusal_form(language: str) -> str:
    return REFUSAL_FORMS.get(language, REFUSAL_FORMS["en"])


def refusal_reference(missing: str, language: str) -> str:
    """The fixed refusal sentence naming what was asked ("The documentation does not say how ...")."""
    clause = " ".join(missing.split()).strip().rstrip(".。!?！？")
    return refusal_form(language).format(missing=clause)


def is_refusal(reference: str) -> bool:
    """Whether ``reference`` is a refusal sentence: one of the forms, naming what was asked (what a metric
    reads to expect a refusal)."""
    text = reference.strip()
    for form in REFUSAL_FORMS.values():
        opening, _, ending = form.partition("{missing}")
        if text.startswith(opening) and len(text) > len(opening) + len(ending) + 1:
            return True
    return False


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE)


_W = Wording
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
ASPECT_BY_KEY = {aspect.key: aspect for aspect in ASPECTS}
# The same aspects outside English, by language and key: wording, and the words that answer them there.
LOCAL_ASPECTS: dict[str, dict[str, Aspect]] = {
    code: {aspect.key: aspect for aspect in table}
    for code, table in (("de", GERMAN), ("fr", FRENCH), ("es", SPANISH), ("zh", CHINESE), ("ja", JAPANESE))
}


def aspect_in(code: str, key: str) -> Aspect | None:
    """The aspect ``key`` as language ``code`` words it; None for a language without offline templates."""
    return ASPECT_BY_KEY.get(key) if code == "en" else LOCAL_ASPECTS.get(code, {}).get(key)


def has_templates(code: str) -> bool:
    return code == "en" or code in LOCAL_ASPECTS


def fill(template: str, term: str, *, sentence: bool = True) -> str:
    """``template`` with the term and the verb forms that agree with it. A sentence starts with a capital,
    unless it starts with a name that has its own ("cAdvisor")."""
    plural = term.islower() and agreement(term)["be"] == "are"  # names read as singular
    be, do = ("are", "do") if plural else ("is", "does")
    a_term = agreement(term)["a_term"]
    text = template.format(term=term, a_term=a_term, be=be, Be=be.title(), do=do, Do=do.title())
    if sentence and text[:1].islower() and not (text.startswith(term) and not term.islower()):
        text = text[0].upper() + text[1:]
    return text


class OutOfScopeInput(BaseModel):
    task: str = Field(description="the style and length the question must have")
    persona: str = Field(description="who is asking")
    term: str = Field(description="what the question is about: a term of the contexts")
    idea: str = Field(default="", description="a kind of question documentation rarely answers")
    contexts: list[str] = Field(description="passages of the documentation on the same topic")
    scope: str = Field(default="", description="what the documentation is about")
    language: str = Field(default="en (English)", description="the language to write in")
    refusal_form: str = Field(description="the reference sentence; {missing} is replaced by `missing`")
    aspect: str = Field(default="", description="offline: the key of the aspect to ask about")
    tool: bool = Field(default=False, description="offline: the term names a piece of software")
    style: str = "perfect_grammar"
    length: str = "medium"
    seed: int = 0


class OutOfScopeDraft(BaseModel):
    question: str
    missing: str = Field(description="what the question asks for, as a clause completing `refusal_form`")
    candidate_answer: str = Field(description="a plausible answer an assistant might invent")


def task_text(style: str, length: str) -> str:
    return f"{STYLE_GUIDANCE[style]} {LENGTH_GUIDANCE[length]}"


class OutOfScopePrompt(Prompt[OutOfScopeInput, OutOfScopeDraft]):
    name = "synth.out_of_scope"
    instruction = (
        "You write test questions for a retrieval-augmented assistant over technical documentation: this "
        "time, questions it must decline because the documentation does not answer them. Write one "
        "realistic question that the persona, a user of this documentation, might ask about the same "
        "product and topic as the contexts, naming the term, but whose answer is neither in the contexts "
        "nor likely anywhere else in documentation of this kind: prices and licences, vendor support, "
        "release dates, platforms and apps it never mentions, who made it and when, certifications, who "
        "uses it. `idea` suggests one such kind of question; follow it when it fits the term, else pick "
        "a better one. Never ask what the contexts answer, even in part, nor a setting, default, "
        "behaviour or procedure that such documentation would normally describe. Follow the task for "
        "style and length. Then give `missing`, what the question asks for, worded as the clause that "
        "replaces {missing} in `refusal_form` (that sentence becomes the reference answer), and "
        "`candidate_answer`, a plausible but invented answer an assistant might give. Write all three in "
        "the language given as `language`, whatever the language of these instructions and of the "
        "example; keep names as the contexts write them."
    )
    examples = [
        (
            OutOfScopeInput(
                task=task_text("perfect_grammar", "medium"),
                persona="Platform engineer: runs the alerting stack for several teams.",
                term="Alertmanager",
                idea="price of a commercial licence",
                contexts=[
                    "The Alertmanager groups alerts of a similar nature into a single notification, and "
                    "silences mute alerts for a given time."
                ],
                scope="Prometheus",
                refusal_form=REFUSAL_FORMS["en"],
            ),
            OutOfScopeDraft(
                question="How much would a commercial licence for Alertmanager cost for a team of fifty?",
                missing="how much a commercial licence for Alertmanager costs",
                candidate_answer="A commercial licence costs 20 US dollars per user and month.",
            ),
        )
    ]

    def offline(self, data: OutOfScopeInput) -> OutOfScopeDraft:
        """The aspect's templates in the language asked for (English or ``LOCAL_ASPECTS``), sized and
        styled as asked."""
        code = label_code(data.language)
        aspect = aspect_in(code, data.aspect)
        wording = aspect.wording(data.tool) if aspect else None
        if wording is None:
            raise ValueError(f"no offline out-of-scope wording for {data.language!r} and {data.aspect!r}")
        if code != "en":
            question, missing, candidate = local_draft(
                code, wording, data.term, persona=data.persona, style=data.style, length=data.length,
                seed=data.seed,
            )  # fmt: skip
            return OutOfScopeDraft(question=question, missing=missing, candidate_answer=candidate)
        rng = random.Random(f"out_of_scope|{data.seed}|{data.term}|{data.aspect}")
        core = fill(rng.choice(wording.questions), data.term)
        # No "... in Prometheus?": after "in which year" or "in depth" it reads as part of the question.
        question = size_question(core, data.length, persona=data.persona, seed=data.seed)
        question = apply_style(question, data.style, seed=data.seed, protect=[data.term])
        return OutOfScopeDraft(
            question=question,
            missing=fill(wording.missing, data.term, sentence=False),
            candidate_answer=fill(wording.candidate, data.term),
        )


def core_question(question: str) -> str:
    """The question's last sentence: a long question opens with the asker's situation, then asks."""
    sentences = split_sentences(question)
    return sentences[-1] if sentences else question


class PassagesToCheck(BaseModel):
    question: str
    candidate_answer: str = Field(default="", description="an answer an assistant might give")
    passages: dict[str, str] = Field(description="the passages to judge, by key")


class PassageCheckPrompt(AlignedPrompt[PassagesToCheck]):
    name = "verdict.out_of_scope"
    instruction = (
        "A test question was written so that the documentation does NOT answer it. You check that "
        "promise against the passages most likely to answer it. For each passage, by its key, the "
        "verdict is true when the passage answers the question, in full or in part (it gives the value, "
        "fact, reason or steps asked for, or says plainly that the thing asked about does not exist or "
        "is not possible), or when it states the candidate answer. It is false when the passage only "
        "shares the topic or words of the question without giving what it asks for. Answer with one "
        "JSON object holding one entry per passage key, each with the verdict and a short reason."
    )
    examples = [
        (
            PassagesToCheck(
                question="Which port does the Pushgateway listen on by default?",
                candidate_answer="It listens on port 9091.",
                passages={
                    "1": "The Pushgateway takes metrics pushed by batch jobs and exposes them to scrapes.",
                    "2": "Start the Pushgateway; unless told otherwise it listens on port 9091.",
                },
            ),
            keyed(("1", "2")).model_validate(
                {
                    "1": Verdict(verdict=False, reason="It says what the Pushgateway does, not its port."),
                    "2": Verdict(verdict=True, reason="It gives the default port, 9091."),
                }
            ),
        )
    ]

    def keys(self, data: PassagesToCheck) -> tuple[str, ...]:
        return tuple(data.passages)

    def batch(self, data: PassagesToCheck, keys: tuple[str, ...]) -> PassagesToCheck:
        return data.model_copy(update={"passages": {k: data.passages[k] for k in keys}})

    def offline(self, data: PassagesToCheck) -> KeyedVerdicts:
        """A passage answers when it holds nearly all the question's content words, or states the
        candidate answer (the offline support judge)."""
        core = core_question(data.question)
        asked = set(stemmed_words(core, detect_language(core)))
        verdicts = {}
        for key, passage in data.passages.items():
            held = asked & set(stemmed_words(passage, detect_language(passage)))
            share = len(held) / len(asked) if len(asked) >= PLAUSIBLE_WORDS else 0.0
            stated = (
                bool(data.candidate_answer.strip())
                and LexicalContext(passage).judge(data.candidate_answer).supported
            )
            reason = f"It holds {share:.0%} of the question's words."
            reason = "It states the candidate answer." if stated else reason
            verdicts[key] = Verdict(verdict=share >= PLAUSIBLE_SUPPORT or stated, reason=reason)
        return verdicts_of(self.keys(data), verdicts)
