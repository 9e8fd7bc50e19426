"""Small prompts used by the core tests (real Prompt subclasses, written for the tests)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from groundset.core import Prompt


class Passage(BaseModel):
    text: str


class Verdict(BaseModel):
    supported: bool
    reason: str = Field(description="one sentence")


class Statements(BaseModel):
    statements: list[str]


class JudgePrompt(Prompt[Passage, Verdict]):
    """No offline form on purpose: exercises OfflineUnsupported."""

    name = "test.judge"
    instruction = "Decide whether the passage states a fact about software. Give a short reason."
    examples = [(Passage(text="Prometheus scrapes targets."), Verdict(supported=True, reason="A fact."))]


class SplitPrompt(Prompt[Passage, Statements]):
    name = "test.split"
    instruction = "Split the passage into short, self-contained statements."

    def offline(self, data: Passage) -> Statements:
        return Statements(statements=[s.strip() for s in data.text.split(".") if s.strip()])
