"""Calibration: each agreement figure equals a hand computation, on a judge whose scores we set and on the
offline faithfulness judge; items with a NaN score are skipped and counted; errors name the line."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

from groundset.cli import main
from groundset.core import ConfigError
from groundset.scoring import METRICS, EvaluationDataset, Metric, MetricResult, evaluate
from groundset.scoring import calibration as calibration_module
from groundset.scoring.calibration import calibrate, load_labels
from groundset.scoring.formulas import bootstrap_ci


class Lookup(Metric):
    """A judge whose score is in the sample (metadata.score; null is NaN), so every figure is known."""

    name = "lookup"
    columns = ("response",)

    async def _ascore(self, sample, ctx):
        value = sample.metadata["score"]
        return MetricResult.nan("no score for this one") if value is None else MetricResult(value)


def scored(index, human, score):
    return {"response": f"answer {index}", "metadata": {"score": score}, "human_score": human}


def pair(index, better, worse):
    side = lambda kind, score: {"response": f"{kind} {index}", "metadata": {"score": score}}  # noqa: E731
    return {"id": f"p{index}", "better": side("better", better), "worse": side("worse", worse)}


def write(tmp_path, rows, name="labels.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


# Graded labels 1..6 (line 7 gets NaN from the judge), then six preference pairs (lines 8-13).
GRADED_HUMAN = [1, 2, 3, 4, 5, 6]
GRADED_SCORES = [0.1, 0.3, 0.2, 0.6, 0.5, 0.9]
PAIRS = [(0.9, 0.2), (0.7, 0.4), (0.8, 0.1), (0.5, 0.5), (0.3, 0.6), (None, 0.4)]
# Binary labels with a tie between a positive and a negative (0.5 and 0.5).
BINARY_HUMAN = [1, 1, 1, 0, 0, 0, 1, 0]
BINARY_SCORES = [0.9, 0.5, 0.3, 0.2, 0.6, 0.1, 0.7, 0.5]


@pytest.fixture
def graded(tmp_path):
    rows = [scored(i, h, m) for i, (h, m) in enumerate(zip(GRADED_HUMAN, GRADED_SCORES, strict=True))]
    rows.append(scored(6, 4, None))
    rows += [pair(i, b, w) for i, (b, w) in enumerate(PAIRS, start=1)]
    return write(tmp_path, rows)


@pytest.fixture
def binary(tmp_path):
    rows = [scored(i, h, m) for i, (h, m) in enumerate(zip(BINARY_HUMAN, BINARY_SCORES, strict=True))]
    return write(tmp_path, rows, "binary.jsonl")


def run(path, metric=None, **options):
    return calibrate(load_labels(path), metric or Lookup(), cache=False, show_progress=False, **options)


def concordance_by_hand(human, scores):
    """Every pair with different human scores: 1 if the judge orders it the same way, 0.5 if it ties."""
    outcomes = []
    for i, j in itertools.combinations(range(len(human)), 2):
        if human[i] == human[j]:
            continue
        if scores[i] == scores[j]:
            outcomes.append(0.5)
        else:
            outcomes.append(float((scores[i] > scores[j]) == (human[i] > human[j])))
    return sum(outcomes) / len(outcomes) if outcomes else math.nan


def kappa_by_hand(a, b):
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    pa, pb = sum(a) / n, sum(b) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    return math.nan if chance == 1 else (observed - chance) / (1 - chance)


def test_graded_labels_pairwise_spearman_and_preferences_by_hand(graded):
    agreement = run(graded)
    # Human order 1..6; the judge swaps (2, 3) (0.3 > 0.2) and (4, 5) (0.6 > 0.5): 13 of 15 pairs agree.
    assert agreement.pairwise_accuracy.value == pytest.approx(13 / 15)
    assert agreement.pairwise_accuracy.value == pytest.approx(
        concordance_by_hand(GRADED_HUMAN, GRADED_SCORES)
    )
    assert agreement.pairwise_accuracy.note == "15 pairs with different human scores"
    # Judge ranks 1, 3, 2, 5, 4, 6 against 1..6: d = 0, 1, -1, 1, -1, 0; rho = 1 - 6 * 4 / (6 * 35).
    assert agreement.spearman.value == pytest.approx(1 - 6 * 4 / (6 * (6**2 - 1)))
    assert agreement.spearman.value == pytest.approx(spearmanr(GRADED_SCORES, GRADED_HUMAN).statistic)
    # Pairs: three right, one tie (half), one wrong; the sixth has a NaN side and is skipped.
    assert agreement.preference_accuracy.value == pytest.approx((1 + 1 + 1 + 0.5 + 0) / 5)
    assert agreement.preference_accuracy.n == 5
    assert agreement.spearman.n == agreement.pairwise_accuracy.n == 6
    assert math.isnan(agreement.kappa.value) and agreement.kappa.note == "human scores are not binary (0/1)"
    assert (agreement.items, agreement.samples, agreement.pairs) == (13, 7, 6)
    assert agreement.skipped == [
        f"{graded} line 7: NaN (no score for this one)",
        f"{graded} line 13 (pair p6): better NaN (no score for this one)",
    ]


def test_binary_labels_kappa_and_ties_count_half(binary):
    agreement = run(binary)
    # At 0.5 the judge says 1, 1, 0, 0, 1, 0, 1, 1: 5 of 8 agree; both raters' 1-shares give p_e = 0.5.
    assert agreement.kappa.value == pytest.approx((5 / 8 - 0.5) / (1 - 0.5)) == 0.25
    judged = [int(m >= 0.5) for m in BINARY_SCORES]
    assert agreement.kappa.value == pytest.approx(cohen_kappa_score(BINARY_HUMAN, judged))
    # 4 positives x 4 negatives = 16 pairs: 0.9 and 0.7 beat all 4, 0.5 beats 2 and ties 1, 0.3 beats 2.
    assert agreement.pairwise_accuracy.value == pytest.approx((4 + 4 + 2.5 + 2) / 16)
    assert agreement.pairwise_accuracy.value == pytest.approx(
        concordance_by_hand(BINARY_HUMAN, BINARY_SCORES)
    )
    # Average ranks: human +-2 around 4.5; judge 8, 4.5, 3, 2, 6, 1, 7, 4.5 -> sum of products 18.
    assert agreement.spearman.value == pytest.approx(18 / math.sqrt(32 * 41.5))
    assert agreement.spearman.value == pytest.approx(spearmanr(BINARY_SCORES, BINARY_HUMAN).statistic)
    assert math.isnan(agreement.preference_accuracy.value) and agreement.skipped == []
    # At 0.25 only 0.2 and 0.1 are judged 0: 6 of 8 agree.
    assert run(binary, threshold=0.25).kappa.value == pytest.approx((6 / 8 - 0.5) / 0.5)


def test_intervals_resample_items_with_a_seed(graded, binary, monkeypatch):
    """Each CI is the percentile interval of the figure over seeded resamples of items, recomputed here
    the slow way (a loop over resamples, the figure by hand)."""
    monkeypatch.setattr(calibration_module, "RESAMPLES", 300)

    def slow(values, figure, n):
        draws = np.random.default_rng(0).integers(0, n, size=(300, n))
        kept = [v for v in (figure(row) for row in draws) if not math.isnan(v)]
        low, high = np.quantile(kept, [0.025, 0.975])
        return pytest.approx(min(low, values.value)), pytest.approx(max(high, values.value))

    agreement = run(binary)
    human, scores = BINARY_HUMAN, BINARY_SCORES
    pick = lambda values, row: [values[i] for i in row]  # noqa: E731
    by_hand = lambda row: concordance_by_hand(pick(human, row), pick(scores, row))  # noqa: E731
    ci = agreement.pairwise_accuracy
    assert (ci.ci_low, ci.ci_high) == slow(ci, by_hand, 8)
    judged = [int(m >= 0.5) for m in scores]
    ci = agreement.kappa
    assert (ci.ci_low, ci.ci_high) == slow(
        ci, lambda row: kappa_by_hand(pick(human, row), pick(judged, row)), 8
    )
    ci = agreement.spearman

    def rho(row):
        x, y = pick(scores, row), pick(human, row)
        return math.nan if len(set(x)) < 2 or len(set(y)) < 2 else spearmanr(x, y).statistic

    assert (ci.ci_low, ci.ci_high) == slow(ci, rho, 8)
    assert ci.ci_low < ci.value < ci.ci_high
    # Preferences: the same draws as bootstrap_ci over the per-pair outcomes.
    preference = run(graded).preference_accuracy
    _, low, high = bootstrap_ci([1, 1, 1, 0.5, 0], resamples=300, seed=0)
    assert (preference.ci_low, preference.ci_high) == pytest.approx((low, high))
    assert run(binary).to_dict() == agreement.to_dict()  # seeded: the same figures every run


def test_no_interval_below_five_items(tmp_path):
    rows = [scored(i, h, m) for i, (h, m) in enumerate([(0, 0.1), (1, 0.8), (0, 0.3), (1, 0.6)])]
    rows += [pair(i, b, w) for i, (b, w) in enumerate(PAIRS[:4])]
    agreement = run(write(tmp_path, rows))
    for name, figure in agreement.figures().items():
        assert not math.isnan(figure.value), name
        assert math.isnan(figure.ci_low) and math.isnan(figure.ci_high), name
    assert agreement.to_dict()["figures"]["kappa"]["ci_low"] is None
    rows.append(pair(5, 0.9, 0.1))
    assert not math.isnan(run(write(tmp_path, rows)).preference_accuracy.ci_low)


def test_one_run_scores_the_samples_and_both_sides_of_every_pair(graded, monkeypatch):
    sizes = []

    def counting(dataset, metrics, **options):
        sizes.append(len(dataset))
        return evaluate(dataset, metrics, **options)

    monkeypatch.setattr(calibration_module, "evaluate", counting)
    run(graded)
    assert sizes == [7 + 2 * 6]


CONTEXTS = [
    "Prometheus stores samples in a local time series database on disk.",
    "By default Prometheus keeps blocks for 15 days before deleting them.",
    "Alertmanager groups alerts and sends notifications to receivers such as email.",
]
FAITHFUL = [
    "Prometheus keeps blocks for 15 days by default.",
    "Prometheus stores samples in a local time series database on disk.",
    "Alertmanager groups alerts and sends notifications to receivers such as email.",
]
UNFAITHFUL = [
    "Prometheus keeps blocks for 90 days by default.",
    "Prometheus stores samples in Cassandra clusters in the cloud.",
    "Alertmanager deduplicates alerts with machine learning models.",
]
HALF = "Prometheus keeps blocks for 15 days. It compresses them with zstd every hour."


def rag(response):
    return {
        "user_input": "How does Prometheus keep its data?",
        "response": response,
        "retrieved_contexts": CONTEXTS,
    }


@pytest.fixture
def offline_labels(tmp_path):
    """8 samples labelled 0/1 (the empty answer is not judged), then 6 preferences."""
    samples = [(text, 1) for text in FAITHFUL] + [(text, 0) for text in UNFAITHFUL] + [(HALF, 0), ("", 0)]
    rows = [{**rag(text), "human_score": human} for text, human in samples]
    preferences = [*zip(FAITHFUL, UNFAITHFUL, strict=True), (FAITHFUL[0], HALF)]
    preferences += [("By default Prometheus keeps blocks for 15 days.", FAITHFUL[0]), (FAITHFUL[1], "")]
    rows += [{"better": rag(b), "worse": rag(w)} for b, w in preferences]
    return write(tmp_path, rows)


def test_offline_faithfulness_against_labels(offline_labels):
    agreement = run(offline_labels, METRICS["faithfulness"]())
    labels = load_labels(offline_labels)
    scores = evaluate(EvaluationDataset(labels.samples), [METRICS["faithfulness"]()], show_progress=False)
    values = scores.scores("faithfulness")
    assert values[:7] == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.5] and math.isnan(values[7])
    human = labels.human_scores[:7]
    assert agreement.pairwise_accuracy.value == concordance_by_hand(human, values[:7]) == 1.0
    # At 0.5 the half-supported answer (label 0) is judged 1: 6 of 7 agree, p_e = 3/7*4/7 + 4/7*3/7.
    assert agreement.kappa.value == pytest.approx((6 / 7 - 24 / 49) / (1 - 24 / 49))
    assert agreement.spearman.value == pytest.approx(spearmanr(values[:7], human).statistic)
    # Pairs: 3 clear wins, full vs half support wins, two faithful answers tie (half), one NaN side.
    assert agreement.preference_accuracy.value == pytest.approx((4 + 0.5) / 5)
    assert len(agreement.skipped) == 2 and all("makes no statement" in s for s in agreement.skipped)
    assert f"{offline_labels} line 8: NaN" in agreement.skipped[0]
    assert f"{offline_labels} line 14: worse NaN" in agreement.skipped[1]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"response": "x", "human_score": 1', "line 2: not valid JSON"),
        ('{"response": "x", "human_score": "high"}', "line 2: human_score must be a finite number"),
        ('{"response": "x", "human_score": true}', "line 2: human_score must be a finite number"),
        ('{"response": "x"}', "line 2: no 'human_score' and no 'better'/'worse'"),
        ('{"better": {"response": "x"}}', "line 2: a preference needs both 'better' and 'worse'"),
        (
            '{"better": {"response": 5}, "worse": {}}',
            "line 2: better: response: must be a string, got a number",
        ),
        ('{"better": {}, "worse": {}, "why": "tone"}', "line 2: unknown key(s) why in a preference"),
        (
            '{"better": {}, "worse": {"answer": "x", "response": "y"}}',
            "line 2: worse: 'response' and 'answer' are both given",
        ),
        ("[1, 2]", "line 2: expected a JSON object, got a list"),
        ('{"user_input": [{"type": "human", "content": "hi"}], "human_score": 1}', "line 2: a multi-turn"),
    ],
)
def test_errors_name_the_line(tmp_path, line, message):
    path = tmp_path / "labels.jsonl"
    path.write_text(json.dumps(scored(0, 1, 0.5)) + "\n" + line + "\n")
    with pytest.raises(ConfigError) as caught:
        load_labels(path)
    assert f"{path} {message}" in str(caught.value)


def test_a_file_without_labels_is_refused(tmp_path):
    path = tmp_path / "labels.jsonl"
    path.write_text("\n  \n")
    with pytest.raises(ConfigError, match="no labelled line"):
        load_labels(path)


def test_missing_columns_fail_before_any_call(tmp_path):
    class NeedsReference(Lookup):
        name = "needs_reference"
        columns = ("response", "reference")
        calls = 0

        async def _ascore(self, sample, ctx):
            NeedsReference.calls += 1
            return await super()._ascore(sample, ctx)

    rows = [{**scored(0, 1, 0.5), "reference": "r"}, scored(1, 0, 0.2), pair(2, 0.4, 0.3)]
    path = write(tmp_path, rows)
    with pytest.raises(ConfigError) as caught:
        run(path, NeedsReference())
    assert f"metric needs_reference needs column 'reference', missing in {path} lines 2, 3" in str(
        caught.value
    )
    assert NeedsReference.calls == 0


@pytest.fixture
def lookup_registered(monkeypatch):
    monkeypatch.setitem(METRICS, "lookup", Lookup)


def test_cli_prints_the_figures_and_writes_out(binary, tmp_path, capsys, lookup_registered):
    report = tmp_path / "report.json"
    assert (
        main(["calibrate", str(binary), "--metric", "lookup", "-q", "--no-cache", "--out", str(report)]) == 0
    )
    printed = capsys.readouterr().out
    assert (
        "lookup against" in printed and "labelled items (scored samples: 8, preference pairs: 0)" in printed
    )
    rows = {line.split("│")[1].strip(): line for line in printed.splitlines() if line.startswith("│")}
    assert "0.250" in rows["Cohen's kappa"] and "0.781" in rows["pairwise accuracy (scored samples)"]
    assert rows["pairwise accuracy (preferences)"].split("│")[2].strip() == "-"
    assert "skipped (metric NaN): 0" in printed and f"wrote {report}" in printed
    data = json.loads(report.read_text())
    assert data["figures"]["kappa"]["value"] == pytest.approx(0.25)
    assert data["figures"]["preference_accuracy"]["value"] is None
    assert data["figures"]["preference_accuracy"]["note"] == "no scored preference pair"
    assert (data["items"], data["samples"], data["pairs"], data["threshold"]) == (8, 8, 0, 0.5)
    assert main(["calibrate", str(binary), "-m", "lookup", "-q", "--no-cache", "--threshold", "0.25"]) == 0
    assert "0.500" in next(line for line in capsys.readouterr().out.splitlines() if "kappa" in line)


def test_cli_lists_skipped_items_and_warns_on_few(graded, capsys, lookup_registered):
    assert main(["calibrate", str(graded), "--metric", "lookup", "-q", "--no-cache"]) == 0
    printed = capsys.readouterr().out
    assert "skipped (metric NaN): 2" in printed
    assert f"  {graded} line 13 (pair p6): better NaN (no score for this one)" in printed
    assert "Cohen's kappa: human scores are not binary (0/1)" in printed


def test_cli_unknown_metric_is_a_usage_error(graded, capsys):
    assert main(["calibrate", str(graded), "--metric", "nope"]) == 2
    error = capsys.readouterr().err
    assert "unknown metric 'nope'" in error and "faithfulness" in error


def test_cli_with_offline_faithfulness(offline_labels, tmp_path, capsys):
    report = tmp_path / "r.json"
    code = main(
        ["calibrate", str(offline_labels), "--metric", "faithfulness", "-q", "--no-cache", "-o", str(report)]
    )
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "0.900" in next(line for line in printed.out.splitlines() if "(preferences)" in line)
    assert json.loads(report.read_text())["figures"]["pairwise_accuracy"]["value"] == 1.0


class LowerLookup(Lookup):
    """Lookup for a metric where lower is better (as noise sensitivity, harmfulness, maliciousness)."""

    name = "lower_lookup"
    higher_is_better = False


def mirrored(path, tmp_path):
    """The same labels with every judge score s turned into 1 - s: what a lower-is-better judge gives."""

    def flip(row):
        score = row["metadata"]["score"]
        return {**row, "metadata": {"score": None if score is None else 1 - score}}

    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows = [
        {**row, "better": flip(row["better"]), "worse": flip(row["worse"])} if "better" in row else flip(row)
        for row in rows
    ]
    return write(tmp_path, rows, f"mirrored-{path.name}")


@pytest.mark.parametrize("labels", ["graded", "binary"])
def test_a_lower_is_better_metric_agrees_when_it_scores_the_better_answer_lower(labels, request, tmp_path):
    """Every figure (preferences, pairwise, Spearman, kappa, and their CIs) of a lower-is-better judge on
    mirrored scores equals the higher-is-better judge's on the originals; kappa counts a score at or
    below the threshold as good (1)."""
    path = request.getfixturevalue(labels)
    upward, downward = run(path), run(mirrored(path, tmp_path), LowerLookup())
    assert downward.figures() == upward.figures()
    assert not downward.higher_is_better and upward.higher_is_better
    assert downward.to_dict()["higher_is_better"] is False


NOISE_CONTEXTS = [
    "By default Prometheus keeps blocks for 15 days before deleting them. Thanos keeps blocks in object "
    "storage for one year.",
    "Prometheus stores samples in a local time series database on disk.",
]
RIGHT = "Prometheus keeps blocks for 15 days by default."
NOISY_ANSWER = "Thanos keeps blocks in object storage for one year."
HALF_NOISY = f"{RIGHT} {NOISY_ANSWER}"


def noise_row(response):
    return {
        "user_input": "How long does Prometheus keep blocks?",
        "response": response,
        "reference": RIGHT,
        "retrieved_contexts": NOISE_CONTEXTS,
    }


def test_cli_calibrates_offline_noise_sensitivity_where_lower_is_better(tmp_path, capsys):
    """Issue 27: labels the offline noise judge matches perfectly (it scores the good answers 0 and the
    noisy ones higher) came out as 0.0 agreement; every figure is 1."""
    good = [RIGHT, "Prometheus deletes blocks after 15 days.", NOISE_CONTEXTS[1]]
    rows = [{**noise_row(text), "human_score": 1} for text in good]
    rows += [{**noise_row(NOISY_ANSWER), "human_score": 0}]
    preferences = [(RIGHT, NOISY_ANSWER), (RIGHT, HALF_NOISY), (HALF_NOISY, NOISY_ANSWER)]
    rows += [{"better": noise_row(b), "worse": noise_row(w)} for b, w in preferences]
    report = tmp_path / "noise.json"
    command = ["calibrate", str(write(tmp_path, rows)), "-m", "noise_sensitivity", "-q", "--no-cache"]
    assert main([*command, "-o", str(report)]) == 0
    figures = json.loads(report.read_text())["figures"]
    assert {name: figure["value"] for name, figure in figures.items()} == {
        "preference_accuracy": 1.0,
        "pairwise_accuracy": 1.0,
        "spearman": 1.0,
        "kappa": 1.0,
    }
    assert "lower is better" in capsys.readouterr().out


def test_harmfulness_judged_by_an_llm_is_read_lower_is_better(stub, chat, tmp_path):
    """Through the stub: the judge flags the rude answers harmful (1), which people scored worse."""
    from .openai_stub import Reply

    def judge(body):
        harmful = "idiot" in body["messages"][-1]["content"]
        return Reply.json({"reason": "insults" if harmful else "polite", "verdict": harmful})

    stub.on_chat(judge)
    answers = [
        "Restart the server, you idiot.",
        "Restart the server.",
        "Check the logs, idiot.",
        "Check logs.",
    ]
    rows = [{"response": text, "human_score": int("idiot" not in text)} for text in answers]
    rows += [{"better": {"response": answers[1]}, "worse": {"response": answers[0]}}]
    agreement = run(write(tmp_path, rows), METRICS["harmfulness"](llm=chat))
    assert agreement.preference_accuracy.value == agreement.kappa.value == 1.0
    assert agreement.spearman.value == agreement.pairwise_accuracy.value == 1.0
