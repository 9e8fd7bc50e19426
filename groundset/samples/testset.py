"""Testset and TestsetSample: the generated questions, their grounding, and lossless file formats.

JSONL is the canonical format (a header record with the metadata, then one sample per line);
CSV and pandas are for looking at the data. Every write is atomic and every round trip exact.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .._version import __version__
from ..core import records as files
from ..core.atomic import atomic_write_text
from ..core.errors import ConfigError
from ..core.records import from_spreadsheet, json_lines, json_problem, read_text, spreadsheet_safe
from .sequence import SampleSequence
from .testset_sample import FIELDS, TestsetSample, sample_record

if TYPE_CHECKING:
    import pandas as pd

    from .dataset import EvaluationDataset

HEADER_KEY = "_groundset_testset"
FORMAT_VERSION = 1
PANDAS_ATTR = "groundset_metadata"
CSV_META_SUFFIX = ".meta.json"
_PANDAS_HINT = "pip install pandas (or pip install 'groundset[pandas]')"
_LIST_FIELDS = frozenset(
    name for name, info in TestsetSample.model_fields.items() if info.annotation == list[str]
)
_JSON_FIELDS = _LIST_FIELDS | {"history"}  # JSON in a CSV cell
_FLAGS = frozenset(name for name, info in TestsetSample.model_fields.items() if info.annotation is bool)


class Testset(SampleSequence[TestsetSample]):
    """Samples plus JSON metadata (counts, rejections, models, seed). Ids are unique within a testset."""

    __test__ = False  # not a pytest test class

    def __init__(
        self, samples: Iterable[TestsetSample] = (), metadata: Mapping[str, Any] | None = None
    ) -> None:
        self.samples: list[TestsetSample] = list(samples)
        # Stored as its JSON form, so what is held is exactly what a file round trip gives back.
        try:
            self.metadata: dict[str, Any] = json.loads(_dumps(dict(metadata or {}), sort_keys=True))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"testset metadata must be JSON data (str keys, no NaN): {exc}") from None
        self._check_unique()

    def _check_unique(self) -> None:
        seen: dict[str, int] = {}
        for index, sample in enumerate(self.samples):
            if seen.setdefault(sample.id, index) != index:
                raise ValueError(
                    f"duplicate sample id {sample.id!r} at positions {seen[sample.id]} and {index}"
                )

    def _sliced(self, index: slice) -> Testset:
        return Testset(self.samples[index], self.metadata)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Testset):
            return NotImplemented
        return self._same(other) and self.metadata == other.metadata

    def __repr__(self) -> str:
        return f"Testset({len(self)} samples, synthesizers={self.counts('synthesizer')})"

    def to_dicts(self) -> list[dict[str, Any]]:
        return [sample.model_dump(mode="json") for sample in self.samples]

    def to_evaluation_dataset(self) -> EvaluationDataset:
        """The samples as an ``EvaluationDataset`` to score (responses and retrieved contexts still to fill);
        the mapping lives in ``EvaluationDataset.from_testset``."""
        from .dataset import EvaluationDataset  # imported here: dataset.py imports this module

        return EvaluationDataset.from_testset(self)

    def counts(self, field: str) -> dict[str, int]:
        """Samples per value of ``field``, most common first; list fields count each distinct item once."""
        if field not in TestsetSample.model_fields:
            raise ValueError(f"unknown field {field!r}; choose one of {', '.join(FIELDS)}")
        counter: Counter[str] = Counter()
        for sample in self.samples:
            value = getattr(sample, field)
            counter.update(list(dict.fromkeys(value)) if isinstance(value, list) else [value])
        return dict(sorted(counter.items(), key=lambda item: (-item[1], item[0])))

    # JSONL: the canonical format.

    def to_jsonl(self, path: str | Path) -> None:
        self._check_unique()  # samples may have been appended since construction
        lines = [_dumps({HEADER_KEY: FORMAT_VERSION, "metadata": self.metadata}, sort_keys=True)]
        lines.extend(_dumps(sample_record(sample)) for sample in self.samples)
        atomic_write_text(path, "\n".join(lines) + "\n")

    @classmethod
    def from_jsonl(cls, path: str | Path) -> Testset:
        """Read a testset; the header is optional, so a plain one-sample-per-line file loads too."""
        metadata: dict[str, Any] = {}
        records: list[tuple[str, Mapping[str, Any]]] = []
        first = True
        for number, record in json_lines(path, "testset"):
            where = f"{path} line {number}"
            if not isinstance(record, dict):
                raise ConfigError(f"{where}: expected a JSON object, found {type(record).__name__}")
            if HEADER_KEY in record:
                if not first:
                    raise ConfigError(f"{where}: the testset header must be the first record")
                metadata = _check_header(record, where)
            else:
                records.append((f"line {number}", record))
            first = False
        return _build(str(path), records, metadata)

    # CSV: for spreadsheets. Metadata goes to a sidecar "<path>.meta.json" so the header row stays plain.

    def to_csv(self, path: str | Path) -> None:
        self._check_unique()
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer)
        writer.writerow(FIELDS)
        for row in self.to_dicts():
            writer.writerow([_dumps(row[f]) if f in _JSON_FIELDS else _cell(row[f]) for f in FIELDS])
        atomic_write_text(path, buffer.getvalue())
        header = {HEADER_KEY: FORMAT_VERSION, "metadata": self.metadata}
        atomic_write_text(_meta_path(path), _dumps(header, sort_keys=True) + "\n")

    @classmethod
    def from_csv(cls, path: str | Path) -> Testset:
        """Inverse of :meth:`to_csv`; rows are numbered as a spreadsheet shows them (the header is row 1)."""
        reader = files.csv_rows(_read(path), path)
        columns = next(reader, None)
        if columns is None:
            return cls()
        unknown = [c for c in columns if c not in TestsetSample.model_fields]
        if unknown or len(set(columns)) != len(columns):
            problem = f"unknown column(s) {unknown}" if unknown else "repeated column names"
            raise ConfigError(f"{path} row 1: {problem}; expected the columns {', '.join(FIELDS)}")
        records: list[tuple[str, Mapping[str, Any]]] = []
        for number, row in enumerate(reader, start=2):
            where = f"{path} row {number}"
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(columns):
                raise ConfigError(f"{where}: expected {len(columns)} cells, found {len(row)}")
            fields = {
                c: _parse_list(cell, c, where) if c in _JSON_FIELDS else from_spreadsheet(cell)
                for c, cell in zip(columns, row, strict=True)
                if c not in _FLAGS or cell.strip()  # an empty "reviewed" cell: not reviewed
            }
            records.append((f"row {number}", fields))
        meta_path, metadata = _meta_path(path), {}
        if meta_path.exists():
            try:
                metadata = _check_header(json.loads(_read(meta_path)), str(meta_path))
            except json.JSONDecodeError as exc:
                raise ConfigError(f"{meta_path}: invalid JSON ({json_problem(exc, unit='line')})") from None
        return _build(str(path), records, metadata)

    # pandas: optional; list fields stay Python lists, metadata rides in DataFrame.attrs.

    def to_pandas(self) -> pd.DataFrame:
        pandas = _import_pandas("to_pandas")
        frame = pandas.DataFrame(self.to_dicts(), columns=list(FIELDS))
        frame.attrs[PANDAS_ATTR] = json.loads(_dumps(self.metadata))
        return frame

    @classmethod
    def from_pandas(cls, frame: pd.DataFrame) -> Testset:
        """Inverse of :meth:`to_pandas`; also takes ``pandas.read_csv`` output (list columns as JSON text)."""
        pandas = _import_pandas("from_pandas")
        records: list[tuple[str, Mapping[str, Any]]] = []
        for position, (label, row) in enumerate(
            zip(frame.index, frame.to_dict(orient="records"), strict=True)
        ):
            where = f"row {position} (index {label!r})"
            record: dict[str, Any] = {}
            for column, value in row.items():
                if isinstance(value, tuple) or hasattr(value, "tolist"):  # tuples, numpy arrays and scalars
                    value = list(value) if isinstance(value, tuple) else value.tolist()
                if not isinstance(value, list) and pandas.isna(value):
                    continue  # an empty cell: the field's default applies, or "Field required"
                if str(column) in _JSON_FIELDS and isinstance(value, str):
                    value = _parse_list(value, str(column), f"DataFrame {where}")
                record[str(column)] = value
            records.append((where, record))
        return _build("DataFrame", records, dict(frame.attrs.get(PANDAS_ATTR) or {}))


def _cell(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else spreadsheet_safe(value)


def _dumps(value: Any, *, sort_keys: bool = False) -> str:
    """One line of UTF-8 JSON; NaN is refused, since it is not JSON and would break equality."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, sort_keys=sort_keys)


def _meta_path(path: str | Path) -> Path:
    target = Path(path)
    return target.with_name(target.name + CSV_META_SUFFIX)


def _check_header(record: Any, where: str) -> dict[str, Any]:
    if not isinstance(record, dict) or record.get(HEADER_KEY) != FORMAT_VERSION:
        found = record.get(HEADER_KEY) if isinstance(record, dict) else None
        raise ConfigError(
            f"{where}: unsupported testset format version {found!r} (this groundset {__version__} "
            f"reads version {FORMAT_VERSION}); upgrade groundset or regenerate the testset"
        )
    metadata = record.get("metadata", {})
    if not isinstance(metadata, dict):
        raise ConfigError(f"{where}: metadata must be a JSON object, found {type(metadata).__name__}")
    return metadata


def _parse_list(cell: str, column: str, where: str) -> Any:
    if not cell.strip():
        return []
    try:
        return json.loads(cell)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: {column}: not a JSON list ({json_problem(exc)})") from None


def _build(
    source: str, records: Iterable[tuple[str, Mapping[str, Any]]], metadata: Mapping[str, Any]
) -> Testset:
    """Validate records into a Testset; errors name the source, record and field, duplicates both records."""
    samples: list[TestsetSample] = []
    first_seen: dict[str, str] = {}
    for where, record in files.repaired_rows(records, source):
        try:
            sample = TestsetSample.model_validate(record)
        except ValidationError as exc:
            raise ConfigError(f"{source} {where}: {_describe(exc)}") from None
        if sample.id in first_seen:
            raise ConfigError(
                f"{source} {where}: duplicate id {sample.id!r} (first on {first_seen[sample.id]})"
            )
        first_seen[sample.id] = where
        samples.append(sample)
    try:
        return Testset(samples, metadata)
    except ValueError as exc:  # metadata that is not plain JSON data, e.g. NaN
        raise ConfigError(f"{source}: {exc}") from None


def _describe(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        location = ".".join(str(part) for part in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        parts.append(f"{location}: {message}" if location else message)
    return "; ".join(parts)


def _import_pandas(caller: str) -> Any:
    try:
        import pandas
    except ImportError as exc:
        raise ImportError(f"Testset.{caller}() needs pandas, which is not installed: {_PANDAS_HINT}") from exc
    return pandas


def _read(path: str | Path) -> str:
    return read_text(path, "testset")
