"""A build's checkpoint, so that a killed ``kg build`` resumes where it stopped instead of from the start.

While a build runs, its checkpoint folder keeps two things:
- the graph after each finished stage that took longer than two saves of it (``graph/``, in the saved-graph
  format, recording how many stages were done), so short stages cost no save;
- the result of each batch of per-text work (phrase candidates, entities, TextRank summaries; the bulk of
  an offline build's CPU) as soon as the batch is done (``work/``, an SQLite store like the call cache).
A resumed build loads the graph, skips the stages it holds and, in the stage it was killed in, runs only
the batches it lacks. Model calls need no checkpoint: the call cache already keeps every answer.

The checkpoint records what it was built from (the documents, the options, the models, the chain). A build
of anything else removes it and starts afresh, so a stale checkpoint can never leak into a graph.
Batch results are stored as JSON, never pickled: nothing in the folder is executed when it is read.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..core.backends import Advance, Backend, CutsBatches
from ..core.cache import CallCache
from ..core.hashing import stable_hash
from .graph import KnowledgeGraph

T = TypeVar("T")
R = TypeVar("R")

RECORD = "checkpoint"  # the graph-level record of a checkpoint's saved graph
FORMAT = 1  # of the stored batch results; a change makes old ones miss
WINDOW_TASKS = 2  # batches run between two writes, per CPU of a backend that runs them at once


class BuildCheckpoint:
    """The checkpoint folder of one build. ``identity``: a hash of everything the graph depends on (set by
    the build); ``min_stage_seconds``: a stage shorter than this is not worth a save of the graph (0: every
    stage is kept, however quick)."""

    def __init__(self, directory: str | Path, identity: str = "", *, min_stage_seconds: float = 5.0) -> None:
        self.directory = Path(directory)
        self.identity = identity
        self.min_stage_seconds = min_stage_seconds
        self.stages_done = 0  # when the build started
        self.batches_reused = 0
        self.batches_run = 0
        self.started_afresh = False  # a checkpoint of other inputs was found and removed
        self._save_seconds = 0.0
        self._work: CallCache | None = None

    @property
    def graph_dir(self) -> Path:
        return self.directory / "graph"

    def resume(self, kg: KnowledgeGraph) -> int:
        """Load the checkpoint's graph into ``kg`` when it is this build's; returns the stages it holds."""
        from .persistence import GRAPH_FILE, load_graph

        if not self.identity:
            raise ValueError("a BuildCheckpoint needs the identity of its build before it resumes")
        if self.directory.exists() and _saved_identity(self.directory) != self.identity:
            self.started_afresh = True
            shutil.rmtree(self.directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / "identity").write_text(self.identity + "\n", encoding="utf-8")
        if (self.graph_dir / GRAPH_FILE).is_file():
            saved = load_graph(self.graph_dir)
            self.stages_done = int(saved.graph.graph.pop(RECORD)["stages"])
            kg.graph, kg.relations = saved.graph, saved.relations
        return self.stages_done

    def stage_done(self, stages: int, kg: KnowledgeGraph, seconds: float) -> None:
        """After the first ``stages`` stages: keep the graph if the last one took longer than two saves
        (a save of a 100,000-chunk graph takes about 20 s; the stages not worth one are quick to redo)."""
        if self.min_stage_seconds and seconds < max(self.min_stage_seconds, 2 * self._save_seconds):
            return
        from .persistence import save_graph

        start = time.perf_counter()
        kg.graph.graph[RECORD] = {"identity": self.identity, "stages": stages}
        try:
            save_graph(kg, self.graph_dir, force=True)
        finally:
            kg.graph.graph.pop(RECORD, None)
        self._save_seconds = time.perf_counter() - start

    def backend(self, inner: Backend) -> Backend:
        """``inner``, keeping each batch's result here and reusing the ones a killed build left."""
        if self._work is None:
            self._work = CallCache(self.directory / "work")
        return _KeptBatches(inner, self._work, self)

    def remove(self) -> None:
        if self._work is not None:
            self._work.close()
            self._work = None
        shutil.rmtree(self.directory, ignore_errors=True)

    def summary(self) -> str:
        """One line for the build's output: what the checkpoint saved this run."""
        if not self.stages_done and not self.batches_reused:
            return ""
        return (
            f"resumed from the checkpoint: {self.stages_done} stages done, "
            f"{self.batches_reused} of {self.batches_reused + self.batches_run} batches of per-text work kept"
        )


def _saved_identity(directory: Path) -> str | None:
    try:
        return (directory / "identity").read_text(encoding="utf-8").strip()
    except OSError:
        return None


class _KeptBatches(CutsBatches):
    """A backend that stores each batch's result under a hash of the function and the batch's items."""

    def __init__(self, inner: Backend, work: CallCache, checkpoint: BuildCheckpoint) -> None:
        self.inner, self.work, self.checkpoint = inner, work, checkpoint
        self.name = inner.name
        self.batch_items = inner.batch_items

    def batch_size(self, count: int) -> int:
        return self.inner.batch_size(count)

    def map_each(
        self,
        fn: Callable[..., R],
        batches: Sequence[list[T]],
        *,
        shared: Any = None,
        progress: Advance | None = None,
    ) -> list[R]:
        name = f"{fn.__module__}.{fn.__qualname__}"
        context = None if shared is None else _digest(shared)
        keys = [stable_hash([FORMAT, name, context, _encode(batch)]) for batch in batches]
        found = self.work.get_many(keys)
        results: list[Any] = [None] * len(batches)
        missing = []
        for i, key in enumerate(keys):
            if key in found:
                results[i] = _decode(json.loads(found[key]))
            else:
                missing.append(i)
        self.checkpoint.batches_reused += len(batches) - len(missing)
        self.checkpoint.batches_run += len(missing)
        if progress is not None and len(missing) < len(batches):
            progress(sum(len(batch) for key, batch in zip(keys, batches, strict=True) if key in found))
        cpus = getattr(self.inner, "cpus", None)  # a backend that runs batches at once gets several each time
        window = WINDOW_TASKS * cpus() if cpus is not None else 1
        for start in range(0, len(missing), window):
            todo = missing[start : start + window]
            done = self.inner.map_each(fn, [batches[i] for i in todo], shared=shared, progress=progress)
            self.work.put_many(
                (
                    (keys[i], json.dumps(_encode(r), ensure_ascii=False).encode("utf-8"))
                    for i, r in zip(todo, done, strict=True)
                ),
                "work",
                label=name,
            )
            for i, result in zip(todo, done, strict=True):
                results[i] = result
        return results


def _digest(value: Any) -> str:
    """A hash of a batch function's shared input: arrays, sparse matrices, numbers, strings and tuples of
    them (anything else is refused: a key must hash what the batch reads, not a repr of it)."""
    digest = hashlib.sha256()

    def add(part: Any) -> None:
        if isinstance(part, np.ndarray):
            digest.update(f"array{part.dtype.str}{part.shape}".encode())
            digest.update(np.ascontiguousarray(part).tobytes())
        elif hasattr(part, "tocsr") and hasattr(part, "shape"):  # a scipy sparse matrix
            matrix = part.tocsr()
            digest.update(f"sparse{matrix.shape}".encode())
            for array in (matrix.data, matrix.indices, matrix.indptr):
                add(array)
        elif isinstance(part, tuple | list):
            digest.update(f"seq{len(part)}".encode())
            for item in part:
                add(item)
        elif part is None or isinstance(part, str | int | float | bool):
            digest.update(repr(part).encode("utf-8"))
        else:
            raise TypeError(f"cannot key a checkpointed batch on a {type(part).__name__}")

    add(value)
    return digest.hexdigest()


def _encode(value: Any) -> Any:
    """JSON-ready: a Counter and an array are tagged (a Counter's order kept), tuples become lists."""
    if isinstance(value, np.ndarray):
        data = base64.b64encode(np.ascontiguousarray(value).tobytes()).decode("ascii")
        return {"__array__": [value.dtype.str, list(value.shape), data]}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Counter):
        return {"__counter__": [[k, v] for k, v in value.items()]}
    if isinstance(value, list | tuple):
        if all(isinstance(v, str) for v in value):
            return list(value)
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "__counter__" in value:
            return Counter(dict((k, v) for k, v in value["__counter__"]))
        if "__array__" in value:
            dtype, shape, data = value["__array__"]
            return np.frombuffer(base64.b64decode(data), dtype=np.dtype(dtype)).reshape(shape).copy()
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return value
        return [_decode(v) for v in value]
    return value
