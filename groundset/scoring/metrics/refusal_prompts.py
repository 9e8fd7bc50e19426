"""How a response is told to decline or to answer: one judge prompt, and its offline form by phrases.

The judge reads only the question and the response (never whether the question is in scope), so its
classification is not nudged towards the expected behaviour. Offline, a response declines when it makes
a refusal claim about itself in one of six languages ("the documents do not say", "I cannot find",
"文档中没有提到", "記載されていません", "nicht beschrieben", "n'est pas mentionné", "no se menciona"; see
``refusal_phrases``), the response's own language tried first, and does not guess the answer after it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ...core.prompts import Prompt
from .refusal_phrases import find_refusal

DECLINES = "declines"
ANSWERS = "answers"


class RefusalInput(BaseModel):
    question: str = Field(description="the question asked; after the earlier turns when it is a follow-up")
    response: str = Field(description="the reply to classify")


class Behaviour(BaseModel):
    # The reason first: a judge that states its grounds before it commits is steadier.
    reason: str = Field(default="", description="one or two short sentences on why")
    behaviour: Literal["declines", "answers"] = Field(
        description="'declines': the reply says it cannot give the asked information and does not supply "
        "it; 'answers': the reply attempts to give it"
    )


class RefusalPrompt(Prompt[RefusalInput, Behaviour]):
    name = "metric.refusal"
    instruction = (
        "An assistant replied to a question about a collection of documents. Classify what the reply does "
        "with the question. 'declines': the reply says it cannot give what was asked, because the "
        "documents or sources do not cover it, it does not know, or it could not find it, and it does not "
        "supply the asked fact from anywhere else; pointing to related facts it presents as related, or "
        "suggesting where to look, still declines. 'answers': the reply makes a real attempt to give what "
        "was asked (a fact, a value, steps, an explanation), even hedged, partial or wrong; a reply that "
        "first says the documents are silent or that it is unsure and then gives an answer anyway (a guess) "
        "answers. Classify only what the reply does, not whether it is right or whether the question "
        "could be answered. The reply may be in any language. Give the reason first."
    )
    examples = [
        (
            RefusalInput(
                question="Which team at the company owns the on-call rota for the Loki cluster?",
                response=(
                    "The documents do not say who owns the on-call rota. They only describe how "
                    "Alertmanager routes alerts to receivers."
                ),
            ),
            Behaviour(
                reason="It states the documents do not cover the owner and offers only related routing "
                "facts, without naming a team.",
                behaviour=DECLINES,
            ),
        ),
        (
            RefusalInput(
                question="How often does Prometheus scrape targets by default?",
                response="Every minute, unless scrape_interval in the global section sets another value.",
            ),
            Behaviour(reason="It gives the default interval.", behaviour=ANSWERS),
        ),
        (
            RefusalInput(
                question="Can Prometheus write samples straight into BigQuery?",
                response=(
                    "I could not find that in the documentation, but it probably works through a "
                    "remote-write adapter for BigQuery."
                ),
            ),
            Behaviour(
                reason="After saying it found nothing, it still asserts a way to do it: a guess.",
                behaviour=ANSWERS,
            ),
        ),
        (
            RefusalInput(
                question="Grafana 的默认管理员密码是什么？",
                response="文档中没有提到 Grafana 的默认管理员密码。",
            ),
            Behaviour(reason="It says the documents do not mention the password.", behaviour=DECLINES),
        ),
    ]

    def offline(self, data: RefusalInput) -> Behaviour:
        found = find_refusal(data.response)
        if found is None:
            return Behaviour(reason="offline: no refusal phrase in the response", behaviour=ANSWERS)
        said = f"offline: the response says {found.phrase!r} ({found.language})"
        if found.guessed:
            return Behaviour(reason=f"{said}, then guesses ({found.guessed!r})", behaviour=ANSWERS)
        return Behaviour(reason=said, behaviour=DECLINES)
