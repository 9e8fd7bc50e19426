"""Selecting part of a test set (`score`/`evaluate --only`, `only=`): the spec grammar, AND across specs and
OR within one, the errors (an unknown spec, a selection that keeps nothing, a plain dataset), and the CLI."""

from __future__ import annotations

import csv
import json

import pytest

from groundset.cli import main
from groundset.core.errors import ConfigError
from groundset.samples.dataset import EvaluationDataset
from groundset.samples.selection import FORMS, Selection, parse_selection
from groundset.samples.testset import Testset, TestsetSample
from groundset.samples.testset_sample import sample_record
from groundset.scoring.evaluate import evaluate
from groundset.scoring.metrics import ExactMatch
from groundset.scoring.result import EvaluationResult
from groundset.scoring.score_rag import score_rag

# name: (tags, reviewed, edited, kind, source documents)
SAMPLES = {
    "a": (["critical"], True, False, "single_hop_specific", ["docs/billing.md"]),
    "b": (["critical", "billing"], False, False, "multi_hop_abstract", ["docs/api.md"]),
    "c": (["billing"], True, True, "single_hop_specific", ["docs/api.md", "docs/billing,v2.md"]),
    "d": ([], False, False, "multi_hop_specific", ["docs/intro.md"]),
    "e": (["slow"], True, False, "single_hop_specific", ["guide/intro.md"]),
}


def sample(name: str) -> TestsetSample:
    tags, reviewed, edited, kind, documents = SAMPLES[name]
    made = TestsetSample.create(
        user_input=f"What does {name} say?",
        reference=f"It says {name}.",
        reference_contexts=[f"It says {name}."],
        reference_context_ids=[f"chunk-{name}"],
        source_documents=documents,
        synthesizer=kind,
    )
    return made.model_copy(update={"tags": tags, "reviewed": reviewed, "edited": edited})


def make_testset() -> Testset:
    return Testset([sample(name) for name in SAMPLES], {"seed": 7, "note": "kept by a selection"})


def names(data: Testset | EvaluationDataset) -> list[str]:
    """Which of SAMPLES the data holds, in order (by question, so it works on datasets too)."""
    return [item.user_input.split()[2] for item in data]


# -- parsing ----------------------------------------------------------------------------------------


def test_each_form_parses_and_reads_back_as_written():
    written = ["reviewed", "unreviewed", "edited", "tag=critical", "kind=a,b", "document=docs/x, y.md"]
    selection = parse_selection(written)
    assert str(selection) == ", ".join(written)
    assert str(parse_selection([" tag = critical , billing ", "tag=x,x"])) == "tag=critical,billing, tag=x"
    assert parse_selection("tag=critical") == parse_selection(["tag=critical"])  # one string: one spec
    assert parse_selection(selection) is selection
    assert not parse_selection(None) and not parse_selection([]) and selection
    testset = make_testset()
    assert Selection().select(testset) is testset and Selection().describe(testset) == "all 5 samples"
    assert set(FORMS) == {
        "reviewed",
        "unreviewed",
        "edited",
        "tag=NAME[,NAME...]",
        "kind=NAME[,NAME...]",
        "document=TEXT",
    }


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("reviewed", ["a", "c", "e"]),
        ("unreviewed", ["b", "d"]),
        ("edited", ["c"]),
        ("tag=critical", ["a", "b"]),
        ("tag=billing", ["b", "c"]),
        ("kind=single_hop_specific", ["a", "c", "e"]),
        ("kind=multi_hop_abstract", ["b"]),
        ("document=api", ["b", "c"]),
        ("document=docs/", ["a", "b", "c", "d"]),
        ("document=intro.md", ["d", "e"]),
        ("document=billing,v2", ["c"]),  # taken whole: a path may hold a comma
    ],
)
def test_each_form_keeps_the_samples_it_names(spec, expected):
    testset = make_testset()
    assert names(parse_selection([spec]).select(testset)) == expected


def test_specs_must_all_hold_and_the_names_of_one_spec_are_alternatives():
    testset = make_testset()
    assert names(parse_selection(["reviewed", "tag=critical"]).select(testset)) == ["a"]
    assert names(parse_selection(["tag=billing", "kind=single_hop_specific"]).select(testset)) == ["c"]
    assert names(parse_selection(["tag=critical,slow"]).select(testset)) == ["a", "b", "e"]
    assert names(parse_selection(["tag=critical", "tag=billing"]).select(testset)) == ["b"]  # both tags
    assert names(parse_selection(["kind=multi_hop_abstract,multi_hop_specific"]).select(testset)) == [
        "b",
        "d",
    ]
    assert names(parse_selection(["unreviewed", "tag=critical,slow"]).select(testset)) == ["b"]


def test_a_selected_testset_keeps_its_metadata_and_its_order():
    testset = make_testset()
    selected = parse_selection(["tag=critical,slow"]).select(testset)
    assert isinstance(selected, Testset) and selected.metadata == testset.metadata
    assert list(selected) == [testset[0], testset[1], testset[4]]
    assert parse_selection(["reviewed", "tag=critical,billing"]).describe(testset) == (
        "2 of 5 samples (reviewed, tag=critical,billing)"
    )


# -- errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "hint"),
    [
        ("reviewd", "(did you mean 'reviewed'?)"),
        ("Reviewed", "(did you mean 'reviewed'?)"),
        ("tags=critical", "(did you mean 'tag=critical'?)"),
        ("knid=single_hop_specific", "(did you mean 'kind=single_hop_specific'?)"),
        ("synthesizer=single_hop_specific", "(did you mean 'kind=single_hop_specific'?)"),
        ("source_documents=api", "(did you mean 'document=api'?)"),
        ("!reviewed", "(there is no negation; write 'unreviewed')"),
        ("not:unreviewed", "(there is no negation; write 'reviewed')"),
        ("!tag=slow", "(there is no negation; name what to keep)"),
    ],
)
def test_an_unknown_spec_is_named_with_the_closest_form_and_every_valid_one(spec, hint):
    with pytest.raises(ConfigError) as caught:
        parse_selection(["reviewed", spec])
    message = str(caught.value)
    assert message.startswith(f"unknown selection {spec!r} {hint}; select with one of")
    assert all(form in message for form in FORMS)


def test_an_unknown_spec_without_a_near_form_still_lists_the_forms():
    with pytest.raises(ConfigError, match=r"^unknown selection 'colour=red'; select with one of") as caught:
        parse_selection("colour=red")
    assert "tag=NAME[,NAME...]" in str(caught.value)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "reviewed=true",
            "selection 'reviewed=true': reviewed takes no value; write 'reviewed' (or 'unreviewed')",
        ),
        ("edited=yes", "selection 'edited=yes': edited takes no value; write 'edited'"),
        ("tag", "selection 'tag': tag needs a value, e.g. 'tag=critical'"),
        ("kind=", "selection 'kind=': kind needs a value, e.g. 'kind=single_hop_specific'"),
        ("tag=a,,b", "selection 'tag=a,,b': an empty name between commas; write tag=a,b"),
        ("tag=on call", "'on call' can never match: a tag is one word"),
    ],
)
def test_a_known_form_written_wrong_says_how_to_write_it(spec, message):
    with pytest.raises(ConfigError) as caught:
        parse_selection([spec])
    assert message in str(caught.value)


def test_a_selection_that_keeps_nothing_is_an_error_naming_the_spec_and_what_there_is():
    testset = make_testset()
    with pytest.raises(ConfigError) as caught:
        parse_selection(["tag=critcal"]).select(testset)
    assert str(caught.value) == (
        "the selection (tag=critcal) leaves no sample to score: 'tag=critcal' matches none of the 5 samples; "
        "did you mean tag=critical? tags in the test set: billing (2), critical (2), slow (1)"
    )
    with pytest.raises(ConfigError) as caught:
        parse_selection(["reviewed", "edited", "tag=critical"]).describe(testset)
    assert str(caught.value).startswith(
        "the selection (reviewed, edited, tag=critical) leaves no sample to score: "
        "'reviewed, edited' keeps 1 of the 5 samples and 'tag=critical' matches none of those;"
    )
    with pytest.raises(ConfigError, match="kinds in the test set: single_hop_specific \\(3\\), multi_hop"):
        parse_selection("kind=out_of_scope").select(testset)
    with pytest.raises(ConfigError, match="1 of the 5 samples in the test set are edited"):
        parse_selection(["unreviewed", "edited"]).select(testset)
    with pytest.raises(ConfigError, match="no sample has a tag"):
        parse_selection("tag=critical").select(Testset([sample("d")]))
    with pytest.raises(ConfigError, match="the test set has no samples"):
        parse_selection("reviewed").select(Testset())


# -- datasets: a test set read as one, your own rows that keep its fields, and plain rows ---------------


def test_a_test_set_read_as_a_dataset_keeps_what_a_person_said_and_selects_with_its_lines(tmp_path):
    testset = make_testset()
    dataset = EvaluationDataset.from_testset(testset)
    assert dataset[2].metadata["tags"] == ["billing"] and dataset[2].metadata["edited"] is True
    assert "tags" not in dataset[3].metadata and "reviewed" not in dataset[3].metadata  # unset: left out
    testset.to_jsonl(tmp_path / "testset.jsonl")
    from_file = EvaluationDataset.from_jsonl(tmp_path / "testset.jsonl")
    selected = parse_selection(["reviewed", "tag=critical,slow"]).select(from_file)
    assert names(selected) == ["a", "e"]
    assert selected.locations == [f"{tmp_path / 'testset.jsonl'} line {n}" for n in (2, 6)]  # 1: the header
    testset.to_csv(tmp_path / "testset.csv")
    assert names(parse_selection("edited").select(EvaluationDataset.from_csv(tmp_path / "testset.csv"))) == [
        "c"
    ]


def answered_rows(testset: Testset) -> list[dict]:
    """What a user writes after running their RAG system on a test set: its records plus the answers."""
    return [
        {**sample_record(item), "response": item.reference, "retrieved_contexts": item.reference_contexts}
        for item in testset
    ]


def spreadsheet_cell(value: object) -> str:
    """As Testset.to_csv writes a cell: a list as JSON, a flag as true or false, nothing as empty."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, list) else "" if value is None else str(value)


def test_your_own_rows_that_keep_the_test_set_fields_can_be_selected(tmp_path):
    rows = answered_rows(make_testset())
    path = tmp_path / "answered.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    dataset = EvaluationDataset.from_jsonl(path)
    assert "tags" in dataset.extra_columns  # read as a plain dataset, the fields kept as your columns
    selected = parse_selection(["tag=billing"]).select(dataset)
    assert names(selected) == ["b", "c"] and selected.extra_columns == dataset.extra_columns
    # A spreadsheet holds the same fields as text: "true" and JSON lists, as Testset.to_csv writes them.
    columns = ["user_input", "response", "id", "synthesizer", "reviewed", "tags", "source_documents"]
    with (tmp_path / "answered.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows([[spreadsheet_cell(row.get(column)) for column in columns] for row in rows])
    from_csv = EvaluationDataset.from_csv(tmp_path / "answered.csv")
    assert from_csv[0].metadata["tags"] == '["critical"]'  # text, as the cell holds it
    assert names(parse_selection(["reviewed", "tag=critical,slow"]).select(from_csv)) == ["a", "e"]
    assert names(parse_selection(["document=intro"]).select(from_csv)) == ["d", "e"]
    bad = [{**rows[0], "reviewed": "maybe"}, *rows[1:]]
    path.write_text("".join(json.dumps(row) + "\n" for row in bad), encoding="utf-8")
    with pytest.raises(
        ConfigError, match=r"answered.jsonl line 1: reviewed must be true or false, got 'maybe'"
    ):
        parse_selection("reviewed").select(EvaluationDataset.from_jsonl(path))


def test_a_plain_dataset_cannot_be_selected_and_the_error_says_why(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text(
        "".join(json.dumps({"user_input": f"q{i}", "response": "r", "label": i}) + "\n" for i in range(4))
    )
    with pytest.raises(ConfigError) as caught:
        parse_selection("reviewed").select(EvaluationDataset.from_jsonl(path))
    assert str(caught.value).startswith(
        f"selecting samples (--only, only=) needs a groundset test set, but {path} is a plain dataset: its "
        "rows have no id and synthesizer fields."
    )
    mixed = EvaluationDataset.from_list(
        [*answered_rows(make_testset())[:2], {"user_input": "q", "response": "r"}]
    )
    with pytest.raises(
        ConfigError, match=r"these rows have no id and synthesizer fields \(the others do\): row 2"
    ):
        parse_selection("reviewed").select(mixed)
    with pytest.raises(ConfigError, match="filters a Testset or an EvaluationDataset, got list"):
        parse_selection("reviewed").select([sample("a")])


# -- the Python API --------------------------------------------------------------------------------------


def knowing(question: str) -> tuple[str, list[str]]:
    name = question.split()[2]
    return f"It says {name}.", [f"It says {name}."]


def test_score_rag_and_evaluate_take_only_and_note_the_selection():
    testset = make_testset()
    result = score_rag(testset, knowing, [ExactMatch()], only=["tag=critical"], show_progress=False)
    assert names(result.dataset) == ["a", "b"] and result.scores("exact_match") == [1.0, 1.0]
    assert result.notes["selection"] == "2 of 5 samples (tag=critical)"
    assert "selection" not in score_rag(testset, knowing, [ExactMatch()], show_progress=False).notes
    dataset = EvaluationDataset.from_list(answered_rows(testset))
    scored = evaluate(dataset, [ExactMatch()], only="kind=single_hop_specific", show_progress=False)
    assert names(scored.dataset) == ["a", "c", "e"]
    assert scored.notes["selection"] == "3 of 5 samples (kind=single_hop_specific)"
    with pytest.raises(ConfigError, match="unknown selection 'reviewd'"):
        evaluate(dataset, [ExactMatch()], only=["reviewd"], show_progress=False)


# -- the CLI ---------------------------------------------------------------------------------------------


def graph_and_testset():
    """A small graph and a test set written from it: three questions, two tagged critical."""
    from groundset.kg.graph import KnowledgeGraph

    kg = KnowledgeGraph()
    doc = kg.add_document("x", source="exporters.md")
    facts = [
        ("Which port does the node exporter listen on?", "The node exporter listens on port 9100."),
        (
            "What does Alertmanager do with alerts?",
            "Alertmanager groups alerts and routes them to receivers.",
        ),
        ("How long does Prometheus keep data?", "Prometheus keeps data for 15 days by default."),
    ]
    ids = [kg.add_chunk(doc, fact, position=i) for i, (_, fact) in enumerate(facts)]
    samples = [
        TestsetSample.create(
            user_input=question,
            reference=fact,
            reference_contexts=[fact],
            reference_context_ids=[chunk],
            source_documents=["exporters.md"],
            synthesizer="single_hop_specific",
            graph_fingerprint=kg.fingerprint(),
        ).model_copy(update={"tags": tags})
        for (question, fact), chunk, tags in zip(
            facts, ids, [["critical"], [], ["critical", "slow"]], strict=True
        )
    ]
    return kg, Testset(samples, {"graph_fingerprint": kg.fingerprint()})


def test_cli_score_baseline_scores_only_the_selected_samples(tmp_path, monkeypatch, capsys):
    kg, testset = graph_and_testset()
    kg.save(tmp_path / "kg")
    testset.to_jsonl(tmp_path / "t.jsonl")
    monkeypatch.chdir(tmp_path)
    args = ["score", "--testset", "t.jsonl", "--target", "baseline", "--kg", "kg", "--metrics", "exact_match"]
    assert main([*args, "-q", "--only", "tag=critical", "--out", "run.jsonl", "--report", "run.html"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("scoring 2 of 3 samples (tag=critical)\n")
    assert "target: baseline" in printed and ": 2 questions, 0 failed" in printed
    assert "note: selection: 2 of 3 samples (tag=critical)" in printed
    run = EvaluationResult.load(tmp_path / "run.jsonl")
    assert run.sample_ids() == [testset[0].id, testset[2].id]
    assert run.notes["selection"] == "2 of 3 samples (tag=critical)"
    assert "<b>selection</b>: 2 of 3 samples (tag=critical)" in (tmp_path / "run.html").read_text()
    assert [s.metadata["tags"] for s in run.dataset] == [["critical"], ["critical", "slow"]]
    assert main([*args, "-q", "--only", "tag=critical", "--only", "tag=slow", "--out", "run.jsonl"]) == 0
    assert EvaluationResult.load(tmp_path / "run.jsonl").sample_ids() == [testset[2].id]
    capsys.readouterr()
    assert main([*args, "-q", "--only", "reviewed"]) == 1
    said = capsys.readouterr()
    assert (
        "error: the selection (reviewed) leaves no sample to score: 'reviewed' matches none of the 3"
        in said.err
    )
    assert "target: baseline" not in said.out  # nothing was asked
    assert main([*args, "-q", "--only", "tags=critical"]) == 1
    assert "unknown selection 'tags=critical' (did you mean 'tag=critical'?)" in capsys.readouterr().err


def test_cli_evaluate_selects_from_rows_that_keep_the_test_set_fields_and_refuses_plain_data(
    tmp_path, monkeypatch, capsys
):
    rows = answered_rows(make_testset())
    (tmp_path / "answered.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    (tmp_path / "plain.jsonl").write_text(
        "".join(
            json.dumps({k: row[k] for k in ("user_input", "response", "reference")}) + "\n" for row in rows
        )
    )
    monkeypatch.chdir(tmp_path)
    args = ["evaluate", "--metrics", "exact_match", "-q"]
    assert (
        main(
            [*args, "answered.jsonl", "--only", "reviewed", "--only", "tag=critical,slow", "-o", "run.jsonl"]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert printed.startswith("scoring 2 of 5 samples (reviewed, tag=critical,slow)\n")
    assert "note: selection: 2 of 5 samples (reviewed, tag=critical,slow)" in printed
    run = EvaluationResult.load(tmp_path / "run.jsonl")
    assert names(run.dataset) == ["a", "e"] and run.scores("exact_match") == [1.0, 1.0]
    assert main([*args, "plain.jsonl", "--only", "tag=critical"]) == 1
    assert (
        "error: selecting samples (--only, only=) needs a groundset test set, but plain.jsonl is a plain "
        "dataset: its rows have no id and synthesizer fields" in capsys.readouterr().err
    )
    assert main([*args, "plain.jsonl"]) == 0  # without --only, plain data is scored as before
