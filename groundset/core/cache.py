"""The persistent call cache: SQLite, keyed by a hash of everything that shapes a model's answer.

It makes reruns and resumed runs free: a finished call is stored the moment it returns, so
an interrupted run repeats none of them. It stores answers only, never requests, headers or
keys. WAL mode lets several processes share one cache file.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from .errors import ConfigError

CACHE_ENV = "GROUNDSET_CACHE_DIR"
FILENAME = "calls.sqlite"


def default_cache_dir() -> Path:
    """GROUNDSET_CACHE_DIR if set, else the user cache dir (e.g. ~/.cache/groundset)."""
    env = os.environ.get(CACHE_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("groundset"))


class CallCache:
    """A key -> bytes store in one SQLite file, safe across threads and processes."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory).expanduser()
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self.path = self.directory / FILENAME
            self._conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS calls ("
                "key TEXT PRIMARY KEY, kind TEXT NOT NULL, value BLOB NOT NULL, created REAL NOT NULL)"
            )
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(
                f"cannot open the call cache in {self.directory}: {exc}; "
                f"pass another directory (--cache DIR or {CACHE_ENV}) or disable it (--no-cache)"
            ) from exc
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            row = self._conn.execute("SELECT value FROM calls WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    def get_many(self, keys: Iterable[str]) -> dict[str, bytes]:
        keys = list(dict.fromkeys(keys))
        found: dict[str, bytes] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = self._conn.execute(f"SELECT key, value FROM calls WHERE key IN ({marks})", part)
                found.update((k, bytes(v)) for k, v in rows)
        return found

    def put(self, key: str, value: bytes, kind: str) -> None:
        self.put_many([(key, value)], kind)

    def put_many(self, items: Iterable[tuple[str, bytes]], kind: str) -> None:
        now = time.time()
        rows = [(k, kind, sqlite3.Binary(v), now) for k, v in items]
        if not rows:
            return
        with self._lock:
            self._conn.executemany("INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?)", rows)

    def __len__(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM calls").fetchone()[0]

    def clear(self) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM calls")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"CallCache({str(self.path)!r})"


def open_cache(cache: bool | str | Path | CallCache | None) -> CallCache | None:
    """``True``/``None`` -> default dir; ``False`` -> no cache; a path -> that dir."""
    if isinstance(cache, CallCache):
        return cache
    if cache is False:
        return None
    if cache is None or cache is True:
        return CallCache(default_cache_dir())
    return CallCache(cache)
