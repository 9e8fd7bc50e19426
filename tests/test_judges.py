"""Keyed verdicts: one required property per item, batches of 20, repairs for missing items, votes."""

from __future__ import annotations

import json

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from groundset.core import CallEngine
from groundset.judges import BATCH_SIZE, StatementsAndContext, SupportPrompt, judge, keyed, numbered
from groundset.scoring import Faithfulness, SingleTurnSample

from .openai_stub import Reply
from .verdicts import for_keys
from .verdicts import keyed as keyed_answer


def fake(*answers: dict) -> FakeListChatModel:
    return FakeListChatModel(responses=[json.dumps(a) for a in answers])


def test_the_schema_of_a_call_requires_every_item_key():
    schema = keyed(("1", "2", "3")).model_json_schema()
    assert schema["required"] == ["1", "2", "3"]
    assert set(schema["properties"]) == {"1", "2", "3"}


async def test_strict_schema_servers_get_one_required_key_per_statement(stub, chat):
    stub.on_chat(
        lambda body: Reply.json(for_keys(json.loads(body["messages"][-1]["content"][7:])["statements"]))
    )
    data = StatementsAndContext(statements=numbered(["a is b.", "c is d.", "e is f."]), context="a is b.")
    await judge(SupportPrompt(), chat, data, engine=CallEngine(cache=False), stage="t")
    (request,) = stub.chat_requests
    assert request.body["response_format"]["json_schema"]["schema"]["required"] == ["1", "2", "3"]


async def test_long_lists_go_out_in_batches_of_twenty(stub, chat):
    def answer(body):
        statements = json.loads(body["messages"][-1]["content"].removeprefix("Input: "))["statements"]
        return Reply.json(for_keys(statements, True))

    stub.on_chat(answer)
    statements = [f"Statement number {i} is true." for i in range(1, 46)]
    data = StatementsAndContext(statements=numbered(statements), context="anything")
    judged = await judge(SupportPrompt(), chat, data, engine=CallEngine(cache=False), stage="t")
    sizes = sorted(
        len(json.loads(r.body["messages"][-1]["content"].removeprefix("Input: "))["statements"])
        for r in stub.chat_requests
    )
    assert sizes == [5, BATCH_SIZE, BATCH_SIZE]
    assert list(judged.verdicts) == [str(i) for i in range(1, 46)]  # merged back in order


async def test_strictness_takes_the_majority_of_k_votes_and_records_agreement():
    votes = fake(keyed_answer([True, True]), keyed_answer([True, False]), keyed_answer([False, False]))
    data = StatementsAndContext(statements=numbered(["x.", "y."]), context="x.")
    judged = await judge(
        SupportPrompt(), votes, data, engine=CallEngine(cache=False), stage="t", strictness=3
    )
    assert judged.flags(("1", "2")) == [True, False]
    assert judged.agreement == {"1": pytest.approx(2 / 3), "2": pytest.approx(2 / 3)}


async def test_strictness_asks_for_k_answers_in_one_request(stub, chat):
    stub.on_chat(lambda body: Reply.json(keyed_answer([True])))
    data = StatementsAndContext(statements=numbered(["x."]), context="x.")
    await judge(SupportPrompt(), chat, data, engine=CallEngine(cache=False), stage="t", strictness=3)
    (request,) = stub.chat_requests
    assert request.body["n"] == 3


def test_a_metric_passes_its_strictness_and_traces_the_agreement():
    statements = ["Blocks are kept for 15 days.", "Blocks are compressed."]
    llm = fake(
        {"response": statements, "reference": []},
        keyed_answer([True, True]),
        keyed_answer([True, False]),
        keyed_answer([True, False]),
    )
    sample = SingleTurnSample(user_input="q", response="r", retrieved_contexts=["c"])
    result = Faithfulness(llm=llm, strictness=3).score(sample)
    assert result.value == 0.5
    assert result.trace["agreement"] == [1.0, pytest.approx(2 / 3)]
    with pytest.raises(ValueError, match="odd number"):
        Faithfulness(strictness=2)
