"""Records as files hold them: JSON error messages, strict JSON numbers, spreadsheet-safe CSV cells.

Test sets, datasets and runs are read by other tools (strict JSON parsers, spreadsheets), so what
groundset writes must be valid for them and safe to open, and what it reads back must round-trip.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from .atomic import atomic_write_text
from .errors import ConfigError

logger = logging.getLogger(__name__)

# A spreadsheet treats a cell starting with one of these as a formula (OWASP "CSV injection").
FORMULA_STARTS = frozenset("=+-@\t\r")
_QUOTE = "'"


def json_problem(exc: json.JSONDecodeError, *, unit: str = "column") -> str:
    """``Expecting value at column 7``; messages that already end in "at" are not doubled."""
    where = exc.colno if unit == "column" else exc.lineno
    joiner = " " if exc.msg.endswith(" at") else " at "
    return f"{exc.msg}{joiner}{unit} {where}"


def finite_or_none(value: Any) -> Any:
    """NaN and infinities as ``None`` (JSON ``null``), recursively: strict JSON has no NaN."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: finite_or_none(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite_or_none(item) for item in value]
    return value


def none_as_nan(value: float | None) -> float:
    """A score read back from JSON: ``null`` (and a legacy bare ``NaN``) is NaN."""
    return math.nan if value is None else float(value)


def spreadsheet_safe(cell: str) -> str:
    """Prefix a quote to a cell a spreadsheet would run as a formula (``=cmd()``, ``+1``, ``@SUM``).

    A cell that already starts with a quote before such a character gets one more, so that
    :func:`from_spreadsheet` restores every cell exactly.
    """
    if not cell:
        return cell
    if cell[0] in FORMULA_STARTS or (cell[0] == _QUOTE and len(cell) > 1 and _escaped(cell[1])):
        return _QUOTE + cell
    return cell


def from_spreadsheet(cell: str) -> str:
    """Inverse of :func:`spreadsheet_safe` (also drops the quote a user's spreadsheet kept)."""
    if len(cell) > 1 and cell[0] == _QUOTE and _escaped(cell[1]):
        return cell[1:]
    return cell


def _escaped(char: str) -> bool:
    return char in FORMULA_STARTS or char == _QUOTE


def read_text(path: str | Path, what: str) -> str:
    """A data file's text, decoded from bytes: read_text()'s universal newlines would turn a CR inside a
    CSV cell into LF. ``what`` names the file in errors ("testset", "dataset")."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # The BOM is stripped before decoding, so the offsets count from after it; the line is the user's.
        start = exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        line = data.count(b"\n", 0, start) + 1
        raise ConfigError(
            f"{path} line {line}: not UTF-8 text ({exc.reason} at byte {start}); save the {what} as UTF-8"
        ) from None


def json_lines(path: str | Path, what: str, *, notify: bool = True) -> Iterator[tuple[int, Any]]:
    """(line number from 1, value) of every non-blank line of a JSONL file; a broken line is a ConfigError
    naming the file and the line. Split on "\n" only: JSON escapes it, but not U+2028 or U+0085, which
    splitlines() would cut at. A key given twice in one object is an error (JSON would keep the last
    silently). Lone surrogate escapes are replaced (see :func:`repair_surrogates`), with one warning once
    the whole file is read, unless ``notify`` is False (a second pass over a file)."""
    repaired: list[str] = []
    for number, line in enumerate(read_text(path, what).split("\n"), start=1):
        if not line.strip():
            continue
        value, count = repair_surrogates(_json_line(line, f"{path} line {number}"))
        if count:
            repaired.append(f"line {number}")
        yield number, value
    if repaired and notify:
        logger.warning("%s", surrogate_notice(str(path), repaired))


def sample_records(path: str | Path, what: str) -> list[dict[str, Any]]:
    """The records of a file kept beside a test set (needs-review, rejected): none when it does not exist;
    each a JSON object with an ``id`` and a ``sample``, else an error naming its line."""
    if not Path(path).exists():
        return []
    records = []
    for number, record in json_lines(path, what):
        if not isinstance(record, dict) or not isinstance(record.get("sample"), dict) or not record.get("id"):
            raise ConfigError(
                f"{path} line {number}: a {what} record is a JSON object with an 'id' and a 'sample'; "
                "fix or remove the line"
            )
        records.append(record)
    return records


def write_sample_records(path: str | Path, records: Iterable[dict[str, Any]]) -> bool:
    """Write such records atomically, one per line; with none the file is removed. Whether it exists."""
    lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in records]
    target = Path(path)
    if lines:
        atomic_write_text(target, "".join(lines))
    else:
        target.unlink(missing_ok=True)
    return bool(lines)


def _json_line(line: str, where: str) -> Any:
    try:
        return json.loads(line, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: not valid JSON ({json_problem(exc)})") from None
    except _RepeatedKey as exc:
        raise ConfigError(
            f"{where}: field {exc.args[0]!r} appears twice in one object (JSON would keep the last); keep one"
        ) from None
    except RecursionError:
        raise ConfigError(f"{where}: JSON nested too deeply to read (arrays in arrays ...)") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise ConfigError(f"{where}: cannot read this JSON ({exc})") from None


class _RepeatedKey(ValueError):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return result


_SURROGATE = re.compile("[\ud800-\udfff]")


def repair_surrogates(value: Any) -> tuple[Any, int]:
    """``value`` with every lone UTF-16 surrogate in its strings (keys too) replaced by U+FFFD, and how
    many were replaced.

    JSON may spell half of a surrogate pair (``"\\ud83d"``, what a JavaScript ``slice`` through an emoji
    gives); Python reads it as a lone surrogate, which is not Unicode: it would break a tokenizer and make
    the run file unwritable at the very end. Values without one come back as they are (the same object).
    """
    if isinstance(value, str):
        return _SURROGATE.subn("\ufffd", value) if _SURROGATE.search(value) else (value, 0)
    if isinstance(value, list | tuple):
        items = [repair_surrogates(item) for item in value]
        count = sum(n for _, n in items)
        return ([item for item, _ in items] if count else value), count
    if isinstance(value, dict):
        pairs = [(repair_surrogates(k), repair_surrogates(v)) for k, v in value.items()]
        count = sum(nk + nv for (_, nk), (_, nv) in pairs)
        return ({k: v for (k, _), (v, _) in pairs} if count else value), count
    return value, 0


def repaired_rows(rows: Iterable[tuple[str, Any]], source: str) -> Iterator[tuple[str, Any]]:
    """(where, row) with :func:`repair_surrogates` applied; one warning at the end names the rows."""
    repaired: list[str] = []
    for where, row in rows:
        value, count = repair_surrogates(row)
        if count:
            repaired.append(where)
        yield where, value
    if repaired:
        logger.warning("%s", surrogate_notice(source, repaired))


def surrogate_notice(source: str, places: list[str], *, limit: int = 10) -> str:
    """The one warning per file for repaired surrogates: ``data.jsonl: line 3, line 7: ...``."""
    shown = ", ".join(places[:limit]) + (f" and {len(places) - limit} more" if len(places) > limit else "")
    return (
        f"{source}: {shown}: replaced lone UTF-16 surrogates (half of an emoji or other pair, not valid "
        "Unicode) with U+FFFD"
    )


def csv_rows(text: str, path: str | Path) -> Iterator[list[str]]:
    """The rows of a CSV text; a quoted cell may hold newlines and be as long as the file (the csv module's
    default limit of 131,072 characters would refuse a long response). Broken CSV is a ConfigError
    naming the file and the line."""
    if len(text) > csv.field_size_limit():
        csv.field_size_limit(len(text))  # process-wide, and only ever raised: no cell is longer than its file
    reader = csv.reader(io.StringIO(text, newline=""))
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise ConfigError(f"{path} line {reader.line_num}: not valid CSV ({exc})") from None
        yield row
