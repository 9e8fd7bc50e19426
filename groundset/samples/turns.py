"""What a test-set sample may carry beyond one answerable question: the behaviour expected of the
assistant (answer, or decline a question the documents do not cover), the earlier turns of a
conversation, and near-miss contexts (distractors) that share words with the question but not its answer.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ANSWER = "answer"
REFUSE = "refuse"
ExpectedBehaviour = Literal["answer", "refuse"]


class Turn(BaseModel):
    """One earlier turn of a conversation: what the user asked, the answer it should have got, and the
    chunks that answer grounds on. The sample itself is the conversation's last turn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    user_input: str = Field(min_length=1)
    reference: str = Field(min_length=1)
    reference_contexts: list[str] = Field(min_length=1)
    reference_context_ids: list[str]

    @field_validator("user_input", "reference")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value

    @model_validator(mode="after")
    def _pairs(self) -> Turn:
        if len(self.reference_context_ids) != len(self.reference_contexts):
            raise ValueError("reference_context_ids and reference_contexts must pair up one to one")
        return self


def history_messages(turns: list[Turn]) -> list[dict[str, str]]:
    """Earlier turns as OpenAI-style chat messages (the user's question, then the reference answer):
    the history a conversational RAG system is given before the last question."""
    messages: list[dict[str, str]] = []
    for turn in turns:
        messages.append({"role": "user", "content": turn.user_input})
        messages.append({"role": "assistant", "content": turn.reference})
    return messages
