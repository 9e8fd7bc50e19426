"""The out-of-scope prompts: write a question the documents do not answer, and judge whether a passage
answers it after all.

Offline, a question pairs a corpus term with an ``Aspect`` users ask about and technical docs rarely
state (a licence price, a Windows installer, who created it, ...), and the reference says, in a fixed
sentence form, that the documentation does not say it (``refusal_reference``: a metric can tell a
refusal reference by its opening, ``is_refusal``). Each aspect lists the words that would show a
passage does answer it (``answered_by``), which the check looks for beside the term. Each language's
aspects are in its module of ``groundset.languages`` (``ASPECTS``; by language: ``LOCAL_ASPECTS``), written
with that language's sizes and styles (``out_of_scope.wording``).
"""

from __future__ import annotations

import random

from pydantic import BaseModel, Field

from ....core.prompts import Prompt
from ....judges.aligned import AlignedPrompt, KeyedVerdicts, Verdict, keyed, verdicts_of
from ....languages import LANGUAGES
from ....languages.aspects import Aspect
from ....personas.language import label_code
from ....text.language import detect_language
from ....text.lexical import LexicalContext, stemmed_words
from ....text.sentences import split_sentences
from ...questions.prompts import LENGTH_GUIDANCE, STYLE_GUIDANCE
from ...questions.styles import agreement, apply_style
from .wording import local_draft

# The reference of a question to decline, per language (each language's ``refusal_form``); a language
# without its own form gets the English one.
REFUSAL_FORMS = {code: lang.refusal_form for code, lang in LANGUAGES.items() if lang.refusal_form}
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


ASPECTS = LANGUAGES["en"].aspects
ASPECT_BY_KEY = {aspect.key: aspect for aspect in ASPECTS}
# The same aspects outside English, by language and key: wording, and the words that answer them there.
LOCAL_ASPECTS: dict[str, dict[str, Aspect]] = {
    code: {aspect.key: aspect for aspect in lang.aspects}
    for code, lang in LANGUAGES.items()
    if code != "en" and lang.aspects
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
        # No "... in Prometheus?": after "in which year" or "in depth" it reads as part of the question. No
        # "as the docs describe it" either: readers found it at odds with a question the docs do not answer.
        question = apply_style(core, data.style, seed=data.seed, protect=[data.term])
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
