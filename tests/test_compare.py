"""Comparing two scoring runs: pairing, paired differences, verdicts, the regression gate and its CLI."""

from __future__ import annotations

import math

import numpy as np
import pytest

from groundset.cli import main
from groundset.core.errors import ConfigError
from groundset.samples.dataset import EvaluationDataset
from groundset.scoring.compare import compare_runs
from groundset.scoring.result import Cell, EvaluationResult

NAN = float("nan")


def run(scores, *, ids=None, questions=None, metric="m", target=""):
    """A hand-made run: one metric, sample i asks questions[i] (default "q<i>") with id ids[i]."""
    questions = questions or [f"q{i}" for i in range(len(scores))]
    rows = []
    for i, question in enumerate(questions):
        row = {"user_input": question, "response": f"answer {i}"}
        if ids is not None and ids[i] is not None:
            row["metadata"] = {"id": ids[i]}
        rows.append(row)
    cells = [{metric: Cell(value)} for value in scores]
    return EvaluationResult(EvaluationDataset.from_list(rows), [metric], cells, target=target)


def ids(n):
    return [f"s{i}" for i in range(n)]


def noisy_runs(shift, n=30, seed=1):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.4, 0.9, n)
    b = np.clip(a + shift + rng.normal(0, 0.05, n), 0, 1)
    return run(list(a), ids=ids(n)), run(list(b), ids=ids(n))


def test_paired_mean_diff_and_wins_ties_losses():
    a = run([0.5, 0.5, 0.2, 0.9, NAN, 0.3], ids=ids(6))
    b = run([0.7, 0.5, 0.1, 0.9, 1.0, NAN], ids=ids(6))
    result = compare_runs(a, b)
    row = result.metrics["m"]
    assert row.n == 4  # pairs 4 and 5 miss a score on one side
    assert row.mean_a == pytest.approx((0.5 + 0.5 + 0.2 + 0.9) / 4)
    assert row.mean_b == pytest.approx((0.7 + 0.5 + 0.1 + 0.9) / 4)
    assert row.diff == pytest.approx((0.2 + 0.0 - 0.1 + 0.0) / 4)
    assert (row.wins, row.ties, row.losses) == (1, 2, 1)
    assert math.isnan(row.ci_low) and math.isnan(row.ci_high)  # 4 pairs: no interval
    assert result.verdict("m") == "too few pairs"
    assert (result.paired, result.only_a, result.only_b) == (6, 0, 0)
    assert (result.label_a, result.label_b) == ("A", "B")


def test_float_noise_is_a_tie():
    result = compare_runs(run([0.1, 0.2], ids=ids(2)), run([0.1 + 1e-12, 0.2 - 1e-12], ids=ids(2)))
    row = result.metrics["m"]
    assert (row.wins, row.ties, row.losses) == (0, 2, 0)
    assert result.changes == []


def test_pairs_by_id_in_any_order():
    a = run([0.1, 0.2, 0.3], ids=["x", "y", "z"])
    b = run([0.35, 0.1, 0.25], ids=["z", "x", "y"], questions=["other", "texts", "here"])
    result = compare_runs(a, b)
    assert result.paired == 3
    assert result.metrics["m"].diff == pytest.approx((0.0 + 0.05 + 0.05) / 3)
    assert {c.sample_id: c.delta for c in result.changes} == pytest.approx({"y": 0.05, "z": 0.05})


def test_ids_missing_on_one_side_count_as_only_a_and_only_b():
    a = run([0.1, 0.2, 0.3, 0.4], ids=["s1", "s2", "s3", "s4"])
    b = run([0.9, 0.2, 0.5], ids=["s2", "s9", "s1"])
    result = compare_runs(a, b)
    assert (result.paired, result.only_a, result.only_b) == (2, 2, 1)
    row = result.metrics["m"]
    assert row.n == 2 and row.diff == pytest.approx((0.5 - 0.1 + 0.9 - 0.2) / 2)
    assert "2 samples of run A have no partner in run B" in result.notes
    assert "1 sample of run B has no partner in run A" in result.notes


def test_pairs_by_question_text_without_ids_duplicates_in_order():
    a = run([0.1, 0.2, 0.3, 0.4], questions=["What is X?", "Why Y?", "What is X?", "only in A"])
    b = run([0.5, 0.6, 0.9, 0.7], questions=["  Why Y?", "What is X?", "What is X?", "only in B"])
    result = compare_runs(a, b)
    assert (result.paired, result.only_a, result.only_b) == (3, 1, 1)
    # first "What is X?" of A pairs with the first of B (0.1 -> 0.6), the second with the second (0.3 -> 0.9)
    assert result.metrics["m"].diff == pytest.approx((0.5 + 0.3 + 0.6) / 3)
    assert any(note.startswith("paired by question text") for note in result.notes)
    top = result.changes[0]
    assert (top.sample_id, top.user_input, top.a, top.b) == ("A row 3", "What is X?", 0.3, 0.9)
    assert (top.response_a, top.response_b) == ("answer 2", "answer 2")


def test_changes_are_the_largest_first_and_capped_by_top():
    a = run([0.5] * 6, ids=ids(6))
    b = run([0.6, 0.1, 0.5, 0.8, 0.45, 0.5], ids=ids(6))
    result = compare_runs(a, b, top=2)
    assert [(c.sample_id, round(c.delta, 3)) for c in result.changes] == [("s1", -0.4), ("s3", 0.3)]
    assert len(compare_runs(a, b, top=10).changes) == 4  # the two unchanged samples are no change


def test_clear_regression_is_worse_and_fails_a_small_threshold_only():
    a, b = noisy_runs(-0.3)
    result = compare_runs(a, b)
    row = result.metrics["m"]
    assert row.n == 30 and row.ci_high < 0 and row.ci_low <= row.diff <= row.ci_high
    assert row.diff == pytest.approx(-0.3, abs=0.05)
    assert result.verdict("m") == "worse"
    failures = result.regressions({"m": 0.05})
    assert len(failures) == 1 and failures[0].startswith("m: -0.")
    assert "lies entirely below -0.05" in failures[0]
    assert result.regressions({"m": 0.5}) == []


def test_improvement_and_noise_verdicts():
    assert compare_runs(*noisy_runs(0.2)).verdict("m") == "better"
    still = compare_runs(*noisy_runs(0.0))
    assert still.verdict("m") == "no clear change"
    assert still.regressions({"m": 0.0}) == []


def test_lower_is_better_metric_is_mirrored():
    a, b = noisy_runs(0.3)
    a = run(a.scores("m"), ids=ids(30), metric="noise_sensitivity")
    b = run(b.scores("m"), ids=ids(30), metric="noise_sensitivity")
    result = compare_runs(a, b)
    assert result.verdict("noise_sensitivity") == "worse"
    assert result.regressions({"noise_sensitivity": 0.05})


def test_regression_thresholds_are_checked():
    result = compare_runs(*noisy_runs(-0.3))
    with pytest.raises(ConfigError, match="nope.*compared metrics: m"):
        result.regressions({"nope": 0.1})
    with pytest.raises(ConfigError, match=">= 0"):
        result.regressions({"m": -0.1})
    few = compare_runs(run([0.9, 0.9], ids=ids(2)), run([0.1, 0.1], ids=ids(2)))
    assert few.regressions({"m": 0.0}) == []  # no interval on 2 pairs: no verdict either way


def test_metrics_in_one_run_only_are_noted():
    a = run([0.1], ids=["s1"])
    b = EvaluationResult(a.dataset, ["m", "extra"], [{"m": Cell(0.2), "extra": Cell(1.0)}])
    result = compare_runs(a, b)
    assert list(result.metrics) == ["m"]
    assert "extra only in run B" in result.notes


def test_no_pairs_at_all_is_refused():
    refused = r"no sample of A \(1 sample\) pairs with one of B \(1 sample\) by sample id"
    with pytest.raises(ConfigError, match=refused):
        compare_runs(run([0.1], ids=["s1"]), run([0.2], ids=["s2"]))
    with pytest.raises(ConfigError, match="by question text"):
        compare_runs(run([0.1], questions=["a"]), run([0.2], questions=["b"]))


def test_run_files_and_labels(tmp_path):
    a, b = noisy_runs(-0.3)
    a.target = "bm25 top_k=5"
    a.to_jsonl(tmp_path / "base.jsonl")
    b.to_jsonl(tmp_path / "new.jsonl")
    result = compare_runs(tmp_path / "base.jsonl", str(tmp_path / "new.jsonl"))
    assert (result.label_a, result.label_b) == ("base.jsonl", "new.jsonl")
    assert result.metrics["m"].diff == pytest.approx(compare_runs(a, b).metrics["m"].diff)


def write_runs(tmp_path, shift):
    a, b = noisy_runs(shift)
    a.to_jsonl(tmp_path / "a.jsonl")
    b.to_jsonl(tmp_path / "b.jsonl")
    return str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")


def test_cli_fails_on_a_regression(tmp_path, capsys):
    a, b = write_runs(tmp_path, -0.3)
    assert main(["compare", a, b, "--fail-on-regression", "m=0.05"]) == 1
    captured = capsys.readouterr()
    text = captured.out
    assert captured.err.strip() == "failed: 1 regression beyond --fail-on-regression"
    assert "worse" in text and "paired 30 samples" in text
    flagged = [line for line in text.splitlines() if line.startswith("REGRESSION")]
    assert len(flagged) == 1 and flagged[0].startswith("REGRESSION m: -0.")
    assert "no regression" not in text


def test_cli_passes_on_an_improvement(tmp_path, capsys):
    a, b = write_runs(tmp_path, 0.2)
    assert main(["compare", a, b, "--fail-on-regression", "m=0.05", "--top", "2"]) == 0
    text = capsys.readouterr().out
    assert "better" in text and "REGRESSION" not in text
    assert "no regression beyond the thresholds" in text
    assert len([line for line in text.splitlines() if " -> " in line]) == 2


def test_cli_unknown_metric_is_a_one_line_error(tmp_path, capsys):
    a, b = write_runs(tmp_path, 0.0)
    assert main(["compare", a, b, "--fail-on-regression", "faithfulness=0.05"]) == 1
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [
        "error: --fail-on-regression: faithfulness not scored in both runs; compared metrics: m"
    ]
    assert captured.out == ""  # refused before printing a table


def test_cli_warns_when_a_threshold_cannot_be_checked(tmp_path, capsys):
    run([0.9, 0.9], ids=ids(2)).to_jsonl(tmp_path / "a.jsonl")
    run([0.1, 0.1], ids=ids(2)).to_jsonl(tmp_path / "b.jsonl")
    args = ["compare", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--fail-on-regression", "m=0"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "too few pairs" in text and "warning: m: only 2 scored pairs" in text


def test_cli_writes_the_report(tmp_path, capsys):
    pytest.importorskip("groundset.scoring.report")
    a, b = write_runs(tmp_path, -0.3)
    assert main(["compare", a, b, "--report", str(tmp_path / "diff.html")]) == 0
    assert (tmp_path / "diff.html").is_file()
    assert f"wrote {tmp_path / 'diff.html'}" in capsys.readouterr().out
