"""The Persona model: who asks the questions of a test set.

A persona is only a name and a role description: the synthesizers put it in front of the
question prompt so that questions sound like a real reader's, and test samples record it.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class Persona(BaseModel):
    """A reader of the documents: a short role name and what they do and need."""

    model_config = ConfigDict(frozen=True)

    name: NonEmpty = Field(
        description="a role and what the person does, 3 to 7 words, "
        "e.g. 'SRE running alerting for several teams'"
    )
    role_description: NonEmpty = Field(
        description="1 to 2 sentences: what this person does and what they need from the documents"
    )

    @field_validator("name", mode="after")
    @classmethod
    def _one_line(cls, value: str) -> str:
        """Names are shown in tables and prompts, so newlines and runs of spaces become one space."""
        return re.sub(r"\s+", " ", value)

    def __str__(self) -> str:
        return f"{self.name}: {self.role_description}"
