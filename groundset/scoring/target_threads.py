"""The threads a sync target (a plain function, a sync-only LangChain Runnable) is called on.

Why not ``asyncio.to_thread``: its executor is the event loop's, shared with everything else on it, sized
by the CPU count (not by ``target_concurrency``) and joined when the interpreter exits. A target that
hangs there holds a worker for good: a few hung calls stall every later call in the process, and the
process cannot exit until they return. Here every call runs on a daemon thread that nothing ever joins:
the caller stops waiting at its timeout (a thread cannot be killed) and the call runs on unobserved.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from ..core.aio import settle

T = TypeVar("T")
Job = Callable[[], Callable[[], None]]  # runs a call on the worker, returns what hands its outcome back

IDLE_S = 30.0  # an idle thread waits this long for another call, then ends


class DaemonThreads:
    """Run blocking calls on daemon threads, reusing idle ones (a target's thread-local clients survive).

    Only an idle thread is reused, so a hung call never delays another one; how many run at once is the
    caller's to bound (``score_rag``: ``target_concurrency`` slots, and a call abandoned at its timeout
    gives its slot back at once, so hung calls never take slots from the rest of the run or the next one).
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._lock = threading.Lock()
        self._idle: list[_Worker] = []
        self._started = 0
        if hasattr(os, "register_at_fork"):  # POSIX only: Windows has no fork
            os.register_at_fork(after_in_child=self._forget_workers)

    async def run(self, function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` on a daemon thread (with the caller's context variables, as
        ``asyncio.to_thread``); cancelling the await abandons the call, it does not wait for it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        context = contextvars.copy_context()

        def job() -> Callable[[], None]:
            try:
                outcome: Any = context.run(function, *args, **kwargs)
            except Exception as exc:
                outcome = exc
            except BaseException as exc:  # SystemExit in a target: an error of its row, not of the thread
                outcome = RuntimeError(f"the target raised {type(exc).__name__}: {exc}")
            return lambda: _settle_from_thread(loop, future, outcome)

        self._worker().jobs.put(job)
        return await future

    def _worker(self) -> _Worker:
        with self._lock:
            if self._idle:
                return self._idle.pop()
            self._started += 1
            worker = _Worker(self, f"{self._name}-{self._started}")
        worker.start()
        return worker

    def _rest(self, worker: _Worker) -> None:
        with self._lock:
            self._idle.append(worker)

    def _next_job(self, worker: _Worker) -> Job | None:
        """The worker's next job, or None when none came for ``IDLE_S`` (the worker then ends)."""
        while True:
            try:
                return worker.jobs.get(timeout=IDLE_S)
            except queue.Empty:
                with self._lock:
                    if worker in self._idle:
                        self._idle.remove(worker)
                        return None
                # taken by a caller at this very moment: its job is on the way

    def _forget_workers(self) -> None:
        """In a forked child the parent's threads do not exist: never hand a job to one."""
        self._lock = threading.Lock()
        self._idle = []


class _Worker(threading.Thread):
    def __init__(self, pool: DaemonThreads, name: str) -> None:
        super().__init__(name=name, daemon=True)
        self.pool = pool
        self.jobs: queue.SimpleQueue[Job] = queue.SimpleQueue()

    def run(self) -> None:
        while (job := self.pool._next_job(self)) is not None:
            deliver = job()
            self.pool._rest(self)  # idle before the caller hears back: its next call reuses this thread
            deliver()
            del job, deliver  # let the call's arguments and result go before waiting for the next one


def _settle_from_thread(loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], outcome: Any) -> None:
    """Hand a call's outcome to its awaiting side, unless that side gave up (cancelled, loop closed)."""

    with contextlib.suppress(RuntimeError):  # the loop closed while the call ran
        loop.call_soon_threadsafe(settle, future, outcome)


TARGET_THREADS = DaemonThreads("groundset-target")
