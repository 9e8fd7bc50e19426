"""The list behaviour test sets and datasets share: length, iteration, indexing and slicing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Generic, Self, TypeVar, overload

T = TypeVar("T")


class SampleSequence(Generic[T]):
    """A read-mostly list of samples; subclasses say how a slice keeps their other state."""

    samples: list[T]

    def __len__(self) -> int:
        return len(self.samples)

    def __iter__(self) -> Iterator[T]:
        return iter(self.samples)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Self: ...
    def __getitem__(self, index: int | slice) -> T | Self:
        if isinstance(index, slice):
            return self._sliced(index)
        return self.samples[index]

    def _sliced(self, index: slice) -> Self:
        raise NotImplementedError

    def _same(self, other: Any) -> bool:
        return type(other) is type(self) and self.samples == other.samples
