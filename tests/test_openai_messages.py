"""Conversations as OpenAI chat dicts: read like LangChain messages from rows, JSONL and CSV; written flat."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from pydantic import ValidationError

from groundset.core.errors import ConfigError
from groundset.samples.messages import text_of, tool_calls_made, transcript
from groundset.scoring import EvaluationDataset, MultiTurnSample
from groundset.scoring.metrics.tools import ToolCallAccuracy, ToolCallF1


def openai_call(call_id: str, name: str, args: dict | str) -> dict:
    arguments = args if isinstance(args, str) else json.dumps(args)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def openai_conversation() -> list[dict]:
    return [
        {"role": "system", "content": "You book flights."},
        {"role": "user", "content": "Book me a flight to Oslo on Friday."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                openai_call("call-1", "search_flights", {"to": "OSL", "day": "fri"}),
                openai_call("call-2", "get_weather", {"city": "Oslo"}),
            ],
        },
        {"role": "tool", "tool_call_id": "call-1", "content": '[{"flight": "SK 123"}]'},
        {"role": "tool", "tool_call_id": "call-2", "content": "rain"},
        {"role": "assistant", "content": "Booked SK 123; bring an umbrella."},
    ]


def langchain_conversation() -> list:
    return [
        SystemMessage("You book flights."),
        HumanMessage("Book me a flight to Oslo on Friday."),
        AIMessage(
            "",
            tool_calls=[
                {"name": "search_flights", "args": {"to": "OSL", "day": "fri"}, "id": "call-1"},
                {"name": "get_weather", "args": {"city": "Oslo"}, "id": "call-2"},
            ],
        ),
        ToolMessage('[{"flight": "SK 123"}]', tool_call_id="call-1"),
        ToolMessage("rain", tool_call_id="call-2"),
        AIMessage("Booked SK 123; bring an umbrella."),
    ]


REFERENCE_CALLS = [{"name": "search_flights", "args": {"to": "OSL", "day": "fri"}}]


def test_openai_dicts_read_as_the_same_messages_with_arguments_decoded():
    sample = MultiTurnSample(user_input=openai_conversation(), reference_tool_calls=REFERENCE_CALLS)
    assert sample == MultiTurnSample(
        user_input=langchain_conversation(), reference_tool_calls=REFERENCE_CALLS
    )
    assert [type(m) for m in sample.user_input] == [type(m) for m in langchain_conversation()]
    assert sample.user_input[2].tool_calls[0]["args"] == {"to": "OSL", "day": "fri"}
    assert sample.user_input[2].content == ""  # content null on a message that only calls tools
    assert tool_calls_made(sample.user_input) == [
        {"name": "search_flights", "args": {"to": "OSL", "day": "fri"}},
        {"name": "get_weather", "args": {"city": "Oslo"}},
    ]


def test_written_in_the_flat_format_and_read_back_equal(tmp_path):
    rows = [{"user_input": openai_conversation(), "reference_tool_calls": REFERENCE_CALLS, "label": "a"}]
    dataset = EvaluationDataset.from_list(rows, notify=False)
    written = dataset.to_list()
    messages = written[0]["user_input"]
    assert all("role" not in m for m in messages)
    assert [m["type"] for m in messages] == ["system", "human", "ai", "tool", "tool", "ai"]
    assert messages[2]["tool_calls"][0] == {
        "name": "search_flights",
        "args": {"to": "OSL", "day": "fri"},
        "id": "call-1",
    }
    assert written[0]["label"] == "a"  # the user's own column still comes back
    assert EvaluationDataset.from_list(written, notify=False) == dataset
    path = tmp_path / "out.jsonl"
    dataset.to_jsonl(path)
    assert EvaluationDataset.from_jsonl(path) == dataset
    assert '"role"' not in path.read_text(encoding="utf-8")


def test_jsonl_and_csv_read_openai_conversations(tmp_path):
    expected = MultiTurnSample(user_input=langchain_conversation(), reference_tool_calls=REFERENCE_CALLS)
    jsonl = tmp_path / "chat.jsonl"
    row = {"user_input": openai_conversation(), "reference_tool_calls": REFERENCE_CALLS}
    jsonl.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert EvaluationDataset.from_jsonl(jsonl)[0] == expected
    table = tmp_path / "chat.csv"
    with table.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(
            [
                ["user_input", "reference_tool_calls"],
                [json.dumps(openai_conversation()), json.dumps(REFERENCE_CALLS)],
            ]
        )
    from_csv = EvaluationDataset.from_csv(table)
    assert from_csv[0] == expected
    back = tmp_path / "back.jsonl"
    from_csv.to_jsonl(back)
    assert EvaluationDataset.from_jsonl(back) == from_csv


def test_pandas_round_trip_of_an_openai_conversation():
    pytest.importorskip("pandas")
    dataset = EvaluationDataset.from_list([{"user_input": openai_conversation()}])
    assert EvaluationDataset.from_pandas(dataset.to_pandas()) == dataset


def test_openai_sdk_dumps_are_read_as_they_come():
    from openai.types.chat import ChatCompletionMessage

    calls = ChatCompletionMessage.model_validate(
        {"role": "assistant", "content": None, "tool_calls": [openai_call("c1", "lookup", {"id": 7})]}
    ).model_dump()
    answer = ChatCompletionMessage(role="assistant", content="Order 7 shipped.").model_dump()
    assert calls["tool_calls"] and answer["tool_calls"] is None and "audio" in answer
    sample = MultiTurnSample(
        user_input=[
            {"role": "user", "content": "Where is order 7?"},
            calls,
            {"role": "tool", "tool_call_id": "c1", "content": "shipped", "name": "lookup"},
            answer,
        ]
    )
    assert sample.user_input[1].tool_calls == [
        {"name": "lookup", "args": {"id": 7}, "id": "c1", "type": "tool_call"}
    ]
    assert sample.user_input[3] == AIMessage("Order 7 shipped.")


def test_roles_content_parts_refusals_and_mixed_forms():
    sample = MultiTurnSample(
        user_input=[
            {"role": "developer", "content": "Only talk about plans."},
            {
                "role": "user",
                "content": [{"type": "text", "text": "Who won"}, {"type": "text", "text": "the cup?"}],
            },
            {"role": "assistant", "content": None, "refusal": "I can only help with plans."},
            {"type": "human", "content": "Fine. Which plan has phone support?"},  # the flat form, mixed in
            HumanMessage("And the price?"),
            {"role": "assistant", "content": "Pro, at 20 EUR.", "tool_calls": []},
        ]
    )
    assert isinstance(sample.user_input[0], SystemMessage)
    assert text_of(sample.user_input[1]) == "Who won\nthe cup?"
    assert sample.user_input[2] == AIMessage("I can only help with plans.")
    assert sample.user_input[5] == AIMessage("Pro, at 20 EUR.")
    audio = {"id": "a1", "transcript": "Pro."}
    spoken = {"role": "assistant", "content": None, "audio": audio, "annotations": []}
    assert MultiTurnSample(user_input=[spoken]).user_input == [AIMessage("Pro.")]
    assert "[3] Assistant: I can only help with plans." in transcript(sample.user_input)


def test_reference_tool_calls_in_openai_form():
    sample = MultiTurnSample(
        user_input=[{"role": "user", "content": "hi"}],
        reference_tool_calls=[openai_call("x", "search_flights", '{"to": "OSL", "day": "fri"}')],
    )
    assert sample.reference_tool_calls == REFERENCE_CALLS


def test_metrics_score_both_forms_alike():
    reference = [*REFERENCE_CALLS, {"name": "get_weather", "args": {"city": "Bergen"}}]
    for metric in (ToolCallAccuracy(), ToolCallF1()):
        from_openai = metric.score(
            MultiTurnSample(user_input=openai_conversation(), reference_tool_calls=reference)
        )
        from_langchain = metric.score(
            MultiTurnSample(user_input=langchain_conversation(), reference_tool_calls=reference)
        )
        assert from_openai.value == from_langchain.value
        assert from_openai.value == pytest.approx(0.5)  # one of two calls right in both metrics


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (
            {"role": "assistant", "content": None, "tool_calls": [openai_call("c", "f", "{'city': 'Oslo'}")]},
            r"item 1: tool_calls\[0\]: function.arguments is not valid JSON \(.*\): \"\{'city': 'Oslo'\}\"",
        ),
        (
            {"role": "assistant", "content": None, "tool_calls": [openai_call("c", "f", "[1, 2]")]},
            r"item 1: tool_calls\[0\]: function.arguments must decode to a JSON object, got a list",
        ),
        (
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "c", "type": "custom", "function": {}}],
            },
            r"item 1: tool_calls\[0\]: type must be 'function'",
        ),
        (
            {"role": "assistant", "content": None, "tool_calls": [openai_call("c", "", {})]},
            r"item 1: tool_calls\[0\]: function.name must be a non-empty string",
        ),
        (
            {"role": "robot", "content": "hi"},
            "item 1: role must be one of user, assistant, system, developer, tool",
        ),
        ({"role": "user", "type": "human", "content": "hi"}, "item 1: has both type .* and role"),
        (
            {"role": "user", "content": "hi", "tool_call_id": "c"},
            r"item 1: unknown key\(s\) \['tool_call_id'\]",
        ),
        ({"role": "tool", "content": "r"}, "item 1: a tool message must follow|item 1: a tool message needs"),
        ({"role": "user", "content": None}, "item 1: content must be a string or a list"),
        (
            {"role": "assistant", "content": None, "function_call": {"name": "f"}},
            r"item 1: function_call \(the legacy one-call form\) is not read; use tool_calls",
        ),
    ],
)
def test_malformed_openai_messages_name_the_message_and_the_field(message, error):
    with pytest.raises(ValidationError, match=error):
        MultiTurnSample(user_input=[{"role": "user", "content": "hi"}, message])


def test_loader_errors_name_the_row_and_message(tmp_path: Path):
    bad = openai_conversation()
    bad[2]["tool_calls"][1]["function"]["arguments"] = '{"city": Oslo}'
    with pytest.raises(
        ConfigError, match=r"row 0: user_input: item 2: tool_calls\[1\]: function.arguments is not"
    ):
        EvaluationDataset.from_list([{"user_input": bad}])
    table = tmp_path / "bad.csv"
    with table.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["user_input"], [json.dumps(bad)]])
    with pytest.raises(
        ConfigError, match=r"bad.csv row 2: user_input: item 2: tool_calls\[1\]: function.arguments"
    ):
        EvaluationDataset.from_csv(table)
