"""The transform interface and the runner that applies a chain of transforms to a graph.

A transform has one job: ``select`` the nodes that still need it, and ``apply`` itself to
them. Selecting by "still needs it" makes every stage safe on nodes a previous stage skipped
or failed, and makes a rerun only do what is missing.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..core.aio import run_sync
from ..core.backends import Backend, LocalBackend, get_backend
from ..core.engine import CallEngine, get_engine
from ..core.errors import GroundsetError, OfflineUnsupported
from ..core.models import resolve_embeddings, resolve_llm
from ..core.progress import Progress
from ..core.usage import StageUsage, track
from .graph import KnowledgeGraph

if TYPE_CHECKING:
    from .checkpoint import BuildCheckpoint


class TransformError(GroundsetError):
    """A stage failed on every node it had to process (e.g. the model endpoint is down)."""


@dataclass
class BuildContext:
    """What every transform may use: the models, the call engine, a progress sink, and the backend that
    runs per-text work (this process, or Ray)."""

    llm: Any
    embeddings: Any
    engine: CallEngine
    progress: Progress
    backend: Backend = field(default_factory=LocalBackend)


@dataclass
class StageReport:
    name: str
    stage: str
    selected: int
    done: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    usage: StageUsage = field(default_factory=StageUsage)
    resumed: bool = False  # done by a build that was stopped, read back from its checkpoint


@dataclass
class BuildReport:
    stages: list[StageReport] = field(default_factory=list)

    def total_usage(self) -> StageUsage:
        total = StageUsage()
        for stage in self.stages:
            total.add(stage.usage)
        return total

    @property
    def failures(self) -> list[tuple[str, str, str]]:
        return [(s.name, node, error) for s in self.stages for node, error in s.failures]


class Transform(ABC):
    """One step of a graph build. Subclasses set ``stage`` (the usage label) and implement two methods."""

    stage: ClassVar[str]
    name: str = "transform"  # a short label for progress bars and reports

    @abstractmethod
    def select(self, kg: KnowledgeGraph) -> list[str]:
        """The nodes this transform still has to process (may be empty)."""

    @abstractmethod
    async def apply(self, kg: KnowledgeGraph, nodes: Sequence[str], ctx: BuildContext) -> StageReport:
        """Process ``nodes``; record per-node failures in the report instead of raising."""

    def report(self, nodes: Sequence[str]) -> StageReport:
        return StageReport(self.name, self.stage, selected=len(nodes))

    def __repr__(self) -> str:
        return f"{self.name}()"


async def each_node(
    nodes: Sequence[str],
    work: Callable[[str], Awaitable[None]],
    report: StageReport,
    ctx: BuildContext,
) -> StageReport:
    """Run ``work`` on every node concurrently (the engine bounds the requests), keeping failures per node."""
    import asyncio

    with ctx.progress.stage(report.name, len(nodes)) as advance:

        async def one(node: str) -> None:
            try:
                await work(node)
            except OfflineUnsupported:
                raise
            except Exception as exc:  # noqa: BLE001 - one node's failure must not stop the build
                report.failures.append((node, f"{type(exc).__name__}: {exc}"))
            else:
                report.done += 1
            advance()

        await asyncio.gather(*(one(node) for node in nodes))
    return report


async def aapply_transforms(
    kg: KnowledgeGraph,
    transforms: Sequence[Transform],
    *,
    llm: Any = None,
    embeddings: Any = None,
    engine: CallEngine | None = None,
    show_progress: bool = False,
    backend: Backend | str | None = None,
    checkpoint: BuildCheckpoint | None = None,
) -> BuildReport:
    """Apply ``transforms`` in order; returns what each stage did, failed and used. ``backend``: where
    per-text work runs ("local", "ray" or a ``Backend``); the graph is the same either way.
    ``checkpoint``: where the build keeps its progress; the stages and batches of per-text work it holds
    from a stopped build are not done again (see checkpoint.py)."""
    runner = get_backend(backend)
    done = checkpoint.resume(kg) if checkpoint is not None else 0
    ctx = BuildContext(
        llm=resolve_llm(llm).model,
        embeddings=resolve_embeddings(embeddings).model,
        engine=engine or get_engine(),
        progress=Progress(show_progress),
        backend=checkpoint.backend(runner) if checkpoint is not None else runner,
    )
    report = BuildReport()
    with ctx.progress:
        for index, transform in enumerate(transforms):
            if index < done:
                report.stages.append(StageReport(transform.name, transform.stage, selected=0, resumed=True))
                continue
            nodes = transform.select(kg)
            start = time.perf_counter()
            with track() as usage:
                stage_report = await transform.apply(kg, nodes, ctx)
            stage_report.seconds = time.perf_counter() - start
            stage_report.usage = usage[transform.stage]
            report.stages.append(stage_report)
            if nodes and stage_report.done == 0 and stage_report.failures:
                node, error = stage_report.failures[0]
                raise TransformError(
                    f"{transform.name} failed on all {len(nodes)} nodes, e.g. {node}: {error}"
                )
            if checkpoint is not None:
                checkpoint.stage_done(index + 1, kg, stage_report.seconds)
    return report


def apply_transforms(kg: KnowledgeGraph, transforms: Sequence[Transform], **options: Any) -> BuildReport:
    """The sync twin of ``aapply_transforms`` (works inside a running event loop too)."""
    return run_sync(aapply_transforms(kg, transforms, **options))
