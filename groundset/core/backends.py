"""Where per-text work runs: in this process (``local``), or as Ray tasks on a Ray cluster (``ray``).

A backend does one thing, ``map_batches(fn, items)``: cut ``items`` into batches, run ``fn`` on each and
return the results in batch order. Every function given to it is pure (module-level, plain data in and
out), so a batch gives the same result wherever it runs and a graph built on Ray is the graph built
locally, fingerprint for fingerprint; what depends on the whole corpus (phrase counts, relationships)
is merged from the batches' results in this process. Ray is an optional extra (``groundset[ray]``).
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from .errors import ConfigError

__all__ = ["BACKENDS", "Backend", "LocalBackend", "RayBackend", "get_backend"]

T = TypeVar("T")
R = TypeVar("R")
BACKENDS = ("local", "ray")
BATCH_ITEMS = 512  # texts per task: big enough to pay a task's overhead, small enough to spread
logger = logging.getLogger(__name__)


class Backend(Protocol):
    name: str

    batch_items: int

    def map_batches(self, fn: Callable[[list[T]], R], items: Sequence[T]) -> list[R]:
        """``fn`` of each batch of ``batch_items`` of ``items``, in order."""
        ...


def _size(batch_items: int) -> int:
    if batch_items < 1:
        raise ConfigError(f"batch_items must be at least 1, got {batch_items}")
    return batch_items


def _batches(items: Sequence[T], size: int) -> list[list[T]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


class LocalBackend:
    """Every batch in this process, one after another."""

    name = "local"

    def __init__(self, *, batch_items: int = BATCH_ITEMS) -> None:
        self.batch_items = _size(batch_items)

    def map_batches(self, fn: Callable[[list[T]], R], items: Sequence[T]) -> list[R]:
        return [fn(batch) for batch in _batches(items, self.batch_items)]

    def __repr__(self) -> str:
        return f"LocalBackend(batch_items={self.batch_items})"


class RayBackend:
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

    def map_batches(self, fn: Callable[[list[T]], R], items: Sequence[T]) -> list[R]:
        # At least two tasks a CPU when the items allow, so 277 documents do not make one task.
        cpus = max(1, int(self._ray.cluster_resources().get("CPU", 1)))
        batches = _batches(items, max(1, min(self.batch_items, math.ceil(len(items) / (2 * cpus)))))
        if not batches:
            return []
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn)
        return list(self._ray.get([remote.remote(batch) for batch in batches]))

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
