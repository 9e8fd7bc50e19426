"""The persistent call cache: SQLite, keyed by a hash of everything that shapes a model's answer.

It makes reruns and resumed runs free: a finished call is stored as soon as it returns, so
an interrupted run repeats none of them. It stores answers only, never requests, headers or
keys; each entry is labelled with the prompt that asked for it, so `groundset cache clear
--prompt NAME` can drop one prompt's answers. WAL mode lets several processes share one file.

Another process may hold the file's write lock for a while (a `cache clear` deleting and vacuuming),
so no caller waits on SQLite: answers are written by a thread of their own (``_Writer``, one per
file in a process), wait in memory until written (reads find them there), and a locked file is
retried with backoff. Before the process exits, what still waits is written (up to
``FLUSH_SECONDS``); what cannot be is warned about once, never dropped silently. The engine reads
off its loop too (``aget``, ``aget_many``).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from .aio import settle
from .errors import ConfigError

CACHE_ENV = "GROUNDSET_CACHE_DIR"
FILENAME = "calls.sqlite"
DAY = 86400.0  # seconds
#: How long answers may wait for a locked file when the process exits (or a count or clear needs them).
FLUSH_SECONDS = 30.0
_WRITE_BUSY_SECONDS = 1.0  # the writer's SQLite busy timeout per attempt; backoff waits come on top
_MAX_BACKOFF_SECONDS = 2.0
_IDLE_SECONDS = 2.0  # the writer thread ends after this long with nothing to write
log = logging.getLogger("groundset.cache")


def default_cache_dir() -> Path:
    """GROUNDSET_CACHE_DIR if set, else the user cache dir (e.g. ~/.cache/groundset)."""
    env = os.environ.get(CACHE_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("groundset"))


class CallCache:
    """A key -> bytes store in one SQLite file, safe across threads and processes.

    ``put``/``put_many``/``discard`` never wait on the file (see the module doc); ``get`` and the
    counts see what they stored at once. ``flush`` waits until it is written.
    """

    #: None for subclasses that never write (the estimate's read-only cache).
    _writer: _Writer | None = None
    #: The keys ``aget`` collected for the next read, with the loop that asked (see ``_read_asked``).
    _asked: tuple[asyncio.AbstractEventLoop, list[tuple[str, asyncio.Future[bytes | None]]]] | None = None

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
        self._writer = _writer_for(self.path)

    def get(self, key: str) -> bytes | None:
        waiting = self._waiting([key])
        if key in waiting:
            return waiting[key]
        with self._lock:
            row = self._conn.execute("SELECT value FROM calls WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0])

    def get_many(self, keys: Iterable[str]) -> dict[str, bytes]:
        keys = list(dict.fromkeys(keys))
        waiting = self._waiting(keys)
        found = {key: value for key, value in waiting.items() if value is not None}
        keys = [key for key in keys if key not in waiting]
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = self._conn.execute(f"SELECT key, value FROM calls WHERE key IN ({marks})", part)
                found.update((k, bytes(v)) for k, v in rows)
        return found

    async def aget(self, key: str) -> bytes | None:
        """``get`` in the cache's reader thread, so a busy file never holds up the caller's event loop; a
        file that cannot be read at all counts as a miss (warned about once). Keys asked for in the same
        moment are read together: one hand-over (a query per 500 keys) for a whole gather, not one per key."""
        loop = asyncio.get_running_loop()
        batch = self._asked
        if batch is None or batch[0] is not loop:
            batch = self._asked = (loop, [])
            loop.call_soon(self._read_asked, batch)
        future: asyncio.Future[bytes | None] = loop.create_future()
        batch[1].append((key, future))
        return await future  # each caller its own future: one giving up cancels no other

    def _read_asked(
        self, batch: tuple[asyncio.AbstractEventLoop, list[tuple[str, asyncio.Future[Any]]]]
    ) -> None:
        """Hand the keys ``aget`` collected in ``batch`` (closed now) to the reader thread."""
        if self._asked is batch:
            self._asked = None
        loop, asked = batch
        _read_off_loop(self, loop, [key for key, _ in asked], partial(_answer_reads, asked))

    async def aget_many(self, keys: Iterable[str]) -> dict[str, bytes]:
        """``get_many`` in the reader thread (see ``aget``)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, bytes]] = loop.create_future()
        _read_off_loop(self, loop, list(keys), partial(settle, future))
        return await future

    def _waiting(self, keys: list[str]) -> dict[str, bytes | None]:
        """The answers (None: a removal) of ``keys`` still waiting to be written."""
        return {} if self._writer is None else self._writer.waiting(keys)

    def put(self, key: str, value: bytes, kind: str, *, label: str | None = None) -> None:
        self.put_many([(key, value)], kind, label=label)

    def put_many(self, items: Iterable[tuple[str, bytes]], kind: str, *, label: str | None = None) -> None:
        """Store answers (written off the caller's thread); ``label`` names the prompt that asked (None
        for embeddings)."""
        now = time.time()
        rows = {k: (bytes(v), kind, now, label) for k, v in items}
        if rows and self._writer is not None:
            self._writer.add(rows)

    def discard(self, key: str) -> None:
        """Forget one entry (an answer that no longer passes its prompt's checks)."""
        if self._writer is not None:
            self._writer.add({key: None})

    def flush(self, timeout: float = FLUSH_SECONDS) -> bool:
        """Wait until every answer stored so far is in the file; False (with a warning, once) when the
        file stayed locked or unwritable for ``timeout`` seconds: the answers then stay in memory."""
        return self._writer is None or self._writer.flush(timeout)

    async def written(self, keys: Iterable[str], timeout: float) -> bool:
        """Wait, without blocking the loop, until the answers of ``keys`` are in the file; False when
        that took longer than ``timeout`` or the file is failing (the answers wait in memory still)."""
        if self._writer is None:
            return True
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if not self._writer.when_written(set(keys), partial(loop.call_soon_threadsafe, settle, done, None)):
            return True
        try:
            await asyncio.wait_for(done, timeout)
        except TimeoutError:
            return False
        return True

    def stats(self) -> dict[str, Any]:
        """What `groundset cache info` shows: size, entries by kind and by prompt, oldest and newest."""
        self.flush()
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
        self.flush()
        with self._lock:
            return self._conn.execute(f"SELECT COUNT(*) FROM calls{where}", args).fetchone()[0]

    def remove(
        self, *, label: str | None = None, before: float | None = None, older_than_days: float | None = None
    ) -> int:
        """Delete the entries of prompt ``label`` and/or created before the timestamp ``before`` (or
        more than ``older_than_days`` ago); all if no filter is given."""
        where, args = _filters(label, _before(before, older_than_days))
        self.flush()  # what this process stored before is removed too, not written back after
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
        self.flush()
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM calls").fetchone()[0]

    def clear(self) -> None:
        self.remove()

    def close(self) -> None:
        """Write what waits (see ``flush``), then close this handle."""
        self.flush()
        with self._lock:
            self._conn.close()

    def __repr__(self) -> str:
        return f"CallCache({str(self.path)!r})"


#: A row waiting to be written: (value, kind, created, label), or None for a removal.
_Row = tuple[bytes, str, float, str | None] | None


class _Writer:
    """Writes one cache file's answers from a thread of its own, so no caller waits on SQLite's locks.

    Answers wait in ``_pending`` (where reads find them) until a transaction holding them commits. A
    locked file is retried with backoff for as long as it takes; ``flush`` waits for it, up to a
    deadline. The thread ends when idle and starts again with the next answer. One per file in a
    process, shared by every ``CallCache`` on it, so they all see the same answers.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pending: dict[str, _Row] = {}
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._failure: sqlite3.Error | None = None  # of the last attempt; None once one succeeds
        self._warned: set[str] = set()  # which warnings were given: each is given once
        #: who waits for which keys to be written: [keys still pending, what to call once none is]
        self._watchers: list[tuple[set[str], Callable[[], Any]]] = []

    def add(self, rows: dict[str, _Row]) -> None:
        with self._changed:
            self._pending.update(rows)
            self._start()
            self._changed.notify_all()

    def _start(self) -> None:
        """Start the writer thread unless it runs (called with ``_changed`` held)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="groundset-cache-writer", daemon=True)
            self._thread.start()

    def _after_fork(self) -> None:
        """In a forked child, which has none of its parent's threads (and whose lock the parent's writer
        may have held): a thread of its own, which also writes what the parent had waiting (the same
        rows, so harmless twice; dropped, the child's reads would miss them and pay again)."""
        self._changed = threading.Condition()
        self._thread = None
        self._watchers = []  # the parent's waiters, on the parent's loops
        if self._pending:
            self._start()

    def waiting(self, keys: Iterable[str]) -> dict[str, bytes | None]:
        with self._changed:
            if not self._pending:
                return {}
            found = {key: self._pending[key] for key in keys if key in self._pending}
        return {key: None if row is None else row[0] for key, row in found.items()}

    def when_written(self, keys: set[str], callback: Callable[[], Any]) -> bool:
        """Call ``callback`` (from the writer thread) once none of ``keys`` waits to be written; False,
        and no call, when none waits now or the file is failing (so nobody waits on a lock)."""
        with self._changed:
            keys = keys & self._pending.keys()
            if not keys or self._failure is not None:
                return False
            self._watchers.append((keys, callback))
            return True

    def flush(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._pending:
                left = deadline - time.monotonic()
                if left <= 0 or (self._failure is not None and not _is_busy(self._failure)):
                    self._warn_unwritten()
                    return False
                self._changed.wait(min(left, 0.5))
        return True

    def _run(self) -> None:
        backoff, conn = 0.0, None
        try:
            while (batch := self._next_batch(backoff)) is not None:
                try:
                    conn = conn or _writer_connection(self.path)
                    _write(conn, batch)
                except sqlite3.Error as exc:
                    backoff = min(max(2 * backoff, 0.05), _MAX_BACKOFF_SECONDS)
                    self._failed(exc)
                    if not _is_busy(exc) and conn is not None:
                        conn.close()  # open afresh next time (the file may have been replaced)
                        conn = None
                    continue
                backoff = 0.0
                self._written(batch)
        except Exception:  # noqa: BLE001 - a bug here must not kill writing for the whole process
            log.exception("the call cache writer for %s stopped", self.path)
            with self._changed:
                self._thread = None
                self._changed.notify_all()
        finally:
            if conn is not None:
                conn.close()

    def _next_batch(self, backoff: float) -> dict[str, _Row] | None:
        """What waits to be written, after ``backoff`` seconds (or a new answer); None: time to stop."""
        with self._changed:
            if backoff:
                self._changed.wait(backoff)
            if not self._pending:
                self._changed.wait(_IDLE_SECONDS)
            if not self._pending:
                self._thread = None
                return None
            return dict(self._pending)

    def _written(self, batch: dict[str, _Row]) -> None:
        with self._changed:
            for key, row in batch.items():
                if key in self._pending and self._pending[key] is row:  # not replaced meanwhile
                    del self._pending[key]
            self._failure = None
            self._changed.notify_all()
            done = [call for keys, call in self._watchers if not keys & self._pending.keys()]
            if done:
                self._watchers = [w for w in self._watchers if w[0] & self._pending.keys()]
        for call in done:
            call()

    def _failed(self, exc: sqlite3.Error) -> None:
        with self._changed:
            self._failure = exc
            self._changed.notify_all()
        if not _is_busy(exc) and "unwritable" not in self._warned:
            self._warned.add("unwritable")
            log.warning(
                "cannot write to the call cache %s (%s): answers are kept in memory for this run and "
                "written when the file can be; check the file, or pass another --cache DIR",
                self.path,
                exc,
            )

    def _warn_unwritten(self) -> None:
        """Called with ``_changed`` held, when answers are given up on: the first time only."""
        if "unwritten" in self._warned:
            return
        self._warned.add("unwritten")
        count = sum(row is not None for row in self._pending.values())
        reason = self._failure or "still waiting for the file's write lock"
        log.warning(
            "%d %s could not be written to the call cache %s (%s): this run used %s, but a later run will "
            "pay for %s again. Another process may hold the file (e.g. `groundset cache clear`)",
            count,
            "answer" if count == 1 else "answers",
            self.path,
            reason,
            "it" if count == 1 else "them",
            "it" if count == 1 else "them",
        )


def _writer_connection(path: Path) -> sqlite3.Connection:
    """The writer thread's own connection: a short busy timeout, as its own backoff does the waiting."""
    conn = sqlite3.connect(path, timeout=_WRITE_BUSY_SECONDS, isolation_level=None)
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def _write(conn: sqlite3.Connection, batch: dict[str, _Row]) -> None:
    """Store ``batch`` in one transaction: all of it or, on any error, none of it."""
    puts = [(k, r[1], sqlite3.Binary(r[0]), r[2], r[3]) for k, r in batch.items() if r is not None]
    removals = [(k,) for k, r in batch.items() if r is None]
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany(
            "INSERT OR REPLACE INTO calls (key, kind, value, created, label) VALUES (?, ?, ?, ?, ?)", puts
        )
        conn.executemany("DELETE FROM calls WHERE key = ?", removals)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _is_busy(exc: BaseException) -> bool:
    """A lock another connection holds: worth waiting for (anything else will not go away by itself)."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


_writers: dict[Path, _Writer] = {}
_writers_lock = threading.Lock()


def _writer_for(path: Path) -> _Writer:
    """The process's writer of the file at ``path`` (made on first use)."""
    real = path.resolve()
    with _writers_lock:
        if real not in _writers:
            _writers[real] = _Writer(real)
        return _writers[real]


_exit_deadline: float | None = None


def _flush_at_exit() -> None:
    """Nothing paid for is lost on exit: write what waits, giving a locked file up to FLUSH_SECONDS in
    all (it runs at thread shutdown and again at exit: the second call waits only for what is left)."""
    global _exit_deadline
    if _exit_deadline is None:
        _exit_deadline = time.monotonic() + FLUSH_SECONDS
    with _writers_lock:
        writers = list(_writers.values())
    for writer in writers:
        writer.flush(max(_exit_deadline - time.monotonic(), 0.0))


# At interpreter exit; and when threads are shut down, which is all a multiprocessing child started by
# fork gets (it leaves with os._exit, running no atexit function).
atexit.register(_flush_at_exit)
with contextlib.suppress(RuntimeError):  # imported while threads shut down: atexit is all there is
    getattr(threading, "_register_atexit", lambda _: None)(_flush_at_exit)


#: Where the engine's reads run: one thread (reads of one file share its connection anyway), started on
#: first use (and afresh in a forked child: see ``_after_fork_in_child``).
_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="groundset-cache-reader")
_unreadable_warned = False


def _after_fork_in_child() -> None:
    """A forked child has none of its parent's threads: the parent's reader would take its reads and
    never run them (a hang), and its writers would never write. Give the child its own."""
    global _reader, _writers_lock
    _reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="groundset-cache-reader")
    _writers_lock = threading.Lock()
    for writer in _writers.values():
        writer._after_fork()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _read_off_loop(cache: CallCache, loop: asyncio.AbstractEventLoop, keys: list[str], answer: Any) -> None:
    """Read ``keys`` with ``cache.get_many`` in the reader thread, then call ``answer(found)`` on ``loop``
    (``found``: an exception the read raised; a file that cannot be read is a miss, ``{}``). The thread
    hands the result straight to the loop: one wake-up per read, no task or future chained in between."""

    def read() -> None:
        global _unreadable_warned
        found: dict[str, bytes] | Exception
        try:
            found = cache.get_many(keys)
        except sqlite3.Error as exc:
            if not _unreadable_warned:
                _unreadable_warned = True
                log.warning("cannot read the call cache %s (%s): these calls are made again", cache.path, exc)
            found = {}
        except Exception as exc:  # noqa: BLE001 - a bug: raised to the callers, on their loop
            found = exc
        with contextlib.suppress(RuntimeError):  # the loop was closed meanwhile: nobody waits any more
            loop.call_soon_threadsafe(answer, found)

    try:
        _reader.submit(read)
    except RuntimeError as exc:  # the interpreter is exiting and starts no thread: fail, never hang
        answer(exc)


def _answer_reads(
    asked: list[tuple[str, asyncio.Future[bytes | None]]], found: dict[str, bytes] | Exception
) -> None:
    """Hand each waiting ``aget`` its value (a failed read: its error); one that gave up is skipped."""
    for key, future in asked:
        settle(future, found if isinstance(found, Exception) else found.get(key))


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
    """``True``/``None`` -> default dir; ``False`` -> no cache; a path -> that dir. A ``CallCache`` is taken
    as it is, and so is a store with its asynchronous methods (a Ray worker's ``SharedCache``)."""
    if isinstance(cache, CallCache) or all(hasattr(cache, m) for m in ("aget", "aget_many", "written")):
        return cache
    if cache is False:
        return None
    if cache is None or cache is True:
        return CallCache(default_cache_dir())
    return CallCache(cache)
