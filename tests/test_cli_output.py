"""What the CLI prints: user text as written, readable summaries, and no number it cannot back."""

from __future__ import annotations

import json
import math

import pytest

from groundset.cli import main
from groundset.scoring import METRICS, EvaluationDataset, EvaluationResult, SingleTurnSample, evaluate
from groundset.scoring.metric import Metric

from .corpora import EXAMPLE_DOCS

ROW = {
    "user_input": "How long are blocks kept?",
    "response": "Blocks are kept for 15 days.",
    "reference": "By default the Prometheus TSDB keeps blocks for 15 days.",
    "retrieved_contexts": ["Prometheus keeps blocks for 15 days by default."],
    "retrieved_context_ids": ["c1", "c2"],
    "reference_context_ids": ["c1"],
}


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text(
        "\n".join(json.dumps({**ROW, "user_input": f"{ROW['user_input']} {i}"}) for i in range(2))
    )
    return path


@pytest.mark.parametrize("name", ["run[bold]x.jsonl", "run[/]y.jsonl", "[red]z[/red].jsonl"])
def test_paths_are_printed_as_written(tmp_path, capsys, data, name):
    """Rich markup in a path once printed another name, or raised MarkupError after writing the file."""
    out_file = tmp_path / name
    code = main(
        ["evaluate", str(data), "--metrics", "faithfulness", "--out", str(out_file), "-q", "--no-cache"]
    )
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert f"wrote {out_file}" in printed.out
    assert out_file.is_file()


def test_help_shows_no_bool_placeholder_and_keeps_brackets(capsys):
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert "--version" in text and "<bool>" not in text
    assert main(["generate", "--help"]) == 0
    assert "<bool>" not in capsys.readouterr().out


def test_kg_show_prints_counts_not_python_dicts(tmp_path, capsys):
    kg = tmp_path / "kg"
    assert main(["kg", "build", str(EXAMPLE_DOCS), "--out", str(kg), "--no-cache", "-q"]) == 0
    capsys.readouterr()
    assert main(["kg", "show", str(kg)]) == 0
    shown = capsys.readouterr().out
    assert "{'" not in shown and "'}" not in shown
    assert shown.splitlines()[0].startswith("nodes: ") and "document 10" in shown.splitlines()[0]


def test_small_n_gets_no_interval_and_a_warning(data, capsys):
    assert main(["evaluate", str(data), "--metrics", "faithfulness", "-q", "--no-cache"]) == 0
    printed = capsys.readouterr().out
    row = next(line for line in printed.splitlines() if "faithfulness" in line and "│" in line)
    assert "0.000 - 0.000" not in row and "1.000 - 1.000" not in row
    assert "fewer than 5 scores for faithfulness" in printed


class NeedsAJudge(Metric):
    """A metric with no honest offline form."""

    name = "needs_a_judge"
    columns = ("response",)
    needs_llm = True
    runs_offline = False

    async def _ascore(self, sample, ctx):
        from groundset.core.errors import OfflineUnsupported

        raise OfflineUnsupported("test.judge", "no classical form of this judgement")


# Metrics whose constructor needs the user's definition, built here with one.
NEEDS_ARGUMENTS = {
    "aspect_critic": {"name": "aspect_critic", "definition": "Does the response give a number of days?"},
    "simple_criteria": {"name": "simple_criteria", "definition": "How precise is the response, 0 to 5?"},
}
CONVERSATION = {
    "user_input": [
        {"role": "user", "content": "How long are blocks kept?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "docs", "arguments": '{"q": "retention"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "15 days by default."},
        {"role": "assistant", "content": "Blocks are kept for 15 days."},
    ],
    "reference": "The user learns the retention period.",
    "reference_tool_calls": [{"name": "docs", "args": {"q": "retention"}}],
    "reference_topics": ["Prometheus storage"],
}


def test_every_metric_reports_offline_truthfully():
    """`runs_offline` was True for every metric whatever it did; now it is checked against a run."""
    from groundset.scoring.metrics.agents import ConversationMetric

    row = {**ROW, "reference_contexts": ["Prometheus keeps blocks for 15 days by default."]}
    row["response"] = 'Blocks are kept for 15 days: Prometheus "keeps blocks for 15 days by default".'
    row["rubrics"] = {"1": "wrong", "5": "right"}
    row["multi_responses"] = ["Blocks are kept for 15 days.", "Blocks are kept forever."]
    every = [cls(**NEEDS_ARGUMENTS.get(name, {})) for name, cls in METRICS.items()]
    # SQL queries and CSV tables are other inputs than this row's prose: tested on their own below
    # and in their metric's tests.
    own_inputs = {"llm_sql_equivalence", "data_compy_score"}
    single = [m for m in every if not isinstance(m, ConversationMetric) and m.name not in own_inputs]
    multi = [m for m in every if isinstance(m, ConversationMetric)]
    assert len(single) + len(multi) == len(METRICS) - len(own_inputs)
    metrics = single + [NeedsAJudge()]
    result = evaluate(EvaluationDataset([SingleTurnSample(**row)]), metrics, show_progress=False, cache=False)
    conversations = EvaluationDataset.from_list([CONVERSATION])
    talked = evaluate(conversations, multi, show_progress=False, cache=False)
    for metric, cell in [(m, result.cells[0][m.name]) for m in metrics] + [
        (m, talked.cells[0][m.name]) for m in multi
    ]:
        assert math.isnan(cell.value) != metric.runs_offline, (metric.name, cell)
        assert not cell.error, (metric.name, cell.error)
    assert "no classical form" in result.cells[0]["needs_a_judge"].reason
    assert "different measure" in result.notes["answer_relevancy"]
    assert "needs an LLM" in result.notes["needs_a_judge"]
    assert "faithfulness" not in result.notes


def test_offline_sql_equivalence_judges_only_identical_queries():
    """Its offline form is a number only for the same query written twice; never a false 0."""
    from groundset.scoring.metrics import LLMSQLEquivalence

    rows = [
        {"response": "select id from t;", "reference": "SELECT id FROM t"},
        {"response": "SELECT id FROM t WHERE x > 1", "reference": "SELECT id FROM t"},
    ]
    result = evaluate(
        EvaluationDataset.from_list(rows), [LLMSQLEquivalence()], show_progress=False, cache=False
    )
    assert result.scores("llm_sql_equivalence")[0] == 1.0
    assert math.isnan(result.scores("llm_sql_equivalence")[1])
    assert "cannot judge" in result.cells[1]["llm_sql_equivalence"].reason


def test_metrics_command_names_offline_forms(capsys, monkeypatch):
    monkeypatch.setitem(METRICS, NeedsAJudge.name, NeedsAJudge)
    assert main(["metrics"]) == 0
    lines = capsys.readouterr().out.splitlines()

    def offline_line(name: str) -> str:
        at = next(i for i, line in enumerate(lines) if line.startswith(name + " "))
        return lines[at + 1]

    assert "NaN (needs an LLM)" in offline_line("needs_a_judge")
    assert "DIFFERENT measure" in offline_line("answer_relevancy")
    assert "same measure" in offline_line("faithfulness")
    assert "no LLM needed" in offline_line("mrr")


def test_run_file_and_summary_say_when_an_offline_form_measures_something_else(data, tmp_path, capsys):
    out_file = tmp_path / "run.jsonl"
    assert main(["evaluate", str(data), "--metrics", "answer_relevancy", "--out", str(out_file), "-q"]) == 0
    assert "note: answer_relevancy: offline form, a different measure" in capsys.readouterr().out
    header = json.loads(out_file.read_text().splitlines()[0])
    assert "different measure" in header["notes"]["answer_relevancy"]
    assert "different measure" in EvaluationResult.load(out_file).notes["answer_relevancy"]


def test_a_run_without_the_shared_corpora_says_what_it_left_out(tmp_path):
    """-q hides the header line, so the summary must name the modules that were not run."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "GROUNDSET_SHARED_CORPORA": str(tmp_path / "absent")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_records.py::test_json_errors_do_not_say_at_at",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.strip().splitlines()
    from .conftest import NEEDS_SHARED_CORPORA

    expected = f"NOT RUN: {len(NEEDS_SHARED_CORPORA)} test modules"
    assert any(line.startswith(expected) and "test_kg_build.py" in line for line in summary), summary
