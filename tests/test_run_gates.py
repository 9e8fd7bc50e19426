"""Gates that fail when the system fails, test sets checked against their graph, runs that say who judged.

Issue 27 items 6, 8 and 9: a target failing on most questions fails ``--fail-under``, ``assert_scores``,
``compare --fail-on-regression`` and ``assert_no_regression``; scoring an old test set against an updated
graph warns naming both fingerprints; a run file records its judges, and compare will not call a change
of judge a regression.
"""

from __future__ import annotations

import json
import warnings

import pytest

from groundset.cli import main
from groundset.core.errors import ConfigError
from groundset.samples.dataset import EvaluationDataset
from groundset.scoring.compare import compare_runs
from groundset.scoring.evaluate import evaluate
from groundset.scoring.metrics import ExactMatch, Faithfulness, SemanticSimilarity
from groundset.scoring.result import EvaluationResult
from groundset.scoring.score_rag import score_rag
from groundset.testing import assert_no_regression, assert_scores

FACT = "The node exporter listens on port 9100."


def questions(n: int) -> EvaluationDataset:
    rows = [
        {
            "user_input": f"What port does the node exporter listen on? ({i})",
            "reference": FACT,
            "reference_contexts": [FACT],
            "metadata": {"id": f"s{i}"},
        }
        for i in range(n)
    ]
    return EvaluationDataset.from_list(rows)


def answering(question: str) -> tuple[str, list[str]]:
    return FACT, [FACT]


def failing_after_the_first(question: str) -> tuple[str, list[str]]:
    """Answers question (0) and fails the 11 others: a system that is down."""
    if "(0)" not in question:
        raise RuntimeError("index shard unavailable")
    return FACT, [FACT]


METRICS = [ExactMatch(), Faithfulness()]


# -- item 6: target failures count against the gate ------------------------------------------------


def test_score_gate_fails_when_the_target_fails_on_most_questions(tmp_path, monkeypatch, capsys):
    (tmp_path / "down.py").write_text(
        "def answer(question):\n"
        "    if '(0)' not in question:\n"
        "        raise RuntimeError('index shard unavailable')\n"
        f"    return {{'response': {FACT!r}, 'retrieved_contexts': [{FACT!r}]}}\n"
    )
    questions(12).to_jsonl(tmp_path / "t.jsonl")
    monkeypatch.chdir(tmp_path)
    args = ["score", "--testset", "t.jsonl", "--target", "down:answer", "-q"]
    args += ["--metrics", "exact_match,faithfulness", "--fail-under", "exact_match=0.9,faithfulness=0.9"]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert "pass" not in captured.out
    assert (
        "FAIL target: failed on 11 of 12 questions, more than the 0 --max-target-errors allows"
        in captured.err
    )
    assert main([*args, "--max-target-errors", "11"]) == 0
    printed = capsys.readouterr().out
    assert "pass: exact_match >= 0.9, faithfulness >= 0.9" in printed
    assert "target failed on 11 of 12 questions, --max-target-errors allows 11" in printed


def test_max_target_errors_alone_is_a_gate(tmp_path, monkeypatch, capsys):
    (tmp_path / "all_down.py").write_text("def answer(question):\n    raise RuntimeError('down')\n")
    questions(3).to_jsonl(tmp_path / "t.jsonl")
    monkeypatch.chdir(tmp_path)
    args = ["score", "--testset", "t.jsonl", "--target", "all_down:answer", "-q", "--metrics", "exact_match"]
    assert main(args) == 0  # no gate asked for: the run is reported, not judged
    capsys.readouterr()
    assert main([*args, "--max-target-errors", "2"]) == 1
    assert "FAIL target: failed on 3 of 3 questions" in capsys.readouterr().err


def test_assert_scores_counts_target_failures():
    result = score_rag(questions(12), failing_after_the_first, METRICS, show_progress=False)
    assert result.aggregate()["exact_match"]["mean"] == 1.0  # the one answered row, alone
    with pytest.raises(AssertionError, match="target: failed on 11 of 12 questions"):
        assert_scores(result, exact_match=0.9, faithfulness=0.9)
    assert_scores(result, exact_match=0.9, max_target_errors=11)
    with pytest.raises(ValueError, match="max_target_errors must be an integer >= 0"):
        assert_scores(result, exact_match=0.9, max_target_errors=-1)


def test_compare_counts_questions_run_b_newly_fails(tmp_path, capsys):
    before = score_rag(questions(12), answering, METRICS, show_progress=False)
    after = score_rag(questions(12), failing_after_the_first, METRICS, show_progress=False)
    comparison = compare_runs(before, after)
    assert comparison.newly_failed == [f"s{i}" for i in range(1, 12)]
    assert (comparison.target_errors_a, comparison.target_errors_b) == (0, 11)
    lines = comparison.regressions({"exact_match": 0.05})
    assert lines == [
        "target: failed on 11 questions run A answered (s1, s2, s3, s4, s5, ...), more than the 0 allowed"
    ]
    assert comparison.regressions({"exact_match": 0.05}, max_new_target_errors=11) == []
    with pytest.raises(AssertionError, match="failed on 11 questions run A answered"):
        assert_no_regression(before, after, exact_match=0.05)
    assert_no_regression(before, after, exact_match=0.05, max_new_target_errors=11)
    # The way back is no regression.
    assert compare_runs(after, before).regressions({"exact_match": 0.05}) == []

    before.to_jsonl(tmp_path / "a.jsonl")
    after.to_jsonl(tmp_path / "b.jsonl")
    args = ["compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--fail-on-regression"]
    assert main([*args, "exact_match=0.05"]) == 1
    captured = capsys.readouterr()
    assert "note: target failures: A 0, B 11 (11 questions A answered failed in B)" in captured.out
    assert "REGRESSION target: failed on 11 questions run A answered" in captured.out
    assert main([*args, "exact_match=0.05", "--max-new-target-errors", "11"]) == 0


# -- item 8: the test set is checked against the graph it is scored on -----------------------------


def _graph(extra: str = ""):
    from groundset.kg.graph import KnowledgeGraph

    kg = KnowledgeGraph()
    doc = kg.add_document("x", source="exporters.md")
    texts = [
        "The node exporter listens on port 9100 and exposes host metrics.",
        "Alertmanager groups alerts and routes them to receivers.",
    ]
    if extra:
        texts.append(extra)
    ids = [kg.add_chunk(doc, text, position=i) for i, text in enumerate(texts)]
    return kg, ids


def _testset(kg, ids):
    from groundset.samples.testset import Testset, TestsetSample

    sample = TestsetSample.create(
        user_input="Which port does the node exporter listen on?",
        reference="Port 9100.",
        reference_contexts=[str(kg.get(ids[0])["text"])],
        reference_context_ids=[ids[0]],
        source_documents=["exporters.md"],
        synthesizer="single_hop_specific",
        graph_fingerprint=kg.fingerprint(),
    )
    return Testset([sample], {"graph_fingerprint": kg.fingerprint()})


def test_scoring_against_another_graph_warns_naming_both_fingerprints(tmp_path, monkeypatch, capsys):
    from groundset.samples.testset import Testset
    from groundset.scoring.baseline import BaselineRAG
    from groundset.scoring.score_rag import GraphMismatchWarning

    old_kg, old_ids = _graph()
    new_kg, _ = _graph("Prometheus keeps data for 15 days by default.")
    old, new = old_kg.fingerprint(), new_kg.fingerprint()
    assert old != new
    testset = _testset(old_kg, old_ids)
    with pytest.warns(GraphMismatchWarning, match=f"graph {old}.*graph {new}"):
        result = score_rag(testset, BaselineRAG(new_kg), [ExactMatch()], show_progress=False)
    note = result.notes["target"]
    assert old in note and new in note and "groundset generate --kg KG --refresh" in note
    assert "every reference chunk the samples cite is still in it" in note  # ids survive an edit elsewhere
    gone = Testset(
        [testset[0].model_copy(update={"reference_context_ids": ["chunk-gone"]})], testset.metadata
    )
    with pytest.warns(
        GraphMismatchWarning, match="1 of 1 samples cite reference chunks this graph does not have"
    ):
        score_rag(gone, BaselineRAG(new_kg), [ExactMatch()], show_progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the graph it was written from: no warning
        same = score_rag(testset, BaselineRAG(old_kg), [ExactMatch()], show_progress=False)
    assert "target" not in same.notes

    testset.to_jsonl(tmp_path / "t.jsonl")  # the CLI reads the fingerprint from the file's header
    new_kg.save(tmp_path / "kg")
    monkeypatch.chdir(tmp_path)
    args = ["score", "--testset", "t.jsonl", "--target", "baseline", "--kg", "kg", "-q"]
    assert main([*args, "--metrics", "exact_match"]) == 0
    captured = capsys.readouterr()
    assert (
        f"warning: the test set was written from graph {old}, but the target retrieves from graph {new}"
        in (captured.err)
    )
    assert "GraphMismatchWarning" not in captured.err  # one plain line, not Python's warning format
    assert f"note: target: the test set was written from graph {old}" in captured.out  # and in the summary


# -- item 9: run files say who judged; compare does not call a change of judge a regression --------


def _scored(embeddings: str | None, shift: float = 0.0) -> EvaluationResult:
    rows = [
        {
            "user_input": f"q{i}",
            "response": "The node exporter listens on port 9100." if i % 3 else "Port 9100 it is.",
            "reference": FACT,
            "metadata": {"id": f"s{i}"},
        }
        for i in range(12)
    ]
    return evaluate(
        EvaluationDataset.from_list(rows),
        [SemanticSimilarity(), ExactMatch()],
        embeddings=embeddings,
        show_progress=False,
    )


def test_a_run_file_records_who_judged_each_metric(tmp_path):
    from groundset.scoring.run_judges import Judge

    result = _scored("offline:hashing")
    assert result.judges["semantic_similarity"] == {
        "embeddings": Judge("offline:hashing-1024", "offline:hashing-1024", offline=True)
    }
    assert result.judges["exact_match"] == {}  # no model judges it
    result.to_jsonl(tmp_path / "run.jsonl")
    header = json.loads((tmp_path / "run.jsonl").read_text().splitlines()[0])
    assert header["judges"]["semantic_similarity"]["embeddings"] == {
        "name": "offline:hashing-1024",
        "identity": "offline:hashing-1024",
        "offline": True,
    }
    assert EvaluationResult.load(tmp_path / "run.jsonl").judges == result.judges


def test_judge_identity_is_the_cache_identity_of_a_langchain_model():
    from langchain_core.language_models import FakeListChatModel

    from groundset.core.models import model_identity
    from groundset.scoring.run_judges import Judge

    model = FakeListChatModel(responses=["x"])
    judge = Judge.of(model)
    assert judge.identity == model_identity(model) and not judge.offline
    assert judge.name == "FakeListChatModel FakeListChatModel"


def test_compare_warns_and_does_not_gate_runs_judged_differently(tmp_path, capsys):
    from groundset.scoring.run_judges import JudgesDifferWarning

    a, b = _scored(None), _scored("offline:hashing")
    with pytest.warns(JudgesDifferWarning, match="semantic_similarity"):
        comparison = compare_runs(a, b)
    assert set(comparison.judges_differ) == {"semantic_similarity"}  # exact_match needs no judge
    assert "offline:wordllama-256" in comparison.judges_differ["semantic_similarity"]
    assert comparison.verdict("semantic_similarity") == "judges differ"
    assert any("judged differently" in note for note in comparison.notes)
    assert comparison.regressions({"semantic_similarity": 0.0, "exact_match": 0.0}) == []
    with pytest.raises(ConfigError, match="judged differently.*semantic_similarity.*--strict"):
        compare_runs(a, b, strict=True)
    with pytest.raises(AssertionError, match="judged differently"):
        assert_no_regression(a, b, semantic_similarity=0.0, strict=True)
    assert compare_runs(a, _scored(None), strict=True).judges_differ == {}

    a.to_jsonl(tmp_path / "a.jsonl")
    b.to_jsonl(tmp_path / "b.jsonl")
    args = ["compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]
    assert main([*args, "--fail-on-regression", "semantic_similarity=0"]) == 0
    printed = capsys.readouterr().out
    assert "warning: semantic_similarity: run A and run B were judged by different models" in printed
    assert "its --fail-on-regression threshold was not checked" in printed
    assert main([*args, "--strict"]) == 1
    assert "judged differently" in capsys.readouterr().err


def test_an_old_run_file_without_judges_loads_and_compare_says_they_are_unknown(tmp_path):
    result = _scored(None)
    result.to_jsonl(tmp_path / "run.jsonl")
    lines = (tmp_path / "run.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    del header["judges"]
    (tmp_path / "old.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    old = EvaluationResult.load(tmp_path / "old.jsonl")
    assert old.judges == {}
    comparison = compare_runs(tmp_path / "old.jsonl", result)
    assert comparison.judges_differ == {}
    assert any("run A does not record its judges" in note for note in comparison.notes)
    with pytest.raises(ConfigError, match="run A does not record its judges"):
        compare_runs(tmp_path / "old.jsonl", result, strict=True)


def test_a_broken_judges_record_names_the_field(tmp_path):
    _scored(None).to_jsonl(tmp_path / "run.jsonl")
    lines = (tmp_path / "run.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["judges"]["semantic_similarity"]["embeddings"]["offline"] = "yes"
    (tmp_path / "bad.jsonl").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(ConfigError, match=r"judges.semantic_similarity.embeddings.offline: must be"):
        EvaluationResult.load(tmp_path / "bad.jsonl")


# -- a metric's direction travels with the run ------------------------------------------------------


def _noise_run(noise: float, name: str) -> EvaluationResult:
    """A run of one lower-is-better metric under a name the registry does not know (a user's renamed
    critic), every row scoring ``noise``, with a small spread so the CI is not a point."""
    from groundset.scoring.result import Cell

    data = questions(10)
    cells = [{name: Cell(noise + 0.01 * (i % 3), "")} for i in range(10)]
    return EvaluationResult(data, [name], cells, lower_better=(name,))


def test_a_renamed_lower_is_better_metric_keeps_its_direction_in_the_run_gates_and_compare(tmp_path):
    from groundset.scoring.metrics import NoiseSensitivity
    from groundset.scoring.thresholds import gate_failures

    renamed = NoiseSensitivity()
    renamed.name = "noise_strict"
    rows = [
        {"user_input": "Which port?", "response": "Port 9100. Port 80 is used.", "reference": FACT,
         "retrieved_contexts": [FACT, "Port 80 is used by the web server."]},
    ]  # fmt: skip
    run = evaluate(EvaluationDataset.from_list(rows), [renamed], show_progress=False)
    assert run.lower_better == ("noise_strict",) and run.lower_is_better("noise_strict")
    run.to_jsonl(tmp_path / "run.jsonl")
    assert EvaluationResult.load(tmp_path / "run.jsonl").lower_is_better("noise_strict")

    low, high = _noise_run(0.1, "noise_strict"), _noise_run(0.6, "noise_strict")
    assert gate_failures(low, {"noise_strict": 0.3}, option="--fail-under") == []
    (failure,) = gate_failures(high, {"noise_strict": 0.3}, option="--fail-under")
    assert "lower is better" in failure
    with pytest.raises(AssertionError, match="lower is better"):
        assert_scores(high, noise_strict=0.3)
    worse = compare_runs(low, high)
    assert (
        worse.verdict("noise_strict") == "worse"
        and compare_runs(high, low).verdict("noise_strict") == "better"
    )
    assert worse.regressions({"noise_strict": 0.05})
    with pytest.raises(AssertionError):
        assert_no_regression(low, high, noise_strict=0.05)


def test_the_pass_line_of_a_lower_is_better_bar_says_at_most(capsys):
    from groundset.cli.summary import gate

    gate(_noise_run(0.1, "noise_strict"), "noise_strict=0.3")
    assert "pass: noise_strict <= 0.3" in capsys.readouterr().out
