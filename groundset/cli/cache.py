"""`groundset cache info` and `groundset cache clear`: see what the call cache holds, and trim it.

Answers are stored with the name of the prompt that asked, so one prompt's answers can be dropped
(e.g. after changing a judge) without paying again for everything else.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from ..core.cache import DAY, FILENAME, CallCache, cutoff, default_cache_dir
from .common import CacheOption, out, typer_app

cache_app = typer_app(help="Inspect and clear the call cache.", no_args_is_help=True)
NO_LABEL = "(unnamed)"


@cache_app.command("info")
def info(cache: CacheOption = None) -> None:
    """Show where the call cache is, its size, its entries by kind and by prompt, oldest and newest."""
    directory = cache or default_cache_dir()
    with _existing(directory) as store:
        if store is None:
            _say(f"no call cache in {directory} yet (it is created by the first model call)")
            return
        stats = store.stats()
    _say(f"call cache: {stats['path']}")
    _say(f"file size:  {_size(stats['bytes'])}")
    _say(f"entries:    {stats['entries']}")
    if not stats["entries"]:
        return
    _say("by kind:    " + ", ".join(f"{kind} {n}" for kind, n in stats["by_kind"].items()))
    _say("by prompt:")
    width = max(len(label or NO_LABEL) for label in stats["by_label"])
    for label, n in stats["by_label"].items():
        _say(f"  {label or NO_LABEL:<{width}}  {n}")
    if None in stats["by_label"]:
        _say(f"  {NO_LABEL}: embeddings, and answers stored before prompt names were kept")
    _say(f"oldest:     {_when(stats['oldest'])}")
    _say(f"newest:     {_when(stats['newest'])}")


@cache_app.command("clear")
def clear(
    cache: CacheOption = None,
    prompt: Annotated[
        str | None,
        typer.Option("--prompt", metavar="NAME", help="Only the answers of this prompt (see `cache info`)."),
    ] = None,
    older_than: Annotated[
        float | None,
        typer.Option("--older-than", metavar="DAYS", min=0, help="Only entries older than DAYS days."),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Remove cache entries: all of them, or those of one prompt and/or older than DAYS."""
    directory = cache or default_cache_dir()
    with _existing(directory) as store:
        if store is None:
            _say(f"no call cache in {directory}; removed 0 entries")
            return
        _clear(store, prompt, older_than, yes)


def _clear(store: CallCache, prompt: str | None, older_than: float | None, yes: bool) -> None:
    """Remove exactly what the prompt asked about: the age cutoff is fixed once, before the question."""
    what = _selection(prompt, older_than)
    before = None if older_than is None else cutoff(older_than)
    count = store.count(label=prompt, before=before)
    if count == 0 and prompt is not None:
        known = [label for label in store.stats()["by_label"] if label is not None]
        hint = f"; prompts in the cache: {', '.join(known)}" if known else ""
        _say(f"removed 0 entries (there are none{what}{hint})")
        return
    if count and not yes:
        typer.confirm(f"remove {_entries(count)}{what} from {store.path}?", abort=True)
    removed = store.remove(label=prompt, before=before)
    reclaimed = not removed or store.vacuum()  # nothing removed: no space to give back
    busy = "" if reclaimed else "; space not reclaimed (database busy)"
    _say(f"removed {_entries(removed)}{what}{busy}")


@contextmanager
def _existing(directory: Path) -> Iterator[CallCache | None]:
    """The cache in ``directory``, closed afterwards; None when there is none (never created here)."""
    store = CallCache(directory) if (Path(directory).expanduser() / FILENAME).is_file() else None
    try:
        yield store
    finally:
        if store is not None:
            store.close()


def _selection(prompt: str | None, older_than: float | None) -> str:
    parts = []
    if prompt is not None:
        parts.append(f" of prompt {prompt!r}")
    if older_than is not None:
        parts.append(f" older than {older_than:g} days")
    return "".join(parts)


def _entries(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} bytes"
    size = n / 1024
    for unit in ("KB", "MB"):
        if size < 1024:
            return f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


def _when(timestamp: Any) -> str:
    if timestamp is None:
        return "-"
    days = (time.time() - timestamp) / DAY
    age = f"{days:.1f} days ago" if days >= 1 else f"{days * 24:.1f} hours ago"
    return f"{datetime.fromtimestamp(timestamp):%Y-%m-%d %H:%M} ({age})"


def _say(line: str) -> None:
    """Print a line that may hold user-derived text (paths, prompt names): no markup, no highlighting."""
    out.print(line, markup=False, highlight=False, soft_wrap=True)
