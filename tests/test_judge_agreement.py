"""The labelled judge sets, the agreement the benchmark prints, and offline forms switched off for noise."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from groundset.cli import main
from groundset.scoring import METRICS, AnswerRelevancy, SingleTurnSample, evaluate
from groundset.scoring.calibration import agreement_of, calibrate, load_labels
from groundset.scoring.metric import OFFLINE_DISAGREES

DATA = Path(__file__).parent / "data" / "judges" / "corpora"
FILES = ("faithfulness", "answer_relevancy", "context_relevance", "answer_correctness")


def rows(half: str, name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / half / f"{name}.jsonl").read_text("utf-8").splitlines()]


@pytest.mark.parametrize("name", FILES)
def test_every_pair_loads_and_no_page_gives_pairs_to_both_halves(name):
    for half in ("dev", "test"):
        labels = load_labels(DATA / half / f"{name}.jsonl")
        assert len(labels.pairs) >= 50 and not labels.samples
    dev = {source for row in rows("dev", name) for source in row["source"]}
    test = {source for row in rows("test", name) for source in row["source"]}
    assert dev and test and not dev & test
    corpora = {row["corpus"] for half in ("dev", "test") for row in rows(half, name)}
    assert len(corpora) >= 4  # made from the shared corpora, not one


def test_each_pair_differs_only_where_its_kind_says():
    for row in rows("dev", "faithfulness"):
        better, worse = row["better"], row["worse"]
        assert better["retrieved_contexts"] == worse["retrieved_contexts"]
        assert better["response"] != worse["response"]
    for row in rows("dev", "context_relevance"):
        assert row["better"]["retrieved_contexts"] != row["worse"]["retrieved_contexts"]
        assert row["better"]["user_input"] == row["worse"]["user_input"]


def test_pair_notes_are_read_as_notes_and_a_typo_is_still_refused(tmp_path):
    sample = {"user_input": "q?", "response": "a."}
    path = tmp_path / "labels.jsonl"
    noted = {"id": "p1", "kind": "evasive", "made": "by hand", "source": ["x.md"], "corpus": "c"}
    path.write_text(json.dumps(noted | {"better": sample, "worse": sample}) + "\n")
    assert load_labels(path).pairs[0].id == "p1"
    path.write_text(json.dumps({"better": sample, "worse": sample, "kinds": "x"}) + "\n")
    with pytest.raises(Exception, match="unknown key"):
        load_labels(path)


def test_the_benchmark_figure_is_the_calibrate_figure(capsys):
    """benchmarks/judges.py scores several metrics in one run and reads each with agreement_of; calibrate
    scores one. Same labels, same figure and interval, and the CLI prints it."""
    path = DATA / "dev" / "answer_correctness.jsonl"
    labels = load_labels(path)
    metric = METRICS["factual_correctness"]()
    both = [METRICS["answer_correctness"](), metric]
    shared = evaluate(labels.dataset(), both, llm="offline", show_progress=False, cache=False)
    from_benchmark = agreement_of(labels, metric, shared).preference_accuracy
    alone = calibrate(labels, "factual_correctness", llm="offline", show_progress=False, cache=False)
    alone = alone.preference_accuracy
    assert (from_benchmark.value, from_benchmark.ci_low, from_benchmark.ci_high) == (
        alone.value,
        alone.ci_low,
        alone.ci_high,
    )
    assert main(["calibrate", str(path), "-m", "factual_correctness", "-q", "--no-cache"]) == 0
    assert f"{alone.value:.3f}" in capsys.readouterr().out


class _Silenced(AnswerRelevancy):
    name = "silenced_relevancy"
    offline_agrees = False


def test_an_offline_form_that_disagrees_with_people_gives_nan_with_the_reason():
    sample = SingleTurnSample(user_input="What port does the exporter use?", response="It listens on 9100.")
    result = _Silenced().score(sample)
    assert math.isnan(result.value) and result.reason == OFFLINE_DISAGREES
    assert "pass --llm" in _Silenced.offline_summary()
    measured = _Silenced(offline_form=True).score(sample)  # what the benchmark and --offline-form measure
    assert measured.value == AnswerRelevancy().score(sample).value > 0


def test_metrics_lists_what_each_judge_does_offline(capsys):
    assert main(["metrics"]) == 0
    listing = capsys.readouterr().out
    for name, cls in METRICS.items():
        if cls.needs_llm and cls.runs_offline and not cls.offline_agrees:
            assert f"NaN: {OFFLINE_DISAGREES}" in listing, name
    assert "answer_relevancy" in listing
