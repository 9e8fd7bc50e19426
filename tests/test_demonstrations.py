"""People's judgements as few-shot guidance: the k nearest reach the LLM judge, and change its cache key."""

from __future__ import annotations

import json

import pytest

from groundset.core import CallEngine
from groundset.judges import SupportPrompt
from groundset.scoring import EvaluationDataset, Faithfulness, SingleTurnSample, evaluate
from groundset.scoring.demonstrations import GUIDANCE_HEADER, Demonstration, guidance, nearest

from .openai_stub import Reply
from .verdicts import for_keys, judged_keys

PORTS = SingleTurnSample(
    user_input="Which port does the node exporter listen on?",
    response="The node exporter listens on port 9100.",
    retrieved_contexts=["The node exporter exposes host metrics on port 9100."],
)
DEMOS = [
    Demonstration(PORTS.model_copy(update={"response": "It listens on port 9100 by default."}), 1.0),
    Demonstration(
        SingleTurnSample(
            user_input="How do I bake bread?", response="Knead the dough.", retrieved_contexts=["x"]
        ),
        0.0,
    ),
    Demonstration(PORTS.model_copy(update={"response": "The exporter listens on port 8080."}), 0.0),
]


async def test_nearest_picks_the_most_similar_labelled_samples():
    picked = await nearest(PORTS, DEMOS, 2, embeddings=_offline(), engine=CallEngine(cache=False), stage="t")
    assert DEMOS[1] not in picked and len(picked) == 2


def _offline():
    from groundset.core import resolve_embeddings

    return resolve_embeddings(None).model


def test_guidance_shows_each_sample_and_its_score():
    text = guidance(DEMOS[:1])
    assert text.startswith(GUIDANCE_HEADER)
    assert "response: It listens on port 9100 by default." in text and "score: 1" in text
    assert guidance([]) == ""
    with pytest.raises(ValueError, match="0..1"):
        Demonstration(PORTS, 3.0)


def test_guidance_is_part_of_the_cache_key():
    plain = SupportPrompt()
    guided = plain.with_guidance(guidance(DEMOS[:1]))
    assert guided.fingerprint() != plain.fingerprint()
    assert plain.with_guidance("  ") is plain
    assert guided.instruction.startswith(plain.instruction)


def test_an_llm_judge_sees_the_nearest_demonstrations(stub, chat):
    def judge(body):
        data = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))
        if "atomicity" in data:
            return Reply.json({"response": [data["response"]], "reference": []})
        return Reply.json(for_keys(judged_keys(data)))

    stub.on_chat(judge)
    metric = Faithfulness(demonstrations=DEMOS, demonstrations_k=1)
    engine = CallEngine(cache=False)
    result = evaluate(
        EvaluationDataset([PORTS]),
        [metric],
        llm=chat,
        embeddings="offline",
        engine=engine,
        show_progress=False,
    )
    assert result.cells[0]["faithfulness"].value == 1.0
    verdict_request = next(r for r in stub.chat_requests if "statements" in r.body["messages"][-1]["content"])
    system = verdict_request.body["messages"][0]["content"]
    assert GUIDANCE_HEADER in system and system.count("score:") == 1
    assert "How do I bake bread?" not in system  # not among the nearest
    statements_request = next(
        r for r in stub.chat_requests if "atomicity" in r.body["messages"][-1]["content"]
    )
    assert (
        GUIDANCE_HEADER not in statements_request.body["messages"][0]["content"]
    )  # decomposition is not judged


def test_offline_judges_ignore_demonstrations():
    plain = Faithfulness().score(PORTS).value
    assert Faithfulness(demonstrations=DEMOS).score(PORTS).value == plain
