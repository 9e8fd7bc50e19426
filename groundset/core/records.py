"""Records as files hold them: JSON error messages, strict JSON numbers, spreadsheet-safe CSV cells.

Test sets, datasets and runs are read by other tools (strict JSON parsers, spreadsheets), so what
groundset writes must be valid for them and safe to open, and what it reads back must round-trip.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import ConfigError

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
        return Path(path).read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None


def json_lines(path: str | Path, what: str) -> Iterator[tuple[int, Any]]:
    """(line number from 1, value) of every non-blank line of a JSONL file; a broken line is a ConfigError
    naming the file and the line. Split on "\n" only: JSON escapes it, but not U+2028 or U+0085, which
    splitlines() would cut at."""
    for number, line in enumerate(read_text(path, what).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path} line {number}: not valid JSON ({json_problem(exc)})") from None
