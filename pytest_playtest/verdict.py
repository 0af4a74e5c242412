"""The outcome of a playtest: a Verdict made of Findings, each with its evidence."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["pass", "fail", "error"]

#: Every kind a Finding may have, in the order the summary lists them.
FINDING_KINDS: tuple[str, ...] = (
    "crash",
    "exception",
    "freeze",
    "unresponsive",
    "expectation",
    "judge",
    "timeout",
)


@dataclass
class Finding:
    """One reason a run failed: what happened, at which step, with a screenshot if one was taken."""

    kind: str
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

    def summary(self) -> str:
        head = f"playtest {self.status.upper()} after {self.steps} step(s) in {self.duration:.1f}s"
        extras = [f"policy={self.policy}"] if self.policy else []
        if self.tokens:
            extras.append(f"tokens={self.tokens}")
        if self.exit_code is not None:
            extras.append(f"exit code={self.exit_code}")
        lines = [head + (f" ({', '.join(extras)})" if extras else "")]
        if self.error:
            lines.append(f"  error: {self.error}")
        for finding in self.findings:
            lines.append(f"  - {finding.describe()}")
            if finding.details:
                lines.extend(f"      {line}" for line in finding.details.rstrip().splitlines()[-12:])
            if finding.screenshot:
                lines.append(f"      screenshot: {finding.screenshot}")
        lines.extend(f"  note: {note}" for note in self.notes)
        if self.artifacts:
            lines.append(f"  artifacts: {self.artifacts}")
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
