"""Personas in files (JSON or YAML), and how user-written personas combine with generated ones.

A personas file is written by hand, so every problem is reported with the file, the entry
number (1-based, as a person counts) and what to change, all problems at once.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from ..core.atomic import atomic_write_text
from ..core.errors import ConfigError
from .model import Persona

FIELDS = ("name", "role_description")
_FORMATS = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}
_MAX_PROBLEMS = 10


def load_personas(path: str | os.PathLike[str]) -> list[Persona]:
    """Read a list of {name, role_description} mappings, or a mapping {"personas": [...]}."""
    file = Path(path)
    kind = _format(file)
    if not file.is_file():
        problem = "is a directory, not a file" if file.is_dir() else "does not exist"
        raise ConfigError(f"personas file {file} {problem}")
    try:
        text = file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"personas file {file} is not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from exc
    except OSError as exc:
        raise ConfigError(f"personas file {file} cannot be read: {exc.strerror or exc}") from exc
    data = _parse_json(file, text) if kind == "json" else _parse_yaml(file, text)
    return _personas(file, data)


def save_personas(personas: Iterable[Persona], path: str | os.PathLike[str]) -> None:
    """Write the personas as a JSON or YAML list (by extension), atomically."""
    file = Path(path)
    kind = _format(file)
    rows = [{"name": p.name, "role_description": p.role_description} for p in personas]
    if kind == "json":
        text = json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    else:
        text = yaml.safe_dump(rows, sort_keys=False, allow_unicode=True, width=100)
    atomic_write_text(file, text)


def merge_personas(generated: Iterable[Persona], user: Iterable[Persona]) -> list[Persona]:
    """User personas first, then the generated ones whose name (any case) the user has not taken."""
    mine = list(user)
    taken = {p.name.casefold() for p in mine}
    return mine + [p for p in generated if p.name.casefold() not in taken]


def _format(file: Path) -> str:
    kind = _FORMATS.get(file.suffix.lower())
    if kind is None:
        raise ConfigError(
            f"personas file {file}: unknown extension {file.suffix or '(none)'!r}; use .json, .yaml or .yml"
        )
    return kind


def _parse_json(file: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"personas file {file} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from exc


def _parse_yaml(file: Path, text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"personas file {file} is not valid YAML: {problem}{where}") from exc


def _personas(file: Path, data: Any) -> list[Persona]:
    if data is None:
        raise ConfigError(
            f"personas file {file} is empty; write a list of {{name, role_description}} entries"
        )
    if isinstance(data, dict):
        if "personas" not in data:
            keys = ", ".join(map(str, data)) or "none"
            raise ConfigError(
                f"personas file {file}: expected a list of personas or a mapping with a 'personas' list; "
                f"found a mapping with keys: {keys}"
            )
        data = data["personas"]
    if not isinstance(data, list):
        raise ConfigError(
            f"personas file {file}: expected a list of {{name, role_description}} entries, got {_kind(data)}"
        )
    personas: list[Persona] = []
    problems: list[str] = []
    first_seen: dict[str, int] = {}
    for number, entry in enumerate(data, 1):
        persona, problem = _entry(entry)
        if persona is not None:
            earlier = first_seen.setdefault(persona.name.casefold(), number)
            if earlier != number:
                problem = f"name {persona.name!r} is already used by entry {earlier}"
            else:
                personas.append(persona)
        if problem:
            problems.append(f"entry {number}: {problem}")
    if problems:
        more = len(problems) - _MAX_PROBLEMS
        shown = problems[:_MAX_PROBLEMS] + ([f"... and {more} more"] if more > 0 else [])
        raise ConfigError(f"personas file {file} has invalid entries:\n  " + "\n  ".join(shown))
    return personas


def _entry(entry: Any) -> tuple[Persona | None, str]:
    """The persona of one entry, or the first thing wrong with it."""
    if not isinstance(entry, dict):
        return None, f"expected a mapping with {' and '.join(FIELDS)}, got {_kind(entry)}"
    unknown = [str(key) for key in entry if key not in FIELDS]
    for field in FIELDS:
        if field not in entry or entry[field] is None:
            hint = f" (found: {', '.join(unknown)})" if unknown else ""
            return None, f"{field} is required{hint}"
        if not isinstance(entry[field], str):
            return None, f"{field} must be text, got {_kind(entry[field])}"
        if not entry[field].strip():
            return None, f"{field} must not be empty"
    if unknown:
        return None, f"unknown field {unknown[0]!r} (allowed: {', '.join(FIELDS)})"
    return Persona(name=entry["name"], role_description=entry["role_description"]), ""


def _kind(value: Any) -> str:
    names = {dict: "a mapping", list: "a list", str: "text", bool: "true/false", type(None): "nothing"}
    names.update({int: "a number", float: "a number"})
    return names.get(type(value), f"a {type(value).__name__}")
