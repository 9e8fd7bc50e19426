"""Samples and EvaluationDataset: strict types, exact round trips, legacy names, errors naming line/field."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage, messages_to_dict
from pydantic import ValidationError

from groundset.core.errors import ConfigError
from groundset.samples.testset import Testset, TestsetSample
from groundset.scoring import EvaluationDataset, MultiTurnSample, SingleTurnSample

NASTY = 'Commas, "quotes"\nnew line\r\nCRLF \u2028LS é 漢字 🙂 \\ back\\slash'


def full_sample(i: int = 0) -> SingleTurnSample:
    return SingleTurnSample(
        user_input=f"What does rate() compute? {i}",
        retrieved_contexts=[NASTY, "rate() computes the per-second average rate."],
        retrieved_context_ids=["c-9", "c-1"],
        reference_contexts=["rate() computes the per-second average rate."],
        reference_context_ids=["c-1"],
        response="The per-second rate.",
        multi_responses=["a", "b"],
        reference="The per-second average rate of increase.",
        rubrics={"score1": "wrong", "score5": "exact"},
        metadata={"id": f"s-{i}", "nested": {"k": [1, 2.5, None]}},
    )


def conversation() -> list:
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


def multi_sample() -> MultiTurnSample:
    return MultiTurnSample(
        user_input=conversation(),
        reference="The flight is booked.",
        reference_tool_calls=[{"name": "search_flights", "args": {"to": "OSL", "day": "fri"}}],
        reference_topics=["travel"],
        metadata={"id": "m-1"},
    )


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# Samples.


def test_contexts_as_a_string_is_an_error_not_a_list_of_characters():
    with pytest.raises(
        ValidationError, match=r"retrieved_contexts\n.*must be a list of strings, got a string"
    ):
        SingleTurnSample(retrieved_contexts="Paris is the capital of France.")
    with pytest.raises(ValidationError, match="wrap it in"):
        SingleTurnSample(reference_contexts="one context")
    with pytest.raises(ValidationError, match="item 1 is a number"):
        SingleTurnSample(retrieved_context_ids=["c-1", 2])


def test_no_silent_coercion_and_no_unknown_fields():
    with pytest.raises(ValidationError, match="response\n.*must be a string, got a number"):
        SingleTurnSample(response=42)
    with pytest.raises(ValidationError, match="rubrics"):
        SingleTurnSample(rubrics={"score1": 1})
    with pytest.raises(ValidationError, match="questoin"):
        SingleTurnSample(questoin="typo")
    sample = SingleTurnSample(user_input="q")
    with pytest.raises(ValidationError):  # assignment is validated too
        sample.response = 3  # type: ignore[assignment]
    assert SingleTurnSample().present_fields() == set()
    assert sample.present_fields() == {"user_input"}


def test_multi_turn_messages_keep_types_tool_calls_and_ids():
    sample = multi_sample()
    data = sample.to_dict()
    assert [m["type"] for m in data["user_input"]] == ["system", "human", "ai", "tool", "tool", "ai"]
    assert data["user_input"][2]["tool_calls"][1] == {
        "name": "get_weather",
        "args": {"city": "Oslo"},
        "id": "call-2",
    }
    assert data["user_input"][3] == {
        "type": "tool",
        "content": '[{"flight": "SK 123"}]',
        "tool_call_id": "call-1",
    }
    back = MultiTurnSample.model_validate(json.loads(json.dumps(data)))
    assert back == sample
    assert [type(m) for m in back.user_input] == [type(m) for m in conversation()]
    assert back.user_input[2].tool_calls[0]["args"] == {"to": "OSL", "day": "fri"}
    # LangChain's own messages_to_dict form and its ToolCall dicts (with id and type) are read too.
    langchain_form = MultiTurnSample(
        user_input=messages_to_dict(conversation()),
        reference_tool_calls=[
            {"name": "search_flights", "args": {"to": "OSL"}, "id": "x", "type": "tool_call"}
        ],
    )
    assert langchain_form.user_input == sample.user_input
    assert langchain_form.reference_tool_calls == [{"name": "search_flights", "args": {"to": "OSL"}}]


@pytest.mark.parametrize(
    ("messages", "error"),
    [
        ([{"type": "tool", "content": "r", "tool_call_id": "c"}], "item 0: a tool message must follow"),
        ([{"type": "robot", "content": "hi"}], "item 0: type must be one of human, ai, tool, system"),
        ([{"type": "human", "content": "hi", "tool_call_id": "x"}], r"unknown key\(s\) \['tool_call_id'\]"),
        ([{"type": "human", "content": 5}], "content must be a string"),
        ([{"type": "human", "content": "q"}, {"type": "tool", "content": "r"}], "item 1"),
        ([], "non-empty list of messages"),
        ("hello", "non-empty list of messages, got a string"),
        (["q1", "q2"], "got a list of strings"),
    ],
)
def test_malformed_conversations_are_rejected(messages, error):
    with pytest.raises(ValidationError, match=error):
        MultiTurnSample(user_input=messages)


# Datasets in memory.


def test_list_round_trip_is_exact_and_omits_unset_fields():
    dataset = EvaluationDataset([full_sample(0), SingleTurnSample(user_input="only a question")])
    rows = dataset.to_list()
    assert rows[1] == {"user_input": "only a question"}
    assert EvaluationDataset.from_list(rows) == dataset
    assert EvaluationDataset.from_list(json.loads(json.dumps(rows))) == dataset
    assert len(dataset) == 2 and list(dataset) == dataset.samples
    assert dataset[1].user_input == "only a question"
    assert isinstance(dataset[:1], EvaluationDataset) and len(dataset[:1]) == 1
    assert not dataset.is_multi_turn and dataset.sample_type is SingleTurnSample


def test_columns_and_missing_cover_the_whole_dataset():
    dataset = EvaluationDataset.from_list(
        [
            {"user_input": "a", "response": "x", "retrieved_contexts": ["c"]},
            {"user_input": "b", "retrieved_contexts": []},
            {"user_input": "c", "response": "z", "metadata": {"k": 1}},
        ]
    )
    assert dataset.columns() == {"user_input", "response", "retrieved_contexts"}
    assert dataset.missing("response") == [1]
    assert dataset.missing("retrieved_contexts") == [2]  # an empty list is present, not missing
    assert dataset.missing("reference") == [0, 1, 2]
    assert dataset.missing("user_input") == []
    with pytest.raises(ValueError, match=r"unknown column 'contexts'; valid columns: .*retrieved_contexts"):
        dataset.missing("contexts")
    with pytest.raises(ValueError, match="unknown column 'metadata'"):
        dataset.missing("metadata")


def test_mixing_single_and_multi_turn_is_an_error():
    with pytest.raises(ValueError, match="sample 1 is MultiTurnSample"):
        EvaluationDataset([full_sample(), multi_sample()])
    rows = [{"user_input": "q"}, {"user_input": "q2"}, multi_sample().to_dict()]
    with pytest.raises(ConfigError, match="^row 2: a multi-turn sample, but row 0 is single-turn"):
        EvaluationDataset.from_list(rows)
    with pytest.raises(TypeError, match="sample 0 is dict"):
        EvaluationDataset([{"user_input": "q"}])  # type: ignore[list-item]


def test_list_rows_errors_name_the_row_and_field():
    with pytest.raises(
        ConfigError, match="^row 3: retrieved_contexts: must be a list of strings, got a string"
    ):
        EvaluationDataset.from_list([{"user_input": "q"}] * 3 + [{"retrieved_contexts": "text"}])
    with pytest.raises(ConfigError, match=r"^row 0: unknown field 'respons', did you mean 'response'\?"):
        EvaluationDataset.from_list([{"respons": "typo"}])
    with pytest.raises(
        ConfigError, match="^row 1: expected an object with the sample's fields, got a string"
    ):
        EvaluationDataset.from_list([{"user_input": "q"}, "q"])  # type: ignore[list-item]


def test_legacy_names_are_mapped_with_one_notice_per_load(caplog):
    rows = [
        {"question": "q1", "answer": "a1", "contexts": ["c1"], "ground_truth": "r1"},
        {"question": "q2", "answer": "a2", "contexts": ["c2"], "ground_truths": ["r2", "r3"]},
        {"question": "q3"},
    ]
    with caplog.at_level(logging.INFO, logger="groundset.samples.dataset"):
        dataset = EvaluationDataset.from_list(rows)
    notices = [r for r in caplog.records if r.name == "groundset.samples.dataset"]
    assert len(notices) == 1
    message = notices[0].getMessage()
    for rename in ("question -> user_input", "answer -> response", "contexts -> retrieved_contexts"):
        assert rename in message
    assert "ground_truth -> reference" in message and "ground_truths -> reference" in message
    assert dataset[0] == SingleTurnSample(
        user_input="q1", response="a1", retrieved_contexts=["c1"], reference="r1"
    )
    assert dataset[1].reference == "r2\nr3"
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="groundset.samples.dataset"):
        EvaluationDataset.from_list([{"user_input": "q"}])
    assert not caplog.records  # current names: no notice


@pytest.mark.parametrize(
    ("row", "error"),
    [
        ({"question": "q", "user_input": "q"}, "'user_input' and 'question' are both given"),
        ({"ground_truth": "a", "ground_truths": ["b"]}, "'ground_truth' and 'ground_truths' are both given"),
        ({"contexts": "one string"}, "contexts \\(read as retrieved_contexts\\): must be a list of strings"),
        ({"ground_truths": "one string"}, "ground_truths: must be a list of strings, got a string"),
    ],
)
def test_legacy_name_conflicts_and_type_errors_name_the_name_used(row, error):
    with pytest.raises(ConfigError, match=f"^row 1: {error}"):
        EvaluationDataset.from_list([{"question": "fine"}, row])


# Files.


def test_jsonl_round_trip_is_exact(tmp_path):
    dataset = EvaluationDataset([full_sample(i) for i in range(3)])
    path = tmp_path / "out" / "data.jsonl"
    dataset.to_jsonl(path)
    assert path.read_text(encoding="utf-8").count("\n") == 3
    assert EvaluationDataset.from_jsonl(path) == dataset


def test_multi_turn_jsonl_round_trip(tmp_path):
    dataset = EvaluationDataset([multi_sample(), MultiTurnSample(user_input=[HumanMessage("hi")])])
    dataset.to_jsonl(tmp_path / "chat.jsonl")
    back = EvaluationDataset.from_jsonl(tmp_path / "chat.jsonl")
    assert back == dataset and back.is_multi_turn
    assert back.columns() == {"user_input", "reference", "reference_tool_calls", "reference_topics"}
    assert back.missing("reference_tool_calls") == [1]


def test_jsonl_errors_name_the_line_and_field(tmp_path):
    good = json.dumps({"user_input": "q", "retrieved_contexts": ["c"]})
    bad_type = json.dumps({"user_input": "q", "retrieved_contexts": "c"})
    path = write_lines(tmp_path / "data.jsonl", [good, "", good, bad_type, good])
    with pytest.raises(
        ConfigError, match="data.jsonl line 4: retrieved_contexts: must be a list of strings, got a string"
    ):
        EvaluationDataset.from_jsonl(path)
    path = write_lines(tmp_path / "data.jsonl", [good] * 6 + ['{"user_input": "q",', good])
    with pytest.raises(ConfigError, match=r"data.jsonl line 7: not valid JSON \(.*column"):
        EvaluationDataset.from_jsonl(path)
    path = write_lines(tmp_path / "data.jsonl", [good, json.dumps({"user_input": "q", "respnse": "a"})])
    with pytest.raises(
        ConfigError, match=r"data.jsonl line 2: unknown field 'respnse', did you mean 'response'\?"
    ):
        EvaluationDataset.from_jsonl(path)
    with pytest.raises(ConfigError, match="cannot read the dataset"):
        EvaluationDataset.from_jsonl(tmp_path / "absent.jsonl")


def test_failed_write_leaves_the_previous_file(tmp_path):
    path = tmp_path / "data.jsonl"
    EvaluationDataset([full_sample()]).to_jsonl(path)
    before = path.read_bytes()
    broken = EvaluationDataset([full_sample(), SingleTurnSample(metadata={"handle": object()})])
    with pytest.raises(ValueError, match="sample 1 cannot be written as JSON"):
        broken.to_jsonl(path)
    assert path.read_bytes() == before
    assert list(tmp_path.iterdir()) == [path]  # no temp file left behind


def make_testset() -> Testset:
    samples = [
        TestsetSample.create(
            user_input=f"How does rate() treat counter resets? {i}",
            reference="It detects them and adjusts.",
            reference_contexts=["rate() handles counter resets.", NASTY],
            reference_context_ids=["c-1", "c-2"],
            source_documents=["docs/rate.md", "docs/rate.md", "docs/counters.md"],
            synthesizer="multi_hop_specific",
            persona="SRE",
            style="web_search",
            length="short",
            terms=["rate()"],
        )
        for i in range(2)
    ]
    return Testset(samples, {"seed": 7})


def test_from_testset_and_testset_files_are_recognised(tmp_path):
    testset = make_testset()
    dataset = EvaluationDataset.from_testset(testset)
    first, item = dataset[0], testset[0]
    assert first.user_input == item.user_input and first.reference == item.reference
    assert first.reference_contexts == item.reference_contexts and first.reference_context_ids == [
        "c-1",
        "c-2",
    ]
    assert first.metadata == {
        "id": item.id,
        "synthesizer": "multi_hop_specific",
        "persona": "SRE",
        "style": "web_search",
        "length": "short",
        "source_documents": ["docs/rate.md", "docs/counters.md"],
    }
    assert first.response is None and dataset.missing("response") == [0, 1]
    testset.to_jsonl(tmp_path / "testset.jsonl")
    assert EvaluationDataset.from_jsonl(tmp_path / "testset.jsonl") == dataset
    testset.to_csv(tmp_path / "testset.csv")
    assert EvaluationDataset.from_csv(tmp_path / "testset.csv") == dataset
    # Without its header line, a testset file is still recognised by its id and synthesizer fields.
    lines = (tmp_path / "testset.jsonl").read_text(encoding="utf-8").split("\n")[1:-1]
    assert EvaluationDataset.from_jsonl(write_lines(tmp_path / "plain.jsonl", lines)) == dataset


def write_csv(path: Path, rows: list[list[str]]) -> Path:
    import csv

    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


def test_csv_reads_json_cells_and_empty_cells_as_none(tmp_path):
    header = ["question", "contexts", "answer", "reference", "rubrics"]
    path = write_csv(
        tmp_path / "data.csv",
        [
            header,
            ["What is [x]?", json.dumps([NASTY, "b"]), "yes", "", json.dumps({"s1": "bad"})],
            ["Second", "[]", "", "the ref", ""],
        ],
    )
    dataset = EvaluationDataset.from_csv(path)
    assert dataset.to_list() == [
        {
            "user_input": "What is [x]?",
            "retrieved_contexts": [NASTY, "b"],
            "response": "yes",
            "rubrics": {"s1": "bad"},
        },
        {"user_input": "Second", "retrieved_contexts": [], "reference": "the ref"},
    ]
    chat = json.dumps([{"type": "human", "content": "hi"}])
    path = write_csv(tmp_path / "chat.csv", [["user_input", "reference_topics"], [chat, '["greeting"]']])
    assert EvaluationDataset.from_csv(path)[0] == MultiTurnSample(
        user_input=[HumanMessage("hi")], reference_topics=["greeting"]
    )


@pytest.mark.parametrize(
    ("rows", "error"),
    [
        (
            [["user_input", "retrieved_contexts"], ["q", "[]"], ["q", "plain text"]],
            "row 3: retrieved_contexts: not valid JSON",
        ),
        (
            [["user_input", "retrieved_contexts"], ["q", '"one string"']],
            "row 2: retrieved_contexts: must be a list of strings, got a string",
        ),
        ([["user_input", "referense"], ["q", "1"]], r"row 1: unknown field 'referense', did you mean"),
        ([["user_input", "response"], ["q", "a", "extra"]], "row 2: expected 2 cells, found 3"),
    ],
)
def test_csv_errors_name_the_row_and_field(tmp_path, rows, error):
    with pytest.raises(ConfigError, match="data.csv " + error):
        EvaluationDataset.from_csv(write_csv(tmp_path / "data.csv", rows))


def test_pandas_round_trip(tmp_path):
    pd = pytest.importorskip("pandas")
    dataset = EvaluationDataset([full_sample(0), SingleTurnSample(user_input="only", response="r")])
    frame = dataset.to_pandas()
    unset = ("history", "expected_behaviour")  # no sample has them: no column
    assert list(frame.columns) == [f for f in SingleTurnSample.model_fields if f not in unset]
    assert EvaluationDataset.from_pandas(frame) == dataset
    chats = EvaluationDataset([multi_sample()])
    assert EvaluationDataset.from_pandas(chats.to_pandas()) == chats
    # A CSV read back with pandas holds list cells as JSON text and empty cells as NaN.
    write_csv(tmp_path / "d.csv", [["question", "contexts", "answer"], ["q", '["c1", "c2"]', ""]])
    loaded = EvaluationDataset.from_pandas(pd.read_csv(tmp_path / "d.csv"))
    assert loaded.to_list() == [{"user_input": "q", "retrieved_contexts": ["c1", "c2"]}]
    with pytest.raises(ConfigError, match="DataFrame row 0: response: must be a string, got a number"):
        EvaluationDataset.from_pandas(pd.DataFrame({"user_input": ["q"], "response": [3]}))


def test_without_pandas_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # makes `import pandas` raise ImportError
    with pytest.raises(ImportError, match=r"pip install 'groundset\[pandas\]'"):
        EvaluationDataset([full_sample()]).to_pandas()
    with pytest.raises(ImportError, match="from_pandas"):
        EvaluationDataset.from_pandas(object())  # type: ignore[arg-type]


def test_testset_to_evaluation_dataset(tmp_path):
    from groundset.synthesizers import Testset, TestsetSample

    sample = TestsetSample.create(
        user_input="How long are blocks kept?",
        reference="Blocks are kept for 15 days.",
        reference_contexts=["Blocks are kept for 15 days by default."],
        reference_context_ids=["chunk-1"],
        source_documents=["storage.md"],
        synthesizer="single_hop_specific",
    )
    dataset = Testset([sample]).to_evaluation_dataset()
    (row,) = list(dataset)
    assert row.user_input == sample.user_input and row.reference_context_ids == ["chunk-1"]
    assert row.response is None and row.metadata["id"] == sample.id
    assert dataset.missing("response") == [0]
