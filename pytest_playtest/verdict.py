"""The outcome of a playtest: a Verdict made of Findings, each with its evidence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from .files import STORYBOARD_FILE

Status = Literal["pass", "fail", "error"]
#: Every kind a Finding may have, in the order the summary lists them.
FindingKind = Literal[
    "crash", "no_window", "exception", "freeze", "unresponsive", "expectation", "judge", "timeout", "diverges"]
FINDING_KINDS: tuple[FindingKind, ...] = get_args(FindingKind)
#: How a finding's place in the code was found: the innermost frame of the app's own code in a stack dump of the
#: frozen app (``stack``) or in its traceback (``traceback``), the paused script of a frozen page (``script``),
#: where the code compares a dead input (``handler``), where an expected text is produced (``producer``), the
#: lines a replay ran that its golden run did not, or the reverse (``coverage``).
LocationHow = Literal["stack", "traceback", "script", "handler", "producer", "coverage", "value", "slip"]
LOCATION_HOWS: tuple[LocationHow, ...] = get_args(LocationHow)


@dataclass
class Location:
    """Where in the app's code a finding points: a file (relative to the app's folder when inside it, a page's
    address for a web app), its line (1-based) and column (when known), the function, the line's text, how the
    place was found, and what was seen there ("its branch ran 0 of the 23 times Left was pressed")."""

    file: str
    line: int
    how: LocationHow
    function: str = ""
    text: str = ""
    column: int | None = None
    detail: str = ""
    #: the lines around it, numbered, the line itself marked ``>`` (what the report and a repair prompt show)
    excerpt: str = ""

    def __post_init__(self) -> None:
        if self.how not in LOCATION_HOWS:
            raise ValueError(f"unknown location kind {self.how!r}; expected one of {', '.join(LOCATION_HOWS)}")

    def describe(self) -> str:
        """``game.py:42 in update: while x > 0:`` (and the detail, when there is one)."""
        place = f"{self.file}:{self.line}" + (f":{self.column}" if self.column is not None else "")
        if self.function:
            place += f" in {self.function}"
        if self.text:
            place += f": {self.text.strip()}"
        return place + (f" ({self.detail})" if self.detail else "")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Location:
        return cls(file=str(data["file"]), line=int(data["line"]), how=data["how"],
                   function=str(data.get("function", "")), text=str(data.get("text", "")),
                   column=data.get("column"), detail=str(data.get("detail", "")),
                   excerpt=str(data.get("excerpt", "")))


@dataclass
class Finding:
    """One reason a run failed: what happened, at which step, with a screenshot if one was taken."""

    kind: FindingKind
    message: str
    step: int | None = None
    screenshot: str | None = None
    details: str = ""
    #: seconds into the run when it was found (the end of its step): the time a tester took to find it
    seconds: float | None = None
    #: a ``diverges`` finding's picture of the golden run at that step (the nearest kept before it), if kept
    reference: str | None = None
    #: where in the app's code it points (None: no place was found)
    location: Location | None = None

    def __post_init__(self) -> None:
        if self.kind not in FINDING_KINDS:
            raise ValueError(f"unknown finding kind {self.kind!r}; expected one of {', '.join(FINDING_KINDS)}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        finding = cls(**{k: data[k] for k in ("kind", "message", "step", "screenshot", "details", "seconds",
                                              "reference") if k in data})
        if data.get("location"):
            finding.location = Location.from_dict(data["location"])
        return finding

    def describe(self) -> str:
        where = f"step {self.step}" if self.step is not None else "end of run"
        place = f" (at {self.location.describe()})" if self.location else ""
        return f"[{self.kind}] at {where}: {self.message}{place}"


@dataclass(frozen=True)
class FileCoverage:
    """Lines and branches of one file of the app: how many ran, how many there are."""

    lines_hit: int
    lines_total: int
    branches_hit: int
    branches_total: int

    def to_dict(self) -> dict[str, int]:
        return {"lines_hit": self.lines_hit, "lines_total": self.lines_total,
                "branches_hit": self.branches_hit, "branches_total": self.branches_total}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FileCoverage:
        return cls(int(data["lines_hit"]), int(data["lines_total"]), int(data["branches_hit"]),
                   int(data["branches_total"]))


def _percent(hit: int, total: int) -> str:
    """Like coverage.py's display: never 0% when something ran, never 100% when something did not."""
    if not total:
        return "n/a"
    value = round(100 * hit / total)
    if hit and not value:
        value = 1
    elif hit < total and value == 100:
        value = 99
    return f"{value}%"


@dataclass(frozen=True)
class CoverageReport:
    """Lines and branches hit/total per file (paths relative to the source folder), and in total."""

    files: dict[str, FileCoverage] = field(default_factory=dict)

    @property
    def lines_hit(self) -> int:
        return sum(f.lines_hit for f in self.files.values())

    @property
    def lines_total(self) -> int:
        return sum(f.lines_total for f in self.files.values())

    @property
    def branches_hit(self) -> int:
        return sum(f.branches_hit for f in self.files.values())

    @property
    def branches_total(self) -> int:
        return sum(f.branches_total for f in self.files.values())

    def describe(self) -> str:
        """One line: ``lines 412/530 (78%), branches 96/170 (56%)``."""
        lines, branches = (self.lines_hit, self.lines_total), (self.branches_hit, self.branches_total)
        return (f"lines {lines[0]}/{lines[1]} ({_percent(*lines)}), "
                f"branches {branches[0]}/{branches[1]} ({_percent(*branches)})")

    def to_dict(self) -> dict[str, Any]:
        return {"lines_hit": self.lines_hit, "lines_total": self.lines_total,
                "branches_hit": self.branches_hit, "branches_total": self.branches_total,
                "files": {name: stats.to_dict() for name, stats in sorted(self.files.items())}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CoverageReport:
        """The inverse of :meth:`to_dict` (the totals are recomputed from the files)."""
        return cls({str(name): FileCoverage.from_dict(stats) for name, stats in data.get("files", {}).items()})


@dataclass
class Verdict:
    """What a playtest concluded. ``bool(verdict)`` is ``verdict.passed``.

    ``status`` is ``"error"`` when the harness or its infrastructure failed (no display, endpoint down,
    missing app file): that is never the app's fault, so it is never reported as ``"fail"``.
    """

    status: Status
    findings: list[Finding] = field(default_factory=list)
    steps: int = 0
    #: model tokens, prompt + completion, as the endpoint reported them
    tokens: int = 0
    #: of ``tokens``, the prompt's; of those, the ones the endpoint served from its prompt cache
    #: (``usage.prompt_tokens_details.cached_tokens``; 0 when it does not say)
    prompt_tokens: int = 0
    cached_tokens: int = 0
    artifacts: Path | None = None
    policy: str = ""
    duration: float = 0.0
    exit_code: int | None = None
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    #: lines and branches of the app's code the run reached (None: not measured, see ``coverage=``)
    coverage: CoverageReport | None = None

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def __bool__(self) -> bool:
        return self.passed

    def kinds(self) -> list[str]:
        """The distinct finding kinds, in contract order."""
        present = {f.kind for f in self.findings}
        return [k for k in FINDING_KINDS if k in present]

    def first(self, kind: str) -> Finding | None:
        return next((f for f in self.findings if f.kind == kind), None)

    def summary(self, *, detail_lines: int = 3) -> str:
        """The verdict in a few lines: the outcome, each finding with its step and the last ``detail_lines``
        of its evidence, notes, and where to look. The terminal report and assertion messages both use it."""
        head = f"playtest {self.status.upper()} after {self.steps} step(s)"
        if self.policy:
            head += f" (policy {self.policy})"
        if self.findings:
            head += ": " + ", ".join(self.kinds())
        lines = [head]
        if self.status == "error":
            lines.append(f"  harness error (not the app's fault): {self.error or 'unknown'}")
        for finding in self.findings:
            where = f"step {finding.step}" if finding.step is not None else "end of run"
            lines.append(f"  {where}: [{finding.kind}] {finding.message}")
            if finding.location:
                lines.append(f"      at {finding.location.describe()}")
            evidence = finding.details.strip().splitlines()[-detail_lines:] if finding.details else []
            lines.extend(f"      {line.strip()}" for line in evidence)
            if finding.screenshot:
                lines.append(f"      screenshot: {finding.screenshot}")
        lines.extend(f"  note: {note}" for note in self.notes)
        facts = [f"{self.duration:.1f}s"] + ([f"{self.tokens} model tokens"] if self.tokens else [])
        if self.cached_tokens:
            facts[-1] += f" ({self.cached_tokens} of the prompt's {self.prompt_tokens} cached)"
        if self.exit_code is not None:
            facts.append(f"exit code {self.exit_code}")
        lines.append(f"  took {', '.join(facts)}")
        if self.coverage:
            lines.append(f"  coverage: {self.coverage.describe()}")
        if self.artifacts:
            storyboard = Path(self.artifacts) / STORYBOARD_FILE
            if storyboard.exists():
                lines.append(f"  storyboard: {storyboard}")
            lines.append(f"  artifacts:  {self.artifacts}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["artifacts"] = str(self.artifacts) if self.artifacts else None
        data["passed"] = self.passed
        data["findings"] = [f.to_dict() for f in self.findings]
        data["coverage"] = self.coverage.to_dict() if self.coverage else None
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        return cls(
            status=data["status"],
            findings=[Finding.from_dict(f) for f in data.get("findings", [])],
            steps=data.get("steps", 0),
            tokens=data.get("tokens", 0),
            prompt_tokens=data.get("prompt_tokens", 0),
            cached_tokens=data.get("cached_tokens", 0),
            artifacts=Path(data["artifacts"]) if data.get("artifacts") else None,
            policy=data.get("policy", ""),
            duration=data.get("duration", 0.0),
            exit_code=data.get("exit_code"),
            error=data.get("error"),
            notes=list(data.get("notes", [])),
            coverage=CoverageReport.from_dict(data["coverage"]) if data.get("coverage") else None,
        )
