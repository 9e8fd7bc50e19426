"""Table answers (text-to-SQL and the like): the response's CSV table compared with the reference's.

pandas reads both tables (the ``pandas`` extra; the datacompy package is not used: it pulls polars and
pyarrow). The first line is the header. Cells are compared by value, not by spelling: outer spaces are
ignored, numbers compare as numbers ("1" equals "1.0") and an empty cell equals an empty cell. The order of
rows and of columns never counts: a query without ORDER BY may return its rows in any order. When the text
holds a Markdown code fence, the table is read from the first one and the prose around it is ignored.
"""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from typing import Any

from ...samples.evaluation import SingleTurnSample
from ..formulas import f1_from_counts, precision_from_counts, recall_from_counts
from ..metric import Metric, MetricResult, ScoringContext
from .text import empty_texts

__all__ = ["DataCompyScore"]

MODES = ("rows", "columns")
METRICS = {"precision": precision_from_counts, "recall": recall_from_counts, "f1": f1_from_counts}
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n(.*?)\n[ \t]*\1[ \t]*$", re.DOTALL | re.MULTILINE)


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as error:
        raise ImportError(
            "data_compy_score reads CSV with pandas: pip install 'groundset[pandas]'"
        ) from error
    return pandas


def _cell(value: object) -> object:
    """A cell as it compares: None when empty, a float when it reads as a finite number, else its text."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        return text
    return number if math.isfinite(number) else text


def read_table(text: str) -> dict[str, list[object]]:
    """Column name -> cells, in row order; ValueError with pandas' reason when ``text`` is not a CSV table.

    Read without a header so that a row longer than the header is an error (pandas would otherwise take
    the first column as an index, or drop the extra cells); a shorter row is padded with empty cells.
    """
    pandas = _pandas()
    fenced = _FENCE.search(text)
    body = fenced.group(2) if fenced else text
    try:
        grid = pandas.read_csv(io.StringIO(body.strip()), header=None, dtype=str, keep_default_na=False)
    except (pandas.errors.ParserError, pandas.errors.EmptyDataError, UnicodeError) as error:
        raise ValueError(" ".join(str(error).split())) from None
    labels = [str(name).strip() for name in grid.iloc[0]]
    if len(set(labels)) != len(labels):
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        raise ValueError(f"repeated column names {repeated}")
    return {label: [_cell(v) for v in grid.iloc[1:, i]] for i, label in enumerate(labels)}


def _height(table: dict[str, list[object]]) -> int:
    return len(next(iter(table.values()), []))


def matching_rows(response: dict[str, list[object]], reference: dict[str, list[object]]) -> int:
    """Rows of the response that pair off with equal rows of the reference, over the shared columns
    (each reference row pairs once). No shared column: no row can match."""
    shared = [name for name in reference if name in response]
    if not shared:
        return 0

    def rows(table: dict[str, list[object]]) -> Counter[tuple[object, ...]]:
        return Counter(zip(*(table[name] for name in shared), strict=True))

    return sum((rows(response) & rows(reference)).values())


def matching_columns(response: dict[str, list[object]], reference: dict[str, list[object]]) -> list[str]:
    """Names of the columns present in both whose values are the same multiset."""
    return [
        name for name in reference if name in response and Counter(response[name]) == Counter(reference[name])
    ]


class DataCompyScore(Metric):
    """Precision, recall or F1 of the response table's rows (``mode="rows"``) or columns (``"columns"``).

    rows: matching rows / response rows (precision), / reference rows (recall). columns: columns present in
    both whose values all match / response columns (precision), / reference columns (recall). A response
    or reference that is not a CSV table is NaN with pandas' reason; an empty response scores 0.
    """

    name = "data_compy_score"
    columns = ("response", "reference")

    def __init__(self, *, mode: str = "rows", metric: str = "f1", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        if mode not in MODES:
            raise ValueError(f"{self.name}: mode must be 'rows' or 'columns', got {mode!r}")
        if metric not in METRICS:
            raise ValueError(f"{self.name}: metric must be one of {', '.join(METRICS)}, got {metric!r}")
        self.mode, self.metric = mode, metric

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        response, reference = sample.response or "", sample.reference or ""
        empty = empty_texts(response, reference)
        if empty is not None:
            return empty
        tables = {}
        for field, text in (("response", response), ("reference", reference)):
            try:
                tables[field] = read_table(text)
            except ValueError as error:
                return MetricResult.nan(f"the {field} is not a CSV table: {error}")
        ours, theirs = tables["response"], tables["reference"]
        if self.mode == "rows":
            ours_n, theirs_n, tp = _height(ours), _height(theirs), matching_rows(ours, theirs)
        else:
            ours_n, theirs_n, tp = len(ours), len(theirs), len(matching_columns(ours, theirs))
        score = METRICS[self.metric](tp, ours_n - tp, theirs_n - tp)
        unshared = sorted(set(ours) ^ set(theirs))
        trace = {"matching": tp, "response": ours_n, "reference": theirs_n, "unshared_columns": unshared}
        reason = f"{tp} matching {self.mode} of {ours_n} in the response and {theirs_n} in the reference"
        if unshared:
            reason += f"; columns in only one table: {', '.join(unshared)}"
        if math.isnan(score):
            return MetricResult.nan(f"both tables are empty: no {self.mode} to compare", **trace)
        return MetricResult(score, reason, trace)

    def __repr__(self) -> str:
        return f"DataCompyScore(mode={self.mode!r}, metric={self.metric!r})"
