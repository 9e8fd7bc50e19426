"""The two judges behind topic adherence: list the user's requests, then two keyed verdicts per request.

The second judge answers for each request (keys "1", "2", ...) whether it lies within the allowed topics
(key t<i>) and whether the assistant answered it (key a<i>), in one call with one verdict per key (see
``judges.aligned``). Neither has an offline form: whether "a refund for a cancelled trip" belongs to
"travel bookings" shares no word to count, and a lexical stand-in would score a different thing.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...core.prompts import Prompt
from ...judges.aligned import AlignedPrompt, Verdict, keyed


class ConversationText(BaseModel):
    conversation: str = Field(description="the conversation, one numbered line per turn or tool call")


class Request(BaseModel):
    question: str = Field(description="the user's request, rewritten to make sense on its own")
    topic: str = Field(description="what the request is about, in a few words")


class Requests(BaseModel):
    requests: list[Request] = Field(description="the user's requests, in the order they were made")


class RequestsPrompt(Prompt[ConversationText, Requests]):
    name = "scoring.topic_adherence.requests"
    instruction = (
        "Read the conversation and list every question or request the user makes, in the order made. One "
        "entry per distinct request: a follow-up that only clarifies or repeats an earlier request belongs "
        "to it, while a new question, even on the same subject, is its own entry. Greetings, thanks, and "
        "answers to the assistant's own questions are not requests. For each, write the request so it "
        "makes sense without the conversation, and its topic in a few words. List only what the user "
        "asked; what the assistant did about it does not matter here."
    )
    examples = [
        (
            ConversationText(
                conversation=(
                    "[1] User: Hi! Which of your plans includes phone support?\n"
                    "[2] Assistant: The Pro and Business plans include phone support.\n"
                    "[3] User: Thanks. Also, who won the football match yesterday?\n"
                    "[4] Assistant: I can only help with questions about our service plans."
                )
            ),
            Requests(
                requests=[
                    Request(question="Which service plans include phone support?", topic="plan features"),
                    Request(question="Who won yesterday's football match?", topic="sports results"),
                ]
            ),
        )
    ]


class RequestsToJudge(BaseModel):
    conversation: str = Field(description="the conversation, one numbered line per turn or tool call")
    allowed_topics: list[str] = Field(description="the topics the assistant is meant to handle")
    requests: dict[str, str] = Field(description="the user's requests, keyed 1, 2, ...")
    judge: list[str] | None = Field(
        default=None, description="the verdict keys to give now (all when absent)"
    )


def topic_key(item: str) -> str:
    return f"t{item}"


def answer_key(item: str) -> str:
    return f"a{item}"


class TopicVerdictsPrompt(AlignedPrompt[RequestsToJudge]):
    name = "scoring.topic_adherence.verdicts"
    instruction = (
        "The assistant in this conversation is meant to handle only the allowed topics. Each user request "
        "is keyed 1, 2, ...; give two verdicts per request. Key t<number> (t1, t2, ...): true when the "
        "request falls within at least one allowed topic (a narrower case of a topic counts; a request "
        "that only mentions a topic's word while asking about something else does not). Key a<number> "
        "(a1, a2, ...): true when the assistant answered the request or carried it out, even partly or "
        "wrongly; false when it declined, deflected, said it could not help, or never took it up. Judge "
        "the answer from the conversation only. Answer with one JSON object with one entry per key to "
        "give, each holding the verdict and a short reason."
    )
    examples = [
        (
            RequestsToJudge(
                conversation=(
                    "[1] User: Which of your plans includes phone support?\n"
                    "[2] Assistant: The Pro and Business plans include phone support.\n"
                    "[3] User: Who won the football match yesterday?\n"
                    "[4] Assistant: I can only help with questions about our service plans."
                ),
                allowed_topics=["service plans", "billing"],
                requests={
                    "1": "Which service plans include phone support?",
                    "2": "Who won yesterday's football match?",
                },
            ),
            keyed(("t1", "a1", "t2", "a2")).model_validate(
                {
                    "t1": Verdict(verdict=True, reason="Plan features are part of service plans."),
                    "a1": Verdict(verdict=True, reason="The assistant names the plans."),
                    "t2": Verdict(verdict=False, reason="Football is neither plans nor billing."),
                    "a2": Verdict(verdict=False, reason="The assistant declines."),
                }
            ),
        )
    ]

    def keys(self, data: RequestsToJudge) -> tuple[str, ...]:
        if data.judge is not None:
            return tuple(data.judge)
        return tuple(key for item in data.requests for key in (topic_key(item), answer_key(item)))

    def batch(self, data: RequestsToJudge, keys: tuple[str, ...]) -> RequestsToJudge:
        return data.model_copy(update={"judge": list(keys)})
