"""The record of a run: one Step per action, written as JSONL beside the screenshots.

A trajectory file holds a header line (``{"trajectory": 1, ...}``: app, policy, window size, seed)
followed by one line per step. Replay (``policies/replay.py``) reads it back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .actions import Action
from .files import TRAJECTORY_FILE

FORMAT_VERSION = 1
T = TypeVar("T")


@dataclass
class Step:
    """What one action did: the frame before and after, whether the window changed, what it cost."""

    index: int
    action: Action
    before_hash: str = ""
    after_hash: str = ""
    changed: bool = False
    changed_fraction: float = 0.0
    changed_box: tuple[int, int, int, int] | None = None
    text: str = ""
    tokens: int = 0
    #: of ``tokens``, the prompt's, and of those the cached ones (``Verdict.cached_tokens``)
    prompt_tokens: int = 0
    cached_tokens: int = 0
    started: float = 0.0
    duration: float = 0.0
    note: str = ""
    screenshot: str | None = None
    window: tuple[int, int] = (0, 0)
    error: str | None = None
    findings: list[str] = field(default_factory=list)
    #: lines of the app's code first reached during this step (None: coverage is not measured)
    new_lines: int | None = None
    #: which launch of the app the step acted on (1, then 2... after the app exited normally and was relaunched)
    launch: int = 1
    #: what the step was for in the words of the test (a scenario's step or expectation); "" when it has none
    caption: str = ""
    #: the policy aimed the input at what the screen showed (``Decision.aimed``)
    aimed: bool = False
    #: the way a course-keeping avatar was going when the input was given (``Decision.heading``)
    heading: str = ""
    #: the lines of the app's code first reached during this step, ``file:line`` (coverage only; a differential
    #: run compares them with its golden run's to point at the code that ran differently)
    reached: tuple[str, ...] = ()

    @property
    def effect(self) -> str:
        if self.error:
            return f"refused: {self.error}"
        reached = f", {self.new_lines} new line(s) of code" if self.new_lines else ""
        if not self.changed:
            return f"no visible change{reached}"
        return f"window changed ({self.changed_fraction:.1%} of pixels){reached}"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["action"] = self.action.to_dict()
        data["effect"] = self.effect
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["action"] = Action.from_dict(data["action"])
        if known.get("changed_box") is not None:
            known["changed_box"] = tuple(known["changed_box"])
        if "window" in known:
            known["window"] = tuple(known["window"])
        if "reached" in known:
            known["reached"] = tuple(known["reached"])
        return cls(**known)


@dataclass
class Trajectory:
    """A header and the steps of one run."""

    header: dict[str, Any] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)

    def write(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / TRAJECTORY_FILE
        with path.open("w", encoding="utf-8") as out:
            out.write(json.dumps({"trajectory": FORMAT_VERSION, **self.header}) + "\n")
            for step in self.steps:
                out.write(json.dumps(step.to_dict()) + "\n")
        return path

    @classmethod
    def read(cls, source: Path) -> Trajectory:
        """Read a trajectory from its file or the folder holding it; errors name the file and line."""
        path = source / TRAJECTORY_FILE if source.is_dir() else source
        if not path.exists():
            raise FileNotFoundError(f"no trajectory at {path}")
        header, steps = read_records(path, "trajectory", FORMAT_VERSION, Step.from_dict)
        return cls(header=header, steps=steps)


def read_records(path: Path, kind: str, version: int,
                 record: Callable[[dict[str, Any]], T]) -> tuple[dict[str, Any], list[T]]:
    """A JSONL file of ours: a header line ``{kind: version, ...}`` (returned without that key), then one
    ``record`` a line. A bad line is a ValueError naming the file and the line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise ValueError(f"{path}: empty {kind} file")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}:1: bad header: {exc}") from None
    if not isinstance(header, dict) or header.get(kind) != version:
        raise ValueError(f"{path}:1: not a version-{version} {kind} header")
    records = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            records.append(record(json.loads(line)))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"{path}:{number}: bad {kind} line: {exc!r}") from None
    header.pop(kind)
    return header, records
