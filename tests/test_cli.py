"""The CLI skeleton: version, help, models, and one-line errors."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from groundset import __version__
from groundset.cli import main


def test_version_and_help(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"groundset {__version__}"
    assert main(["--help"]) == 0
    assert "models" in capsys.readouterr().out


def test_models_offline_by_default(capsys):
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "offline" in out and "default: nothing configured" in out and "offline:wordllama-256" in out


def test_models_reports_where_the_config_came_from(capsys, monkeypatch):
    monkeypatch.setenv("GROUNDSET_LLM", "openai:gpt-4o-mini")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert main(["models", "--embeddings", "offline:256"]) == 0
    out = capsys.readouterr().out
    assert "ChatOpenAI gpt-4o-mini" in out and "environment variable GROUNDSET_LLM" in out
    assert "offline:hashing-256" in out and "argument" in out


def test_errors_are_one_line_with_nonzero_exit(capsys):
    assert main(["models", "--llm", "nonsense:model"]) == 1
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [
        "error: llm: unknown model spec 'nonsense:model'; "
        "use 'offline' or 'openai:<model>' (e.g. openai:gpt-4o-mini)"
    ]
    assert "Traceback" not in captured.err


def test_debug_shows_the_traceback():
    with pytest.raises(Exception, match="unknown model spec"):
        main(["--debug", "models", "--llm", "nonsense:model"])


def test_usage_errors_exit_2(capsys):
    assert main(["models", "--no-such-flag"]) == 2
    assert "No such option" in capsys.readouterr().err


def test_console_script_is_installed():
    exe = shutil.which("groundset") or shutil.which(
        "groundset", path=str(__import__("pathlib").Path(sys.executable).parent)
    )
    assert exe, "the groundset console script is not installed"
    done = subprocess.run([exe, "models", "--llm", "bad"], capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("error: llm: unknown model spec 'bad'")


def test_public_api_names_resolve():
    import groundset

    for name in groundset.__all__:
        assert getattr(groundset, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        groundset.nope  # noqa: B018
