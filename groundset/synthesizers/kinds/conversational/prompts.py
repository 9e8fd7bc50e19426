"""The conversation prompt: 2 to 4 user turns about one subject, each later turn leaning on the earlier
ones ("What is a gauge?" -> "And what must it start at?"), with each turn's reference; and its offline form.

Offline, the first turn is the single-hop question of its fact (``answer_first``); every later turn is
the fact's question with the subject as a pronoun (``questions.templates.follow_up``) behind an opener
of a follow-up ("And ...", "OK, and ..."), or a question of its own for a default or a consequence
("What about its default?", "What happens if it ..."). References are the facts' sentences. Without
facts the first turn is the term's question (``QueryPrompt``); in English (a model's scenario asked
offline) later turns ask what else the documents say about it; in Chinese, Japanese, German, French and
Spanish each later turn asks, by its case and with the language's back-reference ("它的默认值是多少？",
"Und welcher Standardwert gilt dafür?", "¿Y …?"), for the sentences about the term no earlier turn used
(``term_based``).
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from ....core.prompts import Prompt
from ....languages import WORDINGS, QuestionWording
from ....languages.words import word_set
from ....personas.language import label_code
from ...questions.answer_first import fact_question
from ...questions.local import evidence_case, local_style
from ...questions.offline import answer_sentences, term_pattern
from ...questions.prompts import STYLE_GUIDANCE, QueryInput, QueryPrompt
from ...questions.styles import apply_style
from ...questions.templates import follow_up
from ...scenarios.answer_patterns import split_article
from ...scenarios.facts import Fact
from ..term_based import follow_up_question, local_wording, mid_sentence, turn_evidence

__all__ = [
    "ConversationDraft",
    "ConversationInput",
    "ConversationPrompt",
    "DraftTurn",
    "TurnInput",
    "cause_follow_up",
    "follow_up_core",
    "refers_back",
]

_OPENERS = ("And {q}?", "OK, and {q}?", "{Q}?", "Thanks. And {q}?", "Got it. {Q}?", "One more thing: {q}?")
_DEFAULT_FORMS = ("What about {poss} default?", "And if I leave {obj} alone, what is the default?")
_SINGULAR_VERBS = word_set("is was has does")
_PLURAL_VERBS = word_set("are were have do")
_MODALS = word_set("can cannot could must should will would may might")
_PRONOUNS = {False: ("it", "its", "it"), True: ("they", "their", "them")}
# Later turns without a fact in English: what else the documents say about the subject (the other
# languages ask by the case of their evidence: ``QuestionWording.follow_ups``).
_MORE = ("And what else should I know about it?", "What else does the documentation say about it?")
# A later turn leans on an earlier one with a pronoun or a demonstrative, or opens as a follow-up does:
# English here, the other languages' words in their ``QuestionWording`` (``back_words``, ``back_marks``,
# ``openers``).
_BACK_WORDS = word_set("it its it's they them their theirs this that these those former latter same one ones")
_BACK_WORDS |= {word for words in WORDINGS.values() for word in words.back_words}
_BACK_CJK = tuple(dict.fromkeys(mark for words in WORDINGS.values() for mark in words.back_marks))
_SPACED_OPENERS = ["and", "what about", "how about", "same for"]
_SPACED_OPENERS += [o for words in WORDINGS.values() if words.spaced for o in words.openers]
_UNSPACED_OPENERS = [o for words in WORDINGS.values() if not words.spaced for o in words.openers]
_FOLLOW_OPENERS = re.compile(
    rf"^\W*(?:(?:{'|'.join(_SPACED_OPENERS)})\b|{'|'.join(_UNSPACED_OPENERS)})", re.IGNORECASE
)
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")


class TurnInput(BaseModel):
    context: str
    label: str = Field(default="", description="the section title of the context")
    fact: Fact | None = Field(default=None, description="the statement this turn's question must ask about")


class ConversationInput(BaseModel):
    task: str = Field(description="the style of the user's turns")
    persona: str = Field(description="who is asking")
    subject: str = Field(description="what the conversation is about: named in turn 1 only")
    turns: list[TurnInput] = Field(description="one per user turn, in order: its context and fact")
    style: str
    length: str = Field(description="the length of the first question")
    seed: int = 0
    scope: str = Field(default="", description="what the documentation is about")
    language: str = Field(default="en (English)", description="the language to write in")


class DraftTurn(BaseModel):
    question: str = Field(description="what the user asks in this turn")
    reference: str = Field(description="the answer, using only facts stated in this turn's context")


class ConversationDraft(BaseModel):
    """The turns keyed "1", "2", ...; the model for a call requires exactly the input's keys."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    def turns(self) -> list[DraftTurn]:
        return [getattr(self, name) for name in type(self).model_fields]


@lru_cache(maxsize=8)
def keyed_turns(count: int) -> type[ConversationDraft]:
    """The output model of a ``count``-turn conversation: keys "1" to "count", each a ``DraftTurn``."""
    fields: dict[str, Any] = {f"turn_{i}": (DraftTurn, Field(alias=str(i))) for i in range(1, count + 1)}
    return create_model(f"Conversation{count}", __base__=ConversationDraft, **fields)


class ConversationPrompt(Prompt[ConversationInput, ConversationDraft]):
    name = "synth.conversational"
    instruction = (
        "You write a short conversation that a user has with an assistant over technical documentation, "
        "to test whether the assistant follows the thread. Write one user question per given turn, in "
        "order, as the persona would ask, and for each the reference answer the assistant should give. "
        "Turn k is answered by context k alone: when it has a fact, ask the question that fact answers "
        "and base the reference on it; write every reference in 1 to 3 sentences with only what its context "
        "states. Turn 1 names the subject. Every later turn leans on the earlier ones: it refers to the "
        "subject with a pronoun or a short back-reference ('it', 'its default', 'that setting', 'and for "
        "the second one?'), never by its name, so the last question cannot be understood without the "
        "earlier ones. No question may give its answer away. Follow the style for every question and the "
        "length for the first. Answer with one object whose keys are the turn numbers ('1', '2', ...), each "
        "holding that turn's question and reference. Write them in the language given as `language`, "
        "whatever the language of these instructions and of the example; keep names, code and quoted "
        "terms as the contexts write them."
    )
    examples = [
        (
            ConversationInput(
                task=STYLE_GUIDANCE["perfect_grammar"],
                persona="Platform engineer: runs the monitoring stack for several teams.",
                subject="retention period",
                turns=[
                    TurnInput(context="The retention period says how long blocks are kept on disk."),
                    TurnInput(
                        context="The retention period is 15 days unless --storage.tsdb.retention.time is set."
                    ),
                ],
                style="perfect_grammar",
                length="short",
            ),
            keyed_turns(2).model_validate(
                {
                    "1": {
                        "question": "What does the retention period control?",
                        "reference": "The retention period is how long blocks are kept on disk.",
                    },
                    "2": {
                        "question": "And how long is it if I don't set anything?",
                        "reference": "It is 15 days unless --storage.tsdb.retention.time is set.",
                    },
                }
            ),
        )
    ]

    def output_model_for(self, data: ConversationInput) -> type[BaseModel]:
        return keyed_turns(len(data.turns))

    def validate(self, data: ConversationInput, output: ConversationDraft) -> str | None:
        blank = [
            str(i)
            for i, t in enumerate(output.turns(), 1)
            if not (t.question.strip() and t.reference.strip())
        ]
        return (
            f"turn(s) {', '.join(blank)} have an empty question or reference; write both" if blank else None
        )

    def offline(self, data: ConversationInput) -> ConversationDraft:
        facts = [turn.fact for turn in data.turns]
        if all(facts) and label_code(data.language) == "en":
            drafts = _fact_turns(data, [f for f in facts if f is not None])
        else:
            drafts = _term_turns(data)
        return keyed_turns(len(drafts)).model_validate({str(i): d for i, d in enumerate(drafts, 1)})


def _fact_turns(data: ConversationInput, facts: list[Fact]) -> list[dict[str, str]]:
    first = facts[0]
    rng = random.Random(f"conversation|{data.seed}|{first.reference}")
    turns = [
        {
            "question": fact_question(
                "single_hop_specific", [first], style=data.style,
                length=data.length, seed=data.seed, scope=data.scope,
            ),
            "reference": first.reference,
        }
    ]  # fmt: skip
    for fact in facts[1:]:
        core = follow_up_core(fact, first.plural, data.subject, rng)
        turns.append({"question": _styled(core, data.style, data.seed), "reference": fact.reference})
    return turns


def follow_up_core(fact: Fact, plural: bool, subject: str, rng: random.Random) -> str:
    """A later turn asking ``fact`` with the subject as a pronoun ("OK, and what must it start at?")."""
    p, poss, obj = _PRONOUNS[plural]
    if fact.pattern == "cause":
        asked = cause_follow_up(fact, subject)
        return rng.choice(("And {q}?", "{Q}?", "OK, and {q}?")).format(
            q=asked, Q=asked[:1].upper() + asked[1:]
        )
    if fact.pattern == "default" and rng.random() < 0.5:
        return rng.choice(_DEFAULT_FORMS).format(poss=poss, obj=obj)
    asked = follow_up(fact, plural)
    return rng.choice(_OPENERS).format(q=asked, Q=asked[:1].upper() + asked[1:])


def cause_follow_up(fact: Fact, subject: str) -> str:
    """ "what happens if it includes NaN measurements" for a consequence whose condition opens with the
    subject and its verb ("a Histogram includes NaN measurements"); "" otherwise ("a gauge histogram is
    ..." is not about "gauge")."""
    cond, form = fact.slots.get("cond", ""), fact.slots.get("form", "")
    pattern = term_pattern(subject)
    if form == "why" or not cond or pattern is None:
        return ""
    rest = split_article(cond)[1]
    found = pattern.match(rest)
    after = rest[found.end() :].split() if found else []
    if not after or not after[0].isalpha():
        return ""
    verb = after[0].lower()
    if verb in _SINGULAR_VERBS or (
        verb.endswith("s") and not verb.endswith("ss") and verb not in _PLURAL_VERBS
    ):
        pronoun = "it"
    elif verb in _PLURAL_VERBS or verb in _MODALS:
        pronoun = "they" if verb in _PLURAL_VERBS or fact.plural else "it"
    else:
        return ""  # "gauge histogram is": the subject is a longer noun phrase
    if len(after) > 1 and after[1].lower() in _SINGULAR_VERBS | _PLURAL_VERBS and verb not in _MODALS:
        return ""  # "gauge histograms are": "histograms" was a noun
    conj = fact.slots.get("conj", "if")
    leads = {
        "advice": "what should you do",
        "can": f"what can you {fact.slots.get('verb', 'do')}",
        "rule": "what should happen",
    }
    lead = f"{leads.get(form, 'what happens')} {conj}"
    return f"{lead} {pronoun} {' '.join(after)}"


def _styled(question: str, style: str, seed: int) -> str:
    """A later turn in the user's style; a search-engine user types a terse follow-up, not keywords (the
    keywords would lose the pronoun). A style that loses the back-reference is not applied."""
    if style == "web_search":
        lower = question[:1].lower() if question[1:2].islower() else question[:1]
        return lower + question[1:].rstrip("?")
    if style == "perfect_grammar":
        return question
    styled = apply_style(question, style, seed=seed)
    return styled if refers_back(styled) else question


def _term_turns(data: ConversationInput) -> list[dict[str, str]]:
    """Without facts: the term's question first, then what else each later context says about it."""
    code = label_code(data.language)
    first = data.turns[0]
    query = QueryInput(
        kind="single_hop_specific", task="", persona=data.persona, terms=[data.subject],
        contexts=[first.context], labels=[first.label], style=data.style, length=data.length,
        seed=data.seed, scope=data.scope, language=data.language,
    )  # fmt: skip
    opening = QueryPrompt().offline(query)
    turns = [{"question": opening.question, "reference": opening.reference}]
    words = local_wording(code)
    if words is not None:
        return turns + _local_turns(data, words)
    used = set(opening.reference.split("\n"))
    for i, turn in enumerate(data.turns[1:]):
        found = answer_sentences(data.subject, turn.context, max_sentences=4, prose_only=code != "en")
        fresh = [s for s in found if s not in used][:2] or found[:1]
        used.update(fresh)
        turns.append({"question": _MORE[(data.seed + i) % len(_MORE)], "reference": "\n".join(fresh)})
    return turns


def _local_turns(data: ConversationInput, words: QuestionWording) -> list[dict[str, str]]:
    """The later turns in a language without facts: each asks, without naming the subject, what the
    sentences about it that no earlier turn used say ("它的默认值是多少？" for a default), never the
    opening's question again; the reference is those sentences (a turn's fact when none is left)."""
    groups = turn_evidence(data.subject, [turn.context for turn in data.turns])
    rng = random.Random(f"conversation|{words.code}|{data.seed}|{data.subject}")
    opening = evidence_case(words, data.subject, groups[0]) if groups[0] else ""
    asked: list[str] = []
    turns = []
    for turn, group in zip(data.turns[1:], groups[1:], strict=True):
        evidence = group or ([turn.fact.reference] if turn.fact else [])
        evidence = evidence or answer_sentences(data.subject, turn.context, prose_only=True)[:1]
        question = follow_up_question(words, data.subject, evidence, rng, asked=asked, avoid=opening)
        asked.append(question)
        styled = _local_styled(words, question, data.style, data.seed)
        turns.append({"question": styled, "reference": "\n".join(evidence)})
    return turns


def _local_styled(words: QuestionWording, question: str, style: str, seed: int) -> str:
    """A later turn in the user's style by the language's rules; a search-engine user types it without its
    question mark. A style that loses the back-reference is not applied."""
    if style == "web_search":
        return mid_sentence(words, words.body(question).lstrip("¿"))
    if style == "perfect_grammar":
        return question
    styled = local_style(words, question, style, seed=seed)
    return styled if refers_back(styled) else question


def refers_back(question: str) -> bool:
    """Whether ``question`` leans on what came before: a pronoun or demonstrative ("its default", "das",
    "它"), or the opening of a follow-up ("And ...?", "What about ...?")."""
    if _FOLLOW_OPENERS.search(question) or any(mark in question for mark in _BACK_CJK):
        return True
    return any(word.casefold() in _BACK_WORDS for word in _WORD.findall(question))
