"""`--write-docs`: a benchmark script puts the figures it just printed into its section of docs/benchmarks.md.

Each script owns the lines between its two markers (``<!-- begin benchmark NAME ... -->`` and
``<!-- end benchmark NAME -->``); the rest of the page, the prose around every section included, is kept
byte for byte. The page is replaced atomically, so a reader or another script never sees half of it.
Standard library only: benchmarks/ragas_prompt_chars.py runs in a Python without groundset.

In a script::

    if __name__ == "__main__":
        with recorded("kg_build"):
            main()
"""

from __future__ import annotations

import io
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "benchmarks.md"
FLAG = "--write-docs"


def markers(name: str) -> tuple[str, str]:
    return (
        f"<!-- begin benchmark {name} (written by benchmarks/{name}.py --write-docs) -->",
        f"<!-- end benchmark {name} -->",
    )


def replace_section(page: str, name: str, body: str) -> str:
    """``page`` with the lines between ``name``'s markers replaced by ``body``; everything else as it was."""
    begin, end = markers(name)
    if page.count(begin) != 1 or page.count(end) != 1 or page.index(begin) > page.index(end):
        raise ValueError(f"the page needs exactly one {begin!r} followed by one {end!r}")
    head, rest = page.split(begin, 1)
    tail = rest.split(end, 1)[1]
    return f"{head}{begin}\n{body.strip(chr(10))}\n{end}{tail}"


def write_section(name: str, body: str, page: Path = PAGE) -> None:
    """Replace ``name``'s section of ``page`` atomically (a temporary file beside it, then a rename)."""
    text = replace_section(page.read_text(encoding="utf-8"), name, body)
    handle, temporary = tempfile.mkstemp(dir=page.parent, prefix=f".{page.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, page.stat().st_mode & 0o777)
        os.replace(temporary, page)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _git(*args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return ""
    return done.stdout.strip()


def provenance() -> str:
    """When, where and from which commit the figures come: the line above every written section."""
    commit = _git("rev-parse", "--short", "HEAD") or "unknown"
    if _git("status", "--porcelain", "--untracked-files=no"):
        commit += " with uncommitted changes"
    return (
        f"Measured {date.today().isoformat()} on {os.cpu_count()} cores ({platform.system()} "
        f"{platform.machine()}, Python {platform.python_version()}), commit {commit}."
    )


def section_body(output: str, command: Sequence[str]) -> str:
    """The provenance line, the command and its output in a fence longer than any backtick run inside."""
    fence = "`" * max(3, _longest_backtick_run(output) + 1)
    shown = " ".join(["python", *command])
    return f"{provenance()}\n\n`{shown}`\n\n{fence}text\n{output.rstrip()}\n{fence}"


def _longest_backtick_run(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return longest


class _Tee(io.TextIOBase):
    """Writes go to the terminal as before and into a buffer for the section."""

    def __init__(self, terminal: io.TextIOBase, copy: io.StringIO) -> None:
        self.terminal, self.copy = terminal, copy

    def write(self, text: str) -> int:
        self.copy.write(text)
        return self.terminal.write(text)

    def flush(self) -> None:
        self.terminal.flush()

    @property
    def encoding(self) -> str | None:  # type: ignore[override]
        return getattr(self.terminal, "encoding", None)


@contextmanager
def recorded(name: str, argv: list[str] | None = None, page: Path = PAGE) -> Iterator[None]:
    """With ``--write-docs`` in ``argv`` (default ``sys.argv``): take the flag out, so the script's own
    argument parsing never sees it, copy everything the block prints, and when the block ends without an
    error write it as ``name``'s section. The markers are checked first, so a long run is not wasted."""
    argv = sys.argv if argv is None else argv
    if FLAG not in argv:
        yield
        return
    argv[:] = [arg for arg in argv if arg != FLAG]
    replace_section(page.read_text(encoding="utf-8"), name, "")  # fails now if the markers are missing
    command = [f"benchmarks/{Path(argv[0]).name}", *argv[1:]]
    copy, terminal = io.StringIO(), sys.stdout
    sys.stdout = _Tee(terminal, copy)
    try:
        yield
    finally:
        sys.stdout = terminal
    write_section(name, section_body(copy.getvalue(), command), page)
    print(f"wrote the {name} section of {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}")


def print_child_output(command: Sequence[str]) -> None:
    """Run a child process and print its output line by line, so a recorded section holds it too (a child
    writing to the inherited stdout would reach the terminal only)."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:
            print(line, end="", flush=True)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, command)
