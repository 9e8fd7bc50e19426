"""Model calls made in Ray workers, with one call cache and one rate limit for the whole run.

A worker's ``CallEngine`` works as in one process (single-flight, retries, timeouts, usage), but reads and
writes the call cache, and asks for its turn under the requests-per-second limit, through one Ray actor,
the ``CallBroker``, which runs on the driver's machine and holds the driver's cache file. So an answer paid
for in one worker is a cache hit in every other and in later runs, an interrupted run resumes without
paying again, and the run as a whole keeps the limit the user set, however many workers it has.

Models travel as their settings, never with their API key: a LangChain model object holds HTTP clients
(which cannot be pickled) and its key, which must not reach Ray's object store (it may spill to disk).
A worker builds the model again from the settings and takes the key from its own environment
(``OPENAI_API_KEY`` on every node of a cluster; a Ray started on this machine inherits this process's).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel, SecretStr

from .cache import CallCache
from .errors import ConfigError
from .models import is_plain
from .secrets import is_secret_field, register_model_secrets

__all__ = ["CallBroker", "SharedCache", "SharedRate", "TokenBucket", "rebuilt_model", "ship_models"]

log = logging.getLogger("groundset.ray_calls")
#: A key the driver made up for a local server that asks for none (see ``models``): not a secret.
PLACEHOLDER_KEY = "not-needed"
BROKER_THREADS = 32  # requests the broker serves at once (cache reads and writes, turns under the limit)


class TokenBucket:
    """Requests per second as turns: each request reserves the next free moment and is told how long to
    wait for it. Up to ``burst`` requests go at once after a quiet spell, as with langchain's limiter."""

    def __init__(self, requests_per_second: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if requests_per_second <= 0:
            raise ValueError(f"requests_per_second must be > 0, got {requests_per_second}")
        self.interval = 1.0 / requests_per_second
        self.burst = max(1.0, requests_per_second)
        self._clock = clock
        self._next = float("-inf")

    def reserve(self) -> float:
        """Seconds the caller must wait before its request (0 when it may go now)."""
        now = self._clock()
        turn = max(self._next, now - (self.burst - 1) * self.interval)
        self._next = turn + self.interval
        return max(0.0, turn - now)


class CallBroker:
    """The Ray actor the workers' engines share: the driver's call cache and the run's rate limit.

    Plain methods, run by a threaded actor: the cache is safe across threads and the bucket is guarded."""

    def __init__(self, cache_dir: str | None, requests_per_second: float | None) -> None:
        import threading

        self.cache = CallCache(cache_dir) if cache_dir else None
        self.bucket = TokenBucket(requests_per_second) if requests_per_second else None
        self._lock = threading.Lock()

    def get_many(self, keys: list[str]) -> dict[str, bytes]:
        return self.cache.get_many(keys) if self.cache is not None else {}

    def put_many(self, items: list[tuple[str, bytes]], kind: str, label: str | None) -> bool:
        """Store the answers; True once they are on disk (the writer is waited for a moment, as locally)."""
        if self.cache is None:
            return True
        self.cache.put_many(items, kind, label=label)
        return self.cache.flush(timeout=5.0)

    def discard(self, key: str) -> None:
        if self.cache is not None:
            self.cache.discard(key)

    def reserve(self) -> float:
        with self._lock:
            return self.bucket.reserve() if self.bucket is not None else 0.0

    def close(self) -> None:
        """Write what is left and close the cache."""
        if self.cache is not None:
            self.cache.flush()
            self.cache.close()
            self.cache = None


def start_broker(cache: CallCache | None, requests_per_second: float | None) -> Any:
    """A ``CallBroker`` on this machine's Ray node (where the cache file is), for one run."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = NodeAffinitySchedulingStrategy(node_id=ray.get_runtime_context().get_node_id(), soft=False)
    actor = ray.remote(CallBroker).options(
        max_concurrency=BROKER_THREADS, scheduling_strategy=here, num_cpus=0
    )
    directory = str(cache.directory) if cache is not None else None
    return actor.remote(directory, requests_per_second)


class SharedCache:
    """A worker's view of the broker's cache, with the methods the engine uses of a ``CallCache``."""

    def __init__(self, broker: Any) -> None:
        self._broker = broker
        self._writes: dict[str, Any] = {}  # key -> the put still being written

    async def aget(self, key: str) -> bytes | None:
        return (await self._broker.get_many.remote([key])).get(key)

    async def aget_many(self, keys: Iterable[str]) -> dict[str, bytes]:
        return await self._broker.get_many.remote(list(keys))

    def put(self, key: str, value: bytes, kind: str, *, label: str | None = None) -> None:
        self.put_many([(key, value)], kind, label=label)

    def put_many(self, items: Iterable[tuple[str, bytes]], kind: str, *, label: str | None = None) -> None:
        items = list(items)
        write = self._broker.put_many.remote(items, kind, label)
        for key, _ in items:
            self._writes[key] = write

    def discard(self, key: str) -> None:
        self._broker.discard.remote(key)

    async def written(self, keys: Iterable[str], timeout: float) -> bool:
        writes = {id(w): w for key in keys if (w := self._writes.pop(key, None)) is not None}
        if not writes:
            return True
        futures = [asyncio.wrap_future(w.future()) for w in writes.values()]
        done, pending = await asyncio.wait(futures, timeout=timeout)
        return not pending and all(f.result() for f in done)

    def flush(self, timeout: float = 60.0) -> bool:
        """Wait until every answer handed over is on disk (a worker's task ends only then)."""
        import ray

        writes = list({id(w): w for w in self._writes.values()}.values())
        self._writes.clear()
        if not writes:
            return True
        ready, pending = ray.wait(writes, num_returns=len(writes), timeout=timeout)
        return not pending and all(ray.get(ready))

    def __repr__(self) -> str:
        return "SharedCache(through the run's CallBroker)"


class SharedRate:
    """The run's requests-per-second limit, as the engine's rate limiter: waits for the broker's turn."""

    def __init__(self, broker: Any) -> None:
        self._broker = broker

    async def aacquire(self) -> None:
        wait = await self._broker.reserve.remote()
        if wait > 0:
            await asyncio.sleep(wait)


# -- models as settings -------------------------------------------------------------------------------
def _settings(model: BaseModel) -> tuple[type, dict[str, Any], list[str]]:
    """(the class, the plain settings given to it, the secret fields left out)."""
    settings: dict[str, Any] = {}
    secrets: list[str] = []
    for name in type(model).model_fields:
        if name not in model.model_fields_set:
            continue
        value = getattr(model, name, None)
        if isinstance(value, SecretStr):
            if value.get_secret_value() == PLACEHOLDER_KEY:
                settings[name] = PLACEHOLDER_KEY
            else:
                secrets.append(name)
        elif not is_secret_field(name) and is_plain(value):
            settings[name] = value
    return type(model), settings, secrets


def rebuilt_model(shipped: tuple[type, dict[str, Any], list[str]]) -> Any:
    """The model again, in a worker, from ``_settings``; its key from this machine's environment."""
    cls, settings, secrets = shipped
    try:
        model = cls(**settings)
    except Exception as exc:  # noqa: BLE001 - said with what to do, whatever the model's class raised
        left_out = f" ({', '.join(secrets)} left out)" if secrets else ""
        raise ConfigError(
            f"a Ray worker could not build {cls.__name__} again from its settings{left_out}: {exc}. API keys "
            "are not sent to Ray workers: set the model's key variable (e.g. OPENAI_API_KEY) on every node"
        ) from exc
    register_model_secrets(model)
    return model


def ship_models(models: Iterable[Any]) -> None:
    """Have Ray send these models' classes as settings (``_settings``) instead of pickling them."""
    import ray

    for cls in {type(m) for m in models if isinstance(m, BaseModel)}:
        ray.util.register_serializer(cls, serializer=_settings, deserializer=rebuilt_model)
