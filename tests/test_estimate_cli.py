"""`groundset generate --estimate`: the bill before paying it, from the command line."""

from __future__ import annotations

from groundset.cli import main

from .conftest import FAKE_KEY
from .corpora import EXAMPLE_DOCS


def test_estimate_calls_no_model_and_writes_nothing(stub, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    out = tmp_path / "t.jsonl"
    args = ["generate", str(EXAMPLE_DOCS), "-n", "4", "--out", str(out), "-q"]
    models = ["--llm", "openai:gpt-4o-mini", "--embeddings", "openai:text-embedding-3-small"]
    assert main([*args, *models, "--estimate"]) == 0
    printed = capsys.readouterr().out
    assert "estimate (dry run: no model was called)" in printed and "chat (gpt-4o-mini):" in printed
    assert "$" in printed  # a priced model: the cost is shown
    assert stub.requests == [] and not out.exists()
    assert FAKE_KEY not in printed


def test_offline_estimate_is_zero(tmp_path, capsys):
    args = ["generate", str(EXAMPLE_DOCS), "-n", "3", "--out", str(tmp_path / "t.jsonl"), "-q", "--estimate"]
    assert main(args) == 0
    assert "chat: offline, no calls" in capsys.readouterr().out
