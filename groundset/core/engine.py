"""The call engine: the one place every model call (chat and embeddings) goes through.

Layers, outermost first: persistent cache -> single-flight (identical concurrent calls share
one computation) -> bounded concurrency -> optional requests-per-second limit -> per-call
timeout -> retry with backoff on 429/5xx/timeouts -> usage accounting by stage.
Everything runs on the engine loop (see ``aio``), so the engine's state needs no locks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

import numpy as np

from .aio import on_engine, on_engine_thread, run_sync
from .cache import CallCache, open_cache
from .clients import PrivateClients
from .hashing import stable_hash
from .models import model_identity, model_name
from .offline_embeddings import OfflineEmbeddings
from .retry import IncompleteAnswer, RetryPolicy, describe_failure, final_error, is_retryable, retry_after_of
from .usage import DEFAULT_PRICES, Usage, active_scopes, current_stage, price_of

T = TypeVar("T")
log = logging.getLogger("groundset.engine")
TokenCounts = tuple[int, int] | None
EMBED_COALESCE_SECONDS = 0.025  # embedding requests made within this window are merged into one
#: How long a finished request keeps its slot while its answer is written to the cache (a millisecond or
#: two, normally): so a run killed at any moment has at most ``max_concurrency`` paid answers that are
#: not on disk. A file locked for longer is not waited for (the answer stays in memory until written).
WRITE_WAIT_SECONDS = 0.5


class _KeptSlots:
    """The slots of one computation's finished requests, kept until its answer is in the cache.

    A slot is released at once instead when another request of the same computation waits for one, and
    every kept slot is released before the computation asks for another: it never waits on itself. Once
    the computation has ended (``close``), a request of it still in flight (a sibling of the part that
    failed) gives its slot back at once: a slot kept past the end would never be released."""

    def __init__(self) -> None:
        self.slots: list[asyncio.Semaphore] = []
        self.waiting = 0
        self.closed = False

    def keep(self, slot: asyncio.Semaphore) -> None:
        if self.waiting or self.closed:
            slot.release()
        else:
            self.slots.append(slot)

    def release(self) -> None:
        while self.slots:
            self.slots.pop().release()

    def close(self) -> None:
        self.closed = True
        self.release()


_kept: ContextVar[_KeptSlots | None] = ContextVar("groundset_kept_slots", default=None)


class CallEngine:
    """Cache, single-flight, limits, retries and usage for model calls.

    ``cache``: True (default dir), False (off), or a directory. ``timeout`` is per request,
    in seconds (None: no limit). ``prices``: model name -> (USD per 1M input, per 1M output).
    ``rate_limiter``: an object whose ``aacquire()`` each request awaits first (instead of a limiter of
    ``requests_per_second`` in this process: Ray workers share the run's limit, see ``ray_calls``).
    """

    def __init__(
        self,
        *,
        cache: bool | str | Any = True,
        max_concurrency: int = 16,
        requests_per_second: float | None = None,
        timeout: float | None = 120.0,
        retry: RetryPolicy | None = None,
        prices: dict[str, tuple[float, float]] | None = None,
        embedding_batch_size: int = 256,
        rate_limiter: Any = None,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be >= 1, got {max_concurrency}")
        if timeout is not None and timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds or None, got {timeout}")
        if requests_per_second is not None and requests_per_second <= 0:
            raise ValueError(f"requests_per_second must be > 0 or None, got {requests_per_second}")
        self.cache: CallCache | None = open_cache(cache)
        self.max_concurrency = max_concurrency
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self.prices = {**DEFAULT_PRICES, **(prices or {})}
        self.embedding_batch_size = embedding_batch_size
        self.usage = Usage()
        self.requests_per_second = requests_per_second
        self._limiter: Any = rate_limiter  # anything with ``async aacquire()``; made from the rate when None
        self._slots: dict[str, asyncio.Semaphore] = {}  # per kind of request: "chat", "embeddings"
        self._width: dict[str, int] = {}  # requests of a kind allowed in flight now (narrowed on timeouts)
        self._held: list[asyncio.Task[None]] = []
        self._inflight: dict[str, asyncio.Future[Any]] = {}
        self._waiters: dict[str, int] = {}
        self._embed_queue: dict[str, tuple[Any, str | None, list[tuple[str, str]]]] = {}
        self._embed_waiting: set[str] = set()  # models with an embeddings request waiting for a slot
        self.structured_methods: dict[str, Any] = {}
        # models whose server refused n > 1 answers per request (they get n requests of one answer)
        self.one_answer_per_request: set[str] = set()
        self._method_locks: dict[str, asyncio.Lock] = {}
        self._clients = PrivateClients(max_concurrency)

    def loop_safe(self, model: Any) -> Any:
        """The object to send requests through: for OpenAI-style models, a copy with its own client."""
        return self._clients.get(model)

    # -- accounting -------------------------------------------------------------------
    def record(self, stage: str | None, **counts: float) -> None:
        label = stage or current_stage()
        self.usage.record(label, **counts)
        for scope in active_scopes():
            scope.record(label, **counts)

    def _record_tokens(self, model: Any, stage: str | None, tokens: TokenCounts) -> None:
        if tokens is None:
            return
        cost = price_of(model_name(model), tokens[0], tokens[1], self.prices)
        if cost is None:
            self.record(stage, input_tokens=tokens[0], output_tokens=tokens[1], unpriced_calls=1)
        else:
            self.record(stage, input_tokens=tokens[0], output_tokens=tokens[1], cost=cost)

    # -- cache + single-flight --------------------------------------------------------
    async def cached(
        self,
        key: str,
        stage: str | None,
        compute: Callable[[], Awaitable[bytes]],
        kind: str,
        *,
        label: str | None = None,
        accept: Callable[[bytes], bool] | None = None,
    ) -> bytes:
        """Return the stored value for ``key`` or compute it once, however many callers ask at once.

        ``label`` (the prompt's name) is stored with the value. ``accept`` rechecks a stored value:
        one it rejects (written before a check existed) is dropped and computed again. The lookup is
        shared like the computation: the cache is read off the loop, and a caller arriving meanwhile
        must not start a second request.
        """
        assert on_engine_thread(), "CallEngine.cached must run on the engine loop"
        task = self._inflight.get(key)
        joined = task is not None
        if task is None:
            task = asyncio.ensure_future(self._stored_or_computed(key, compute, kind, label, accept))
            self._inflight[key] = task
            self._waiters[key] = 0
            task.add_done_callback(lambda t: self._forget(key, t))
            task.add_done_callback(_consume_exception)
        # The computation is shared: one caller giving up must not cancel it for the others, but once
        # every caller has given up (an interrupted run), it is cancelled so nothing more is spent.
        self._waiters[key] += 1
        try:
            value, from_cache = await asyncio.shield(task)
        except asyncio.CancelledError:
            self._give_up(key, task)
            raise
        except Exception:
            if joined:
                self.record(stage, shared=1)
            raise
        self._count_answer(stage, from_cache=from_cache, joined=joined)
        return value

    def _count_answer(self, stage: str | None, *, from_cache: bool, joined: bool) -> None:
        """A stored answer is a cache hit for every caller; a computed one is shared by those who joined."""
        if from_cache:
            self.record(stage, cache_hits=1)
        elif joined:
            self.record(stage, shared=1)

    async def _stored_or_computed(
        self,
        key: str,
        compute: Callable[[], Awaitable[bytes]],
        kind: str,
        label: str | None,
        accept: Callable[[bytes], bool] | None,
    ) -> tuple[bytes, bool]:
        """(the value, whether it came from the cache). A computed value is handed to the cache's writer,
        which stores it off the loop; the request's slot is kept until it is written."""
        if self.cache is not None:
            hit = await self.cache.aget(key)
            if hit is not None and (accept is None or accept(hit)):
                return hit, True
            if hit is not None:
                self.cache.discard(key)
        kept = _KeptSlots()
        token = _kept.set(kept)
        try:
            value = await compute()
            if self.cache is not None:
                self.cache.put(key, value, kind, label=label)
                await self.cache.written([key], WRITE_WAIT_SECONDS)
        finally:
            _kept.reset(token)
            kept.close()
        return value, False

    def _give_up(self, key: str, task: asyncio.Future[Any]) -> None:
        """One waiter of ``task`` left; the last one cancels it and frees ``key`` at once, so a caller
        arriving while the cancelled task winds down starts afresh instead of inheriting its cancellation."""
        if self._inflight.get(key) is not task:
            return
        self._waiters[key] -= 1
        if self._waiters[key] == 0:
            self._forget(key, task)
            task.cancel()

    def _forget(self, key: str, task: asyncio.Future[Any]) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]
            self._waiters.pop(key, None)

    # -- one request: concurrency, rate, timeout, retry, usage ------------------------
    async def request(
        self,
        model: Any,
        stage: str | None,
        send: Callable[[], Awaitable[tuple[T, TokenCounts]]],
        *,
        kind: str = "chat",
    ) -> T:
        """Send one request (``send`` makes it and returns (value, (in, out) tokens or None)).

        Chat and embeddings requests each have ``max_concurrency`` slots: they go to different endpoints
        (limited apart by providers), and a few embedding requests, whose answers the next chat calls
        wait for, must not queue behind a long line of chat calls."""
        assert on_engine_thread(), "CallEngine.request must run on the engine loop"
        slots = self._slots.get(kind)
        if slots is None:
            slots = self._slots[kind] = asyncio.Semaphore(self.max_concurrency)
        kept = _kept.get()  # set by a computation whose answer goes to the cache
        attempt = 0
        while True:
            attempt += 1
            await _acquire(slots, kept)
            keep = False
            try:
                if self.requests_per_second is not None or self._limiter is not None:
                    await self._rate_limiter().aacquire()
                self.record(stage, calls=1)
                try:
                    if self.timeout is None:
                        value, tokens = await send()
                    else:
                        value, tokens = await asyncio.wait_for(send(), self.timeout)
                except Exception as exc:  # noqa: BLE001 - classified below, re-raised typed
                    error: Exception = exc
                else:
                    self._record_tokens(model, stage, tokens)
                    keep = kept is not None
                    return value
            finally:
                if keep:
                    kept.keep(slots)
                else:
                    slots.release()
            self.record(stage, errors=1)
            if isinstance(error, asyncio.TimeoutError | TimeoutError):
                self._narrow(kind, slots)
            if attempt > self.retry.max_retries or not is_retryable(error):
                raise final_error(error, attempt, stage or current_stage(), self.timeout) from error
            self.record(stage, retries=1)
            wait = self.retry.delay(attempt, retry_after_of(error))
            log.info(
                "%s: retry %d/%d in %.2f s after %s",
                stage or current_stage(),
                attempt,
                self.retry.max_retries,
                wait,
                describe_failure(error),
            )
            await asyncio.sleep(wait)

    def method_lock(self, identity: str) -> asyncio.Lock:
        """Held while the first structured request to a model finds out which output format it takes."""
        return self._method_locks.setdefault(identity, asyncio.Lock())

    def in_flight_limit(self, kind: str = "chat") -> int:
        """How many requests of ``kind`` may be in flight now: ``max_concurrency``, less after timeouts."""
        return self._width.get(kind, self.max_concurrency)

    def _narrow(self, kind: str, slots: asyncio.Semaphore) -> None:
        """Halve the requests of ``kind`` in flight after a timeout (down to one): a server that answers one
        request at a time (llama.cpp's Python server) makes every request behind it wait, and the wait
        counts against the timeout. The freed width is held by a task that takes those slots for good."""
        width = self.in_flight_limit(kind)
        narrower = max(1, width // 2)
        if narrower == width:
            return
        self._width[kind] = narrower
        log.warning(
            "model requests time out: at most %d %s request(s) in flight from now on (was %d)",
            narrower,
            kind,
            width,
        )

        async def hold(count: int) -> None:
            for _ in range(count):
                await slots.acquire()

        self._held.append(asyncio.ensure_future(hold(width - narrower)))

    def _rate_limiter(self) -> Any:
        if self._limiter is None:
            from langchain_core.rate_limiters import InMemoryRateLimiter

            rps = self.requests_per_second
            assert rps is not None
            self._limiter = InMemoryRateLimiter(
                requests_per_second=rps,
                check_every_n_seconds=min(0.05, 0.5 / rps),
                max_bucket_size=max(1.0, rps),
            )
        return self._limiter

    # -- embeddings -------------------------------------------------------------------
    async def embed(
        self, model: Any, texts: Sequence[str], *, stage: str | None = "embeddings"
    ) -> np.ndarray:
        """Embed ``texts`` as an (n, dim) float32 matrix; each distinct text is paid for once."""
        if not on_engine_thread():
            return await on_engine(self.embed(model, texts, stage=stage))
        texts = list(texts)
        if isinstance(model, OfflineEmbeddings):  # computed in-process: no cache, no request
            self.record(stage, offline=len(texts))
            return model.embed_matrix(texts)
        identity = model_identity(model)
        keys = [stable_hash(["embedding", identity, text]) for text in texts]
        text_of = dict(zip(keys, texts, strict=True))
        joined = {k for k in text_of if k in self._inflight}
        todo = {k: text for k, text in text_of.items() if k not in joined}
        loop = asyncio.get_running_loop()
        for key in todo:  # in flight before the cache is read, so a caller arriving meanwhile waits for it
            future = loop.create_future()
            future.add_done_callback(_consume_exception)
            self._inflight[key] = future
        futures = {k: self._inflight[k] for k in text_of}
        if todo:
            lookup = asyncio.ensure_future(self._stored_or_queued(model, identity, todo, stage))
            lookup.add_done_callback(_consume_exception)
        found: dict[str, np.ndarray] = {}
        stored: set[str] = set()
        for key, future in futures.items():
            found[key], from_cache = await asyncio.shield(future)
            if from_cache:
                stored.add(key)
        if stored:
            self.record(stage, cache_hits=len(stored))
        if joined - stored:
            self.record(stage, shared=len(joined - stored))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.vstack([found[k] for k in keys]).astype(np.float32, copy=False)

    async def _stored_or_queued(
        self, model: Any, identity: str, todo: dict[str, str], stage: str | None
    ) -> None:
        """Answer the in-flight texts the cache holds (read off the loop); queue the rest for requests.
        A task of its own: a caller that gives up must not strand the others waiting on these texts."""
        try:
            stored = await self.cache.aget_many(todo) if self.cache is not None else {}
        except BaseException as exc:
            for key in todo:
                self._settle(key, exc)
            if not isinstance(exc, Exception):
                raise
            return
        for key, blob in stored.items():
            self._settle(key, (np.frombuffer(blob, dtype=np.float32), True))
        rest = [(k, text) for k, text in todo.items() if k not in stored]
        if rest:
            self._queue_embeddings(model, identity, rest, stage)

    def _settle(self, key: str, result: tuple[np.ndarray, bool] | BaseException) -> None:
        """Give the callers waiting on ``key`` its (vector, from the cache) or an error."""
        future = self._inflight.pop(key, None)
        if future is None or future.done():
            return
        if isinstance(result, BaseException):
            future.set_exception(result if isinstance(result, Exception) else asyncio.CancelledError())
        else:
            future.set_result(result)

    def _queue_embeddings(
        self, model: Any, identity: str, items: list[tuple[str, str]], stage: str | None
    ) -> None:
        """Texts asked for in the same moment, or while a request of their model waits for a free slot, go
        out together: under load, embedding requests merge instead of taking a slot each."""
        queued = self._embed_queue.setdefault(identity, (model, stage, []))
        queued[2].extend(items)
        if identity not in self._embed_waiting:  # no request of this model waits for a slot: start one
            self._embed_waiting.add(identity)
            asyncio.get_running_loop().call_later(EMBED_COALESCE_SECONDS, self._start_embeddings, identity)

    def _start_embeddings(self, identity: str) -> None:
        model, stage, _ = self._embed_queue[identity]
        task = asyncio.ensure_future(self._send_embeddings(model, identity, stage))
        task.add_done_callback(_consume_exception)

    def _take_embeddings(self, identity: str) -> list[tuple[str, str]]:
        """Up to a batch of the queued texts; what is left waits for the next request, started now."""
        model, stage, items = self._embed_queue[identity]
        taken, left = items[: self.embedding_batch_size], items[self.embedding_batch_size :]
        if left:
            self._embed_queue[identity] = (model, stage, left)
            self._start_embeddings(identity)
        else:
            del self._embed_queue[identity]
            self._embed_waiting.discard(identity)
        return taken

    async def _send_embeddings(self, model: Any, identity: str, stage: str | None) -> None:
        batch: list[tuple[str, str]] = []

        async def send() -> tuple[list[list[float]], TokenCounts]:
            if not batch:  # a slot is free: take what queued up meanwhile (a retry resends the same texts)
                batch.extend(self._take_embeddings(identity))
            return await _embed_texts(self.loop_safe(model), [text for _, text in batch])

        kept = _KeptSlots()
        _kept.set(kept)  # this task's own (it may have inherited its starter's)
        try:
            vectors = await self.request(model, stage, send, kind="embeddings")
            rows = [np.asarray(v, dtype=np.float32) for v in vectors]
            if self.cache is not None:  # handed to the cache's writer: stored off the loop
                self.cache.put_many(
                    ((k, r.tobytes()) for (k, _), r in zip(batch, rows, strict=True)), "embedding"
                )
            for (key, _), row in zip(batch, rows, strict=True):
                self._settle(key, (row, False))
            if self.cache is not None:  # the slot goes to the next request once these are on disk
                await self.cache.written([k for k, _ in batch], WRITE_WAIT_SECONDS)
        except BaseException as exc:
            if not batch and identity in self._embed_queue:  # stopped before its turn: fail what waited
                batch.extend(self._take_embeddings(identity))
            for key, _ in batch:
                self._settle(key, exc)
            if not isinstance(exc, Exception):
                raise
        finally:
            kept.close()

    def embed_sync(self, model: Any, texts: Sequence[str], *, stage: str | None = "embeddings") -> np.ndarray:
        return run_sync(self.embed(model, texts, stage=stage))

    def __repr__(self) -> str:
        return (
            f"CallEngine(cache={self.cache!r}, max_concurrency={self.max_concurrency}, "
            f"timeout={self.timeout}, retry={self.retry})"
        )


async def _acquire(slots: asyncio.Semaphore, kept: _KeptSlots | None) -> None:
    """Take a slot; a computation gives back the slots it kept first, and while it waits for this one,
    its other requests keep none."""
    if kept is None:
        await slots.acquire()
        return
    kept.release()
    kept.waiting += 1
    try:
        await slots.acquire()
    finally:
        kept.waiting -= 1


async def _embed_texts(model: Any, texts: list[str]) -> tuple[list[list[float]], TokenCounts]:
    try:
        vectors = await model.aembed_documents(texts)
    except ValueError as exc:  # the openai SDK's words for a 200 whose "data" is empty
        if "no embedding data" not in str(exc).lower():
            raise
        vectors = []
    if len(vectors) != len(texts):  # a glitch like a truncated body: worth another try
        raise IncompleteAnswer(f"the embeddings model returned {len(vectors)} vectors for {len(texts)} texts")
    return [_pooled(vector) for vector in vectors], None


def _pooled(vector: Any) -> list[float]:
    """One vector per text. A llama.cpp server started without a pooling type answers with one vector
    per token: those are averaged (mean pooling), with a warning once, as the server would pool them."""
    if len(vector) and isinstance(vector[0], list | tuple):
        global _warned_pooling
        if not _warned_pooling:
            _warned_pooling = True
            log.warning(
                "the embeddings server returned one vector per token: averaging them (start llama.cpp's "
                "server with a pooling type, e.g. --pooling mean, to get one vector per text)"
            )
        return [float(x) for x in np.asarray(vector, dtype=np.float64).mean(axis=0)]
    return vector


_warned_pooling = False


def being_cancelled() -> bool:
    """Is the running task itself being cancelled (an interrupted run), rather than re-raising the
    CancelledError of a shared call cancelled elsewhere? Only the former should stop a whole run."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _consume_exception(future: asyncio.Future[Any]) -> None:
    """Mark a shared future's exception as retrieved (its callers re-raise it themselves)."""
    if not future.cancelled():
        future.exception()


_default: CallEngine | None = None


def get_engine() -> CallEngine:
    """The process-wide default engine (created on first use with default settings)."""
    global _default
    if _default is None:
        _default = CallEngine()
    return _default


def set_engine(engine: CallEngine | None) -> None:
    """Replace the default engine (None: a fresh default one is made on next use)."""
    global _default
    _default = engine


def configure(**settings: Any) -> CallEngine:
    """Make a new default engine with these settings (see ``CallEngine``) and return it."""
    engine = CallEngine(**settings)
    set_engine(engine)
    return engine
