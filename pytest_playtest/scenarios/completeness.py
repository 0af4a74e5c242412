"""Functional completeness, as SeDev defines it: passed cases / all cases, per file and overall.

Skipped cases (not performable or not checkable offline) stay in the denominator and are counted apart, so
a run without a model can be told from one with; ``fc_checked`` leaves them out. Malformed items have no
cases to count and are listed beside the figures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .model import CASE_STATUSES


@dataclass
class Tally:
    """The case outcomes of one file (or all of them)."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0
    malformed: int = 0

    @property
    def cases(self) -> int:
        return self.passed + self.failed + self.skipped + self.errors

    @property
    def fc(self) -> float | None:
        return self.passed / self.cases if self.cases else None

    @property
    def fc_checked(self) -> float | None:
        checked = self.cases - self.skipped
        return self.passed / checked if checked else None

    def add(self, status: str) -> None:
        field = {"pass": "passed", "fail": "failed", "skip": "skipped", "error": "errors"}[status]
        setattr(self, field, getattr(self, field) + 1)

    def merge(self, other: Tally) -> None:
        for name in ("passed", "failed", "skipped", "errors", "malformed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict[str, Any]:
        return {"cases": self.cases, "passed": self.passed, "failed": self.failed, "skipped": self.skipped,
                "errors": self.errors, "malformed_items": self.malformed, "fc": _rounded(self.fc),
                "fc_checked": _rounded(self.fc_checked)}

    def describe(self) -> str:
        """``FC 3/5 = 60% (1 failed, 1 skipped)``."""
        head = f"FC {self.passed}/{self.cases}" + (f" = {self.fc:.0%}" if self.fc is not None else "")
        rest = [f"{count} {word}" for count, word in ((self.failed, "failed"), (self.skipped, "skipped"),
                                                      (self.errors, "error(s)"),
                                                      (self.malformed, "malformed item(s)")) if count]
        return head + (f" ({', '.join(rest)})" if rest else "")


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def tally(statuses_by_file: Mapping[str, Iterable[str]], malformed_by_file: Mapping[str, int]) -> dict[str, Tally]:
    """One Tally per file from its case statuses (``CASE_STATUSES``) and its malformed items."""
    tallies: dict[str, Tally] = {}
    for path in sorted({*statuses_by_file, *malformed_by_file}):
        counted = Tally(malformed=malformed_by_file.get(path, 0))
        for status in statuses_by_file.get(path, ()):
            if status not in CASE_STATUSES:
                raise ValueError(f"unknown case status {status!r}")
            counted.add(status)
        tallies[path] = counted
    return tallies


def overall(tallies: Mapping[str, Tally]) -> Tally:
    total = Tally()
    for counted in tallies.values():
        total.merge(counted)
    return total


def results(tallies: Mapping[str, Tally]) -> dict[str, Any]:
    """The ``scenarios`` entry of the ``--playtest-results`` JSON."""
    return {"files": {path: counted.to_dict() for path, counted in tallies.items()},
            "overall": overall(tallies).to_dict()}
