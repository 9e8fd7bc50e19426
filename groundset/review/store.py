"""The files a review reads and writes: the test set, its needs-review file and its rejected file.

Every action (keep, edit, reject, restore, tag, note) re-reads the files under a lock, changes one sample
and writes what changed atomically before it returns: a server killed at any moment loses nothing, and
two browser tabs on one file do not overwrite each other (the later write starts from the earlier one's
file). An edit or note names the text it replaces (``base``): when another tab changed that text in the
meantime, the action is refused with :class:`ReviewConflict` rather than silently undoing it. Tags are
added and removed one by one, so two tabs' tags merge.

A sample keeps its id whatever is edited, so ``generate --refresh`` keeps it (see ``refresh``). Rejected
samples move to ``<testset>.rejected.jsonl`` with the reason; a reject writes that file first and the test
set second, so a crash between the two leaves the sample in both, never in neither (read as rejected).
A sample a refresh sent to ``<testset>.needs-review.jsonl`` is reviewed there: keeping it sets
``"restore": true``, so the next refresh puts it back.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..samples.rejected import read_rejected, rejected_path, write_rejected
from ..samples.testset import Testset, TestsetSample, sample_record
from ..synthesizers.refresh.review_file import needs_review_path, read_records, write_records

__all__ = [
    "NEEDS_REVIEW",
    "PENDING",
    "REJECTED",
    "STATUSES",
    "Item",
    "ReviewConflict",
    "ReviewStore",
    "UnknownSample",
]

PENDING = "pending"  # generated, nobody looked at it yet
KEPT = "kept"  # reviewed as it was generated
EDITED = "edited"  # reviewed after a person changed its question or reference
REJECTED = "rejected"  # in the rejected file
NEEDS_REVIEW = "needs review"  # a refresh sent it to the needs-review file: its sources changed
STATUSES = (PENDING, KEPT, EDITED, NEEDS_REVIEW, REJECTED)

_thread_lock = threading.Lock()  # one server's tabs; the lock file also covers a second process


class ReviewConflict(ConfigError):
    """The text an action would replace was changed by another tab (or process) since the page loaded."""


class UnknownSample(ConfigError):
    """No sample with that id in the test set, its needs-review file or its rejected file."""


@dataclass(frozen=True)
class Item:
    """One sample as the review shows it: where it lives and its status."""

    sample: TestsetSample
    status: str
    place: str  # "testset", "needs_review" or "rejected"
    record: dict[str, Any] = field(default_factory=dict)  # its needs-review or rejected record

    @property
    def restoring(self) -> bool:
        """A needs-review sample a person kept: the next refresh puts it back."""
        return self.place == "needs_review" and bool(self.record.get("restore"))


class ReviewStore:
    """The review's view of ``path`` (a test set, JSONL or CSV) and the two files beside it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise ConfigError(f"no test set at {self.path}: give the JSONL (or CSV) file `generate` wrote")
        self.needs_review = needs_review_path(self.path)
        self.rejected = rejected_path(self.path)
        self._lock_path = self.path.with_name(f".{self.path.name}.review-lock")
        Testset.from_jsonl(self.path) if not self._csv else Testset.from_csv(self.path)  # fail early

    @property
    def _csv(self) -> bool:
        return self.path.suffix.lower() == ".csv"

    # Reading.

    def items(self) -> list[Item]:
        """Every sample: the test set's in file order, then those waiting for review, then the rejected."""
        with self._locked():
            return self._items()

    def item(self, sample_id: str) -> Item:
        return self._find(self.items(), sample_id)

    def _items(self) -> list[Item]:
        rejected = read_rejected(self.rejected)
        gone = {r["id"] for r in rejected}
        found = [Item(s, _status(s), "testset") for s in self._testset() if s.id not in gone]
        for record in (r for r in read_records(self.needs_review) if r["id"] not in gone):
            found.append(Item(_sample_of(record, self.needs_review), NEEDS_REVIEW, "needs_review", record))
        for record in rejected:
            found.append(Item(_sample_of(record, self.rejected), REJECTED, "rejected", record))
        return found

    def _testset(self) -> Testset:
        return Testset.from_csv(self.path) if self._csv else Testset.from_jsonl(self.path)

    # Actions: each returns the item as it is now.

    def keep(self, sample_id: str, keep: bool = True) -> Item:
        """Mark the sample reviewed (``keep=False`` takes that back); one waiting for review is restored at
        the next refresh."""

        def change(sample: TestsetSample) -> TestsetSample:
            return sample.model_copy(update={"reviewed": keep})

        return self._change(sample_id, change, restore=keep)

    def edit(self, sample_id: str, *, question: str, reference: str, base: dict[str, str]) -> Item:
        """Replace the question and reference (``base``: the texts the page showed); the id stays, and
        the sample is reviewed and marked edited."""
        question, reference = question.strip(), reference.strip()
        if not question or not reference:
            raise ConfigError("an edit needs a question and a reference; reject the sample to take it out")

        def change(sample: TestsetSample) -> TestsetSample:
            _check_base(sample, "user_input", base.get("question"), question)
            _check_base(sample, "reference", base.get("reference"), reference)
            if (_plain(question), _plain(reference)) == (_plain(sample.user_input), _plain(sample.reference)):
                return sample.model_copy(update={"reviewed": True})
            update = {"user_input": question, "reference": reference, "reviewed": True, "edited": True}
            return sample.model_copy(update=update)

        return self._change(sample_id, change, restore=True)

    def note(self, sample_id: str, note: str, *, base: str | None = None) -> Item:
        """Set the review note (``base``: the note the page showed)."""
        note = note.strip()

        def change(sample: TestsetSample) -> TestsetSample:
            _check_base(sample, "review_note", base, note)
            return sample.model_copy(update={"review_note": note})

        return self._change(sample_id, change)

    def tag(self, sample_id: str, *, add: Sequence[str] = (), remove: Sequence[str] = ()) -> Item:
        """Add and remove tags (one word each: "critical", "billing-v2")."""
        added = [t.strip() for t in add if t.strip()]

        def change(sample: TestsetSample) -> TestsetSample:
            tags = [t for t in sample.tags if t not in set(remove)] + added
            return sample.model_copy(update={"tags": tags})  # checked in _change

        return self._change(sample_id, change)

    def reject(self, sample_id: str, reason: str) -> Item:
        """Move the sample to the rejected file with ``reason``; it is never deleted."""
        reason = reason.strip()
        if not reason:
            raise ConfigError("a rejection needs a reason (what is wrong with the sample)")
        with self._locked():
            current = self._find(self._items(), sample_id)
            if current.place == "rejected":
                return current
            record = {
                "id": sample_id,
                "reason": reason,
                "rejected_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "from": current.place,
                "sample": sample_record(current.sample),
            }
            if current.place == "needs_review":
                record["needs_review"] = {k: v for k, v in current.record.items() if k != "sample"}
            write_rejected(self.rejected, [*read_rejected(self.rejected), record])  # first: never in neither
            if current.place == "testset":
                self._write_testset(lambda samples: [s for s in samples if s.id != sample_id])
            else:
                records = read_records(self.needs_review)
                write_records(self.needs_review, [r for r in records if r["id"] != sample_id])
            return self._find(self._items(), sample_id)

    def restore(self, sample_id: str) -> Item:
        """Put a rejected sample back where it came from (the test set, or the needs-review file)."""
        with self._locked():
            current = self._find(self._items(), sample_id)
            if current.place != "rejected":
                return current
            record = current.record
            if record.get("from") == "needs_review" and isinstance(record.get("needs_review"), dict):
                waiting = read_records(self.needs_review)
                if all(r["id"] != sample_id for r in waiting):
                    back = {**record["needs_review"], "sample": sample_record(current.sample)}
                    write_records(self.needs_review, [*waiting, back])
            else:
                self._write_testset(lambda samples: _with(samples, current.sample))
            rest = [r for r in read_rejected(self.rejected) if r["id"] != sample_id]
            write_rejected(self.rejected, rest)  # last: a crash before it leaves it rejected, not lost
            return self._find(self._items(), sample_id)

    # Writing.

    def _change(
        self, sample_id: str, change: Callable[[TestsetSample], TestsetSample], *, restore: bool | None = None
    ) -> Item:
        with self._locked():
            current = self._find(self._items(), sample_id)
            changed = _validated(change(current.sample))
            if current.place == "testset":
                if changed != current.sample:
                    self._write_testset(lambda samples: _replaced(samples, changed))
            else:
                waiting = current.place == "needs_review"
                path = self.needs_review if waiting else self.rejected
                records = (read_records if waiting else read_rejected)(path)
                for record in records:
                    if record["id"] == sample_id:
                        record["sample"] = sample_record(changed)
                        if restore is not None and waiting:
                            record["restore"] = restore
                (write_records if waiting else write_rejected)(path, records)
            return self._find(self._items(), sample_id)

    def _write_testset(self, edit: Callable[[list[TestsetSample]], list[TestsetSample]]) -> None:
        old = self._testset()
        new = Testset(edit(list(old)), old.metadata)
        if self._csv:
            new.to_csv(self.path)
        else:
            new.to_jsonl(self.path)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One action at a time: a thread lock for this server's tabs, a file lock for another process."""
        with _thread_lock:
            try:
                import fcntl
            except ImportError:  # Windows: one server per file
                yield
                return
            fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)

    @staticmethod
    def _find(items: list[Item], sample_id: str) -> Item:
        for item in items:
            if item.sample.id == sample_id:
                return item
        raise UnknownSample(
            f"no sample {sample_id!r} in the test set, its needs-review or its rejected file "
            "(reload the page: another tab may have changed it)"
        )


def _replaced(samples: list[TestsetSample], sample: TestsetSample) -> list[TestsetSample]:
    return [sample if s.id == sample.id else s for s in samples]


def _with(samples: list[TestsetSample], sample: TestsetSample) -> list[TestsetSample]:
    """``samples`` with ``sample`` at the end, unless it is there (a restore that crashed half-way)."""
    return samples if any(s.id == sample.id for s in samples) else [*samples, sample]


def _status(sample: TestsetSample) -> str:
    if not sample.reviewed:
        return PENDING
    return EDITED if sample.edited else KEPT


def _sample_of(record: dict[str, Any], path: Path) -> TestsetSample:
    try:
        return TestsetSample.model_validate(record["sample"])
    except ValueError as exc:
        raise ConfigError(f"{path}: record {record['id']}: its sample is not valid: {exc}") from None


def _validated(sample: TestsetSample) -> TestsetSample:
    """A copy changed with ``model_copy`` skips validation: check it as a file would load it."""
    try:
        return TestsetSample.model_validate(sample.model_dump())
    except ValueError as exc:
        raise ConfigError(f"that change makes the sample invalid: {exc}") from None


def _plain(text: str) -> str:
    """A text as a page gives it back: line ends as ``\n``, no white space around it (a textarea drops a
    leading line end and turns ``\r\n`` into ``\n``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def _check_base(sample: TestsetSample, name: str, base: str | None, new: str) -> None:
    current = getattr(sample, name)
    if base is not None and _plain(base) != _plain(current) and _plain(current) != _plain(new):
        what = {"user_input": "question", "reference": "reference", "review_note": "note"}[name]
        raise ReviewConflict(
            f"the {what} of {sample.id} was changed elsewhere (another tab?) since this page loaded: "
            "reload to see it, then edit again"
        )
