"""The outcome of a playtest: a Verdict made of Findings, each with its evidence."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from .files import STORYBOARD_FILE

Status = Literal["pass", "fail", "error"]
#: Every kind a Finding may have, in the order the summary lists them.
FindingKind = Literal[
    "crash", "no_window", "exception", "freeze", "unresponsive", "expectation", "judge", "timeout"]
FINDING_KINDS: tuple[FindingKind, ...] = get_args(FindingKind)


@dataclass
class Finding:
    """One reason a run failed: what happened, at which step, with a screenshot if one was taken."""

    kind: FindingKind
    message: str
    step: int | None = None
    screenshot: str | None = None
    details: str = ""

    def __post_init__(self) -> None:
        if self.kind not in FINDING_KINDS:
            raise ValueError(f"unknown finding kind {self.kind!r}; expected one of {', '.join(FINDING_KINDS)}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        return cls(**{k: data[k] for k in ("kind", "message", "step", "screenshot", "details") if k in data})

    def describe(self) -> str:
        where = f"step {self.step}" if self.step is not None else "end of run"
        return f"[{self.kind}] at {where}: {self.message}"


@dataclass
class Verdict:
    """What a playtest concluded. ``bool(verdict)`` is ``verdict.passed``.

    ``status`` is ``"error"`` when the harness or its infrastructure failed (no display, endpoint down,
    missing app file): that is never the app's fault, so it is never reported as ``"fail"``.
    """

    status: Status
    findings: list[Finding] = field(default_factory=list)
    steps: int = 0
    tokens: int = 0
    artifacts: Path | None = None
    policy: str = ""
    duration: float = 0.0
    exit_code: int | None = None
    error: str | None = None
    notes: list[str] = field(default_factory=list)

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
            evidence = finding.details.strip().splitlines()[-detail_lines:] if finding.details else []
            lines.extend(f"      {line.strip()}" for line in evidence)
            if finding.screenshot:
                lines.append(f"      screenshot: {finding.screenshot}")
        lines.extend(f"  note: {note}" for note in self.notes)
        facts = [f"{self.duration:.1f}s"] + ([f"{self.tokens} model tokens"] if self.tokens else [])
        if self.exit_code is not None:
            facts.append(f"exit code {self.exit_code}")
        lines.append(f"  took {', '.join(facts)}")
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
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        return cls(
            status=data["status"],
            findings=[Finding.from_dict(f) for f in data.get("findings", [])],
            steps=data.get("steps", 0),
            tokens=data.get("tokens", 0),
            artifacts=Path(data["artifacts"]) if data.get("artifacts") else None,
            policy=data.get("policy", ""),
            duration=data.get("duration", 0.0),
            exit_code=data.get("exit_code"),
            error=data.get("error"),
            notes=list(data.get("notes", [])),
        )
