"""The whole loop offline on the shared Prometheus docs: generate -> score the baseline -> report -> compare.

This is the check a new user would do by hand: every row scored, the retriever finds the reference
chunks (ID-based context recall > 0), the report opens in a real browser, and a worse retriever
(top_k=1 against top_k=5) shows up as a regression whose CI excludes 0, with the exit code to match.
"""

from __future__ import annotations

import math

import pytest

from groundset.cli import main
from groundset.kg.graph import KnowledgeGraph, NodeKind
from groundset.scoring.compare import compare_runs
from groundset.scoring.result import EvaluationResult

from .browser_support import browser  # noqa: F401 - the browser fixture
from .corpora import PROMETHEUS_DOCS
from .test_report_browser import Opened


@pytest.fixture(scope="module")
def loop(tmp_path_factory):
    """One offline generate and two baseline runs (top_k 5 and 1), shared by the tests below."""
    folder = tmp_path_factory.mktemp("loop")
    testset, kg = folder / "testset.jsonl", folder / "kg"
    common = ["--no-cache", "-q"]
    assert (
        main(
            [
                "generate",
                str(PROMETHEUS_DOCS),
                "-n",
                "30",
                "--out",
                str(testset),
                "--save-kg",
                str(kg),
                *common,
            ]
        )
        == 0
    )
    runs = {}
    for k in (5, 1):
        run = folder / f"top{k}.jsonl"
        args = [
            "score",
            "--testset",
            str(testset),
            "--target",
            "baseline",
            "--kg",
            str(kg),
            "--top-k",
            str(k),
        ]
        assert main([*args, "--out", str(run), "--report", str(folder / f"top{k}.html"), *common]) == 0
        runs[k] = run
    return folder, runs


def test_every_row_of_the_baseline_run_is_scored_and_the_retriever_finds_reference_chunks(loop):
    _, runs = loop
    result = EvaluationResult.load(runs[5])
    assert len(result.cells) == 30
    assert result.target.startswith("baseline (BM25 top_k=5")
    assert result.target_summary()["errors"] == 0
    for row in result.cells:
        assert not any(cell.error for cell in row.values())
        assert not math.isnan(row["faithfulness"].value) and not math.isnan(row["id_context_recall"].value)
    aggregate = result.aggregate()
    assert aggregate["id_context_recall"]["mean"] > 0.3
    assert aggregate["context_recall"]["mean"] > 0


def test_top_k_1_against_top_k_5_is_a_regression_with_the_exit_code_to_match(loop, capsys):
    _, runs = loop
    comparison = compare_runs(runs[5], runs[1])
    recall = comparison.metrics["id_context_recall"]
    assert comparison.paired == 30
    assert recall.ci_high < 0 and comparison.verdict("id_context_recall") == "worse"
    capsys.readouterr()
    args = ["compare", str(runs[5]), str(runs[1]), "--fail-on-regression"]
    within = round(-recall.ci_high / 2, 3)  # the whole CI lies below -within: the gate must fail
    assert main([*args, f"id_context_recall={within}"]) == 1
    assert "REGRESSION id_context_recall" in capsys.readouterr().out
    assert main([*args, "id_context_recall=0.95"]) == 0  # a drop smaller than the allowed delta passes


def test_the_report_of_the_run_opens_in_chromium(loop, browser):  # noqa: F811 - the imported fixture
    folder, runs = loop
    opened = Opened(browser, folder / "top5.html")
    metrics = EvaluationResult.load(runs[5]).metrics
    assert opened.page.locator("#summary").is_visible()
    assert opened.page.locator("#summary tbody tr").count() == len(metrics)
    assert opened.drawn_svgs() >= len(metrics)
    opened.open_all_details()
    opened.check_clean()
    opened.page.close()


def test_document_markup_reaches_the_report_escaped(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "hostile.md").write_text(
        "# Widgets\n\nThe widget service stores its state in `<script>alert(1)</script>` blocks, and the "
        "widget cache keeps 30 entries by default before it evicts the oldest one.\n",
        encoding="utf-8",
    )
    kg_dir = tmp_path / "kg"
    assert main(["kg", "build", str(docs), "--out", str(kg_dir), "--no-cache", "-q"]) == 0
    chunk = KnowledgeGraph.load(kg_dir).nodes(NodeKind.CHUNK)[0]
    assert "<script>" in KnowledgeGraph.load(kg_dir).get(chunk)["text"]
    (tmp_path / "t.jsonl").write_text(
        '{"user_input": "Where does the widget service store its state?", "reference": "In script blocks."}\n'
    )
    report = tmp_path / "r.html"
    args = ["score", "--testset", str(tmp_path / "t.jsonl"), "--target", "baseline", "--kg", str(kg_dir)]
    assert main([*args, "--report", str(report), "--metrics", "faithfulness,context_recall", "-q"]) == 0
    html = report.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script" not in html.lower()
