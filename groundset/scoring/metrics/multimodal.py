"""Multimodal faithfulness and relevance: the judge sees the retrieved images as well as the texts.

Retrieved contexts may be text, image files, data URLs or http(s) image URLs (see
``multimodal_content``); they go to the model as chat content blocks, so these metrics need a chat
model that accepts images. The judge answers 1 or 0 with a reason; ``strictness=k`` asks for k
answers and the majority wins. There is no honest classical form for reading an image, so offline
the score is NaN with that reason.
"""

from __future__ import annotations

import asyncio
import json
from abc import abstractmethod
from collections import Counter
from typing import Any, ClassVar

from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import BaseModel, Field

from ...core.models import is_offline
from ...core.prompts import Prompt
from ...samples.evaluation import SingleTurnSample
from ..metric import Metric, MetricResult, OutputType, ScoringContext
from .multimodal_content import ContextPart, content_blocks, context_parts

OFFLINE_REASON = "offline: multimodal judging needs a vision LLM"


class VisualEvidence(BaseModel):
    question: str = Field(default="", description="the question the response answers, if judged")
    response: str
    contexts: list[ContextPart] = Field(description="the retrieved contexts: texts and images, in order")


class VisualVerdict(BaseModel):
    reason: str = Field(description="one or two sentences naming what in the contexts decided it")
    verdict: bool = Field(description="true or false, as the instruction defines it")


class VisualPrompt(Prompt[VisualEvidence, VisualVerdict]):
    """A judge whose input goes out as content blocks: the texts as text, the images as images.

    The system message is the usual one (instruction, schema, examples); only the human message
    differs. The cache key is built from the input's dump as for any prompt, which holds each image's
    sha256 (or its http URL) in place of its bytes.
    """

    def messages(
        self, data: VisualEvidence, *, schema_in_text: bool = False, with_examples: bool = True
    ) -> list[BaseMessage]:
        system = super().messages(data, schema_in_text=schema_in_text, with_examples=with_examples)[0]
        head = (
            {"question": data.question, "response": data.response}
            if data.question
            else {"response": data.response}
        )
        count = len(data.contexts)
        lead = f"Input: {json.dumps(head, ensure_ascii=False)}\nThe {count} retrieved contexts follow."
        return [
            system,
            HumanMessage(content=[{"type": "text", "text": lead}, *content_blocks(data.contexts)]),
        ]


class MultiModalFaithfulnessPrompt(VisualPrompt):
    name = "scoring.multimodal_faithfulness"
    instruction = (
        "You check a response against the material it was written from: retrieved contexts that are "
        "passages of text and images (photos, charts, diagrams, screenshots). Look at every image and "
        "read every passage. The verdict is true when everything the response states can be seen in an "
        "image or read in a passage, or follows directly from them; false when any of it is missing "
        "from the contexts, differs from what an image shows (a value, a label, a colour, a count) or "
        "contradicts a passage. Outside knowledge does not count, even when it is true. Give the "
        "reason first, naming the context that decided it, then the verdict."
    )


class MultiModalRelevancePrompt(VisualPrompt):
    name = "scoring.multimodal_relevance"
    instruction = (
        "You check whether a response to a question is in line with the retrieved contexts, which "
        "are passages of text and images (photos, charts, diagrams, screenshots). Look at every image "
        "and read every passage. The verdict is true when the response answers the question with what "
        "the contexts show or say about it; false when it answers something else, ignores what the "
        "contexts show about the question, or goes against them. Outside knowledge does not count. "
        "Give the reason first, naming the context that decided it, then the verdict."
    )


class _VisualJudgeMetric(Metric):
    """A 1/0 judgement over the response and the visual and textual contexts."""

    prompt: ClassVar[type[VisualPrompt]]
    needs_llm = True
    runs_offline = False
    output_type = OutputType.BINARY

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        contexts = [c for c in sample.retrieved_contexts or [] if c.strip()]
        settled = self.without_judge(sample, contexts)
        if settled is not None:
            return settled
        if is_offline(ctx.llm):
            return MetricResult.nan(OFFLINE_REASON)
        parts = await asyncio.to_thread(context_parts, contexts)  # files are read off the event loop
        data = VisualEvidence(question=self.question(sample), response=sample.response or "", contexts=parts)
        prompt = self.prompt().with_guidance(ctx.guidance)
        answer = await prompt.run(ctx.llm, data, n=self.strictness, engine=ctx.engine, stage=self.stage)
        votes = answer if isinstance(answer, list) else [answer]
        (winner, count), *_ = Counter(v.verdict for v in votes).most_common(1)
        chosen = next(v for v in votes if v.verdict == winner)
        trace: dict[str, Any] = {"reason": chosen.reason, "contexts": [p.describe() for p in parts]}
        if self.strictness > 1:
            trace["agreement"] = count / len(votes)
        images = sum(p.kind == "image" for p in parts)
        seen = f"{images} image(s), {len(parts) - images} text(s)"
        return MetricResult(
            1.0 if winner else 0.0, f"{self.verdict_words[winner]} ({seen}): {chosen.reason}", trace
        )

    verdict_words: ClassVar[dict[bool, str]]

    def question(self, sample: SingleTurnSample) -> str:
        return ""

    @abstractmethod
    def without_judge(self, sample: SingleTurnSample, contexts: list[str]) -> MetricResult | None:
        """The result when the inputs settle it (NaN: cannot be judged; 0: judged and bad), else None."""


class MultiModalFaithfulness(_VisualJudgeMetric):
    """1 when the retrieved texts and images support everything the response says, else 0."""

    name = "multimodal_faithfulness"
    columns = ("response", "retrieved_contexts")
    prompt = MultiModalFaithfulnessPrompt
    verdict_words = {True: "supported by the contexts", False: "not supported by the contexts"}

    def without_judge(self, sample: SingleTurnSample, contexts: list[str]) -> MetricResult | None:
        if not (sample.response or "").strip():
            return MetricResult.nan("the response is empty: it makes no claim, so it cannot be judged")
        if not contexts:
            return MetricResult(0.0, "no retrieved contexts: nothing supports the response")
        return None


class MultiModalRelevance(_VisualJudgeMetric):
    """1 when the response answers the question in line with the retrieved texts and images, else 0."""

    name = "multimodal_relevance"
    columns = ("user_input", "response", "retrieved_contexts")
    prompt = MultiModalRelevancePrompt
    verdict_words = {True: "relevant, in line with the contexts", False: "not in line with the contexts"}

    def question(self, sample: SingleTurnSample) -> str:
        return sample.asked() or ""

    def without_judge(self, sample: SingleTurnSample, contexts: list[str]) -> MetricResult | None:
        if not (sample.user_input or "").strip():
            return MetricResult.nan("the question is empty: relevance to it cannot be judged")
        if not contexts:
            return MetricResult.nan("no retrieved contexts: nothing to judge the response against")
        if not (sample.response or "").strip():
            return MetricResult(0.0, "the response is empty: it answers nothing")
        return None
