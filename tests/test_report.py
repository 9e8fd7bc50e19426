"""HTML reports: right numbers in the right places, every piece of data escaped, nothing fetched from
anywhere, and no crash on the data real runs produce (no samples, unscored metrics, many samples)."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from groundset.samples.dataset import EvaluationDataset
from groundset.scoring.compare import MetricComparison, RunComparison, SampleChange
from groundset.scoring.report import write_comparison_report, write_run_report
from groundset.scoring.report.breakdowns import breakdown
from groundset.scoring.report.samples import worst_indices
from groundset.scoring.result import Cell, EvaluationResult, TargetCall

NAN = float("nan")
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
# Any attribute or CSS reference that would make a browser fetch something (or run something).
EXTERNAL = re.compile(
    r"""(?:\bsrc|\bhref)\s*=\s*["']?\s*(?:[a-z]+:|//)|url\(\s*["']?\s*(?:[a-z]+:|//)""", re.I
)


def _row(n: int, synthesizer: str, docs: list[str], **extra) -> dict:
    return {
        "user_input": f"Question {n}: how do I rotate the key?",
        "response": f"Answer {n}",
        "retrieved_contexts": [f"context {n} one", f"context {n} two"],
        "reference": f"Reference {n}",
        "metadata": {
            "id": f"s-{n}",
            "synthesizer": synthesizer,
            "persona": "admin" if n % 2 else "new user",
            "style": "formal",
            "length": "short",
            "source_documents": docs,
            "label": f"label-{n}",
            **extra,
        },
    }


def build_result() -> EvaluationResult:
    """Four samples, two synthesizers, a NaN with a reason, a metric error, a failed target call and
    hostile text in a response, a context, a reason and a group label."""
    rows = [
        _row(0, "single_hop", ["docs/a.md", "docs/b.md"]),
        _row(1, "single_hop", ["docs/a.md"]),
        _row(2, "multi_hop", ["docs/b.md"]),
        _row(3, f"multi_hop {SCRIPT}", [f"docs/$x$ {SCRIPT}.md"]),
    ]
    rows[0]["response"] = f"It is {SCRIPT} done"
    rows[0]["retrieved_contexts"][1] = f"doc {IMG} " + "long " * 600
    dataset = EvaluationDataset.from_list(rows)
    dataset.extra_columns = ["label"]
    cells = [
        {
            "faithfulness": Cell(1.0, "all claims supported"),
            "relevancy": Cell(0.8, trace={"q": ["a", SCRIPT]}),
        },
        {"faithfulness": Cell(0.5, f"half {IMG}"), "relevancy": Cell(NAN, error=f"judge failed: {SCRIPT}")},
        {"faithfulness": Cell(NAN, "no retrieved contexts"), "relevancy": Cell(0.6)},
        {"faithfulness": Cell(0.25, "mostly unsupported"), "relevancy": Cell(0.4)},
    ]
    usage = {
        "metric.faithfulness": {
            "calls": 3,
            "cache_hits": 1,
            "input_tokens": 1200,
            "output_tokens": 300,
            "cost": 0.0012,
        },
        "metric.relevancy": {"calls": 2, "input_tokens": 800, "output_tokens": 100, "cost": 0.0008},
    }
    calls = [TargetCall(0.12), TargetCall(1.5), TargetCall(error=f"HTTP 500 {SCRIPT}"), TargetCall(0.3)]
    return EvaluationResult(
        dataset,
        ["faithfulness", "relevancy"],
        cells,
        usage,
        notes={"relevancy": "offline form: measures word overlap"},
        target="baseline bm25 top_k=5, offline",
        target_calls=calls,
    )


def summary_row(page: str, metric: str) -> list[str]:
    """The cells of ``metric``'s row in the summary table, as text."""
    summary = page[page.index('id="summary"') :]
    summary = summary[: summary.index("</table>")]
    for row in re.findall(r"<tr>(.*?)</tr>", summary, re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if cells and cells[0] == metric:
            return cells
    raise AssertionError(f"no summary row for {metric}")


def section(page: str, heading: str) -> str:
    start = page.index(f"<h2>{heading}</h2>")
    end = page.find("<h2>", start + 1)
    return page[start : end if end > 0 else len(page)]


def test_run_report_is_written_with_the_right_summary_and_no_external_reference(tmp_path):
    path = write_run_report(build_result(), tmp_path / "out" / "report.html")
    assert path == tmp_path / "out" / "report.html"
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert summary_row(page, "faithfulness")[:2] == ["faithfulness", "0.583"]  # (1 + 0.5 + 0.25) / 3
    assert summary_row(page, "relevancy")[1:] == ["0.600", "-", "3", "1", "1"]  # 3 scored: no CI below 5
    assert "offline form: measures word overlap" in page
    assert "<script" not in page.lower()
    assert not EXTERNAL.findall(page), EXTERNAL.findall(page)
    assert "http://" not in page and "https://" not in page  # not even the SVG namespaces or doctype
    assert page.count("<svg") >= 3  # two histograms and the synthesizer bars
    ids = Counter(re.findall(r'\bid="([^"]+)"', page))
    assert not [i for i, n in ids.items() if n > 1], "ids repeat across inline SVGs"
    assert "baseline bm25 top_k=5, offline" in page and "groundset" in page


def test_target_and_usage_sections_show_their_figures(tmp_path):
    page = write_run_report(build_result(), tmp_path / "r.html").read_text(encoding="utf-8")
    target = section(page, "Target")
    assert re.search(r">4</td><td[^>]*>1</td><td[^>]*>300 ms</td><td[^>]*>1.38 s</td>", target), target
    usage = section(page, "Usage and cost")
    total = re.search(r'<tr class="total">(.*?)</tr>', usage).group(1)
    assert re.sub(r"<[^>]+>", " ", total).split() == ["total", "5", "1", "2,000", "400", "0.0020"]


def test_breakdown_by_synthesizer_lists_each_group_with_its_n(tmp_path):
    page = write_run_report(build_result(), tmp_path / "r.html").read_text(encoding="utf-8")
    groups = section(page, "Breakdowns")
    synth = groups[groups.index("by synthesizer") : groups.index("by persona")]
    assert re.search(r"<td>single_hop</td><td[^>]*>2</td><td[^>]*>0.750</td>", synth)
    assert re.search(r"<td>multi_hop</td><td[^>]*>1</td>", synth)
    assert "multi_hop &lt;script&gt;" in synth  # the hostile group name, shortened but escaped
    # A sample with two source documents counts in both; style has one value, so no table for it.
    docs = groups[groups.index("by source document") :]
    assert re.search(r"<td>docs/a.md</td><td[^>]*>2</td>", docs)
    assert re.search(r"<td>docs/b.md</td><td[^>]*>2</td>", docs)
    assert "by query style" not in groups and "by length" not in groups
    assert "by column label" not in groups  # one value per sample: an identifier, not a category


def test_long_group_labels_are_cut_with_the_full_text_in_the_title(tmp_path):
    result = build_result()
    long_name = "persona who " + "reads every page " * 8 + SCRIPT
    result.dataset[0].metadata["persona"] = long_name
    page = write_run_report(result, tmp_path / "r.html").read_text(encoding="utf-8")
    persona = section(page, "Breakdowns").split("by persona")[1]
    escaped = long_name.replace("<", "&lt;").replace(">", "&gt;")
    assert f'title="{escaped}"' in persona and "…</span>" in persona


def test_data_text_appears_only_escaped(tmp_path):
    page = write_run_report(build_result(), tmp_path / "r.html", title=f"Run {SCRIPT}").read_text("utf-8")
    assert SCRIPT not in page and "<img" not in page and "onerror=alert(1)>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<title>Run &lt;script&gt;" in page


def test_worst_samples_show_the_sample_and_why_it_scored_low(tmp_path):
    page = write_run_report(build_result(), tmp_path / "r.html").read_text(encoding="utf-8")
    worst = section(page, "Worst-scoring samples")
    faith = worst[: worst.index("<h3>relevancy</h3>")]
    order = re.findall(r"<summary><b>([0-9.]+)</b> · <span[^>]*>#(\d+)", faith)
    assert order == [("0.250", "3"), ("0.500", "1"), ("1.000", "0")]  # lowest first, the NaN left out
    assert "mostly unsupported" in faith and "label-3" in faith  # the reason and the user's column
    assert "[2]" in faith and "(cut: 3,035 characters in all" in faith  # each context, long ones cut
    relevancy = worst[worst.index("<h3>relevancy</h3>") :]
    assert "&quot;q&quot;: [&quot;a&quot;, &quot;&lt;script&gt;" in relevancy  # the trace as escaped JSON


def test_ties_are_broken_by_position():
    assert worst_indices([0.5, 0.1, NAN, 0.1, 0.0, 0.1, 0.9], k=3) == [4, 1, 3]
    assert worst_indices([NAN, NAN]) == []


def test_failed_rows_list_target_and_metric_errors(tmp_path):
    page = write_run_report(build_result(), tmp_path / "r.html").read_text(encoding="utf-8")
    failed = section(page, "Failed rows")
    assert "2 of 4 samples have an error" in failed
    assert "HTTP 500 &lt;script&gt;" in failed and "judge failed: &lt;script&gt;" in failed
    assert "failed: target" in failed and "failed: relevancy" in failed


def test_empty_result_does_not_crash_and_says_so(tmp_path):
    result = EvaluationResult(EvaluationDataset.from_list([]), ["faithfulness"], [], target_calls=[])
    page = write_run_report(result, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "No samples: the run scored nothing." in page
    assert summary_row(page, "faithfulness")[1:] == ["-", "-", "0", "0", "0"]
    assert "faithfulness: no scores to plot" in page and "No usage recorded." in page


def test_all_nan_metric_and_constant_scores_are_said_not_plotted(tmp_path):
    result = build_result()
    for row in result.cells:
        row["faithfulness"] = Cell(NAN, "needs retrieved contexts")
        row["relevancy"] = Cell(1.0)
    page = write_run_report(result, tmp_path / "r.html").read_text(encoding="utf-8")
    assert summary_row(page, "faithfulness")[1:4] == ["-", "-", "0"]
    assert "no sample was scored" in page and "needs retrieved contexts (4)" in page
    assert "faithfulness: no scores to plot" in page
    assert "relevancy: all 4 scores are 1; nothing to plot" in page
    assert "No sample has a score for this metric." in page


def test_offline_usage_says_no_model_calls(tmp_path):
    result = build_result()
    result.usage = {"metric.faithfulness": {"offline": 4}, "metric.relevancy": {"offline": 4, "cost": 0.0}}
    page = write_run_report(result, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "offline: no model calls" in page
    result.usage["metric.relevancy"]["calls"] = 1
    page = write_run_report(result, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "offline: no model calls" not in page


def test_breakdown_needs_two_groups_and_counts_list_values_in_each():
    metadatas = [{"source_documents": ["a", "b"]}, {"source_documents": ["a"]}, {}]
    found = breakdown(metadatas, {"m": [1.0, 0.0, NAN]}, "source_documents", "source document")
    assert [(g.label, g.n, g.scored["m"]) for g in found.groups] == [
        ("a", 2, 2),
        ("(not set)", 1, 0),
        ("b", 1, 1),
    ]
    assert found.groups[0].means["m"] == 0.5 and math.isnan(found.groups[1].means["m"])
    assert breakdown([{"style": "x"}, {"style": "x"}], {"m": [1.0, 1.0]}, "style", "style") is None


def test_many_samples_show_aggregates_and_cap_failed_rows(tmp_path):
    n = 20_000
    rows = [
        {
            "user_input": f"q{i}",
            "response": "r",
            "metadata": {"synthesizer": ("a", "b")[i % 2], "id": f"s{i}"},
        }
        for i in range(n)
    ]
    cells = [{"m": Cell((i % 100) / 100)} if i % 10 else {"m": Cell(NAN, error="timeout")} for i in range(n)]
    result = EvaluationResult(EvaluationDataset.from_list(rows), ["m"], cells)
    page = write_run_report(result, tmp_path / "big.html").read_text(encoding="utf-8")
    assert len(page) < 500_000  # aggregates and a bounded set of samples, not 20,000 rows
    assert "2,000 of 20,000 samples have an error" in page
    assert "… and 1,950 more samples with errors, not shown." in page
    assert section(page, "Failed rows").count("<details") == 50
    assert summary_row(page, "m")[3:] == ["18,000", "2,000", "2,000"]


# Comparison reports. The real dataclasses are used; a stand-in without ``verdict`` checks that the
# report reads only attributes and decides the verdict itself then.


def _metric(name: str, diff: float, low: float, high: float, n: int = 20) -> MetricComparison:
    return MetricComparison(name, n, 0.5, 0.5 + diff, diff, low, high, wins=8, ties=4, losses=8)


def build_comparison() -> RunComparison:
    metrics = {
        "up": _metric("up", 0.2, 0.1, 0.3),
        "down": _metric("down", -0.2, -0.3, -0.1),
        "flat": _metric("flat", 0.01, -0.05, 0.07),
        "few": _metric("few", 0.1, NAN, NAN, n=3),
    }
    changes = [
        SampleChange("s-1", "up", 0.0, 1.0, 1.0, f"Why {SCRIPT}?", f"old {IMG}", "new answer"),
        SampleChange("s-2", "down", 0.9, 0.1, -0.8, "How?", "fine answer", f"broken {SCRIPT}"),
    ]
    return RunComparison("run_a.jsonl", "run_b.jsonl", "bm25", "dense <x>", 20, 2, 0, metrics, changes)


def verdicts(page: str) -> dict[str, str]:
    return {m: summary_row(page, m)[-1] for m in ("up", "down", "flat", "few")}


EXPECTED = {"up": "better", "down": "worse", "flat": "no clear change", "few": "too few pairs"}


def test_comparison_report_verdicts_and_escaping(tmp_path):
    page = write_comparison_report(build_comparison(), tmp_path / "cmp.html").read_text(encoding="utf-8")
    assert verdicts(page) == EXPECTED
    assert summary_row(page, "up")[1:7] == ["20", "0.500", "0.700", "+0.200", "[+0.100, +0.300]", "8 / 4 / 8"]
    assert "<svg" in page and "<script" not in page.lower() and not EXTERNAL.findall(page)
    assert SCRIPT not in page and "<img" not in page and "dense &lt;x&gt;" in page
    assert "2 only in A" in page
    changed = section(page, "Samples that changed most")
    assert "new answer" in changed and "broken &lt;script&gt;" in changed and "+1.000" in changed


def test_comparison_report_uses_the_lower_is_better_verdict(tmp_path):
    comparison = build_comparison()
    comparison.metrics["noise_sensitivity"] = _metric("noise_sensitivity", 0.2, 0.1, 0.3)
    page = write_comparison_report(comparison, tmp_path / "cmp.html").read_text(encoding="utf-8")
    assert summary_row(page, "noise_sensitivity")[-1] == "worse"


@dataclass
class StandIn:
    """Only the data fields, no methods: what another tool might hand the report."""

    label_a: str
    label_b: str
    target_a: str
    target_b: str
    paired: int
    only_a: int
    only_b: int
    metrics: dict
    changes: list = field(default_factory=list)


def test_comparison_report_reads_only_attributes(tmp_path):
    real = build_comparison()
    stand_in = StandIn("a", "b", "", "", 20, 0, 0, real.metrics)
    page = write_comparison_report(stand_in, tmp_path / "cmp.html").read_text(encoding="utf-8")
    assert verdicts(page) == EXPECTED and "No sample changed." in page


def test_comparison_without_pairs_says_so(tmp_path):
    empty = RunComparison("a", "b", "", "", 0, 3, 3, {}, [])
    page = write_comparison_report(empty, tmp_path / "cmp.html").read_text(encoding="utf-8")
    assert "The two runs share no metric." in page and "nothing to plot" in page


def test_multi_turn_samples_show_the_conversation(tmp_path):
    turns = [{"type": "human", "content": f"reset {SCRIPT}"}, {"type": "ai", "content": "done"}]
    dataset = EvaluationDataset.from_list([{"user_input": turns, "reference": "reset it"}])
    result = EvaluationResult(dataset, ["goal"], [{"goal": Cell(0.5, "half way")}])
    page = result.report(tmp_path / "mt.html").read_text(encoding="utf-8")
    assert "human: reset &lt;script&gt;alert(1)&lt;/script&gt;\nai: done" in page and SCRIPT not in page


# Long texts: the report shows a bounded head of each text with its full length; the run file keeps it whole.

TEN_MB = 10 * 2**20


def huge(tag: str) -> str:
    """A 10 MB answer that starts with ``tag`` and ends with a tail no cut report can show."""
    filler = "word <&> " * (TEN_MB // 9 + 1)
    return (tag + " " + filler)[: TEN_MB - 9] + " THE-TAIL"


def huge_run() -> EvaluationResult:
    """Two samples with 10 MB answers, scored by the four default metrics: each sample is among the five
    worst of every metric; faithfulness keeps the answer as a statement in its trace, as a real run does, and
    a column of the user's holds it too (shown with the sample and as a breakdown group)."""
    metrics = ["faithfulness", "answer_relevancy", "context_precision", "context_recall"]
    answers = [huge(f"ANSWER-{n}") for n in range(2)]
    rows = [
        {
            "user_input": f"q{n}",
            "response": answers[n],
            "retrieved_contexts": ["c"],
            "metadata": {"id": f"s{n}", "note": answers[n]},
        }
        for n in range(2)
    ]
    cells = [
        {
            m: Cell(0.1 * n, "why", trace={"statements": [answers[n]]} if m == "faithfulness" else {})
            for m in metrics
        }
        for n in range(2)
    ]
    dataset = EvaluationDataset.from_list(rows)
    dataset.extra_columns = ["note"]
    return EvaluationResult(dataset, metrics, cells, target="big")


def test_two_ten_megabyte_answers_give_a_bounded_report_that_states_their_length(tmp_path):
    result = huge_run()
    path = write_run_report(result, tmp_path / "big.html")
    assert path.stat().st_size < 250_000  # was 84 MB: each answer whole, 4 times
    page = path.read_text(encoding="utf-8")
    assert f"cut: {TEN_MB:,} characters in all; the run file keeps it whole" in page
    assert "THE-TAIL" not in page and "word &lt;&amp;&gt; word" in page  # cut first, then escaped
    result.to_jsonl(tmp_path / "run.jsonl")
    whole = EvaluationResult.load(tmp_path / "run.jsonl")
    assert [len(sample.response) for sample in whole.dataset] == [TEN_MB, TEN_MB]


def test_a_sample_low_in_every_metric_shows_its_texts_once_and_links_to_them(tmp_path):
    result = build_result()
    result.dataset[3].response = "The key rotates nightly " + "in the vault " * 40
    page = write_run_report(result, tmp_path / "r.html").read_text(encoding="utf-8")
    worst = section(page, "Worst-scoring samples")
    assert worst.count(result.dataset[3].response) == 1  # sample 3 is among the worst of both metrics
    relevancy = worst[worst.index("<h3>relevancy</h3>") :]
    assert 'href="#sample-3"' in relevancy and "0.400" in relevancy and 'id="sample-3"' in worst
    failed = section(page, "Failed rows")
    assert "judge failed: &lt;script&gt;" in failed and 'href="#sample-1"' in failed  # shown above already


def test_cuts_fall_before_escaping_never_inside_an_escape():
    from groundset.scoring.report.page import TEXT_CHARS, text

    shown = text("x" * (TEXT_CHARS - 2) + "<&>" * 10)
    assert "x&lt;&amp;…</div>" in shown and "&gt;" not in shown
    assert "cut: 20,028 characters in all" in shown
    assert text("<&>") == '<div class="text">&lt;&amp;&gt;</div>'  # short text: whole, no cut said


def test_comparison_report_cuts_long_answers_and_shows_each_pair_once(tmp_path):
    comparison = build_comparison()
    old, new = huge("OLD-ANSWER"), huge("NEW-ANSWER")
    comparison.changes = [
        SampleChange("s-9", metric, 0.9, 0.1, -0.8, "Why?", old, new) for metric in ("up", "down", "flat")
    ]
    path = write_comparison_report(comparison, tmp_path / "cmp.html")
    assert path.stat().st_size < 150_000  # was 63 MB: both answers whole, once per metric
    page = path.read_text(encoding="utf-8")
    changed = section(page, "Samples that changed most")
    assert changed.count("OLD-ANSWER") == 1 and changed.count("NEW-ANSWER") == 1
    assert changed.count(f"cut: {TEN_MB:,} characters in all") == 2 and "THE-TAIL" not in page
    assert 'id="pair-1"' in changed and changed.count('href="#pair-1"') == 2 and changed.count("-0.800") == 3


def test_comparison_report_shows_each_pair_of_a_repeated_id(tmp_path):
    """A run may repeat a sample id (``compare`` pairs those in order): different samples are not one."""
    comparison = build_comparison()
    comparison.changes = [
        SampleChange("s-9", "up", 0.0, 1.0, 1.0, "Why?", "first old", "first new"),
        SampleChange("s-9", "down", 0.9, 0.1, -0.8, "How?", "second old", "second new"),
    ]
    page = write_comparison_report(comparison, tmp_path / "cmp.html").read_text(encoding="utf-8")
    changed = section(page, "Samples that changed most")
    assert all(answer in changed for answer in ("first old", "first new", "second old", "second new"))
    assert 'id="pair-2"' in changed and 'href="#pair-1"' not in changed
