"""The persistent call cache: SQLite, keyed by a hash of everything that shapes a model's answer.

It makes reruns and resumed runs free: a finished call is stored the moment it returns, so
an interrupted run repeats none of them. It stores answers only, never requests, headers or
keys; each entry is labelled with the prompt that asked for it, so `groundset cache clear
--prompt NAME` can drop one prompt's answers. WAL mode lets several processes share one file.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import ConfigError

CACHE_ENV = "GROUNDSET_CACHE_DIR"
FILENAME = "calls.sqlite"
DAY = 86400.0  # seconds


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
            # The cache holds document text: private to the user (SQLite's -wal/-shm follow the file's mode).
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.path = self.directory / FILENAME
            os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
            self._conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, kind TEXT NOT NULL, "
                "value BLOB NOT NULL, created REAL NOT NULL, label TEXT)"
            )
            _add_label_column(self._conn)
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

    def put(self, key: str, value: bytes, kind: str, *, label: str | None = None) -> None:
        self.put_many([(key, value)], kind, label=label)

    def put_many(self, items: Iterable[tuple[str, bytes]], kind: str, *, label: str | None = None) -> None:
        """Store answers; ``label`` names the prompt that asked (None for embeddings)."""
        now = time.time()
        rows = [(k, kind, sqlite3.Binary(v), now, label) for k, v in items]
        if not rows:
            return
        with self._lock:
            self._conn.executemany(
                "INSERT OR REPLACE INTO calls (key, kind, value, created, label) VALUES (?, ?, ?, ?, ?)", rows
            )

    def discard(self, key: str) -> None:
        """Forget one entry (an answer that no longer passes its prompt's checks)."""
        with self._lock:
            self._conn.execute("DELETE FROM calls WHERE key = ?", (key,))

    def stats(self) -> dict[str, Any]:
        """What `groundset cache info` shows: size, entries by kind and by prompt, oldest and newest."""
        with self._lock:
            entries, oldest, newest = self._conn.execute(
                "SELECT COUNT(*), MIN(created), MAX(created) FROM calls"
            ).fetchone()
            by_kind = self._conn.execute("SELECT kind, COUNT(*) FROM calls GROUP BY kind ORDER BY kind")
            kinds = dict(by_kind.fetchall())
            by_label = self._conn.execute(
                "SELECT label, COUNT(*) FROM calls GROUP BY label ORDER BY COUNT(*) DESC, label"
            )
            labels = dict(by_label.fetchall())
        return {
            "path": self.path,
            "bytes": sum(p.stat().st_size for p in self._files()),
            "entries": entries,
            "by_kind": kinds,
            "by_label": labels,
            "oldest": oldest,
            "newest": newest,
        }

    def _files(self) -> list[Path]:
        names = (FILENAME, f"{FILENAME}-wal", f"{FILENAME}-shm")
        return [p for p in (self.directory / n for n in names) if p.exists()]

    def count(
        self, *, label: str | None = None, before: float | None = None, older_than_days: float | None = None
    ) -> int:
        """How many entries ``remove`` with the same filters would delete: pass the same ``before``
        (a :func:`cutoff`) to both, as days are counted back from each call's own now."""
        where, args = _filters(label, _before(before, older_than_days))
        with self._lock:
            return self._conn.execute(f"SELECT COUNT(*) FROM calls{where}", args).fetchone()[0]

    def remove(
        self, *, label: str | None = None, before: float | None = None, older_than_days: float | None = None
    ) -> int:
        """Delete the entries of prompt ``label`` and/or created before the timestamp ``before`` (or
        more than ``older_than_days`` ago); all if no filter is given."""
        where, args = _filters(label, _before(before, older_than_days))
        with self._lock:
            removed = self._conn.execute(f"DELETE FROM calls{where}", args).rowcount
        return max(removed, 0)

    def vacuum(self) -> bool:
        """Give the space of removed entries back to the file system; False when it could not (another
        process is using the file: the space is then reused by later entries instead)."""
        try:
            with self._lock:
                self._conn.execute("VACUUM")
        except sqlite3.OperationalError:
            return False
        return True

    def __len__(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM calls").fetchone()[0]

    def clear(self) -> None:
        self.remove()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"CallCache({str(self.path)!r})"


def _add_label_column(conn: sqlite3.Connection) -> None:
    """Migrate a cache file written before entries were labelled with their prompt's name."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(calls)")}
    if "label" in columns:
        return
    try:
        conn.execute("ALTER TABLE calls ADD COLUMN label TEXT")
    except sqlite3.OperationalError as exc:
        if "duplicate column" not in str(exc).lower():  # another process migrated it first
            raise


def cutoff(older_than_days: float) -> float:
    """The creation time before which entries are more than ``older_than_days`` old, as of now."""
    return time.time() - older_than_days * DAY


def _before(before: float | None, older_than_days: float | None) -> float | None:
    if before is not None and older_than_days is not None:
        raise ValueError("pass either before or older_than_days, not both")
    return cutoff(older_than_days) if older_than_days is not None else before


def _filters(label: str | None, before: float | None) -> tuple[str, list[Any]]:
    clauses, args = [], []
    if label is not None:
        clauses.append("label = ?")
        args.append(label)
    if before is not None:
        clauses.append("created < ?")
        args.append(before)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), args


def open_cache(cache: bool | str | Path | CallCache | None) -> CallCache | None:
    """``True``/``None`` -> default dir; ``False`` -> no cache; a path -> that dir."""
    if isinstance(cache, CallCache):
        return cache
    if cache is False:
        return None
    if cache is None or cache is True:
        return CallCache(default_cache_dir())
    return CallCache(cache)
