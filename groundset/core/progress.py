"""Progress bars for long work (graph stages, generation, scoring), on stderr, or nothing when disabled."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class Progress:
    """Progress bars per stage on stderr (rich), or nothing when disabled."""

    def __init__(self, enabled: bool) -> None:
        self._bar: Any = None
        if enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("{task.description:<22}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=False,
            )

    @contextmanager
    def stage(self, name: str, total: int) -> Iterator[Callable[..., None]]:
        """A bar for ``total`` steps; the callable given advances it by one step, or by ``n``."""
        if self._bar is None:
            yield lambda n=1: None
            return
        task = self._bar.add_task(name, total=max(total, 1))
        try:
            yield lambda n=1: self._bar.advance(task, n)
        finally:
            self._bar.update(task, completed=max(total, 1))

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
