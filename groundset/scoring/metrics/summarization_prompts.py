"""The summary score's three steps: the source's keyphrases, yes-questions on them, answers from the summary.

With an LLM the questions are closed questions the source answers "yes"; the summary then answers
them item by item (keyed verdicts, so a judge cannot skip or miscount one). Offline the keyphrases
are the source's TF-IDF phrases (``text.phrases``), each question asks whether the summary mentions
one, and the answer is lexical: at least half the phrase's content words (by stem) occur in the
summary. That measures keyphrase coverage, not question answering, and the metric says so.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from ...core.prompts import Prompt
from ...judges.aligned import AlignedPrompt, KeyedVerdicts, Verdict, keyed, verdicts_of
from ...text.language import detect_language
from ...text.lexical import content_words, stemmed_words
from ...text.phrases import PhraseModel
from ...text.sentences import split_sentences
from ...text.stems import stem

# Offline: this many of the source's most distinctive phrases are asked about.
OFFLINE_KEYPHRASES = 10
# Offline, a phrase is mentioned when the summary holds at least this share of its content words (by stem):
# "the council" mentions the "city council", but a summary naming only "plan" does not mention "cycling plan
# approval" (1 of 3).
MENTION_SHARE = 1 / 2
# The offline question; its answer reads the phrase back out of it, so the two must stay in step.
MENTION = 'Does the summary mention "{phrase}"?'
_MENTIONED = re.compile(r'Does the summary mention "(?P<phrase>.+)"\?', re.DOTALL)


class SourceText(BaseModel):
    text: str = Field(description="the text that was summarised")


class Keyphrases(BaseModel):
    keyphrases: list[str] = Field(description="the key entities, facts, events and terms of the text")


class SourceAndKeyphrases(BaseModel):
    text: str = Field(description="the text that was summarised")
    keyphrases: list[str]


class Questions(BaseModel):
    questions: list[str] = Field(description="closed questions the text answers with yes")


class SummaryAndQuestions(BaseModel):
    summary: str
    questions: dict[str, str] = Field(description="the questions to answer from the summary, by key")


class KeyphrasesPrompt(Prompt[SourceText, Keyphrases]):
    name = "scoring.summary_score.keyphrases"
    instruction = (
        "A reader will judge a summary of this text by whether it keeps what matters. List what "
        "matters: the key names, figures, events, concepts and terms of the text, each as a short "
        "phrase written as the text writes it. Leave out details a good summary could drop, and list "
        "each point once."
    )
    examples = [
        (
            SourceText(
                text="The city council approved a new cycling plan on Tuesday. It adds 40 km of "
                "protected bike lanes by 2027 and is funded by a 12 million euro grant. Parking on "
                "three central streets will be removed."
            ),
            Keyphrases(
                keyphrases=[
                    "city council approved cycling plan",
                    "40 km of protected bike lanes",
                    "by 2027",
                    "12 million euro grant",
                    "parking removed on three central streets",
                ]
            ),
        )
    ]

    def offline(self, data: SourceText) -> Keyphrases:
        # Fitted on the text and its sentences: a phrase then occurs at least twice in the corpus, so
        # multi-word phrases ("protected bike lanes") qualify in a short text too.
        model = PhraseModel().fit([data.text, *split_sentences(data.text)])
        return Keyphrases(keyphrases=model.keyphrases(data.text, k=OFFLINE_KEYPHRASES))


class QuestionsPrompt(Prompt[SourceAndKeyphrases, Questions]):
    name = "scoring.summary_score.questions"
    instruction = (
        "Turn the keyphrases into closed questions for checking a summary of the text. Write one "
        "question per keyphrase, answerable with yes or no, that the text itself answers with yes. "
        "Each question must make sense without the text at hand (name who or what it is about), and "
        "ask about the fact the keyphrase stands for, not about wording."
    )
    examples = [
        (
            SourceAndKeyphrases(
                text="The library opens a second branch in the harbour district in May. The branch "
                "has a children's reading room and stays open until 22:00 on weekdays.",
                keyphrases=["second branch", "harbour district", "open until 22:00 on weekdays"],
            ),
            Questions(
                questions=[
                    "Is the library opening a second branch?",
                    "Is the library's new branch in the harbour district?",
                    "Does the new branch stay open until 22:00 on weekdays?",
                ]
            ),
        )
    ]

    def validate(self, data: SourceAndKeyphrases, output: Questions) -> str | None:
        if data.keyphrases and not [q for q in output.questions if q.strip()]:
            return f"gave no question for {len(data.keyphrases)} keyphrases; write one question per keyphrase"
        return None

    def offline(self, data: SourceAndKeyphrases) -> Questions:
        return Questions(questions=[MENTION.format(phrase=p) for p in data.keyphrases])


class SummaryAnswersPrompt(AlignedPrompt[SummaryAndQuestions]):
    name = "scoring.summary_score.answers"
    instruction = (
        "Answer each question from the summary alone, as if it were the only text you had. The "
        "verdict is true when the summary states or clearly implies that the answer is yes; false when "
        "it says no, or does not say (a summary that leaves the point out cannot answer yes). Do not "
        "use outside knowledge. Answer with one JSON object that has one entry per question key, each "
        "holding the verdict and a short reason."
    )
    examples = [
        (
            SummaryAndQuestions(
                summary="The library will open a harbour-district branch in May with a children's room.",
                questions={
                    "1": "Is the library's new branch in the harbour district?",
                    "2": "Does the new branch stay open until 22:00 on weekdays?",
                },
            ),
            keyed(("1", "2")).model_validate(
                {
                    "1": Verdict(verdict=True, reason="The summary names the harbour district."),
                    "2": Verdict(verdict=False, reason="The summary gives no opening hours."),
                }
            ),
        )
    ]

    def keys(self, data: SummaryAndQuestions) -> tuple[str, ...]:
        return tuple(data.questions)

    def batch(self, data: SummaryAndQuestions, keys: tuple[str, ...]) -> SummaryAndQuestions:
        return data.model_copy(update={"questions": {k: data.questions[k] for k in keys}})

    def offline(self, data: SummaryAndQuestions) -> KeyedVerdicts:
        lang = detect_language(data.summary)
        present = set(stemmed_words(data.summary, lang))
        verdicts = {
            key: mentioned(question, present, data.summary, lang) for key, question in data.questions.items()
        }
        return verdicts_of(self.keys(data), verdicts)


def mentioned(question: str, present: set[str], summary: str, lang: str) -> Verdict:
    """Whether the summary holds MENTION_SHARE of the content words (by stem) of the phrase asked about."""
    match = _MENTIONED.fullmatch(question.strip())
    phrase = match.group("phrase") if match else question
    words = dict.fromkeys(content_words(phrase, lang))
    if not words:  # nothing but function words: only the phrase as written can count
        found = phrase.casefold() in summary.casefold()
        return Verdict(verdict=found, reason=f'"{phrase}" is {"" if found else "not "}in the summary')
    missing = [w for w in words if stem(w, lang) not in present]
    found = len(words) - len(missing)
    if found / len(words) < MENTION_SHARE:
        if not found:
            return Verdict(verdict=False, reason=f'the summary does not mention "{phrase}"')
        lacks = ", ".join(f'"{w}"' for w in missing)
        return Verdict(verdict=False, reason=f'the summary lacks {lacks} of "{phrase}"')
    if found == len(words):
        return Verdict(verdict=True, reason=f'the summary mentions "{phrase}"')
    return Verdict(verdict=True, reason=f'the summary has {found} of the {len(words)} words of "{phrase}"')
