"""EvaluationDataset: samples of one kind, read from rows, JSONL, CSV, pandas or a groundset Testset.

Every loader goes through one row parser, so a bad row fails the same way from any source:
with the file and line (or row) and the field, before any metric spends a model call on it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.atomic import atomic_write_text
from ..core.errors import ConfigError
from ..core.records import (
    csv_rows,
    from_spreadsheet,
    json_lines,
    json_problem,
    read_text,
    repair_surrogates,
    surrogate_notice,
)
from .columns import check_extra_columns, check_names, kept_notice, write_back
from .evaluation import KNOWN_NAMES, MultiTurnSample, SingleTurnSample, sample_from_row, valid_fields
from .sequence import SampleSequence
from .testset import FIELDS as TESTSET_FIELDS
from .testset import HEADER_KEY, Testset, TestsetSample
from .turns import ANSWER, history_messages

if TYPE_CHECKING:
    import pandas as pd

logger = logging.getLogger(__name__)

Sample = SingleTurnSample | MultiTurnSample

_FROM_TESTSET = {"user_input", "reference", "reference_contexts", "reference_context_ids"}
_META = {"id", "synthesizer", "persona", "style", "length", "source_documents"}
_REVIEW = {"reviewed", "edited", "tags"}  # kept in metadata when set, for `--only` and the run file
_ALL_FIELDS = frozenset(SingleTurnSample.model_fields) | frozenset(MultiTurnSample.model_fields)
# Cells that hold JSON in CSV files and in DataFrames read back with pandas.read_csv.
_JSON_CELLS = frozenset(
    {"retrieved_contexts", "retrieved_context_ids", "reference_contexts", "reference_context_ids"}
    | {"multi_responses", "rubrics", "metadata", "reference_tool_calls", "reference_topics"}
    | {"contexts", "ground_truths"}
)


class EvaluationDataset(SampleSequence[SingleTurnSample | MultiTurnSample]):
    """An ordered list of samples, all single-turn or all multi-turn, as the metrics see them.

    ``extra_columns`` names the user's own columns (label, ticket_id, ...): each sample keeps their values
    in its metadata, and the writers put them back as top-level fields so scores join to the user's data.
    """

    def __init__(
        self,
        samples: Iterable[Sample] = (),
        *,
        locations: Iterable[str] | None = None,
        extra_columns: Iterable[str] = (),
    ) -> None:
        self.samples: list[Sample] = list(samples)
        self.extra_columns: list[str] = check_extra_columns(extra_columns, KNOWN_NAMES)
        # Where each sample came from ("data.jsonl line 3"), so errors point at the line a user can open.
        self.locations = list(locations) if locations is not None else [f"sample {i}" for i in self.indices()]
        if len(self.locations) != len(self.samples):
            raise ValueError(f"{len(self.locations)} locations for {len(self.samples)} samples")
        first: type[Sample] | None = None
        for index, sample in enumerate(self.samples):
            if not isinstance(sample, SingleTurnSample | MultiTurnSample):
                raise TypeError(
                    f"sample {index} is {type(sample).__name__}, not a SingleTurnSample or MultiTurnSample"
                )
            this = MultiTurnSample if isinstance(sample, MultiTurnSample) else SingleTurnSample
            first = first or this
            if this is not first:
                raise ValueError(
                    f"samples mix kinds: sample 0 is {first.__name__} but sample {index} is {this.__name__}; "
                    "a dataset holds single-turn or multi-turn samples, not both"
                )

    @property
    def sample_type(self) -> type[SingleTurnSample] | type[MultiTurnSample] | None:
        """The kind of every sample, or None when the dataset is empty."""
        if not self.samples:
            return None
        return MultiTurnSample if isinstance(self.samples[0], MultiTurnSample) else SingleTurnSample

    @property
    def is_multi_turn(self) -> bool:
        return self.sample_type is MultiTurnSample

    def _sliced(self, index: slice) -> EvaluationDataset:
        return EvaluationDataset(
            self.samples[index], locations=self.locations[index], extra_columns=self.extra_columns
        )

    def indices(self) -> range:
        return range(len(self.samples))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EvaluationDataset):
            return NotImplemented
        # Column order is presentation: rows read back list a column first where it first has a value.
        return self._same(other) and set(self.extra_columns) == set(other.extra_columns)

    def __repr__(self) -> str:
        name = f" {self.sample_type.__name__}" if self.sample_type else ""
        extra = f", extra_columns={self.extra_columns}" if self.extra_columns else ""
        return f"EvaluationDataset({len(self)}{name} samples, columns={sorted(self.columns())}{extra})"

    # Columns: what the metric layer checks, for the whole dataset, before it makes any call.

    def columns(self) -> set[str]:
        """Fields set (not None) in at least one sample; metadata is not a column."""
        return set().union(*(sample.present_fields() for sample in self.samples))

    def missing(self, column: str) -> list[int]:
        """Indices of the samples where ``column`` is None; an unknown name is an error, not []."""
        valid = set(self.sample_type.model_fields) if self.sample_type else set(_ALL_FIELDS)
        valid.discard("metadata")
        if column not in valid:
            raise ValueError(f"unknown column {column!r}; valid columns: {', '.join(sorted(valid))}")
        return [index for index, sample in enumerate(self.samples) if getattr(sample, column) is None]

    def describe(self, indices: Iterable[int], *, limit: int = 10) -> str:
        """Samples by where they came from: ``data.jsonl lines 2, 5`` (file lines count from 1)."""
        return describe_locations([self.locations[i] for i in indices], limit=limit)

    # Loaders.

    @classmethod
    def from_list(
        cls, rows: Iterable[Mapping[str, Any]], *, notify: bool = True, where: Sequence[str] | None = None
    ) -> EvaluationDataset:
        """Rows as dicts (JSON-shaped); errors name the row by its 0-based index, as in ``rows[i]``, or by
        ``where[i]`` when given (``"run.jsonl line 3"``: rows a caller read from a file of its own).

        ``notify=False`` skips the notices (kept columns, legacy names): for rows groundset wrote itself.
        """
        loader = _Loader("rows", prefix="", notify=notify)
        for index, row in enumerate(rows):
            loader.add(row, f"row {index}" if where is None else where[index])
        return loader.finish()

    @classmethod
    def from_jsonl(cls, path: str | Path) -> EvaluationDataset:
        """One JSON object per line (lines numbered from 1); a groundset Testset file is recognised."""
        loader = _Loader(str(path))
        for number, record in json_lines(path, "dataset"):
            if loader.first is None and _is_testset_record(record):
                return cls.from_testset(Testset.from_jsonl(path), locations=_record_lines(path))
            loader.add(record, f"line {number}")
        return loader.finish()

    @classmethod
    def from_csv(cls, path: str | Path) -> EvaluationDataset:
        """List and object cells hold JSON (as Testset.to_csv writes them); an empty cell is None.

        Rows are numbered as a spreadsheet shows them (the header is row 1). A user_input cell that
        is a JSON array of objects is read as a conversation (multi-turn).
        """
        reader = csv_rows(_read(path), path)
        columns = next(reader, None)
        if columns is None:
            return cls()
        if {"id", "synthesizer"} <= set(columns) <= set(TESTSET_FIELDS):
            rows = [n for n, row in enumerate(reader, start=2) if any(cell.strip() for cell in row)]
            return cls.from_testset(Testset.from_csv(path), locations=[f"{path} row {n}" for n in rows])
        if len(set(columns)) != len(columns):
            raise ConfigError(f"{path} row 1: repeated column names; {valid_fields(SingleTurnSample)}")
        check_names(columns, KNOWN_NAMES, f"{path} row 1")
        loader = _Loader(str(path))
        for number, row in enumerate(reader, start=2):
            if not any(cell.strip() for cell in row):
                continue
            where = f"row {number}"
            if len(row) != len(columns):
                raise ConfigError(f"{path} {where}: expected {len(columns)} cells, found {len(row)}")
            record = {
                column: _parse_cell(column, cell, f"{path} {where}")
                for column, cell in zip(columns, row, strict=True)
                if cell != ""
            }
            loader.add(record, where)
        return loader.finish()

    @classmethod
    def from_pandas(cls, frame: pd.DataFrame) -> EvaluationDataset:
        """Inverse of :meth:`to_pandas`; also reads ``pandas.read_csv`` output (JSON text in list cells)."""
        pandas = _import_pandas("from_pandas")
        loader = _Loader("DataFrame")
        for position, row in enumerate(frame.to_dict(orient="records")):
            record: dict[str, Any] = {}
            for column, value in row.items():
                if hasattr(value, "tolist") and not isinstance(value, str):  # numpy arrays and scalars
                    value = value.tolist()
                if isinstance(value, tuple):
                    value = list(value)
                if pandas.api.types.is_scalar(value) and pandas.isna(value):
                    continue  # an empty cell
                if isinstance(value, str):
                    value = _parse_cell(str(column), value, f"DataFrame row {position}")
                record[str(column)] = value
            loader.add(record, f"row {position}")
        return loader.finish()

    @classmethod
    def from_testset(cls, testset: Testset, *, locations: Iterable[str] | None = None) -> EvaluationDataset:
        """Questions with their reference answer and grounding; the generation details go to metadata
        (no extra columns: a Testset has only groundset's fields)."""
        return cls((_evaluation_sample(item) for item in testset), locations=locations)

    # Writers.

    def to_list(self) -> list[dict[str, Any]]:
        """JSON-ready dicts of the fields that are set, extra columns at the top level as they were read;
        from_list() reads them back to an equal dataset."""
        return [self._row(sample) for sample in self.samples]

    def _row(self, sample: Sample) -> dict[str, Any]:
        return write_back(sample.to_dict(), self.extra_columns)

    def to_jsonl(self, path: str | Path) -> None:
        """One sample per line, written atomically: a reader never sees half a file."""
        lines = []
        for index, sample in enumerate(self.samples):
            try:
                lines.append(json.dumps(self._row(sample), ensure_ascii=False, allow_nan=False))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"sample {index} cannot be written as JSON: {exc}") from None
        atomic_write_text(path, "".join(line + "\n" for line in lines))

    def to_pandas(self) -> pd.DataFrame:
        """One row per sample, columns in field order then the extra columns; list fields stay Python
        lists, and a sample without an extra column has NaN there."""
        pandas = _import_pandas("to_pandas")
        rows = self.to_list()
        model = self.sample_type or SingleTurnSample
        names = [*model.model_fields, *self.extra_columns]
        columns = [name for name in names if any(name in row for row in rows)]
        return pandas.DataFrame(rows, columns=columns)


class _Loader:
    """Turns raw rows into samples of one kind; gathers legacy renames and kept columns into one notice
    each per load."""

    def __init__(self, source: str, prefix: str | None = None, *, notify: bool = True) -> None:
        self.source, self.prefix = source, source if prefix is None else prefix
        self.notify = notify
        self.samples: list[Sample] = []
        self.locations: list[str] = []
        self.renames: dict[str, str] = {}
        self.kept: dict[str, None] = {}  # the user's own columns, in first-seen order
        self.repaired: list[str] = []  # rows whose lone surrogates became U+FFFD
        self.first: tuple[str, bool] | None = None  # where the first row was, and whether multi-turn

    def add(self, row: object, where: str) -> None:
        row, count = repair_surrogates(row)
        if count:
            self.repaired.append(where)
        where = f"{self.prefix} {where}".lstrip()
        sample = sample_from_row(row, where, self.renames, self.kept)
        multi = isinstance(sample, MultiTurnSample)
        if self.first is None:
            self.first = (where, multi)
        elif self.first[1] != multi:
            kinds = ("single-turn", "multi-turn")
            raise ConfigError(
                f"{where}: a {kinds[multi]} sample, but {self.first[0]} is {kinds[not multi]}; "
                "a dataset holds one kind (multi-turn: user_input is a list of messages)"
            )
        self.samples.append(sample)
        self.locations.append(where)

    def finish(self) -> EvaluationDataset:
        if self.renames and self.notify:
            renames = ", ".join(f"{old} -> {new}" for old, new in self.renames.items())
            logger.warning(
                "%s: read legacy column names (%s); rename them to silence this notice", self.source, renames
            )
        if self.kept and self.notify:
            logger.warning("%s", kept_notice(self.source, list(self.kept)))
        if self.repaired:
            logger.warning("%s", surrogate_notice(self.source, self.repaired))
        return EvaluationDataset(self.samples, locations=self.locations, extra_columns=self.kept)


def describe_locations(labels: list[str], *, limit: int = 10) -> str:
    """``["a.jsonl line 2", "a.jsonl line 5"]`` -> ``a.jsonl lines 2, 5``; at most ``limit`` shown."""
    shown, rest = labels[:limit], len(labels) - limit
    more = f" and {rest} more" if rest > 0 else ""
    heads = {label.rpartition(" ")[0] for label in shown}
    if len(heads) == 1 and all(label.rpartition(" ")[2].isdigit() for label in shown):
        head = heads.pop()
        plural = "s" if len(labels) > 1 and head.split(" ")[-1] in ("line", "row", "sample") else ""
        return f"{head}{plural} " + ", ".join(label.rpartition(" ")[2] for label in shown) + more
    return ", ".join(shown) + more


def _record_lines(path: str | Path) -> list[str]:
    """``path line N`` of every sample record of a JSONL test set (not its header, not blank lines)."""
    return [
        f"{path} line {number}"
        for number, record in json_lines(path, "testset", notify=False)
        if HEADER_KEY not in record
    ]


def _is_testset_record(record: object) -> bool:
    """A groundset Testset line: its header, or (headerless) a sample record with id and synthesizer."""
    if not isinstance(record, dict):
        return False
    return HEADER_KEY in record or {"id", "synthesizer"} <= record.keys() <= set(TESTSET_FIELDS)


def _parse_cell(column: str, cell: str, where: str) -> Any:
    """Decode JSON cells; a user_input cell is a conversation only if it is a JSON array of objects."""
    if column == "user_input":
        try:
            parsed = json.loads(cell)
        except json.JSONDecodeError:
            return from_spreadsheet(cell)
        is_chat = isinstance(parsed, list) and bool(parsed) and all(isinstance(item, dict) for item in parsed)
        return parsed if is_chat else from_spreadsheet(cell)
    if column not in _JSON_CELLS:
        return from_spreadsheet(cell)
    try:
        return json.loads(cell)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{where}: {column}: not valid JSON ({json_problem(exc)}); "
            'list cells hold a JSON array such as ["first", "second"]'
        ) from None


def _import_pandas(caller: str) -> Any:
    try:
        import pandas
    except ImportError as exc:
        hint = "pip install 'groundset[pandas]'"
        raise ImportError(
            f"EvaluationDataset.{caller}() needs pandas, which is not installed: {hint}"
        ) from exc
    return pandas


def _read(path: str | Path) -> str:
    return read_text(path, "dataset")


def _evaluation_sample(item: TestsetSample) -> SingleTurnSample:
    """A test-set sample to score: a conversation's earlier turns become its history (user questions and
    reference answers); a question to decline says so; near-miss chunk ids and a person's review (reviewed,
    edited, tags: only when set) go to the metadata."""
    metadata = item.model_dump(include=_META)
    metadata |= {name: value for name, value in item.model_dump(include=_REVIEW).items() if value}
    if item.distractor_context_ids:
        metadata["distractor_context_ids"] = list(item.distractor_context_ids)
    return SingleTurnSample(
        **item.model_dump(include=_FROM_TESTSET),
        history=history_messages(item.history) or None,
        expected_behaviour=None if item.expected_behaviour == ANSWER else item.expected_behaviour,
        metadata=metadata,
    )
