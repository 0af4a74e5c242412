"""A task's reference as the play stage's oracle (``--playtest-benchmark-differential``; docs/differential.md).

A task's ``repo`` with its own code in place is a working app. Its playtest is recorded once per task as a
golden run (explored with the task's spec, then replayed to measure its noise); a sample that passes its own
playtest then replays the reference's inputs, and fails its play stage if it shows something else.

The references live in one folder per task under ``paths.references_path``: xdist workers take turns through
a lock file per task, and shards and resumed runs reuse what an earlier process recorded. A reference that
could not be recorded is kept as the reason why, so that no other sample of its task tries again.
"""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..report.artifacts import slugify
from ..settings import DIFFERENTIAL_MODES as DIFFERENTIAL_MODES  # what --playtest-benchmark-differential takes
from ..settings import DifferentialMode as DifferentialMode
from ..sights import SIGHTS_FILE

#: Why a task has no reference (its own playtest did not pass, its copy could not be built...).
UNAVAILABLE_FILE = "unavailable.txt"
#: What a sample failed by: its own playtest, or the reference's inputs (``failed_by`` of a play stage).
FailedBy = Literal["playtest", "divergence"]


@dataclass(frozen=True)
class Reference:
    """A task's recorded reference (``folder``), or why it has none."""

    folder: Path
    why_not: str = ""

    @property
    def available(self) -> bool:
        return not self.why_not


class References:
    """The references of one run's tasks, each recorded by the first process that needs it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def folder(self, suite: str, task_id: str) -> Path:
        return self.root / slugify(suite) / slugify(task_id)

    def get(self, suite: str, task_id: str, record: Callable[[Path], str]) -> Reference:
        """The task's reference; ``record(folder)`` records it there when no process has yet, and returns
        why it could not ("" when it did)."""
        folder = self.folder(suite, task_id)
        folder.parent.mkdir(parents=True, exist_ok=True)
        with _locked(folder.with_name(folder.name + ".lock")):
            if not _settled(folder):
                shutil.rmtree(folder, ignore_errors=True)  # what a killed recording left
                why_not = record(folder)
                if why_not:
                    folder.mkdir(parents=True, exist_ok=True)
                    (folder / UNAVAILABLE_FILE).write_text(why_not + "\n", encoding="utf-8")
        unavailable = folder / UNAVAILABLE_FILE
        return Reference(folder, unavailable.read_text(encoding="utf-8").strip() if unavailable.is_file() else "")

    def clear(self) -> None:
        """Forget every reference: a new run records them anew (a resumed one keeps them)."""
        shutil.rmtree(self.root, ignore_errors=True)


def _settled(folder: Path) -> bool:
    return (folder / SIGHTS_FILE).is_file() or (folder / UNAVAILABLE_FILE).is_file()


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (released when the process dies, so a killed worker blocks no one)."""
    with open(path, "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
