"""Where per-text work runs: in this process (``local``), or as Ray tasks on a Ray cluster (``ray``).

A backend does one thing, ``map_batches(fn, items)``: cut ``items`` into batches, run ``fn`` on each and
return the results in batch order (``map_each`` runs ``fn`` on batches already cut, e.g. the ones a
resumed build still lacks); ``progress`` hears how many items each batch held as it finishes. Every
function given to it is pure (module-level, plain data in and out), so a batch gives the same result
wherever it runs and a graph built on Ray is the graph built locally, fingerprint for fingerprint; what
depends on the whole corpus (phrase counts, relationships) is merged from the batches' results in this
process. Ray is an optional extra (``groundset[ray]``).
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from .errors import ConfigError

__all__ = ["BACKENDS", "Backend", "CutsBatches", "LocalBackend", "RayBackend", "get_backend"]

T = TypeVar("T")
R = TypeVar("R")
Advance = Callable[[int], None]  # told how many items a finished batch held
BACKENDS = ("local", "ray")
BATCH_ITEMS = 512  # texts per task: big enough to pay a task's overhead, small enough to spread
logger = logging.getLogger(__name__)


class Backend(Protocol):
    name: str

    batch_items: int

    def map_batches(
        self, fn: Callable[..., R], items: Sequence[T], *, shared: Any = None, progress: Advance | None = None
    ) -> list[R]:
        """``fn`` of each batch of ``items`` (``batch_size(len(items))`` items each), in order. With
        ``shared`` (e.g. a large array every batch reads), ``fn(batch, shared)``: sent once, not per batch.
        ``progress(n)``: called as each batch of n items is done."""
        ...

    def map_each(
        self,
        fn: Callable[..., R],
        batches: Sequence[list[T]],
        *,
        shared: Any = None,
        progress: Advance | None = None,
    ) -> list[R]:
        """``fn`` of each of ``batches``, in order (``shared`` and ``progress`` as in ``map_batches``)."""
        ...

    def batch_size(self, count: int) -> int:
        """How many of ``count`` items go in one batch."""
        ...


def _size(batch_items: int) -> int:
    if batch_items < 1:
        raise ConfigError(f"batch_items must be at least 1, got {batch_items}")
    return batch_items


def batches_of(items: Sequence[T], size: int) -> list[list[T]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


class CutsBatches:
    """``map_batches`` of a backend that has ``batch_size`` and ``map_each``: the items cut, then mapped."""

    def map_batches(
        self, fn: Callable[..., R], items: Sequence[T], *, shared: Any = None, progress: Advance | None = None
    ) -> list[R]:
        batches = batches_of(items, self.batch_size(len(items)))  # type: ignore[attr-defined]
        return self.map_each(fn, batches, shared=shared, progress=progress)  # type: ignore[attr-defined]


class LocalBackend(CutsBatches):
    """Every batch in this process, one after another."""

    name = "local"

    def __init__(self, *, batch_items: int = BATCH_ITEMS) -> None:
        self.batch_items = _size(batch_items)

    def map_each(
        self,
        fn: Callable[..., R],
        batches: Sequence[list[T]],
        *,
        shared: Any = None,
        progress: Advance | None = None,
    ) -> list[R]:
        results = []
        for batch in batches:
            results.append(fn(batch) if shared is None else fn(batch, shared))
            if progress is not None:
                progress(len(batch))
        return results

    def batch_size(self, count: int) -> int:
        return self.batch_items

    def __repr__(self) -> str:
        return f"LocalBackend(batch_items={self.batch_items})"


class RayBackend(CutsBatches):
    """Each batch a Ray task. Connects to the cluster at ``address`` (``"auto"``: the one this machine
    belongs to; ``RAY_ADDRESS`` is honoured), or starts a local Ray with ``num_cpus`` when none is given.
    Workers import groundset: on a cluster it must be installed on every node (or shipped with a
    ``runtime_env``)."""

    name = "ray"

    def __init__(
        self, address: str | None = None, *, num_cpus: int | None = None, batch_items: int = BATCH_ITEMS
    ) -> None:
        self.batch_items = _size(batch_items)
        try:
            import ray
        except ImportError as exc:
            raise ConfigError(
                "the ray backend needs Ray: pip install 'groundset[ray]' (or choose --backend local)"
            ) from exc
        self._ray = ray
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                options["address"] = self.address
            else:
                options["num_cpus"] = num_cpus
            try:
                ray.init(**options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = self.address or "a local Ray instance"
                raise ConfigError(f"could not start or reach {where}: {exc}") from exc
            logger.info("ray: %s", ray.cluster_resources())
        self._remote: dict[Callable[..., Any], Any] = {}

    def map_each(
        self,
        fn: Callable[..., R],
        batches: Sequence[list[T]],
        *,
        shared: Any = None,
        progress: Advance | None = None,
    ) -> list[R]:
        if not batches:
            return []
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn)
        if shared is None:
            refs = [remote.remote(batch) for batch in batches]
        else:
            stored = self._ray.put(shared)  # once in the object store; each task reads it there (no copy)
            refs = [remote.remote(batch, stored) for batch in batches]
        try:
            if progress is not None:  # heard as the tasks finish, in any order
                sizes = {ref: len(batch) for ref, batch in zip(refs, batches, strict=True)}
                waiting = list(refs)
                while waiting:
                    done, waiting = self._ray.wait(waiting, num_returns=1)
                    progress(sizes[done[0]])
            return list(self._ray.get(refs))
        except BaseException:  # a failed batch or Ctrl-C: the other tasks are not left running
            for ref in refs:
                self._ray.cancel(ref)
            raise

    def batch_size(self, count: int) -> int:
        # At least two tasks a CPU when the items allow, so 277 documents do not make one task.
        return max(1, min(self.batch_items, math.ceil(count / (2 * self.cpus()))))

    def cpus(self) -> int:
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def describe(self) -> str:
        """Where the work ran, for the build's summary: "Ray on this machine, 2 CPUs"."""
        cpus = int(self._ray.cluster_resources().get("CPU", 0))
        where = f"the Ray cluster at {self.address}" if self.address else "Ray on this machine"
        return f"{where}, {cpus} CPUs"

    def __repr__(self) -> str:
        return f"RayBackend(address={self.address!r}, batch_items={self.batch_items})"


def get_backend(name: str | Backend | None = None, *, address: str | None = None) -> Backend:
    """The backend called ``name`` (default local); ``address`` only for ray."""
    if name is None or name == "local":
        if address:
            raise ConfigError("--ray-address needs --backend ray")
        return LocalBackend()
    if name == "ray":
        return RayBackend(address)
    if isinstance(name, str):
        raise ConfigError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    return name
