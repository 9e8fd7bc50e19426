"""A scripted chat model for the stub server: answers groundset's prompts plausibly and deterministically.

Graph facts and summaries come from the prompts' own offline forms (sent back as JSON over real
HTTP), questions and references from the context text, verdicts say "supported", personas from
the offline form; scoring prompts get sentence splits, word-overlap usefulness and a question
made from the response. Used by tests and benchmarks that need a whole pipeline to run through the stub.
"""

from __future__ import annotations

import json
import re
from typing import Any

from groundset.kg.prompts import ChunkFactsPrompt, ChunkText, DocumentText, SummaryPrompt
from groundset.personas import PersonaInput, PersonaPrompt
from groundset.text.plaintext import plain_text

from .openai_stub import Reply
from .verdicts import for_keys, judged_keys


def scripted(body: dict[str, Any]) -> Reply | None:
    data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
    system = body["messages"][0]["content"]
    if set(data) == {"title", "section", "text"}:
        return Reply.json(ChunkFactsPrompt().offline(ChunkText(**data)).model_dump())
    if set(data) == {"passages"}:  # chunk facts of a keyed batch of passages
        single = ChunkFactsPrompt()
        return Reply.json(
            {key: single.offline(ChunkText(**text)).model_dump() for key, text in data["passages"].items()}
        )
    if set(data) == {"title", "text"} and "Summarise" in system:
        return Reply.json(SummaryPrompt().offline(DocumentText(**data)).model_dump())
    if set(data) == {"summaries", "themes"}:
        return Reply.json(PersonaPrompt().offline(PersonaInput(**data)).model_dump())
    if {"atomicity", "coverage"} <= set(data):  # scoring: statements of response and reference

        def split(text: str) -> list[str]:
            return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]

        return Reply.json({"response": split(data["response"]), "reference": split(data["reference"])})
    if {"response", "reference", "judge"} <= set(data):  # scoring: both-ways comparison of statements
        reference_words = set(" ".join(data["reference"].values()).casefold().split())
        response_words = set(" ".join(data["response"].values()).casefold().split())
        supported = {k: set(s.casefold().split()) <= reference_words for k, s in data["response"].items()}
        covered = {k: set(s.casefold().split()) <= response_words for k, s in data["reference"].items()}
        return Reply.json(for_keys(judged_keys(data), {**supported, **covered}))
    if {"answer", "contexts"} <= set(data):  # scoring: usefulness of each context
        answer = set(data["answer"].casefold().split())
        useful = {k: len(answer & set(c.casefold().split())) >= 3 for k, c in data["contexts"].items()}
        return Reply.json(for_keys(useful, useful))
    if set(data) == {"response"}:  # scoring: the question a response answers
        return Reply.json({"question": data["response"].split(".")[0] + "?", "noncommittal": False})
    if "contexts" in data:  # a good draft: the reference draws on every context (a multi-hop one, on each)
        firsts = [_first_sentence(c) for c in data["contexts"]]
        # length too: two scenarios of one term and style asked one question twice (a near-duplicate)
        reader = f"{data['style']} {data['length']} reader"
        question = f"What do the docs explain about {data['terms'][0]} for a {reader}?"
        return Reply.json({"question": question, "reference": " ".join(dict.fromkeys(firsts))})
    if "statements" in data:
        return Reply.json(for_keys(data["statements"], True, "stated"))
    return None


def _first_sentence(context: str) -> str:
    """The context's first sentence of five words or more: a heading ("Metric names") is no answer, and the
    question, which names the term, would contain it all (rejected as trivial)."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", plain_text(context).strip()) if s.strip()]
    return next((s for s in sentences if len(s.split()) >= 5), sentences[0] if sentences else context)
