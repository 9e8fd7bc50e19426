"""`groundset cache clear` removes what it asked about, and says when the space was not given back.

Review issue 5: the age cutoff is fixed once, so a slow answer to the confirmation cannot widen what is
removed; and a VACUUM that fails because another process holds the file is reported, not passed over.
Time is a fake clock here: nothing depends on how long a test takes.
"""

from __future__ import annotations

import sqlite3
import time

import pytest
import typer
from typer.testing import CliRunner

from groundset.cli import app
from groundset.cli.cache import _size
from groundset.core import CallCache
from groundset.core.cache import DAY

NOW = 1_700_000_000.0


def _clear(where, *args: str, answer: str = "") -> str:
    result = CliRunner().invoke(app, ["cache", "clear", "--cache", str(where), *args], input=answer)
    assert result.exit_code == 0, result.output
    return result.output


def _busy_while(real_vacuum):
    """VACUUM while another connection holds the write lock, failing at once instead of after 30 s."""

    def vacuum(self: CallCache) -> bool:
        self._conn.execute("PRAGMA busy_timeout = 0")
        other = sqlite3.connect(self.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            return real_vacuum(self)
        finally:
            other.close()

    return vacuum


def test_clear_removes_only_the_entries_the_confirmation_named(tmp_path, monkeypatch):
    clock = [NOW]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    cache = CallCache(tmp_path)
    for key, age_in_days in {"old": 10, "recent": 1.5, "new": 0}.items():
        clock[0] = NOW - age_in_days * DAY
        cache.put(key, b"1", "chat", label="p")
    cache.close()
    clock[0] = NOW
    real_confirm = typer.confirm

    def answered_a_day_later(*args, **kwargs):
        clock[0] += DAY
        return real_confirm(*args, **kwargs)

    monkeypatch.setattr(typer, "confirm", answered_a_day_later)
    shown = _clear(tmp_path, "--older-than", "2", answer="y\n")
    assert "remove 1 entry older than 2 days" in shown and "removed 1 entry older than 2 days" in shown
    monkeypatch.undo()
    left = CallCache(tmp_path)
    assert left.get("old") is None and left.get("recent") == b"1" and len(left) == 2
    left.close()


def test_count_and_remove_agree_on_one_cutoff(tmp_path, monkeypatch):
    clock = [NOW - 3 * DAY]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    cache = CallCache(tmp_path)
    cache.put_many([("a", b"1"), ("b", b"2")], "chat")
    clock[0] = NOW
    cache.put("c", b"3", "chat")
    before = NOW - DAY
    assert cache.count(before=before) == 2 == cache.remove(before=before)
    assert cache.count(older_than_days=1) == 0 and len(cache) == 1
    with pytest.raises(ValueError, match="either"):
        cache.remove(before=before, older_than_days=1)
    cache.close()


def test_vacuum_says_whether_the_space_was_given_back(tmp_path):
    cache = CallCache(tmp_path)
    cache.put("a", b"1", "chat")
    assert cache.vacuum() is True
    assert _busy_while(CallCache.vacuum)(cache) is False
    cache.close()


def test_clear_reports_space_not_reclaimed_when_the_database_is_busy(tmp_path, monkeypatch):
    cache = CallCache(tmp_path)
    cache.put_many([("a", b"1"), ("b", b"2"), ("c", b"3")], "chat")
    cache.close()
    assert "not reclaimed" not in _clear(tmp_path, "--older-than", "1", "--yes")  # nothing removed
    monkeypatch.setattr(CallCache, "vacuum", _busy_while(CallCache.vacuum))
    assert "removed 3 entries; space not reclaimed (database busy)" in _clear(tmp_path, "--yes")


def test_sizes_are_shown_in_the_largest_fitting_unit():
    assert [_size(n) for n in (0, 1023, 1024, 5 * 1024**2, 3 * 1024**3, 2048 * 1024**3)] == [
        "0 bytes",
        "1023 bytes",
        "1.0 KB",
        "5.0 MB",
        "3.0 GB",
        "2048.0 GB",
    ]
