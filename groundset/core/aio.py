"""One long-lived event loop in a background thread, on which every model call runs.

Why: HTTP clients (httpx, used by the OpenAI client that LangChain caches per base URL)
pool connections bound to the event loop that opened them. Running each sync call on a
fresh loop, or mixing the caller's loop with another, breaks those pools ("Event loop is
closed"). Running all model I/O on one loop for the life of the process avoids that, and
gives sync twins that work inside an already running loop (Jupyter) with no patching.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
from collections.abc import Awaitable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


def engine_loop() -> asyncio.AbstractEventLoop:
    """Return the background loop, starting its thread on first use."""
    global _loop, _thread
    with _lock:
        if _loop is None or _loop.is_closed() or _thread is None or not _thread.is_alive():
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def _run() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            thread = threading.Thread(target=_run, name="groundset-engine", daemon=True)
            thread.start()
            ready.wait()
            _loop, _thread = loop, thread
        return _loop


def on_engine_thread() -> bool:
    return _thread is not None and threading.current_thread() is _thread


async def on_engine(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` on the engine loop, from any loop (or from the engine loop itself)."""
    if on_engine_thread():
        return await coro
    future = asyncio.run_coroutine_threadsafe(coro, engine_loop())
    try:
        return await asyncio.wrap_future(future)
    except asyncio.CancelledError:
        future.cancel()
        raise


async def all_or_nothing(*aws: Awaitable[T]) -> list[T]:
    """Like ``asyncio.gather``, but the first failure cancels the others before it is raised: when one
    part failing makes the whole useless (one of n answers stayed unusable), its siblings must not go on
    paying for requests nobody will read."""
    tasks = [asyncio.ensure_future(aw) for aw in aws]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    finally:  # also when the caller itself is cancelled
        pending = [task for task in tasks if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)
    for task in tasks:
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    return [task.result() for task in tasks]


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the engine loop and block until it finishes: the sync twin of any async API.

    Works with or without a running loop in the calling thread. Calling it from code that
    itself runs on the engine loop would deadlock, so that raises instead.
    """
    if on_engine_thread():
        coro.close()
        raise RuntimeError(
            "a sync groundset call was made from inside groundset's own event loop; "
            "use the async form (await ...) there"
        )
    future = asyncio.run_coroutine_threadsafe(coro, engine_loop())
    try:
        return future.result()
    except KeyboardInterrupt:
        future.cancel()
        raise


def settle(future: asyncio.Future[Any], outcome: Any) -> None:
    """Give ``future`` its outcome (an exception is raised by it, anything else is its result), unless the
    awaiting side already gave up on it (cancelled, timed out)."""
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


def _shutdown() -> None:
    loop = _loop
    if loop is not None and not loop.is_closed():
        loop.call_soon_threadsafe(loop.stop)


atexit.register(_shutdown)
