"""Testset and TestsetSample: stable ids, validation, exact and atomic JSONL / CSV / pandas round trips."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from groundset import __version__
from groundset.core.errors import ConfigError
from groundset.samples import testset as testset_module
from groundset.samples.testset import Testset, TestsetSample

NASTY = "Commas, \"quotes\", 'single'\nnew line\r\nCRLF\rCR\ttab \u2028LS \x85NEL é 漢字 🙂 \\ back\\slash ,,"


def sample(question: str = "What does rate() compute?", **overrides) -> TestsetSample:
    fields = {
        "user_input": question,
        "reference": "The per-second average rate of increase.",
        "reference_contexts": ["rate() computes the per-second average rate.", "Use it on counters."],
        "reference_context_ids": ["c-1", "c-2"],
        "source_documents": ["docs/a.md", "docs/b.md", "docs/a.md"],
        "synthesizer": "multi_hop_specific",
        "persona": "SRE",
        "style": "web_search",
        "length": "short",
        "terms": ["rate()", "counter"],
        "graph_fingerprint": "g-123",
        "generator_model": "offline",
    }
    fields.update(overrides)
    return TestsetSample.create(**fields)


def make_testset(n: int = 3) -> Testset:
    synthesizers = ["single_hop_specific", "multi_hop_abstract", "single_hop_specific", "multi_hop_specific"]
    samples = [sample(f"Question {i}?", synthesizer=synthesizers[i % 4]) for i in range(n)]
    return Testset(samples, {"seed": 7, "models": {"llm": "offline"}, "rejections": {"unsupported": 2}})


def test_id_is_stable_and_depends_on_contexts_and_question():
    a, b = sample(), sample(reference="another answer", persona="Dev")
    assert a.id == b.id == TestsetSample.make_id(a.reference_contexts, a.user_input)
    assert a.id.startswith("s-") and len(a.id) == 18
    assert sample("What does rate() compute ?").id != a.id
    changed = ["rate() computes the per-second average rate.", "Use it on gauges."]
    assert sample(reference_contexts=changed).id != a.id
    assert sample(reference_contexts=list(reversed(a.reference_contexts))).id != a.id
    # The boundary between contexts matters: ["ab", "c"] is not ["a", "bc"].
    assert TestsetSample.make_id(["ab", "c"], "q") != TestsetSample.make_id(["a", "bc"], "q")


def test_create_dedupes_source_documents_in_first_seen_order():
    s = sample()
    assert s.source_documents == ["docs/a.md", "docs/b.md"]
    assert s.groundset_version == __version__
    assert hash(s) == hash(sample())


@pytest.mark.parametrize("question", ["", "   \n"])
def test_empty_question_is_rejected(question):
    with pytest.raises(ValidationError, match="user_input"):
        sample(question)


def test_context_id_length_mismatch_names_both_fields():
    with pytest.raises(ValidationError) as info:
        sample(reference_context_ids=["c-1"])
    assert "reference_context_ids" in str(info.value) and "reference_contexts" in str(info.value)


def test_other_validation_errors():
    with pytest.raises(ValidationError, match="reference_contexts must not be empty"):
        sample(reference_contexts=[], reference_context_ids=[])
    with pytest.raises(ValidationError, match=r"empty context\(s\) at \[1\]"):
        sample(reference_contexts=["ok", " "])
    with pytest.raises(ValidationError, match="extra"):
        TestsetSample.model_validate({**sample().model_dump(), "answer": "x"})
    with pytest.raises(ValidationError, match="repeat"):
        TestsetSample.model_validate({**sample().model_dump(), "source_documents": ["a", "a"]})
    with pytest.raises(ValidationError, match="frozen"):
        sample().user_input = "changed"  # type: ignore[misc]


def test_container_protocol_equality_and_counts():
    ts = make_testset(4)
    assert len(ts) == 4 and [s.user_input for s in ts] == [f"Question {i}?" for i in range(4)]
    assert ts[1].user_input == "Question 1?" and ts[-1].user_input == "Question 3?"
    head = ts[:2]
    assert isinstance(head, Testset) and len(head) == 2 and head.metadata == ts.metadata
    assert ts == make_testset(4) and ts != head and ts != make_testset(3)
    assert ts != Testset(ts.samples, {"seed": 8})
    assert ts.counts("synthesizer") == {
        "single_hop_specific": 2,
        "multi_hop_abstract": 1,
        "multi_hop_specific": 1,
    }
    assert list(ts.counts("synthesizer")) == [
        "single_hop_specific",
        "multi_hop_abstract",
        "multi_hop_specific",
    ]
    assert ts.counts("source_documents") == {"docs/a.md": 4, "docs/b.md": 4}
    with pytest.raises(ValueError, match="unknown field 'nope'"):
        ts.counts("nope")
    dicts = ts.to_dicts()
    assert list(dicts[0]) == list(TestsetSample.model_fields) and dicts[0]["id"] == ts[0].id


def test_testset_rejects_duplicate_ids_and_non_json_metadata():
    with pytest.raises(ValueError, match="duplicate sample id"):
        Testset([sample(), sample(persona="other")])
    with pytest.raises(ValueError, match="JSON data"):
        Testset([], {"when": object()})
    with pytest.raises(ValueError, match="JSON data"):
        Testset([], {"score": float("nan")})


def test_jsonl_round_trip_is_exact_and_byte_identical(tmp_path: Path):
    ts = Testset(
        [
            sample(NASTY),
            sample("Q2?", reference=NASTY, reference_contexts=[NASTY], reference_context_ids=["c"]),
        ],
        {"seed": 3, "b": [1, 2], "a": {"z": 1, "y": "é"}},
    )
    ts.metadata["aa"] = "added after construction"  # the header is still written with sorted keys
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    ts.to_jsonl(first)
    loaded = Testset.from_jsonl(first)
    assert loaded == ts and loaded.metadata == ts.metadata and loaded.samples == ts.samples
    loaded.to_jsonl(second)
    assert first.read_bytes() == second.read_bytes()
    text = first.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert len(lines) == 4 and lines[-1] == ""  # header, 2 samples, final newline
    assert json.loads(lines[0]) == {"_groundset_testset": 1, "metadata": ts.metadata}
    assert lines[0].index('"a"') < lines[0].index('"aa"') < lines[0].index('"b"') < lines[0].index('"seed"')
    # model field order; review and question-kind fields only once set, so older files and plain samples
    # stay as they were
    optional = ("reviewed", "review_note", "edited", "tags", "expected_behaviour", "history")
    optional += ("distractor_contexts",)
    unset_review = [f for f in TestsetSample.model_fields if f not in (*optional, "distractor_context_ids")]
    assert list(json.loads(lines[1])) == unset_review
    assert "漢字" in text and "\x00" not in text


def test_headerless_jsonl_with_blank_lines_and_bom_is_accepted(tmp_path: Path):
    ts = make_testset(2)
    path = tmp_path / "plain.jsonl"
    body = "\n\n".join(json.dumps(d) for d in ts.to_dicts())
    path.write_bytes(b"\xef\xbb\xbf" + (body + "\n  \n").encode("utf-8"))
    loaded = Testset.from_jsonl(path)
    assert loaded.samples == ts.samples and loaded.metadata == {}


def _write_lines(path: Path, records: list[dict | str]) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n", "utf-8")
    return path


def test_from_jsonl_errors_name_file_line_and_field(tmp_path: Path):
    header = {"_groundset_testset": 1, "metadata": {}}
    good = make_testset(3).to_dicts()
    missing = {k: v for k, v in good[1].items() if k != "reference_context_ids"}
    path = _write_lines(tmp_path / "testset.jsonl", [header, good[0], "", missing])
    with pytest.raises(ConfigError, match=r"testset\.jsonl line 4: reference_context_ids: Field required"):
        Testset.from_jsonl(path)

    _write_lines(path, [header, good[0], '{"user_input": "broken",'])
    with pytest.raises(ConfigError, match=r"testset\.jsonl line 3: not valid JSON"):
        Testset.from_jsonl(path)

    _write_lines(path, [good[0], good[1], "", good[2], good[1]])
    with pytest.raises(ConfigError, match=r"testset\.jsonl line 5: duplicate id '[^']+' \(first on line 2\)"):
        Testset.from_jsonl(path)

    _write_lines(path, [good[0], header])
    with pytest.raises(ConfigError, match="line 2: the testset header must be the first record"):
        Testset.from_jsonl(path)

    _write_lines(path, [{"_groundset_testset": 99, "metadata": {}}])
    with pytest.raises(ConfigError, match="line 1: unsupported testset format version 99"):
        Testset.from_jsonl(path)

    _write_lines(path, ["[1, 2]"])
    with pytest.raises(ConfigError, match="line 1: expected a JSON object, found list"):
        Testset.from_jsonl(path)

    _write_lines(path, [{**good[0], "reference_context_ids": ["only-one"]}])
    with pytest.raises(
        ConfigError, match="line 1: reference_context_ids has 1 item.*reference_contexts has 2"
    ):
        Testset.from_jsonl(path)

    path.write_bytes(b'{"id": "\xff"}\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        Testset.from_jsonl(path)
    with pytest.raises(ConfigError, match="cannot read the testset"):
        Testset.from_jsonl(tmp_path / "absent.jsonl")


def test_write_failure_on_second_sample_leaves_old_file_and_no_temp_files(tmp_path: Path, monkeypatch):
    path = tmp_path / "testset.jsonl"
    old = make_testset(1)
    old.to_jsonl(path)
    before = path.read_bytes()

    real_dumps, calls = testset_module._dumps, []

    def failing_dumps(value, **kwargs):
        calls.append(value)
        if len(calls) == 3:  # header, sample 1, then sample 2 fails
            raise RuntimeError("encoder exploded")
        return real_dumps(value, **kwargs)

    monkeypatch.setattr(testset_module, "_dumps", failing_dumps)
    with pytest.raises(RuntimeError, match="encoder exploded"):
        make_testset(3).to_jsonl(path)
    assert len(calls) == 3
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["testset.jsonl"]


def test_failure_while_replacing_leaves_old_file_and_no_temp_files(tmp_path: Path, monkeypatch):
    path = tmp_path / "testset.jsonl"
    make_testset(1).to_jsonl(path)
    before = path.read_bytes()

    def failing_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr("groundset.core.atomic.os.replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        make_testset(3).to_jsonl(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["testset.jsonl"]
    make_testset(3).to_jsonl(path)
    assert len(Testset.from_jsonl(path)) == 3


def test_csv_round_trip_with_nasty_text(tmp_path: Path):
    ts = Testset(
        [
            sample(NASTY, terms=[NASTY, "x,y"], persona="=SUM(A1)"),
            sample(
                "Q2?", reference=NASTY + "\x00nul", reference_contexts=[NASTY], reference_context_ids=["c"]
            ),
            sample("Q3?", terms=[], persona="", style=""),
        ],
        {"seed": 1, "note": NASTY},
    )
    path = tmp_path / "testset.csv"
    ts.to_csv(path)
    loaded = Testset.from_csv(path)
    assert loaded == ts and loaded.metadata == ts.metadata
    text = path.read_bytes().decode("utf-8")
    assert text.split("\r\n", 1)[0] == ",".join(TestsetSample.model_fields)
    first = path.read_bytes()
    loaded.to_csv(path)
    assert path.read_bytes() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["testset.csv", "testset.csv.meta.json"]


def test_csv_without_sidecar_and_csv_errors_name_rows(tmp_path: Path):
    path = tmp_path / "testset.csv"
    make_testset(2).to_csv(path)
    (tmp_path / "testset.csv.meta.json").unlink()
    assert Testset.from_csv(path).samples == make_testset(2).samples

    header, *rows = path.read_bytes().decode("utf-8").split("\r\n")
    columns = header.split(",")
    broken = rows[1].replace('"[""c-1"", ""c-2""]"', "[not json")
    assert broken != rows[1]
    path.write_text("\r\n".join([header, rows[0], broken]), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"testset\.csv row 3: reference_context_ids: not a JSON list"):
        Testset.from_csv(path)

    record = make_testset(1).to_dicts()[0]
    del record["reference"]
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(record)
    writer.writerow([json.dumps(v) if isinstance(v, list) else v for v in record.values()])
    path.write_text(buffer.getvalue(), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"row 2: .*reference: Field required"):
        Testset.from_csv(path)

    path.write_text(header + ",bogus\r\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"row 1: unknown column\(s\) \['bogus'\]"):
        Testset.from_csv(path)

    path.write_text("\r\n".join([header, rows[0], "a,b"]), encoding="utf-8")
    with pytest.raises(ConfigError, match=f"row 3: expected {len(columns)} cells, found 2"):
        Testset.from_csv(path)

    path.write_text("\r\n".join([header, rows[0], rows[0]]), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"testset\.csv row 3: duplicate id '[^']+' \(first on row 2\)"):
        Testset.from_csv(path)


def test_pandas_round_trip(tmp_path: Path):
    pytest.importorskip("pandas")
    ts = Testset([sample(NASTY), sample("Q2?", terms=[])], {"seed": 5, "models": {"llm": "x"}})
    frame = ts.to_pandas()
    assert list(frame.columns) == list(TestsetSample.model_fields) and len(frame) == 2
    assert frame.loc[0, "reference_contexts"] == ts[0].reference_contexts
    assert Testset.from_pandas(frame) == ts
    frame.attrs.clear()
    assert Testset.from_pandas(frame).samples == ts.samples
    path = tmp_path / "testset.csv"
    ts.to_csv(path)
    import pandas as pd

    from_csv = pd.read_csv(path, keep_default_na=True)  # list columns as JSON text, empty cells as NaN
    assert Testset.from_pandas(from_csv).samples == ts.samples
    with pytest.raises(ConfigError, match=r"DataFrame row 1 \(index 1\): user_input"):
        Testset.from_pandas(frame.assign(user_input=["ok?", " "]))


def test_to_pandas_without_pandas_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install pandas.*groundset\[pandas\]"):
        make_testset(1).to_pandas()


def test_writes_refuse_duplicates_appended_later_and_empty_files_load(tmp_path: Path):
    ts = make_testset(2)
    ts.samples.append(ts[0])
    with pytest.raises(ValueError, match="duplicate sample id .* positions 0 and 2"):
        ts.to_jsonl(tmp_path / "dup.jsonl")
    assert not (tmp_path / "dup.jsonl").exists()

    empty = tmp_path / "empty.jsonl"
    Testset([], {"seed": 1}).to_jsonl(empty)
    assert Testset.from_jsonl(empty) == Testset([], {"seed": 1})
    empty.write_text("", encoding="utf-8")
    assert Testset.from_jsonl(empty) == Testset()

    _write_lines(empty, ['{"_groundset_testset": 1, "metadata": {"score": NaN}}'])
    with pytest.raises(ConfigError, match=r"empty\.jsonl: testset metadata must be JSON data"):
        Testset.from_jsonl(empty)
