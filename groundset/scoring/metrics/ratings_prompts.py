"""The two judges behind each rating metric, and the offline form each pair shares.

Each metric is rated 0, 1 or 2 by two prompts that ask the same question in different words (a
reviewer with a rubric, and a reader judging usefulness), so one phrasing's blind spot is not the
metric's. With no LLM both judges of a metric run the same classical computation, defined here once.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...core.prompts import Prompt
from ...core.wordllama_embeddings import WordLlamaEmbeddings
from ...text.language import detect_language
from ...text.lexical import LexicalContext, content_words, critical_terms
from ...text.plaintext import plain_text
from ...text.sentences import split_sentences
from ..offline_relevancy import subject_share, subject_stems

# Offline context relevance rates each context, then the set. A context's grounds are its WordLlama cosine
# with the question and the share of the question's content words it holds. Measured on short
# question/passage pairs: passages that answer the question reach 0.45-0.8, neighbouring topics 0.25-0.45,
# other topics < 0.15.
ON_TOPIC = 0.40  # clearly relevant: this cosine and WORD_SHARE
NEAR_TOPIC = 0.25  # partly relevant: this cosine, or WORD_SHARE alone
# Half the question's words, names counted NAME_WEIGHT times: a name is what the question is about, but
# one name among other words is not half of it, so a passage that only shares a name stays partly
# relevant ("Einstein Bros. Bagels" holds 2 of the 5 for "When was Albert Einstein born?").
WORD_SHARE = 1 / 2
NAME_WEIGHT = 2
# A set where fewer than this share of the contexts is relevant at all is mostly padding: one step down.
# Half, not all, so one unrelated passage beside one answering passage still rates 2.
RELEVANT_SET = 1 / 2
# Padding inside a passage: a sentence is about the question in proportion to its cosine up to this share
# of the best sentence's, or to the share of the question's subject it names up to SUBJECT_NAMED.
ABOUT_BEST = 0.7
SUBJECT_NAMED = 0.5


class Rating(BaseModel):
    """One judge's rating and its grounds."""

    # The reason comes first so a model states its grounds before it commits to a number.
    reason: str = Field(default="", description="one or two short sentences on why this rating")
    rating: int = Field(ge=0, le=2, description="0, 1 or 2, as the instruction defines them")


class QuestionAndContexts(BaseModel):
    question: str
    contexts: list[str] = Field(description="the retrieved passages, in rank order")


class ResponseAndContexts(BaseModel):
    response: str
    contexts: list[str] = Field(description="the retrieved passages the response was written from")


class AnswerAndReference(BaseModel):
    question: str = Field(default="", description="the question both answers reply to")
    response: str = Field(description="the answer to rate")
    reference: str = Field(description="the correct answer")


def claims(text: str) -> list[str]:
    """The sentences of a text that say something (at least one content word)."""
    return [s for s in split_sentences(plain_text(text)) if content_words(s)] if text.strip() else []


def supported_share(said: list[str], source: str) -> float:
    """Share of ``said`` that the lexical judge finds in ``source`` (0.0 when nothing is said)."""
    if not said:
        return 0.0
    context = LexicalContext(source)
    return sum(context.judge(s).supported for s in said) / len(said)


def relevance_offline(data: QuestionAndContexts) -> Rating:
    """Shared by both relevance judges: the best context's level (see ON_TOPIC), one step lower when
    unrelated contexts are most of the set, since padding dilutes what the reader has to go through."""
    contexts = [plain_text(c) for c in data.contexts]
    vectors = WordLlamaEmbeddings().embed_matrix([data.question, *contexts])
    cosines = [float(c) for c in vectors[1:] @ vectors[0]]
    shares = _word_shares(data.question, contexts)
    levels = [_context_level(cosine, share) for cosine, share in zip(cosines, shares, strict=True)]
    best = max(range(len(levels)), key=lambda i: (levels[i], cosines[i]), default=None)
    if best is None:
        return Rating(rating=0, reason="no contexts")
    relevant = sum(level > 0 for level in levels)
    padded = 0 < relevant < RELEVANT_SET * len(levels)  # with none relevant there is no step left to lose
    rating = levels[best] - 1 if padded else levels[best]
    return Rating(
        rating=rating,
        reason=(
            f"best context: cosine {cosines[best]:.2f}, {shares[best]:.0%} of the question's words; "
            f"{relevant} of {len(levels)} contexts relevant" + (" (mostly padding)" if padded else "")
        ),
    )


def sentence_focus(question: str, contexts: list[str]) -> tuple[float, int]:
    """How much of the contexts' text is about the question: the mean over their sentences of how
    about it each is (relative cosine, or the question's subject named; see ABOUT_BEST), and the number
    of sentences. A rating says whether the answer is there; this says how much else is around it."""
    sentences = [s for c in contexts for s in split_sentences(plain_text(c))]
    if not sentences:
        return 0.0, 0
    lang = detect_language(question)
    vectors = WordLlamaEmbeddings().embed_matrix([question, *sentences])
    cosines = vectors[1:] @ vectors[0]
    best = max(float(cosines.max()), 1e-9)
    subject = subject_stems(question, lang)
    about = [
        max(
            min(1.0, float(cosine) / (ABOUT_BEST * best)),
            min(1.0, subject_share(s, subject, lang) / SUBJECT_NAMED),
        )
        for s, cosine in zip(sentences, cosines, strict=True)
    ]
    return sum(max(0.0, a) for a in about) / len(about), len(sentences)


def _context_level(cosine: float, share: float) -> int:
    """2 clearly relevant, 1 partly (near the topic, or holding half the question's words), 0 unrelated."""
    if cosine >= ON_TOPIC and share >= WORD_SHARE:
        return 2
    return 1 if cosine >= NEAR_TOPIC or share >= WORD_SHARE else 0


def _word_shares(question: str, contexts: list[str]) -> list[float]:
    """Per context, the weighted share of the question's content words it holds. Names, numbers and code
    terms weigh NAME_WEIGHT and must occur as written (another name is another subject); other words
    match by stem ("keep"/"keeps"). 1.0 for a question without content words: it has nothing to miss."""
    lang = detect_language(question)
    names = critical_terms(question, lang)
    others = [w for w in dict.fromkeys(content_words(question, lang)) if w not in names]
    total = NAME_WEIGHT * len(names) + len(others)
    if not total:
        return [1.0] * len(contexts)
    shares = []
    for text in contexts:
        context = LexicalContext(text, lang)
        found = NAME_WEIGHT * len(names & context.terms) + sum(context.overlap(w) == 1.0 for w in others)
        shares.append(found / total)
    return shares


def groundedness_offline(data: ResponseAndContexts) -> Rating:
    """Shared by both groundedness judges: 2 if every sentence is supported, 1 if at least half, else 0."""
    said = claims(data.response)
    if not said:
        return Rating(rating=2, reason="no sentence states anything the contexts could fail to support")
    share = supported_share(said, "\n\n".join(data.contexts))
    rating = 2 if share == 1.0 else 1 if share >= 0.5 else 0
    return Rating(rating=rating, reason=f"{share:.0%} of the response's sentences found in the contexts")


def accuracy_offline(data: AnswerAndReference) -> Rating:
    """Shared by both accuracy judges: 2 if each side supports all of the other, 0 if neither any of it."""
    right = supported_share(claims(data.response), data.reference)
    covered = supported_share(claims(data.reference), data.response)
    rating = 2 if right == covered == 1.0 else 0 if right == covered == 0.0 else 1
    return Rating(
        rating=rating,
        reason=f"{right:.0%} of the response found in the reference, {covered:.0%} of the reference covered",
    )


class _RelevanceJudge(Prompt[QuestionAndContexts, Rating]):
    def offline(self, data: QuestionAndContexts) -> Rating:
        return relevance_offline(data)


class _GroundednessJudge(Prompt[ResponseAndContexts, Rating]):
    def offline(self, data: ResponseAndContexts) -> Rating:
        return groundedness_offline(data)


class _AccuracyJudge(Prompt[AnswerAndReference, Rating]):
    def offline(self, data: AnswerAndReference) -> Rating:
        return accuracy_offline(data)


class RelevanceReviewer(_RelevanceJudge):
    name = "scoring.context_relevance.reviewer"
    instruction = (
        "You audit a search system. Read the question, then read the retrieved passages as one body of "
        "material, and grade how well that material serves the question. Marking scheme: 2 = the "
        "passages hold what is needed to answer the question in full; 1 = they are on the question's "
        "subject or answer part of it, but something asked for is absent; 0 = they concern something "
        "else, or say nothing the question asks about. Grade only what the passages state, never what "
        "you know yourself. Write the reason first, then the rating."
    )
    examples = [
        (
            QuestionAndContexts(
                question="At what time does the nightly backup start?",
                contexts=[
                    "The nightly backup job starts at 02:00 server time.",
                    "Restores are requested through the service desk.",
                ],
            ),
            Rating(reason="The first passage gives the start time; nothing asked is missing.", rating=2),
        )
    ]


class RelevanceReader(_RelevanceJudge):
    name = "scoring.context_relevance.reader"
    instruction = (
        "Picture yourself as the person who typed this question and got these passages back to read. "
        "Would reading them help you? Choose 0 if they would not help at all, because they are about "
        "another topic or never touch what you asked; 1 if they help somewhat: the right topic, but part "
        "of what you wanted is not there; 2 if they cover everything you asked about. Forget what you "
        "already know about the topic and judge the passages alone. Say briefly what decided it."
    )
    examples = [
        (
            QuestionAndContexts(
                question="Where are backup copies stored, and for how long?",
                contexts=["Backup copies are written to the archive bucket in the second region."],
            ),
            Rating(reason="I learn where copies go, but not how long they are kept.", rating=1),
        )
    ]


class GroundednessReviewer(_GroundednessJudge):
    name = "scoring.response_groundedness.reviewer"
    instruction = (
        "You are a fact-checker. Take each claim the response makes and look for it in the passages. "
        "Grade: 2 = every claim is stated in the passages or follows directly from them; 1 = some claims "
        "are backed by the passages and others are not; 0 = no claim is backed, or the passages "
        "contradict the response. Wording may differ; facts, numbers and names must match. Do not use "
        "outside knowledge: a claim that is true but absent from the passages is not backed."
    )
    examples = [
        (
            ResponseAndContexts(
                response="A failed backup is retried twice. Failures are reported by SMS.",
                contexts=["If a backup fails, the job retries it two more times before giving up."],
            ),
            Rating(reason="The two retries are in the passage; SMS reporting is not mentioned.", rating=1),
        )
    ]


class GroundednessReader(_GroundednessJudge):
    name = "scoring.response_groundedness.reader"
    instruction = (
        "Someone has only these passages and the response that was written from them. Could they "
        "confirm what the response says by reading the passages, and nothing else? Answer 0 if they "
        "could confirm none of it, or the passages say the opposite; 1 if they could confirm part of it "
        "only; 2 if they could confirm all of it. Whatever the passages leave out counts as unconfirmed, "
        "even when it happens to be true. Explain the rating in a sentence or two."
    )
    examples = [
        (
            ResponseAndContexts(
                response="Backups are encrypted before they leave the server.",
                contexts=["Every backup archive is encrypted on the host, then uploaded."],
            ),
            Rating(reason="The passage says archives are encrypted on the host before upload.", rating=2),
        )
    ]


class AccuracyReviewer(_AccuracyJudge):
    name = "scoring.answer_accuracy.reviewer"
    instruction = (
        "Mark the response against the reference answer to the question, as an examiner with a marking "
        "scheme. The reference is correct by definition. 2 = the response gives the reference's answer: "
        "its key facts are all there and nothing contradicts it; 1 = part of it is right, but something "
        "that matters is missing or changed; 0 = it is wrong, contradicts the reference, or does not "
        "answer the question. Extra detail that does not conflict with the reference costs nothing."
    )
    examples = [
        (
            AnswerAndReference(
                question="When does the nightly backup run, and how long are copies kept?",
                response="It runs at 2 a.m.",
                reference="The backup runs at 02:00 and copies are kept for 30 days.",
            ),
            Rating(reason="The start time matches; the 30-day retention is missing.", rating=1),
        )
    ]


class AccuracyReader(_AccuracyJudge):
    name = "scoring.answer_accuracy.reader"
    instruction = (
        "A person asked the question and already knows the right answer, given as the reference. They "
        "read the response. Would they accept it as answering their question? 2 if it tells them what "
        "the reference tells them, in whatever words; 1 if it is half right, incomplete, or vague on the "
        "point that matters; 0 if it would mislead them or misses the point. Take the reference as the "
        "truth and judge this question only; say in a short sentence why."
    )
    examples = [
        (
            AnswerAndReference(
                question="How many times is a failed backup retried?",
                response="It is retried five times.",
                reference="A failed backup is retried twice.",
            ),
            Rating(reason="The response says five retries; the reference says two.", rating=0),
        )
    ]
