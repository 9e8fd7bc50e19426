"""A user's own columns travel with their rows: kept in metadata, written back, typos still caught."""

from __future__ import annotations

import csv
import json
import logging
import math
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from groundset.core.errors import ConfigError
from groundset.samples.testset import Testset, TestsetSample
from groundset.scoring import EvaluationDataset, MultiTurnSample, SingleTurnSample
from groundset.scoring.result import Cell, EvaluationResult

LOGGER = "groundset.samples.dataset"
ROWS = [
    {"user_input": "q1", "response": "a1", "label": 1, "ticket_id": "T-1"},
    {"user_input": "q2", "response": "a2", "label": {"nested": [1, None]}, "ticket_id": "T-2"},
    {"user_input": "q3", "metadata": {"mine": True}, "ticket_id": "T-3"},
]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def write_csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


def notices(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == LOGGER]


def test_jsonl_columns_are_kept_with_one_notice_and_written_back(tmp_path, caplog):
    source = write_jsonl(tmp_path / "data.jsonl", ROWS)
    with caplog.at_level(logging.INFO, logger=LOGGER):
        dataset = EvaluationDataset.from_jsonl(source)
    assert notices(caplog) == [
        f"{source}: kept 2 column(s) groundset does not use (label, ticket_id) in each sample's metadata; "
        "they are written back to run files and to_pandas()"
    ]
    assert dataset.extra_columns == ["label", "ticket_id"]
    assert dataset[0].metadata == {"label": 1, "ticket_id": "T-1"}
    assert dataset[2].metadata == {"mine": True, "ticket_id": "T-3"}
    assert dataset[0].present_fields() == {"user_input", "response"}  # metrics do not see them
    out = tmp_path / "out.jsonl"
    dataset.to_jsonl(out)
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert written == ROWS  # dict equality: the same content, key order aside
    assert "metadata" not in written[0]  # not inside metadata a second time
    assert dataset.to_list() == ROWS
    assert EvaluationDataset.from_jsonl(out) == dataset


def test_to_pandas_has_the_columns_and_missing_cells_are_nan():
    pd = pytest.importorskip("pandas")
    frame = EvaluationDataset.from_list(ROWS).to_pandas()
    assert list(frame.columns) == ["user_input", "response", "metadata", "label", "ticket_id"]
    assert list(frame["ticket_id"]) == ["T-1", "T-2", "T-3"]
    assert frame["label"][0] == 1 and pd.isna(frame["label"][2])
    assert EvaluationDataset.from_pandas(frame) == EvaluationDataset.from_list(ROWS)


def test_a_file_without_own_columns_gives_no_notice(tmp_path, caplog):
    source = write_jsonl(tmp_path / "data.jsonl", [{"user_input": "q", "metadata": {"label": 1}}])
    with caplog.at_level(logging.INFO, logger=LOGGER):
        dataset = EvaluationDataset.from_jsonl(source)
    assert notices(caplog) == []
    assert dataset.extra_columns == []
    assert dataset.to_list() == [{"user_input": "q", "metadata": {"label": 1}}]  # stays in metadata
    assert EvaluationDataset().extra_columns == []


def test_from_list_round_trip_and_notify_false(caplog):
    with caplog.at_level(logging.INFO, logger=LOGGER):
        dataset = EvaluationDataset.from_list(ROWS)
        assert len(notices(caplog)) == 1 and notices(caplog)[0].startswith("rows: kept 2 column(s)")
        caplog.clear()
        again = EvaluationDataset.from_list(dataset.to_list(), notify=False)
        legacy = EvaluationDataset.from_list([{"question": "q", "label": 1}], notify=False)
    assert notices(caplog) == []
    assert again == dataset and again.extra_columns == ["label", "ticket_id"]
    assert legacy[0] == SingleTurnSample(user_input="q", metadata={"label": 1})
    # Equality includes the extra columns: the same samples without them are another dataset.
    assert EvaluationDataset(dataset.samples) != dataset
    assert EvaluationDataset(dataset.samples, extra_columns=["ticket_id", "label"]) == dataset


def test_csv_columns_stay_strings_and_reach_pandas(tmp_path, caplog):
    pytest.importorskip("pandas")
    rows = [
        ["user_input", "label", "retrieved_contexts", "note"],
        ["q1", "1", '["c"]', "line one\nline two, with comma"],
        ["q2", "", "[]", "plain"],
    ]
    source = write_csv(tmp_path / "data.csv", rows)
    with caplog.at_level(logging.INFO, logger=LOGGER):
        dataset = EvaluationDataset.from_csv(source)
    assert len(notices(caplog)) == 1 and "(label, note)" in notices(caplog)[0]
    assert dataset.extra_columns == ["label", "note"]
    assert dataset[0].metadata == {"label": "1", "note": "line one\nline two, with comma"}
    assert dataset[1].metadata == {"note": "plain"}  # an empty cell is absent, as for any column
    frame = dataset.to_pandas()
    assert frame["label"][0] == "1" and math.isnan(frame["label"][1])
    assert frame["note"][0] == "line one\nline two, with comma"
    assert EvaluationDataset.from_pandas(frame) == dataset


def test_dataframe_round_trip(caplog):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"user_input": ["q1", "q2"], "label": [1, 0], "team": ["a", "b"]})
    with caplog.at_level(logging.INFO, logger=LOGGER):
        dataset = EvaluationDataset.from_pandas(frame)
    assert notices(caplog) == [
        "DataFrame: kept 2 column(s) groundset does not use (label, team) in each sample's metadata; "
        "they are written back to run files and to_pandas()"
    ]
    assert dataset[0].metadata == {"label": 1, "team": "a"} and type(dataset[0].metadata["label"]) is int
    back = dataset.to_pandas()
    assert list(back.columns) == ["user_input", "label", "team"]
    assert back.to_dict(orient="records") == frame.to_dict(orient="records")


@pytest.mark.parametrize(
    "name",
    ["label", "ticket_id", "team", "source", "category", "priority", "expected_outcome", "notes"]
    + ["difficulty", "id", "score", "comments", "response_id", "question_id", "answered", "referee"],
)
def test_own_names_are_kept(name):
    dataset = EvaluationDataset.from_list([{"user_input": "q", name: "x"}], notify=False)
    assert dataset.extra_columns == [name] and dataset[0].metadata == {name: "x"}


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("retrieved_context", "retrieved_contexts"),
        ("user_inptu", "user_input"),
        ("referense", "reference"),
        ("respons", "response"),
        ("retreived_contexts", "retrieved_contexts"),
        ("reference_context_id", "reference_context_ids"),
        ("User_Input", "user_input"),
        ("Question", "question"),
        ("metdata", "metadata"),
    ],
)
def test_a_near_miss_of_a_known_field_is_an_error(name, known):
    with pytest.raises(ConfigError, match=rf"^row 0: unknown field '{name}', did you mean '{known}'\?"):
        EvaluationDataset.from_list(
            [{"user_input": "q", name: "x"}] if name != "User_Input" else [{name: "q"}]
        )


def test_typos_are_caught_in_files_too(tmp_path):
    source = write_jsonl(
        tmp_path / "data.jsonl", [{"user_input": "q"}, {"user_input": "q", "referense": "r"}]
    )
    with pytest.raises(ConfigError, match=r"data.jsonl line 2: unknown field 'referense', did you mean"):
        EvaluationDataset.from_jsonl(source)
    source = write_csv(tmp_path / "data.csv", [["user_input", "contxts"], ["q", "[]"]])
    with pytest.raises(
        ConfigError, match=r"data.csv row 1: unknown field 'contxts', did you mean 'contexts'"
    ):
        EvaluationDataset.from_csv(source)
    pd = pytest.importorskip("pandas")
    with pytest.raises(ConfigError, match=r"DataFrame row 0: unknown field 'respose'"):
        EvaluationDataset.from_pandas(pd.DataFrame({"user_input": ["q"], "respose": ["a"]}))


def test_a_name_in_metadata_and_at_the_top_level_is_an_error(tmp_path):
    rows = [{"user_input": "q"}, {"user_input": "q", "label": 2, "metadata": {"label": 1}}]
    with pytest.raises(ConfigError, match=r"data.jsonl line 2: 'label' is given both as a field and inside"):
        EvaluationDataset.from_jsonl(write_jsonl(tmp_path / "data.jsonl", rows))
    source = write_csv(
        tmp_path / "data.csv", [["user_input", "metadata", "label"], ["q", '{"label": 1}', "2"]]
    )
    with pytest.raises(ConfigError, match=r"data.csv row 2: 'label' is given both"):
        EvaluationDataset.from_csv(source)


def test_other_errors_still_win():
    with pytest.raises(ConfigError, match="row 0: field and column names must be non-empty strings"):
        EvaluationDataset.from_list([{"user_input": "q", "": 1}])
    with pytest.raises(ConfigError, match="row 0: metadata: must be an object"):
        EvaluationDataset.from_list([{"user_input": "q", "label": 1, "metadata": "text"}])
    chat = [{"type": "human", "content": "hi"}]
    with pytest.raises(ConfigError, match=r"row 0: unknown field\(s\) response; valid fields"):
        EvaluationDataset.from_list([{"user_input": chat, "response": "single-turn only"}])
    with pytest.raises(ValueError, match="'response' is not a column of your own"):
        EvaluationDataset([], extra_columns=["response"])


def test_slicing_keeps_extra_columns():
    dataset = EvaluationDataset.from_list(ROWS, notify=False)
    assert dataset[1:].extra_columns == ["label", "ticket_id"]
    assert dataset[2:].to_list() == [ROWS[2]]
    assert "extra_columns=['label', 'ticket_id']" in repr(dataset)


def test_multi_turn_rows_keep_columns_too(tmp_path):
    rows = [
        {"user_input": [{"type": "human", "content": "hi"}], "reference_topics": ["greeting"], "label": 1},
        {"user_input": [{"type": "human", "content": "bye"}], "session": "s-2"},
    ]
    dataset = EvaluationDataset.from_jsonl(write_jsonl(tmp_path / "chat.jsonl", rows))
    assert dataset.is_multi_turn and dataset.extra_columns == ["label", "session"]
    assert dataset[0] == MultiTurnSample(
        user_input=[HumanMessage("hi")], reference_topics=["greeting"], metadata={"label": 1}
    )
    assert dataset.to_list() == rows


def test_a_testset_has_no_extra_columns(tmp_path, caplog):
    item = TestsetSample(
        id="s-1",
        synthesizer="single_hop",
        user_input="q",
        reference="r",
        reference_contexts=["c"],
        reference_context_ids=["c1"],
        source_documents=["a.md"],
    )
    Testset([item]).to_jsonl(tmp_path / "testset.jsonl")
    Testset([item]).to_csv(tmp_path / "testset.csv")
    with caplog.at_level(logging.INFO, logger=LOGGER):
        dataset = EvaluationDataset.from_jsonl(tmp_path / "testset.jsonl")
        assert EvaluationDataset.from_csv(tmp_path / "testset.csv") == dataset
    assert notices(caplog) == [] and dataset.extra_columns == []
    assert dataset[0].metadata["id"] == "s-1" and dataset[0].metadata["synthesizer"] == "single_hop"
    assert dataset.to_list()[0]["metadata"]["id"] == "s-1"  # generation details stay in metadata


def test_run_files_carry_the_columns(tmp_path):
    dataset = EvaluationDataset.from_list(ROWS, notify=False)
    result = EvaluationResult(dataset, ["m"], [{"m": Cell(float(i))} for i in range(3)])
    result.to_jsonl(tmp_path / "run.jsonl")
    records = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()[1:]]
    assert [record["sample"] for record in records] == ROWS
    loaded = EvaluationResult.load(tmp_path / "run.jsonl")
    assert loaded.dataset == dataset and loaded.dataset.extra_columns == ["label", "ticket_id"]
    pytest.importorskip("pandas")
    assert list(loaded.to_pandas()["ticket_id"]) == ["T-1", "T-2", "T-3"]
