"""Vectors of nodes as one matrix, without a copy when they are the rows of one already.

The embedding stage and a loaded graph keep each node's vector as a row (a view) of one float32 matrix.
Stacking them again copies the whole matrix (100 MB for 100,000 chunks) at the moments a large build
peaks: the similarity stage and the save.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["rows_matrix"]


def rows_matrix(rows: Sequence[Any]) -> tuple[np.ndarray, bool]:
    """The vectors as one float32 matrix, and whether it is a copy. Vectors that are the consecutive rows of
    one matrix (as an embedding stage or a loaded graph stores them) come back as a view of it: a corpus of
    100,000 chunks would otherwise copy 100 MB at the build's peak."""
    arrays = [np.asarray(row) for row in rows]
    base = arrays[0].base if arrays else None
    if (
        isinstance(base, np.ndarray)
        and base.ndim == 2
        and base.dtype == np.float32
        and base.flags.c_contiguous
        and all(a.base is base and a.ndim == 1 and a.shape[0] == base.shape[1] for a in arrays)
    ):
        origin, stride = base.__array_interface__["data"][0], base.strides[0]
        places = np.fromiter(
            (a.__array_interface__["data"][0] for a in arrays), dtype=np.int64, count=len(arrays)
        )
        first = (places[0] - origin) // stride
        if (
            np.array_equal(places, places[0] + stride * np.arange(len(arrays)))
            and (places[0] - origin) % stride == 0
        ):
            return base[first : first + len(arrays)], False
    return np.vstack([a.astype(np.float32, copy=False) for a in arrays]), True
