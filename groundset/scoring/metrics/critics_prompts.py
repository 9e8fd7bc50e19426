"""The judges behind the critics and rubric metrics: a yes/no verdict on one aspect, a score on a scale,
a score picked from rubric descriptions.

The aspect, scale or rubric travels in the input, not in the instruction, so one prompt class serves
every user-defined critic and the cache key still tells them apart. None of these has an offline form:
whether a text is "coherent" or "harmful" has no honest classical measure, so offline they give NaN.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...core.prompts import Prompt


class Submission(BaseModel):
    """What a critic reads: the response, and whatever the sample also has (null when it has not)."""

    question: str | None = Field(default=None, description="the question the response answers")
    response: str = Field(description="the text being judged")
    contexts: list[str] | None = Field(default=None, description="passages the response was written from")
    reference: str | None = Field(default=None, description="a correct answer to compare with")


class AspectInput(Submission):
    criterion: str = Field(description="the yes/no question to answer about the response")


class AspectVerdict(BaseModel):
    # The reason first: a judge that states its grounds before it commits is steadier.
    reason: str = Field(default="", description="one or two short sentences on why")
    verdict: bool = Field(description="true when the criterion holds for the response, false otherwise")


class ScaleInput(Submission):
    criterion: str = Field(description="what the score measures")
    lowest: int = Field(description="the lowest score allowed")
    highest: int = Field(description="the highest score allowed")


class RubricInput(Submission):
    rubric: dict[str, str] = Field(
        description="each allowed score, with what a response of that score is like"
    )


class Score(BaseModel):
    reason: str = Field(default="", description="one or two short sentences on why")
    score: int = Field(description="the score, as the input allows")


class AspectPrompt(Prompt[AspectInput, AspectVerdict]):
    name = "metric.aspect_critic"
    instruction = (
        "You review answers written by an assistant. The input gives a criterion phrased as a yes/no "
        "question about the response, the response itself and, when available, the question it replies "
        "to, the passages it was written from and a correct reference answer. Decide whether the "
        "criterion holds for the response: verdict true for yes, false for no. Judge the response only "
        "against the criterion, not on its general quality. Use the question, passages and reference "
        "where the criterion needs them; fields that are null were not given. Give the reason first."
    )
    examples = [
        (
            AspectInput(
                criterion="Does the response name a version number?",
                question="Which release added native histograms?",
                response="Native histograms arrived as an experimental feature in release 2.40.",
            ),
            AspectVerdict(reason="It names release 2.40.", verdict=True),
        ),
        (
            AspectInput(
                criterion="Is the response free of repetition and padding?",
                question="What port does the node exporter use?",
                response="The node exporter uses port 9100. To repeat: the port it uses is 9100, port 9100.",
            ),
            AspectVerdict(reason="It states the port three times.", verdict=False),
        ),
    ]


class ScalePrompt(Prompt[ScaleInput, Score]):
    name = "metric.simple_criteria"
    instruction = (
        "You grade answers written by an assistant. The input gives what to grade (the criterion), the "
        "response, and, when available, the question it replies to, the passages it was written from "
        "and a correct reference answer (null fields were not given). Give one whole-number score from "
        "lowest to highest inclusive: the higher, the more fully the response meets the criterion. "
        "Use the whole scale; when a reference is given, measure the response against it. Reason first."
    )
    examples = [
        (
            ScaleInput(
                criterion="How completely does the response answer the question?",
                question="Where are backups stored and for how long?",
                response="Backups go to the archive bucket.",
                lowest=0,
                highest=5,
            ),
            Score(reason="It says where backups are stored but not how long they are kept.", score=2),
        )
    ]

    def validate(self, data: ScaleInput, output: Score) -> str | None:
        if not data.lowest <= output.score <= data.highest:
            return f"gave score {output.score}; give a whole number from {data.lowest} to {data.highest}"
        return None


class RubricPrompt(Prompt[RubricInput, Score]):
    name = "metric.rubrics"
    instruction = (
        "You grade answers written by an assistant against a rubric. The rubric maps each allowed score "
        "to a description of a response that deserves it. Read the response (with the question, the "
        "passages and the reference answer when given; null fields were not given), find the description "
        "that fits it best, and answer with that description's score, exactly as written in the rubric. "
        "When two descriptions fit, take the one that fits the response's weakest point. Reason first."
    )
    examples = [
        (
            RubricInput(
                question="How many times is a failed backup retried?",
                response="It is retried five times.",
                reference="A failed backup is retried twice.",
                rubric={
                    "1": "Contradicts the reference or misses the point.",
                    "2": "Partly agrees with the reference; an important fact is wrong or missing.",
                    "3": "Agrees with the reference fully.",
                },
            ),
            Score(reason="Five retries contradicts the reference's two.", score=1),
        )
    ]

    def validate(self, data: RubricInput, output: Score) -> str | None:
        if str(output.score) not in data.rubric:
            allowed = ", ".join(data.rubric)
            return f"gave score {output.score}, which the rubric does not have; answer with one of {allowed}"
        return None
