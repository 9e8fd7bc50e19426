"""Atomic writes: a reader sees the old output or the new one, never half of either.

Every artefact groundset writes (graphs, test sets, runs, personas) goes through here, so an interrupted
run leaves the previous output intact. The check of an output folder lives here too, so the CLI (before a
long build) and the Python API (at save time) refuse exactly the same things.

Outputs hold document text, so a new one is private to the user (files 0600, folders 0700, less the umask);
one that replaces an output keeps that output's mode, so a user who shared it on purpose keeps that.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from .errors import ConfigError

__all__ = [
    "atomic_directory",
    "atomic_write_bytes",
    "atomic_write_lines",
    "atomic_write_text",
    "check_output_dir",
]

_FORCE_HINT = "use --force (force=True in Python) to replace it and everything in it"
FILE_MODE = 0o600  # a new output file, before the umask
DIR_MODE = 0o700  # a new output folder, before the umask


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a temp file beside ``path``, fsync it, then rename it over ``path``.

    The file gets the mode of the file it replaces, or ``FILE_MODE`` less the umask when it is new.
    """
    with _replacing(path) as handle:
        handle.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_lines(path: str | os.PathLike[str], lines: Iterable[str]) -> None:
    """Write each of ``lines`` and a newline (UTF-8) as it comes, then publish the file atomically.

    Streaming keeps a big output (a run of 20,000 samples) out of memory: nothing holds the whole text.
    If ``lines`` raises midway, the temp file is removed and ``path`` keeps its previous content.
    """
    with _replacing(path) as handle:
        for line in lines:
            handle.write(line.encode("utf-8"))
            handle.write(b"\n")


@contextmanager
def _replacing(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A buffered handle on a temp file beside ``path`` that replaces ``path`` when the block succeeds.

    What a killed earlier writer of ``path`` left beside it is removed first (see ``_remove_stale``).
    """
    target = Path(path)
    _make_folders(target.parent)
    _remove_stale(target)
    mode = _mode_for(target, FILE_MODE)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.chmod(tmp, mode)
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _temp_prefix(target: Path) -> str:
    """Temporaries carry their writer's pid, so a later writer can tell a killed one's leftovers."""
    return f".{target.name}.{os.getpid()}."


# what mkstemp/mkdtemp add after the prefix (8 of [a-z0-9_]); ".old" marks a folder swap's backup
_TEMP_TAIL = re.compile(r"(\d+)\.[a-z0-9_]{8}\.tmp(\.old)?")


def _remove_stale(target: Path) -> None:
    """Remove the temporaries of ``target`` whose writer died (SIGKILL, power loss) before cleaning up.

    Only a temporary named with a pid that is not running on this machine is touched, so a live writer
    of the same output is never disturbed. A folder swap's backup whose target is missing (the writer
    died between the swap's two renames) is put back instead: the previous output returns. Best effort.
    """
    if os.name != "posix":  # os.kill(pid, 0) would terminate the process on Windows
        return
    prefix = f".{target.name}."
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix)]
    except OSError:
        return
    for name in sorted(names, key=lambda n: not n.endswith(".old")):  # backups first
        found = _TEMP_TAIL.fullmatch(name[len(prefix) :])
        if found is None or _running(int(found.group(1))):
            continue
        place = target.parent / name
        with suppress(OSError):
            if found.group(2) and not os.path.lexists(target):
                os.replace(place, target)
            elif place.is_dir() and not place.is_symlink():
                shutil.rmtree(place)
            else:
                place.unlink()


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's process (it exists), or no pid at all: keep it
        return True
    return True


def check_output_dir(
    path: str | os.PathLike[str],
    *,
    marker: str,
    inputs: Iterable[str | os.PathLike[str]] = (),
    force: bool = False,
) -> Path:
    """Resolve an output folder and refuse one whose replacement would destroy what is not ours.

    The folder is replaced as a whole, so it must be new, empty, a previous output (it holds ``marker``),
    or ``force`` must say the user means it. An output at, inside or around one of ``inputs`` is refused
    even with ``force``: it would delete the input or be read back as input next time. Returns the
    resolved path, which is what the caller should write to.
    """
    target = Path(path).expanduser().resolve()
    if target.parent == target:
        raise ConfigError(f"output folder {target} is a filesystem root; choose a folder below it")
    for item in inputs:
        _check_apart(target, Path(item).expanduser().resolve())
    _check_not_a_file(target)
    if not force and target.is_dir() and not (target / marker).is_file() and _has_entries(target):
        raise ConfigError(
            f"output folder {target} is not empty and has no {marker}, so it is not a previous output; "
            f"saving replaces the whole folder. Choose a new or empty folder, or {_FORCE_HINT}"
        )
    _check_not_where_we_are(target)
    return target


def _check_apart(target: Path, source: Path) -> None:
    """An output must not be the input, sit inside it, or hold it."""
    read_back = "the saved files would be read as input next time"
    if target == source:
        problem = f"is the input being read: {read_back}"
    elif target.is_relative_to(source):
        problem = f"is inside the input {source}: {read_back}"
    elif source.is_relative_to(target):
        problem = f"contains the input {source}: replacing it would delete the input"
    else:
        return
    raise ConfigError(
        f"output folder {target} {problem}; choose a folder beside {source}, not in or around it"
    )


def _check_not_where_we_are(target: Path) -> None:
    """Replacing the folder the process (and the user's shell) is in would leave both in a deleted one."""
    try:
        cwd = Path.cwd()
    except OSError:
        return
    if cwd.is_relative_to(target) and target.exists():
        raise ConfigError(
            f"output folder {target} is the folder you are in (or holds it); it is replaced as a whole, "
            "which would leave your shell in a deleted folder. Name a subfolder (e.g. --out kg) or run "
            "from the parent folder"
        )


def _check_not_a_file(target: Path) -> None:
    """A file is never replaced by a folder, and no folder can be created below a file."""
    for place in (target, *target.parents):
        if not place.exists():
            continue
        if place.is_dir():
            return
        problem = (
            f"output path {target} is a file, not a folder"
            if place == target
            else f"cannot create output folder {target}: {place} is a file"
        )
        raise ConfigError(f"{problem}; choose a folder path (groundset never replaces a file with a folder)")


def _has_entries(folder: Path) -> bool:
    try:
        with os.scandir(folder) as entries:
            return next(entries, None) is not None
    except OSError as exc:
        raise ConfigError(
            f"cannot list output folder {folder}: {exc.strerror or exc}; check its permissions"
        ) from exc


@contextmanager
def atomic_directory(
    path: str | os.PathLike[str], *, marker: str, force: bool = False, checked: bool = False
) -> Iterator[Path]:
    """Yield a staging folder that, on success, replaces ``path`` as a whole; on any error it is removed.

    ``path`` is checked with :func:`check_output_dir` (``marker`` names the file every output holds),
    unless ``checked`` says it is what that check returned: a caller that checks before its own long
    work need not pay for (or report) the check twice.
    The staged files are fsynced before the rename, and a target that exists is moved aside and put
    back if the rename fails, so the previous output survives every failure. Each staged file and
    subfolder gets the mode of its namesake in the replaced output, or the private default when new.
    """
    target = Path(path) if checked else check_output_dir(path, marker=marker, force=force)
    _make_folders(target.parent)
    _remove_stale(target)
    mode = _mode_for(target, DIR_MODE)
    staging = Path(tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=".tmp", dir=target.parent))
    try:
        os.chmod(staging, mode)
        yield staging
        _settle_modes(staging, target)
        _fsync_tree(staging)
        _swap(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap(staging: Path, target: Path) -> None:
    """Rename ``staging`` to ``target``; an existing target is moved aside first and restored on failure."""
    backup = staging.with_name(staging.name + ".old") if target.exists() else None
    if backup is not None:
        os.replace(target, backup)
    try:
        os.replace(staging, target)
    except BaseException:
        if backup is not None:
            os.replace(backup, target)
        raise
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)
    _fsync_dir(target.parent)


def _fsync_tree(root: Path) -> None:
    """Flush every staged file and folder to disk, so the rename never publishes data still in cache."""
    for folder, _, files in os.walk(root):
        for name in files:
            _fsync_file(os.path.join(folder, name))
        _fsync_dir(Path(folder))


def _fsync_file(path: str) -> None:
    """Flush one staged file; best effort, like ``_fsync_dir`` (the rename itself is what must not fail)."""
    with suppress(OSError):
        fd = _open_for_fsync(path)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _open_for_fsync(path: str) -> int:
    """A writable handle, which every platform can fsync (Windows cannot fsync a read-only one); a file
    the caller made read-only gets a read-only handle, which POSIX can still fsync."""
    try:
        return os.open(path, os.O_RDWR)
    except PermissionError:
        return os.open(path, os.O_RDONLY)


def _fsync_dir(folder: Path) -> None:
    """Persist a folder's entries; best effort, as some platforms cannot open a folder."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _settle_modes(staging: Path, target: Path) -> None:
    """Modes for what the caller staged: a plain write gives 0644 under the usual umask, which would let
    other users read document text. Bottom-up, so a read-only old folder's mode is set after its files."""
    for folder, dirs, files in os.walk(staging, topdown=False):
        relative = Path(folder).relative_to(staging)
        for name, default in [*((f, FILE_MODE) for f in files), *((d, DIR_MODE) for d in dirs)]:
            place, before = Path(folder) / name, target / relative / name
            if place.is_symlink():
                continue
            same_kind = before.is_dir() == place.is_dir()
            os.chmod(place, _mode_for(before, default) if same_kind else default & ~_umask())


def _make_folders(folder: Path) -> None:
    """Create ``folder`` and its missing parents as new output folders (``DIR_MODE`` less the umask);
    ``Path.mkdir(parents=True)`` would give the parents the open 0777 less the umask."""
    if folder.is_dir():
        return
    if folder.parent != folder:
        _make_folders(folder.parent)
    try:
        folder.mkdir(mode=DIR_MODE)
    except FileExistsError:
        if not folder.is_dir():
            raise


def _mode_for(target: Path, default: int) -> int:
    """Keep the mode of the output being replaced; a new one gets ``default`` less the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return default & ~_umask()


def _umask() -> int:
    """The process umask. Linux shows it in /proc; elsewhere reading it means setting it, so the brief
    stand-in is strict (0o077): a thread racing this gets files too private, never too open."""
    with suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o077)
    os.umask(mask)
    return mask
